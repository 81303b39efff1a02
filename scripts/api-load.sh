#!/usr/bin/env bash
# A bounded load run of `moneyflow serve` on loopback: wrk reads GET /v1/transactions while a
# loop imports the demo's files over HTTP (POST /v1/imports) again and again. Not part of the
# default test run. Needs wrk (apt install wrk), curl, sqlite3, python3.
#
#   bash scripts/api-load.sh                         # 30 s, 2 threads, 16 connections
#   DURATION=60 CONNECTIONS=64 bash scripts/api-load.sh
#
# Prints requests/s and the p99 latency of the reads (wrk --latency), how many imports ran and
# how they answered, then checks the ledger the server built: `PRAGMA integrity_check` is ok,
# paging /v1/transactions by cursor returns every transaction exactly once, and the ledger
# equals what the CLI builds from the same files in the same order (`moneyflow import Samples/`
# with the demo manifest): nothing lost, nothing duplicated by the repeated imports.
# Exit status 1 when a check fails.
#
# Environment: DURATION (seconds, default 30), THREADS (default 2), CONNECTIONS (default 16),
# LIMIT (page size of the reads, default 100), KEEP=1 keeps the data folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/lib/serve.sh
DURATION=${DURATION:-30}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
LIMIT=${LIMIT:-100}
command -v wrk >/dev/null || { echo "api-load: needs wrk (apt install wrk)" >&2; exit 1; }

swift build --product moneyflow >&2
mf="$ROOT/.build/debug/moneyflow"

begin_run api-load load
start_serve api-load
auth="Authorization: Bearer $token"

# The demo's files in the manifest's order (Samples/moneyflow.toml): path|account|password file.
files=(
    "cmb/cmb2024_q1.aes256.zip||cmb/passwords/cmb2024_q1.txt"
    "cmb/cmb2024_q2overlap.aes256.zip||cmb/passwords/cmb2024_q2overlap.txt"
    "cmb/cmb_pc_utf8bom.csv||"
    "demo_wallets/alipay_2026Q1Q2.csv||"
    "demo_wallets/wechat_2026Q1Q2.xlsx||"
)
for p in Samples/plaid/full_period/page*.json; do files+=("${p#Samples/}||"); done
files+=("us/first_platypus_checking.csv|Plaid Checking 0000|")

urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1" 2>/dev/null; }

# The import loop: every file in order, again and again, until wrk is done; one line per answer.
import_loop() {
    # Whole passes only: the loop stops between passes once "$work/stop" exists, so the ledger
    # always holds every file (and the comparison with the CLI holds for any DURATION).
    while [ ! -e "$work/stop" ]; do
        for entry in "${files[@]}"; do
            IFS='|' read -r path account pwfile <<<"$entry"
            # Percent-encoded (a space is %20: '+' is a literal plus in a URL query); the file's bytes are the body.
            query="filename=$(urlencode "$(basename "$path")")"
            if [ -n "$account" ]; then query+="&account=$(urlencode "$account")"; fi
            # --retry: an upload refused with 429 (the user's requests in flight are at their bound,
            # e.g. with CONNECTIONS=64) is sent again after its Retry-After, as a client should.
            args=(-s --retry 10 -o /dev/null -w '%{http_code}\n' -X POST -H "$auth" -H "Content-Type: application/octet-stream"
                --data-binary "@Samples/$path")
            if [ -n "$pwfile" ]; then args+=(-H "X-MoneyFlow-Password: $(tr -d '\r\n' <"Samples/$pwfile")"); fi
            curl "${args[@]}" "$base/v1/imports?$query" >>"$work/imports.txt" || echo "curl-failed" >>"$work/imports.txt"
        done
    done
}
import_loop &
loop_pid=$!

wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "$auth" "$base/v1/transactions?limit=$LIMIT" | tee "$work/wrk.txt"
touch "$work/stop"
wait "$loop_pid" 2>/dev/null || true
loop_pid=""

rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' "$work/wrk.txt")
echo "api-load: reads: ${rps:-?} requests/s, p99 ${p99:-?}, non-2xx ${non2xx:-0} ($THREADS threads, $CONNECTIONS connections, ${DURATION}s)"
echo "api-load: imports: $(sort "$work/imports.txt" | uniq -c | awk '{printf "%s x %s  ", $1, $2}')"

# Page through the served ledger by cursor.
python3 - "$base" "$token" >"$work/served.json" <<'PY'
import json, sys, urllib.request, urllib.parse
base, token = sys.argv[1], sys.argv[2]
out, cursor = [], None
while True:
    q = {"limit": "1000"} | ({"cursor": cursor} if cursor else {})
    req = urllib.request.Request(f"{base}/v1/transactions?{urllib.parse.urlencode(q)}", headers={"Authorization": f"Bearer {token}"})
    page = json.load(urllib.request.urlopen(req))
    out += page["transactions"]
    cursor = page["next_cursor"]
    if cursor is None: break
json.dump(out, sys.stdout)
PY

kill -TERM "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""

# The user's ledger: the SQLite file under --data that holds import batches (not users.sqlite).
ledger=""
while IFS= read -r f; do
    if sqlite3 "$f" "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'batch'" 2>/dev/null | grep -q 1; then ledger=$f; fi
done < <(find "$work/data" -name '*.sqlite')
[ -n "$ledger" ] || { echo "api-load: no ledger under $work/data" >&2; exit 1; }
integrity=$(sqlite3 "$ledger" "PRAGMA integrity_check")

"$mf" import Samples/ --store "$work/cli.sqlite" >/dev/null
"$mf" transactions --format json --store "$work/cli.sqlite" >"$work/cli.json"
"$mf" transactions --format json --store "$ledger" >"$work/ledger.json"

python3 - "$work/served.json" "$work/ledger.json" "$work/cli.json" "$integrity" <<'PY'
import collections, json, sys
served, ledger, cli = (json.load(open(p)) for p in sys.argv[1:4])
integrity = sys.argv[4]
def key(t):  # a transaction without its ids: what it is and what supports it
    return (t["account"], t["date"], t["amount"], t["currency"], t["description"], t["balance"], t["pending"],
            tuple(sorted((s["kind"], s["external_id"], s["file"], s["line"], s["page"], s["row"]) for s in t["sources"])))
ids = [t["id"] for t in served]
sources = collections.Counter((s["kind"], s["external_id"], s["file"], s["line"], s["page"], s["row"]) for t in ledger for s in t["sources"])
checks = {
    "PRAGMA integrity_check is ok": integrity == "ok",
    "paging returns every transaction once": len(ids) == len(set(ids)) and sorted(ids) == sorted(t["id"] for t in ledger),
    "no source record twice": all(n == 1 for n in sources.values()),
    "the ledger equals the CLI's from the same files": collections.Counter(map(key, ledger)) == collections.Counter(map(key, cli)),
}
print(f"api-load: ledger {len(ledger)} transactions (CLI {len(cli)}), paged {len(served)}")
for name, ok in checks.items(): print(f"api-load: {'ok  ' if ok else 'FAIL'} {name}")
sys.exit(0 if all(checks.values()) else 1)
PY
