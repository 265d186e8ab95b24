#!/usr/bin/env bash
# Idempotent set-up shared by the start and test commands:
#   - npm dependencies exactly as locked (again only when package.json or the lock file changed),
#   - the embedded servers (scripts/binaries.sh: built once into a cache outside the repo),
#   - the TypeScript build, the pre-bundled workflow code and the dashboard (scripts/build.sh: each
#     only when its inputs changed).
# Prints the binaries' paths as shell assignments (`NAME_BIN=path`) on its last lines, and its five
# steps, numbered, with the time since it began, on stderr (scripts/progress.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
PROGRESS_LABEL=setup PROGRESS_TOTAL=5 PROGRESS_STEP=0
source scripts/progress.sh

stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  step "npm dependencies: installing (as locked)"
  npm ci --no-audit --no-fund >&2
  touch "$stamp"
else
  step "npm dependencies: up to date"
fi

step "embedded servers: Temporal CLI, FerretDB, sqlite-tune"
binaries=$(./scripts/binaries.sh)

./scripts/build.sh >&2

echo "$binaries"
