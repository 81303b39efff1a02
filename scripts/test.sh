#!/usr/bin/env bash
# Installs system packages, then runs the whole test suite.
# Every test uses Swift Testing (no XCTest case exists: `grep -rl "import XCTest" Tests` is
# empty), so XCTest is disabled: its runner would only print `Executed 0 tests` twice.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The PostgreSQL half of the store tests runs against a real server: a throwaway one (temporary
# data folder, 127.0.0.1 only, stopped on exit) unless MONEYFLOW_TEST_POSTGRES names one already.
# Without PostgreSQL installed those tests say so and are skipped; under CI=true they must run.
# PostgreSQL ledgers' working-copy caches (see README, PostgreSQL) go to a folder of the run's
# own, not the user's ~/.cache; scripts/lib/postgres.sh's exit trap removes it.
export XDG_CACHE_HOME=${MONEYFLOW_TEST_CACHE:-$(mktemp -d /tmp/moneyflow-test-cache.XXXXXX)}
if [ -z "${MONEYFLOW_TEST_POSTGRES:-}" ]; then
  source scripts/lib/postgres.sh
  if ! start_test_postgres; then
    if [ "${CI:-}" = "true" ]; then echo "cannot start PostgreSQL for the tests" >&2; exit 1; fi
    echo "warning: no PostgreSQL server: the PostgreSQL store tests will be skipped" >&2
  fi
fi
if grep -rlq "import XCTest" Tests; then xctest=(); else xctest=(--disable-xctest); fi
swift build --build-tests
swift test --skip-build "${xctest[@]}" 2>&1 | tee .build/test-output.txt
