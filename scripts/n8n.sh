#!/usr/bin/env bash
# Installs n8n, the baseline of the bench's n8n phase (bench/phases/n8n.ts), from the npm registry
# into a version-keyed cache outside the repo (first run only, several minutes and about 1.8 GB;
# later runs find it at once) and prints its path as a shell assignment:
#   N8N_BIN=...   the n8n command (a Node script, run with this machine's Node)
# N8N_VERSION picks the version (default 1.123.81). N8N_BIN already set to an existing file is kept.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-1.123.81}"
CACHE="${WEBHOOKS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/webhook-trigger-service/bin}"
log() { echo "[n8n] $*" >&2; }

if [ -n "${N8N_BIN:-}" ] && [ -x "$N8N_BIN" ]; then
  echo "N8N_BIN=$N8N_BIN"
  exit 0
fi

install_n8n() {
  local dir="$1" tmp="$1.partial" node_prefix
  command -v npm >/dev/null || { log "npm is required to install n8n"; exit 1; }
  log "installing n8n $N8N_VERSION into $dir (first run only: several minutes, sqlite3 is built from source)"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # n8n-nodes-base takes xlsx as a tarball from cdn.sheetjs.com, which cannot be reached from here:
  # the registry's last xlsx stands in (only the spreadsheet nodes load it; the bench uses none).
  cat >"$tmp/package.json" <<EOF
{ "private": true, "dependencies": { "n8n": "$N8N_VERSION" }, "overrides": { "xlsx": "0.18.5" } }
EOF
  # No dependency's install script runs: several fetch prebuilt binaries from GitHub (unreachable
  # here), and isolated-vm 6 does not build against Node 20's V8 (n8n 1.123 loads it for its
  # default expression engine, `vm`: the bench runs it with N8N_EXPRESSION_ENGINE=legacy). The one
  # native module n8n needs on SQLite, sqlite3, is then built from its source below.
  (cd "$tmp" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
  # node-gyp would download Node's headers: it takes this Node's own (Debian's nodejs has them).
  if [ -z "${npm_config_nodedir:-}" ] && [[ "$(npm config get nodedir)" =~ ^(undefined|null|)$ ]]; then
    node_prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
    [ -f "$node_prefix/include/node/node.h" ] && export npm_config_nodedir="$node_prefix"
  fi
  log "building sqlite3 from source for Node $(node --version)"
  (cd "$tmp" && npm_config_build_from_source=true npm rebuild sqlite3 --foreground-scripts --loglevel=error) >&2
  (cd "$tmp" && node -e "require('sqlite3')") >&2 || { log "sqlite3 was not built: see the messages above"; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
}

dir="$CACHE/n8n-$N8N_VERSION"
bin="$dir/node_modules/.bin/n8n"
# The folder is moved into place only once complete, so its command being there means it is installed.
[ -x "$bin" ] || install_n8n "$dir"
echo "N8N_BIN=$bin"
