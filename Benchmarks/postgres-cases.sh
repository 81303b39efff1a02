# Sourced by Benchmarks/run.sh (uses its BIN, DATA, SEED, REPEAT, run_case, repeat_case, time_cmd):
# the store on PostgreSQL next to the store on SQLite, measured in the same session, and
# `psql \copy` of the same rows into the same tables. Results go to $DATA/results-postgres.jsonl
# (report_postgres.py turns them into BENCHMARKS.md's PostgreSQL section).
#
# The server is a throwaway one (scripts/lib/postgres.sh) with PostgreSQL's DEFAULT durability
# (fsync on, synchronous_commit on; PG_TEST_DURABLE=1), on 127.0.0.1 of this same machine, so
# its CPU competes with ours exactly as SQLite's work does (which runs inside our process).
#
# Environment: PG_SIZES (store writes and ledger opens; default STORE_SIZES), PG_RECON_SIZES
# (store-path reconciliation; default 100000), PG_SECOND (rows of the second import; default 1000).

PGRESULTS=$DATA/results-postgres.jsonl
: > "$PGRESULTS"
RESULTS_SQLITE=$RESULTS
RESULTS=$PGRESULTS   # run_case / time_cmd append here

# shellcheck source=../scripts/lib/postgres.sh
source "$ROOT/scripts/lib/postgres.sh"
PG_TEST_DURABLE=1 start_test_postgres
PG_URL=$MONEYFLOW_TEST_POSTGRES          # postgres://moneyflow@127.0.0.1:PORT/moneyflow_test?sslmode=disable
PSQL_URL=$PG_URL
pg_ledger() { echo "$PG_URL&ledger=$1"; }
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -d "$PSQL_URL" "$@"; }
psql_q -c "SELECT 'PostgreSQL ' || current_setting('server_version') || ', fsync ' || current_setting('fsync') || ', synchronous_commit ' || current_setting('synchronous_commit') || ', shared_buffers ' || current_setting('shared_buffers') || ', wal_level ' || current_setting('wal_level')" -At \
  | python3 -c 'import json,sys; print(json.dumps({"case": "postgres-server", "settings": sys.stdin.read().strip()}))' >> "$PGRESULTS"

# The ledger caches of these runs (a command's working copy kept between commands) stay here.
export XDG_CACHE_HOME=$DATA/ledger-cache
rm -rf "$XDG_CACHE_HOME"
PG_SIZES=${PG_SIZES:-$STORE_SIZES}
PG_RECON_SIZES=${PG_RECON_SIZES:-100000}
PG_SECOND=${PG_SECOND:-1000}
[ "${QUICK:-}" = 1 ] && PG_RECON_SIZES=10000

# store_at KIND NAME : where a case of that kind keeps its store.
store_at() { if [ "$1" = postgres ]; then pg_ledger "$2"; else echo "$DATA/$2.sqlite"; fi; }

echo "== PostgreSQL store (vs SQLite store, vs psql \\copy)" >&2
# The peer's tables: those of a ledger our store created (same columns, keys and indexes).
"$BIN" store-write --rows 10 --seed "$SEED" --store "$(pg_ledger peer)" >/dev/null
for rows in $PG_SIZES; do
  for kind in sqlite postgres; do
    loc=$(store_at "$kind" "pgbench_write")
    # Each run starts from an empty store (the bench drops the file / the ledger's schema).
    repeat_case "store-write-$kind:$rows" "$BIN" store-write --rows "$rows" --seed "$SEED" --store "$loc" || continue
    # The last run's store stays: later processes open it and import a second file into it.
    repeat_case "store-reopen-$kind:$rows" "$BIN" store-reopen --rows "$rows" --second "$PG_SECOND" --seed "$SEED" --store "$loc" || true
    if [ "$kind" = postgres ]; then
      # The first command on a machine: no cache, the whole ledger loaded into memory.
      repeat_case "store-reopen-$kind-memory:$rows" env MONEYFLOW_LEDGER_CACHE=off "$BIN" store-reopen --rows "$rows" --second "$PG_SECOND" --seed "$SEED" --store "$loc" || true
      # The open's peer: psql \copy of every table of that ledger out to /dev/null (what the
      # server spends sending the rows, without our decoding and working-copy inserts).
      out=()
      for t in $(psql_q -At -c "SELECT tablename FROM pg_tables WHERE schemaname = 'moneyflow_pgbench_write' ORDER BY 1"); do
        out+=(-c "\\copy moneyflow_pgbench_write.$t TO '/dev/null'")
      done
      for i in $(seq "$REPEAT"); do
        time_cmd "psql-copy-out" "\"rows\": $rows" psql -X -q -v ON_ERROR_STOP=1 -d "$PSQL_URL" "${out[@]}"
      done
      psql_q -c "DROP SCHEMA IF EXISTS moneyflow_pgbench_write CASCADE"
    else
      rm -f "$loc" "$loc-wal" "$loc-shm"
    fi
  done
  # psql \copy of exactly the rows store-write wrote, into the emptied tables, one transaction.
  "$BIN" peer-rows --rows "$rows" --seed "$SEED" --out "$DATA/peer-rows"
  for i in $(seq "$REPEAT"); do
    psql_q -c "TRUNCATE moneyflow_peer.link, moneyflow_peer.record, moneyflow_peer.txn"
    time_cmd "psql-copy" "\"rows\": $rows" psql -X -q -v ON_ERROR_STOP=1 -d "$PSQL_URL" -1 \
      -c "\\copy moneyflow_peer.txn FROM '$DATA/peer-rows/txn.csv' (FORMAT csv)" \
      -c "\\copy moneyflow_peer.record FROM '$DATA/peer-rows/record.csv' (FORMAT csv)" \
      -c "\\copy moneyflow_peer.link FROM '$DATA/peer-rows/link.csv' (FORMAT csv)"
  done
  rm -rf "$DATA/peer-rows"
done
psql_q -c "DROP SCHEMA IF EXISTS moneyflow_peer CASCADE"

for n in $PG_RECON_SIZES; do
  for kind in sqlite postgres; do
    repeat_case "reconcile-store-$kind:$n" "$BIN" reconcile --n "$n" --seed "$SEED" --mode store --store "$(store_at "$kind" pgbench_reconcile)" || true
  done
done

stop_test_postgres
trap - EXIT
RESULTS=$RESULTS_SQLITE
