#!/usr/bin/env bash
# Install and start the system pieces the tests need (idempotent): bubblewrap for the bwrap
# sandbox, gnugo (the GTP engine the Go bootcamps declare: synth/engines.py), a Docker engine with no bridge network plus the project's offline-built sandbox image,
# and Chromium for the review page's browser test. Needs root (or passwordless sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/games/gnugo ] || need+=(gnugo)
if [ "${#need[@]}" -gt 0 ]; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
bash scripts/docker_engine.sh
bash scripts/build_sandbox_image.sh
if [ -f scripts/browser_deps.sh ]; then bash scripts/browser_deps.sh; fi

# CI must run the docker tests, not skip them: fail here when the backend cannot be used
# (scripts/test.sh runs this script beside the package's setup, and probes once setup is done)
[ "${SYNTH_NO_PROBE:-0}" = 1 ] && { echo "system_deps: installed (the docker probe is left to the caller)"; exit 0; }
.venv/bin/python -c "from synth.sandbox.docker import DockerBackend; ok, why = DockerBackend().probe(); print('docker backend:', why); raise SystemExit(0 if ok else 1)"
echo "system_deps: ready"
