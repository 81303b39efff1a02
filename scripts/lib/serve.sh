# Shared by scripts/api-fuzz.sh and scripts/api-load.sh (sourced): start `moneyflow serve` on a
# free loopback port over "$work/data" and wait for its "listening on" line.
#
#   start_serve SCRIPT-NAME [VAR=value ...]    # sets server_pid and base (http://127.0.0.1:PORT)
#
# Needs $mf (the moneyflow binary) and $work (the script's temporary folder).
start_serve() {
    local name=$1
    shift
    env "$@" "$mf" serve --listen 127.0.0.1:0 --data "$work/data" >"$work/serve.out" 2>"$work/serve.err" &
    server_pid=$!
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/serve.out" | head -n 1)
        [ -n "$port" ] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "$name: the server did not start" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$port" ] || { echo "$name: no 'listening on' line after 10 s" >&2; exit 1; }
    base="http://127.0.0.1:$port"
}
