#!/usr/bin/env bash
# Builds the libFuzzer harnesses (ASan) and runs each for SECONDS (default 600), at most
# JOBS at a time (default 2). Seed corpora come from Samples/ (and the ZIP test fixtures);
# corpora grow in Fuzz/corpus/<harness>, crashes land in Fuzz/artifacts/<harness>/.
# Usage: Fuzz/run.sh [seconds] [harness...]     e.g. Fuzz/run.sh 60 csv plaid
set -euo pipefail
cd "$(dirname "$0")"
FUZZ=$PWD
ROOT=$(cd .. && pwd)
SECONDS_PER=${1:-600}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -eq 0 ] && HARNESSES=(csv plaid zip cmb)
JOBS=${JOBS:-2}
SCRATCH=$FUZZ/.build-fuzz

mkdir -p "$FUZZ/artifacts"
echo "building harnesses (release, -sanitize=fuzzer,address) ..."
if ! swift build -c release -Xswiftc -sanitize=fuzzer,address --scratch-path "$SCRATCH" >"$FUZZ/artifacts/build.log" 2>&1; then
    grep -E "error" "$FUZZ/artifacts/build.log" | head -20; echo "build failed (Fuzz/artifacts/build.log)"; exit 1
fi
BIN=$(swift build -c release -Xswiftc -sanitize=fuzzer,address --scratch-path "$SCRATCH" --show-bin-path)

seed() {   # seed <harness>: fills corpus/<harness> from the samples (idempotent)
    local h=$1 dir=$FUZZ/corpus/$1
    mkdir -p "$dir" "$FUZZ/artifacts/$h"
    case $h in
        csv)   cp "$ROOT"/Samples/csv/*.csv "$ROOT"/Samples/csv/broken/*.csv "$ROOT"/Samples/cmb/*.csv "$dir"/ ;;
        plaid) find "$ROOT/Samples/plaid" "$ROOT/Tests/Fixtures/plaid-spec" -name '*.json' ! -name expected.json | while read -r f; do
                   cp "$f" "$dir/$(echo "${f#"$ROOT"/}" | tr / _)"; done ;;
        zip)   cp "$ROOT"/Tests/MoneyFlowZipTests/Fixtures/*.zip "$dir"/
               cp "$ROOT"/Samples/cmb/cmb2024_basic.*.zip "$ROOT"/Samples/cmb/broken/*.zip "$dir"/ ;;
        cmb)   FUZZ_CMB_SEEDGEN="$dir" "$BIN/FuzzCMB" "$ROOT"/Samples/cmb/*.pdf "$ROOT"/Samples/cmb/broken/not_cmb.pdf ;;
    esac
    # Regression inputs found earlier replay first.
    if [ -d "$ROOT/Tests/BadInputs/fuzz-regressions/$h" ]; then cp "$ROOT/Tests/BadInputs/fuzz-regressions/$h"/* "$dir"/ 2>/dev/null || true; fi
}

maxlen() { case $1 in cmb) echo 32768 ;; csv) echo 65536 ;; *) echo 131072 ;; esac; }

binary() { case $1 in csv) echo FuzzCSV ;; plaid) echo FuzzPlaid ;; zip) echo FuzzZip ;; cmb) echo FuzzCMB ;; esac; }

run_one() {
    local h=$1 log=$FUZZ/artifacts/$1-$(date +%Y%m%d-%H%M%S).log
    seed "$h"
    # -rss_limit_mb bounds memory (a harness allocating more is a finding), -timeout flags hangs.
    "$BIN/$(binary "$h")" "$FUZZ/corpus/$h" -max_total_time="$SECONDS_PER" -rss_limit_mb=2048 -timeout=20 \
        -max_len="$(maxlen "$h")" -print_final_stats=1 -artifact_prefix="$FUZZ/artifacts/$h/" >"$log" 2>&1 || true
    local execs crashes
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
    crashes=$(find "$FUZZ/artifacts/$h" -type f | wc -l)
    echo "$h: $execs executions in ${SECONDS_PER}s, $crashes artifact(s) in Fuzz/artifacts/$h (log: $log)"
}

running=0
for h in "${HARNESSES[@]}"; do
    run_one "$h" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
