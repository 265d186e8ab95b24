#!/usr/bin/env bash
# Idempotent set-up shared by the start and test commands:
#   - npm dependencies exactly as locked (again only when package.json or the lock file changed),
#   - the embedded servers (scripts/binaries.sh: built once into a cache outside the repo),
#   - the TypeScript build, the pre-bundled workflow code and the dashboard (web/dist).
# Prints the binaries' paths as shell assignments (`NAME_BIN=path`) on its last lines.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "[setup] $*" >&2; }

stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  log "installing npm dependencies (as locked)"
  npm ci --no-audit --no-fund >&2
  touch "$stamp"
fi

binaries=$(./scripts/binaries.sh)

log "building TypeScript, the workflow bundle and the dashboard"
npm run --silent build >&2

echo "$binaries"
