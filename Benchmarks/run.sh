#!/usr/bin/env bash
# Runs every MoneyFlow benchmark and its peers, then writes ../BENCHMARKS.md.
#
#   bash Benchmarks/run.sh                 # everything (about an hour on 2 cores)
#   QUICK=1 bash Benchmarks/run.sh         # 10k/100k and 1/30 pages only, 1 repeat (a few minutes)
#   ONLY=postgres bash Benchmarks/run.sh   # only the PostgreSQL store section (postgres-cases.sh);
#                                          # the other sections of BENCHMARKS.md stay as they are
#
# Environment: REPEAT (default 3; medians are reported), SIZES (default "10000 100000 1000000"),
# LADDER (smaller reconciliation sizes measured first, to extrapolate capped cases; default
# "1000 2000 4000"), PAGES (default "1 30 300"), STORE_SIZES (default "10000 100000 1000000"),
# CASE_TIMEOUT (seconds per process, default 600: a case that takes longer is stopped, reported
# as capped, larger sizes of that case are skipped, and the report extrapolates), SLOW (a case
# whose first run took longer than this many seconds is not repeated; default 120),
# SEED (default 7), BENCH_DATA (default Benchmarks/.build-bench/data), PEERS=0 with
# PEER_RESULTS=FILE (re-measure only MoneyFlow and take the peers' lines from an earlier results file),
# POSTGRES=0 (skip the PostgreSQL section; BENCHMARKS.md keeps the one it has), and
# postgres-cases.sh's PG_SIZES, PG_RECON_SIZES, PG_SECOND.
# Every case runs in a fresh process (peak memory = that process's VmHWM / max RSS).
set -euo pipefail
cd "$(dirname "$0")"
HERE=$PWD
ROOT=$(cd .. && pwd)

REPEAT=${REPEAT:-3}
SIZES=${SIZES:-"10000 100000 1000000"}
PAGES=${PAGES:-"1 30 300"}
LADDER=${LADDER:-"1000 2000 4000"}
STORE_SIZES=${STORE_SIZES:-"10000 100000 1000000"}
SLOW=${SLOW:-120}
PEERS=${PEERS:-1}
CASE_TIMEOUT=${CASE_TIMEOUT:-600}
SEED=${SEED:-7}
ONLY=${ONLY:-}
POSTGRES=${POSTGRES:-1}
case "$ONLY" in ""|postgres) ;; *) echo "ONLY=$ONLY: only ONLY=postgres is known" >&2; exit 2 ;; esac
if [ "${QUICK:-}" = 1 ]; then REPEAT=1; SIZES="10000"; LADDER="1000 2000"; PAGES="1 30"; STORE_SIZES="10000"; fi
DATA=${BENCH_DATA:-$HERE/.build-bench/data}
RESULTS=$DATA/results.jsonl

# --- what the benchmarks need -------------------------------------------------------------
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
bash "$ROOT/scripts/install-deps.sh"
need=()
wanted=(sqlite3 poppler-utils fonts-wqy-zenhei python3-venv)
[ "$ONLY" = postgres ] && wanted=()
[ "$POSTGRES" = 1 ] && wanted+=(postgresql)   # server and psql
for p in "${wanted[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ "$ONLY" = postgres ]; then
  PY=python3   # the PostgreSQL cases need no Python packages (timecmd.py and the report use the standard library)
else
  if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
  .venv/bin/pip install -q pdfplumber beangulp beancount -r "$ROOT/scripts/requirements-dev.txt"
  PY=$HERE/.venv/bin/python
fi

echo "== building moneyflow-bench (release)" >&2
swift build -c release --scratch-path .build-bench
BIN=$(swift build -c release --scratch-path .build-bench --show-bin-path)/moneyflow-bench

mkdir -p "$DATA"
[ "$ONLY" = postgres ] || : > "$RESULTS"

# run_case LABEL CMD... : one fresh process, JSON line appended; a timeout is recorded as such.
LAST_ELAPSED=0
run_case() {
  local label=$1; shift
  local out rc=0 t0=$SECONDS
  out=$(timeout "$CASE_TIMEOUT" "$@" 2>"$DATA/last.err") || rc=$?
  LAST_ELAPSED=$((SECONDS - t0))
  if [ $rc -eq 124 ]; then
    echo "{\"case\": \"$label\", \"timeout_s\": $CASE_TIMEOUT}" >> "$RESULTS"
    echo "   $label: stopped after ${CASE_TIMEOUT}s" >&2
    return 1
  elif [ $rc -ne 0 ]; then
    echo "   $label failed (exit $rc):" >&2; cat "$DATA/last.err" >&2
    echo "{\"case\": \"$label\", \"error\": $rc}" >> "$RESULTS"
    return 1
  fi
  echo "$out" | tail -1 >> "$RESULTS"
  echo "   $(echo "$out" | tail -1)" >&2
}

# repeat_case LABEL CMD... : REPEAT runs, fewer when a run is slow; fails when a run fails or is capped.
repeat_case() {
  local i
  for i in $(seq "$REPEAT"); do
    run_case "$@" || return 1
    [ "$LAST_ELAPSED" -lt "$SLOW" ] || break
  done
}

# too_slow LABEL CASE SIZE_KEY TIME_KEYS N : true (and records the estimate) when the two largest
# sizes measured so far predict more than CASE_TIMEOUT seconds at N (t ~ N^k, k >= 1).
too_slow() {
  local label=$1 est
  est=$("$PY" peers/estimate.py "$RESULTS" "$2" "$3" "$4" "$5")
  if [ "$est" -gt "$CASE_TIMEOUT" ]; then
    echo "{\"case\": \"$label\", \"skipped_estimate_s\": $est}" >> "$RESULTS"
    echo "   $label: not run, estimated ${est}s > ${CASE_TIMEOUT}s" >&2
    return 0
  fi
  return 1
}

# time_cmd LABEL EXTRA_JSON CMD... : wall seconds and peak RSS of an external program.
time_cmd() {
  local label=$1 extra=$2; shift 2
  "$PY" peers/timecmd.py "$label" "{$extra}" "$@" >> "$RESULTS"
  echo "   $(tail -1 "$RESULTS")" >&2
}

# The SQLite-only sections (not indented, to keep their history readable): skipped by ONLY=postgres.
if [ "$ONLY" != postgres ]; then
# --- data (deterministic: same seed, same bytes) ---------------------------------------------
echo "== generating data in $DATA" >&2
mkdir -p "$DATA/cmb"
for p in $PAGES; do
  [ -f "$DATA/cmb/cmb2024_${p}pages.aes256.zip" ] || "$PY" "$ROOT/scripts/gen_cmb_samples.py" --pages "$p" --out "$DATA/cmb" >/dev/null
done
for n in $SIZES; do
  [ -f "$DATA/recon-$n/truth.tsv" ] || "$BIN" gen --n "$n" --seed "$SEED" --out "$DATA/recon-$n" >/dev/null
done

# --- CMB import: ours (ZIP -> store) vs pdftotext -layout vs pdfplumber -----------------------
echo "== CMB import" >&2
for p in $PAGES; do
  f=$DATA/cmb/cmb2024_${p}pages
  pw=$(cat "$DATA/cmb/passwords/cmb2024_${p}pages.txt")
  for i in $(seq "$REPEAT"); do
    run_case "cmb" "$BIN" cmb --zip "$f.aes256.zip" --password "$pw" --breakdown --store "$DATA/cmb.sqlite" || true
    [ "$PEERS" = 1 ] && time_cmd "cmb-pdftotext" "\"file\": \"cmb2024_${p}pages.pdf\", \"pages\": $p" pdftotext -layout "$f.pdf" "$DATA/out.txt"
  done
  reps=$REPEAT; [ "$p" -ge 300 ] && reps=${PDFPLUMBER_REPEAT:-1}; [ "$PEERS" = 1 ] || reps=0
  for i in $(seq "$reps"); do
    run_case "cmb-pdfplumber" "$PY" peers/cmb_pdfplumber.py "$f.pdf" --expected "$f.expected.json" || true
  done
done

# --- Reconciliation: engine alone (in-memory view) and through the store ----------------------
echo "== reconciliation" >&2
for mode in memory store; do
  keys=plan_s; [ $mode = store ] && keys=plaid_import_s,total_s
  for n in $LADDER $SIZES; do
    too_slow "reconcile-$mode:$n" "reconcile-$mode" n "$keys" "$n" && break
    repeat_case "reconcile-$mode:$n" "$BIN" reconcile --n "$n" --seed "$SEED" --mode "$mode" --store "$DATA/reconcile.sqlite" \
      || { echo "   skipping larger sizes of reconcile-$mode" >&2; break; }
  done
done
# The statement import beside the Plaid side (reconcile-store's plan + apply) has this peer: sqlite3's
# `.import` of the same statement file into a table of its columns (its rows end in a comma: 8 fields) with two indexes, the unique one over
# the columns that identify a row and (amount, date), the lookup a match needs.
for n in $SIZES; do
  f=$DATA/recon-$n/statement.csv
  [ "$PEERS" = 1 ] && [ -f "$f" ] || continue
  for i in $(seq "$REPEAT"); do
    rm -f "$DATA/peer-beside.sqlite"
    time_cmd "sqlite3-import-beside" "\"n\": $n, \"rows\": $(($(wc -l < "$f") - 1))" sqlite3 "$DATA/peer-beside.sqlite" \
      "CREATE TABLE statement(details TEXT, posting_date TEXT, description TEXT, amount TEXT, type TEXT, balance TEXT, check_no TEXT, trailing TEXT)" \
      "CREATE UNIQUE INDEX statement_row ON statement(posting_date, amount, description, balance)" \
      "CREATE INDEX statement_by_amount ON statement(amount, posting_date)" \
      ".import --csv --skip 1 $f statement"
  done
  rm -f "$DATA/peer-beside.sqlite"
done
# beangulp on the same 10k x 10k data (BEANGULP_SIZES to add more), default and exact-amount comparators
[ "$PEERS" = 1 ] || BEANGULP_SIZES=" "
for n in ${BEANGULP_SIZES:-10000}; do
  [ -d "$DATA/recon-$n" ] || continue
  repeat_case "beangulp:$n" "$PY" peers/beangulp_similar.py "$DATA/recon-$n" || true
  repeat_case "beangulp:$n" "$PY" peers/beangulp_similar.py "$DATA/recon-$n" --epsilon 0.000001 || true
done

# --- Store writes: N-row import vs sqlite3 .import of the same rows, same schema and indexes ----
echo "== store writes" >&2
schema_store=$DATA/schema.sqlite
rm -f "$schema_store"*
"$BIN" store-write --rows 10 --seed "$SEED" --store "$schema_store" >/dev/null
sqlite3 "$schema_store" ".schema txn" ".schema record" ".schema link" > "$DATA/peer_schema.sql"
rm -f "$schema_store"*
ours_ok=1
for rows in $STORE_SIZES; do
  if [ $ours_ok = 1 ] && too_slow "store-write:$rows" store-write rows total_s "$rows"; then ours_ok=0; fi
  if [ $ours_ok = 1 ]; then
    repeat_case "store-write:$rows" "$BIN" store-write --rows "$rows" --seed "$SEED" --store "$DATA/store.sqlite" || ours_ok=0
    rm -f "$DATA"/store.sqlite*
  fi
  [ "$PEERS" = 1 ] || continue
  "$BIN" peer-rows --rows "$rows" --seed "$SEED" --out "$DATA/peer-rows"
  for i in $(seq "$REPEAT"); do
    rm -f "$DATA/peer.sqlite"; sqlite3 "$DATA/peer.sqlite" < "$DATA/peer_schema.sql"
    time_cmd "sqlite3-import-all" "\"rows\": $rows" sqlite3 "$DATA/peer.sqlite" \
      ".import --csv $DATA/peer-rows/txn.csv txn" ".import --csv $DATA/peer-rows/record.csv record" ".import --csv $DATA/peer-rows/link.csv link"
    rm -f "$DATA/peer.sqlite"; sqlite3 "$DATA/peer.sqlite" < "$DATA/peer_schema.sql"
    time_cmd "sqlite3-import-record" "\"rows\": $rows" sqlite3 "$DATA/peer.sqlite" ".import --csv $DATA/peer-rows/record.csv record"
  done
  rm -rf "$DATA/peer.sqlite" "$DATA/peer-rows"
done
# Bank CSV read alone (parse, profile, dates, amounts, raw rows; no store write) vs Python's csv
# module reading the same file.
for n in $SIZES; do
  f=$DATA/recon-$n/statement.csv
  [ -f "$f" ] || continue
  repeat_case "csv-read" "$BIN" csv-read --csv "$f" --store "$DATA/csvread.sqlite" || true
  [ "$PEERS" = 1 ] || continue
  for i in $(seq "$REPEAT"); do run_case "csv-read-python" "$PY" peers/csv_read.py "$f" || true; done
done
# Plaid /transactions/get file (the Plaid side of the same data, full schema, compact JSON) imported
# into a fresh store: peak memory against the file's size (files over ImportService's 512 MiB limit skipped).
for n in $SIZES; do
  [ "$n" -le 100000 ] || continue
  f=$DATA/plaid-get-$n.json
  [ -f "$f" ] || "$BIN" plaid-get-file --n "$n" --seed "$SEED" --out "$f" >/dev/null
  repeat_case "plaid-import" "$BIN" plaid-import --file "$f" --store "$DATA/plaidimport.sqlite" || true
done
# A first import of the bank CSV file into an empty store (parse + plan + write), beside
# sqlite3's `.import` of the same file into a table of its columns with a unique index over the
# columns that identify a row (what the store's `record_by_fingerprint` does for a record). The
# file's rows end in a comma (8 fields under a 7-name header): with 7 columns sqlite3 printed a
# warning for every row, a third of its CPU time.
for n in $SIZES; do
  f=$DATA/recon-$n/statement.csv
  [ -f "$f" ] && [ "$n" -le 100000 ] || continue
  repeat_case "store-file:$n" "$BIN" store-file --csv "$f" --store "$DATA/storefile.sqlite" || true
  [ "$PEERS" = 1 ] || continue
  for i in $(seq "$REPEAT"); do
    rm -f "$DATA/peer-file.sqlite"
    time_cmd "sqlite3-import-file" "\"rows\": $(($(wc -l < "$f") - 1))" sqlite3 "$DATA/peer-file.sqlite" \
      "CREATE TABLE statement(details TEXT, posting_date TEXT, description TEXT, amount TEXT, type TEXT, balance TEXT, check_no TEXT, trailing TEXT)" \
      "CREATE UNIQUE INDEX statement_row ON statement(posting_date, amount, description, balance)" \
      ".import --csv --skip 1 $f statement"
  done
  rm -f "$DATA/peer-file.sqlite"
done
# A year of both wallets (>= 10k rows) against a year of CMB debit statements (not committed:
# generated here by the samples' own generator).
[ -f "$DATA/wallet-year/wechat_year.xlsx" ] || "$PY" "$ROOT/scripts/gen_wallet_samples.py" --year "$DATA/wallet-year" >/dev/null
run_case "wallets:year" "$BIN" wallets --dir "$DATA/wallet-year" --store "$DATA/wallets.sqlite" || true

if [ "$PEERS" != 1 ] && [ -n "${PEER_RESULTS:-}" ]; then
  grep -E '"case": "(cmb-pdftotext|cmb-pdfplumber|beangulp|sqlite3-import-all|sqlite3-import-record|sqlite3-import-file|sqlite3-import-beside|csv-read-python)"' "$PEER_RESULTS" >> "$RESULTS" || true
fi
fi   # ONLY != postgres

# --- the store on PostgreSQL ------------------------------------------------------------------
if [ "$POSTGRES" = 1 ]; then
  # shellcheck source=postgres-cases.sh
  source "$HERE/postgres-cases.sh"
fi

# --- report ---------------------------------------------------------------------------------
# The PostgreSQL section is spliced in by report_postgres.py: from this run's results, or (when
# this run did not measure it) kept from the BENCHMARKS.md there was.
if [ "$ONLY" = postgres ]; then
  "$PY" report_postgres.py "$ROOT/BENCHMARKS.md" --results "$DATA/results-postgres.jsonl"
else
  "$PY" report.py "$RESULTS" > "$DATA/BENCHMARKS.md.new"
  if [ "$POSTGRES" = 1 ]; then
    "$PY" report_postgres.py "$DATA/BENCHMARKS.md.new" --results "$DATA/results-postgres.jsonl"
  elif [ -f "$ROOT/BENCHMARKS.md" ]; then
    "$PY" report_postgres.py "$DATA/BENCHMARKS.md.new" --keep-from "$ROOT/BENCHMARKS.md"
  fi
  # The categories section (scripts/category-eval.sh) is measured apart: carried over as it was.
  if [ -f "$ROOT/BENCHMARKS.md" ]; then
    "$PY" report_categories.py "$DATA/BENCHMARKS.md.new" --keep-from "$ROOT/BENCHMARKS.md"
  fi
  mv "$DATA/BENCHMARKS.md.new" "$ROOT/BENCHMARKS.md"
fi
echo "== wrote $ROOT/BENCHMARKS.md" >&2
