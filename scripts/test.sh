#!/usr/bin/env bash
# Runs every test against the real servers (see README). Does its own set-up; arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./scripts/setup.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
exec npx jest "$@"
