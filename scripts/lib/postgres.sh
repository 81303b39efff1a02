# Sourced by scripts. Two users of one set of steps:
#   start_test_postgres (scripts/test.sh, benchmarks): a throwaway server in a temporary folder;
#   scripts/postgres-local.sh: a lasting server for one user in a folder they name.
# Both run Debian's `postgresql` server binaries listening on 127.0.0.1 only (and a socket in the
# data folder), with a scram-sha-256 password for the MoneyFlow role kept in a 0600 password
# file (PGPASSFILE format), never on a command line; as root the server runs as Debian's
# `postgres` user (initdb and postgres refuse to run as root).
#
# start_test_postgres exports
#   MONEYFLOW_TEST_POSTGRES=postgres://moneyflow@127.0.0.1:PORT/moneyflow_test?sslmode=disable
#   PGPASSFILE=<folder>/pgpass
# and stops the server and deletes the folder when the calling shell exits.
# fsync is off: the tests kill clients, never the server, and need no durability across a
# power cut. PG_TEST_DURABLE=1 keeps PostgreSQL's default durability (fsync, synchronous
# commit) instead: Benchmarks/run.sh starts its own server that way.

# Sets PG_BIN to the newest installed server binaries' folder (/usr/lib/postgresql/N/bin).
pg_find_bin() {
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    return 1
  fi
}

# Sets PG_AS to the command prefix that runs the server's programs: nothing, or as root
# `runuser -u postgres --`. Makes FOLDER (created 0700 if missing) the server user's.
pg_owner_of() {
  local folder=$1
  mkdir -p "$folder"
  PG_AS=()
  if [ "$(id -u)" -eq 0 ]; then
    PG_AS=(runuser -u postgres --)
    if ! "${PG_AS[@]}" test -x "$(dirname "$folder")"; then
      echo "the postgres user cannot reach $folder (a folder above it is closed to other users); choose a folder it can reach, e.g. under /var/lib or /srv" >&2
      return 1
    fi
    chown postgres "$folder"
  fi
  chmod 700 "$folder"
}

# A random password (letters and digits), printed on stdout for a variable, never shown.
pg_random_password() { head -c 24 /dev/urandom | base64 | tr -d '/+=\n'; }

# A free TCP port on 127.0.0.1.
pg_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# pg_initdb FOLDER ROLE PASSWORD: a new cluster in FOLDER/data whose superuser is ROLE, with
# scram-sha-256 authentication for every connection (the password passes through a 0600 file
# that is removed at once). Needs pg_find_bin and pg_owner_of FOLDER first.
pg_initdb() {
  local folder=$1 role=$2 pw=$3
  ( umask 077; printf '%s\n' "$pw" > "$folder/pwfile" )
  [ "$(id -u)" -eq 0 ] && chown postgres "$folder/pwfile"
  "${PG_AS[@]}" "$PG_BIN/initdb" -D "$folder/data" -U "$role" --pwfile="$folder/pwfile" \
    --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 \
    || { rm -f "$folder/pwfile"; cat "$folder/initdb.log" >&2; return 1; }
  rm -f "$folder/pwfile"
}

# pg_start FOLDER PORT [SERVER OPTIONS...]: starts the cluster in FOLDER/data on 127.0.0.1:PORT
# (socket in FOLDER), logging to FOLDER/server.log, and waits until it accepts connections.
pg_start() {
  local folder=$1 port=$2
  shift 2
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $folder $*" start >/dev/null \
    || { cat "$folder/server.log" >&2; return 1; }
}

# pg_write_passfile FILE PORT ROLE PASSWORD: FILE (created 0600) gets ROLE's password for
# 127.0.0.1:PORT and localhost:PORT, replacing earlier lines for that port and role and keeping
# every other line.
pg_write_passfile() {
  local file=$1 port=$2 role=$3 pw=$4 kept=""
  if [ -f "$file" ]; then
    kept=$(grep -v -E "^(127\.0\.0\.1|localhost):$port:[^:]*:$role:" "$file" || true)
  fi
  (
    umask 077
    { [ -n "$kept" ] && printf '%s\n' "$kept"
      printf '127.0.0.1:%s:*:%s:%s\nlocalhost:%s:*:%s:%s\n' "$port" "$role" "$pw" "$port" "$role" "$pw"; } > "$file.new"
  )
  chmod 600 "$file.new"
  mv "$file.new" "$file"
}

start_test_postgres() {
  pg_find_bin || return 1
  PG_TEST_DIR=$(mktemp -d /tmp/moneyflow-pg.XXXXXX)
  pg_owner_of "$PG_TEST_DIR" || return 1
  local pw
  pw=$(pg_random_password)
  pg_initdb "$PG_TEST_DIR" moneyflow "$pw" || return 1
  local durability="-c fsync=off -c synchronous_commit=off"
  [ "${PG_TEST_DURABLE:-}" = 1 ] && durability=""
  PG_TEST_PORT=$(pg_free_port)
  pg_start "$PG_TEST_DIR" "$PG_TEST_PORT" -c max_connections=300 $durability || return 1
  PG_TEST_BIN=$PG_BIN
  PG_TEST_AS="${PG_AS[*]}"
  # The password file is the caller's (libpq and MoneyFlow ignore one others can read).
  local passfile="$PG_TEST_DIR/pgpass"
  pg_write_passfile "$passfile" "$PG_TEST_PORT" moneyflow "$pw"
  export PGPASSFILE=$passfile
  psql -q -h 127.0.0.1 -p "$PG_TEST_PORT" -U moneyflow -d postgres -c "CREATE DATABASE moneyflow_test" >/dev/null
  export MONEYFLOW_TEST_POSTGRES="postgres://moneyflow@127.0.0.1:$PG_TEST_PORT/moneyflow_test?sslmode=disable"
  trap stop_test_postgres EXIT
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') for the tests on 127.0.0.1:$PG_TEST_PORT (data in $PG_TEST_DIR)" >&2
}

stop_test_postgres() {
  case "${XDG_CACHE_HOME:-}" in /tmp/moneyflow-test-cache.*) rm -rf "$XDG_CACHE_HOME" ;; esac
  [ -n "${PG_TEST_DIR:-}" ] || return 0
  # shellcheck disable=SC2086
  $PG_TEST_AS "$PG_TEST_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEST_DIR"
  PG_TEST_DIR=
}
