#!/usr/bin/env bash
# The build scripts/setup.sh makes on every start, test and bench: the TypeScript emit (dist/), the
# pre-bundled workflow code (dist/workflow-bundle.js) and the dashboard (web/dist). Each step runs only
# when its inputs changed since it last ran, and a step's output that is not what that step left is
# built again: nothing stale ever runs.
#
# What a step was built from is kept in dist/.build/<step>: a hash of its inputs' names and contents,
# and one of its outputs as written. Contents, not times: a checkout, a copy or a clock that moved
# cannot fool it, and a file added, renamed or removed changes the names. The inputs:
#   typescript   every file tsconfig.json includes (src workflows activities scripts test bench), the
#                tsconfig and the lock file; tsc runs --incremental (it re-emits what changed), and an
#                output whose source is gone is removed.
#   workflows    the files the last bundle was made of (webpack names each module in it), our
#                bundling code among them; a changed import is in a changed file, so this is exact.
#   dashboard    the files Vite read for the last build (web/vite.config.ts lists them), its configs and
#                the lock file.
# BUILD_FORCE=1 builds every step. Each step prints one line, and says so when it is up to date.
# `npm run build` (the image's) builds everything from scratch, with no record.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${PROGRESS_LABEL:-}" ] || PROGRESS_TOTAL=3
source scripts/progress.sh

STAMPS=dist/.build
# tsconfig.json's "include", its own file and the lock file (keep in step with that "include").
TS_INPUTS=(src workflows activities scripts test bench tsconfig.json package-lock.json)

# One hash of the named files' names and contents (a file that is missing hashes as missing).
hash_files() {
  sort -u | xargs -r -d '\n' sha256sum 2>&1 | sha256sum | cut -c1-16
}
hash_tree() {
  { find "$@" -type f -not -path '*/node_modules/*' 2>/dev/null || true; } | hash_files
}
# What a step's stamp should hold when its output is what the build left from these inputs.
up_to_date() {
  local step="$1" want="$2"
  [ "${BUILD_FORCE:-0}" != 1 ] && [ -f "$STAMPS/$step" ] && [ "$(cat "$STAMPS/$step")" = "$want" ]
}
stamp() { mkdir -p "$STAMPS" && echo "$2" > "$STAMPS/$1"; }
# What tsc emitted: the files in dist's folders (dist's own files are the other steps').
ts_outputs() { { find dist -mindepth 2 -type f -not -path "$STAMPS/*" 2>/dev/null || true; } | hash_files; }

typescript() {
  local inputs want
  inputs=$(hash_tree "${TS_INPUTS[@]}")
  want="inputs $inputs outputs $(ts_outputs)"
  if up_to_date typescript "$want"; then
    step "TypeScript: up to date"
    return
  fi
  # Outputs touched since the last build, or no record of one: from scratch.
  if [ ! -f "$STAMPS/typescript" ] || [ "$(sed -n 's/.* outputs //p' "$STAMPS/typescript")" != "$(ts_outputs)" ]; then
    rm -rf dist
  fi
  rm -f "$STAMPS/typescript"
  step "TypeScript: building (tsc --incremental)"
  if ! npx tsc -p tsconfig.json --incremental --tsBuildInfoFile "$STAMPS/tsconfig.tsbuildinfo" >&2; then
    # Type errors: tsc emitted anyway, as its build information says, so the next try goes on from
    # here (incrementally) rather than from scratch; the inputs are never recorded as built.
    stamp typescript "inputs (failed) outputs $(ts_outputs)"
    note "TypeScript: type errors above; nothing after this step is built"
    exit 1
  fi
  # An output whose source was removed or renamed.
  find dist -mindepth 2 -name '*.js' -not -path "$STAMPS/*" | while IFS= read -r js; do
    local source="${js#dist/}"
    [ -f "${source%.js}.ts" ] || [ -f "${source%.js}.tsx" ] || rm -f "$js" "$js.map"
  done
  stamp typescript "inputs $inputs outputs $(ts_outputs)"
}

# The files the bundle names (webpack's module ids, relative to the folder it ran in).
bundle_inputs() {
  {
    echo dist/scripts/bundle-workflows.js
    echo dist/src/runtime/worker.js
    echo package-lock.json
    { grep -o '^/\*\*\*/ "\./[^"]*"' dist/workflow-bundle.js 2>/dev/null || true; } | sed 's|^/\*\*\*/ "\./||; s|"$||'
  } | hash_files
}
workflows() {
  local want
  # No module names in it (another bundler's format): it cannot be checked, so it is built.
  if grep -q '^/\*\*\*/ "\./dist/workflows/index.js"' dist/workflow-bundle.js 2>/dev/null; then
    want="inputs $(bundle_inputs) outputs $(echo dist/workflow-bundle.js | hash_files)"
    if up_to_date workflows "$want"; then
      step "workflow bundle: up to date"
      return
    fi
  fi
  rm -f "$STAMPS/workflows"
  step "workflow bundle: building"
  node dist/scripts/bundle-workflows.js
  stamp workflows "inputs $(bundle_inputs) outputs $(echo dist/workflow-bundle.js | hash_files)"
}

dashboard() {
  local list="$STAMPS/dashboard-inputs" want
  if [ -f "$list" ]; then
    want="inputs $({ cat "$list"; echo web/vite.config.ts; echo web/tsconfig.json; echo package-lock.json; } | hash_files)"
    want="$want outputs $(hash_tree web/dist)"
    if up_to_date dashboard "$want"; then
      step "dashboard: up to date"
      return
    fi
  fi
  rm -f "$STAMPS/dashboard"
  step "dashboard: building (vite build web)"
  mkdir -p "$STAMPS"
  DASHBOARD_INPUTS_FILE="$PWD/$list" npx vite build web
  want="inputs $({ cat "$list"; echo web/vite.config.ts; echo web/tsconfig.json; echo package-lock.json; } | hash_files)"
  stamp dashboard "$want outputs $(hash_tree web/dist)"
}

typescript
workflows
dashboard
# The commit the build is from, for webhooks_build_info (scripts/build-info.ts): cheap, so always.
[ ! -f dist/scripts/build-info.js ] || node dist/scripts/build-info.js
