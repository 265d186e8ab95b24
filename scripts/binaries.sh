#!/usr/bin/env bash
# Builds the embedded servers with Go into a cache outside the repo keyed by their versions and our
# SQLite driver's source (first run only; later runs find them at once) and prints their paths as
# shell assignments:
#   TEMPORAL_CLI_BIN=...   the Temporal CLI (dev server with SQLite and the Web UI), and
#   FERRETDB_BIN=...       FerretDB (MongoDB wire protocol on SQLite), both on SQLite's C library (below)
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

# The embedded servers' SQLite: SQLite's C library with a statement cache on each connection, in place
# of modernc.org/sqlite (a Go translation of it) that both servers are written against:
# scripts/sqlite-driver stands in for that module (see its driver.go for why and what it keeps).
# Keyed by its source, so a change to it builds both servers anew.
DRIVER="$(cd "$(dirname "$0")/sqlite-driver" && pwd)"
driver_version=$(cat "$DRIVER"/{driver.go,go.mod,go.sum,lib/lib.go} | sha256sum | cut -c1-12)
# SQLite's full-text tables (fts5) are in the Temporal dev server's visibility schema.
SQLITE_TAGS=sqlite_fts5

# `build_with_driver MODULE VERSION PACKAGE BIN [PREPARE]`: downloads that exact module version's
# source, points modernc.org/sqlite at the driver, runs PREPARE (a function, in the source folder)
# and builds PACKAGE with cgo into BIN. Not `go install MODULE@VERSION`: a replace directive applies
# only in the main module, so the build runs in a copy of the module's own go.mod and go.sum.
build_with_driver() {
  local module="$1" version="$2" package="$3" bin="$4" prepare="${5:-}" src work
  need_go "$module"
  need_cc "$module"
  log "downloading $module $version's source (first run only) …"
  src=$(cd "${TMPDIR:-/tmp}" && with_ticker "downloading $module $version" \
    go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { log "go mod download gave no source folder for $module $version"; exit 1; }
  work=$(mktemp -d)
  cp -r "$src/." "$work/"
  chmod -R u+w "$work"
  mkdir -p "$(dirname "$bin")"
  log "building $module $version with SQLite's C library into $(dirname "$bin") (first run only, minutes) …"
  (cd "$work" && go mod edit -replace "modernc.org/sqlite=$DRIVER" && { [ -z "$prepare" ] || "$prepare"; } &&
    CGO_ENABLED=1 GOFLAGS="-buildvcs=false -mod=mod" with_ticker "building $module $version" \
    go build -tags "$SQLITE_TAGS" -o "$bin.tmp" "$package") >&2
  rm -rf "$work"
  "$bin.tmp" --version >/dev/null
  mv "$bin.tmp" "$bin"
  log "built $module $version"
  built=1
}

# cgo compiles SQLite's C library: a C compiler is installed with apt-get when none is found.
need_cc() {
  command -v "${CC:-cc}" >/dev/null && return 0
  source "$(dirname "$0")/apt-install.sh"
  apt_install gcc libc6-dev
  command -v "${CC:-cc}" >/dev/null || { log "a C compiler (gcc) is required to build $1"; exit 1; }
}

# The published FerretDB module lacks build/version/version.txt, which FerretDB's own tooling
# generates, so a binary built from it panics at start: the one file is added before the build.
ferretdb_version_file() { echo "$FERRETDB_VERSION" > build/version/version.txt; }

build_sqlite_tune() {
  local bin="$1"
  need_go "scripts/sqlite-tune"
  need_cc "scripts/sqlite-tune"
  log "building scripts/sqlite-tune into $(dirname "$bin") (first run only) …"
  mkdir -p "$(dirname "$bin")"
  # On the same driver as the servers whose files it tunes (its go.mod's replace directive).
  (cd "$(dirname "$0")/sqlite-tune" && CGO_ENABLED=1 GOFLAGS=-buildvcs=false \
    with_ticker "building scripts/sqlite-tune" go build -tags "$SQLITE_TAGS" -o "$bin.tmp" .) >&2
  mv "$bin.tmp" "$bin"
  log "built scripts/sqlite-tune"
  built=1
}

temporal_bin="${TEMPORAL_CLI_BIN:-$CACHE/temporal-$TEMPORAL_CLI_VERSION-sqlite-$driver_version/temporal}"
[ -x "$temporal_bin" ] ||
  build_with_driver github.com/temporalio/cli "$TEMPORAL_CLI_VERSION" ./cmd/temporal "$temporal_bin"
ferretdb_bin="${FERRETDB_BIN:-$CACHE/ferretdb-$FERRETDB_VERSION-sqlite-$driver_version/ferretdb}"
[ -x "$ferretdb_bin" ] || build_with_driver github.com/FerretDB/FerretDB "$FERRETDB_VERSION" ./cmd/ferretdb \
  "$ferretdb_bin" ferretdb_version_file

# Keyed by the helper's own source and the driver's, so a change to either builds a new one.
tune_version=$( (cat "$(dirname "$0")"/sqlite-tune/{main.go,go.mod,go.sum}; echo "$driver_version") |
  sha256sum | cut -c1-12)
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
