#!/usr/bin/env bash
# Set up bootcamp-synth on a fresh machine: a virtualenv in .venv with the package and its
# development tools. Idempotent; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: bootcamp-synth needs Python >= 3.11 (found $("$PYTHON" --version 2>&1)); set PYTHON=..." >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip 2>&1 | grep -v "is ignored" || true
.venv/bin/python -m pip install --quiet -e '.[dev]' 2>&1 | grep -v "is ignored" || true
.venv/bin/python -c 'import synth, generated_bootcamps' || { echo "error: install failed" >&2; exit 2; }
echo "setup: .venv ready ($(.venv/bin/python --version)); run .venv/bin/synth --help"
