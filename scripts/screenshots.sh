#!/usr/bin/env bash
# `npm run screenshots`: docs/quickstart-*.png and docs/dashboard-*.png from the running service (see screenshots.ts).
# Compiles over dist/ without emptying it first: the service `npm start` runs from there keeps running.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
use_bins ./scripts/browser.sh
npx tsc -p tsconfig.json
node dist/scripts/screenshots.js
