"""The CMB side of the wallet quarter: the debit card's monthly 交易流水 PDFs (scripts/cmbgen) and the
credit card's bills (scripts/gen_cmb_card_samples.py), holding the bank rows the wallet orders made
plus seeded everyday filler that has nothing to do with the wallets."""
from __future__ import annotations

import datetime as dt
import os
import random
from decimal import Decimal
from typing import List, Tuple

import gen_cmb_card_samples as card                                   # noqa: E402
from gen_cmb_samples import expected_pdf, write_json                  # noqa: E402
from cmbgen import ledger as lg                                       # noqa: E402
from cmbgen.ledger import Account, Txn                                # noqa: E402
from cmbgen.pdfrender import LAYOUT_2024, Renderer, Statement         # noqa: E402
from walletgen.orders import BankRow

DEBIT_ACCOUNT = Account("韩梅梅", "6214********3816", "ALL/全币种", "上海陆家嘴支行")
CARD_NO = "6225 76** **** 5521"
FILLER = [(lg.ev_transfer_out, 3), (lg.ev_remit_in, 2), (lg.ev_netpay, 2)]


def statement(txns: List[Txn], period, applied: dt.datetime, vcode: str) -> Statement:
    return Statement(LAYOUT_2024, DEBIT_ACCOUNT, period, txns, applied_at=applied, verification_code=vcode, name_gap=28.0)


def debit_files(folder: str, rows: List[BankRow], periods, seed: int, per_day: float = 0.2,
                opening: Decimal = Decimal("30000.00")) -> List[Tuple[str, Tuple[dt.date, dt.date]]]:
    """Monthly statements of the debit card: `rows` plus filler and salaries. Returns (file, period)s."""
    lo, hi = periods[0][0], periods[-1][1]
    for s in range(seed, seed + 50):
        b = lg.LedgerBuilder(random.Random(s), {"CNY": opening})
        lg.daily_cny(b, lo, hi, per_day, dup_p=0.0, events=FILLER)
        d = lo
        while d <= hi:
            if d.day == 10:
                b.add(d, "CNY", Decimal("16800.00"), "代发工资", "上海某某信息技术有限公司", f"{d.year}年{d.month:02d}月工资", "10:02:13", must=True)
            d += dt.timedelta(days=1)
        for r in rows:
            b.add(r.date, "CNY", r.amount, r.description, r.counterparty, r.note, r.time, must=True)
        ledger = b.build()
        sts = [statement(lg.clip(ledger, a, z), (a, z), ap, vc) for a, z, ap, vc in periods]
        if all(Renderer(st).end_blocks_fit(Renderer(st).paginate()) for st in sts):
            break
    else:
        raise SystemExit("no seed fits the statements")
    out = []
    for st, (a, z, ap, vc) in zip(sts, periods):
        name = f"debit_3816_{a.isoformat()}_{z.isoformat()}"
        r = Renderer(st)
        pages = r.paginate()
        r.render(os.path.join(folder, name + ".pdf"), pages)
        write_json(os.path.join(folder, name + ".expected.json"), expected_pdf(name, None, st, len(pages)))
        out.append((name + ".pdf", (a, z)))
    return out


def card_files(folder: str, rows: List[BankRow], months: List[Tuple[int, int]]) -> List[Tuple[str, Tuple[dt.date, dt.date]]]:
    """One bill per month (账单日 the 12th): the rows posted from the 13th before to the 12th."""
    out = []
    previous = Decimal("0")
    for y, m in months:
        start = (dt.date(y, m, 12) - dt.timedelta(days=31)).replace(day=13)
        end = dt.date(y, m, 12)
        chosen = [r for r in rows if start <= (r.posted or r.date) <= end]
        crows = [card.Row("退款" if r.amount > 0 else "消费", r.date, r.posted or r.date, r.description, -r.amount, "5521") for r in chosen]
        order = ["还款", "退款", "消费", "费用"]
        crows.sort(key=lambda r: (order.index(r.section), r.posted, r.sold or r.posted))
        b = card.Bill(f"card_5521_{y}-{m:02d}", "韩梅梅 女士", CARD_NO, y, m, end, dt.date(y, m, 30), Decimal("50000"), previous,
                      Decimal("0"), crows)
        b.pages = card.render(b, os.path.join(folder, b.name + ".pdf"))
        write_json(os.path.join(folder, b.name + ".expected.json"), card.expected(b))
        previous = b.sums()[3]
        out.append((b.name + ".pdf", (start, end)))
    return out
