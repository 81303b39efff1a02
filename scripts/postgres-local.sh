#!/usr/bin/env bash
# A PostgreSQL server of your own for MoneyFlow, on this machine: its data in a folder you name,
# listening on 127.0.0.1 only, with a role and a database for MoneyFlow. Prints the --store URL
# (the last line of stdout).
#
#   bash scripts/postgres-local.sh FOLDER [--port N] [--role NAME] [--database NAME] [--ledger NAME]
#   bash scripts/postgres-local.sh FOLDER --stop
#
# The first run creates the server in FOLDER (which must be new or empty), a random password for
# the role, and keeps that password only in your password file (PGPASSFILE, default ~/.pgpass,
# mode 0600), where MoneyFlow and psql find it: it is never printed nor put on a command line.
# Later runs start the same server again (e.g. after a reboot) and print the same URL.
# Run as root, the server runs as Debian's `postgres` user (PostgreSQL refuses root), so FOLDER
# must be somewhere that user can reach. Needs Debian's `postgresql` package (apt-get install
# postgresql; scripts/install-deps.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=lib/postgres.sh
source "$here/lib/postgres.sh"

usage() { sed -n '6,7p' "$0" | sed 's/^#  //' >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -*) usage ;; esac
folder=$1
shift
port="" role=moneyflow database=money ledger=main stop=0
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --role) role=${2:?--role needs a name}; shift 2 ;;
    --database) database=${2:?--database needs a name}; shift 2 ;;
    --ledger) ledger=${2:?--ledger needs a name}; shift 2 ;;
    --stop) stop=1; shift ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
for name in "$role" "$database" "$ledger"; do
  [[ $name =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "'$name': use lowercase letters, digits and _ (a role, database or ledger name)" >&2; exit 2; }
done
mkdir -p "$folder"
folder=$(cd "$folder" && pwd)
settings="$folder/moneyflow-local.env"
passfile=${PGPASSFILE:-$HOME/.pgpass}
pg_find_bin

if [ -f "$settings" ]; then
  # An existing server: its own port, role and database win over the options.
  # shellcheck disable=SC1090
  source "$settings"
  pg_owner_of "$folder"
elif [ -n "$(ls -A "$folder")" ]; then
  echo "$folder is not empty and holds no server made by this script; name a new or empty folder" >&2
  exit 1
else
  port=${port:-$(pg_free_port)}
  [[ $port =~ ^[0-9]+$ ]] || { echo "--port needs a number" >&2; exit 2; }
  pg_owner_of "$folder"
  pw=$(pg_random_password)
  pg_initdb "$folder" "$role" "$pw"
  pg_write_passfile "$passfile" "$port" "$role" "$pw"
  unset pw
  printf 'port=%s\nrole=%s\ndatabase=%s\n' "$port" "$role" "$database" > "$settings"
  echo "created a PostgreSQL server in $folder; the password of role $role is in $passfile" >&2
fi

if [ "$stop" = 1 ]; then
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$folder/data" stop -m fast >/dev/null && echo "stopped the server in $folder" >&2
  exit 0
fi
if "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$folder/data" status >/dev/null 2>&1; then
  echo "the server in $folder is already running on 127.0.0.1:$port" >&2
else
  pg_start "$folder" "$port"
  echo "started PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (log: $folder/server.log; stop: bash scripts/postgres-local.sh $folder --stop)" >&2
fi

export PGPASSFILE=$passfile
if [ "$(psql -h 127.0.0.1 -p "$port" -U "$role" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
  psql -q -h 127.0.0.1 -p "$port" -U "$role" -d postgres -c "CREATE DATABASE $database OWNER $role" >/dev/null
  echo "created database $database (owner $role)" >&2
fi
url="postgres://$role@127.0.0.1:$port/$database?ledger=$ledger&sslmode=disable"
[ "$passfile" = "$HOME/.pgpass" ] || echo "MoneyFlow finds the password through PGPASSFILE=$passfile (export it)" >&2
echo "use it with: moneyflow import FILE --store '$url'   (or export MONEYFLOW_STORE='$url')" >&2
echo "$url"
