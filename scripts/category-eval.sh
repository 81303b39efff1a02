#!/usr/bin/env bash
# The categories accuracy report (issue 27): generates the CMB year with its ground truth, builds
# Benchmarks' `category-eval` (release), teaches on the first half, measures the second, times
# 100,000 transactions, and writes the "Categories" section of BENCHMARKS.md.
#
#   bash scripts/category-eval.sh            # SEED (default 27), N (default 100000)
#
# Results: Benchmarks/.build-bench/category-eval/ (cmb_year.tsv, result.json).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SEED=${SEED:-27}
N=${N:-100000}
DATA=$ROOT/Benchmarks/.build-bench/category-eval
mkdir -p "$DATA"
python3 "$ROOT/scripts/gen_category_eval.py" --out "$DATA" --seed "$SEED" >&2
(cd "$ROOT/Benchmarks" && swift build -c release --scratch-path .build-bench --product category-eval >&2)
BIN=$(cd "$ROOT/Benchmarks" && swift build -c release --scratch-path .build-bench --show-bin-path)/category-eval
"$BIN" --data "$DATA/cmb_year.tsv" --n "$N" > "$DATA/result.json"
python3 "$ROOT/Benchmarks/report_categories.py" "$ROOT/BENCHMARKS.md" --results "$DATA/result.json"
python3 - "$DATA/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t, nv = r["taught_shops"], r["never_taught_shops"]
print(f"taught merchants: {t['learned']}/{t['rows']} covered, {t['learned_correct']}/{t['learned']} correct; "
      f"never taught: {nv['learned']}/{nv['rows']} learned; {r['n']:,} in {r['categorize_seconds']:.3g} s wall "
      f"({r['categorize_cpu_seconds']:.3g} s CPU)")
PY
echo "== wrote $ROOT/BENCHMARKS.md (Categories section)" >&2
