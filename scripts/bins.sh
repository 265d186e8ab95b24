# Sourced by the start, test and bench commands. `use_bins SCRIPT...` runs a set-up script and
# exports the `NAME_BIN=path` lines it prints last. A set-up script that fails stops the caller
# (under `set -e`) with the script's own message, rather than going on with half a build. The
# lines are read as data, never evaluated: a path holds whatever characters it holds.
use_bins() {
  local out name value
  out=$("$@")
  while IFS= read -r line; do
    [[ $line =~ ^([A-Z][A-Z0-9_]*_BIN)=(.*)$ ]] || continue
    name=${BASH_REMATCH[1]}
    value=${BASH_REMATCH[2]}
    export "$name=$value"
  done <<<"$out"
}

# `use_node`: the Node of .nvmrc first on PATH for everything after it, npm's scripts included
# (scripts/node.sh brings it when this machine's Node is another major).
use_node() {
  use_bins "$(dirname "${BASH_SOURCE[0]}")/node.sh"
  PATH="$(dirname "$NODE_BIN"):$PATH"
  export PATH
}
