#!/usr/bin/env bash
# Set up everything the tests need on this machine, then run lint, types and the whole test suite.
# This is the README's test command and exactly what .ci/run calls. Exit non-zero on any failure
# (pytest's "no tests collected" included).
set -euo pipefail
cd "$(dirname "$0")/.."
export SYNTH_EXTRAS="${SYNTH_EXTRAS:-dev,local,train,ray}"
# the extras installed here are required: a test that needs one fails instead of skipping
export SYNTH_REQUIRE_EXTRAS="$SYNTH_EXTRAS"
bash scripts/setup.sh
t=$SECONDS
if [ -f scripts/system_deps.sh ]; then bash scripts/system_deps.sh; fi
echo "== system_deps took $((SECONDS - t)) s"
t=$SECONDS
echo "== ruff"; .venv/bin/ruff check .
echo "== mypy"; .venv/bin/mypy
echo "== ruff and mypy took $((SECONDS - t)) s; pytest starts $SECONDS s after this script did"
set +e
.venv/bin/python -m pytest -q -p no:cacheprovider --durations=30 "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi
exit "$rc"
