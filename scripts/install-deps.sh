#!/usr/bin/env bash
# Installs the Debian packages MoneyFlow builds and tests against (idempotent), plus the real
# ledger tools the export tests check against (hledger from Debian, bean-check from PyPI) and
# strace (SecurityTests traces every path the binary writes), and PostgreSQL (its server runs the
# PostgreSQL store's tests: scripts/test.sh starts a throwaway one), and headless Chromium with its
# WebDriver and CJK fonts for the web app's browser tests, plus axe-core (axe.min.js, MPL-2.0,
# from the PyPI package axe-core-python) for their accessibility check, cached under .build/axe.
# With CI set, those tests fail without them.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(libpoppler-private-dev libpoppler-glib-dev libminizip-dev libxml2-dev libsqlite3-dev zlib1g-dev pkg-config poppler-utils hledger sqlite3 strace postgresql chromium chromium-driver fonts-wqy-zenhei)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "${MONEYFLOW_SKIP_PY_TOOLS:-}" != "1" ] && ! command -v bean-check >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  echo "installing: beancount (bean-check)" >&2
  if ! python3 -m pip install --quiet --disable-pip-version-check beancount >&2; then
    # CI must always check exports with the real tool; locally it is optional.
    if [ "${CI:-}" = "true" ]; then echo "cannot install beancount" >&2; exit 1; fi
    echo "warning: beancount not installed; export tests will skip bean-check" >&2
  fi
fi
axe=".build/axe/axe.min.js"
if [ "${MONEYFLOW_SKIP_PY_TOOLS:-}" != "1" ] && [ ! -s "$axe" ] && command -v python3 >/dev/null 2>&1; then
  echo "installing: axe-core (axe.min.js) into .build/axe" >&2
  mkdir -p .build/axe
  if python3 -m pip download --quiet --disable-pip-version-check --no-deps -d .build/axe/wheel axe-core-python >&2 \
    && python3 - "$axe" <<'PY'
import glob, sys, zipfile
wheel = sorted(glob.glob(".build/axe/wheel/axe_core_python-*.whl"))[-1]
with zipfile.ZipFile(wheel) as z, open(sys.argv[1], "wb") as out:
    out.write(z.read("axe_core_python/axe.min.js"))
PY
  then :; else
    if [ "${CI:-}" = "true" ]; then echo "cannot fetch axe-core" >&2; exit 1; fi
    echo "warning: axe-core not fetched; the browser tests skip the accessibility check" >&2
  fi
fi
