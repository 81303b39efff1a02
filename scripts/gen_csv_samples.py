#!/usr/bin/env python3
"""Deterministic generator for MoneyFlow's synthetic bank-CSV fixtures.

Writes everything under Samples/csv/ (relative to the repository root):

  <bank>.csv                    one synthetic export per real-world layout
  <bank>.expected.json          transactions the importer must produce, file order
  generic_*.csv                 generic-parser fixtures + <name>.profile.json
  generic_semicolon_ddmmyyyy.profile.toml
  broken/*.csv                  malformed inputs + broken/README.md + expected_errors.json
  README.md                     layout notes and the public sources that confirmed them

No real personal data: every name, number and amount is invented.  All
randomness comes from random.Random(<fixed string>), so two runs produce
byte-identical output (check with `sha256sum -c`).

Usage:  python3 scripts/gen_csv_samples.py [--out DIR]
"""
from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

CRLF = "\r\n"
LF = "\n"
START = date(2026, 1, 2)   # first activity day
END = date(2026, 2, 27)    # last activity day (~2 months)
ZERO = Decimal("0.00")


# --------------------------------------------------------------------------
# money formatting
# --------------------------------------------------------------------------

def cents(c: int) -> Decimal:
    return (Decimal(c) / 100).quantize(Decimal("0.01"))


def plain(d: Decimal) -> str:
    """-1234.50 (no thousands separator, always 2 dp)."""
    return f"{d:.2f}"


def thousands(d: Decimal) -> str:
    """-1,234.50"""
    return f"{d:,.2f}"


def german(d: Decimal) -> str:
    """-1.234,50"""
    return f"{d:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def trimmed(d: Decimal) -> str:
    """Capital One 360 style: 1000, 481.2, 6.75 (trailing zeros dropped)."""
    s = f"{abs(d):.2f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def paren(d: Decimal) -> str:
    """Accounting negative: (1,234.50)"""
    return f"({abs(d):,.2f})"


# --------------------------------------------------------------------------
# CSV text builder that tracks physical line numbers
# --------------------------------------------------------------------------

def q(s: str) -> str:
    """Always quote (RFC 4180 escaping)."""
    return '"' + s.replace('"', '""') + '"'


def mq(s: str, delim: str = ",") -> str:
    """Quote only when needed."""
    if any(c in s for c in (delim, '"', "\n", "\r")):
        return q(s)
    return s


class Doc:
    def __init__(self, newline: str, currency: str = "USD"):
        self.newline = newline
        self.currency = currency
        self.parts: list[str] = []
        self.lf_count = 0
        self.expected: list[dict] = []

    @property
    def next_line(self) -> int:
        return self.lf_count + 1

    def row(self, cells: list[str], delim: str = ",") -> int:
        start = self.next_line
        text = delim.join(cells) + self.newline
        self.parts.append(text)
        self.lf_count += text.count("\n")
        return start

    def raw(self, text: str) -> int:
        start = self.next_line
        self.parts.append(text)
        self.lf_count += text.count("\n")
        return start

    def expect(self, line: int, d: date, amount: Decimal, description: str,
               balance: Decimal | None) -> None:
        self.expected.append({
            "line": line,
            "date": d.isoformat(),
            "amount": plain(amount),
            "currency": self.currency,
            "description": description,
            "balance": None if balance is None else plain(balance),
        })

    def text(self) -> str:
        return "".join(self.parts)


# --------------------------------------------------------------------------
# merchants
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Merchant:
    key: str
    card: str        # card-network descriptor; tokens {A9} {D5} ... resolved per txn
    city: str
    st: str
    zip: str
    street: str
    lo: int          # cents
    hi: int
    chase: str       # Chase card "Category"
    capone: str      # Capital One card "Category"
    amex: str        # Amex "Category"
    phone: str = ""


WA = [
    Merchant("amazon", "AMAZON MKTPL*{A9}", "Amzn.com/bill", "WA", "98109", "410 TERRY AVE N",
             899, 15999, "Shopping", "Merchandise", "Merchandise & Supplies-Internet Purchase", "888-280-4331"),
    Merchant("amazon2", "Amazon.com*{A9}", "Amzn.com/bill", "WA", "98109", "410 TERRY AVE N",
             1299, 8999, "Shopping", "Merchandise", "Merchandise & Supplies-Internet Purchase", "888-280-4331"),
    Merchant("starbucks", "STARBUCKS STORE {D5}", "SEATTLE", "WA", "98101", "1125 4TH AVE",
             425, 1480, "Food & Drink", "Dining", "Restaurant-Bar & Caf\u00e9", "800-782-7282"),
    Merchant("wholefoods", "WHOLEFDS SLU {D5}", "SEATTLE", "WA", "98109", "2210 WESTLAKE AVE",
             1820, 18650, "Groceries", "Grocery", "Merchandise & Supplies-Groceries", "206-621-9700"),
    Merchant("traderjoes", "TRADER JOE S #{D3}", "SEATTLE", "WA", "98122", "1700 E UNION ST",
             1240, 9870, "Groceries", "Grocery", "Merchandise & Supplies-Groceries", "206-322-7268"),
    Merchant("shell", "SHELL OIL {D11}", "SEATTLE", "WA", "98121", "2600 WESTERN AVE",
             3150, 7240, "Gas", "Gas/Automotive", "Transportation-Fuel", ""),
    Merchant("uber", "UBER   *TRIP", "HELP.UBER.COM", "CA", "94158", "1515 3RD ST",
             1120, 4860, "Travel", "Other Travel", "Transportation-Taxis & Coach", ""),
    Merchant("netflix", "NETFLIX.COM", "LOS GATOS", "CA", "95032", "121 ALBRIGHT WAY",
             1549, 1549, "Entertainment", "Entertainment", "Entertainment-Associations", "866-579-7172"),
    Merchant("spotify", "SPOTIFY USA", "NEW YORK", "NY", "10011", "150 GREENWICH ST",
             1199, 1199, "Entertainment", "Entertainment", "Entertainment-Associations", "877-778-1161"),
    Merchant("target", "TARGET        {D8}", "SEATTLE", "WA", "98101", "1401 2ND AVE",
             1399, 12450, "Shopping", "Merchandise", "Merchandise & Supplies-Department Stores", "206-494-3250"),
    Merchant("costco", "COSTCO WHSE #{D4}", "SEATTLE", "WA", "98134", "4401 4TH AVE S",
             6240, 31875, "Groceries", "Merchandise", "Merchandise & Supplies-Wholesale Stores", "206-622-3136"),
    Merchant("cvs", "CVS/PHARMACY #{D5}", "SEATTLE", "WA", "98104", "1301 3RD AVE",
             612, 4510, "Health & Wellness", "Health Care", "Merchandise & Supplies-Pharmacies", "206-224-2840"),
    Merchant("chipotle", "CHIPOTLE {D4}", "SEATTLE", "WA", "98101", "1501 4TH AVE",
             980, 2440, "Food & Drink", "Dining", "Restaurant-Restaurant", "206-652-4333"),
    Merchant("bluebottle", "SQ *BLUE BOTTLE COFFEE", "SEATTLE", "WA", "98101", "1201 2ND AVE",
             525, 1375, "Food & Drink", "Dining", "Restaurant-Bar & Caf\u00e9", ""),
    Merchant("joespizza", "SQ *JOE'S PIZZA, LLC", "SEATTLE", "WA", "98122", "1520 BROADWAY",
             1450, 4280, "Food & Drink", "Dining", "Restaurant-Restaurant", ""),
    Merchant("dicks", "TST* DICK'S DRIVE-IN - CAP", "SEATTLE", "WA", "98122", "115 BROADWAY E",
             845, 2360, "Food & Drink", "Dining", "Restaurant-Restaurant", ""),
    Merchant("comcast", "COMCAST CABLE COMM", "800-COMCAST", "WA", "98004", "",
             8999, 8999, "Bills & Utilities", "Phone/Cable", "Business Services-Communications", "800-266-2278"),
    Merchant("delta", "DELTA AIR {D13}", "ATLANTA", "GA", "30320", "1030 DELTA BLVD",
             24860, 61240, "Travel", "Airfare", "Travel-Airline", "800-221-1212"),
    Merchant("marriott", "MARRIOTT PORTLAND DWTN", "PORTLAND", "OR", "97204", "1401 SW NAITO PKWY",
             38900, 124000, "Travel", "Lodging", "Travel-Lodging", "503-226-7600"),
    Merchant("apple", "APPLE.COM/BILL", "866-712-7753", "CA", "95014", "ONE APPLE PARK WAY",
             99, 999, "Shopping", "Internet", "Merchandise & Supplies-Internet Purchase", "866-712-7753"),
    Merchant("doordash", "DOORDASH*THAI TOM", "SAN FRANCISCO", "CA", "94107", "303 2ND ST",
             2180, 5640, "Food & Drink", "Dining", "Restaurant-Restaurant", "855-973-1040"),
    Merchant("homedepot", "THE HOME DEPOT #4702", "SEATTLE", "WA", "98134", "2701 UTAH AVE S",
             1128, 21490, "Home", "Merchandise", "Merchandise & Supplies-Hardware Supplies", "206-467-9200"),
]
WA_BY_KEY = {m.key: m for m in WA}

NC = [
    Merchant("harristeeter", "HARRIS TEETER #{D4}", "CHARLOTTE", "NC", "28203", "1704 EAST BLVD",
             1215, 14380, "", "", "", "704-332-2048"),
    Merchant("chickfila", "CHICK-FIL-A #{D5}", "CHARLOTTE", "NC", "28202", "301 S TRYON ST",
             795, 2390, "", "", "", "704-335-0080"),
    Merchant("foodlion", "FOOD LION #{D4}", "CHARLOTTE", "NC", "28205", "2400 CENTRAL AVE",
             1430, 8760, "", "", "", "704-376-0412"),
    Merchant("qt", "QT {D4}", "CHARLOTTE", "NC", "28208", "2310 WILKINSON BLVD",
             2880, 6150, "", "", "", ""),
    Merchant("panera", "PANERA BREAD #{D6}", "CHARLOTTE", "NC", "28211", "4349 SHARON RD",
             1045, 2675, "", "", "", "704-364-2600"),
    Merchant("lowes", "LOWE'S #{D4}", "CHARLOTTE", "NC", "28217", "6110 S BLVD",
             1899, 26450, "", "", "", "704-556-0071"),
    Merchant("cvsnc", "CVS/PHARMACY #{D5}", "CHARLOTTE", "NC", "28204", "1416 E MOREHEAD ST",
             599, 3875, "", "", "", "704-333-4431"),
    Merchant("amazonnc", "AMAZON MKTPLACE PMTS", "AMZN.COM/BILL", "WA", "98109", "410 TERRY AVE N",
             1099, 13999, "", "", "", "888-280-4331"),
    Merchant("netflixnc", "NETFLIX.COM", "NETFLIX.COM", "CA", "95032", "121 ALBRIGHT WAY",
             1549, 1549, "", "", "", "866-579-7172"),
    Merchant("noda", "SQ *NODA COFFEE, LLC", "CHARLOTTE", "NC", "28205", "2921 N DAVIDSON ST",
             475, 1650, "", "", "", ""),
    Merchant("duke", "DUKE ENERGY", "800-777-9898", "NC", "28202", "526 S CHURCH ST",
             9812, 17340, "", "", "", "800-777-9898"),
]
NC_BY_KEY = {m.key: m for m in NC}

ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"


def resolve(rng: random.Random, template: str) -> str:
    out, i = [], 0
    while i < len(template):
        if template[i] == "{":
            j = template.index("}", i)
            tok = template[i + 1:j]
            n = int(tok[1:])
            pool = ALNUM if tok[0] == "A" else "0123456789"
            out.append("".join(rng.choice(pool) for _ in range(n)))
            i = j + 1
        else:
            out.append(template[i])
            i += 1
    return "".join(out)


def digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALNUM) for _ in range(n))


# --------------------------------------------------------------------------
# abstract transactions
# --------------------------------------------------------------------------

@dataclass
class Txn:
    tdate: date            # transaction (authorization) date
    pdate: date            # posting date
    amount: Decimal        # store sign: negative = money out
    kind: str              # card / payroll / rent / zelle_out / ...
    merchant: Merchant | None = None
    desc: str = ""         # resolved card descriptor (for card kinds) or free text
    extra: dict = field(default_factory=dict)
    seq: int = 0           # intra-day tie breaker (chronological)


def rand_day(rng: random.Random, lo: date = START, hi: date = END) -> date:
    return lo + timedelta(days=rng.randint(0, (hi - lo).days))


def card_purchases(rng: random.Random, merchants: list[Merchant], n: int,
                   lag: tuple[int, int] = (0, 2), weights: list[int] | None = None) -> list[Txn]:
    out = []
    for _ in range(n):
        m = rng.choices(merchants, weights=weights)[0] if weights else rng.choice(merchants)
        t = rand_day(rng, START, END - timedelta(days=lag[1]))
        p = t + timedelta(days=rng.randint(*lag))
        amt = -cents(rng.randint(m.lo, m.hi))
        out.append(Txn(t, p, amt, "card", m, resolve(rng, m.card)))
    return out


def chrono(txns: list[Txn]) -> list[Txn]:
    for i, t in enumerate(txns):
        t.seq = i
    return sorted(txns, key=lambda t: (t.pdate, t.tdate, t.seq))


def duplicate_of(t: Txn) -> Txn:
    return Txn(t.tdate, t.pdate, t.amount, t.kind, t.merchant, t.desc, dict(t.extra))


def running(txns: list[Txn], opening: Decimal) -> list[Decimal]:
    bal, out = opening, []
    for t in txns:
        bal += t.amount
        out.append(bal)
    return out


def clamp(d: date) -> date:
    return min(d, END)


def mmdd(d: date) -> str:
    return f"{d:%m/%d}"


def us(d: date) -> str:
    return f"{d:%m/%d/%Y}"


# --------------------------------------------------------------------------
# Chase checking
# --------------------------------------------------------------------------

def chase_checking() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/chase_checking")
    txns = card_purchases(rng, [m for m in WA if m.key not in ("delta", "marriott", "comcast")], 20, (0, 2))
    for t in txns:
        t.extra.update(details="DEBIT", type="DEBIT_CARD",
                       text=f"{t.desc} {t.merchant.city} {t.merchant.st} {mmdd(t.tdate)}")

    def add(d: date, amount: str, details: str, typ: str, text: str, slip: str = "") -> Txn:
        t = Txn(d, d, Decimal(amount), typ.lower(), None, text,
                dict(details=details, type=typ, text=text, slip=slip))
        txns.append(t)
        return t

    for d in (date(2026, 1, 15), date(2026, 1, 30), date(2026, 2, 13)):
        trace = digits(rng, 15)
        add(d, "2412.37", "CREDIT", "ACH_CREDIT",
            f"ORIG CO NAME:ACME ROBOTICS INC       ORIG ID:9876543210 DESC DATE:{d:%y%m%d} "
            f"CO ENTRY DESCR:PAYROLL   SEC:PPD    TRACE#:{trace} EED:{d:%y%m%d}   "
            f"IND ID:E0042                 IND NAME:DOE,JANE TRN: {trace[-10:]}TC")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1850.00", "DEBIT", "BILLPAY",
            f"Online Payment {digits(rng, 11)} To Cascade Property Management {mmdd(d)}")
    add(date(2026, 1, 21), "-1264.18", "DEBIT", "LOAN_PMT", "Payment to Chase card ending in 4821 01/21")
    add(date(2026, 2, 20), "-987.45", "DEBIT", "LOAN_PMT", "Payment to Chase card ending in 4821 02/20")
    add(date(2026, 1, 12), "-84.37", "DEBIT", "ACH_DEBIT",
        "SEATTLE CITY LIGHT ONLINE PMT                  PPD ID: 1916001999")
    add(date(2026, 2, 11), "-91.02", "DEBIT", "ACH_DEBIT",
        "SEATTLE CITY LIGHT ONLINE PMT                  PPD ID: 1916001999")
    add(date(2026, 1, 9), "-60.00", "DEBIT", "QUICKPAY_DEBIT", f"Zelle payment to Maria Lopez JPM99{alnum(rng, 6).lower()}")
    add(date(2026, 2, 6), "-35.00", "DEBIT", "QUICKPAY_DEBIT", f"Zelle payment to Maria Lopez JPM99{alnum(rng, 6).lower()}")
    add(date(2026, 1, 24), "45.00", "CREDIT", "QUICKPAY_CREDIT", f"Zelle payment from DAVID KIM {digits(rng, 11)}")
    add(date(2026, 1, 10), "-200.00", "DEBIT", "ATM", "ATM WITHDRAWAL 004213 01/10 2201 3RD AVE SEATTLE WA")
    add(date(2026, 1, 27), "-150.00", "CHECK", "CHECK_PAID", "CHECK 1045", slip="1045")
    add(date(2026, 2, 9), "125.00", "DSLIP", "DEPOSIT", "REMOTE ONLINE DEPOSIT #          1")
    add(date(2026, 1, 30), "-12.00", "DEBIT", "FEE_TRANSACTION", "MONTHLY SERVICE FEE")
    add(date(2026, 2, 3), "12.00", "CREDIT", "REFUND_TRANSACTION", "Monthly Service Fee Reversal January 2026")
    add(date(2026, 1, 16), "-500.00", "DEBIT", "ACCT_XFER",
        f"Online Transfer to SAV ...7719 transaction#: {digits(rng, 11)} 01/16")
    add(date(2026, 2, 17), "-276.40", "DEBIT", "WIRE_OUTGOING",
        "ONLINE INTERNATIONAL WIRE TRANSFER A/C: FOREIGN CUR BUS ACCT BK 1 COLUMBUS NEWARK DE 197132352 US "
        "ORG: 00000000252697135 JANE DOE BEN:/DE02120300000000202051 ANNA SCHMIDT REF: RENT SHARE "
        "/OCMT/EUR250,00/EXCH/0.9045/CN TR/61323361/ TRN: 1359400013RE 02/17")
    add(date(2026, 2, 17), "-5.00", "DEBIT", "FEE_TRANSACTION", "ONLINE FX INTERNATIONAL WIRE FEE")

    # a genuine double charge: same posting date, amount and text
    dup_src = Txn(date(2026, 1, 22), date(2026, 1, 22), Decimal("-5.75"), "card", WA_BY_KEY["bluebottle"],
                  "SQ *BLUE BOTTLE COFFEE")
    dup_src.extra.update(details="DEBIT", type="DEBIT_CARD", text="SQ *BLUE BOTTLE COFFEE SEATTLE WA 01/22")
    txns += [dup_src, duplicate_of(dup_src)]

    ordered = chrono(txns)
    bals = running(ordered, Decimal("5187.64"))
    doc = Doc(CRLF)
    doc.row(["Details", "Posting Date", "Description", "Amount", "Type", "Balance", "Check or Slip #"])
    # newest first; the newest item has not settled yet, so Chase prints a single space as balance
    pending = Txn(END, END, Decimal("80.00"), "zelle", None, "")
    ptext = f"Zelle payment from DAVID KIM {digits(rng, 11)}"
    line = doc.row(["CREDIT", us(END), q(ptext), plain(pending.amount), "QUICKPAY_CREDIT", " ", "", ""])
    doc.expect(line, END, pending.amount, ptext, None)
    for t, bal in reversed(list(zip(ordered, bals))):
        e = t.extra
        line = doc.row([e["details"], us(t.pdate), q(e["text"]), plain(t.amount), e["type"],
                        plain(bal), e.get("slip", ""), ""])
        doc.expect(line, t.pdate, t.amount, e["text"], bal)
    return "chase_checking", doc


# --------------------------------------------------------------------------
# Chase credit card
# --------------------------------------------------------------------------

def chase_card() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/chase_card")
    txns = card_purchases(rng, WA, 34, (0, 3))
    for t in txns:
        t.extra.update(cat=t.merchant.chase, type="Sale")
    amazon = next(t for t in txns if t.merchant.key.startswith("amazon"))
    ret_day = min(amazon.tdate + timedelta(days=6), END - timedelta(days=1))
    txns.append(Txn(ret_day, ret_day + timedelta(days=1), -amazon.amount, "return", amazon.merchant,
                    amazon.desc, dict(cat=amazon.merchant.chase, type="Return")))
    for d, a in ((date(2026, 1, 21), "1264.18"), (date(2026, 2, 20), "987.45")):
        txns.append(Txn(d, d, Decimal(a), "payment", None, "Payment Thank You-Mobile",
                        dict(cat="", type="Payment")))
    txns.append(Txn(date(2026, 2, 4), date(2026, 2, 5), Decimal("-1.24"), "fee", None,
                    "FOREIGN TRANSACTION FEE", dict(cat="Fees & Adjustments", type="Fee")))
    uber = next((t for t in txns if t.merchant and t.merchant.key == "uber"), None)
    credit = -uber.amount if uber else Decimal("23.45")
    txns.append(Txn(date(2026, 2, 10), date(2026, 2, 10), credit, "adjustment", None,
                    "Travel Credit $300/year", dict(cat="", type="Adjustment")))
    pizza = Txn(date(2026, 2, 12), date(2026, 2, 13), Decimal("-27.80"), "card", WA_BY_KEY["joespizza"],
                "SQ *JOE'S PIZZA, LLC", dict(cat="Food & Drink", type="Sale"))
    txns += [pizza, duplicate_of(pizza)]

    ordered = chrono(txns)
    doc = Doc(CRLF)
    doc.row(["Transaction Date", "Post Date", "Description", "Category", "Type", "Amount", "Memo"])
    for t in reversed(ordered):
        line = doc.row([us(t.tdate), us(t.pdate), mq(t.desc), t.extra["cat"], t.extra["type"],
                        plain(t.amount), ""])
        doc.expect(line, t.pdate, t.amount, t.desc, None)
    return "chase_card", doc


# --------------------------------------------------------------------------
# Bank of America checking
# --------------------------------------------------------------------------

def bofa_checking() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/bofa_checking")
    locals_ = [m for m in NC if m.key not in ("duke", "netflixnc")]
    txns = card_purchases(rng, locals_, 17, (0, 2))
    for t in txns:
        how = "MOBILE PURCHASE" if rng.random() < 0.3 else "PURCHASE"
        t.desc = f"{t.desc} {mmdd(t.tdate)} {how} {t.merchant.city} {t.merchant.st}"

    def add(d: date, amount: str, text: str) -> Txn:
        t = Txn(d, d, Decimal(amount), "misc", None, text)
        txns.append(t)
        return t

    for d in (date(2026, 1, 15), date(2026, 1, 30), date(2026, 2, 13), date(2026, 2, 27)):
        add(d, "2412.37", "ACME CORP DES:PAYROLL ID:XXXXX6789 INDN:DOE,JANE CO ID:XXXXX12345 PPD")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1650.00", f"BILT RENT DES:ACH PMT ID:{digits(rng, 9)} INDN:JANE DOE CO ID:XXXXX98765 WEB")
    add(date(2026, 1, 14), "-131.46", "DUKE ENERGY DES:BILL PAY ID:XXXXX4431 INDN:JANE DOE CO ID:XXXXX10021 WEB")
    add(date(2026, 2, 12), "-142.89", "DUKE ENERGY DES:BILL PAY ID:XXXXX4431 INDN:JANE DOE CO ID:XXXXX10021 WEB")
    add(date(2026, 1, 8), "-15.49", "NETFLIX.COM 01/07 PURCHASE NETFLIX.COM CA")
    add(date(2026, 2, 9), "-15.49", "NETFLIX.COM 02/07 PURCHASE NETFLIX.COM CA")
    add(date(2026, 1, 20), "-1000.00", f"Online Banking transfer to SAV 7719 Confirmation# {digits(rng, 10)}")
    add(date(2026, 1, 25), "-200.00", "BKOFAMERICA ATM 01/25 #000004905 WITHDRWL SOUTH TRYON CHARLOTTE NC")
    add(date(2026, 1, 11), "-40.00", f"Zelle payment to JOHN SMITH Conf# {alnum(rng, 9).lower()}")
    add(date(2026, 2, 16), "75.00", f"Zelle payment from MARIA LOPEZ Conf# {alnum(rng, 9).lower()}")
    add(date(2026, 1, 23), "-2875.00",
        "Bill Pay Check 7151: Carolina Auto Repair & Body, Inc")
    add(date(2026, 1, 28), "54.99", "AMAZON MKTPLACE PMTS 01/27 PURCHASE RETURN AMZN.COM/BILL WA")
    add(date(2026, 1, 30), "0.04", "Interest Earned")
    dup = Txn(date(2026, 2, 7), date(2026, 2, 7), Decimal("-18.42"), "card", NC_BY_KEY["harristeeter"],
              "HARRIS TEETER #0273 02/07 PURCHASE CHARLOTTE NC")
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    opening = Decimal("4912.80")
    bals = running(ordered, opening)
    credits = sum((t.amount for t in ordered if t.amount > 0), ZERO)
    debits = sum((t.amount for t in ordered if t.amount < 0), ZERO)
    first, last = date(2026, 1, 1), date(2026, 2, 28)
    doc = Doc(CRLF)
    doc.row(["Description", "", "Summary Amt."])
    doc.row([f"Beginning balance as of {us(first)}", "", q(thousands(opening))])
    doc.row(["Total credits", "", q(thousands(credits))])
    doc.row(["Total debits", "", q(thousands(debits))])
    doc.row([f"Ending balance as of {us(last)}", "", q(thousands(bals[-1]))])
    doc.raw(CRLF)
    doc.row(["Date", "Description", "Amount", "Running Bal."])
    doc.row([us(first), f"Beginning balance as of {us(first)}", "", q(thousands(opening))])
    for t, bal in zip(ordered, bals):
        line = doc.row([us(t.pdate), q(t.desc), q(thousands(t.amount)), q(thousands(bal))])
        doc.expect(line, t.pdate, t.amount, t.desc, bal)
    assert opening + credits + debits == bals[-1]
    return "bofa_checking", doc


# --------------------------------------------------------------------------
# Bank of America credit card
# --------------------------------------------------------------------------

def bofa_ref(rng: random.Random, d: date) -> str:
    return "24" + digits(rng, 5) + f"{d.timetuple().tm_yday:03d}" + digits(rng, 13)  # 23 digits


def bofa_addr(city: str, st: str) -> str:
    return f"{city:<13} {st} "


def bofa_card() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/bofa_card")
    txns = card_purchases(rng, [m for m in NC if m.key != "duke"], 30, (1, 3))
    for t in txns:
        t.extra["addr"] = bofa_addr(t.merchant.phone or t.merchant.city, t.merchant.st) \
            if t.merchant.key in ("amazonnc", "netflixnc") else bofa_addr(t.merchant.city, t.merchant.st)
    amazon = next(t for t in txns if t.merchant.key == "amazonnc")
    txns.append(Txn(clamp(amazon.tdate + timedelta(days=5)), clamp(amazon.pdate + timedelta(days=5)), -amazon.amount,
                    "return", amazon.merchant, amazon.desc, dict(addr=amazon.extra["addr"])))
    for d, a in ((date(2026, 1, 19), "1200.00"), (date(2026, 2, 18), "1435.61")):
        txns.append(Txn(d, d, Decimal(a), "payment", None, "PAYMENT - THANK YOU", dict(addr="")))
    txns.append(Txn(date(2026, 2, 11), date(2026, 2, 11), Decimal("55.16"), "credit", None,
                    "CASH REWARDS STATEMENT CREDIT", dict(addr="")))
    dup = Txn(date(2026, 1, 29), date(2026, 1, 30), Decimal("-11.37"), "card", NC_BY_KEY["chickfila"],
              "CHICK-FIL-A #01734", dict(addr=bofa_addr("CHARLOTTE", "NC")))
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    doc = Doc(CRLF)
    doc.row(["Posted Date", "Reference Number", "Payee", "Address", "Amount"])
    for t in reversed(ordered):
        line = doc.row([us(t.pdate), bofa_ref(rng, t.tdate), q(t.desc), q(t.extra["addr"]), plain(t.amount)])
        doc.expect(line, t.pdate, t.amount, t.desc, None)
    return "bofa_card", doc


# --------------------------------------------------------------------------
# Wells Fargo checking (no header)
# --------------------------------------------------------------------------

def wells_fargo_checking() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/wells_fargo_checking")
    pool = [m for m in WA if m.key not in ("delta", "marriott")]
    txns = card_purchases(rng, pool, 22, (0, 3))

    def card_text(t: Txn, verb: str = "PURCHASE") -> str:
        m = t.merchant
        if m.key in ("netflix", "spotify", "comcast", "apple") and verb == "PURCHASE":
            verb = "RECURRING PAYMENT"
        sp = rng.choice("SP")
        return (f"{verb} AUTHORIZED ON {mmdd(t.tdate)} {t.desc} {m.city} {m.st} "
                f"{sp}{digits(rng, 15)} CARD 1234")

    for t in txns:
        t.desc = card_text(t)
        t.extra["check"] = ""

    def add(d: date, amount: str, text: str, check: str = "") -> None:
        txns.append(Txn(d, d, Decimal(amount), "misc", None, text, dict(check=check)))

    for d in (date(2026, 1, 15), date(2026, 1, 30), date(2026, 2, 13), date(2026, 2, 27)):
        add(d, "2412.37", f"ACME ROBOTICS DIR DEP {d:%y%m%d} XXXXX6789 DOE,JANE")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1850.00", "CHECK # 1044" if d.month == 1 else "CHECK # 1046", "1044" if d.month == 1 else "1046")
    add(date(2026, 1, 21), "-1264.18", "CHASE CREDIT CRD AUTOPAY 260121 000000000055140 DOE JANE")
    add(date(2026, 1, 12), "-84.37", "PUGET SOUND ENER BILLPAY 260112 200012345678 JANE DOE")
    add(date(2026, 2, 11), "-91.02", "PUGET SOUND ENER BILLPAY 260211 200012345678 JANE DOE")
    add(date(2026, 1, 16), "-500.00", f"ONLINE TRANSFER TO DOE J WAY2SAVE SAVINGS XXXXXX7719 REF #IB0{alnum(rng, 7)} ON 01/16/26")
    add(date(2026, 1, 10), "-200.00", "ATM WITHDRAWAL AUTHORIZED ON 01/10 1501 4TH AVE SEATTLE WA 0004512 ATM ID 0088P CARD 1234")
    add(date(2026, 1, 14), "-60.00", f"ZELLE TO LOPEZ MARIA ON 01/14 REF # WFCT0{alnum(rng, 7)}")
    add(date(2026, 2, 9), "125.00", f"MOBILE DEPOSIT : REF NUMBER :{digits(rng, 12)}")
    add(date(2026, 1, 30), "-10.00", "MONTHLY SERVICE FEE")
    add(date(2026, 2, 4), "10.00", "MONTHLY SERVICE FEE REFUND")
    amazon = next(t for t in txns if t.merchant and t.merchant.key.startswith("amazon"))
    rd = min(amazon.pdate + timedelta(days=6), END)
    ret = Txn(rd - timedelta(days=1), rd, -amazon.amount, "return", amazon.merchant,
              resolve(rng, amazon.merchant.card), dict(check=""))
    ret.desc = card_text(ret, "PURCHASE RETURN")
    txns.append(ret)
    src = Txn(date(2026, 1, 21), date(2026, 1, 22), Decimal("-5.75"), "card", WA_BY_KEY["bluebottle"],
              "SQ *BLUE BOTTLE COFFEE", dict(check=""))
    src.desc = "PURCHASE AUTHORIZED ON 01/21 SQ *BLUE BOTTLE COFFEE SEATTLE WA S386021774519032 CARD 1234"
    txns += [src, duplicate_of(src)]

    ordered = chrono(txns)
    doc = Doc(LF)
    for t in reversed(ordered):
        line = doc.row([q(us(t.pdate)), q(plain(t.amount)), q("*"), q(t.extra["check"]), q(t.desc)])
        doc.expect(line, t.pdate, t.amount, t.desc, None)
    return "wells_fargo_checking", doc


# --------------------------------------------------------------------------
# Capital One credit card
# --------------------------------------------------------------------------

def capital_one_card() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/capital_one_card")
    txns = card_purchases(rng, WA, 33, (0, 2))
    for t in txns:
        t.extra.update(card=rng.choice(["4417", "4417", "4417", "8802"]), cat=t.merchant.capone)
    txns.append(Txn(date(2026, 1, 25), date(2026, 1, 25), Decimal("500.00"), "payment", None,
                    "CAPITAL ONE MOBILE PYMT", dict(card="4417", cat="Payment/Credit")))
    txns.append(Txn(date(2026, 2, 24), date(2026, 2, 24), Decimal("1150.00"), "payment", None,
                    "CAPITAL ONE AUTOPAY PYMT", dict(card="4417", cat="Payment/Credit")))
    tgt = next(t for t in txns if t.merchant and t.merchant.key in ("target", "homedepot", "amazon", "amazon2"))
    txns.append(Txn(clamp(tgt.tdate + timedelta(days=4)), clamp(tgt.pdate + timedelta(days=5)), -tgt.amount, "refund",
                    tgt.merchant, tgt.desc, dict(card=tgt.extra["card"], cat=tgt.merchant.capone)))
    txns.append(Txn(date(2026, 2, 8), date(2026, 2, 8), Decimal("-18.62"), "interest", None,
                    "INTEREST CHARGE:PURCHASES", dict(card="4417", cat="Fee/Interest Charge")))
    dup = Txn(date(2026, 2, 14), date(2026, 2, 16), Decimal("-31.50"), "card", WA_BY_KEY["joespizza"],
              "SQ *JOE'S PIZZA, LLC", dict(card="4417", cat="Dining"))
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    doc = Doc(CRLF)
    doc.row(["Transaction Date", "Posted Date", "Card No.", "Description", "Category", "Debit", "Credit"])
    for t in reversed(ordered):
        debit = plain(-t.amount) if t.amount < 0 else ""
        credit = plain(t.amount) if t.amount > 0 else ""
        line = doc.row([t.tdate.isoformat(), t.pdate.isoformat(), t.extra["card"], mq(t.desc),
                        t.extra["cat"], debit, credit])
        doc.expect(line, t.pdate, t.amount, t.desc, None)
    return "capital_one_card", doc


# --------------------------------------------------------------------------
# Capital One 360 checking
# --------------------------------------------------------------------------

def capital_one_360() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/capital_one_360")
    pool = [m for m in WA if m.key not in ("delta", "marriott", "comcast", "apple")]
    txns = card_purchases(rng, pool, 18, (0, 2))
    for t in txns:
        t.desc = f"Debit Card Purchase - {t.desc} {t.merchant.city} {t.merchant.st}"

    def add(d: date, amount: str, text: str) -> None:
        txns.append(Txn(d, d, Decimal(amount), "misc", None, text))

    for d in (date(2026, 1, 15), date(2026, 1, 30), date(2026, 2, 13), date(2026, 2, 27)):
        add(d, "2000.00", "Deposit from ACME ROBOTICS INC PAYROLL")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1850.00", "Withdrawal from CASCADE PROPERTY RENT")
    add(date(2026, 1, 26), "-481.20", "Withdrawal from CAPITAL ONE CRCARDPMT")
    add(date(2026, 2, 24), "-1150.00", "Withdrawal from CAPITAL ONE CRCARDPMT")
    add(date(2026, 1, 12), "-84.37", "Withdrawal from PUGET SOUND ENER BILLPAY")
    add(date(2026, 1, 9), "-60.00", "Zelle money sent to MARIA LOPEZ")
    add(date(2026, 2, 16), "75.50", "Zelle money received from DAVID KIM")
    add(date(2026, 1, 27), "-150.00", "Check #1046 Cashed")
    add(date(2026, 1, 31), "3.18", "Monthly Interest Paid")
    add(date(2026, 2, 28) - timedelta(days=1), "2.91", "Monthly Interest Paid")
    add(date(2026, 1, 10), "-100.00", "ATM Withdrawal - 1501 4TH AVE SEATTLE WA")
    add(date(2026, 2, 5), "23.99", "Debit Card Refund - AMAZON MKTPL*R52KX9TQ1 Amzn.com/bill WA")
    dup = Txn(date(2026, 1, 20), date(2026, 1, 21), Decimal("-31.40"), "card", WA_BY_KEY["joespizza"],
              "Debit Card Purchase - SQ *JOE'S PIZZA, LLC SEATTLE WA")
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    bals = running(ordered, Decimal("2841.09"))
    doc = Doc(LF)
    doc.row(["Account Number", "Transaction Description", "Transaction Date", "Transaction Type",
             "Transaction Amount", "Balance"])
    for t, bal in reversed(list(zip(ordered, bals))):
        typ = "Debit" if t.amount < 0 else "Credit"
        line = doc.row(["3081", mq(t.desc), f"{t.pdate:%m/%d/%y}", typ, trimmed(t.amount), plain(bal)])
        doc.expect(line, t.pdate, t.amount, t.desc, bal)
    return "capital_one_360", doc


# --------------------------------------------------------------------------
# American Express (basic + extended share the same activity)
# --------------------------------------------------------------------------

def amex_activity() -> list[Txn]:
    rng = random.Random("moneyflow/amex")
    txns = card_purchases(rng, WA, 30, (0, 2))
    for t in txns:
        m = t.merchant
        t.extra.update(member=rng.choice(["JANE DOE", "JANE DOE", "JOHN DOE"]))
        t.extra["acct"] = "-41002" if t.extra["member"] == "JANE DOE" else "-42008"
        t.extra["dba"] = t.desc
        t.extra["stmt"] = f"{t.desc} {m.city} {m.st}"
        t.desc = t.extra["stmt"]
    for d, a in ((date(2026, 1, 16), "1500.00"), (date(2026, 2, 16), "2104.77")):
        txns.append(Txn(d, d, Decimal(a), "payment", None, "AUTOPAY PAYMENT RECEIVED - THANK YOU",
                        dict(member="JANE DOE", acct="-41002", stmt="AUTOPAY PAYMENT RECEIVED - THANK YOU")))
    src = next(t for t in txns if t.merchant and t.merchant.key in ("amazon", "amazon2", "target", "homedepot"))
    txns.append(Txn(clamp(src.tdate + timedelta(days=7)), clamp(src.tdate + timedelta(days=7)), -src.amount, "refund",
                    src.merchant, src.desc, dict(src.extra)))
    txns.append(Txn(date(2026, 2, 3), date(2026, 2, 3), Decimal("15.00"), "credit", None,
                    "Platinum Digital Entertainment Credit",
                    dict(member="JANE DOE", acct="-41002", stmt="Platinum Digital Entertainment Credit")))
    txns.append(Txn(date(2026, 1, 5), date(2026, 1, 5), Decimal("-695.00"), "fee", None,
                    "PLATINUM CARD FEE",
                    dict(member="JANE DOE", acct="-41002", stmt="PLATINUM CARD FEE")))
    m = WA_BY_KEY["chipotle"]
    dup = Txn(date(2026, 2, 19), date(2026, 2, 19), Decimal("-14.85"), "card", m,
              "CHIPOTLE 1937 SEATTLE WA", dict(member="JANE DOE", acct="-41002", stmt="CHIPOTLE 1937 SEATTLE WA"))
    txns += [dup, duplicate_of(dup)]
    for t in txns:          # Amex prints a single date: order and report by it
        t.pdate = t.tdate
    return chrono(txns)


def amex_amount(t: Txn) -> str:
    return plain(-t.amount)   # Amex: positive = charge (money out)


def amex() -> tuple[str, Doc]:
    doc = Doc(LF)
    doc.row(["Date", "Description", "Amount"])
    for t in reversed(amex_activity()):
        line = doc.row([us(t.tdate), mq(t.desc), amex_amount(t)])
        doc.expect(line, t.tdate, t.amount, t.desc, None)
    return "amex", doc


def amex_extended() -> tuple[str, Doc]:
    rng = random.Random("moneyflow/amex_extended")
    doc = Doc(CRLF)
    doc.row(["Date", "Description", "Card Member", "Account #", "Amount", "Extended Details",
             "Appears On Your Statement As", "Address", "City/State", "Zip Code", "Country",
             "Reference", "Category"])
    for t in reversed(amex_activity()):
        e, m = t.extra, t.merchant
        ref = "'3202" + f"{t.tdate.timetuple().tm_yday:03d}" + digits(rng, 11) + "'"
        if m is None:
            details, addr, citystate, zipc, country, cat = "", "", "", "", "", ""
            if t.kind == "fee":
                cat = "Fees & Adjustments-Fees & Adjustments"
            elif t.kind == "credit":
                cat = "Fees & Adjustments-Fees & Adjustments"
        else:
            lines = [f"{alnum(rng, 10)}   {m.phone}".rstrip(), e.get("dba", t.desc), m.city, m.st]
            details = "\n".join(lines)
            addr = m.street
            if m.key == "marriott":
                addr = "1401 SW NAITO PKWY\nSUITE 100"
            citystate = f"{m.city}\n{m.st}"
            zipc, country, cat = m.zip, "UNITED STATES", m.amex
        line = doc.row([us(t.tdate), mq(t.desc), e["member"], e["acct"], amex_amount(t), mq(details),
                        mq(e["stmt"]), mq(addr), mq(citystate), zipc, country, ref, mq(cat)])
        doc.expect(line, t.tdate, t.amount, t.desc, None)
    return "amex_extended", doc


# --------------------------------------------------------------------------
# generic fixtures
# --------------------------------------------------------------------------

def generic_semicolon() -> tuple[str, Doc, dict]:
    rng = random.Random("moneyflow/generic_semicolon")
    txns: list[Txn] = []

    def add(d: date, amount: str, text: str) -> None:
        txns.append(Txn(d, d, Decimal(amount), "misc", None, text))

    for d in (date(2026, 1, 30), date(2026, 2, 27)):
        add(d, f"2845.{'00' if d.month == 1 else '13'}",
            f"LOHN/GEHALT {d:%m/%Y} ACME Robotik GmbH, Personalnr. 004711")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1150.00", f"Dauerauftrag Miete {d:%m/%Y}; Wohnung 3. OG links; Hausverwaltung Kr\u00e4mer")
    for d in (date(2026, 1, 15), date(2026, 2, 16)):
        add(d, "-96.00", f"SEPA-Lastschrift Stadtwerke M\u00fcnchen GmbH Abschlag Strom {d:%m/%Y} "
                         f"Mandatsref. SWM-{digits(rng, 8)}")
    shops = [("REWE Markt GmbH", 1240, 8790), ("EDEKA Center", 980, 6450), ("dm-drogerie markt", 345, 3120),
             ("B\u00e4ckerei M\u00fcller", 240, 1180), ("Aral Tankstelle", 4210, 8350),
             ("Amazon EU S.a r.l., Niederlassung Deutschland", 1499, 12999),
             ("Deutsche Bahn Fernverkehr", 1990, 14990), ("Rossmann", 290, 2460)]
    for _ in range(22):
        name, lo, hi = rng.choice(shops)
        d = rand_day(rng)
        add(d, f"-{cents(rng.randint(lo, hi))}",
            f"Kartenzahlung {name} {d:%d.%m} {rng.randint(8, 20):02d}:{rng.randint(0, 59):02d} Karte 1 Debit")
    add(date(2026, 1, 19), "-1234.56", "\u00dcberweisung an Autohaus Schmidt, Rechnung Nr. 2026-0117")
    add(date(2026, 1, 26), "49.99", "Gutschrift R\u00fccksendung Amazon EU S.a r.l., Bestellnr. 302-1234567-7654321")
    add(date(2026, 2, 10), "-5.90", "Entgelt Kontof\u00fchrung 01/2026")
    add(date(2026, 2, 20), "-25.00", 'Spende "Tafel M\u00fcnchen e.V."')
    dup = Txn(date(2026, 2, 6), date(2026, 2, 6), Decimal("-3.80"), "misc", None,
              "Kartenzahlung B\u00e4ckerei M\u00fcller 06.02 07:42 Karte 1 Debit")
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    doc = Doc(CRLF, currency="EUR")
    doc.row(["Buchungstag", "Verwendungszweck", "Betrag", "Waehrung"], ";")
    for t in reversed(ordered):
        line = doc.row([f"{t.pdate:%d.%m.%Y}", q(t.desc), german(t.amount), "EUR"], ";")
        doc.expect(line, t.pdate, t.amount, t.desc, None)
    profile = {
        "name": "Generic semicolon export (German style: DD.MM.YYYY, decimal comma)",
        "delimiter": ";",
        "encoding": "UTF-8",
        "date_column": "Buchungstag",
        "date_format": "DD.MM.YYYY",
        "description_column": "Verwendungszweck",
        "amount_column": "Betrag",
        "currency": "EUR",
        "decimal_separator": ",",
    }
    return "generic_semicolon_ddmmyyyy", doc, profile


def generic_tab_utf16() -> tuple[str, Doc, dict]:
    rng = random.Random("moneyflow/generic_tab_utf16")
    txns = card_purchases(rng, [m for m in WA if m.key not in ("delta",)], 24, (0, 0))
    for t in txns:
        t.desc = f"{t.desc} {t.merchant.city} {t.merchant.st}"

    def add(d: date, amount: str, text: str) -> None:
        txns.append(Txn(d, d, Decimal(amount), "misc", None, text))

    for d in (date(2026, 1, 15), date(2026, 1, 30), date(2026, 2, 13), date(2026, 2, 27)):
        add(d, "2412.37", "PAYROLL ACME ROBOTICS, INC")
    for d in (date(2026, 1, 2), date(2026, 2, 2)):
        add(d, "-1850.00", "RENT CASCADE PROPERTY MGMT")
    add(date(2026, 1, 18), "34.99", "REFUND AMAZON MKTPLACE PMTS AMZN.COM/BILL WA")
    add(date(2026, 2, 9), "-1042.18", 'TRANSFER TO SAVINGS "EMERGENCY FUND"')
    dup = Txn(date(2026, 1, 22), date(2026, 1, 22), Decimal("-6.45"), "card", WA_BY_KEY["starbucks"],
              "STARBUCKS STORE 04387 SEATTLE WA")
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    bals = running(ordered, Decimal("4120.55"))
    doc = Doc(CRLF)
    doc.row(["Date", "Description", "Debit", "Credit", "Balance"], "\t")
    for t, bal in zip(ordered, bals):
        debit = paren(t.amount) if t.amount < 0 else ""
        credit = thousands(t.amount) if t.amount > 0 else ""
        desc = q(t.desc) if ("," in t.desc or '"' in t.desc) else t.desc
        line = doc.row([t.pdate.isoformat(), desc, debit, credit, thousands(bal)], "\t")
        doc.expect(line, t.pdate, t.amount, t.desc, bal)
    profile = {
        "name": "Generic tab-delimited UTF-16 export (ISO dates, debit/credit columns)",
        "delimiter": "\t",
        "encoding": "UTF-16LE",
        "date_column": "Date",
        "date_format": "YYYY-MM-DD",
        "description_column": "Description",
        "debit_column": "Debit",
        "credit_column": "Credit",
        "balance_column": "Balance",
        "currency": "USD",
        "decimal_separator": ".",
    }
    return "generic_tab_utf16", doc, profile


def generic_gbk() -> tuple[str, Doc, dict]:
    rng = random.Random("moneyflow/generic_gbk")
    txns: list[Txn] = []

    def add(d: date, amount: str, text: str) -> None:
        txns.append(Txn(d, d, Decimal(amount), "misc", None, text))

    for d in (date(2026, 1, 10), date(2026, 2, 10)):
        add(d, "12500.00", f"\u4ee3\u53d1\u5de5\u8d44 {d.month}\u6708")                       # 代发工资
    for d in (date(2026, 1, 5), date(2026, 2, 5)):
        add(d, "-3800.00", "\u623f\u79df \u8f6c\u8d26\u81f3\u674e\u56db")                     # 房租 转账至李四
    spends = [
        ("\u652f\u4ed8\u5b9d-\u661f\u5df4\u514b\u5496\u5561", 2800, 6900),                      # 支付宝-星巴克咖啡
        ("\u5fae\u4fe1\u652f\u4ed8-\u6ef4\u6ef4\u51fa\u884c", 1250, 8800),                      # 微信支付-滴滴出行
        ("\u652f\u4ed8\u5b9d-\u76d2\u9a6c\u9c9c\u751f", 4590, 31280),                          # 支付宝-盒马鲜生
        ("\u8d22\u4ed8\u901a-\u4eac\u4e1c\u5546\u57ce", 3990, 89900),                          # 财付通-京东商城
        ("\u5fae\u4fe1\u652f\u4ed8-\u7f8e\u56e2\u5916\u5356", 2350, 9860),                      # 微信支付-美团外卖
        ("\u94f6\u8054\u6d88\u8d39-\u5168\u5bb6\u4fbf\u5229\u5e97", 600, 3550),                 # 银联消费-全家便利店
        ("\u652f\u4ed8\u5b9d-\u4e2d\u56fd\u77f3\u5316\u52a0\u6cb9\u7ad9", 20000, 45000),        # 支付宝-中国石化加油站
    ]
    for _ in range(20):
        name, lo, hi = rng.choice(spends)
        add(rand_day(rng), f"-{cents(rng.randint(lo, hi))}", name)
    add(date(2026, 1, 20), "-100.00", "\u4e2d\u56fd\u79fb\u52a8\u8bdd\u8d39\u5145\u503c")     # 中国移动话费充值
    add(date(2026, 1, 21), "-2000.00", "ATM\u53d6\u6b3e")                                        # ATM取款
    add(date(2026, 1, 24), "-286.50", "\u6c34\u7535\u8d39,\u71c3\u6c14\u8d39 \u5408\u5e76\u7f34\u8d39")  # 水电费,燃气费 合并缴费
    add(date(2026, 1, 28), "129.00",
        "\u9000\u6b3e-\u4eac\u4e1c\u5546\u57ce,\u8ba2\u5355\u53f7 260128123456")                # 退款-京东商城,订单号
    add(date(2026, 2, 15), "-1200.00", "\u8f6c\u8d26-\u5f20\u4e09 \u6625\u8282\u7ea2\u5305")  # 转账-张三 春节红包
    add(date(2026, 2, 21), "3.27", "\u5229\u606f\u5b58\u5165")                                  # 利息存入
    dup = Txn(date(2026, 2, 12), date(2026, 2, 12), Decimal("-32.00"), "misc", None,
              "\u5fae\u4fe1\u652f\u4ed8-\u7f8e\u56e2\u5916\u5356")
    txns += [dup, duplicate_of(dup)]

    ordered = chrono(txns)
    bals = running(ordered, Decimal("8650.20"))
    doc = Doc(CRLF, currency="CNY")
    doc.row(["\u65e5\u671f", "\u6458\u8981", "\u91d1\u989d", "\u4f59\u989d"])   # 日期,摘要,金额,余额
    for t, bal in zip(ordered, bals):
        line = doc.row([f"{t.pdate:%Y%m%d}", mq(t.desc), mq(thousands(t.amount)), mq(thousands(bal))])
        doc.expect(line, t.pdate, t.amount, t.desc, bal)
    profile = {
        "name": "Generic GB18030 export (Chinese descriptions, YYYYMMDD dates)",
        "delimiter": ",",
        "encoding": "GB18030",
        "date_column": "\u65e5\u671f",
        "date_format": "YYYYMMDD",
        "description_column": "\u6458\u8981",
        "amount_column": "\u91d1\u989d",
        "balance_column": "\u4f59\u989d",
        "currency": "CNY",
        "decimal_separator": ".",
    }
    return "generic_gbk", doc, profile


def toml_of(profile: dict) -> str:
    out = []
    for k, v in profile.items():
        out.append(f"{k} = {json.dumps(v, ensure_ascii=False)}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# broken fixtures
# --------------------------------------------------------------------------

def broken(outdir: Path) -> list[dict]:
    errors: list[dict] = []

    # bad_date.csv — Chase checking layout, one impossible posting date
    doc = Doc(CRLF)
    doc.row(["Details", "Posting Date", "Description", "Amount", "Type", "Balance", "Check or Slip #"])
    rows = [
        ("DEBIT", "02/12/2026", "STARBUCKS STORE 04387 SEATTLE WA 02/11", "-6.45", "DEBIT_CARD", "3310.42"),
        ("DEBIT", "02/11/2026", "SEATTLE CITY LIGHT ONLINE PMT                  PPD ID: 1916001999", "-91.02", "ACH_DEBIT", "3316.87"),
        ("DEBIT", "02/10/2026", "TRADER JOE S #131 SEATTLE WA 02/09", "-54.18", "DEBIT_CARD", "3407.89"),
        ("DEBIT", "02/30/2026", "AMAZON MKTPL*ZX12Y3AB4 Amzn.com/bill WA 02/08", "-23.99", "DEBIT_CARD", "3462.07"),
        ("CREDIT", "02/06/2026", "Zelle payment from DAVID KIM 24601234567", "45.00", "QUICKPAY_CREDIT", "3486.06"),
        ("DEBIT", "02/03/2026", "SHELL OIL 57444598705 SEATTLE WA 02/02", "-48.20", "DEBIT_CARD", "3441.06"),
        ("DEBIT", "02/02/2026", "Online Payment 18245530912 To Cascade Property Management 02/02", "-1850.00", "BILLPAY", "3489.26"),
    ]
    bad_line = None
    for r in rows:
        line = doc.row([r[0], r[1], q(r[2]), r[3], r[4], r[5], "", ""])
        if r[1] == "02/30/2026":
            bad_line = line
    (outdir / "bad_date.csv").write_bytes(doc.text().encode("utf-8"))
    errors.append(dict(file="bad_date.csv", line=bad_line, column=2, column_name="Posting Date",
                       kind="invalid_date", value="02/30/2026",
                       note="MM/DD/YYYY shaped but February has no 30th; a lenient parser would silently roll it to 03/02/2026"))

    # unterminated_quote.csv — Chase card layout, a quoted Description never closes
    doc = Doc(CRLF)
    doc.row(["Transaction Date", "Post Date", "Description", "Category", "Type", "Amount", "Memo"])
    body = [
        "02/20/2026,02/21/2026,STARBUCKS STORE 04387,Food & Drink,Sale,-6.45,",
        "02/19/2026,02/20/2026,AMAZON MKTPL*ZX12Y3AB4,Shopping,Sale,-23.99,",
        "02/18/2026,02/18/2026,Payment Thank You-Mobile,,Payment,987.45,",
        "02/17/2026,02/18/2026,UBER   *TRIP,Travel,Sale,-18.72,",
        "02/16/2026,02/17/2026,\"SQ *JOE'S PIZZA, LLC,Food & Drink,Sale,-27.80,",
        "02/15/2026,02/16/2026,TRADER JOE S #131,Groceries,Sale,-54.18,",
        "02/14/2026,02/16/2026,SHELL OIL 57444598705,Gas,Sale,-48.20,",
        "02/13/2026,02/14/2026,NETFLIX.COM,Entertainment,Sale,-15.49,",
    ]
    uq_line = None
    for b in body:
        line = doc.raw(b + CRLF)
        if "JOE'S" in b:
            uq_line = line
    (outdir / "unterminated_quote.csv").write_bytes(doc.text().encode("utf-8"))
    errors.append(dict(file="unterminated_quote.csv", line=uq_line, column=3, column_name="Description",
                       kind="unterminated_quote", value='"SQ *JOE\'S PIZZA, LLC,Food & Drink,...',
                       note=f"the quoted field opened here is still open at end of file (after line {doc.lf_count}); "
                            "report where it opened, not EOF"))

    # wrong_encoding.csv — UTF-8 BOM, then one Latin-1 byte (0xE9) midway
    lines = [
        b"Transaction Date,Post Date,Description,Category,Type,Amount,Memo",
        b"02/20/2026,02/21/2026,STARBUCKS STORE 04387,Food & Drink,Sale,-6.45,",
        b"02/19/2026,02/20/2026,AMAZON MKTPL*ZX12Y3AB4,Shopping,Sale,-23.99,",
        b"02/18/2026,02/18/2026,Payment Thank You-Mobile,,Payment,987.45,",
        b"02/17/2026,02/18/2026,UBER   *TRIP,Travel,Sale,-18.72,",
        b"02/16/2026,02/17/2026,TRADER JOE S #131,Groceries,Sale,-54.18,",
        b"02/15/2026,02/16/2026,CAF\xe9 VITA CAPITOL HILL,Food & Drink,Sale,-9.25,",
        b"02/14/2026,02/16/2026,SHELL OIL 57444598705,Gas,Sale,-48.20,",
        b"02/13/2026,02/14/2026,NETFLIX.COM,Entertainment,Sale,-15.49,",
    ]
    data = b"\xef\xbb\xbf" + b"".join(l + b"\r\n" for l in lines)
    (outdir / "wrong_encoding.csv").write_bytes(data)
    bad_idx = next(i for i, l in enumerate(lines) if b"\xe9" in l)
    byte_col = lines[bad_idx].index(b"\xe9") + 1
    file_off = data.index(b"\xe9")
    errors.append(dict(file="wrong_encoding.csv", line=bad_idx + 1, column=3, column_name="Description",
                       kind="invalid_utf8", byte_column=byte_col, byte_offset=file_off,
                       value="CAF\\xE9 VITA CAPITOL HILL",
                       note="file starts with a UTF-8 BOM (EF BB BF) but contains the lone byte 0xE9 "
                            "(Latin-1 e-acute); byte_column is 1-based within the line, "
                            "byte_offset is 0-based from the start of the file including the BOM"))

    # ragged.csv — Capital One card layout, one row with 5 of 7 fields
    doc = Doc(CRLF)
    doc.row(["Transaction Date", "Posted Date", "Card No.", "Description", "Category", "Debit", "Credit"])
    rrows = [
        "2026-02-20,2026-02-21,4417,STARBUCKS STORE 04387,Dining,6.45,",
        "2026-02-19,2026-02-20,4417,AMAZON MKTPL*ZX12Y3AB4,Merchandise,23.99,",
        "2026-02-18,2026-02-18,4417,CAPITAL ONE MOBILE PYMT,Payment/Credit,,500.00",
        "2026-02-17,2026-02-18,8802,UBER   *TRIP,Other Travel,18.72,",
        "2026-02-16,2026-02-17,4417,SHELL OIL 57444598705,Gas/Automotive",
        "2026-02-15,2026-02-16,4417,TRADER JOE S #131,Grocery,54.18,",
        "2026-02-14,2026-02-16,4417,NETFLIX.COM,Entertainment,15.49,",
    ]
    rg_line = None
    for r in rrows:
        line = doc.raw(r + CRLF)
        if r.endswith("Gas/Automotive"):
            rg_line = line
    (outdir / "ragged.csv").write_bytes(doc.text().encode("utf-8"))
    errors.append(dict(file="ragged.csv", line=rg_line, column=6, column_name="Debit",
                       kind="too_few_fields", expected_fields=7, found_fields=5,
                       note="column is the first missing field (1-based)"))
    return errors


def broken_readme(errors: list[dict]) -> str:
    out = ["# Broken CSV fixtures", "",
           "Generated by `scripts/gen_csv_samples.py`; do not edit by hand.",
           "Each file must make the importer fail with a positioned error (no partial import).",
           "Lines are 1-based physical lines (a CRLF or LF ends a line; a UTF-8 BOM is not a line).",
           "Columns are 1-based CSV field indexes counted on the header.",
           "The same data, machine-readable, is in `expected_errors.json`.", "",
           "| file | line | column | kind | detail |", "|---|---|---|---|---|"]
    for e in errors:
        detail = e["note"]
        if e["kind"] == "invalid_date":
            detail = f'value `{e["value"]}`: ' + detail
        if e["kind"] == "too_few_fields":
            detail = f'{e["found_fields"]} fields, header has {e["expected_fields"]}; ' + detail
        if e["kind"] == "invalid_utf8":
            detail = f'byte column {e["byte_column"]}, file offset {e["byte_offset"]}; ' + detail
        out.append(f'| `{e["file"]}` | {e["line"]} | {e["column"]} ({e["column_name"]}) | {e["kind"]} | {detail} |')
    out += ["",
            "Layouts: `bad_date.csv` is Chase checking (data rows carry the usual extra trailing comma, "
            "which is not the error); `unterminated_quote.csv` and `wrong_encoding.csv` are Chase card; "
            "`ragged.csv` is Capital One card.", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

README = """# Synthetic bank CSV fixtures

Generated by `scripts/gen_csv_samples.py` (seeded, deterministic: two runs give identical bytes).
Everything here is invented: no real names, account numbers, references or balances.
Each `<name>.csv` has a `<name>.expected.json`: the transactions the importer must produce, in file
order, as `{"line", "date", "amount", "currency", "description", "balance"}`:

* `line`: 1-based physical line where the record starts (CRLF and LF each end one line; a newline
  inside a quoted field counts, so multi-line Amex records advance the count).
* `date`: ISO date; the posting date when the file has both a transaction and a posting date
  (Chase card `Post Date`, Capital One card `Posted Date`); Amex only has `Date`.
* `amount`: canonical signed decimal, 2 dp, no thousands separator, store sign
  (negative = money out). Amex prints charges positive; they appear negative here.
* `description`: the file's description field exactly as printed after CSV unquoting (internal
  runs of spaces kept; Chase: `Description`, BofA card: `Payee`, Wells Fargo: column 5,
  Capital One 360: `Transaction Description`, Amex: `Description`, not `Extended Details`).
* `balance`: the running balance printed on that row, or `null` (no balance column, or Chase's
  blank `" "` balance on a not-yet-settled row).

Rows that are not transactions (the BofA summary preamble, blank line, and its
`Beginning balance as of ...` row) are absent. Every file holds at least one pair of genuinely
identical transactions (same date, amount and text), at least one credit/refund, and quoted
fields containing the delimiter. Period: 2026-01-02 .. 2026-02-27.

## Formats

| file | header (verbatim) | dates | amount sign | line ends | order |
|---|---|---|---|---|---|
| `chase_checking.csv` | `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #` | MM/DD/YYYY | signed, `-` = out | CRLF | newest first |
| `chase_card.csv` | `Transaction Date,Post Date,Description,Category,Type,Amount,Memo` | MM/DD/YYYY | signed, purchases `-` | CRLF | newest first |
| `bofa_checking.csv` | preamble, blank line, `Date,Description,Amount,Running Bal.` | MM/DD/YYYY | signed, quoted, `1,234.56` | CRLF | oldest first |
| `bofa_card.csv` | `Posted Date,Reference Number,Payee,Address,Amount` | MM/DD/YYYY | signed, purchases `-` | CRLF | newest first |
| `wells_fargo_checking.csv` | none; 5 always-quoted columns | MM/DD/YYYY | signed | LF (unconfirmed) | newest first |
| `capital_one_card.csv` | `Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit` | YYYY-MM-DD | unsigned Debit/Credit, one empty | CRLF | newest first |
| `capital_one_360.csv` | `Account Number,Transaction Description,Transaction Date,Transaction Type,Transaction Amount,Balance` | MM/DD/YY | unsigned + `Debit`/`Credit` type | LF (unconfirmed) | newest first |
| `amex.csv` | `Date,Description,Amount` | MM/DD/YYYY | `+` = charge (money out), `-` = payment/credit | LF (unconfirmed) | newest first |
| `amex_extended.csv` | `Date,Description,Card Member,Account #,Amount,Extended Details,Appears On Your Statement As,Address,City/State,Zip Code,Country,Reference,Category` | MM/DD/YYYY | as `amex.csv` | CRLF records, LF inside fields (unconfirmed) | newest first |

### Chase checking (`chase_checking.csv`)
* Every data row has one more field than the header: it ends `,,` (empty `Check or Slip #` plus an
  unlabeled empty 8th field) or `,<check number>,` for `CHECK` rows. The header has no trailing comma.
* `Details` is `DEBIT`, `CREDIT`, `CHECK` or `DSLIP`; `Type` values used: `DEBIT_CARD`, `ACH_DEBIT`,
  `ACH_CREDIT`, `BILLPAY`, `LOAN_PMT`, `QUICKPAY_DEBIT`, `QUICKPAY_CREDIT`, `ATM`, `CHECK_PAID`,
  `DEPOSIT`, `FEE_TRANSACTION`, `REFUND_TRANSACTION`, `ACCT_XFER`, `WIRE_OUTGOING`.
* `Description` is always double-quoted; ACH descriptions contain commas (`IND NAME:DOE,JANE`) and
  runs of spaces; the wire contains `EUR250,00`. Amounts/balances have no thousands separator.
* The newest (unsettled) row has a single space as `Balance` (`...,QUICKPAY_CREDIT, ,,`).
* Sources: mtlynch/beancount-chase-bank `beancount_chase/checking_test.py` (rows ending `,,`,
  quoted descriptions, `DSLIP`, `FEE_TRANSACTION`/`REFUND_TRANSACTION`, `ACH_CREDIT, ,,` blank
  balance); firefly-iii/import-configurations `us/chase/default.json` (8 column roles for the
  7-name header); several independent importer test suites write the Chase header/rows with `\\r\\n`
  ("exact Chase format ... trailing `,,\\r\\n`"), which is the CRLF evidence (no bank documentation found).

### Chase credit card (`chase_card.csv`)
* 7 columns; `Memo` is empty so each row ends with `,`. `Type`: `Sale`, `Return`, `Payment`, `Fee`,
  `Adjustment`. Purchases and fees negative; payments, returns and adjustments positive.
  `Category` is empty on payments. Descriptions are unquoted unless they contain a comma.
* Sources: mtlynch/beancount-chase-bank `beancount_chase/credit_test.py` and PR #255
  ("Support new Chase credit CSV format": current exports omit the leading `Card` column; older
  exports were `Card,Transaction Date,Post Date,Description,Category,Type,Amount,Memo`).

### Bank of America checking (`bofa_checking.csv`)
```
Description,,Summary Amt.
Beginning balance as of 01/01/2026,,"4,912.80"
Total credits,,"..."
Total debits,,"-..."
Ending balance as of 02/28/2026,,"..."
<blank line>
Date,Description,Amount,Running Bal.
01/01/2026,Beginning balance as of 01/01/2026,,"4,912.80"     <- not a transaction
01/02/2026,"BILT RENT DES:ACH PMT ...","-1,650.00","3,262.80"
```
* Description, Amount and Running Bal. are quoted; amounts and balances use thousands separators;
  the beginning-balance row has an unquoted description and an empty amount. Oldest first.
  The summary totals are consistent with the rows (opening + credits + debits = ending).
* Sources: public importer fixtures quoting real `stmt.csv` exports (preamble, blank line, quoted
  `"-1,650.00"` style amounts); jmcameron/csv2qif `test/test4.csv` (same preamble, Excel-resaved);
  mendelmaleh/pfin `parser/bofa/types.go` (columns `Date,Description,Amount,Running Bal.`) and
  `parser/README.md` (download as "Microsoft Excel Format"). CRLF: importer fixtures only.

### Bank of America credit card (`bofa_card.csv`)
* `Reference Number` is a 23-digit string (keep as text); `Payee` and `Address` are always quoted;
  `Address` is the city (or merchant phone) left-padded to 13 chars, a space, state, trailing space
  (`"CHARLOTTE     NC "`), empty for payments. Amount unquoted, purchases negative.
* Sources: public BofA card parser tests (`02/07/2017,2449...,"DOORDASH-... CA","650-681-9470  CA ",-75.99`),
  several importers documenting `negative = purchases`. (One importer claims the opposite sign;
  the majority of fixtures use negative for purchases.)

### Wells Fargo checking (`wells_fargo_checking.csv`)
* No header. Five always-quoted columns: date, signed amount, `"*"`, check number (empty except
  `CHECK #` rows), description (`PURCHASE AUTHORIZED ON 01/03 ... S386... CARD 1234`,
  `RECURRING PAYMENT AUTHORIZED ON ...`, `PURCHASE RETURN AUTHORIZED ON ...`,
  `ACME ROBOTICS DIR DEP ... DOE,JANE`).
* Sources: firefly-iii/import-configurations `us/wellsfargo/default.json` (`"headers": false`,
  roles date, amount, ignore, ignore, description); many public fixtures of the
  `"MM/DD/YYYY","-12.34","*","","PURCHASE AUTHORIZED ON ..."` shape.

### Capital One credit card (`capital_one_card.csv`)
* ISO dates, `Card No.` = last four (two cards on the account), `Debit`/`Credit` unsigned with
  exactly one filled. Payments use category `Payment/Credit`; interest `Fee/Interest Charge`.
* Sources: public importer tests of the native export (`Transaction Date,Posted Date,Card No.,...`,
  `2018-08-25,2018-08-27,8772,LA FITNESS,Entertainment,31.85,`); one states the native fixture uses CRLF.

### Capital One 360 (`capital_one_360.csv`)
* Current column order (the pre-2024 export was `Account Number,Transaction Date,Transaction Amount,
  Transaction Type,Transaction Description,Balance` with signed amounts). Dates `MM/DD/YY`.
  `Transaction Amount` is unsigned; the sign comes from `Transaction Type` (`Debit`/`Credit`).
  Amounts are printed without trailing zeros (`1850`, `481.2`) as seen in public fixtures; balances
  keep 2 dp. Descriptions: `Debit Card Purchase - ...`, `Deposit from ...`, `Withdrawal from ...`,
  `Zelle money sent to ...`, `Monthly Interest Paid`, `Check #1046 Cashed`.
* Sources: public parsers noting "2024 order -> Account Number,Transaction Description,Transaction
  Date,..." and "the amount is always positive and the direction lives in Transaction Type";
  fixtures such as `2322,Withdrawal from CHASE CREDIT CRD EPAY,05/20/26,Debit,481.2,471.45`.

### American Express (`amex.csv`, `amex_extended.csv`)
* Same activity in both files (two card members). `amex.csv` is the plain download;
  `amex_extended.csv` is the download with "include all additional transaction details".
  `Account #` is `-` + 5 digits, `Reference` is wrapped in single quotes (`'320260...'`),
  `Extended Details`, `Address` and `City/State` contain embedded newlines (`"SEATTLE\\nWA"`).
  Positive = charge; payments and credits negative.
* Sources: jbmilgrom/budget-interpreter `src/amex/index.ts` (the 13 column names);
  jmcameron/amex2qif `README.md` (an 11-column variant without `Card Member`/`Account #`, May 2022);
  mendelmaleh/pfin `parser/README.md` ("Enable additional transaction details"); public fixtures with
  `-41002`-style account numbers and `'3202...'` references; a public doc noting "Extended Details
  (multiline) ... fields may contain embedded newlines". The exact text inside `Extended Details`
  here is illustrative.

## Generic-parser fixtures

Each has `<name>.profile.json` (`name, delimiter, encoding, date_column, date_format,
description_column, amount_column | debit_column+credit_column, balance_column?, currency,
decimal_separator?`; columns are named by header text). `generic_semicolon_ddmmyyyy` also has
`.profile.toml` with the same keys and values.

* `generic_semicolon_ddmmyyyy.csv`: UTF-8, `;`, CRLF, `DD.MM.YYYY`, decimal comma with `.`
  thousands (`-1.234,56`), every `Verwendungszweck` quoted (some contain `;`, `,` or `""`), EUR.
* `generic_tab_utf16.csv`: UTF-16LE with BOM (FF FE), tab, CRLF, ISO dates, `Debit` printed in
  parentheses `(1,850.00)` (money out), `Credit` plain `2,412.37`, `Balance` with thousands
  separators; descriptions with commas/quotes are double-quoted. The BOM is not part of `Date`.
* `generic_gbk.csv`: GB18030, `,`, CRLF, `YYYYMMDD`, header `日期,摘要,金额,余额`, signed amounts,
  values of 1,000 or more quoted with thousands separators, some descriptions quoted for commas. CNY.

## Broken fixtures

See `broken/README.md` and `broken/expected_errors.json`.
"""


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def write_json(path: Path, obj) -> None:
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8", newline="\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent.parent / "Samples" / "csv")
    args = ap.parse_args()
    out: Path = args.out
    (out / "broken").mkdir(parents=True, exist_ok=True)

    for gen in (chase_checking, chase_card, bofa_checking, bofa_card, wells_fargo_checking,
                capital_one_card, capital_one_360, amex, amex_extended):
        name, doc = gen()
        (out / f"{name}.csv").write_bytes(doc.text().encode("utf-8"))
        write_json(out / f"{name}.expected.json", doc.expected)

    for gen, enc in ((generic_semicolon, "utf-8"), (generic_tab_utf16, "utf-16-le"), (generic_gbk, "gb18030")):
        name, doc, profile = gen()
        data = doc.text().encode(enc)
        if enc == "utf-16-le":
            data = b"\xff\xfe" + data
        (out / f"{name}.csv").write_bytes(data)
        write_json(out / f"{name}.expected.json", doc.expected)
        write_json(out / f"{name}.profile.json", profile)
        if name == "generic_semicolon_ddmmyyyy":
            (out / f"{name}.profile.toml").write_text(toml_of(profile), encoding="utf-8", newline="\n")

    errors = broken(out / "broken")
    write_json(out / "broken" / "expected_errors.json", errors)
    (out / "broken" / "README.md").write_text(broken_readme(errors), encoding="utf-8", newline="\n")
    (out / "README.md").write_text(README, encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
