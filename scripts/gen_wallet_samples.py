#!/usr/bin/env python3
"""Generate the wallet samples in Samples/wallets/ (issue 26): one person's quarter.

    python3 scripts/gen_wallet_samples.py              # writes Samples/wallets/
    python3 scripts/gen_wallet_samples.py --out DIR
    python3 scripts/gen_wallet_samples.py --year DIR   # a year of both wallets (>= 10k rows) and of CMB
                                                       # debit statements, for the benchmark (not committed)

The quarter (2026-04-13 .. 2026-07-12) of 韩梅梅: her CMB debit card 3816 (three monthly 交易流水 PDFs),
her CMB credit card 5521 (three bills), her Alipay bill (GBK CSV in its password ZIP) and her WeChat
Pay bill (XLSX in its password ZIP); formats/ holds the same bills bare and the other layouts (a
UTF-8 Alipay CSV with a shifted preamble, the older Alipay PC export, an older WeChat CSV).
Each bill's expected.json (records, accounts, warnings) and expected_links.json (which wallet record
is the same money as which CMB row) are written from the generator's own orders
(scripts/walletgen/orders.py says what each order is), never from an importer. Deterministic: fixed
seeds, reportlab invariant mode. All names, numbers and amounts are invented.

Reused, not copied: scripts/cmbgen (debit statement PDFs, the password ZIP writer),
scripts/gen_cmb_card_samples.py (card bills).
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cmbgen.zipwriter import Entry, build_zip                        # noqa: E402
from gen_cmb_samples import write_json                               # noqa: E402
from walletgen import bank, demo, expected, quarter, writers         # noqa: E402
from walletgen.orders import (ALIPAY_HOLDER, ALIPAY_NAME, WECHAT_NICK, Numbers, Order, Record, purchase, alipay,  # noqa: E402
                              DEBIT, CREDIT, wechat)

PASSWORDS = {"alipay_2026Q2": "683514", "wechat_2026Q2": "207941"}
T = dt.datetime


def zipped(out: str, name: str, inner: str, data: bytes, when: dt.datetime, rng: random.Random):
    with open(os.path.join(out, name + ".zip"), "wb") as f:
        f.write(build_zip([Entry(inner, data, when)], PASSWORDS[name], "aes256", rng))
    os.makedirs(os.path.join(out, "passwords"), exist_ok=True)
    with open(os.path.join(out, "passwords", name + ".txt"), "w") as f:
        f.write(PASSWORDS[name] + "\n")


def write(path: str, data: bytes):
    with open(path, "wb") as f:
        f.write(data)


def pc_rows():
    """The older PC export: (row, expected records, warning)."""
    acct = "hanmeimei@example.com"
    key = f"alipay:{acct}"

    def row(no, created, paid, typ, peer, item, amount, direction, status, refund, funds, fee=""):
        return {"交易号": no, "商家订单号": "T" + no[-12:], "交易创建时间": created, "付款时间": paid, "最近修改时间": paid or created,
                "交易来源地": "其他（包括阿里巴巴和外部商家）", "类型": typ, "交易对方": peer, "商品名称": item, "金额（元）": amount, "收/支": direction,
                "交易状态": status, "服务费（元）": fee or "0.00", "成功退款（元）": refund, "备注": "", "资金状态": funds}
    rows = [
        (row("2016012921001004230212345678", "2016-01-29 20:11:02", "", "即时到账交易", "某某书店", "图书", "42.00", "", "交易关闭", "0.00", ""),
         [], "moved no money"),
        (row("2016012521001004230298765432", "2016-01-25 09:00:10", "2016-01-25 09:00:12", "即时到账交易", "李雷", "转账", "200.00", "收入",
             "交易成功", "0.00", "已收入"), [(key, "200.00", None, None, None)], None),
        (row("2016011821001004230255501234", "2016-01-18 12:30:00", "2016-01-18 12:30:05", "支付宝担保交易", "某某数码专营店", "手机壳", "50.00",
             "支出", "交易关闭", "12.00", "已支出"), [(key, "-50.00", None, None, None), (key, "12.00", "refund", "退款-手机壳", "退款")], None),
        (row("2016010521001004230200011122", "2016-01-05 08:15:40", "2016-01-05 08:15:41", "即时到账交易", "某某便利店", "早餐", "35.00", "支出",
             "交易成功", "0.00", "已支出", fee="0.10"), [(key, "-35.00", None, None, None), (key, "-0.10", "fee", "服务费", "服务费")], None),
    ]
    return acct, rows


def write_pc(out: str):
    acct, rows = pc_rows()
    data, where = writers.alipay_pc_csv(acct, dt.date(2016, 1, 1), dt.date(2016, 1, 31), [r for r, _, _ in rows])
    write(os.path.join(out, "alipay_pc_2016.csv"), data)
    recs, warns = [], [{"line": None, "contains": "names no payment method"}]
    for (r, exp, warn), line in zip(rows, where):
        time = r["付款时间"] or r["交易创建时间"]
        for key, amount, scope, desc, cat in exp:
            recs.append({"line": line, "account": key, "external_id": r["交易号"], "scope": scope, "date": time[:10], "time": time[11:],
                         "amount": amount, "description": desc or r["商品名称"], "counterparty": r["交易对方"], "note": None,
                         "category": cat or r["类型"], "method": "", "status": r["交易状态"]})
        if warn:
            warns.append({"line": line, "contains": warn})
    write_json(os.path.join(out, "alipay_pc_2016.expected.json"),
               {"accounts": [expected.account_facts(f"alipay:{acct}")], "records": recs, "warnings": warns})


def older_wechat(out: str):
    """An older WeChat CSV (Q1, before the XLSX): a few everyday rows, one red packet."""
    n = Numbers(random.Random(2601))
    orders = [purchase(n, "wechat", T(2026, 3, 28, 12, 1, 2), DEBIT, "美团平台商户", "美团订单-午餐", Decimal("28.10")),
              purchase(n, "wechat", T(2026, 3, 2, 8, 30, 0), wechat("零钱"), "全家便利店", "便利店消费", Decimal("12.50")),
              purchase(n, "wechat", T(2026, 2, 14, 19, 45, 9), CREDIT, "上海某某餐饮管理有限公司", "双人套餐", Decimal("520.00"))]
    p = writers.Preamble(WECHAT_NICK, "", dt.date(2026, 1, 1), dt.date(2026, 3, 31), T(2026, 4, 1, 9, 0, 0))
    data, where = writers.wechat_csv(p, [o.row for o in orders])
    write(os.path.join(out, "wechat_2026Q1.csv"), data)
    write_json(os.path.join(out, "wechat_2026Q1.expected.json"), expected.bill_expected(orders, where, "line"))


def main_quarter(out: str):
    os.makedirs(os.path.join(out, "formats"), exist_ok=True)
    ali, wx = quarter.quarter()
    zrng = random.Random(2626)
    exported = T(2026, 7, 14, 8, 41, 17)
    p = writers.Preamble(ALIPAY_NAME, ALIPAY_HOLDER, quarter.START, quarter.END, exported)
    data, where = writers.alipay_csv(p, [o.row for o in ali])
    write(os.path.join(out, "formats", "alipay_2026Q2.csv"), data)
    zipped(out, "alipay_2026Q2", "支付宝交易明细(20260413-20260712).csv", data, exported, zrng)
    write_json(os.path.join(out, "alipay_2026Q2.expected.json"), expected.bill_expected(ali, where, "line"))
    # The same bill re-saved as UTF-8 by a newer app: a 2026 preamble (one line fewer) and three
    # lines more before it; the header is where the content says.
    short = ali[:15]
    data, where = writers.alipay_csv(p, [o.row for o in short], encoding="utf-8", short_preamble=True, extra_preamble=3)
    write(os.path.join(out, "formats", "alipay_utf8_shifted.csv"), data)
    write_json(os.path.join(out, "formats", "alipay_utf8_shifted.expected.json"), expected.bill_expected(short, where, "line"))
    pw = writers.Preamble(WECHAT_NICK, "", quarter.START, quarter.END, exported)
    data, where = writers.wechat_xlsx(pw, [o.row for o in wx], exported)
    write(os.path.join(out, "formats", "wechat_2026Q2.xlsx"), data)
    zipped(out, "wechat_2026Q2", "微信支付账单流水文件(20260413-20260712).xlsx", data, exported, zrng)
    write_json(os.path.join(out, "wechat_2026Q2.expected.json"), expected.bill_expected(wx, where, "row"))
    write_pc(os.path.join(out, "formats"))
    older_wechat(os.path.join(out, "formats"))

    rows = [r.bank for o in ali + wx for r in o.records if r.bank] + [b for o in ali + wx for b in o.bank_only]
    periods = [(dt.date(2026, 4, 13), dt.date(2026, 5, 12), T(2026, 5, 13, 9, 2, 11), "W4K8P2QD"),
               (dt.date(2026, 5, 13), dt.date(2026, 6, 12), T(2026, 6, 13, 20, 15, 40), "M7N3X5RT"),
               (dt.date(2026, 6, 13), dt.date(2026, 7, 12), T(2026, 7, 13, 8, 1, 9), "C9V2B6LH")]
    debit = bank.debit_files(out, [r for r in rows if r.kind == "debit"], periods, 3816)
    cards = bank.card_files(out, [r for r in rows if r.kind == "card"], [(2026, 5), (2026, 6), (2026, 7)])
    links = expected.links({"alipay_2026Q2.zip": ali, "wechat_2026Q2.zip": wx}, debit, cards)
    expected.check_links(out, links)
    write_json(os.path.join(out, "expected_links.json"), links)
    print(f"wrote {len(ali)} Alipay and {len(wx)} WeChat orders, {len(debit)} statements, {len(cards)} bills to {out}")
    # The demo person's bills (Samples/demo_wallets, next to Samples/wallets): their card's rows are in
    # Samples/cmb/cmb2024_q1 and q2overlap.
    demo.demo(os.path.join(os.path.dirname(os.path.abspath(out)), "demo_wallets"), write, write_json)


def main_year(out: str):
    """A year (2025-07-13 .. 2026-07-12) of both wallets, >= 10k rows, and the debit card's statements."""
    os.makedirs(out, exist_ok=True)
    n = Numbers(random.Random(2025))
    start, end = dt.date(2025, 7, 13), dt.date(2026, 7, 12)
    orders = quarter.everyday(n, random.Random(20250713), start, end - dt.timedelta(days=1), 14.0, set())
    ali = sorted((o for o in orders if o.platform == "alipay"), key=lambda o: o.when, reverse=True)
    wx = sorted((o for o in orders if o.platform == "wechat"), key=lambda o: o.when, reverse=True)
    exported = T(2026, 7, 14, 8, 0, 0)
    data, _ = writers.alipay_csv(writers.Preamble(ALIPAY_NAME, ALIPAY_HOLDER, start, end, exported), [o.row for o in ali])
    write(os.path.join(out, "alipay_year.csv"), data)
    data, _ = writers.wechat_xlsx(writers.Preamble(WECHAT_NICK, "", start, end, exported), [o.row for o in wx], exported)
    write(os.path.join(out, "wechat_year.xlsx"), data)
    rows = [r.bank for o in orders for r in o.records if r.bank and r.bank.kind == "debit"]
    periods, a, k = [], start, 0
    while a <= end:
        z = min((a.replace(day=1) + dt.timedelta(days=45)).replace(day=12), end)
        periods.append((a, z, T(z.year, z.month, z.day, 9, 0, 0) + dt.timedelta(days=1), f"Y{k:07d}"))
        a, k = z + dt.timedelta(days=1), k + 1
    bank.debit_files(out, rows, periods, 2025, per_day=0.1, opening=Decimal("900000.00"))
    print(f"wrote {len(ali)} Alipay and {len(wx)} WeChat rows ({len(ali) + len(wx)}), {len(periods)} statements to {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "Samples", "wallets"))
    ap.add_argument("--year", metavar="DIR", help="write the benchmark's year into DIR instead")
    a = ap.parse_args()
    if a.year:
        main_year(a.year)
    else:
        main_quarter(a.out)


if __name__ == "__main__":
    main()
