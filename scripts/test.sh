#!/usr/bin/env bash
# Set up everything the tests need on this machine, then run lint, types and the whole test suite.
# This is the README's test command and exactly what .ci/run calls. Exit non-zero on any failure
# (pytest's "no tests collected" included).
#
# What can overlap does: the system pieces (apt, Docker, the sandbox image) install while pip
# installs the package; mypy runs beside pytest. Each step's seconds are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
export SYNTH_EXTRAS="${SYNTH_EXTRAS:-dev,local,train,ray}"
# the extras installed here are required: a test that needs one fails instead of skipping
export SYNTH_REQUIRE_EXTRAS="$SYNTH_EXTRAS"
logs="$(mktemp -d)"
sys_pid="" mypy_pid=""
cleanup() {  # a step that fails ends what still runs beside it
    for p in $sys_pid $mypy_pid; do kill "$p" 2>/dev/null || true; done
    rm -rf "$logs"
}
trap cleanup EXIT
t=$SECONDS
if [ -f scripts/system_deps.sh ]; then
    SYNTH_NO_PROBE=1 SYNTH_SYSTEM_ONLY=1 bash scripts/system_deps.sh >"$logs/system_deps.log" 2>&1 &
    sys_pid=$!
    export SYNTH_BWRAP_FROM_SYSTEM_DEPS=1  # setup leaves bubblewrap to it: one apt at a time
fi
bash scripts/setup.sh
if [ -n "$sys_pid" ]; then
    sys_rc=0
    wait "$sys_pid" || sys_rc=$?
    sys_pid=""
    cat "$logs/system_deps.log"
    [ "$sys_rc" -eq 0 ] || { echo "error: scripts/system_deps.sh failed (exit $sys_rc)" >&2; exit 1; }
    # CI must run the docker tests, not skip them: fail here when the backend cannot be used
    .venv/bin/python -c "from synth.sandbox.docker import DockerBackend; ok, why = DockerBackend().probe(); print('docker backend:', why); raise SystemExit(0 if ok else 1)"
    bash scripts/bubblewrap.sh || true  # what the main job's sandbox is, now that bwrap is in
fi
echo "== setup and system_deps took $((SECONDS - t)) s"
echo "== ruff"; .venv/bin/ruff check .
.venv/bin/mypy >"$logs/mypy.log" 2>&1 &
mypy_pid=$!
echo "== mypy runs beside the tests; pytest starts $SECONDS s after this script did"
set +e
# two pytest-xdist workers (tests/xdist_groups.py: a test file is one unit of work, the
# heaviest handed out first, by tests/weights.json): on 2 cores the suite is CPU-bound, serially it leaves a
# core idle. SYNTH_TEST_WORKERS=1 runs serially, N > 1 on N workers.
n_workers="${SYNTH_TEST_WORKERS:-2}"
workers=()
if [ "$n_workers" -gt 1 ]; then
    workers=(-n "$n_workers" --dist loadscope --no-loadscope-reorder)
    # one thread per worker in the native libraries (torch's OpenMP, BLAS): a pool of threads
    # that waits on a thread the other worker's test has taken the core from crawls (the GRPO
    # test took 30 s serially and 160 s beside the other worker)
    export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}"
    export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
fi
.venv/bin/python -m pytest -q -p no:cacheprovider --durations=30 "${workers[@]}" "$@"
rc=$?
set -e
t=$SECONDS
mypy_rc=0
wait "$mypy_pid" || mypy_rc=$?
mypy_pid=""
echo "== mypy"; cat "$logs/mypy.log"
[ "$mypy_rc" -eq 0 ] || { echo "error: mypy found problems (above)" >&2; rc=1; }
echo "== mypy was waited for $((SECONDS - t)) s after the tests"
if [ "$rc" -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi
exit "$rc"
