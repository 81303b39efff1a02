#!/usr/bin/env python3
"""Estimates a case's seconds at size N from the two largest sizes already measured (t ~ N^k).

    python estimate.py RESULTS.jsonl CASE SIZE_KEY TIME_KEY[,TIME_KEY...] N    -> seconds (0 = unknown)
"""
import json
import math
import statistics
import sys

path, case, size_key, time_keys, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(","), int(sys.argv[5])
by = {}
for line in open(path):
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    if r.get("case") != case or size_key not in r:
        continue
    if all(isinstance(r.get(k), (int, float)) for k in time_keys):
        by.setdefault(r[size_key], []).append(sum(r[k] for k in time_keys))
pts = sorted((s, statistics.median(v)) for s, v in by.items() if s < n)
if len(pts) < 2:
    print(0)
else:
    (n1, t1), (n2, t2) = pts[-2], pts[-1]
    k = max(1.0, math.log(t2 / t1) / math.log(n2 / n1)) if t1 > 0 and t2 > 0 else 1.0
    print(int(t2 * (n / n2) ** k))
