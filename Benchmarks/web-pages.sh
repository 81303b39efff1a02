#!/usr/bin/env bash
# The web app's pages on a ledger of N transactions: the server time of each page (the request
# log's own timing: from the request's arrival to the response's head), median and max of R
# requests, on a real `moneyflow serve` on 127.0.0.1. Prints a Markdown table (BENCHMARKS.md,
# "Web app pages").
#
#   swift build -c release --product moneyflow && bash Benchmarks/web-pages.sh [N]
#
# Environment: R (requests per page, default 20), MONEYFLOW (the binary, default the release build),
# PORT (default 18790). The ledger: one checking account, N rows over 24 months of a Chase CSV,
# imported through POST /v1/imports (the data folder is temporary and removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
R=${R:-20}
PORT=${PORT:-18790}
mf=${MONEYFLOW:-.build/release/moneyflow}
dir=$(mktemp -d /tmp/moneyflow-web-bench.XXXXXX)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
base="http://127.0.0.1:$PORT"

python3 - "$N" "$dir/big.csv" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
merchants = ["STARBUCKS STORE", "WHOLE FOODS", "SHELL OIL", "AMAZON MKTPLACE", "UBER TRIP", "NETFLIX.COM",
             "TRADER JOE'S", "COSTCO WHSE", "CHIPOTLE", "PAYROLL ACME", "ZELLE FROM KIM", "CITY WATER"]
balance = 1_000_000  # cents
rows = []
for i in range(n):
    month, day = divmod(i * 24 * 28 // n, 28)
    y, m = 2024 + month // 12, month % 12 + 1
    name = rng.choice(merchants)
    cents = rng.randint(200, 250000) if name.startswith(("PAYROLL", "ZELLE")) else -rng.randint(150, 30000)
    balance += cents
    kind = "CREDIT" if cents > 0 else "DEBIT"
    rows.append(f'{kind},{m:02d}/{day + 1:02d}/{y},"{name} #{i}",{cents / 100:.2f},{kind}_CARD,{balance / 100:.2f},,')
rows.reverse()  # Chase lists newest first
with open(path, "w") as f:
    f.write("Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n" + "\n".join(rows) + "\n")
PY

token=$("$mf" users add bench --data "$dir/data" | tail -1)
"$mf" serve --listen "127.0.0.1:$PORT" --data "$dir/data" --max-body-mib 256 2> "$dir/serve.log" &
pid=$!
for _ in $(seq 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.2; done
curl -sf -X POST -H "Authorization: Bearer $token" --data-binary @"$dir/big.csv" \
  "$base/v1/imports?filename=big.csv&account=Bench%20Checking" -o /dev/null
id=$(curl -sf -H "Authorization: Bearer $token" "$base/v1/transactions?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["transactions"][0]["id"])')
cookie=$(curl -s -D - -o /dev/null -X POST --data-urlencode "password=$token" "$base/signin" | sed -n 's/^Set-Cookie: \(mf_session=[^;]*\).*/\1/p')
# Warm: the first read opens the ledger.
curl -sf -H "Cookie: $cookie" "$base/" -o /dev/null
# Only what follows is measured (the warm-up's log line may come a moment later).
sleep 0.5
offset=$(stat -c %s "$dir/serve.log")
pages=("/" "/transactions" "/transactions?q=coffee" "/transactions/$id" "/sort" "/review" "/import" "/connect")
for page in "${pages[@]}"; do
  for _ in $(seq "$R"); do curl -sf -H "Cookie: $cookie" "$base$page" -o /dev/null; done
done
# The first home view after a write: each time one transaction gets a category through the
# API (a batch of its own, as `moneyflow categorize`), so the page cannot use what it kept.
for i in $(seq "$R"); do
  curl -sf -X PATCH -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
    --data "{\"category\": \"Expenses:Bench:C$i\"}" "$base/v1/transactions/$id" -o /dev/null
  curl -sf -H "Cookie: $cookie" "$base/" -o /dev/null
done
count=$(curl -sf -H "Authorization: Bearer $token" "$base/v1/accounts" >/dev/null && echo "$N")
python3 - "$dir/serve.log" "$offset" "$R" "$count" "${pages[@]}" "/ (first view after a write)" <<'PY'
import re, statistics, sys
log, offset, r, n, pages = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
text = open(log, "rb").read()[offset:].decode("utf-8", "replace")
times = [float(m.group(1)) for m in re.finditer(r"GET /(?!v1/)\S* 200 ([0-9.]+) ms", text)]
assert len(times) == r * len(pages), f"{len(times)} page views logged, expected {r * len(pages)}"
print(f"| page ({n} transactions) | median ms | max ms |")
print("|---|---|---|")
for i, page in enumerate(pages):
    t = times[i * r:(i + 1) * r]
    shown = re.sub(r"/transactions/\d+", "/transactions/ID", page)
    shown = f"`{shown}`" if page.startswith("/") and " " not in page else f"`/` {page[2:]}"
    print(f"| {shown} | {statistics.median(t):.1f} | {max(t):.1f} |")
PY
