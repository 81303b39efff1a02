#!/usr/bin/env bash
# Installs the Debian packages MoneyFlow builds and tests against (idempotent).
set -euo pipefail
pkgs=(libpoppler-glib-dev libminizip-dev libsqlite3-dev zlib1g-dev pkg-config poppler-utils)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
