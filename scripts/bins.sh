# Sourced by the start, test and bench commands. `use_bins SCRIPT...` runs a set-up script and
# exports the `NAME_BIN=path` lines it prints last. A set-up script that fails stops the caller
# (under `set -e`) with the script's own message, rather than going on with half a build.
use_bins() {
  local out
  out=$("$@")
  eval "$(printf '%s\n' "$out" | grep -E '^[A-Z_]+_BIN=' | sed 's/^/export /')"
}
