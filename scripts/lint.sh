#!/usr/bin/env bash
# `npm run lint`, on the Node of .nvmrc as the tests (scripts/node.sh): formatting (prettier), ESLint with
# no warnings, the dashboard's types, and the OpenAPI document (scripts/lint-openapi.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
npx --no-install prettier --check .
npx --no-install eslint --max-warnings 0 .
npx --no-install tsc -p web/tsconfig.json
./scripts/lint-openapi.sh
