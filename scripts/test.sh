#!/usr/bin/env bash
# Runs the jest projects named in TEST_PROJECTS (default: unit and integration) against the real
# servers (see README); does its own set-up. Arguments go to jest, before the project selection
# (jest's --selectProjects takes every word after it).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./scripts/setup.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
# The OpenAPI fuzzer (test/openapi.test.ts).
eval "$(./scripts/schemathesis.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
# The browser the dashboard's tests drive (test/dashboard.test.ts).
eval "$(./scripts/browser.sh | grep -E "^[A-Z_]+_BIN=" | sed 's/^/export /')"
read -r -a projects <<<"${TEST_PROJECTS:-unit integration}"
exec npx jest "$@" --selectProjects "${projects[@]}"
