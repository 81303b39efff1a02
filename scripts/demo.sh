#!/usr/bin/env bash
# The main job on the bundled samples: import everything in Samples/ into ./demo.sqlite (one
# batch, settings from Samples/moneyflow.toml) and print the accounts and the reconciliation.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product moneyflow >&2
mf=".build/debug/moneyflow"
store="${MONEYFLOW_STORE:-demo.sqlite}"
rm -f "$store" "$store-wal" "$store-shm"
"$mf" import --store "$store" Samples/
echo
"$mf" accounts --store "$store"
echo
"$mf" reconcile --store "$store"
