#!/usr/bin/env bash
# `npm run screenshots`: docs/dashboard-*.png from the running service (scripts/screenshots.ts says how).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_bins ./scripts/browser.sh
npm run --silent build
node dist/scripts/screenshots.js
