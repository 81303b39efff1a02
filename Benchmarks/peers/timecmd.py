#!/usr/bin/env python3
"""Runs a command once; prints one JSON line with its wall seconds, CPU seconds and peak RSS (MiB).

    python timecmd.py LABEL '{"extra": 1}' CMD ARG...

The command is started with posix_spawn and reaped with wait4, so the CPU seconds and the peak
are the command's own: `subprocess.run` forks this Python process first, and RUSAGE_CHILDREN
then also counted the fork's copy of the interpreter (about 0.046 CPU s and a 14 MiB peak for
`/bin/true`), which made every peer look slower and flattered our ratios against small ones.
The peak still has a floor of this interpreter's own RSS (about 13 MiB: the kernel keeps the
larger of the spawning and the spawned image's peaks).
"""
import json
import os
import sys
import time

label, extra, cmd = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
t0 = time.perf_counter()
pid = os.posix_spawnp(cmd[0], cmd, os.environ,
                      file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
code = os.waitstatus_to_exitcode(status)
if code != 0:
    sys.exit(f"timecmd: {cmd[0]} exited with {code}")
out = {"case": label, **extra, "total_s": wall, "total_cpu_s": ru.ru_utime + ru.ru_stime, "peak_mib": ru.ru_maxrss / 1024}
print(json.dumps(out))
