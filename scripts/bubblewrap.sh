#!/usr/bin/env bash
# Install bubblewrap (the bwrap sandbox backend: namespaces, no network, a read-only system) when
# it is missing and this runs as root or with passwordless sudo; say which sandbox the main job
# will use. Idempotent. Exit 1 when bwrap is still missing afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${SYNTH_BWRAP_FROM_SYSTEM_DEPS:-0}" = 1 ]; then
    :  # scripts/test.sh: scripts/system_deps.sh installs it at the same time (one apt at a time)
elif ! command -v bwrap >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then as_root=(); elif sudo -n true 2>/dev/null; then as_root=(sudo -n); else as_root=(none); fi
    if [ "${as_root[*]-}" = "none" ] || ! command -v apt-get >/dev/null; then
        echo "setup: bubblewrap is not installed and cannot be installed here (not root, no sudo or no apt-get):" \
             "model-written code will run in the process sandbox; to isolate it: sudo apt-get install bubblewrap" >&2
        exit 1
    fi
    echo "setup: installing bubblewrap (the bwrap sandbox for model-written code)"
    "${as_root[@]}" apt-get update -qq >/dev/null 2>&1
    if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null 2>&1; then
        echo "setup: apt-get install bubblewrap failed: model-written code will run in the process sandbox" >&2
        exit 1
    fi
fi
why="$(.venv/bin/python -c 'from synth.sandbox import get_backend; b = get_backend("auto"); print(b.name)' 2>/dev/null)"
echo "setup: bubblewrap $(bwrap --version 2>/dev/null | awk '{print $2}') installed; --sandbox auto uses: ${why:-unknown}"
