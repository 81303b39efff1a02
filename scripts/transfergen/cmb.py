"""Scenarios A (CMB debit account + its CMB credit card over three bills, across a year end) and
C (a CNY debit row 购汇还款 paying the card's USD account).

The debit statements are drawn by scripts/cmbgen (the writer of scripts/gen_cmb_samples.py) and
the bills by scripts/gen_cmb_card_samples.py, so they are the same files the importers are
tested on. Every amount that matters is written here by hand; the filler is seeded.
"""
from __future__ import annotations

import datetime as dt
import os
import random
from decimal import Decimal
from typing import List, Tuple

import gen_cmb_card_samples as card                                   # noqa: E402
from cmbgen import ledger as lg                                       # noqa: E402
from cmbgen.ledger import Account, Txn                                # noqa: E402
from cmbgen.pdfrender import LAYOUT_2024, Renderer, Statement         # noqa: E402
from transfergen.legs import Leg, Pair, check_no_accidental_pairs, expected, write_json   # noqa: E402

D = dt.date
T = dt.datetime
Dec = Decimal

DEBIT = Account("李雷", "6214********3906", "ALL/全币种", "北京望京支行")
CARD_NO = "6225 76** **** 6612"
HOLDER = "李雷 先生"
CARD_CENTRE = "招商银行信用卡中心"

# Everyday debit activity without any card repayment or own-account move (those are scripted):
# random 信用卡还款 / 朝朝宝转入 rows would be transfers whose other leg is not in the scenario.
FILLER = [(lg.ev_quick_pay, 30), (lg.ev_unionpay_quick, 8), (lg.ev_netpay, 6), (lg.ev_wl_receive, 8),
          (lg.ev_refund, 4), (lg.ev_transfer_out, 5), (lg.ev_remit_in, 3), (lg.ev_unionpay_payout, 3)]


def statement(txns: List[Txn], period: Tuple[dt.date, dt.date], applied: dt.datetime, vcode: str) -> Statement:
    return Statement(LAYOUT_2024, DEBIT, period, txns, applied_at=applied, verification_code=vcode, name_gap=28.0)


def fits(st: Statement) -> bool:
    """The closing notice must fit under the last row (the writer refuses otherwise)."""
    r = Renderer(st)
    return r.end_blocks_fit(r.paginate())


def seeded_ledger(seed: int, build, periods) -> List[Txn]:
    """The first seed from `seed` on whose filler lets every statement's closing notice fit
    (deterministic: the same seeds are tried in the same order)."""
    for s in range(seed, seed + 50):
        ledger = build(random.Random(s))
        if all(fits(statement(lg.clip(ledger, lo, hi), (lo, hi), ap, vc)) for lo, hi, ap, vc in periods):
            return ledger
    raise SystemExit("no seed fits the statements")


def debit_pdf(folder: str, name: str, txns: List[Txn], period: Tuple[dt.date, dt.date], applied: dt.datetime,
              vcode: str) -> List[Leg]:
    Renderer(statement(txns, period, applied, vcode)).render(os.path.join(folder, name))
    return [Leg(name, t.date, t.amount, t.currency, t.type, "debit") for t in txns]


def bill_pdf(folder: str, b: card.Bill) -> List[Leg]:
    name = b.name + ".pdf"
    b.pages = card.render(b, os.path.join(folder, name))
    return [Leg(name, r.sold or r.posted, -r.rmb, "CNY", r.desc, "card") for r in b.rows]


def bill(name: str, year: int, month: int, previous: Decimal, rows: List[card.Row]) -> card.Bill:
    order = ["还款", "退款", "消费", "费用"]
    rows = sorted(rows, key=lambda r: (order.index(r.section), r.posted, r.sold or r.posted))
    sd = D(year, month, 12)
    return card.Bill(name, HOLDER, CARD_NO, year, month, sd, D(year, month, 30 if month != 2 else 28),
                     Dec("50000"), previous, Dec("0"), rows)


def find(legs: List[Leg], date: dt.date, amount: str, description: str) -> Leg:
    hits = [l for l in legs if l.date == date and l.amount == Dec(amount) and l.description == description]
    if len(hits) != 1:
        raise SystemExit(f"{len(hits)} rows for {date} {amount} {description}")
    return hits[0]


def debit_quarter(rng: random.Random) -> List[Txn]:
    """The debit account, 2025-10-13 .. 2026-01-12: filler, salaries, the four card payments."""
    b = lg.LedgerBuilder(rng, {"CNY": Dec("25380.16")})
    lg.daily_cny(b, D(2025, 10, 13), D(2026, 1, 12), 0.8, dup_p=0.03, events=FILLER)
    for d in (D(2025, 10, 25), D(2025, 11, 25), D(2025, 12, 25)):
        b.add(d, "CNY", Dec("11500.00"), "代发工资", "北京某某科技有限公司", f"{d.year}年{d.month:02d}月工资", "10:02:13", must=True)
    b.add(D(2025, 10, 28), "CNY", Dec("-3126.40"), "信用卡还款", CARD_CENTRE, "自动还款 尾号6612", "06:10:00", must=True)
    b.add(D(2025, 11, 25), "CNY", Dec("-11500.00"), "信用卡还款", CARD_CENTRE, None, "20:31:08", must=True)
    b.add(D(2025, 12, 3), "CNY", Dec("-268.00"), "快捷支付", "北京京东世纪贸易有限公司", None, "21:14:52", must=True)
    b.add(D(2025, 12, 20), "CNY", Dec("-1500.00"), "转账还款", "李雷 6225********6612", "还信用卡", "09:45:30", must=True)
    b.add(D(2025, 12, 21), "CNY", Dec("6.37"), "账户结息", None, None, "02:10:00", must=True)
    b.add(D(2025, 12, 31), "CNY", Dec("-2406.85"), "信用卡还款", CARD_CENTRE, None, "22:05:41", must=True)
    return b.build()


def scenario_a(out: str) -> None:
    folder = os.path.join(out, "cmb_quarter")
    os.makedirs(folder, exist_ok=True)
    periods = [(D(2025, 10, 13), D(2025, 11, 12), T(2025, 11, 13, 9, 12, 33), "Q7M2XK4D"),
               (D(2025, 11, 13), D(2025, 12, 12), T(2025, 12, 13, 20, 1, 5), "B8R3ZT6N"),
               (D(2025, 12, 13), D(2026, 1, 12), T(2026, 1, 13, 8, 47, 19), "H2W9PL5C")]
    ledger = seeded_ledger(20251013, debit_quarter, periods)
    legs: List[Leg] = []
    debit_files = []
    for lo, hi, applied, vcode in periods:
        name = f"debit_3906_{lo.isoformat()}_{hi.isoformat()}.pdf"
        debit_files.append(name)
        legs += debit_pdf(folder, name, lg.clip(ledger, lo, hi), (lo, hi), applied, vcode)

    crng = random.Random(6612)
    nov = bill("card_6612_2025-11", 2025, 11, Dec("3126.40"), [
        card.Row("还款", None, D(2025, 10, 29), "自动还款", Dec("-3126.40"), "6612"),
        card.Row("消费", D(2025, 10, 20), D(2025, 10, 21), "苹果电子产品商贸（北京）有限公司", Dec("8999.00"), "6612"),
    ] + card.spending(crng, D(2025, 10, 13), D(2025, 11, 12), 12, "6612"))
    dec = bill("card_6612_2025-12", 2025, 12, nov.sums()[3], [
        card.Row("还款", None, D(2025, 11, 26), "掌上生活还款", Dec("-11500.00"), "6612"),
        card.Row("退款", D(2025, 12, 4), D(2025, 12, 5), "京东商城业务退款", Dec("-268.00"), "6612"),
    ] + card.spending(crng, D(2025, 11, 13), D(2025, 12, 12), 13, "6612"))
    jan = bill("card_6612_2026-01", 2026, 1, dec.sums()[3], [
        card.Row("还款", None, D(2025, 12, 21), "掌上生活还款", Dec("-1500.00"), "6612"),
        card.Row("还款", None, D(2026, 1, 2), "自动还款", Dec("-2406.85"), None),
        card.Row("消费", D(2025, 12, 22), D(2025, 12, 23), "京东商城业务", Dec("1500.00"), "6612"),
        card.Row("费用", None, D(2026, 1, 5), "短信服务费", Dec("3.00"), None),
    ] + card.spending(crng, D(2025, 12, 13), D(2026, 1, 12), 14, "6612"))
    bills = [nov, dec, jan]
    for bl in bills:
        legs += bill_pdf(folder, bl)
    if abs(nov.sums()[3] - Dec("11500.00")) < Dec("100"):
        raise SystemExit("the November bill must not be (nearly) paid in full: it is the partial month")

    transfers = [
        Pair(find(legs, D(2025, 10, 28), "-3126.40", "信用卡还款"), find(legs, D(2025, 10, 29), "3126.40", "自动还款")),
        Pair(find(legs, D(2025, 11, 25), "-11500.00", "信用卡还款"), find(legs, D(2025, 11, 26), "11500.00", "掌上生活还款")),
        Pair(find(legs, D(2025, 12, 20), "-1500.00", "转账还款"), find(legs, D(2025, 12, 21), "1500.00", "掌上生活还款")),
        Pair(find(legs, D(2025, 12, 31), "-2406.85", "信用卡还款"), find(legs, D(2026, 1, 2), "2406.85", "自动还款")),
    ]
    decoys = [
        find(legs, D(2025, 12, 3), "-268.00", "快捷支付"),            # spending, then a refund of the same amount on the card
        find(legs, D(2025, 12, 4), "268.00", "京东商城业务退款"),
        find(legs, D(2025, 11, 25), "11500.00", "代发工资"),         # salary equal to that day's card payment
        find(legs, D(2025, 12, 22), "-1500.00", "京东商城业务"),      # card purchase equal to a repayment
        find(legs, D(2025, 10, 20), "-8999.00", "苹果电子产品商贸（北京）有限公司"),
    ]
    check_no_accidental_pairs(legs, transfers, decoys)
    files = debit_files + [bl.name + ".pdf" for bl in bills]
    write_json(os.path.join(folder, "expected_transfers.json"),
               expected(transfers, [], decoys, [{"file": f, "args": []} for f in files]))


def scenario_c(out: str) -> None:
    folder = os.path.join(out, "cross_currency")
    os.makedirs(folder, exist_ok=True)
    lo, hi = D(2026, 2, 1), D(2026, 2, 28)

    def build(rng: random.Random) -> List[Txn]:
        b = lg.LedgerBuilder(rng, {"CNY": Dec("31877.02")})
        lg.daily_cny(b, lo, hi, 0.8, dup_p=0.03, events=FILLER)
        b.add(D(2026, 2, 10), "CNY", Dec("11500.00"), "代发工资", "北京某某科技有限公司", "2026年01月工资", "10:02:13", must=True)
        b.add(D(2026, 2, 20), "CNY", Dec("-7234.50"), "购汇还款", CARD_CENTRE, "美元账户还款 尾号6612", "10:31:27", must=True)
        return b.build()
    period = (lo, hi, T(2026, 3, 2, 19, 3, 41), "N4T8QF2V")
    name = "debit_3906_2026-02.pdf"
    legs = debit_pdf(folder, name, seeded_ledger(20260201, build, [period]), (lo, hi), period[2], period[3])

    usd_name = "card_6612_usd_2026-03.csv"
    rows = [  # 交易日, 记账日, 交易摘要, 美元金额 (spending positive), 卡号末四位, 交易地金额
        (D(2026, 2, 3), D(2026, 2, 4), "AMAZON.COM AMZN.COM/BILL", Dec("86.40"), "6612", "86.40(US)"),
        (D(2026, 2, 9), D(2026, 2, 10), "UNITED AIRLINES 0162345678901", Dec("612.30"), "6612", "612.30(US)"),
        (D(2026, 2, 14), D(2026, 2, 16), "MARRIOTT SAN FRANCISCO", Dec("389.15"), "6612", "389.15(US)"),
        (None, D(2026, 2, 21), "还款", Dec("-1000.00"), "6612", "-1000.00"),
        (D(2026, 2, 25), D(2026, 2, 26), "APPLE.COM/BILL", Dec("9.99"), "6612", "9.99(US)"),
        (D(2026, 3, 4), D(2026, 3, 5), "LAWSON SHINJUKU", Dec("11.06"), "6612", "1,580(JP)"),
    ]
    lines = ["交易日,记账日,交易摘要,美元金额,卡号末四位,交易地金额"]
    usd_legs = []
    for sold, posted, desc, usd, last4, orig in rows:
        cells = [sold.isoformat() if sold else "", posted.isoformat(), desc, f"{usd:.2f}", last4,
                 f'"{orig}"' if "," in orig else orig]
        lines.append(",".join(cells))
        usd_legs.append(Leg(usd_name, sold or posted, -usd, "USD", desc, "card-usd"))
    with open(os.path.join(folder, usd_name), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    profile = {
        "name": "CMB card USD account", "institution": "China Merchants Bank", "delimiter": ",",
        "encoding": "utf-8", "date_column": "交易日", "fallback_date_column": "记账日", "date_format": "YYYY-MM-DD",
        "description_column": "交易摘要", "amount_column": "美元金额", "invert_sign": True, "currency": "USD",
        "account_type": "credit", "default_account_name": "CMB Card 6612 USD",
    }
    write_json(os.path.join(folder, "card_usd.profile.json"), profile)
    legs += usd_legs
    out_leg = find(legs, D(2026, 2, 20), "-7234.50", "购汇还款")
    in_leg = find(legs, D(2026, 2, 21), "1000.00", "还款")
    review = [Pair(out_leg, in_leg, "cross-currency: 7234.50 CNY out of the debit account (购汇还款) pays 1000.00 USD "
                                    "into the card's USD account (implied rate 7.2345); show both amounts, never link alone")]
    decoys = [find(legs, D(2026, 2, 10), "11500.00", "代发工资"),
              find(legs, D(2026, 2, 14), "-389.15", "MARRIOTT SAN FRANCISCO")]
    check_no_accidental_pairs(legs, [], decoys + [out_leg, in_leg])
    write_json(os.path.join(folder, "expected_transfers.json"),
               expected([], review, decoys, [{"file": name, "args": []},
                                             {"file": usd_name, "args": ["--csv-profile", "card_usd.profile.json"]}]))
