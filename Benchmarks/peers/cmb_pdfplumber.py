#!/usr/bin/env python3
"""The pdfplumber way of reading a CMB 招商银行交易流水 PDF (what public CMB parsers do):
extract_words() per page, find the column header, start a row at every date in the first column,
and attach wrapped cell lines to the nearest row. Prints one JSON line: rows, pages, seconds, peak RSS.

    python cmb_pdfplumber.py STATEMENT.pdf [--expected X.expected.json]
"""
import json
import re
import resource
import sys
import time

import pdfplumber

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
HEADERS = ["记账日期", "货币", "交易金额", "联机余额", "交易摘要", "对手信息", "客户摘要"]
FIELDS = ["date", "currency", "amount", "balance", "description", "counterparty", "note"]


def parse(path):
    rows = []
    with pdfplumber.open(path) as pdf:
        npages = len(pdf.pages)
        cols = None
        for page in pdf.pages:
            words = page.extract_words(keep_blank_chars=False, use_text_flow=False)
            head = {w["text"]: w for w in words if w["text"] in HEADERS}
            if len(head) == len(HEADERS):
                cols = [head[h]["x0"] - 2 for h in HEADERS]
                body_top = max(w["bottom"] for w in head.values()) + 18   # below the English header line
            elif cols is None:
                continue
            else:
                body_top = 0
            starts = []   # (top, row dict)
            cells = []
            for w in words:
                if w["top"] < body_top:
                    continue
                col = max(i for i, x in enumerate(cols) if w["x0"] >= x) if w["x0"] >= cols[0] else 0
                if col == 0 and DATE.match(w["text"]):
                    r = {f: "" for f in FIELDS}
                    r["date"] = w["text"]
                    starts.append((w["top"], r))
                else:
                    cells.append((w["top"], col, w["text"]))
            if not starts:
                continue
            tops = [t for t, _ in starts]
            for top, col, text in cells:
                # nearest row start (wrapped cells sit above and below their row's baseline)
                i = min(range(len(tops)), key=lambda k: abs(tops[k] - top))
                if abs(tops[i] - top) > 30:
                    continue   # footer / totals
                r = starts[i][1]
                r[FIELDS[col]] += text
            rows.extend(r for _, r in starts)
    for r in rows:
        for f in ("amount", "balance"):
            r[f] = r[f].replace(",", "")
    return rows, npages


def main():
    path = sys.argv[1]
    t0 = time.perf_counter()
    c0 = time.process_time()
    rows, npages = parse(path)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    out = {"case": "cmb-pdfplumber", "file": path.rsplit("/", 1)[-1], "rows": len(rows), "pages": npages,
           "total_s": wall, "total_cpu_s": cpu,
           "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    if "--expected" in sys.argv:
        exp = json.load(open(sys.argv[sys.argv.index("--expected") + 1]))["transactions"]
        ok = sum(1 for a, b in zip(rows, exp) if a["date"] == b["date"] and a["amount"] == b["amount"] and a["balance"] == b["balance"])
        out["rows_expected"] = len(exp)
        out["rows_matching_expected"] = ok
    print(json.dumps(out))


if __name__ == "__main__":
    main()
