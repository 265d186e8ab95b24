#!/usr/bin/env bash
# Starts the whole service with everything embedded (see README). Does its own set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./scripts/setup.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
exec node dist/src/entry/embedded.js
