#!/usr/bin/env bash
# `moneyflow serve`'s Plaid side under hostile clients, on loopback only (issue #28, items 2, 3, 6):
# the offline Plaid test server plays Plaid (and signs genuine webhooks), a silent TCP server plays
# a Plaid that never answers. Bounded: about a minute. Not part of the default test run.
# Needs curl and python3.
#
#   bash scripts/hostile-load-plaid.sh
#
# Prints:
#   - calls to Plaid caused by 300 forged webhooks (each naming a new key id; target <= 5);
#   - syncs caused by 200 copies of one genuine webhook (target 1: the first; the copies are replays),
#     on a server that holds Plaid's key already (one genuine webhook is sent first);
#   - how long a request needing Plaid takes to fail when Plaid never answers (target <= 60 s);
#   - how long SIGTERM takes to end the server with a Plaid call in flight (target <= 15 s).
# Exit status 1 when a target is missed.
#
# Environment: FORGED (default 300), REPLAYS (default 200), PARALLEL (default 16), KEEP=1 keeps the data folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/lib/serve.sh
FORGED=${FORGED:-300}
REPLAYS=${REPLAYS:-200}
PARALLEL=${PARALLEL:-16}

swift build --product moneyflow >&2
swift build --product plaid-test-server >&2
mf="$ROOT/.build/debug/moneyflow"

begin_run hostile-load-plaid alice
# Plaid: the test server, driven over its --control stdin (sign a webhook, count requests).
coproc PLAID { exec "$ROOT/.build/debug/plaid-test-server" 0 --control 2>"$work/plaid.err"; }
plaid_pid=$PLAID_PID
read -r plaid_url <&"${PLAID[0]}"
read -r _ <&"${PLAID[0]}"
plaid_cmd() { echo "$*" >&"${PLAID[1]}"; local answer; read -r answer <&"${PLAID[0]}"; echo "$answer"; }

plaid_env=(PLAID_CLIENT_ID=test-client-id PLAID_SECRET=test-secret PLAID_ENV="$plaid_url"
    MONEYFLOW_KEY_FILE="$work/plaid.key" MONEYFLOW_PLAID_BACKOFF_MS=200)
start_serve hostile-load-plaid "${plaid_env[@]}"
auth="Authorization: Bearer $token"
failed=0

# An item in alice's ledger: a sandbox public token from "Plaid", exchanged through the server.
public_token=$(curl -sf -X POST "$plaid_url/sandbox/public_token/create" -H "Content-Type: application/json" \
    -H "Plaid-Version: 2020-09-14" -H "PLAID-CLIENT-ID: test-client-id" -H "PLAID-SECRET: test-secret" \
    -d '{"institution_id":"ins_109508","initial_products":["transactions"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["public_token"])')
item=$(curl -sf -X POST "$base/v1/plaid/exchange" -H "$auth" -H "Content-Type: application/json" \
    -d "{\"public_token\":\"$public_token\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["item_id"])')
curl -sf -o /dev/null -X POST "$base/v1/plaid/sync" -H "$auth" -H "Content-Type: application/json" -d '{}'

body="{\"webhook_type\":\"TRANSACTIONS\",\"webhook_code\":\"SYNC_UPDATES_AVAILABLE\",\"item_id\":\"$item\",\"environment\":\"sandbox\"}"
printf '%s' "$body" >"$work/webhook.json"
genuine=$(plaid_cmd sign "$(printf '%s' "$body" | base64 -w0)")
# A server that has run a while holds Plaid's current key: one genuine webhook (another body) first.
warm="{\"webhook_type\":\"TRANSACTIONS\",\"webhook_code\":\"DEFAULT_UPDATE\",\"item_id\":\"$item\",\"environment\":\"sandbox\"}"
curl -s -o /dev/null -X POST "$base/v1/plaid/webhook" -H "Content-Type: application/json" \
    -H "Plaid-Verification: $(plaid_cmd sign "$(printf '%s' "$warm" | base64 -w0)")" -d "$warm"

settle_syncs() {  # the count of sync calls once Plaid has heard nothing new for half a second (at most 20 s)
    local last=-1 now
    for _ in $(seq 1 40); do
        now=$(plaid_cmd count /transactions/sync)
        [ "$now" = "$last" ] && break
        last=$now
        sleep 0.5
    done
    echo "$last"
}
settle_syncs >/dev/null

# 1. Forged webhooks: a genuine JWT's claims (fresh iat, the body's digest) under a header naming
#    a new kid each time, so only a key from Plaid could tell them false.
python3 - "$genuine" "$FORGED" >"$work/forged.txt" <<'PY'
import base64, json, sys, uuid
genuine, n = sys.argv[1], int(sys.argv[2])
_, payload, signature = genuine.split(".")
for _ in range(n):
    header = base64.urlsafe_b64encode(json.dumps({"alg": "ES256", "kid": str(uuid.uuid4()), "typ": "JWT"}).encode()).decode().rstrip("=")
    print(f"{header}.{payload}.{signature}")
PY
keys_before=$(plaid_cmd count /webhook_verification_key/get)
xargs -P "$PARALLEL" -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST "$base/v1/plaid/webhook" \
    -H "Content-Type: application/json" -H "Plaid-Verification: {}" --data-binary "@$work/webhook.json" \
    <"$work/forged.txt" >"$work/forged-status.txt"
keys_after=$(plaid_cmd count /webhook_verification_key/get)
forged_calls=$((keys_after - keys_before))
echo "hostile-load-plaid: $FORGED forged webhooks -> $forged_calls calls to Plaid (answers: $(sort "$work/forged-status.txt" | uniq -c | awk '{printf "%s x %s  ", $1, $2}'))"
[ "$forged_calls" -le 5 ] || { echo "hostile-load-plaid: FAIL more than 5 calls to Plaid" >&2; failed=1; }

# 2. One genuine webhook delivered REPLAYS times (the first is the delivery, the rest replays).
syncs_before=$(plaid_cmd count /transactions/sync)
seq "$REPLAYS" | xargs -P "$PARALLEL" -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST "$base/v1/plaid/webhook" \
    -H "Content-Type: application/json" -H "Plaid-Verification: $genuine" --data-binary "@$work/webhook.json" \
    >"$work/replay-status.txt"
replay_syncs=$(($(settle_syncs) - syncs_before))
echo "hostile-load-plaid: $REPLAYS copies of one genuine webhook -> $replay_syncs syncs (the first copy is the delivery; answers: $(sort "$work/replay-status.txt" | uniq -c | awk '{printf "%s x %s  ", $1, $2}'))"
[ "$replay_syncs" -le 1 ] || { echo "hostile-load-plaid: FAIL replays caused syncs" >&2; failed=1; }
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

# 3. A Plaid that accepts connections and never answers.
python3 - >"$work/silent.port" <<'PY' &
import socket, sys, threading
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
def drain(c):
    while c.recv(4096): pass
while True:
    c, _ = s.accept(); held.append(c); threading.Thread(target=drain, args=(c,), daemon=True).start()
PY
loop_pid=$!
for _ in $(seq 1 50); do [ -s "$work/silent.port" ] && break; sleep 0.1; done
silent="http://127.0.0.1:$(cat "$work/silent.port")"

serve_silent() {  # moneyflow serve over $work/data2 with Plaid at the silent server; extra serve options in "$@"
    mkdir -p "$work/data2"
    token2=$("$mf" users add bob --data "$work/data2" 2>/dev/null | tail -n 1 || true)
    [ -n "$token2" ] || token2=$(cat "$work/data2.token")
    echo "$token2" >"$work/data2.token"
    : >"$work/serve2.out"
    env PLAID_CLIENT_ID=test-client-id PLAID_SECRET=test-secret PLAID_ENV="$silent" MONEYFLOW_KEY_FILE="$work/plaid2.key" \
        "$mf" serve --listen 127.0.0.1:0 --data "$work/data2" "$@" >"$work/serve2.out" 2>"$work/serve2.err" &
    server_pid=$!
    port2=""
    for _ in $(seq 1 100); do
        port2=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve2.out" | head -n 1)
        [ -n "$port2" ] && break
        sleep 0.1
    done
    [ -n "$port2" ] || { cat "$work/serve2.err" >&2; echo "hostile-load-plaid: the server did not start" >&2; exit 1; }
    base2="http://127.0.0.1:$port2"
}

serve_silent  # the default --plaid-timeout
t0=$(date +%s.%N)
status=$(curl -s -o "$work/unreachable.json" -w '%{http_code}' --max-time 600 -X POST "$base2/v1/plaid/link-token" \
    -H "Authorization: Bearer $token2" -H "Content-Type: application/json" -d '{}')
fail_s=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
echo "hostile-load-plaid: Plaid never answers -> the request failed with $status after $fail_s s ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["code"])' "$work/unreachable.json" 2>/dev/null || echo '?'))"
python3 -c "import sys; sys.exit(0 if $fail_s <= 60 else 1)" || { echo "hostile-load-plaid: FAIL over 60 s" >&2; failed=1; }
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

serve_silent --plaid-timeout 5m  # a call that would wait minutes
curl -s -o /dev/null --max-time 600 -X POST "$base2/v1/plaid/link-token" -H "Authorization: Bearer $token2" \
    -H "Content-Type: application/json" -d '{}' &
pending=$!
sleep 1
t0=$(date +%s.%N)
kill -TERM "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
stop_s=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
wait "$pending" 2>/dev/null || true
echo "hostile-load-plaid: SIGTERM with a Plaid call in flight -> exited after $stop_s s"
python3 -c "import sys; sys.exit(0 if $stop_s <= 15 else 1)" || { echo "hostile-load-plaid: FAIL over 15 s" >&2; failed=1; }

exec {PLAID[1]}>&-
exit "$failed"
