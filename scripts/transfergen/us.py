"""Scenario B: a US checking account (Chase checking CSV), its savings account (an OFX download)
and the credit card as a Plaid /transactions/sync feed, January-March 2026.

The files are written with the helpers of scripts/gen_csv_samples.py (Chase checking layout),
scripts/gen_ofx_samples.py (OFX 1.02 SGML) and scripts/gen_plaid_samples.py (sync pages), so
they have the shapes the importers are tested on. Amounts that matter are written by hand.
"""
from __future__ import annotations

import datetime as dt
import os
import random
from decimal import Decimal
from typing import List

import gen_csv_samples as gc                                          # noqa: E402
import gen_ofx_samples as go                                          # noqa: E402
import gen_plaid_samples as gp                                        # noqa: E402
from transfergen.legs import Leg, Pair, check_no_accidental_pairs, expected, write_json   # noqa: E402

D = dt.date
Dec = Decimal
CHECKING_CSV = "Chase5678_Activity_20260401.csv"
SAVINGS_OFX = "chase_savings_1234_2026Q1.ofx"
AUTOPAY = "CHASE CREDIT CRD AUTOPAY                    PPD ID: 4760039224"

CARD = gp.pid("transfers:account:chase-freedom-7742")
gp.ACCOUNTS[CARD] = {
    "name": "CHASE FREEDOM UNLIMITED", "official_name": "Chase Freedom Unlimited", "mask": "7742",
    "type": "credit", "subtype": "credit card", "opening": Dec("1284.17"), "limit": Dec("12000"),
}
gp.M["card_autopay"] = dict(gp.M["payment"], name="AUTOMATIC PAYMENT - THANK")
gp.M["card_payment_mobile"] = dict(gp.M["payment"], name="Payment Thank You-Mobile")


def checking(folder: str, rng: random.Random) -> List[Leg]:
    rows = []   # (date, amount, details, type, text)

    def add(d, amount, details, typ, text):
        rows.append((d, Dec(amount), details, typ, text))

    pool = [m for m in gc.WA if m.key in ("starbucks", "wholefoods", "traderjoes", "shell", "target", "cvs", "uber")]
    for _ in range(27):
        m = rng.choice(pool)
        tday = D(2026, 1, 2) + dt.timedelta(days=rng.randint(0, 86))
        pday = tday + dt.timedelta(days=rng.randint(0, 2))
        add(pday, f"-{gc.cents(rng.randint(m.lo, m.hi))}", "DEBIT", "DEBIT_CARD",
            f"{gc.resolve(rng, m.card)} {m.city} {m.st} {gc.mmdd(tday)}")
    for d in (D(2026, 1, 15), D(2026, 1, 30), D(2026, 2, 13), D(2026, 2, 27), D(2026, 3, 13), D(2026, 3, 27)):
        trace = gc.digits(rng, 15)
        add(d, "2412.37", "CREDIT", "ACH_CREDIT",
            f"ORIG CO NAME:ACME ROBOTICS INC       ORIG ID:9876543210 DESC DATE:{d:%y%m%d} "
            f"CO ENTRY DESCR:PAYROLL   SEC:PPD    TRACE#:{trace} EED:{d:%y%m%d}   "
            f"IND ID:E0042                 IND NAME:DOE,JANE TRN: {trace[-10:]}TC")
    for d in (D(2026, 1, 2), D(2026, 2, 2), D(2026, 3, 2)):
        add(d, "-1850.00", "DEBIT", "BILLPAY", f"Online Payment {gc.digits(rng, 11)} To Cascade Property Management {gc.mmdd(d)}")
    for d, amount in ((D(2026, 1, 20), "-1284.17"), (D(2026, 2, 20), "-963.40"), (D(2026, 3, 20), "-1051.88")):
        add(d, amount, "DEBIT", "ACH_DEBIT", AUTOPAY)
    add(D(2026, 2, 3), "-200.00", "DEBIT", "LOAN_PMT", "Payment to Chase card ending in 7742 02/03")
    for d, amount, to in ((D(2026, 1, 16), "-1000.00", True), (D(2026, 2, 24), "750.00", False),
                          (D(2026, 3, 3), "-500.00", True), (D(2026, 3, 6), "-500.00", True)):
        direction = "to" if to else "from"
        add(d, amount, "DEBIT" if to else "CREDIT", "ACCT_XFER",
            f"Online Transfer {direction} SAV ...1234 transaction#: {gc.digits(rng, 11)} {gc.mmdd(d)}")
    add(D(2026, 3, 4), "500.00", "CREDIT", "QUICKPAY_CREDIT", f"Zelle payment from DAVID KIM {gc.digits(rng, 11)}")
    add(D(2026, 3, 9), "-500.00", "DEBIT", "ATM", "ATM WITHDRAWAL 004213 03/09 2201 3RD AVE SEATTLE WA")
    add(D(2026, 1, 30), "-12.00", "DEBIT", "FEE_TRANSACTION", "MONTHLY SERVICE FEE")

    rows.sort(key=lambda r: r[0])       # stable: same-day rows keep the order they were written
    doc = gc.Doc(gc.CRLF)
    doc.row(["Details", "Posting Date", "Description", "Amount", "Type", "Balance", "Check or Slip #"])
    bal, bals = Dec("6412.88"), []
    for r in rows:
        bal += r[1]
        bals.append(bal)
    legs = []
    for (d, amount, details, typ, text), b in reversed(list(zip(rows, bals))):
        doc.row([details, gc.us(d), gc.q(text), gc.plain(amount), typ, gc.plain(b), "", ""])
        legs.append(Leg(CHECKING_CSV, d, amount, "USD", text, "checking"))
    with open(os.path.join(folder, CHECKING_CSV), "wb") as f:
        f.write(doc.text().encode("utf-8"))
    return legs


def xfer_memo(direction: str, other: str, d: dt.date, number: str) -> str:
    return f"Online Transfer {direction} {other} transaction#: {number} {d:%m/%d}"


def savings(folder: str, checking_legs: List[Leg]) -> List[Leg]:
    rows, legs = [], []
    entries = [(D(2026, 1, 30), "1.87", "INTEREST PAYMENT", None), (D(2026, 2, 27), "1.72", "INTEREST PAYMENT", None),
               (D(2026, 3, 31), "2.05", "INTEREST PAYMENT", None)]
    for l in checking_legs:            # the other side of each move, with the same transaction number
        if "SAV ...1234" in l.description:
            number = l.description.split("transaction#: ")[1].split()[0]
            direction = "from" if l.amount < 0 else "to"
            entries.append((l.date, f"{-l.amount:.2f}", xfer_memo(direction, "CHK ...5678", l.date, number), "XFER"))
    entries.sort(key=lambda e: e[0])
    bal = Dec("12500.00")
    for i, (d, amount, text, kind) in enumerate(entries):
        bal += Dec(amount)
        t = {"TRNTYPE": kind or "INT", "DTPOSTED": f"{d:%Y%m%d}120000.000[-5:EST]", "TRNAMT": amount,
             "FITID": f"{d:%Y%m%d}{i + 1:05d}", "NAME": text[:32].rstrip()}
        if len(text) > 32:
            t["MEMO"] = text
        rows.append(t)
        legs.append(Leg(SAVINGS_OFX, d, Dec(amount), "USD", t["NAME"], "savings"))
    acct = {"BANKID": "021000021", "ACCTID": "000002049461234", "ACCTTYPE": "SAVINGS"}
    asof = "20260401080000.000[-5:EST]"
    lines = ["<OFX>"] + go.signon("Chase", "10898") + ["<BANKMSGSRSV1>"] + go.statement(
        "bank", acct, "USD", "20260101", "20260331", rows, (f"{bal:.2f}", asof), avail=(f"{bal:.2f}", asof)) + \
        ["</BANKMSGSRSV1>", "</OFX>"]
    header = [h.format(v="102", c="1252") for h in go.SGML_HEADER]
    with open(os.path.join(folder, SAVINGS_OFX), "wb") as f:
        f.write(("\r\n".join(header + lines) + "\r\n").encode("cp1252"))
    return legs


def card_feed(folder: str) -> List[Leg]:
    s = gp.Scenario("transfers_us")
    months = [
        [("c1", "18.75", "2026-01-05", "coffee"), ("n1", "15.49", "2026-01-07", "netflix"),
         ("w1", "142.63", "2026-01-11", "wholefoods"), ("pay1", "-1284.17", "2026-01-21", "card_autopay"),
         ("l1", "23.40", "2026-01-24", "lyft"), ("a1", "963.13", "2026-01-28", "airbnb")],
        [("pay2m", "-200.00", "2026-02-03", "card_payment_mobile"), ("n2", "15.49", "2026-02-07", "netflix"),
         ("r2", "936.22", "2026-02-12", "rei"), ("pay2", "-963.40", "2026-02-20", "card_autopay"),
         ("w2", "97.18", "2026-02-22", "wholefoods"), ("ap2", "2.99", "2026-02-26", "apple")],
        [("n3", "15.49", "2026-03-07", "netflix"), ("r3", "1051.88", "2026-03-14", "rei"),
         ("c3", "6.25", "2026-03-18", "coffee"), ("pay3", "-1051.88", "2026-03-23", "card_autopay"),
         ("l3", "31.15", "2026-03-27", "lyft")],
    ]
    legs, active = [], {}
    for n, month in enumerate(months, 1):
        added = [s.tx(label, CARD, amount, date, m) for label, amount, date, m in month]
        body = s.page(added=added, has_more=False)
        for t in added:
            active[t["transaction_id"]] = t
        body["accounts"] = [gp.account_object(CARD, active)]
        name = f"chase_card_7742_sync_2026-{n:02d}.json"
        gp.write(os.path.join(folder, name), body)
        for t in added:
            legs.append(Leg(name, D.fromisoformat(t["date"]), Dec(gp.store_amount(t)), "USD", t["name"], "card"))
    return legs


def find(legs: List[Leg], date: dt.date, amount: str, prefix: str) -> Leg:
    hits = [l for l in legs if l.date == date and l.amount == Dec(amount) and l.description.startswith(prefix)]
    if len(hits) != 1:
        raise SystemExit(f"{len(hits)} rows for {date} {amount} {prefix}")
    return hits[0]


def scenario_b(out: str) -> None:
    folder = os.path.join(out, "us_quarter")
    os.makedirs(folder, exist_ok=True)
    chk = checking(folder, random.Random("moneyflow/transfers/us_checking"))
    sav = savings(folder, chk)
    crd = card_feed(folder)
    legs = chk + sav + crd
    transfers = [
        Pair(find(chk, D(2026, 1, 20), "-1284.17", "CHASE CREDIT CRD AUTOPAY"), find(crd, D(2026, 1, 21), "1284.17", "AUTOMATIC")),
        Pair(find(chk, D(2026, 2, 3), "-200.00", "Payment to Chase card"), find(crd, D(2026, 2, 3), "200.00", "Payment Thank")),
        Pair(find(chk, D(2026, 2, 20), "-963.40", "CHASE CREDIT CRD AUTOPAY"), find(crd, D(2026, 2, 20), "963.40", "AUTOMATIC")),
        Pair(find(chk, D(2026, 3, 20), "-1051.88", "CHASE CREDIT CRD AUTOPAY"), find(crd, D(2026, 3, 23), "1051.88", "AUTOMATIC")),
        Pair(find(chk, D(2026, 1, 16), "-1000.00", "Online Transfer to SAV"), find(sav, D(2026, 1, 16), "1000.00", "Online Transfer from CHK")),
        Pair(find(sav, D(2026, 2, 24), "-750.00", "Online Transfer to CHK"), find(chk, D(2026, 2, 24), "750.00", "Online Transfer from SAV")),
        Pair(find(chk, D(2026, 3, 3), "-500.00", "Online Transfer to SAV"), find(sav, D(2026, 3, 3), "500.00", "Online Transfer from CHK")),
        Pair(find(chk, D(2026, 3, 6), "-500.00", "Online Transfer to SAV"), find(sav, D(2026, 3, 6), "500.00", "Online Transfer from CHK")),
    ]
    decoys = [
        find(chk, D(2026, 3, 4), "500.00", "Zelle payment from"),    # inflow equal to the transfers, between them
        find(chk, D(2026, 3, 9), "-500.00", "ATM WITHDRAWAL"),       # outflow equal to them, 3 days after one
        find(crd, D(2026, 3, 14), "-1051.88", "REI"),                # card purchase equal to the March autopay
    ]
    check_no_accidental_pairs(legs, transfers, decoys)
    files = [{"file": CHECKING_CSV, "args": []}, {"file": SAVINGS_OFX, "args": []}]
    files += [{"file": f"chase_card_7742_sync_2026-{n:02d}.json", "args": []} for n in (1, 2, 3)]
    write_json(os.path.join(folder, "expected_transfers.json"), expected(transfers, [], decoys, files))
