#!/usr/bin/env bash
# `npm run start:cluster`: production's shape on one machine (docs/cluster.md): PostgreSQL,
# Temporal server on it, FerretDB, 2 receivers and 2 workers behind nginx. Does its own set-up;
# keeps its data in DATA_DIR (default .data/cluster, apart from `npm start`'s .data).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bins.sh
use_node
use_bins ./scripts/setup.sh
use_bins ./scripts/cluster-binaries.sh
export DATA_DIR="${DATA_DIR:-.data/cluster}"
exec node dist/src/entry/cluster.js
