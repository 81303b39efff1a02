#!/usr/bin/env python3
"""Generate synthetic CMB credit-card bills (招商银行信用卡对账单, PDF) for MoneyFlow.

    python3 scripts/gen_cmb_card_samples.py            # writes Samples/cmb/card/

Deterministic (fixed seeds, reportlab invariant mode, fixed ZIP salts and timestamps): the same
command writes byte-identical files. The format imitated is FORMAT.md §3
(/work/shared/reference/cmb/FORMAT.md): title `招商银行信用卡对账单（个人消费卡账户 YYYY年MM月）`
(`（补）` on re-sent copies), header facts (账单日, 到期还款日, 信用额度, 本期还款总额, ...), the
bill's check line, then the table 交易日 | 记账日 | 交易摘要 | 人民币金额 | 卡号末四位 | 交易地金额
with `MM/DD` dates, section label rows (还款, 退款, 消费, ...), several pages, `[END]`.
All names, card numbers and amounts are invented. See Samples/cmb/card/README.md.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from typing import List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from reportlab.pdfgen.canvas import Canvas                          # noqa: E402
from cmbgen.pdfrender import MONO, SANS, ASCENT, PAGE_W, PAGE_H, register_fonts, width  # noqa: E402
from cmbgen.zipwriter import Entry, build_zip                       # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "Samples", "cmb", "card")
D = dt.date
Dec = Decimal
SIZE = 8.0

# Column header: (key, Chinese label, wrapped form, English label, x of the label, value alignment, value x)
COLUMNS = [
    ("sold", "交易日", ("交易日",), "SOLD", 36.0, "left", 36.0),
    ("posted", "记账日", ("记账日",), "POSTED", 84.0, "left", 84.0),
    ("desc", "交易摘要", ("交易摘要",), "DESCRIPTION", 132.0, "left", 132.0),
    ("rmb", "人民币金额", ("人民币", "金额"), "RMB AMOUNT", 340.0, "right", 382.0),
    ("card", "卡号末四位", ("卡号末", "四位"), "CARD NO(Last 4digits)", 400.0, "left", 404.0),
    ("orig", "交易地金额", ("交易地", "金额"), "Original Tran Amount", 478.0, "right", 559.0),
]
ROW_PITCH = 13.0
TABLE_BOTTOM = 790.0


def money(v: Decimal, places: int = 2) -> str:
    q = Dec(1).scaleb(-places)
    s = f"{abs(v).quantize(q):,.{places}f}"
    return ("-" if v < 0 else "") + s


def plain(v: Decimal, places: int = 2) -> str:
    q = Dec(1).scaleb(-places)
    return f"{v.quantize(q):.{places}f}"


@dataclass
class Row:
    section: str                 # 还款 / 退款 / 消费 / 分期 / 费用 / 利息 ...
    sold: Optional[dt.date]      # None on repayments
    posted: dt.date
    desc: str
    rmb: Decimal                 # as printed: positive = spending, negative = credit
    card: Optional[str]          # last four digits, None = empty cell
    orig: Optional[Tuple[Decimal, int, str]] = None   # (amount, decimals, region) when foreign

    def orig_text(self) -> str:
        if self.orig:
            amount, places, region = self.orig
            return f"{money(amount, places)}({region})"
        return f"{money(self.rmb)}(CN)"


@dataclass
class Bill:
    name: str
    holder: str
    card_number: str             # masked, last four digits real
    year: int
    month: int
    statement_date: dt.date
    due_date: dt.date
    credit_limit: Decimal
    previous_balance: Decimal
    interest: Decimal
    rows: List[Row]
    reissued: bool = False
    wrap_header: bool = False
    check_error: Decimal = Dec("0")   # added to 本期还款总额 (a bill whose check fails)
    rows_per_page: Optional[List[int]] = None
    password: Optional[str] = None
    header_card: bool = True          # False: no 卡号 in the header, as real bills print it
    footnotes: bool = False           # the standard notes (FOOTNOTES) after the last row
    pages: int = 0
    ops: List[list] = field(default_factory=list)

    @property
    def last4(self) -> str:
        return self.card_number[-4:]

    def sums(self):
        payment = -sum((r.rmb for r in self.rows if r.section == "还款"), Dec(0))
        adjustment = -sum((r.rmb for r in self.rows if r.section == "退款"), Dec(0))
        # 利息 rows are the 循环利息 fact, not new charges
        charges = sum((r.rmb for r in self.rows if r.section not in ("还款", "退款", "利息")), Dec(0))
        new_balance = self.previous_balance - payment + charges - adjustment + self.interest + self.check_error
        return payment, charges, adjustment, new_balance


class Page:
    def __init__(self):
        self.ops: List[Tuple[float, float, str, str, float]] = []   # x, top, text, font, size

    def text(self, x, top, text, font=MONO, size=SIZE):
        self.ops.append((x, top, text, font, size))

    def right(self, x1, top, text, font=MONO, size=SIZE):
        self.ops.append((x1 - width(text, font, size), top, text, font, size))


def header_ops(p: Page, b: Bill) -> float:
    title = f"招商银行信用卡对账单（个人消费卡账户 {b.year}年{b.month:02d}月）" + ("（补）" if b.reissued else "")
    if b.wrap_header:
        first, second = "招商银行信用卡对账单（个人消费卡账户", f"{b.year}年{b.month:02d}月）" + ("（补）" if b.reissued else "")
        p.text((PAGE_W - width(first, MONO, 14)) / 2, 36, first, MONO, 14)
        p.text((PAGE_W - width(second, MONO, 14)) / 2, 54, second, MONO, 14)
        top = 76
    else:
        p.text((PAGE_W - width(title, MONO, 14)) / 2, 40, title, MONO, 14)
        top = 62
    sub = "CMB Credit Card Statement"
    p.text((PAGE_W - width(sub, SANS, 9)) / 2, top, sub, SANS, 9)
    p.text(36, top + 22, f"尊敬的 {b.holder} 您好！以下是您的招商银行信用卡本期账单。", MONO, 9)
    payment, charges, adjustment, new_balance = b.sums()
    minimum = (new_balance / 10).quantize(Dec("0.01")) if new_balance > 0 else Dec(0)
    y = top + 46
    blocks = [
        [("账单日", "Statement Date", b.statement_date.strftime("%Y/%m/%d")),
         ("到期还款日", "Payment Due Date", b.due_date.strftime("%Y/%m/%d")),
         ("信用额度", "Credit Limit", "¥" + money(b.credit_limit))],
        [("本期还款总额", "New Balance", "¥" + money(new_balance)),
         ("本期最低还款额", "Minimum Payment", "¥" + money(minimum))]
        + ([("卡号", "Card Number", b.card_number)] if b.header_card else []),
    ]
    for block in blocks:
        for i, (cn, en, value) in enumerate(block):
            x = 36 + 180 * i
            p.text(x, y, cn)
            p.text(x, y + 10, en, SANS, 7)
            p.text(x, y + 21, value, MONO, 9)
        y += 40
    check = [("上期账单金额", "Balance B/F", b.previous_balance), ("上期还款金额", "Payment", payment),
             ("本期账单金额", "New Charges", charges), ("本期调整金额", "Adjustment", adjustment),
             ("循环利息", "Interest", b.interest)]
    for i, (cn, en, v) in enumerate(check):
        x = 36 + 106 * i
        p.text(x, y, cn)
        p.text(x, y + 10, en, SANS, 7)
        p.text(x, y + 21, "¥" + money(v), MONO, 8)
    y += 44
    p.text(36, y, "本期账务明细", MONO, 9)
    p.text(36 + width("本期账务明细", MONO, 9) + 6, y + 0.5, "Transaction Details", SANS, 8)
    return y + 20


def colhead_ops(p: Page, b: Bill, top: float) -> float:
    lines = 1
    for key, cn, wrapped, en, x, _, _ in COLUMNS:
        parts = wrapped if b.wrap_header else (cn,)
        for k, part in enumerate(parts):
            p.text(x, top + 10 * k, part)
        lines = max(lines, len(parts))
    en_top = top + 10 * lines
    for key, cn, wrapped, en, x, _, _ in COLUMNS:
        p.text(x, en_top, en, SANS, 6.5)
    return en_top + 16


def row_ops(p: Page, r: Row, top: float):
    if r.sold:
        p.text(COLUMNS[0][6], top, r.sold.strftime("%m/%d"))
    p.text(COLUMNS[1][6], top, r.posted.strftime("%m/%d"))
    p.text(COLUMNS[2][6], top, r.desc)
    p.right(COLUMNS[3][6], top, money(r.rmb))
    if r.card:
        p.text(COLUMNS[4][6], top, r.card)
    p.right(COLUMNS[5][6], top, r.orig_text())


def layout(b: Bill) -> List[Page]:
    """Rows in sections; a section label row before each section; pages break where the rows
    per page say (or where the page is full); `[END]` after the last row."""
    items: List[Tuple[str, object]] = []
    seen = None
    for r in b.rows:
        if r.section != seen:
            items.append(("section", r.section))
            seen = r.section
        items.append(("row", r))
    pages: List[Page] = []
    p = Page()
    y = colhead_ops(p, b, header_ops(p, b))
    per_page = list(b.rows_per_page or [])
    on_page = 0
    for kind, v in items:
        limit = per_page[len(pages)] if len(pages) < len(per_page) else 10 ** 6
        if y + ROW_PITCH > TABLE_BOTTOM or (kind == "row" and on_page >= limit):
            pages.append(p)
            p = Page()
            y = colhead_ops(p, b, 40.0)
            on_page = 0
        if kind == "section":
            p.text(36, y, v)
        else:
            row_ops(p, v, y)
            on_page += 1
        y += ROW_PITCH
    if b.footnotes:
        for note in FOOTNOTES:
            if y + ROW_PITCH > TABLE_BOTTOM:
                pages.append(p)
                p = Page()
                y = colhead_ops(p, b, 40.0)
            p.text(36, y, note, MONO, 7)
            y += ROW_PITCH
    p.text(36, y + 4, "[END]")
    p.text(36, y + 24, "温馨提示：本对账单仅供参考，如有疑问请致电招商银行信用卡客服热线4008205555。", MONO, 7)
    pages.append(p)
    n = len(pages)
    for i, pg in enumerate(pages):
        pg.right(559.0, 803.0, f"{i + 1}/{n}")
    return pages


# The standard notes a real bill prints under its rows (no rows; not worth a warning).
FOOTNOTES = [
    "(1) 本期账单金额 = 本期消费 + 本期取现 + 本期费用 + 本期利息 - 本期退款",
    "(2) 本期还款总额 = 上期账单金额 - 上期还款金额 + 本期账单金额 - 本期调整金额 + 循环利息",
    "(3) 本期最低还款额 = 消费本金的10% + 取现本金的10% + 费用 + 利息 + 上期未还最低还款额",
    "★友情提醒：请在到期还款日前还清本期还款总额，以免产生循环利息。",
]


def render(b: Bill, path: str) -> int:
    register_fonts()
    pages = layout(b)
    c = Canvas(path, pagesize=(PAGE_W, PAGE_H), invariant=1, initialFontName=MONO, initialFontSize=SIZE)
    c.setTitle("招商银行信用卡对账单")
    c.setCreator("MoneyFlow scripts/gen_cmb_card_samples.py (synthetic sample)")
    c.setAuthor("")
    for pg in pages:
        cur = None
        for x, top, text, font, size in pg.ops:
            if (font, size) != cur:
                c.setFont(font, size)
                cur = (font, size)
            c.drawString(x, PAGE_H - (top + ASCENT * size), text)
        c.showPage()
    c.save()
    return len(pages)


def note_of(b: Bill, r: Row) -> Optional[str]:
    parts = []
    if r.card and r.card != b.last4:
        parts.append(f"卡号末四位 {r.card}")
    if r.orig:
        parts.append(f"交易地金额 {r.orig_text()}")
    return "; ".join(parts) if parts else None


def card_candidates(b: Bill) -> List[str]:
    """The cards the bill may be of, when its header prints none and its rows leave a tie: the
    card of the repayment rows, else the card most rows name (among the repaid cards when
    several were repaid); tied cards in the order the bill first names them. [] when certain."""
    if b.header_card:
        return []
    order, count = [], {}
    for r in b.rows:
        if r.card:
            if r.card not in count:
                order.append(r.card)
            count[r.card] = count.get(r.card, 0) + 1
    repaid = [c for c in order if any(r.card == c and r.section == "还款" for r in b.rows)]
    pool = repaid or order
    most = max(count[c] for c in pool)
    top = [c for c in pool if count[c] == most]
    return top if len(top) > 1 else []


def expected(b: Bill) -> dict:
    payment, charges, adjustment, new_balance = b.sums()
    rows = []
    for r in b.rows:
        amount, places, region = r.orig if r.orig else (r.rmb, 2, "CN")
        rows.append({
            "section": r.section,
            "sold": r.sold.isoformat() if r.sold else None,
            "posted": r.posted.isoformat(),
            "date": (r.sold or r.posted).isoformat(),
            "description": r.desc,
            "rmb_amount": plain(r.rmb),
            "amount": plain(-r.rmb),
            "card": r.card,
            "original_amount": plain(amount, places),
            "original_region": region,
            "note": note_of(b, r),
        })
    return {
        "fixture": b.name, "pages": b.pages, "password": b.password,
        "title": {"year": b.year, "month": b.month, "reissued": b.reissued},
        "account_key": f"cmb-card:{b.last4}",
        "header": {
            "card_number": b.card_number if b.header_card else None, "card_last4": b.last4,
            "statement_date": b.statement_date.isoformat(), "payment_due_date": b.due_date.isoformat(),
            "credit_limit": plain(b.credit_limit), "new_balance": plain(new_balance),
            "previous_balance": plain(b.previous_balance), "previous_payment": plain(payment),
            "new_charges": plain(charges), "adjustment": plain(adjustment), "interest": plain(b.interest),
        },
        "check_fails": b.check_error != 0,
        "card_candidates": card_candidates(b),
        "transactions": rows,
    }


# ---------------------------------------------------------------- the bills

SHOPS = ["支付宝-上海拉扎斯信息科技有限公司", "财付通-美团外卖", "京东商城业务", "滴滴出行", "盒马鲜生",
         "星巴克咖啡", "中国石化加油站", "携程旅行网", "银联-北京地铁", "拼多多平台商户", "全家便利店", "瑞幸咖啡"]


def spending(rng: random.Random, start: dt.date, end: dt.date, n: int, card: str) -> List[Row]:
    out = []
    span = (end - start).days
    for _ in range(n):
        sold = start + dt.timedelta(days=rng.randrange(span))
        posted = sold + dt.timedelta(days=rng.choice([0, 1, 1, 2]))
        amount = Dec(rng.randrange(300, 60000)) / 100
        out.append(Row("消费", sold, min(posted, end), rng.choice(SHOPS), amount, card))
    out.sort(key=lambda r: (r.posted, r.sold))
    return out


def bills() -> List[Bill]:
    rng = random.Random(18)
    out = []

    # 1. plain one-page bill, March 2026
    rows = [Row("还款", None, D(2026, 2, 20), "掌上生活还款", Dec("-2380.55"), "4529"),
            Row("退款", D(2026, 2, 24), D(2026, 2, 25), "京东商城业务退款", Dec("-89.00"), "4529")]
    rows += spending(rng, D(2026, 2, 13), D(2026, 3, 12), 14, "4529")
    rows.append(Row("费用", None, D(2026, 3, 5), "短信服务费", Dec("3.00"), None))
    out.append(Bill("cmbcard_basic", "李雷 先生", "6225 88** **** 4529", 2026, 3, D(2026, 3, 12), D(2026, 3, 30),
                    Dec("50000"), Dec("2380.55"), Dec("0"), rows))

    # 2. January bill holding December rows of the previous year
    rows = [Row("还款", None, D(2025, 12, 18), "跨行转账还款", Dec("-1500.00"), "4529"),
            Row("还款", None, D(2025, 12, 30), "掌上生活还款", Dec("-412.30"), None)]
    rows += spending(rng, D(2025, 12, 13), D(2026, 1, 12), 12, "4529")
    out.append(Bill("cmbcard_january", "李雷 先生", "6225 88** **** 4529", 2026, 1, D(2026, 1, 12), D(2026, 1, 30),
                    Dec("50000"), Dec("1912.30"), Dec("0"), rows))

    # 3. several pages, foreign-currency rows, a supplementary card, interest
    rows = [Row("还款", None, D(2026, 3, 15), "自动还款", Dec("-5000.00"), "7310"),
            Row("退款", D(2026, 3, 20), D(2026, 3, 21), "AMAZON.COM AMZN.COM/BILL", Dec("-129.37"), "7310",
                (Dec("-18.50"), 2, "US"))]
    sp = spending(rng, D(2026, 3, 13), D(2026, 4, 12), 70, "7310")
    for i, r in enumerate(sp):
        if i % 9 == 4:
            r.card = "0862"                       # the supplementary card
    foreign = [Row("消费", D(2026, 3, 18), D(2026, 3, 19), "AMAZON.COM AMZN.COM/BILL", Dec("129.37"), "7310",
                   (Dec("18.50"), 2, "US")),
               Row("消费", D(2026, 3, 25), D(2026, 3, 27), "LAWSON SHINJUKU", Dec("73.62"), "0862",
                   (Dec("1580"), 0, "JP")),
               Row("消费", D(2026, 4, 2), D(2026, 4, 3), "APPLE.COM/BILL", Dec("7.21"), "7310",
                   (Dec("0.99"), 2, "US")),
               Row("消费", D(2026, 4, 8), D(2026, 4, 9), "UNIQLO GINZA", Dec("269.10"), "7310",
                   (Dec("5780"), 0, "JP"))]
    sp = sorted(sp + foreign, key=lambda r: (r.posted, r.sold))
    rows += sp
    rows += [Row("分期", None, D(2026, 4, 12), "账单分期 第3/12期 本金", Dec("833.33"), "7310"),
             Row("费用", None, D(2026, 4, 12), "账单分期 第3/12期 手续费", Dec("50.00"), "7310"),
             Row("利息", None, D(2026, 4, 12), "循环利息", Dec("12.40"), None)]
    out.append(Bill("cmbcard_multipage", "韩梅梅 女士", "6214 83** **** 7310", 2026, 4, D(2026, 4, 12),
                    D(2026, 4, 30), Dec("80000"), Dec("5000.00"), Dec("12.40"), rows, rows_per_page=[20, 40]))
    return out


def variants(base: List[Bill]) -> List[Bill]:
    basic = base[0]
    out = []
    re = Bill("cmbcard_reissued", basic.holder, basic.card_number, basic.year, basic.month, basic.statement_date,
              basic.due_date, basic.credit_limit, basic.previous_balance, basic.interest, basic.rows, reissued=True)
    out.append(re)
    rng = random.Random(1805)
    rows = [Row("还款", None, D(2026, 4, 18), "掌上生活还款", Dec("-3000.00"), "4529")]
    rows += spending(rng, D(2026, 4, 13), D(2026, 5, 12), 10, "4529")
    out.append(Bill("cmbcard_wrapped_header", "李雷 先生", "6225 88** **** 4529", 2026, 5, D(2026, 5, 12),
                    D(2026, 5, 30), Dec("50000"), Dec("3000.00"), Dec("0"), rows, wrap_header=True))
    rows = [Row("还款", None, D(2026, 5, 20), "掌上生活还款", Dec("-1200.00"), "4529")]
    rows += spending(rng, D(2026, 5, 13), D(2026, 6, 12), 9, "4529")
    out.append(Bill("cmbcard_check_fails", "李雷 先生", "6225 88** **** 4529", 2026, 6, D(2026, 6, 12),
                    D(2026, 6, 30), Dec("50000"), Dec("1200.00"), Dec("0"), rows, check_error=Dec("100.00")))
    return out + supplementary_series()


def supplementary_series() -> List[Bill]:
    """Two consecutive bills of a primary card 5108 and its supplementary card 2277, printed as
    real bills are: no 卡号 in the header (the card only per row), the standard notes under the
    rows. July: the supplementary card names more rows, the repayment names the primary. August
    (上期账单金额 = July's 本期还款总额): no repayment, both cards name as many rows."""
    rng = random.Random(2277)
    rows = [Row("还款", None, D(2026, 6, 15), "掌上生活还款", Dec("-1850.00"), "5108")]
    sp = spending(rng, D(2026, 6, 9), D(2026, 7, 8), 13, "5108")
    for i, r in enumerate(sp):
        if i % 3 != 0:
            r.card = "2277"
    rows += sp
    july = Bill("cmbcard_supplementary", "王芳 女士", "6225 88** **** 5108", 2026, 7, D(2026, 7, 8), D(2026, 7, 26),
                Dec("30000"), Dec("1850.00"), Dec("0"), rows, header_card=False, footnotes=True)
    sp = spending(rng, D(2026, 7, 9), D(2026, 8, 8), 8, "5108")
    for i, r in enumerate(sp):
        r.card = "2277" if i % 2 == 0 else "5108"
    rows = sp + [Row("费用", None, D(2026, 8, 8), "短信服务费", Dec("3.00"), None)]
    july_balance = july.sums()[3]
    august = Bill("cmbcard_supplementary_tie", "王芳 女士", "6225 88** **** 2277", 2026, 8, D(2026, 8, 8),
                  D(2026, 8, 26), Dec("30000"), july_balance, Dec("0"), rows, header_card=False, footnotes=True)
    return [july, august]


# ---------------------------------------------------------------- the e-statement (FORMAT.md §3b)

def html_of(b: Bill, yen: str) -> str:
    """The e-mailed e-statement of a bill: nested layout tables, header facts as label/value
    cells (the check amounts as a row of labels over a row of values), then the transaction
    table of 8-cell rows `["", MMDD, MMDD, 摘要, "¥ -7.81", card, region, original]` with a
    section label row before each section. `yen` is how ¥ is written (a character or an entity)."""
    payment, charges, adjustment, new_balance = b.sums()
    minimum = (new_balance / 10).quantize(Dec("0.01")) if new_balance > 0 else Dec(0)
    title = f"招商银行信用卡对账单（个人消费卡账户 {b.year}年{b.month:02d}月）" + ("（补）" if b.reissued else "")
    start = (b.statement_date.replace(day=1) - dt.timedelta(days=1)).replace(day=b.statement_date.day) + dt.timedelta(days=1)
    out = ["<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
           "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=%CHARSET%\">",
           "<title>招商银行信用卡电子账单</title>",
           "<style type=\"text/css\">td { font-size: 12px; } .amt { text-align: right; }</style></head>",
           "<body><!-- 招商银行信用卡中心 -->",
           "<table width=\"750\" border=\"0\" cellpadding=\"0\" cellspacing=\"0\"><tr><td>",
           f"<table><tr><td><b>{title}</b></td></tr>",
           f"<tr><td>尊敬的 {b.holder} 您好！以下是您的招商银行信用卡本期账单。</td></tr>",
           f"<tr><td>账单周期 {start.strftime('%Y/%m/%d')}-{b.statement_date.strftime('%Y/%m/%d')}</td></tr></table>",
           "</td></tr><tr><td>",
           "<table border=\"1\">"]
    facts = [("账单日", "Statement Date", b.statement_date.strftime("%Y/%m/%d")),
             ("到期还款日", "Payment Due Date", b.due_date.strftime("%Y/%m/%d")),
             ("信用额度", "Credit Limit", f"{yen}{money(b.credit_limit)}"),
             ("本期还款总额", "New Balance", f"{yen}{money(new_balance)}"),
             ("本期最低还款额", "Minimum Payment", f"{yen}{money(minimum)}")]
    if b.header_card:
        facts.append(("卡号", "Card Number", b.card_number))
    for i in range(0, len(facts), 2):
        out.append("<tr>" + "".join(f"<td>{cn}<br>{en}</td><td class=\"amt\">{v}</td>" for cn, en, v in facts[i:i + 2]) + "</tr>")
    out.append("</table>")
    check = [("上期账单金额", b.previous_balance), ("上期还款金额", payment), ("本期账单金额", charges),
             ("本期调整金额", adjustment), ("循环利息", b.interest)]
    out.append("<table border=\"1\"><tr>" + "".join(f"<td>{cn}</td>" for cn, _ in check) + "</tr>")
    out.append("<tr>" + "".join(f"<td class=\"amt\">{yen}&nbsp;{money(v)}</td>" for _, v in check) + "</tr></table>")
    out.append("</td></tr><tr><td>")
    out.append("<table border=\"0\" width=\"100%\"><tr><td></td><td>交易日</td><td>记账日</td><td>交易摘要</td>"
               "<td>人民币金额</td><td>卡号末四位</td><td>交易地点</td><td>交易地金额</td></tr>")
    seen = None
    for r in b.rows:
        if r.section != seen:
            out.append(f"<tr><td colspan=\"8\"><b>{r.section}</b></td></tr>")
            seen = r.section
        if r.orig:
            amount, places, region = r.orig
            orig = plain(amount, places)
        else:
            region = "" if r.section == "还款" else "CN"
            orig = plain(r.rmb)
        cells = ["", r.sold.strftime("%m%d") if r.sold else "", r.posted.strftime("%m%d"),
                 r.desc.replace("&", "&amp;"), f"{yen}&nbsp;{plain(r.rmb)}", r.card or "", region, orig]
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    if b.footnotes:
        # As 8-cell rows with the text in the 交易摘要 cell: the reader sees them as table rows.
        out += ["<tr><td></td><td></td><td></td><td>" + note + "</td><td></td><td></td><td></td><td></td></tr>" for note in FOOTNOTES]
    out.append("</table></td></tr></table></body></html>")
    return "\r\n".join(out) + "\r\n"


def wrap76(text: str) -> str:
    return "\r\n".join(text[i:i + 76] for i in range(0, len(text), 76))


def eml_of(b: Bill, body: bytes, charset: str, encoding: str) -> bytes:
    """A saved e-mail: multipart/alternative with a short text part and the HTML part in
    base64 or quoted-printable. Fixed dates and boundary (deterministic)."""
    import base64
    import quopri
    subject = "=?" + charset + "?B?" + base64.b64encode("招商银行信用卡电子账单".encode(charset)).decode() + "?="
    boundary = f"----=_Part_{b.year}{b.month:02d}_0001"
    if encoding == "base64":
        payload = wrap76(base64.b64encode(body).decode())
    else:
        payload = quopri.encodestring(body.replace(b"\r\n", b"\n")).decode("ascii").replace("\n", "\r\n").rstrip()
    sent = b.statement_date + dt.timedelta(days=1)
    lines = [
        "Return-Path: <ccsvc@message.cmbchina.com>",
        "From: =?" + charset + "?B?" + base64.b64encode("招商银行信用卡".encode(charset)).decode() + "?= <ccsvc@message.cmbchina.com>",
        "To: <user@example.com>",
        f"Subject: {subject}",
        f"Date: {sent.strftime('%a, %d %b %Y')} 08:12:45 +0800",
        "MIME-Version: 1.0",
        "Content-Type: multipart/alternative;",
        f"\tboundary=\"{boundary}\"",
        "",
        "This is a multi-part message in MIME format.",
        "",
        f"--{boundary}",
        f"Content-Type: text/plain; charset=\"{charset}\"",
        "Content-Transfer-Encoding: base64",
        "",
        wrap76(base64.b64encode("请使用支持HTML的邮件客户端查看本账单。".encode(charset)).decode()),
        "",
        f"--{boundary}",
        f"Content-Type: text/html; charset=\"{charset}\"",
        f"Content-Transfer-Encoding: {encoding}",
        "",
        payload,
        "",
        f"--{boundary}--",
        "",
    ]
    return "\r\n".join(lines).encode("ascii")


# E-statement forms written: (bill, file suffix, charset, ¥ as written, container)
ESTATEMENTS = [
    ("cmbcard_january", "html", "gb18030", "&yen;", None),
    ("cmbcard_january", "eml", "gb2312", "&yen;", "base64"),
    ("cmbcard_multipage", "html", "utf-8", "¥", None),
    ("cmbcard_multipage", "eml", "utf-8", "&#165;", "quoted-printable"),
    ("cmbcard_supplementary", "html", "utf-8", "&yen;", None),
]


def write_estatements(all_bills: List[Bill]):
    by_name = {b.name: b for b in all_bills}
    for name, suffix, charset, yen, container in ESTATEMENTS:
        b = by_name[name]
        body = html_of(b, yen).replace("%CHARSET%", charset).encode(charset)
        data = body if container is None else eml_of(b, body, charset, container)
        with open(os.path.join(OUT, f"{name}.{suffix}"), "wb") as f:
            f.write(data)
    # An e-mail whose HTML is no CMB bill (a newsletter): refused with one clear error.
    news = ("<html><head><meta charset=\"utf-8\"><title>招商银行 掌上生活 月度精选</title></head><body>"
            "<table><tr><td>本月精选活动</td><td>饭票 5 折</td></tr><tr><td>积分兑换</td><td>¥ 9.90 起</td></tr></table>"
            "</body></html>\r\n").encode("utf-8")
    broken = os.path.join(REPO, "Samples", "cmb", "broken", "not_a_card_bill.eml")
    with open(broken, "wb") as f:
        f.write(eml_of(by_name["cmbcard_basic"], news, "utf-8", "base64"))


def main():
    os.makedirs(OUT, exist_ok=True)
    base = bills()
    all_bills = base + variants(base)
    for b in all_bills:
        path = os.path.join(OUT, b.name + ".pdf")
        b.pages = render(b, path)
    zrng = random.Random(1818)
    basic = all_bills[0]
    basic.password = "K7Q2M9"
    data = open(os.path.join(OUT, basic.name + ".pdf"), "rb").read()
    when = dt.datetime(2026, 3, 13, 9, 15, 2)
    with open(os.path.join(OUT, basic.name + ".aes256.zip"), "wb") as f:
        f.write(build_zip([Entry("招商银行信用卡对账单2026年03月.pdf", data, when)], basic.password, "aes256", zrng))
    for b in all_bills:
        with open(os.path.join(OUT, b.name + ".expected.json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(expected(b), f, ensure_ascii=False, indent=2)
            f.write("\n")
    write_estatements(all_bills)
    print(f"wrote {len(all_bills)} bills and {len(ESTATEMENTS)} e-statements to {OUT}")


if __name__ == "__main__":
    main()
