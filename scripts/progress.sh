# Sourced by the set-up scripts: numbered steps and the time since the set-up began, so a first run's
# minutes of Go builds say where they are. `step TEXT` starts the next step:
#   [setup 3/5] TypeScript: building (tsc --incremental) (elapsed 1m12s)
# `note TEXT` is a line within the current step; `with_ticker WHAT CMD...` runs CMD and says every 30
# seconds that WHAT is still going (Go compiles for minutes without a word). The counter and the start
# travel in the environment, so scripts/setup.sh numbers the steps its children print.
: "${PROGRESS_LABEL:=$(basename "$0" .sh)}"
: "${PROGRESS_STEP:=0}"
: "${PROGRESS_STARTED:=$(date +%s)}"
export PROGRESS_LABEL PROGRESS_STEP PROGRESS_STARTED
[ -z "${PROGRESS_TOTAL:-}" ] || export PROGRESS_TOTAL

elapsed() {
  local s=$(($(date +%s) - PROGRESS_STARTED))
  if [ "$s" -ge 60 ]; then echo "$((s / 60))m$((s % 60))s"; else echo "${s}s"; fi
}
note() {
  local at="$PROGRESS_LABEL"
  [ "$PROGRESS_STEP" = 0 ] || at="$at $PROGRESS_STEP${PROGRESS_TOTAL:+/$PROGRESS_TOTAL}"
  echo "[$at] $* (elapsed $(elapsed))" >&2
}
step() {
  PROGRESS_STEP=$((PROGRESS_STEP + 1))
  export PROGRESS_STEP
  note "$@"
}
with_ticker() {
  local what="$1" ticker rc=0
  shift
  # Its sleep is killed with it, so nothing is left holding the caller's output open.
  (
    exec >&2
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    while :; do
      sleep 30 &
      nap=$!
      wait "$nap"
      note "still $what …"
    done
  ) &
  ticker=$!
  "$@" || rc=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$rc"
}
