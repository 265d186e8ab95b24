#!/usr/bin/env bash
# Finds the Prometheus server that test/monitoring.test.ts runs against the test stack with the
# scrape configuration of compose's `monitoring` profile (docker/prometheus.yml): Debian's
# `prometheus`, installed with apt-get when missing and this runs as root (no service started:
# scripts/apt-install.sh); else it says what to install. Prints `PROMETHEUS_BIN=<path>`.
# PROMETHEUS_BIN already set to an existing file is kept as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "[prometheus] $*" >&2; }

if [ -n "${PROMETHEUS_BIN:-}" ] && [ -x "$PROMETHEUS_BIN" ]; then
  echo "PROMETHEUS_BIN=$PROMETHEUS_BIN"
  exit 0
fi
find_prometheus() { command -v prometheus || true; }
bin=$(find_prometheus)
if [ -z "$bin" ]; then
  source scripts/apt-install.sh
  apt_install prometheus
  bin=$(find_prometheus)
fi
if [ -z "$bin" ]; then
  log "no prometheus found: install it (Debian: apt-get install prometheus) or set PROMETHEUS_BIN"
  exit 1
fi
echo "PROMETHEUS_BIN=$bin"
