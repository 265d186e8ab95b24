# Sourced by scripts/cluster-binaries.sh. `apt_install PACKAGE...` installs Debian packages (as
# root, with apt-get; otherwise it does nothing) without letting them start a system-wide service:
# while apt-get runs, `policy-rc.d` refuses every service start and PostgreSQL's
# `createcluster.conf` makes no main cluster on port 5432. Both are put back as they were when it
# ends, however it ends (a `trap` in a subshell: an apt-get that fails under `set -e` leaves
# neither behind). The two paths are variables so that the tests can point them elsewhere.
APT_POLICY_RC_D="${APT_POLICY_RC_D:-/usr/sbin/policy-rc.d}"
PG_CREATECLUSTER_CONF="${PG_CREATECLUSTER_CONF:-/etc/postgresql-common/createcluster.conf}"

apt_install() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 0
  echo "[apt-install] installing Debian's $* (first run only)" >&2
  (
    set -euo pipefail
    export DEBIAN_FRONTEND=noninteractive
    local policy="$APT_POLICY_RC_D" conf="$PG_CREATECLUSTER_CONF" saved
    saved=$(mktemp -d)
    # What was there before: a copy to put back, or nothing (then what this made is removed).
    [ -e "$policy" ] && cp -p "$policy" "$saved/policy"
    [ -e "$conf" ] && cp -p "$conf" "$saved/conf"
    restore() {
      if [ -e "$saved/policy" ]; then cp -p "$saved/policy" "$policy"; else rm -f "$policy"; fi
      if [ -e "$saved/conf" ]; then cp -p "$saved/conf" "$conf"; else rm -f "$conf"; fi
      rm -rf "$saved"
    }
    trap restore EXIT
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod +x "$policy"
    mkdir -p "$(dirname "$conf")"
    echo "create_main_cluster = false" > "$conf"
    apt-get install -y -q "$@" >&2 || { apt-get update -q >&2 && apt-get install -y -q "$@" >&2; }
  )
}
