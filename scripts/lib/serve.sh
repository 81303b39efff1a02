# Shared by scripts/api-fuzz.sh and scripts/api-load.sh (sourced).
#
#   begin_run SCRIPT-NAME USER    # $work (a temporary folder, removed at exit unless KEEP=1) with a
#                                 # user in $work/data ($token); at exit the processes in
#                                 # $server_pid, $plaid_pid and $loop_pid are stopped
#   start_serve SCRIPT-NAME [VAR=value ...]    # `moneyflow serve` on a free loopback port over
#                                 # $work/data: sets server_pid and base (http://127.0.0.1:PORT)
#
# Needs $mf (the moneyflow binary).
begin_run() {
    local name=$1 user=$2
    work=$(mktemp -d "${TMPDIR:-/tmp}/moneyflow-$name.XXXXXX")
    server_pid="" plaid_pid="" loop_pid=""
    trap end_run EXIT
    mkdir -p "$work/data"
    token=$("$mf" users add "$user" --data "$work/data" | tail -n 1)
    [ -n "$token" ] || { echo "$name: users add printed no token" >&2; exit 1; }
}

end_run() {
    for pid in $loop_pid $server_pid $plaid_pid; do
        if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    done
    if [ "${KEEP:-}" = 1 ]; then echo "data kept in $work" >&2; else rm -rf "$work"; fi
}

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
