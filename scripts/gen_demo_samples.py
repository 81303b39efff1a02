#!/usr/bin/env python3
"""Writes Samples/us/first_platypus_checking.csv: the demo user's own export of the checking
account that Plaid also feeds (Samples/plaid/full_period, account mask 0000 at First Platypus
Bank), in the Chase checking download layout (newest first, running balance).

The export covers 2024-02-15 .. 2024-03-07 (downloaded on 2024-03-08), so it overlaps the Plaid
feed (2024-03-01 .. 2024-03-11): rows from March are the same purchases Plaid reports (the bank
posts some a day or two after Plaid's date, and prints its own descriptions), February rows are
only in the export, and the 03/11 ATM withdrawal only in Plaid. The closing balance equals the
balance Plaid reported after the 03/07 autopay (3079.83); earlier balances are computed back
from it, so the chain is exact. Deterministic: hand-written rows, no randomness.

Usage: python3 scripts/gen_demo_samples.py [output-file]
"""
import os
import sys
from decimal import Decimal

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Samples", "us", "first_platypus_checking.csv")
CLOSING = Decimal("3079.83")

# (posting date, description, amount (negative = money out), Chase "Type"), oldest first.
ROWS = [
    ("02/15/2024", "GUSTO PAY 240215 PPD ID: 9138864001", "2450.00", "ACH_CREDIT"),
    ("02/16/2024", "TRADER JOE S #123 OAKLAND CA 02/16", "-63.18", "DEBIT_CARD"),
    ("02/20/2024", "COMCAST CABLE COMM 800-266-2278 CA", "-79.99", "ACH_DEBIT"),
    ("02/23/2024", "SAFEWAY #1234 OAKLAND CA 02/23", "-41.27", "DEBIT_CARD"),
    ("02/27/2024", "ATM WITHDRAWAL 003402 02/27 5th AVE OAKLAND", "-40.00", "ATM"),
    # From here on Plaid reports the same transactions.
    ("03/01/2024", "GUSTO PAY 240301 PPD ID: 9138864001", "2450.00", "ACH_CREDIT"),
    ("03/01/2024", "Zelle payment to Dana Whitfield JPM99b8kq2fz", "-1800.00", "QUICKPAY_DEBIT"),
    ("03/04/2024", "PGANDE WEB ONLINE FEB 24 PPD ID: 9941234567", "-96.40", "ACH_DEBIT"),
    ("03/04/2024", "WHOLEFDS OAK 10234 OAKLAND CA 03/03", "-84.32", "DEBIT_CARD"),
    ("03/05/2024", "UBER 072515 SF**POOL** HELP.UBER.COM CA", "-21.45", "DEBIT_CARD"),
    ("03/05/2024", "BLUE BOTTLE COFFEE 0123 OAKLAND CA 03/05", "-5.75", "DEBIT_CARD"),
    ("03/05/2024", "BLUE BOTTLE COFFEE 0123 OAKLAND CA 03/05", "-5.75", "DEBIT_CARD"),
    ("03/06/2024", "SQ *TEMESCAL FARMERS MARKET OAKLAND CA", "-27.05", "DEBIT_CARD"),
    ("03/07/2024", "CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224", "-450.00", "ACH_DEBIT"),
]


def main():
    balance = CLOSING
    lines = []
    for date, desc, amount, kind in reversed(ROWS):  # newest first, as the bank exports
        details = "CREDIT" if Decimal(amount) > 0 else "DEBIT"
        lines.append(f'{details},{date},"{desc}",{Decimal(amount):.2f},{kind},{balance:.2f},,')
        balance -= Decimal(amount)
    os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
    with open(OUT, "w", newline="") as f:
        f.write("Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\r\n")
        f.write("\r\n".join(lines) + "\r\n")


if __name__ == "__main__":
    main()
