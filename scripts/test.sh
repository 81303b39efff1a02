#!/usr/bin/env bash
# Installs system packages, then runs the whole test suite.
# Every test uses Swift Testing (no XCTest case exists: `grep -rl "import XCTest" Tests` is
# empty), so XCTest is disabled: its runner would only print `Executed 0 tests` twice.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if grep -rlq "import XCTest" Tests; then xctest=(); else xctest=(--disable-xctest); fi
swift build --build-tests
swift test --skip-build "${xctest[@]}" 2>&1 | tee .build/test-output.txt
