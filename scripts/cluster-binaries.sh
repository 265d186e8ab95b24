#!/usr/bin/env bash
# Set-up for the production-shaped cluster (`npm run start:cluster`, `npm run test:cluster`;
# docs/cluster.md). Builds Temporal server and its SQL schema tool with Go into the same
# version-keyed cache as scripts/binaries.sh, installs Debian's PostgreSQL and nginx when missing
# (as root, with apt-get), and prints their paths as shell assignments:
#   TEMPORAL_SERVER_BIN=...  Temporal server (frontend, history, matching, worker in one process)
#   TEMPORAL_SQL_TOOL_BIN=... temporal-sql-tool: creates and migrates its PostgreSQL schema
#   POSTGRES_BIN=...         PostgreSQL's server (initdb, pg_isready and psql beside it)
#   NGINX_BIN=...            nginx: the one entry point in front of the receivers
# Any of them already set to an existing file is kept as it is. Its four steps are numbered, with the
# time since it began, and a Go build says every 30 s that it is still going (scripts/progress.sh).
set -euo pipefail
PROGRESS_LABEL=cluster-binaries PROGRESS_TOTAL=4 PROGRESS_STEP=0
source "$(dirname "$0")/progress.sh"

TEMPORAL_SERVER_VERSION="${TEMPORAL_SERVER_VERSION:-v1.32.0}"
CACHE="${WEBHOOKS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/webhook-trigger-service/bin}"
log() { note "$@"; }
need_go() { command -v go >/dev/null || { log "Go is required to build $1 (https://go.dev/dl)"; exit 1; }; }

# `go install` of the module's own command packages (its go.mod has no `replace`), each renamed:
# both are called `server` and `sql` in the module.
build_temporal_command() {
  local package="$1" bin="$2" tmp
  need_go "Temporal server"
  log "building $package@$TEMPORAL_SERVER_VERSION into $(dirname "$bin") (first run only, several minutes) …"
  tmp=$(mktemp -d)
  GOBIN="$tmp" GOFLAGS=-buildvcs=false with_ticker "building $package@$TEMPORAL_SERVER_VERSION" \
    go install "go.temporal.io/server/$package@$TEMPORAL_SERVER_VERSION" >&2
  mkdir -p "$(dirname "$bin")"
  mv "$tmp/$(basename "$package")" "$bin"
  rm -rf "$tmp"
  log "built $package@$TEMPORAL_SERVER_VERSION"
}

source "$(dirname "$0")/apt-install.sh"

step "Temporal server $TEMPORAL_SERVER_VERSION"
server_bin="${TEMPORAL_SERVER_BIN:-$CACHE/temporal-server-$TEMPORAL_SERVER_VERSION/temporal-server}"
[ -x "$server_bin" ] || build_temporal_command cmd/server "$server_bin"
step "temporal-sql-tool $TEMPORAL_SERVER_VERSION"
sql_tool_bin="${TEMPORAL_SQL_TOOL_BIN:-$CACHE/temporal-server-$TEMPORAL_SERVER_VERSION/temporal-sql-tool}"
[ -x "$sql_tool_bin" ] || build_temporal_command cmd/tools/sql "$sql_tool_bin"

step "PostgreSQL"
find_postgres() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
postgres_bin="${POSTGRES_BIN:-$(find_postgres)/postgres}"
if [ ! -x "$postgres_bin" ]; then
  apt_install postgresql
  postgres_bin="$(find_postgres)/postgres"
fi
[ -x "$postgres_bin" ] || { log "no PostgreSQL found: install it (Debian: apt-get install postgresql) or set POSTGRES_BIN"; exit 1; }

step "nginx"
nginx_bin="${NGINX_BIN:-$(command -v nginx || true)}"
if [ ! -x "$nginx_bin" ]; then
  apt_install nginx
  nginx_bin=$(command -v nginx || true)
fi
[ -x "$nginx_bin" ] || { log "no nginx found: install it (Debian: apt-get install nginx) or set NGINX_BIN"; exit 1; }

echo "TEMPORAL_SERVER_BIN=$server_bin"
echo "TEMPORAL_SQL_TOOL_BIN=$sql_tool_bin"
echo "POSTGRES_BIN=$postgres_bin"
echo "NGINX_BIN=$nginx_bin"
