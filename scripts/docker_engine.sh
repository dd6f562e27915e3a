#!/usr/bin/env bash
# Install (if needed) and start a local Docker engine for the sandbox's docker backend.
#
# - installs docker.io with apt-get when dockerd is missing;
# - writes /etc/docker/daemon.json with no default bridge, no iptables and no ip forwarding
#   (merged into an existing file, other keys kept): containers only ever get loopback;
# - starts dockerd in the background (log: $DOCKERD_LOG) unless an engine already answers;
# - waits (bounded, $DOCKER_WAIT_S seconds) until `docker info` answers.
# Idempotent: a running engine is reused. Prints one status line; exits non-zero with the reason
# when the engine cannot be started.
set -euo pipefail

DOCKERD_LOG="${DOCKERD_LOG:-/tmp/bootcamp-synth-dockerd.log}"
DOCKER_WAIT_S="${DOCKER_WAIT_S:-60}"
DAEMON_JSON=/etc/docker/daemon.json
PIDFILE=/var/run/docker.pid
APT=(apt-get -o DPkg::Lock::Timeout=300 -qq)

fail() { echo "docker_engine: FAILED: $*" >&2; exit 1; }
log_tail() { tail -n 5 "$DOCKERD_LOG" 2>/dev/null | tr '\n' ' '; }
engine_answers() { docker info >/dev/null 2>&1; }
server_version() { docker version -f '{{.Server.Version}}' 2>/dev/null || echo unknown; }
dockerd_running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

[ "$(id -u)" -eq 0 ] || fail "run as root (it installs packages and starts dockerd)"

if command -v docker >/dev/null 2>&1 && engine_answers; then
    echo "docker_engine: reusing running engine (server $(server_version))"
    exit 0
fi

if ! command -v dockerd >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    "${APT[@]}" update >/dev/null || fail "apt-get update failed"
    "${APT[@]}" install -y --no-install-recommends docker.io >/dev/null \
        || fail "apt-get install docker.io failed"
    command -v dockerd >/dev/null 2>&1 || fail "docker.io installed but dockerd is not on PATH"
fi

# Merge the isolation settings into daemon.json (keep unrelated keys an admin may have set).
mkdir -p /etc/docker
python3 - "$DAEMON_JSON" <<'PY' || fail "cannot write $DAEMON_JSON"
import json, os, sys
path = sys.argv[1]
conf = {}
if os.path.exists(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read().strip()
    if text:
        conf = json.loads(text)
        if not isinstance(conf, dict):
            raise SystemExit(f"{path} is not a JSON object")
conf.update({"bridge": "none", "iptables": False, "ip-forward": False})
tmp = path + ".tmp"
with open(tmp, "w", encoding="utf-8") as fh:
    json.dump(conf, fh, indent=2, sort_keys=True)
    fh.write("\n")
os.replace(tmp, path)
PY

if ! dockerd_running; then
    # setsid + nohup: the daemon outlives this script and the CI step that started it.
    setsid -w nohup dockerd --config-file "$DAEMON_JSON" >"$DOCKERD_LOG" 2>&1 </dev/null &
    started=$!
fi
# (else: a dockerd is starting already, e.g. a concurrent run of this script: wait for it)
deadline=$(( $(date +%s) + DOCKER_WAIT_S ))
until engine_answers; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "dockerd did not answer within ${DOCKER_WAIT_S}s; $DOCKERD_LOG ends: $(log_tail)"
    fi
    if [ -n "${started:-}" ] && ! kill -0 "$started" 2>/dev/null; then
        fail "dockerd exited; $DOCKERD_LOG ends: $(log_tail)"
    fi
    sleep 0.5
done

echo "docker_engine: engine ready (server $(server_version), no bridge, no iptables," \
    "log $DOCKERD_LOG)"
