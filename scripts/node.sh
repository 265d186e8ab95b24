#!/usr/bin/env bash
# The Node the service runs and is tested on: the version in .nvmrc, the major the image ships.
# A machine whose Node is that major uses its own. Any other (Node 20 left its support on
# 2026-04-30) gets that exact version from the npm registry, which serves Node's Linux builds as
# the package node-linux-<arch>, unpacked once into a version-keyed cache outside the repo.
# Prints `NODE_BIN=path` on its last line; scripts/bins.sh's `use_node` puts it first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "[node] $*" >&2; }

wanted=$(tr -d ' \n\r' <.nvmrc)
major=${wanted%%.*}
here=$(node -p 'process.versions.node' 2>/dev/null || echo none)
if [ "${here%%.*}" = "$major" ] || [ -n "${WEBHOOKS_NODE_KEEP:-}" ]; then
  echo "NODE_BIN=$(command -v node)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) log "no Node $wanted build for $(uname -m) on the npm registry: install Node $major yourself"; exit 1 ;;
esac
CACHE="${WEBHOOKS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/webhook-trigger-service/bin}"
dir="$CACHE/node-v$wanted-linux-$arch"
if [ ! -x "$dir/bin/node" ]; then
  log "Node $here here is not the supported $major: fetching Node $wanted from the npm registry (once)"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$wanted" >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp"/node-linux-"$arch"-*.tgz -C "$tmp/unpacked"
  "$tmp/unpacked/package/bin/node" -e 0
  mkdir -p "$CACHE"
  rm -rf "$dir"
  mv "$tmp/unpacked/package" "$dir"
fi
log "running on Node $wanted from $dir (this machine's own is $here)"
echo "NODE_BIN=$dir/bin/node"
