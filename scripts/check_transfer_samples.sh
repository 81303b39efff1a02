#!/usr/bin/env bash
# Checks Samples/transfers/ (issue 18, item 2) with the real binary, before transfers exist:
#   1. the generator reproduces the committed files byte for byte (scripts/gen_transfer_samples.py);
#   2. every file of every scenario imports into a fresh SQLite store with no error and no
#      warning (--strict), in the scenario's order and in the reverse order;
#   3. each LEG of expected_transfers.json (transfers, review, not_transfers) is exactly one
#      transaction of `moneyflow transactions --format json` (its source file, date, amount,
#      currency and description), and both import orders give the same transactions.
# Usage: bash scripts/check_transfer_samples.sh [SCENARIO_DIR...]
# The binary is $MONEYFLOW_BIN when set, else .build/debug/moneyflow (built here with
# `swift build --product moneyflow`). Exit 0 when everything holds, 1 otherwise.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
if [[ -n "${MONEYFLOW_BIN:-}" ]]; then
  mf="$MONEYFLOW_BIN"
else
  (cd "$repo" && swift build --product moneyflow >&2)
  mf="$repo/.build/debug/moneyflow"
fi
[[ -x "$mf" ]] || { echo "check_transfer_samples: no moneyflow binary at $mf (set MONEYFLOW_BIN or run swift build --product moneyflow)" >&2; exit 1; }
mf="$(cd "$(dirname "$mf")" && pwd)/$(basename "$mf")"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. determinism / up to date
if [[ $# -eq 0 ]]; then
  python3 "$repo/scripts/gen_transfer_samples.py" --out "$tmp/regen" >/dev/null
  if diff -r "$repo/Samples/transfers" "$tmp/regen" --exclude README.md -q; then
    echo "ok   generator reproduces Samples/transfers byte for byte"
  else
    echo "FAIL Samples/transfers differs from scripts/gen_transfer_samples.py output" ; fail=1
  fi
  set -- "$repo"/Samples/transfers/*/
fi

for dir in "$@"; do
  dir="${dir%/}"
  name="$(basename "$dir")"
  exp="$dir/expected_transfers.json"
  for order in forward reverse; do
    store="$tmp/$name.$order.sqlite"
    # one line per file: the file, then its extra arguments, tab-separated
    mapfile -t lines < <(python3 - "$exp" "$order" <<'PY'
import json, sys
imports = json.load(open(sys.argv[1], encoding="utf-8"))["imports"]
if sys.argv[2] == "reverse":
    imports = imports[::-1]
for i in imports:
    print("\t".join([i["file"]] + i["args"]))
PY
)
    for line in "${lines[@]}"; do
      IFS=$'\t' read -r -a argv <<<"$line"
      file="${argv[0]}"
      out="$tmp/$name.$order.import.json"
      if ! (cd "$dir" && "$mf" import --store "$store" --strict --json "$file" "${argv[@]:1}") >"$out" 2>"$tmp/err"; then
        echo "FAIL $name ($order): import of $file exited non-zero: $(head -c 400 "$tmp/err")"; fail=1; continue
      fi
      python3 - "$out" "$name" "$order" "$file" <<'PY' || fail=1
import json, sys
res, name, order, file = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
res = res if isinstance(res, list) else [res]
bad = [r for r in res if r.get("status") == "failed" or r.get("error") or r.get("warnings", 0)]
if bad:
    print(f"FAIL {name} ({order}): {file}: {json.dumps(bad, ensure_ascii=False)[:400]}")
    sys.exit(1)
PY
    done
    "$mf" transactions --store "$store" --format json >"$tmp/$name.$order.tx.json"
  done
  python3 - "$exp" "$tmp/$name.forward.tx.json" "$tmp/$name.reverse.tx.json" "$name" <<'PY' || fail=1
import json, sys
from collections import Counter
exp = json.load(open(sys.argv[1], encoding="utf-8"))
fwd = json.load(open(sys.argv[2], encoding="utf-8"))
rev = json.load(open(sys.argv[3], encoding="utf-8"))
name = sys.argv[4]
ok = True

def legs():
    for p in exp["transfers"]:
        yield "transfers.out", p["out"]; yield "transfers.in", p["in"]
    for p in exp["review"]:
        yield "review.out", p["out"]; yield "review.in", p["in"]
    for l in exp["not_transfers"]:
        yield "not_transfers", l

def hits(txs, leg):
    return [t for t in txs
            if t["date"] == leg["date"] and t["amount"] == leg["amount"] and t["currency"] == leg["currency"]
            and t["description"] == leg["description"]
            and any(s.get("file") == leg["file"] for s in t.get("sources", []))]

seen = {}
n = 0
for role, leg in legs():
    n += 1
    for label, txs in (("forward", fwd), ("reverse", rev)):
        h = hits(txs, leg)
        if len(h) != 1:
            ok = False
            print(f"FAIL {name} ({label}): {role} LEG matches {len(h)} transactions: {json.dumps(leg, ensure_ascii=False)}")
        elif label == "forward":
            tid = h[0]["id"]
            if tid in seen:
                ok = False
                print(f"FAIL {name}: {role} and {seen[tid]} name the same transaction {tid}")
            seen[tid] = role
# the two legs of a pair are in different accounts
for kind in ("transfers", "review"):
    for p in exp[kind]:
        a = [hits(fwd, p[k])[0]["account"] for k in ("out", "in") if len(hits(fwd, p[k])) == 1]
        if len(a) == 2 and a[0] == a[1]:
            ok = False
            print(f"FAIL {name}: {kind} pair inside one account {a[0]}: {json.dumps(p, ensure_ascii=False)}")
        if not p["out"]["amount"].startswith("-") or p["in"]["amount"].startswith("-"):
            ok = False
            print(f"FAIL {name}: {kind} pair must be an outflow and an inflow: {json.dumps(p, ensure_ascii=False)}")

def key(t):
    return (t["account"], t["date"], t["amount"], t["currency"], t["description"], t.get("counterparty"), t.get("note"))
if Counter(map(key, fwd)) != Counter(map(key, rev)):
    ok = False
    print(f"FAIL {name}: importing in reverse order gives other transactions "
          f"({len(fwd)} forward, {len(rev)} reverse)")
accounts = sorted({t["account"] for t in fwd})
if ok:
    print(f"ok   {name}: {len(exp['imports'])} files, {len(fwd)} transactions in {len(accounts)} accounts "
          f"({', '.join(accounts)}); {len(exp['transfers'])} transfers, {len(exp['review'])} review, "
          f"{len(exp['not_transfers'])} not_transfers: all {n} LEGs found once, both orders")
sys.exit(0 if ok else 1)
PY
done
exit $fail
