#!/usr/bin/env python3
"""Runs a command once; prints one JSON line with its wall seconds and peak RSS (MiB).

    python timecmd.py LABEL '{"extra": 1}' CMD ARG...
"""
import json
import resource
import subprocess
import sys
import time

label, extra, cmd = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
t0 = time.perf_counter()
subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
out = {"case": label, **extra, "total_s": wall, "total_cpu_s": ru.ru_utime + ru.ru_stime, "peak_mib": ru.ru_maxrss / 1024}
print(json.dumps(out))
