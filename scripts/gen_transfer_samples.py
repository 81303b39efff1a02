#!/usr/bin/env python3
"""Generate the transfer scenarios in Samples/transfers/ (issue 18, item 2).

    python3 scripts/gen_transfer_samples.py            # writes Samples/transfers/
    python3 scripts/gen_transfer_samples.py --out DIR

Each scenario folder holds statement files of several accounts of ONE person and
expected_transfers.json: which rows are transfers between those accounts, which must go to
review, which look alike but are not transfers, and how to import the files (see
Samples/transfers/README.md). Deterministic (fixed seeds, reportlab invariant mode): two runs
write byte-identical files. All names, numbers and amounts are invented.

The files are drawn with the existing sample writers (imported, not copied):
scripts/gen_cmb_samples.py's cmbgen (CMB debit 交易流水 PDF), scripts/gen_cmb_card_samples.py
(CMB credit-card bill PDF), scripts/gen_csv_samples.py (Chase checking CSV),
scripts/gen_ofx_samples.py (OFX 1.02) and scripts/gen_plaid_samples.py (/transactions/sync pages).
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from transfergen.cmb import scenario_a, scenario_c   # noqa: E402
from transfergen.us import scenario_b                 # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "Samples", "transfers"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    scenario_a(a.out)
    scenario_b(a.out)
    scenario_c(a.out)
    print(f"wrote cmb_quarter, us_quarter, cross_currency to {a.out}")


if __name__ == "__main__":
    main()
