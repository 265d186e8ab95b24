#!/usr/bin/env bash
# Runs every test against the real servers (see README). Does its own set-up; arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./scripts/setup.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
# The OpenAPI fuzzer (test/openapi.test.ts).
eval "$(./scripts/schemathesis.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
exec npx jest "$@"
