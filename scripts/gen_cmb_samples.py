#!/usr/bin/env python3
"""Generate synthetic China Merchants Bank (招商银行) statement fixtures for MoneyFlow.

    python3 scripts/gen_cmb_samples.py                      # all fixtures -> Samples/cmb/
    python3 scripts/gen_cmb_samples.py --verify             # ... and check them (pdftotext, 7z)
    python3 scripts/gen_cmb_samples.py --pages 300 --out /tmp/bench   # one N-page statement

Everything is deterministic: fixed seeds, reportlab invariant mode, fixed ZIP timestamps and salts
from seeded RNGs, so the same command produces byte-identical files.
The format being imitated is described in /work/shared/reference/cmb/FORMAT.md (see Samples/cmb/README.md).
All names, account numbers and amounts are invented.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import string
import sys
import uuid
from decimal import Decimal
from typing import Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cmbgen import ledger as lg                                    # noqa: E402
from cmbgen.ledger import Account, Txn, plain                      # noqa: E402
from cmbgen.pdfrender import (LAYOUT_2020, LAYOUT_2024, Renderer, Statement, MONO, wrap)  # noqa: E402
from cmbgen.zipwriter import Entry, build_zip                      # noqa: E402
from cmbgen.csvexport import render_csv                           # noqa: E402
from cmbgen import broken                                          # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "Samples", "cmb")
D = dt.date
T = dt.datetime
Dec = Decimal


def code(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(n))


def inner_name(applied: dt.datetime) -> str:
    return applied.strftime("招商银行交易流水(申请时间%Y年%m月%d日%H时%M分%S秒).pdf")


# ====================================================================== ledgers

ACC_A = Account("张三", "6214********8705", "ALL/全币种", "北京中关村支行")
ACC_B = Account("王五", "6214********3321", "ALL/全币种", "上海陆家嘴支行")
ACC_C = Account("赵六", "6226********1357", "ALL/全币种", "成都高新支行")
ACC_D = Account("钱七", "6214********2468", "ALL/全币种", "杭州西湖支行")
ACC_E = Account("孙小美", "6214********9090", "ALL/全币种", "广州天河支行")


def ledger_basic() -> List[Txn]:
    rng = random.Random(20260601)
    b = lg.LedgerBuilder(rng, {"CNY": Dec("16862.17")})
    lg.daily_cny(b, D(2026, 6, 1), D(2026, 6, 14), 1.55, dup_p=0.04)
    # rows that every parser must get right
    b.add(D(2026, 6, 1), "CNY", Dec("-5.00"), "账户管理费", None, "小额账户管理费", "00:31:07", must=True)
    b.add(D(2026, 6, 1), "CNY", Dec("-5.00"), "快捷支付", "上海公共交通卡股份有限公司", None, "08:12:40", must=True)
    b.add(D(2026, 6, 2), "CNY", Dec("100.00"), "网联收款", "李四", None, "12:03:55", must=True)
    b.add(D(2026, 6, 3), "CNY", Dec("-15.59"), "快捷支付", "拉扎斯网络科技（上海）有限公司", None, "12:20:01", must=True)
    b.add(D(2026, 6, 3), "CNY", Dec("-15.59"), "快捷支付", "拉扎斯网络科技（上海）有限公司", None, "18:44:19", must=True)
    b.add(D(2026, 6, 4), "CNY", Dec("-3000.00"), "转账汇款", "北京某某某某科技有限公司 110912345610201",
          "代付北京某某科技有限公司办公室租金及物业费押金", "10:15:00", must=True)
    b.add(D(2026, 6, 5), "CNY", Dec("2000.00"), "汇入汇款", "北京某某某某信息技术服务有限公司 110912345610201234",
          "2026年第一季度差旅费用报销款", "15:47:31", must=True)
    b.add(D(2026, 6, 6), "CNY", Dec("-2000.00"), "朝朝宝转入", None, None, "09:00:02", must=True)
    b.add(D(2026, 6, 8), "CNY", Dec("188.00"), "网联收款", "ＩＢＰＳ２跨行清算往来", "红包", "21:11:11", must=True)
    b.add(D(2026, 6, 9), "CNY", Dec("-200.00"), "转账汇款", "王五 6222021234567890123", "生活费", "11:30:00", must=True)
    b.add(D(2026, 6, 9), "CNY", Dec("-200.00"), "转账汇款", "王五 6222021234567890123", "生活费", "11:31:40", must=True)
    b.add(D(2026, 6, 10), "CNY", Dec("21583.36"), "代发工资", "北京某某科技有限公司", "2026年05月工资", "10:02:13", must=True)
    b.add(D(2026, 6, 11), "CNY", Dec("-4380.50"), "信用卡还款", "招商银行信用卡中心", "还信用卡", "19:20:00", must=True)
    b.add(D(2026, 6, 12), "CNY", Dec("-8800.00"), "零售汇出汇款", "周一鸣6217000010012345678", "房租", "09:41:27", must=True)
    b.add(D(2026, 6, 13), "CNY", Dec("0.83"), "账户结息", None, None, "02:10:00", must=True)
    return b.build()


def mc_events(b: lg.LedgerBuilder, start: dt.date, end: dt.date):
    rng = b.rng
    rates = {"USD": Dec("7.1520"), "HKD": Dec("0.9174")}
    foreign_in = {
        "USD": ["GLOBEX INTERNATIONAL TRADING CO LTD 0123456789", "ACME HOLDINGS LIMITED 778812340001",
                "王五 HSBC USD ACCOUNT 400123456789"],
        "HKD": ["某某（香港）贸易有限公司 012-345-678901-001", "CHAN TAI MAN 004-123-456789-838"],
    }
    d = start
    while d <= end:
        if rng.random() < 0.33:
            cur = rng.choice(["USD", "USD", "HKD"])
            r = rng.random()
            if r < 0.4:
                b.add(d, cur, lg.money(rng, 500, 20000), "汇入汇款", rng.choice(foreign_in[cur]),
                      rng.choice([None, "货款", "SERVICE FEE INV-2026-031", "咨询费"]))
            elif r < 0.6:
                amt = lg.money(rng, 200, 3000, 100)
                cny = (amt * rates[cur]).quantize(Dec("0.01"))
                t = lg.rand_time(rng, 9, 16)
                b.add(d, "CNY", -cny, "购汇", None, f"购汇{cur}", t)
                b.add(d, cur, amt, "购汇", None, f"购汇{cur}", t[:-2] + f"{min(59, int(t[-2:]) + 1):02d}")
            elif r < 0.8:
                amt = lg.money(rng, 100, 2000, 50)
                cny = (amt * rates[cur]).quantize(Dec("0.01"))
                t = lg.rand_time(rng, 9, 16)
                b.add(d, cur, -amt, "结汇", None, None, t)
                b.add(d, "CNY", cny, "结汇", None, None, t[:-2] + f"{min(59, int(t[-2:]) + 1):02d}")
            else:
                b.add(d, cur, -lg.money(rng, 100, 4000), "零售汇出汇款",
                      rng.choice(["CHAN TAI MAN 004-123-456789-838", "王某某 HANG SENG 024-283-123456-883"]),
                      rng.choice([None, "学费", "生活费"]))
        d += dt.timedelta(days=1)


def ledger_multicurrency() -> List[Txn]:
    rng = random.Random(20260501)
    start, end = D(2026, 3, 1), D(2026, 4, 30)
    b = lg.LedgerBuilder(rng, {"CNY": Dec("152380.44"), "USD": Dec("3210.55"), "HKD": Dec("18250.00")})
    lg.daily_cny(b, start, end, 0.72, dup_p=0.05)
    mc_events(b, start, end)
    lg.monthly(b, start, end, 10, lg.salary("上海某某信息技术有限公司", 38000, 45000))
    for cur, lo, hi in (("CNY", 20, 60), ("USD", 1, 5), ("HKD", 3, 20)):
        b.add(D(2026, 3, 21), cur, lg.money(rng, lo, hi), "账户结息", None, None, "02:10:00")
    b.add(D(2026, 3, 21), "CNY", Dec("-10.00"), "账户管理费", None, None, "02:30:00")
    b.add(D(2026, 4, 7), "USD", Dec("-120.00"), "零售汇出汇款", "GLOBEX INTERNATIONAL TRADING CO LTD 0123456789", "退款", "10:00:00")
    b.add(D(2026, 4, 7), "USD", Dec("-120.00"), "零售汇出汇款", "GLOBEX INTERNATIONAL TRADING CO LTD 0123456789", "退款", "10:05:00")
    return b.build()


EV2020_CP_WL = "待清算电子交换汇差-网联待清算资金-借记卡核算专户"
EV2020_CP_UP = "银联快捷支付待清算电子交换汇差一卡通交易资金"


def ev2020(rng):
    r = rng.random()
    if r < 0.50:
        amt = rng.choice([Dec("1.00"), Dec("1.88"), Dec("2.00")]) if rng.random() < 0.4 else lg.money(rng, 5, 300)
        return "快捷支付", -amt, EV2020_CP_WL, None
    if r < 0.62:
        return "银联快捷支付", -lg.money(rng, 20, 800), EV2020_CP_UP, None
    if r < 0.66:
        return "快捷退款", lg.money(rng, 2, 60), EV2020_CP_WL, None
    if r < 0.74:
        return "RI网银贷记发起付款", -lg.money(rng, 100, 9000, 100), rng.choice(lg.PERSONS[:6]), None
    if r < 0.80:
        return "RI网银贷记接收收款", lg.money(rng, 500, 30000, 100), rng.choice(lg.PERSONS[:6]), None
    if r < 0.85:
        return "零售汇入汇款", lg.money(rng, 1000, 20000, 1000), "成都某某某某供应链管理有限公司", None
    if r < 0.90:
        return "零售汇出汇款", -lg.money(rng, 500, 12000, 100), rng.choice(lg.PERSONS[:6]), None
    if r < 0.95:
        return "招行个人转账汇款转入", lg.money(rng, 100, 6000, 100), rng.choice(lg.PERSONS[:6]), None
    return "银联代付", lg.money(rng, 100, 1000, 100), "提现", None


def ledger_2020() -> List[Txn]:
    rng = random.Random(20200330)
    start, end = D(2020, 1, 2), D(2020, 3, 28)
    b = lg.LedgerBuilder(rng, {"CNY": Dec("13893.32")})
    lg.daily_cny(b, start, end, 0.5, dup_p=0.12, events=[(ev2020, 1)])
    b.add(D(2020, 1, 15), "CNY", Dec("-34.90"), "快捷支付", EV2020_CP_WL, None, "09:10:00")
    b.add(D(2020, 1, 15), "CNY", Dec("-120.00"), "快捷支付", EV2020_CP_WL, None, "19:10:00")
    b.add(D(2020, 2, 3), "CNY", Dec("20000.00"), "零售汇入汇款",
          "成都某某某某供应链管理有限公司 51001234567890123456", None, "10:20:30")
    b.add(D(2020, 2, 14), "CNY", Dec("-1.88"), "快捷支付", EV2020_CP_WL, None, "08:01:00")
    b.add(D(2020, 2, 14), "CNY", Dec("-1.88"), "快捷支付", EV2020_CP_WL, None, "18:01:00")
    b.add(D(2020, 2, 14), "CNY", Dec("-1.88"), "快捷支付", EV2020_CP_WL, None, "18:50:00")
    b.add(D(2020, 3, 6), "CNY", Dec("5300.00"), "汇入汇款", "ＩＢＰＳ２跨行清算往来", None, "14:00:00")
    b.add(D(2020, 3, 21), "CNY", Dec("9.62"), "账户结息", None, None, "02:10:00")
    b.add(D(2020, 3, 21), "CNY", Dec("-5.00"), "账户管理费", None, None, "02:30:00")
    # one row printed out of order within a day (balance chain break), as in the real 2020 statement
    return b.build(swap_within_day=[D(2020, 1, 15)])


def ledger_q() -> List[Txn]:
    rng = random.Random(20260401)
    start, end = D(2026, 1, 1), D(2026, 4, 30)
    b = lg.LedgerBuilder(rng, {"CNY": Dec("26411.09")})
    lg.daily_cny(b, start, end, 0.62, dup_p=0.05)
    lg.monthly(b, start, end, 10, lg.salary("杭州某某电子商务有限公司", 16000, 19000))
    lg.monthly(b, start, end, 8, lambda r, d: ("信用卡还款", -lg.money(r, 1500, 6000), "招商银行信用卡中心", "还信用卡"))
    lg.monthly(b, start, end, 1, lg.fee("1.00"))
    lg.quarterly_interest(b, start, end)
    lg.with_forced_duplicates(b, [D(2026, 1, 20), D(2026, 2, 14), D(2026, 3, 8), D(2026, 4, 3)])
    b.add(D(2026, 2, 26), "CNY", Dec("3000.00"), "汇入汇款", "北京某某某某信息技术服务有限公司 110912345610201234",
          "项目尾款HT20260312", "16:00:00")
    return b.build()


def ledger_long(start: dt.date, end: dt.date, per_day: float, seed: int) -> List[Txn]:
    rng = random.Random(seed)
    b = lg.LedgerBuilder(rng, {"CNY": Dec("58300.00")})
    lg.daily_cny(b, start, end, per_day, dup_p=0.06)
    lg.monthly(b, start, end, 15, lg.salary("广州某某贸易有限公司", 22000, 30000))
    lg.monthly(b, start, end, 5, lambda r, d: ("信用卡还款", -lg.money(r, 2000, 9000), "招商银行信用卡中心", None))
    lg.monthly(b, start, end, 21, lg.fee("5.00"))
    lg.quarterly_interest(b, start, end)
    return b.build()


# ====================================================================== writing

def expected_pdf(fixture: str, password: str, st: Statement, pages: int) -> dict:
    L = st.layout
    cols = {c.key: c for c in L.columns}
    txns = []
    for t in st.txns:
        def printed(text, key):
            if key not in cols:
                return None
            lines = wrap(text, cols[key].cap, MONO, L.size)
            return "".join(lines) if lines else None
        txns.append({
            "date": t.date.isoformat(), "currency": t.currency, "amount": plain(t.amount),
            "balance": plain(t.balance), "description": t.type,
            "counterparty": printed(t.counterparty, "counterparty"), "note": printed(t.note, "note"),
        })
    totals = None
    if st.summary:
        totals = {}
        for t in st.txns:
            tt = totals.setdefault(t.currency, {"income": Dec("0.00"), "expense": Dec("0.00")})
            tt["income" if t.amount > 0 else "expense"] += t.amount
        totals = {k: {"income": plain(v["income"]), "expense": plain(v["expense"])} for k, v in totals.items()}
    # balance chain check (per currency): indices where previous balance + amount != balance
    breaks, last = [], {}
    for i, t in enumerate(st.txns):
        if t.currency in last and last[t.currency] + t.amount != t.balance:
            breaks.append(i)
        last[t.currency] = t.balance
    return {
        "fixture": fixture, "password": password, "layout": L.name, "pages": pages,
        "header": {
            "name": st.account.name, "account_number": st.account.number,
            "account_type": st.account.account_type, "branch": st.account.branch,
            "period_start": st.period[0].isoformat(), "period_end": st.period[1].isoformat(),
            "applied_at": st.applied_at.strftime("%Y-%m-%d %H:%M:%S") if st.applied_at else None,
            "serial_no": st.serial_no, "verification_code": st.verification_code,
        },
        "totals": totals,
        "balance_chain_breaks": breaks,
        "transactions": txns,
    }


def write_json(path: str, obj):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")


def write_fixture(out: str, name: str, st: Statement, rng: random.Random, *, expect_pages: Optional[int] = None,
                  zips=("zipcrypto", "aes256"), name_encoding="utf-8", zip_time: Optional[dt.datetime] = None,
                  password: Optional[str] = None) -> dict:
    password = password or code(rng, rng.choice([6, 7, 8]))
    r = Renderer(st)
    pages = r.paginate()
    if expect_pages is not None and len(pages) != expect_pages:
        raise SystemExit(f"{name}: {len(pages)} pages, expected {expect_pages}")
    pdf = os.path.join(out, name + ".pdf")
    r.render(pdf, pages)
    data = open(pdf, "rb").read()
    when = zip_time or st.applied_at
    for method in zips:
        suffix = {"aes128-ae1": "aes128", "aes192": "aes192", "aes256": "aes256", "zipcrypto": "zipcrypto"}[method]
        z = build_zip([Entry(inner_name(when), data, when, name_encoding)], password, method, rng)
        with open(os.path.join(out, f"{name}.{suffix}.zip"), "wb") as f:
            f.write(z)
    exp = expected_pdf(name, password, st, len(pages))
    exp["zip_entry_name"] = inner_name(when)
    exp["zip_entry_name_encoding"] = "utf-8 (flag bit 11)" if name_encoding == "utf-8" else f"{name_encoding} (flag bit 11 clear)"
    write_json(os.path.join(out, name + ".expected.json"), exp)
    # The unzip code as a one-line file, for `password_file` in Samples/moneyflow.toml.
    os.makedirs(os.path.join(out, "passwords"), exist_ok=True)
    with open(os.path.join(out, "passwords", name + ".txt"), "w") as f:
        f.write(password + "\n")
    return exp


def fit_to_pages(txns: List[Txn], n_pages: int, make_st) -> Statement:
    """Largest whole-day prefix of txns that renders to exactly n_pages (closing blocks included)."""
    dates = sorted({t.date for t in txns})
    lo, hi, best = 0, len(dates) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        st = make_st([t for t in txns if t.date <= dates[mid]], dates[mid])
        r = Renderer(st)
        pages = r.paginate()
        if len(pages) < n_pages or (len(pages) == n_pages and r.end_blocks_fit(pages)):
            if len(pages) == n_pages:
                best = st
            lo = mid + 1
        else:
            hi = mid - 1
    if best is None:
        raise SystemExit(f"cannot fit ledger to {n_pages} pages")
    return best


def long_statement(n_pages: int, name: str, out: str, seed: int) -> dict:
    """A busy account over (at most) one year, cut at a day boundary to exactly n_pages pages."""
    start, end = D(2025, 6, 15), D(2026, 6, 14)
    rng = random.Random(seed)
    applied = T(2026, 6, 20, 8, 15, 33)
    vcode = code(rng, 8)

    def make(tx, last):
        return Statement(LAYOUT_2024, ACC_E, (start, last), tx, applied_at=applied, verification_code=vcode,
                         summary=True, name_gap=27.0, seed=seed)
    per_day = max(2.0, n_pages * 40 / 365)
    while True:
        txns = ledger_long(start, end, per_day, seed)
        if len(Renderer(make(txns, end)).paginate()) > n_pages:
            break
        per_day *= 1.25
    st = fit_to_pages(txns, n_pages, make)
    return write_fixture(out, name, st, rng, expect_pages=n_pages)


def generate_all(out: str):
    os.makedirs(out, exist_ok=True)
    bdir = os.path.join(out, "broken")
    os.makedirs(bdir, exist_ok=True)
    rng = random.Random(8705)

    # 1. basic
    basic = ledger_basic()
    st_basic = Statement(LAYOUT_2024, ACC_A, (D(2026, 6, 1), D(2026, 6, 14)), basic,
                         applied_at=T(2026, 6, 16, 17, 44, 37), verification_code=code(rng, 8), name_gap=30.0)
    write_fixture(out, "cmb2024_basic", st_basic, rng, expect_pages=2,
                  zips=("zipcrypto", "aes256", "aes128-ae1", "aes192"))

    # 2. multicurrency
    st_mc = Statement(LAYOUT_2024, ACC_B, (D(2026, 3, 1), D(2026, 4, 30)), ledger_multicurrency(),
                      applied_at=T(2026, 5, 3, 10, 21, 9), verification_code=code(rng, 8), summary=True,
                      name_gap=26.0)
    write_fixture(out, "cmb2024_multicurrency", st_mc, rng, expect_pages=3)

    # 3. 2020 layout
    st_2020 = Statement(LAYOUT_2020, ACC_C, (D(2020, 1, 1), D(2020, 3, 28)), ledger_2020(),
                        serial_no=str(uuid.UUID(int=rng.getrandbits(128), version=4)), name_gap=30.0,
                        stream_order="real2020")
    write_fixture(out, "cmb2020_layout", st_2020, rng, expect_pages=3, name_encoding="gbk",
                  zip_time=T(2020, 3, 30, 11, 2, 3))

    # 4. two overlapping statements of one account
    q = ledger_q()
    st_q1 = Statement(LAYOUT_2024, ACC_D, (D(2026, 1, 1), D(2026, 3, 31)), lg.clip(q, D(2026, 1, 1), D(2026, 3, 31)),
                      applied_at=T(2026, 4, 1, 9, 30, 11), verification_code=code(rng, 8), name_gap=24.0)
    write_fixture(out, "cmb2024_q1", st_q1, rng)
    st_q2 = Statement(LAYOUT_2024, ACC_D, (D(2026, 2, 1), D(2026, 4, 30)), lg.clip(q, D(2026, 2, 1), D(2026, 4, 30)),
                      applied_at=T(2026, 5, 6, 20, 5, 48), verification_code=code(rng, 8), name_gap=33.0)
    write_fixture(out, "cmb2024_q2overlap", st_q2, rng)

    # 5. basic with a scrambled content stream
    st_so = Statement(LAYOUT_2024, ACC_A, st_basic.period, basic, applied_at=st_basic.applied_at,
                      verification_code=st_basic.verification_code, name_gap=30.0, stream_order="shuffled", seed=5)
    write_fixture(out, "cmb2024_streamorder", st_so, rng, expect_pages=2)

    # 6. 30 pages
    long_statement(30, "cmb2024_30pages", out, seed=30)

    # CSV (PC web banking), same ledger as q1/q2, Feb-Mar
    csv_tx = lg.clip(q, D(2026, 2, 1), D(2026, 3, 31))
    for name, enc, quoted, nl in (("cmb_pc_gbk", "gb18030", True, "\r\n"), ("cmb_pc_utf8bom", "utf-8-sig", False, "\n")):
        text, rows, totals = render_csv(csv_tx, ACC_D.number, D(2026, 2, 1), D(2026, 3, 31),
                                        T(2026, 4, 1, 8, 12, 45), quoted, nl)
        with open(os.path.join(out, name + ".csv"), "wb") as f:
            f.write(text.encode(enc))
        write_json(os.path.join(out, name + ".expected.json"), {
            "fixture": name, "format": "cmb_pc_csv",
            "encoding": "GB18030" if enc == "gb18030" else "UTF-8 with BOM",
            "line_ending": "CRLF" if nl == "\r\n" else "LF", "preamble_quoted": quoted,
            "account_number": ACC_D.number, "period_start": "2026-02-01", "period_end": "2026-03-31",
            "exported_at": "2026-04-01 08:12:45", "totals": totals, "transactions": rows})

    # broken inputs
    make_broken(out, bdir, st_basic, random.Random(404))


def make_broken(out: str, bdir: str, st_basic: Statement, rng: random.Random):
    from reportlab.lib.pdfencrypt import StandardEncryption
    basic_pdf = open(os.path.join(out, "cmb2024_basic.pdf"), "rb").read()
    basic_zip = open(os.path.join(out, "cmb2024_basic.zipcrypto.zip"), "rb").read()
    when = st_basic.applied_at
    pw = {}
    with open(os.path.join(bdir, "truncated.zipcrypto.zip"), "wb") as f:
        f.write(basic_zip[:len(basic_zip) // 2])
    with open(os.path.join(bdir, "truncated.pdf"), "wb") as f:
        f.write(basic_pdf[:len(basic_pdf) // 2])
    pw["truncated_pdf.zip"] = code(rng, 8)
    with open(os.path.join(bdir, "truncated_pdf.zip"), "wb") as f:
        f.write(build_zip([Entry(inner_name(when), basic_pdf[:len(basic_pdf) // 2], when)],
                          pw["truncated_pdf.zip"], "zipcrypto", rng))
    broken.invoice_pdf(os.path.join(bdir, "not_cmb.pdf"))
    pw["not_cmb.zip"] = code(rng, 8)
    with open(os.path.join(bdir, "not_cmb.zip"), "wb") as f:
        f.write(build_zip([Entry(inner_name(when), open(os.path.join(bdir, "not_cmb.pdf"), "rb").read(), when)],
                          pw["not_cmb.zip"], "aes256", rng))
    broken.scanned_pdf(os.path.join(out, "cmb2024_basic.pdf"), os.path.join(bdir, "scanned.pdf"))
    pw["encrypted.pdf"] = "123456"
    enc = StandardEncryption("123456", ownerPassword="cmb-owner-7f3a", strength=128)
    Renderer(st_basic).render(os.path.join(bdir, "encrypted.pdf"), encrypt=enc)
    pw["truncated.zipcrypto.zip"] = json.load(open(os.path.join(out, "cmb2024_basic.expected.json")))["password"]
    write_json(os.path.join(bdir, "passwords.json"), pw)
    with open(os.path.join(bdir, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(BROKEN_README.format(**{k.replace(".", "_"): v for k, v in pw.items()}))


BROKEN_README = """# Broken CMB inputs (generated by scripts/gen_cmb_samples.py -- do not edit by hand)

Every file here must be rejected with a clear, specific error; none may crash the importer or
yield transactions. Passwords are also in `passwords.json`.

| file | password | what it is | expected failure |
|---|---|---|---|
| `truncated.zipcrypto.zip` | `{truncated_zipcrypto_zip}` | first half of `../cmb2024_basic.zipcrypto.zip` (no central directory, entry data cut) | corrupt / truncated archive |
| `truncated_pdf.zip` | `{truncated_pdf_zip}` | valid ZipCrypto ZIP (entry `招商银行交易流水(申请时间2026年06月16日17时44分37秒).pdf`) holding the first half of `../cmb2024_basic.pdf` | decrypts fine (CRC matches), then the PDF is unreadable: no xref/trailer, no `%%EOF` |
| `truncated.pdf` | - | first half of `../cmb2024_basic.pdf` | unreadable / truncated PDF |
| `not_cmb.pdf` | - | an ordinary electronic invoice (电子发票) with Chinese text, dates and amounts | not a CMB statement (no `招商银行交易流水` title, no 记账日期/联机余额 header) |
| `not_cmb.zip` | `{not_cmb_zip}` | valid WinZip AES-256 ZIP holding `not_cmb.pdf` under the CMB-style entry name `招商银行交易流水(申请时间2026年06月16日17时44分37秒).pdf` | not a CMB statement (sniff the content, not the name) |
| `scanned.pdf` | - | both pages of `../cmb2024_basic.pdf` rendered to 100 dpi grey images (poppler `pdftoppm`); only the images are embedded: no fonts, no text objects | no text layer (image-only / scanned statement; OCR is not supported) |
| `encrypted.pdf` | `{encrypted_pdf}` (user password; owner password `cmb-owner-7f3a`) | `../cmb2024_basic.pdf` rendered with PDF Standard Security Handler, RC4 128-bit (revision 3) | password-protected PDF (real CMB PDFs are not encrypted; only the ZIP is). With the password it opens and holds the same 35 rows as cmb2024_basic |

Any fixture archive in `..` opened with a wrong password (e.g. `WRONGPW`) must fail with a
wrong-password error, not a parse error.
"""


# ====================================================================== main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output directory (default: Samples/cmb)")
    ap.add_argument("--pages", type=int, help="only write one N-page 2024-layout statement (benchmarks)")
    ap.add_argument("--verify", action="store_true", help="check the output with pdftotext and 7z")
    a = ap.parse_args(argv)
    if a.pages:
        out = a.out or "."
        os.makedirs(out, exist_ok=True)
        name = f"cmb2024_{a.pages}pages"
        long_statement(a.pages, name, out, seed=a.pages)
        print(f"wrote {os.path.join(out, name)}.{{pdf,expected.json,zipcrypto.zip,aes256.zip}}")
    else:
        out = a.out or DEFAULT_OUT
        generate_all(out)
        print(f"wrote fixtures to {out}")
    if a.verify:
        from cmbgen.verify import verify_dir
        sys.exit(0 if verify_dir(out) else 1)


if __name__ == "__main__":
    main()
