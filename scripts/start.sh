#!/usr/bin/env bash
# Starts the whole service with everything embedded (see README). Does its own set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
use_bins ./scripts/setup.sh
exec node dist/src/entry/embedded.js
