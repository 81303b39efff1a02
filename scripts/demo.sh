#!/usr/bin/env bash
# The demo: one person's accounts (see the top of Samples/moneyflow.toml): their CMB debit
# card in China (two quarterly statement ZIPs, a web-banking CSV, and their Alipay and WeChat Pay
# bills, whose card-paid orders link to the statements' 快捷支付 rows) and their US checking
# account and credit card fed by Plaid, plus their own CSV download of that checking account.
# Imports Samples/ into ./demo.sqlite (one batch run, settings from Samples/moneyflow.toml),
# prints the accounts and the reconciliation, then how to look further.
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
cat <<MSG

The binary is $mf ($(pwd)/$mf, a debug build; \`bash scripts/install.sh\` puts a
release build on your PATH as \`moneyflow\`). The demo's store is $store (commands default to
./moneyflow.sqlite, so name the store). Look around:
  $mf transactions --store $store                 # every transaction, with its sources
  $mf transactions --store $store --account "Plaid Checking 0000"
  $mf transactions --store $store --account "CMB 2468"   # 5 支付宝/财付通 rows show the wallet's merchant
  $mf reconcile --store $store --format json      # confirmed / statement-only / Plaid-only per account
  $mf batches --store $store                      # what each file added
  $mf transfers --store $store                    # the card autopay: one transfer, checking -> card
  $mf export --store $store --format beancount
The 3 warnings are Plaid pages 1, 2 and 4: each opens a multi-page update (has_more: true)
that the next page completes. See every warning with the plan of each file:
  $mf import --store $store Samples/ --dry-run --verbose
MSG
