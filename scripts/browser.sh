#!/usr/bin/env bash
# Finds the browser the dashboard's tests drive (test/dashboard.test.ts): Debian's `chromium`,
# installed with apt-get when missing and this runs as root; else it says what to install.
# Prints `CHROMIUM_BIN=<path>`. CHROMIUM_BIN already set to an existing file is kept as it is.
set -euo pipefail
log() { echo "[browser] $*" >&2; }

if [ -n "${CHROMIUM_BIN:-}" ] && [ -x "$CHROMIUM_BIN" ]; then
  echo "CHROMIUM_BIN=$CHROMIUM_BIN"
  exit 0
fi
find_chromium() { command -v chromium || command -v chromium-browser || true; }
bin=$(find_chromium)
if [ -z "$bin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  log "installing Debian's chromium for the dashboard's browser tests (first run only)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium >&2 || { apt-get update -q >&2 && apt-get install -y -q chromium >&2; }
  bin=$(find_chromium)
fi
if [ -z "$bin" ]; then
  log "no chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM_BIN"
  exit 1
fi
echo "CHROMIUM_BIN=$bin"
