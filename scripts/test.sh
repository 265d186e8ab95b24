#!/usr/bin/env bash
# Runs the jest projects named in TEST_PROJECTS (default: unit and integration) against the real
# servers (see README); does its own set-up. Arguments go to jest, before the project selection
# (jest's --selectProjects takes every word after it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
use_bins ./scripts/setup.sh
# The OpenAPI fuzzer (test/openapi.test.ts).
use_bins ./scripts/schemathesis.sh
# The browser the dashboard's tests drive (test/dashboard.test.ts).
use_bins ./scripts/browser.sh
# The Prometheus server that scrapes the test stack (test/monitoring.test.ts).
use_bins ./scripts/prometheus.sh
read -r -a projects <<<"${TEST_PROJECTS:-unit integration}"
# The production-shaped cluster's servers (test/cluster/): only when its tests run.
[[ " ${projects[*]} " != *" cluster "* ]] || use_bins ./scripts/cluster-binaries.sh
exec npx jest "$@" --selectProjects "${projects[@]}"
