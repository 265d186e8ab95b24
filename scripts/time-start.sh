#!/usr/bin/env bash
# Times `npm start` twice, until the receiver's health route answers (GET /healthz on
# RECEIVER_METRICS_PORT): a first start that builds everything (dist/'s build records removed, as
# after a fresh checkout whose Go binaries are cached), then a second with nothing changed, which
# builds nothing (scripts/build.sh). Each start gets a data folder of its own and is stopped (SIGTERM)
# once it answers. Prints one line per start and the ratio; docs/benchmark-history.md
# keeps the figures. Run it alone on the machine: `flock /tmp/stack.lock scripts/time-start.sh`.
# The ports are the defaults unless set (a taken one is named by the launcher).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
metrics_port="${RECEIVER_METRICS_PORT:-9463}"

# Seconds, with tenths, since the epoch.
now() { date +%s.%N; }

# Starts `npm start`, waits until /healthz answers 200, stops it; prints the seconds that took.
timed_start() {
  local data start pid seconds
  data=$(mktemp -d)
  start=$(now)
  DATA_DIR="$data" LOG_LEVEL=warn ./scripts/start.sh >"$data/start.log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$metrics_port/healthz"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "[time-start] npm start exited before answering; its output:" >&2
      cat "$data/start.log" >&2
      exit 1
    fi
    sleep 0.2
  done
  seconds=$(echo "$(now) - $start" | bc)
  # start.sh execs the launcher, so $pid is the launcher: SIGTERM stops everything it started.
  kill -TERM "$pid"
  wait "$pid" || true
  grep '^\[setup' "$data/start.log" >&2 || true
  rm -rf "$data"
  printf '%.1f\n' "$seconds"
}

rm -rf dist/.build
first=$(timed_start)
echo "[time-start] first start (every build step runs): ${first} s to /healthz"
second=$(timed_start)
echo "[time-start] second start (nothing changed, no build): ${second} s to /healthz"
echo "[time-start] second / first: $(echo "scale=2; $second / $first" | bc)"
