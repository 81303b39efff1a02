#!/usr/bin/env python3
"""Python's csv module reading a bank CSV (every row, every field), the peer of `moneyflow-bench csv-read`.

    python csv_read.py FILE

Prints one JSON line: rows (after the header), read seconds and CPU seconds (inside the interpreter, so its
start-up is not counted) and rows/s.
"""
import csv
import json
import sys
import time

path = sys.argv[1]
t0, c0 = time.perf_counter(), time.process_time()
with open(path, newline="", encoding="utf-8") as f:
    rows = sum(1 for _ in csv.reader(f)) - 1
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"case": "csv-read-python", "rows": rows, "read_s": wall, "read_cpu_s": cpu, "rows_per_s": rows / wall}))
