#!/usr/bin/env bash
# Property-based fuzzing of `moneyflow serve`, driven by its OpenAPI document (schemathesis).
# Not part of the default test run (dev only: it needs PyPI for schemathesis).
#
#   bash scripts/api-fuzz.sh                  # 50 examples per operation, then a summary
#   EXAMPLES=200 SEED=7 bash scripts/api-fuzz.sh
#
# It builds moneyflow, starts `moneyflow serve` on a free loopback port with a fresh data folder,
# creates a user (`moneyflow users add fuzz`: the token is the last stdout line), imports the
# demo's CMB web-banking CSV so the ledger has rows, then runs schemathesis against
# http://127.0.0.1:PORT/openapi.json with the bearer token, checking that no response is a 5xx
# (`not_a_server_error`) and every response body fits the document (`response_schema_conformance`).
# The Plaid routes talk to the offline Plaid test server (`plaid-test-server 0`, built here too),
# so they run for real instead of answering 503 plaid_not_configured. Exit status: schemathesis's
# (0 = no failure).
# Prints the number of HTTP requests sent (from schemathesis's HAR report).
#
# Environment: EXAMPLES (max examples per operation, default 50), SEED (default 1), MAX_TIME
# (seconds, default 600), VENV (default .build/api-fuzz-venv), KEEP=1 keeps the data folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/lib/serve.sh
EXAMPLES=${EXAMPLES:-50}
SEED=${SEED:-1}
MAX_TIME=${MAX_TIME:-600}
VENV=${VENV:-$ROOT/.build/api-fuzz-venv}

if [ ! -x "$VENV/bin/schemathesis" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet schemathesis
fi

swift build --product moneyflow >&2
swift build --product plaid-test-server >&2
mf="$ROOT/.build/debug/moneyflow"

begin_run api-fuzz fuzz

# The offline Plaid test server prints its URL as its first line.
"$ROOT/.build/debug/plaid-test-server" 0 >"$work/plaid.out" 2>"$work/plaid.err" &
plaid_pid=$!
plaid_url=""
for _ in $(seq 1 100); do
    plaid_url=$(head -n 1 "$work/plaid.out" | grep '^http' || true)
    [ -n "$plaid_url" ] && break
    sleep 0.1
done
[ -n "$plaid_url" ] || { cat "$work/plaid.err" >&2; echo "api-fuzz: the Plaid test server did not start" >&2; exit 1; }

# Port 0: the server picks a free port and prints it ("listening on http://127.0.0.1:PORT ...").
start_serve api-fuzz PLAID_CLIENT_ID=test-client-id PLAID_SECRET=test-secret PLAID_ENV="$plaid_url" \
    MONEYFLOW_KEY_FILE="$work/plaid.key"
curl -fsS "$base/healthz" >/dev/null

# Some rows, batches and accounts, so list routes return real objects and ids exist.
curl -fsS -o /dev/null -X POST -H "Authorization: Bearer $token" -H "Content-Type: application/octet-stream" \
    --data-binary @Samples/cmb/cmb_pc_utf8bom.csv \
    "$base/v1/imports?filename=cmb_pc_utf8bom.csv"

set +e
# Run from the temp folder: schemathesis keeps state in ./.schemathesis, which must not land in the repo.
(cd "$work" && "$VENV/bin/schemathesis" run "$base/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples "$EXAMPLES" --seed "$SEED" --max-time "$MAX_TIME" --workers 1 \
    --generation-database none --no-color \
    --report har --report-har-path "$work/requests.har")
status=$?
set -e

requests=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["log"]["entries"]))' "$work/requests.har" 2>/dev/null || echo "?")
echo "api-fuzz: $requests requests (seed $SEED, at most $EXAMPLES examples per operation); schemathesis exit $status"
exit $status
