#!/usr/bin/env python3
"""beangulp's duplicate detection (beangulp.similar.find_similar_entries) on the benchmark data:
the bank statement side (statement.beancount) against the Plaid side (plaid.beancount), both
written by `moneyflow-bench gen`. Scored against truth.tsv / plaid_groups.tsv like MoneyFlow's
links (a link to an identical same-day twin of the true partner counts as correct).

    python beangulp_similar.py DATA_DIR [--window-days 4] [--epsilon 0.05]

The comparator is beangulp's heuristic_comparator with max_date_delta = window (default 4 days,
MoneyFlow's date window; beangulp's own default window is 2) and its default 5 % amount epsilon.
Prints one JSON line.
"""
import datetime
from decimal import Decimal
import json
import resource
import sys
import time

from beancount.core import data
from beancount.parser import parser
from beangulp import similar


def load(path):
    entries, errors, _ = parser.parse_file(path)
    return data.sorted([e for e in entries if isinstance(e, data.Transaction)])


def main():
    d = sys.argv[1]
    window = int(sys.argv[sys.argv.index("--window-days") + 1]) if "--window-days" in sys.argv else 4
    epsilon = sys.argv[sys.argv.index("--epsilon") + 1] if "--epsilon" in sys.argv else None
    t0 = time.perf_counter()
    stmt = load(d + "/statement.beancount")
    plaid = load(d + "/plaid.beancount")
    parse_s = time.perf_counter() - t0
    group_of_row, partner_of_row, ident_of_row, ident_of_plaid = {}, {}, {}, {}
    with open(d + "/truth.tsv") as f:
        next(f)
        for line in f:
            row, _, _, group, pidx, _, ident = line.rstrip("\n").split("\t")
            group_of_row[int(row)] = int(group)
            ident_of_row[int(row)] = ident
            partner_of_row[int(row)] = int(pidx)
    group_of_plaid = {}
    with open(d + "/plaid_groups.tsv") as f:
        next(f)
        for line in f:
            j, _, group, ident = line.rstrip("\n").split("\t")
            group_of_plaid[int(j)] = int(group)
            ident_of_plaid[int(j)] = ident

    cmp = similar.heuristic_comparator(max_date_delta=datetime.timedelta(days=window),
                                       epsilon=Decimal(epsilon) if epsilon else None)
    t1 = time.perf_counter()
    c1 = time.process_time()
    pairs = similar.find_similar_entries(stmt, plaid, cmp, window_days=window)
    match_s = time.perf_counter() - t1
    match_cpu = time.process_time() - c1

    correct = wrong = 0
    linked = set()
    for e, ex in pairs:
        row = int(e.meta["row"])
        linked.add(row)
        j = int(ex.meta["plaid_index"])
        if group_of_plaid[j] == group_of_row[row] or ident_of_plaid[j] == ident_of_row[row]:
            correct += 1
        else:
            wrong += 1
    missed = sum(1 for r, p in partner_of_row.items() if p >= 0 and r not in linked)
    new_correct = sum(1 for r, p in partner_of_row.items() if p < 0 and r not in linked)
    print(json.dumps({
        "case": "beangulp", "n": int(d.rstrip("/").rsplit("-", 1)[-1]), "n_statement": len(stmt), "n_plaid": len(plaid), "window_days": window, "epsilon": epsilon or "0.05 (default)",
        "parse_s": parse_s, "plan_s": match_s, "plan_cpu_s": match_cpu,
        "links_correct": correct, "links_wrong": wrong, "missed": missed, "new_correct": new_correct,
        "linkable": sum(1 for p in partner_of_row.values() if p >= 0),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    main()
