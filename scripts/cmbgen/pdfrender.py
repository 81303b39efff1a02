"""Render a ledger into a CMB-like "招商银行交易流水" PDF with reportlab.

Geometry follows /work/shared/reference/cmb (FORMAT.md + the real 2020 page-1 word boxes).
All vertical positions below are "tops" in a top-left coordinate system (what `pdftotext -bbox`
reports as yMin); a text's baseline is top + ASCENT * size (ASCENT of WenQuanYi Zen Hei = 0.8).
"""
from __future__ import annotations

import datetime as dt
import os
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Dict, List, Optional, Sequence, Tuple

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .ledger import Account, Txn, fmt_amount

PAGE_W, PAGE_H = 595.0, 842.0
FONT_FILE = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
MONO = "CMBMono"     # WenQuanYi Zen Hei Mono: half-width Latin like SimSun (real table font)
SANS = "CMBSans"     # WenQuanYi Zen Hei: proportional Latin like Microsoft YaHei (real English labels)
ASCENT = 0.8

_fonts_done = False


def register_fonts(font_file: str = ""):
    global _fonts_done
    if _fonts_done:
        return
    font_file = font_file or os.environ.get("CMBGEN_FONT", FONT_FILE)
    pdfmetrics.registerFont(TTFont(MONO, font_file, subfontIndex=1))
    pdfmetrics.registerFont(TTFont(SANS, font_file, subfontIndex=0))
    _fonts_done = True


def width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def wrap(text: Optional[str], cap: float, font: str, size: float, max_lines: int = 3) -> List[str]:
    """Greedy character wrap like iText's CJK line breaking: break anywhere (inside words and
    numbers too); a space falling on a break is dropped. Returns the printed fragments."""
    if not text:
        return []
    lines, cur = [], ""
    for ch in text:
        if width(cur + ch, font, size) <= cap:
            cur += ch
            continue
        if ch == " ":
            lines.append(cur.rstrip(" "))
            cur = ""
        else:
            lines.append(cur.rstrip(" "))
            cur = ch
    if cur.strip(" "):
        lines.append(cur.rstrip(" "))
    if len(lines) > max_lines:
        raise ValueError(f"cell needs {len(lines)} lines (> {max_lines}): {text!r}")
    return lines


# ---------------------------------------------------------------- layouts

@dataclass
class Column:
    key: str
    x: float
    cn: str
    en: Tuple[str, ...]          # English header line(s)
    value_dx: float = 0.0        # value x offset relative to the header's left edge
    cap: float = 0.0             # wrap width for free-text columns


@dataclass
class Layout:
    name: str
    k: float                     # scale relative to the 2020 10 pt geometry
    size: float
    title_size: float
    margin_l: float
    margin_r: float
    columns: List[Column]
    currency_label: Dict[str, str]
    head_top: float              # column header top on page 1
    head_top_cont: float         # column header top on later pages
    bottom: float                # row slots must end above this
    marker_top: float
    # vertical row geometry, in points
    pitch: float = 27.2          # minimal row height (a row with single-line cells)
    lead: float = 10.2           # line pitch inside a wrapped cell
    pad: float = 6.8             # vertical cell padding (top + bottom)
    first_row_gap: float = 40.24  # column-header top -> first row slot top
    text_dy: float = -0.1        # free-text columns sit slightly higher than the date
    wrap_shift: float = 1.52     # extra upward shift of multi-line cells (2020: -6.62/+3.58)
    head_dy: Tuple[float, float, float, float] = (19.74, -0.46, 10.20, 20.87)  # EN, 交易金额, line2, line3

    def s(self, v: float) -> float:
        return v * self.k


LAYOUT_2020 = Layout(
    name="2020", k=1.0, size=10.0, title_size=10.0, margin_l=28.33, margin_r=566.67,
    columns=[
        Column("date", 28.33, "记账日期", ("Date",)),
        Column("currency", 92.93, "货币", ("Currency",)),
        Column("amount", 165.75, "交易金额", ("Transation", "Amount"), value_dx=0.85),
        Column("balance", 235.45, "联机余额", ("Balance",), value_dx=-0.28),
        Column("type", 304.30, "交易摘要", ("Transaction Type",)),
        Column("counterparty", 437.18, "对手信息", ("Counter Party",), cap=127.0),
    ],
    currency_label={"CNY": "人民币", "USD": "美元", "HKD": "港币"},
    head_top=265.86, head_top_cont=45.0, bottom=785.0, marker_top=799.52,
)

K24 = 0.825
LAYOUT_2024 = Layout(
    name="2024", k=K24, size=8.25, title_size=10.0, margin_l=36.0, margin_r=559.0,
    columns=[
        Column("date", 36.0, "记账日期", ("Date",)),
        Column("currency", 88.3, "货币", ("Currency",)),
        Column("amount", 135.4, "交易金额", ("Transaction", "Amount"), value_dx=0.7),
        Column("balance", 213.8, "联机余额", ("Balance",), value_dx=-0.23),
        Column("type", 292.2, "交易摘要", ("Transaction Type",)),
        Column("counterparty", 375.8, "对手信息", ("Counter Party",), cap=102.0),
        Column("note", 480.3, "客户摘要", ("Customer Type",), cap=76.2),
    ],
    currency_label={"CNY": "CNY", "USD": "USD", "HKD": "HKD", "EUR": "EUR", "JPY": "JPY", "GBP": "GBP"},
    head_top=205.0, head_top_cont=40.0, bottom=790.0, marker_top=803.0,
    # no real 2024 geometry is available: FORMAT.md's pdftotext excerpt shows single-line rows on
    # consecutive text lines (no blank line between them) and a two-line cell printed one line
    # above and one line below the date, so rows are short and grow with their tallest cell,
    # and the wrapped cell is exactly centred.
    pitch=14.75, lead=9.75, pad=5.0, first_row_gap=28.0, text_dy=-0.08, wrap_shift=0.0,
    head_dy=(16.3, -0.38, 8.2, 16.8),
)


# ---------------------------------------------------------------- statement description

@dataclass
class Statement:
    layout: Layout
    account: Account
    period: Tuple[dt.date, dt.date]
    txns: List[Txn]
    applied_at: Optional[dt.datetime] = None      # 2024
    verification_code: Optional[str] = None       # 2024
    serial_no: Optional[str] = None               # 2020
    summary: bool = False                         # print a 合并统计 block
    name_gap: float = 30.0                        # 户 .. 名： distance (2020 units)
    stream_order: str = "normal"                  # normal | real2020 | shuffled
    seed: int = 0


@dataclass
class Op:
    group: str
    x: float
    top: float
    text: str
    font: str
    size: float


@dataclass
class RowPlan:
    txn: Txn
    cells: Dict[str, List[str]]
    height: float


@dataclass
class PagePlan:
    rows: List[Tuple[RowPlan, float]] = field(default_factory=list)   # (row, slot top)
    end_y: float = 0.0


class Renderer:
    def __init__(self, st: Statement):
        register_fonts()
        self.st = st
        self.L = st.layout

    # -- rows
    def row_plan(self, t: Txn) -> RowPlan:
        L = self.L
        cells: Dict[str, List[str]] = {
            "date": [t.date.isoformat()],
            "currency": [L.currency_label[t.currency]],
            "amount": [fmt_amount(t.amount)],
            "balance": [fmt_amount(t.balance)],
        }
        for c in L.columns:
            if c.key in ("type", "counterparty", "note"):
                text = {"type": t.type, "counterparty": t.counterparty, "note": t.note}[c.key]
                cap = c.cap or (self._next_x(c) - c.x - L.s(3))
                cells[c.key] = wrap(text, cap, MONO, L.size)
        n = max(len(v) for v in cells.values())
        h = max(L.pitch, n * L.lead + L.pad)
        return RowPlan(t, cells, h)

    def _next_x(self, col: Column) -> float:
        xs = [c.x for c in self.L.columns]
        i = xs.index(col.x)
        return xs[i + 1] if i + 1 < len(xs) else self.L.margin_r

    def first_slot(self, page_no: int) -> float:
        L = self.L
        top = L.head_top if page_no == 0 else L.head_top_cont
        return top + L.first_row_gap

    def end_block_height(self) -> float:
        if self.L.name == "2020":
            return 0.0
        h = 0.0
        if self.st.summary:
            h += 22.0 + 12.0 + 12.0 * len(self.currencies())
        h += 16.0 + 12.0 + 12.0 * len(NOTICE_2024)
        return h

    def currencies(self) -> List[str]:
        seen: List[str] = []
        for t in self.st.txns:
            if t.currency not in seen:
                seen.append(t.currency)
        return seen

    def paginate(self) -> List[PagePlan]:
        L = self.L
        pages = [PagePlan()]
        y = self.first_slot(0)
        for t in self.st.txns:
            rp = self.row_plan(t)
            if y + rp.height > L.bottom and pages[-1].rows:
                pages.append(PagePlan())
                y = self.first_slot(len(pages) - 1)
            pages[-1].rows.append((rp, y))
            y += rp.height
            pages[-1].end_y = y
        if not pages[-1].rows:
            pages[-1].end_y = y
        return pages

    def end_blocks_fit(self, pages: List[PagePlan]) -> bool:
        return pages[-1].end_y + self.end_block_height() <= self.L.marker_top - 4

    # -- ops
    def header_ops(self) -> List[Op]:
        L, st = self.L, self.st
        ops: List[Op] = []
        ts = L.title_size
        title = "招商银行交易流水"
        en = "Transaction Statement of China Merchants Bank"
        per = f"{st.period[0].isoformat()} -- {st.period[1].isoformat()}"
        if L.name == "2020":
            tops = (54.36, 73.76, 93.31)
        else:
            tops = (40.0, 56.0, 70.0)
        ops.append(Op("head", (PAGE_W - width(title, MONO, ts)) / 2, tops[0], title, MONO, ts))
        ops.append(Op("head", (PAGE_W - width(en, MONO, L.size)) / 2, tops[1], en, MONO, L.size))
        ops.append(Op("head", (PAGE_W - width(per, MONO, L.size)) / 2, tops[2], per, MONO, L.size))

        a = st.account
        sz = L.size
        x0 = L.margin_l
        vx = x0 + L.s(54.69)                         # value column of the left half
        if L.name == "2020":
            xr = 255.57
            rows = [133.55, 173.78, 212.88]
            en_dy = (20.58, 20.59, 20.30)
        else:
            xr = 292.2
            rows = [95.0, 128.0, 161.0]
            en_dy = (17.0, 17.0, 17.0)
        # row 1: 户  名： <name>            账号：<number>
        ops.append(Op("head", x0, rows[0], "户", MONO, sz))
        ops.append(Op("head", x0 + L.s(st.name_gap), rows[0], "名：", MONO, sz))
        ops.append(Op("head", vx, rows[0] + L.s(0.56), a.name, MONO, sz))
        ops.append(Op("head", xr, rows[0], "账号：", MONO, sz))
        ops.append(Op("head", xr + L.s(27.76), rows[0], a.number, MONO, sz))
        ops.append(Op("head", x0, rows[0] + L.s(en_dy[0]), "Name", SANS, sz))
        ops.append(Op("head", xr, rows[0] + L.s(en_dy[0] - 0.56), "Account No", SANS, sz))
        # row 2
        ops.append(Op("head", x0, rows[1], "账户类型：", MONO, sz))
        ops.append(Op("head", vx, rows[1], a.account_type, MONO, sz))
        ops.append(Op("head", x0, rows[1] + L.s(en_dy[1]), "Account Type", SANS, sz))

        def spaced(x, top, label):   # "开 户 行：" drawn as separate runs
            for i, part in enumerate(label):
                ops.append(Op("head", x + L.s(15.0) * i, top, part, MONO, sz))

        if L.name == "2020":
            ops.append(Op("head", xr, rows[1] - 0.57, f"电子流水号：{st.serial_no}", MONO, sz))
            ops.append(Op("head", xr, rows[1] + 19.45, "Serial No", SANS, sz))
            spaced(x0, rows[2], ["开", "户", "行："])
            ops.append(Op("head", vx, rows[2], a.branch, MONO, sz))
            ops.append(Op("head", x0, rows[2] + en_dy[2], "Sub Branch", SANS, sz))
        else:
            spaced(xr, rows[1], ["开", "户", "行："])
            ops.append(Op("head", xr + L.s(54.69), rows[1], a.branch, MONO, sz))
            ops.append(Op("head", xr, rows[1] + L.s(en_dy[1]), "Sub Branch", SANS, sz))
            ops.append(Op("head", x0, rows[2], "申请时间：", MONO, sz))
            ops.append(Op("head", vx, rows[2], st.applied_at.strftime("%Y-%m-%d %H:%M:%S"), MONO, sz))
            ops.append(Op("head", x0, rows[2] + L.s(en_dy[2]), "Date", SANS, sz))
            spaced(xr, rows[2], ["验", "证", "码："])
            ops.append(Op("head", xr + L.s(54.69), rows[2], st.verification_code, MONO, sz))
            ops.append(Op("head", xr, rows[2] + L.s(en_dy[2]), "Verification Code", SANS, sz))
        return ops

    def colhead_ops(self, top: float) -> List[Op]:
        L = self.L
        ops: List[Op] = []
        for c in L.columns:
            if len(c.en) == 1:
                ops.append(Op("colhead", c.x, top, c.cn, MONO, L.size))
                ops.append(Op("colhead", c.x, top + L.head_dy[0], c.en[0], MONO, L.size))
            else:   # 交易金额 / Transation / Amount: three lines, vertically centred
                ops.append(Op("colhead", c.x, top + L.head_dy[1], c.cn, MONO, L.size))
                ops.append(Op("colhead", c.x, top + L.head_dy[2], c.en[0], MONO, L.size))
                ops.append(Op("colhead", c.x, top + L.head_dy[3], c.en[1], MONO, L.size))
        return ops

    def row_ops(self, rp: RowPlan, slot: float, idx: int) -> List[Op]:
        L = self.L
        g = f"row{idx}"
        date_top = slot + (rp.height - L.lead) / 2
        ops: List[Op] = []
        for c in L.columns:
            lines = rp.cells.get(c.key, [])
            if not lines:
                continue
            if c.key in ("date", "currency", "amount", "balance"):
                ops.append(Op(g, c.x + c.value_dx, date_top, lines[0], MONO, L.size))
                continue
            n = len(lines)
            for i, line in enumerate(lines):
                top = date_top + L.text_dy
                if n > 1:
                    top += (i - (n - 1) / 2) * L.lead - L.wrap_shift
                ops.append(Op(g, c.x, top, line, MONO, L.size))
        return ops

    def end_ops(self, y: float) -> List[Op]:
        L, st = self.L, self.st
        ops: List[Op] = []
        if L.name == "2020":
            ops.append(Op("notice", L.margin_l, L.marker_top, NOTICE_2020, MONO, L.size))
            return ops
        if st.summary:
            y += 22.0
            ops.append(Op("summary", L.margin_l, y, "合并统计", MONO, L.size))
            y += 12.0
            for cur in self.currencies():
                inc = sum((t.amount for t in st.txns if t.currency == cur and t.amount > 0), Decimal("0.00"))
                exp = sum((t.amount for t in st.txns if t.currency == cur and t.amount < 0), Decimal("0.00"))
                y += 12.0
                ops.append(Op("summary", L.margin_l, y, cur, MONO, L.size))
                ops.append(Op("summary", L.columns[1].x, y, fmt_amount(inc), MONO, L.size))
                ops.append(Op("summary", L.columns[3].x, y, fmt_amount(exp), MONO, L.size))
        y += 16.0
        ops.append(Op("notice", L.margin_l, y, "—" * 63, SANS, L.size))
        y += 12.0
        ops.append(Op("notice", L.margin_l, y, "温馨提示：", MONO, L.size))
        for line in NOTICE_2024:
            y += 12.0
            ops.append(Op("notice", L.margin_l, y, line, MONO, L.size))
        return ops

    def marker_op(self, n: int, m: int) -> Op:
        L = self.L
        s = f"{n}/{m}"
        return Op("marker", L.margin_r - width(s, MONO, L.size), L.marker_top, s, MONO, L.size)

    def page_ops(self, pages: List[PagePlan]) -> List[List[Op]]:
        out = []
        idx = 0
        for pn, page in enumerate(pages):
            ops: List[Op] = []
            if pn == 0:
                ops += self.header_ops()
            ops += self.colhead_ops(self.L.head_top if pn == 0 else self.L.head_top_cont)
            for rp, slot in page.rows:
                ops += self.row_ops(rp, slot, idx)
                idx += 1
            if pn == len(pages) - 1:
                ops += self.end_ops(page.end_y)
            ops.append(self.marker_op(pn + 1, len(pages)))
            out.append(self.order(ops, pn))
        return out

    def order(self, ops: List[Op], pn: int) -> List[Op]:
        mode = self.st.stream_order
        if mode == "normal":
            return ops
        if mode == "real2020":
            # as in the real 2020 file: 记账日期 / 货币 / Date are emitted LAST, after the page marker
            last = [o for o in ops if o.group == "colhead" and o.text in ("记账日期", "货币", "Date")]
            rest = [o for o in ops if o not in last]
            return rest + last
        if mode == "shuffled":
            rng = random.Random(self.st.seed * 1000 + pn)
            front = [o for o in ops if o.group in ("marker", "notice", "summary")]
            head = [o for o in ops if o.group == "head"]
            col = [o for o in ops if o.group == "colhead"]
            rows: Dict[str, List[Op]] = {}
            for o in ops:
                if o.group.startswith("row"):
                    rows.setdefault(o.group, []).append(o)
            keys = list(rows)
            rng.shuffle(keys)
            body: List[Op] = []
            for k in keys:
                r = rows[k][:]
                rng.shuffle(r)
                body += r
            return front + head + col + body
        raise ValueError(mode)

    def render(self, path: str, pages: Optional[List[PagePlan]] = None, encrypt=None) -> int:
        pages = pages or self.paginate()
        if not self.end_blocks_fit(pages):
            raise ValueError("closing blocks do not fit on the last page; change the row count")
        c = Canvas(path, pagesize=(PAGE_W, PAGE_H), invariant=1, initialFontName=MONO,
                   initialFontSize=self.L.size, encrypt=encrypt)
        c.setTitle("招商银行交易流水")
        c.setCreator("MoneyFlow scripts/gen_cmb_samples.py (synthetic sample)")
        c.setAuthor("")
        for ops in self.page_ops(pages):
            cur = None
            for o in ops:
                if (o.font, o.size) != cur:
                    c.setFont(o.font, o.size)
                    cur = (o.font, o.size)
                c.drawString(o.x, PAGE_H - (o.top + ASCENT * o.size), o.text)
            c.showPage()
        c.save()
        return len(pages)


NOTICE_2020 = "本交易流水因不可预测的非人控技术原因导致可能产生缺失，流水内容仅供参考。"
NOTICE_2024 = [
    "1.交易流水验真：进入一网通首页（www.cmbchina.com），点击“交易流水验真”，输入验证码即可核验本流水真伪；",
    "也可在招商银行App搜索“流水验真”进行核验。",
    "2.本交易流水仅反映申请时间段内的账户交易情况，如有疑问请致电招商银行客服热线95555。",
]
