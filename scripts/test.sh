#!/usr/bin/env bash
# Installs system packages, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build 2>&1 | tee .build/test-output.txt
