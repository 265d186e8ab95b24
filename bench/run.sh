#!/usr/bin/env bash
# `npm run bench`: builds (scripts/setup.sh: dependencies, the embedded servers' binaries, the
# TypeScript build) and runs the benchmark on a fresh embedded stack. Settings: bench/settings.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
use_bins ./scripts/setup.sh
# The cluster's servers (BENCH_CLUSTER, on by default).
[ "${BENCH_CLUSTER:-1}" = 0 ] || use_bins ./scripts/cluster-binaries.sh
# The browser for the dashboard's page loads (left out when none can be found or installed).
use_bins ./scripts/browser.sh 2>/dev/null || true
# n8n for the n8n phase (BENCH_N8N, on by default; left out, with the script's reason, when it cannot be installed).
[ "${BENCH_N8N:-1}" = 0 ] || use_bins ./scripts/n8n.sh || true
exec node dist/bench/bench.js "$@"
