#!/usr/bin/env python3
"""Writes the OFX/QFX samples in Samples/ofx/ and, next to each, NAME.expected.json: the rows
an importer must read from it (file order), written from the same data, not by MoneyFlow.

The files are synthetic but shaped like real bank downloads:
  checking_sgml_102.ofx     OFX 1.02 SGML, CRLF, unclosed leaves (a few closed, several on one
                            line), CHARSET:1252 bytes (CAFÉ, TRADER JOE’S), &amp;, a check,
                            evening times in [-5:EST], DTUSER, LEDGERBAL + AVAILBAL
  card_xml_211.ofx          OFX 2.11 XML credit-card statement (CCSTMTRS): purchases negative,
                            payment and refund positive, a euro purchase (ORIGCURRENCY), [0:GMT]
  quicken_download.qfx      QFX (OFX 1.02 + INTU.BID/INTU.USERID), the whole body on one line
  two_statements.ofx        OFX 1.03: checking and savings of one person (the bank reuses a
                            FITID across the two accounts, which is legal)
  checking_two_periods.ofx  OFX 1.51: two consecutive statements of one account in one file
                            whose LEDGERBALs chain through the rows (the importer checks it)
  first_platypus_checking.ofx  the demo user's checking account (Samples/us/, Plaid mask 0000)
                            downloaded as OFX on 2024-03-12: 2024-02-20..03-11, overlapping the
                            CSV download; NAME cut to 32 characters with the full text in MEMO,
                            as banks do. Rows come from scripts/gen_demo_samples.py.

Deterministic: hand-written rows, no randomness, no clock. Usage: python3 scripts/gen_ofx_samples.py
"""
import json
import os
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Samples", "ofx")
sys.path.insert(0, HERE)
import gen_demo_samples  # noqa: E402  (the demo's checking rows)

SGML_HEADER = ["OFXHEADER:100", "DATA:OFXSGML", "VERSION:{v}", "SECURITY:NONE", "ENCODING:USASCII",
               "CHARSET:{c}", "COMPRESSION:NONE", "OLDFILEUID:NONE", "NEWFILEUID:NONE", ""]


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def signon(org, fid, intu=False, closed=False):
    e = (lambda t, v: f"<{t}>{v}</{t}>") if closed else (lambda t, v: f"<{t}>{v}")
    out = ["<SIGNONMSGSRSV1>", "<SONRS>", "<STATUS>", e("CODE", "0"), e("SEVERITY", "INFO"), "</STATUS>",
           e("DTSERVER", "20250301080000.000[-5:EST]"), e("LANGUAGE", "ENG"), "<FI>", e("ORG", esc(org)), e("FID", fid), "</FI>"]
    if intu:
        out += [e("INTU.BID", fid), e("INTU.USERID", "JDOE1987")]
    return out + ["</SONRS>", "</SIGNONMSGSRSV1>"]


def stmttrn(t, closed=False, one_line=False):
    """t: dict with TRNTYPE, DTPOSTED, [DTUSER], TRNAMT, FITID, [CHECKNUM], [NAME|PAYEE], [MEMO], [ORIGCURRENCY]."""
    def el(k, v):
        return f"<{k}>{v}</{k}>" if closed or (k == "NAME" and t.get("closed_name")) else f"<{k}>{v}"
    parts = ["<STMTTRN>", el("TRNTYPE", t["TRNTYPE"]), el("DTPOSTED", t["DTPOSTED"])]
    if "DTUSER" in t:
        parts.append(el("DTUSER", t["DTUSER"]))
    parts += [el("TRNAMT", t["TRNAMT"]), el("FITID", t["FITID"])]
    if "CHECKNUM" in t:
        parts.append(el("CHECKNUM", t["CHECKNUM"]))
    if "PAYEE" in t:
        parts += ["<PAYEE>", el("NAME", esc(t["PAYEE"])), el("ADDR1", "PO BOX 1"), el("CITY", "SEATTLE"), el("STATE", "WA"),
                  el("POSTALCODE", "98101"), el("PHONE", "8005550100"), "</PAYEE>"]
    elif "NAME" in t:
        parts.append(el("NAME", esc(t["NAME"])))
    if "MEMO" in t:
        parts.append(el("MEMO", esc(t["MEMO"])))
    if "ORIGCURRENCY" in t:
        rate, sym = t["ORIGCURRENCY"]
        parts += ["<ORIGCURRENCY>", el("CURRATE", rate), el("CURSYM", sym), "</ORIGCURRENCY>"]
    parts.append("</STMTTRN>")
    if one_line or t.get("one_line"):
        return ["".join(parts)]
    return parts


def statement(kind, acct, curdef, start, end, rows, ledger, avail=None, closed=False, trnuid="1001"):
    e = (lambda k, v: f"<{k}>{v}</{k}>") if closed else (lambda k, v: f"<{k}>{v}")
    rs, trnrs, acctfrom = ("STMTRS", "STMTTRNRS", "BANKACCTFROM") if kind == "bank" else ("CCSTMTRS", "CCSTMTTRNRS", "CCACCTFROM")
    out = [f"<{trnrs}>", e("TRNUID", trnuid), "<STATUS>", e("CODE", "0"), e("SEVERITY", "INFO"), "</STATUS>",
           f"<{rs}>", e("CURDEF", curdef), f"<{acctfrom}>"]
    if kind == "bank":
        out += [e("BANKID", acct["BANKID"]), e("ACCTID", acct["ACCTID"]), e("ACCTTYPE", acct["ACCTTYPE"])]
    else:
        out += [e("ACCTID", acct["ACCTID"])]
    out += [f"</{acctfrom}>", "<BANKTRANLIST>", e("DTSTART", start), e("DTEND", end)]
    for t in rows:
        out += stmttrn(t, closed=closed)
    out += ["</BANKTRANLIST>", "<LEDGERBAL>", e("BALAMT", ledger[0]), e("DTASOF", ledger[1]), "</LEDGERBAL>"]
    if avail:
        out += ["<AVAILBAL>", e("BALAMT", avail[0]), e("DTASOF", avail[1]), "</AVAILBAL>"]
    return out + [f"</{rs}>", f"</{trnrs}>"]


def expected_rows(text, statements):
    """(account name, rows) per statement, in file order -> expected records with their lines."""
    out, pos = [], 0
    for name, rows in statements:
        for t in rows:
            pos = text.index("<STMTTRN>", pos)
            line = text.count("\n", 0, pos) + 1
            pos += 1
            name_text = t.get("NAME") or t.get("PAYEE")
            memo = t.get("MEMO")
            desc = name_text or memo or (f"CHECK {t['CHECKNUM']}" if "CHECKNUM" in t else t["TRNTYPE"])
            note = memo if memo and memo != desc else None
            if "CHECKNUM" in t and t["CHECKNUM"] not in desc:
                note = "; ".join(x for x in [note, f"check {t['CHECKNUM']}"] if x)
            d, u = t["DTPOSTED"], t.get("DTUSER")
            out.append({"line": line, "account": name, "fitid": t["FITID"],
                        "date": f"{d[0:4]}-{d[4:6]}-{d[6:8]}",
                        "authorized_date": f"{u[0:4]}-{u[4:6]}-{u[6:8]}" if u else None,
                        "amount": f"{Decimal(t['TRNAMT']):.2f}", "currency": t.get("currency", "USD"),
                        "description": desc, "note": note, "trntype": t["TRNTYPE"]})
    return out


def write(name, lines, statements, accounts, newline="\r\n", encoding="cp1252", header=None):
    body = newline.join(lines) + newline
    text = ((newline.join(header) + newline) if header else "") + body
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(text.encode(encoding))
    exp = {"accounts": accounts, "records": expected_rows(text, statements)}
    stem = name.rsplit(".", 1)[0]
    with open(os.path.join(OUT, stem + ".expected.json"), "w", encoding="utf-8") as f:
        json.dump(exp, f, ensure_ascii=False, indent=2)
        f.write("\n")


def acct_facts(name, institution, number, typ, currency, ledger, avail=None):
    return {"name": name, "institution": institution, "number": number, "type": typ, "currencies": [currency],
            "ledger_balance": ledger, "available_balance": avail}


def checking_sgml_102():
    acct = {"BANKID": "325081403", "ACCTID": "000123457391", "ACCTTYPE": "CHECKING"}
    rows = [
        {"TRNTYPE": "DIRECTDEP", "DTPOSTED": "20250102120000.000[-5:EST]", "TRNAMT": "1875.40", "FITID": "2025010201",
         "NAME": "ACME ROBOTICS PAYROLL", "MEMO": "DIRECT DEP PPD ID 1234567890"},
        {"TRNTYPE": "POS", "DTPOSTED": "20250103203000.000[-5:EST]", "DTUSER": "20250102", "TRNAMT": "-4.75",
         "FITID": "2025010301", "NAME": "CAFÉ DEL SOL SEATTLE WA", "MEMO": "POS PURCHASE", "one_line": True},
        {"TRNTYPE": "CHECK", "DTPOSTED": "20250106", "TRNAMT": "-1250.00", "FITID": "2025010601", "CHECKNUM": "1042",
         "NAME": "CHECK 1042"},
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250107120000[-5:EST]", "TRNAMT": "-86.19", "FITID": "2025010701",
         "NAME": "AT&T MOBILITY ONLINE PMT", "closed_name": True},
        {"TRNTYPE": "POS", "DTPOSTED": "20250109120000.000[-5:EST]", "TRNAMT": "-52.33", "FITID": "2025010901",
         "NAME": "TRADER JOE’S #131 SEATTLE", "MEMO": "POS PURCHASE"},
        {"TRNTYPE": "ATM", "DTPOSTED": "20250110120000.000[-5:EST]", "TRNAMT": "-60.00", "FITID": "2025011001",
         "NAME": "ATM WITHDRAWAL PIKE ST"},
        {"TRNTYPE": "SRVCHG", "DTPOSTED": "20250131120000.000[-5:EST]", "TRNAMT": "-5.00", "FITID": "2025013101",
         "NAME": "MONTHLY MAINTENANCE FEE"},
        {"TRNTYPE": "INT", "DTPOSTED": "20250131120000.000[-5:EST]", "TRNAMT": "0.12", "FITID": "2025013102",
         "NAME": "INTEREST PAYMENT"},
    ]
    total = sum(Decimal(r["TRNAMT"]) for r in rows)
    opening = Decimal("2140.55")
    ledger = f"{opening + total:.2f}"
    lines = ["<OFX>"] + signon("Cascade Mutual Bank", "3250") + ["<BANKMSGSRSV1>"] + statement(
        "bank", acct, "USD", "20250101", "20250131235959.000[-5:EST]", rows, (ledger, "20250131235959.000[-5:EST]"),
        avail=(f"{opening + total - Decimal('100.00'):.2f}", "20250131235959.000[-5:EST]")) + ["</BANKMSGSRSV1>", "</OFX>"]
    hdr = [h.format(v="102", c="1252") for h in SGML_HEADER]
    write("checking_sgml_102.ofx", lines, [("Cascade Mutual Bank 7391", rows)],
          [acct_facts("Cascade Mutual Bank 7391", "Cascade Mutual Bank", "7391", "checking", "USD", ledger,
                      f"{opening + total - Decimal('100.00'):.2f}")], header=hdr)


def card_xml_211():
    rows = [
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250203000000.000[0:GMT]", "DTUSER": "20250201000000.000[0:GMT]",
         "TRNAMT": "-23.99", "FITID": "320250203000123456", "NAME": "BARNES & NOBLE #2231", "MEMO": "BOOKS"},
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250204000000.000[0:GMT]", "TRNAMT": "-7.50", "FITID": "320250204000123457",
         "NAME": "SQ *BLUE <FOX> COFFEE"},
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250206000000.000[0:GMT]", "DTUSER": "20250205",
         "TRNAMT": "-54.17", "FITID": "320250206000123458", "NAME": "HOTEL LE MARAIS PARIS",
         "MEMO": "50.00 EUR", "ORIGCURRENCY": ("1.0834", "EUR")},
        {"TRNTYPE": "CREDIT", "DTPOSTED": "20250210000000.000[0:GMT]", "TRNAMT": "23.99", "FITID": "320250210000123459",
         "NAME": "BARNES & NOBLE #2231", "MEMO": "RETURN"},
        {"TRNTYPE": "PAYMENT", "DTPOSTED": "20250214000000.000[0:GMT]", "TRNAMT": "500.00", "FITID": "320250214000123460",
         "NAME": "PAYMENT THANK YOU"},
        {"TRNTYPE": "FEE", "DTPOSTED": "20250225000000.000[0:GMT]", "TRNAMT": "-1.62", "FITID": "320250225000123461",
         "NAME": "FOREIGN TRANSACTION FEE"},
    ]
    ledger = "-1306.41"
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
             '<?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>', "<OFX>"]
    lines += signon("Northwind Bank", "10898", closed=True) + ["<CREDITCARDMSGSRSV1>"] + statement(
        "card", {"ACCTID": "5412750012349876"}, "USD", "20250201000000.000[0:GMT]", "20250228000000.000[0:GMT]",
        rows, (ledger, "20250228000000.000[0:GMT]"), avail=("3693.59", "20250228000000.000[0:GMT]"), closed=True)
    lines += ["</CREDITCARDMSGSRSV1>", "</OFX>"]
    write("card_xml_211.ofx", ["  " * 0 + l for l in lines], [("Northwind Bank 9876", rows)],
          [acct_facts("Northwind Bank 9876", "Northwind Bank", "9876", "credit", "USD", ledger, "3693.59")],
          newline="\n", encoding="utf-8")


def quicken_download():
    acct = {"BANKID": "121000358", "ACCTID": "9876543210", "ACCTTYPE": "CHECKING"}
    rows = [
        {"TRNTYPE": "XFER", "DTPOSTED": "20250303", "TRNAMT": "-200.00", "FITID": "QX0001", "NAME": "ONLINE TRANSFER TO SAV ...4410"},
        {"TRNTYPE": "PAYMENT", "DTPOSTED": "20250305", "TRNAMT": "-142.18", "FITID": "QX0002",
         "PAYEE": "PUGET SOUND ENERGY", "MEMO": "BILL PAY"},
        {"TRNTYPE": "DEP", "DTPOSTED": "20250306", "TRNAMT": "320.00", "FITID": "QX0003", "NAME": "MOBILE DEPOSIT"},
        {"TRNTYPE": "DIRECTDEBIT", "DTPOSTED": "20250310", "TRNAMT": "-15.49", "FITID": "QX0004", "NAME": "NETFLIX.COM"},
    ]
    ledger = "2962.33"
    body = ["<OFX>"] + signon("Redwood Savings Bank", "5959", intu=True) + ["<BANKMSGSRSV1>"] + statement(
        "bank", acct, "USD", "20250301", "20250311", rows, (ledger, "20250311")) + ["</BANKMSGSRSV1>", "</OFX>"]
    hdr = [h.format(v="102", c="1252") for h in SGML_HEADER]
    write("quicken_download.qfx", ["".join(body)], [("Redwood Savings Bank 3210", rows)],
          [acct_facts("Redwood Savings Bank 3210", "Redwood Savings Bank", "3210", "checking", "USD", ledger)], header=hdr)


def two_statements():
    chk = {"BANKID": "091000019", "ACCTID": "1500026671", "ACCTTYPE": "CHECKING"}
    sav = {"BANKID": "091000019", "ACCTID": "1500026689", "ACCTTYPE": "SAVINGS"}
    crows = [
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250301120000[-6:CST]", "TRNAMT": "-38.40", "FITID": "20250301001", "NAME": "HY-VEE #1402"},
        {"TRNTYPE": "XFER", "DTPOSTED": "20250304120000[-6:CST]", "TRNAMT": "-500.00", "FITID": "20250304001", "NAME": "TRANSFER TO SAVINGS"},
        {"TRNTYPE": "CREDIT", "DTPOSTED": "20250307120000[-6:CST]", "TRNAMT": "1204.77", "FITID": "20250307001", "NAME": "STATE OF MN PAYROLL"},
    ]
    srows = [
        {"TRNTYPE": "XFER", "DTPOSTED": "20250304120000[-6:CST]", "TRNAMT": "500.00", "FITID": "20250301001", "NAME": "TRANSFER FROM CHECKING"},
        {"TRNTYPE": "INT", "DTPOSTED": "20250331120000[-6:CST]", "TRNAMT": "3.11", "FITID": "20250331001", "NAME": "INTEREST EARNED"},
    ]
    lines = ["<OFX>"] + signon("Harbor Federal", "7777") + ["<BANKMSGSRSV1>"]
    lines += statement("bank", chk, "USD", "20250301", "20250331", crows, ("1833.91", "20250331"), trnuid="1")
    lines += statement("bank", sav, "USD", "20250301", "20250331", srows, ("10503.11", "20250331"), trnuid="2")
    lines += ["</BANKMSGSRSV1>", "</OFX>"]
    hdr = [h.format(v="103", c="NONE") for h in SGML_HEADER]
    write("two_statements.ofx", lines, [("Harbor Federal 6671", crows), ("Harbor Federal 6689", srows)],
          [acct_facts("Harbor Federal 6671", "Harbor Federal", "6671", "checking", "USD", "1833.91"),
           acct_facts("Harbor Federal 6689", "Harbor Federal", "6689", "savings", "USD", "10503.11")], header=hdr)


def checking_two_periods():
    acct = {"BANKID": "071000013", "ACCTID": "600712348811", "ACCTTYPE": "CHECKING"}
    jan = [
        {"TRNTYPE": "CREDIT", "DTPOSTED": "20250115", "TRNAMT": "900.00", "FITID": "J1", "NAME": "PAYROLL"},
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250120", "TRNAMT": "-310.25", "FITID": "J2", "NAME": "RENT PORTION"},
    ]
    feb = [
        {"TRNTYPE": "CREDIT", "DTPOSTED": "20250214", "TRNAMT": "900.00", "FITID": "F1", "NAME": "PAYROLL"},
        {"TRNTYPE": "DEBIT", "DTPOSTED": "20250218", "TRNAMT": "-45.67", "FITID": "F2", "NAME": "GROCERY OUTLET"},
    ]
    jan_close = Decimal("1200.00") + sum(Decimal(r["TRNAMT"]) for r in jan)
    feb_close = jan_close + sum(Decimal(r["TRNAMT"]) for r in feb)
    lines = ["<OFX>"] + signon("Lakeshore Bank", "4321") + ["<BANKMSGSRSV1>"]
    lines += statement("bank", acct, "USD", "20250101", "20250131", jan, (f"{jan_close:.2f}", "20250131"), trnuid="1")
    lines += statement("bank", acct, "USD", "20250201", "20250228", feb, (f"{feb_close:.2f}", "20250228"), trnuid="2")
    lines += ["</BANKMSGSRSV1>", "</OFX>"]
    hdr = [h.format(v="151", c="1252") for h in SGML_HEADER]
    write("checking_two_periods.ofx", lines, [("Lakeshore Bank 8811", jan), ("Lakeshore Bank 8811", feb)],
          [acct_facts("Lakeshore Bank 8811", "Lakeshore Bank", "8811", "checking", "USD", f"{feb_close:.2f}")], header=hdr)


def first_platypus_checking():
    acct = {"BANKID": "011401533", "ACCTID": "4417093300000", "ACCTTYPE": "CHECKING"}
    types = {"ACH_CREDIT": "DIRECTDEP", "ACH_DEBIT": "DIRECTDEBIT", "DEBIT_CARD": "POS", "ATM": "ATM", "QUICKPAY_DEBIT": "XFER"}
    src = [r for r in gen_demo_samples.ROWS if r[0] >= "02/20/2024"]
    src.append(("03/11/2024", "ATM WITHDRAWAL 003421 03/11 5th AVE OAKLAND", "-60.00", "ATM"))  # Plaid has it; the CSV ends 03/07
    rows = []
    for i, (date, desc, amount, kind) in enumerate(src):
        ymd = date[6:10] + date[0:2] + date[3:5]
        t = {"TRNTYPE": types[kind], "DTPOSTED": ymd + "120000.000[-8:PST]", "TRNAMT": amount,
             "FITID": f"{ymd}{i + 1:04d}", "NAME": desc[:32].rstrip()}
        if len(desc) > 32:
            t["MEMO"] = desc
        rows.append(t)
    rows[-2]["DTPOSTED"] = rows[-2]["DTPOSTED"][:8] + "193000.000[-8:PST]"   # evening: still 03/07 locally
    ledger = f"{gen_demo_samples.CLOSING + Decimal('-60.00'):.2f}"
    lines = ["<OFX>"] + signon("First Platypus Bank", "1601") + ["<BANKMSGSRSV1>"] + statement(
        "bank", acct, "USD", "20240220", "20240312", rows, (ledger, "20240312080000.000[-8:PST]"),
        avail=(ledger, "20240312080000.000[-8:PST]")) + ["</BANKMSGSRSV1>", "</OFX>"]
    hdr = [h.format(v="102", c="1252") for h in SGML_HEADER]
    write("first_platypus_checking.ofx", lines, [("First Platypus Bank 0000", rows)],
          [acct_facts("First Platypus Bank 0000", "First Platypus Bank", "0000", "checking", "USD", ledger, ledger)], header=hdr)


def main():
    os.makedirs(OUT, exist_ok=True)
    checking_sgml_102()
    card_xml_211()
    quicken_download()
    two_statements()
    checking_two_periods()
    first_platypus_checking()


if __name__ == "__main__":
    main()
