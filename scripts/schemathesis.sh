#!/usr/bin/env bash
# Installs schemathesis, the OpenAPI fuzzer test/openapi.test.ts runs, into a Python virtualenv in
# the version-keyed cache outside the repo (first run only), and prints `SCHEMATHESIS_BIN=<path>`.
# SCHEMATHESIS_BIN already set to an existing file is kept as it is.
set -euo pipefail
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
CACHE="${WEBHOOKS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/webhook-trigger-service/bin}"
log() { echo "[schemathesis] $*" >&2; }

if [ -n "${SCHEMATHESIS_BIN:-}" ] && [ -x "$SCHEMATHESIS_BIN" ]; then
  echo "SCHEMATHESIS_BIN=$SCHEMATHESIS_BIN"
  exit 0
fi
dir="$CACHE/schemathesis-$SCHEMATHESIS_VERSION"
# A virtualenv cannot be moved once made, so it is made in place and marked complete at the end.
if [ ! -f "$dir/.complete" ]; then
  command -v python3 >/dev/null || { log "Python 3 (with venv) is required for the OpenAPI fuzz test"; exit 1; }
  log "installing schemathesis $SCHEMATHESIS_VERSION into $dir (first run only)"
  rm -rf "$dir"
  python3 -m venv "$dir" >&2
  "$dir/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
  touch "$dir/.complete"
fi
echo "SCHEMATHESIS_BIN=$dir/bin/schemathesis"
