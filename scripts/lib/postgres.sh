# Sourced by scripts: start_test_postgres starts a throwaway PostgreSQL server (Debian's
# `postgresql` package) in a temporary data folder, listening on 127.0.0.1 only (and a socket
# in that folder), with a scram-sha-256 password for role `moneyflow` kept in a 0600 password
# file (PGPASSFILE), never on a command line. It exports
#   MONEYFLOW_TEST_POSTGRES=postgres://moneyflow@127.0.0.1:PORT/moneyflow_test?sslmode=disable
#   PGPASSFILE=<folder>/pgpass
# and stops the server and deletes the folder when the calling shell exits.
# fsync is off: the tests kill clients, never the server, and need no durability across a
# power cut. PG_TEST_DURABLE=1 keeps PostgreSQL's default durability (fsync, synchronous
# commit) instead: Benchmarks/run.sh starts its own server that way.
start_test_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    return 1
  fi
  PG_TEST_DIR=$(mktemp -d /tmp/moneyflow-pg.XXXXXX)
  chmod 700 "$PG_TEST_DIR"
  local as=()
  # initdb and postgres refuse to run as root: use Debian's postgres user then.
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$PG_TEST_DIR"; as=(runuser -u postgres --); fi
  local pw
  pw=$(head -c 24 /dev/urandom | base64 | tr -d '/+=\n')
  ( umask 077; printf '%s\n' "$pw" > "$PG_TEST_DIR/pwfile" )
  [ "$(id -u)" -eq 0 ] && chown postgres "$PG_TEST_DIR/pwfile"
  "${as[@]}" "$bin/initdb" -D "$PG_TEST_DIR/data" -U moneyflow --pwfile="$PG_TEST_DIR/pwfile" \
    --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$PG_TEST_DIR/initdb.log" 2>&1 \
    || { cat "$PG_TEST_DIR/initdb.log" >&2; return 1; }
  rm -f "$PG_TEST_DIR/pwfile"
  local durability="-c fsync=off -c synchronous_commit=off"
  [ "${PG_TEST_DURABLE:-}" = 1 ] && durability=""
  PG_TEST_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "${as[@]}" "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_TEST_PORT -k $PG_TEST_DIR -c max_connections=300 $durability" \
    start >/dev/null || { cat "$PG_TEST_DIR/server.log" >&2; return 1; }
  PG_TEST_BIN=$bin
  PG_TEST_AS="${as[*]}"
  # The password file is the caller's (libpq and MoneyFlow ignore one others can read).
  local passfile="$PG_TEST_DIR/pgpass"
  ( umask 077; printf '127.0.0.1:%s:*:moneyflow:%s\nlocalhost:%s:*:moneyflow:%s\n' "$PG_TEST_PORT" "$pw" "$PG_TEST_PORT" "$pw" > "$passfile" )
  export PGPASSFILE=$passfile
  psql -q -h 127.0.0.1 -p "$PG_TEST_PORT" -U moneyflow -d postgres -c "CREATE DATABASE moneyflow_test" >/dev/null
  export MONEYFLOW_TEST_POSTGRES="postgres://moneyflow@127.0.0.1:$PG_TEST_PORT/moneyflow_test?sslmode=disable"
  trap stop_test_postgres EXIT
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the tests on 127.0.0.1:$PG_TEST_PORT (data in $PG_TEST_DIR)" >&2
}

stop_test_postgres() {
  case "${XDG_CACHE_HOME:-}" in /tmp/moneyflow-test-cache.*) rm -rf "$XDG_CACHE_HOME" ;; esac
  [ -n "${PG_TEST_DIR:-}" ] || return 0
  # shellcheck disable=SC2086
  $PG_TEST_AS "$PG_TEST_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEST_DIR"
  PG_TEST_DIR=
}
