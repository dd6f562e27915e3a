#!/usr/bin/env bash
# Install what the review page's browser test needs (idempotent): Debian's Chromium and its
# WebDriver (/usr/bin/chromium, /usr/bin/chromedriver) and, in the venv, selenium (the driver
# client) plus the review server's web stack (starlette, uvicorn, python-multipart) when missing.
# Needs root (or passwordless sudo) for apt-get; never downloads a browser of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else
    echo "browser_deps: need root or sudo to apt-get install $*" >&2; return 1; fi; }
if ! { command -v chromium >/dev/null && command -v chromedriver >/dev/null; }; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver fonts-dejavu-core >/dev/null
fi
PY=.venv/bin/python
# SYNTH_SYSTEM_ONLY=1 (scripts/test.sh, which runs this beside setup's pip): the venv is setup's to
# fill (these packages are in pyproject's dependencies and dev extra); touching it here would race
if [ "${SYNTH_SYSTEM_ONLY:-0}" != 1 ] && [ -x "$PY" ]; then
    missing=()
    for spec in selenium:selenium starlette:starlette uvicorn:uvicorn multipart:python-multipart; do
        "$PY" -c "import ${spec%%:*}" 2>/dev/null || missing+=("${spec#*:}")
    done
    if [ "${#missing[@]}" -gt 0 ]; then "$PY" -m pip install --quiet "${missing[@]}"; fi
fi
echo "browser_deps: $(chromium --version 2>/dev/null || echo 'chromium missing'); $(chromedriver --version 2>/dev/null | cut -d' ' -f1-2)"
