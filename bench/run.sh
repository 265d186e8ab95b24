#!/usr/bin/env bash
# `npm run bench`: builds (scripts/setup.sh: dependencies, the embedded servers' binaries, the
# TypeScript build) and runs the benchmark on a fresh embedded stack. Settings: bench/settings.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./scripts/setup.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
exec node dist/bench/bench.js "$@"
