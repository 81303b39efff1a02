#!/usr/bin/env bash
# The main job on the bundled samples: import them into ./demo.sqlite and print the reconciliation.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product moneyflow >&2
mf=".build/debug/moneyflow"
store="${MONEYFLOW_STORE:-demo.sqlite}"
rm -f "$store" "$store-wal" "$store-shm"
password_of() { sed -n 's/.*"password": *"\([^"]*\)".*/\1/p' "$1" | head -1; }

# Plaid feed first (what statements are reconciled against), then the bank's own files.
"$mf" import --store "$store" Samples/plaid/plain_added/page*.json
for z in Samples/cmb/cmb2024_basic.aes256.zip Samples/cmb/cmb2024_multicurrency.zipcrypto.zip Samples/cmb/cmb2020_layout.aes256.zip \
         Samples/cmb/cmb2024_q1.zipcrypto.zip Samples/cmb/cmb2024_q2overlap.aes256.zip; do
  base="${z%%.*}"
  DEMO_PW="$(password_of "$base.expected.json")" "$mf" import --store "$store" --password-env DEMO_PW "$z"
done
"$mf" import --store "$store" Samples/cmb/cmb_pc_utf8bom.csv
for f in Samples/csv/chase_checking.csv Samples/csv/chase_card.csv Samples/csv/bofa_checking.csv Samples/csv/bofa_card.csv \
         Samples/csv/wells_fargo_checking.csv Samples/csv/capital_one_card.csv Samples/csv/capital_one_360.csv Samples/csv/amex.csv; do
  "$mf" import --store "$store" "$f"
done
echo
"$mf" accounts --store "$store"
echo
"$mf" reconcile --store "$store"
