#!/usr/bin/env bash
# The OpenAPI linter of `npm run lint`: the document the service serves (scripts/openapi-document.ts,
# run from the sources through scripts/require-ts.js, no build) linted by Redocly CLI with the rules
# of redocly.yaml (which says why each rule left out is left out). Nothing is sent anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
node -r ./scripts/require-ts.js scripts/openapi-document.ts > "$dir/openapi.json"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint --config redocly.yaml \
  --format stylish "$dir/openapi.json"
