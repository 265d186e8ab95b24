#!/usr/bin/env bash
# Builds the embedded servers with Go into a version-keyed cache outside the repo (first run
# only; later runs find them at once) and prints their paths as shell assignments:
#   TEMPORAL_CLI_BIN=...   the Temporal CLI (dev server with SQLite and the Web UI)
#   FERRETDB_BIN=...       FerretDB (MongoDB wire protocol on SQLite)
#   SQLITE_TUNE_BIN=...    our own scripts/sqlite-tune: the `_id` index FerretDB's queries use, and
#                          the dev server's visibility indexes the service never searches by
# TEMPORAL_CLI_BIN / FERRETDB_BIN already set to an existing file are kept as they are. Each build says
# what it builds and the time since the set-up began, and every 30 s that it is still going.
set -euo pipefail
source "$(dirname "$0")/progress.sh"

TEMPORAL_CLI_VERSION="${TEMPORAL_CLI_VERSION:-v1.5.1}"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
CACHE="${WEBHOOKS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/webhook-trigger-service/bin}"
log() { note "$@"; }
built=0
need_go() { command -v go >/dev/null || { log "Go is required to build $1 (https://go.dev/dl)"; exit 1; }; }

build_temporal() {
  local bin="$1" tmp
  need_go "the Temporal CLI"
  log "building the Temporal CLI $TEMPORAL_CLI_VERSION into $(dirname "$bin") (first run only, several minutes) …"
  tmp=$(mktemp -d)
  # Tags after v1.5.1 carry a `replace` directive in go.mod and cannot be `go install`ed.
  GOBIN="$tmp" GOFLAGS=-buildvcs=false with_ticker "building the Temporal CLI $TEMPORAL_CLI_VERSION" \
    go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION" >&2
  mkdir -p "$(dirname "$bin")"
  mv "$tmp/temporal" "$bin"
  rmdir "$tmp"
  log "built the Temporal CLI $TEMPORAL_CLI_VERSION"
  built=1
}

build_ferretdb() {
  local bin="$1" src work
  need_go "FerretDB"
  log "downloading FerretDB $FERRETDB_VERSION's source (first run only) …"
  # `go install github.com/FerretDB/FerretDB/cmd/ferretdb@VERSION` fails here: it asks the module
  # proxy for the module's version list (to look for deprecation notices), which the proxy refuses
  # (403). And the published module lacks build/version/version.txt, which FerretDB's own tooling
  # generates, so a binary built from it panics at start. So: download that exact module version,
  # add the one file, and build with the module's own go.mod and go.sum.
  src=$(cd "${TMPDIR:-/tmp}" && with_ticker "downloading FerretDB $FERRETDB_VERSION" \
    go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { log "go mod download gave no source folder for FerretDB $FERRETDB_VERSION"; exit 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"
  chmod -R u+w "$work"
  echo "$FERRETDB_VERSION" > "$work/build/version/version.txt"
  mkdir -p "$(dirname "$bin")"
  log "building FerretDB $FERRETDB_VERSION into $(dirname "$bin") (first run only, a few minutes) …"
  (cd "$work" && GOFLAGS=-buildvcs=false with_ticker "building FerretDB $FERRETDB_VERSION" \
    go build -o "$bin.tmp" ./cmd/ferretdb) >&2
  rm -rf "$work"
  "$bin.tmp" --version >/dev/null
  mv "$bin.tmp" "$bin"
  log "built FerretDB $FERRETDB_VERSION"
  built=1
}

build_sqlite_tune() {
  local bin="$1"
  need_go "scripts/sqlite-tune"
  log "building scripts/sqlite-tune into $(dirname "$bin") (first run only) …"
  mkdir -p "$(dirname "$bin")"
  (cd "$(dirname "$0")/sqlite-tune" && GOFLAGS=-buildvcs=false with_ticker "building scripts/sqlite-tune" \
    go build -o "$bin.tmp" .) >&2
  mv "$bin.tmp" "$bin"
  log "built scripts/sqlite-tune"
  built=1
}

temporal_bin="${TEMPORAL_CLI_BIN:-$CACHE/temporal-$TEMPORAL_CLI_VERSION/temporal}"
[ -x "$temporal_bin" ] || build_temporal "$temporal_bin"
ferretdb_bin="${FERRETDB_BIN:-$CACHE/ferretdb-$FERRETDB_VERSION/ferretdb}"
[ -x "$ferretdb_bin" ] || build_ferretdb "$ferretdb_bin"

# Keyed by the helper's own source, so a change to it builds a new one.
tune_version=$(cat "$(dirname "$0")"/sqlite-tune/{main.go,go.mod,go.sum} | sha256sum | cut -c1-12)
tune_bin="${SQLITE_TUNE_BIN:-$CACHE/sqlite-tune-$tune_version/sqlite-tune}"
[ -x "$tune_bin" ] || build_sqlite_tune "$tune_bin"

# The embedded dev server runs in a network namespace of its own, whose loopback `ip` (iproute2) or
# `ifconfig` brings up (src/launch/servers/dev-namespace.ts): iproute2 is installed as root with
# apt-get when neither is found; without either, the dev server listens on loopback, with a warning.
if ! command -v ip >/dev/null && ! command -v ifconfig >/dev/null; then
  source "$(dirname "$0")/apt-install.sh"
  apt_install iproute2
fi

[ "$built" = 1 ] || log "Temporal CLI $TEMPORAL_CLI_VERSION, FerretDB $FERRETDB_VERSION, sqlite-tune: up to date"
echo "TEMPORAL_CLI_BIN=$temporal_bin"
echo "FERRETDB_BIN=$ferretdb_bin"
echo "SQLITE_TUNE_BIN=$tune_bin"
