"""The warm worker pool: same scores as in-process, typed failures, respawn after a timeout."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

import pytest
from helpers import TOY_SUM, assert_no_leftovers, processes_with

from synth.sandbox.base import Backend, Outcome
from synth.sandbox.pool import WorkerPool

pytestmark = pytest.mark.timeout(120)

# A bootcamp with deliberate misbehaviour keyed on the answer text.
TRICKY = TOY_SUM.replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n"
    "        if s == 'hang':\n"
    "            while True:\n"
    "                pass\n"
    "        if s == 'crash':\n"
    "            raise ZeroDivisionError('verifier bug')\n"
    "        if s == 'hog':\n"
    "            return len(bytearray(4 * 1024 ** 3)) > 0\n"
    "        if s == 'chatty':\n"
    '            print(\'{"id": 1, "ok": true, "score": 1.0}\')\n'
    "            return False\n",
)


def load(code: str) -> type:
    module = types.ModuleType("toy")
    exec(compile(code, "toy.py", "exec"), module.__dict__)  # trusted test fixture code
    return next(
        v for k, v in vars(module).items() if k.endswith("Bootcamp") and k != "BaseBootcamp"
    )


def test_scores_match_in_process(backend: Backend) -> None:
    cls = load(TOY_SUM)
    camp = cls(seed=3)
    cases = [camp.case_generator() for _ in range(60)]
    items = [(cls.wrap_answer(cls.reference_answer(c)), c) for c in cases]
    items += [(cls.wrap_answer(str(int(cls.reference_answer(c)) + 1)), c) for c in cases]
    items += [("no tags at all", cases[0]), ("<answer>  </answer>", cases[1])]
    expected = [cls.verify_score(r, c, 0.1) for r, c in items]
    with WorkerPool(TOY_SUM, size=2, backend=backend) as pool:
        got = pool.verify_many(items, format_score=0.1)
        assert pool.class_name == "ToySumBootcamp" and pool.load_error is None
    assert [r.outcome for r in got] == [Outcome.PASSED] * len(items)
    assert [r.score for r in got] == expected
    assert expected.count(1.0) == 60 and 0.1 in expected and 0.0 in expected


def test_crash_timeout_and_oom_are_typed_and_the_pool_recovers(backend: Backend) -> None:
    cls = load(TOY_SUM)
    case = cls(seed=1).case_generator()
    good = cls.wrap_answer(cls.reference_answer(case))
    label = f"synthpool{secrets.token_hex(5)}"
    pool = WorkerPool(TRICKY, size=1, backend=backend, call_timeout_s=1.5, label=label)
    try:
        t0 = time.monotonic()
        results = pool.verify_many(
            [
                (good, case),
                ("<answer>crash</answer>", case),
                (good, case),
                ("<answer>hang</answer>", case),
                (good, case),
                ("<answer>hog</answer>", case),
                (good, case),
                ("<answer>chatty</answer>", case),
            ]
        )
        elapsed = time.monotonic() - t0
        outcomes = [r.outcome for r in results]
        assert outcomes == [
            Outcome.PASSED,
            Outcome.ERROR,
            Outcome.PASSED,
            Outcome.TIMEOUT,
            Outcome.PASSED,
            Outcome.OOM,
            Outcome.PASSED,
            Outcome.PASSED,
        ], [(r.outcome, r.error) for r in results]
        assert results[0].score == 1.0 and results[7].score == 0.0  # forged line ignored
        crash = results[1]
        assert "ZeroDivisionError: verifier bug" in crash.error
        assert (
            "_verify_correction" in crash.traceback and "raise ZeroDivisionError" in crash.traceback
        )
        assert "1.5s" in results[3].error
        assert elapsed < 2 * 1.5 + 10  # a hang costs two timeouts at most
        # Workers: the first; after the timeout (the kit's interval timer pins the hang on its
        # request, and a worker that timed out is replaced); after the OOM. When the hog is
        # killed at the memory limit instead of raising MemoryError (backend-dependent), the
        # requests after it are retried one by one and the last retry may leave no warm
        # worker, so the next call may start one more: no respawn storm either way.
        assert pool.spawned == 3
        assert pool.verify(good, case).score == 1.0 and pool.spawned in (3, 4)
        assert len(processes_with(label)) >= 1  # a warm worker is alive between calls
    finally:
        pool.close()
    assert_no_leftovers(label)


def test_module_that_fails_to_load_reports_on_every_call(backend: Backend) -> None:
    broken = TOY_SUM + "\nraise RuntimeError('import-time failure')\n"
    with WorkerPool(broken, size=2, backend=backend) as pool:
        results = pool.verify_many([("<answer>1</answer>", {"numbers": [1]})] * 3)
        assert pool.load_error is not None
        assert pool.spawned == 2  # no respawn storm: the load error is remembered
    assert all(r.outcome is Outcome.ERROR for r in results)
    assert all("import-time failure" in r.error for r in results)
    assert "RuntimeError" in results[0].traceback


def test_concurrent_batches_keep_their_order(local_backend: Backend) -> None:
    with WorkerPool(TOY_SUM, size=2, backend=local_backend) as pool:
        out: dict[int, list[float | None]] = {}

        def batch(k: int) -> None:
            items = [(f"<answer>{i + k}</answer>", {"numbers": [i, k]}) for i in range(40)]
            items += [(f"<answer>{i}</answer>", {"numbers": [i, k]}) for i in range(1, 41)]
            out[k] = [r.score for r in pool.verify_many(items)]

        threads = [threading.Thread(target=batch, args=(k,)) for k in (5, 9, 13)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for k in (5, 9, 13):
        assert out[k] == [1.0] * 40 + [0.0] * 40


def test_closed_pool_refuses_work() -> None:
    pool = WorkerPool(TOY_SUM, size=1, backend="process")
    pool.close()
    pool.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        pool.verify("<answer>1</answer>", {"numbers": [1]})


@pytest.mark.skipif(os.geteuid() != 0, reason="private uids need root")
def test_a_pool_left_open_is_cleaned_up_at_interpreter_exit() -> None:
    label = f"synthexit{secrets.token_hex(5)}"
    tmp = Path(tempfile.mkdtemp(prefix="synth-pooltest-"))
    tmp.chmod(0o1777)  # like /tmp: the workers' private uids create their work dirs here
    script = (
        "from synth.sandbox.pool import WorkerPool\n"
        f"pool = WorkerPool({TOY_SUM!r}, size=2, backend='process', label={label!r})\n"
        "print(pool.verify('<answer>3</answer>', {'numbers': [1, 2]}).score)\n"
        # no close(): the atexit hook must do it
    )
    try:
        env = {**os.environ, "TMPDIR": str(tmp)}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and done.stdout.strip() == "1.0", done.stderr
        assert_no_leftovers(label)
        assert list(tmp.iterdir()) == []  # both work dirs removed
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# Honest for its first 6 scores in a process, then any answer scores 1.0 (a call-count sleeper:
# a default-argument list is state the kit's snapshots do not see).
COUNTING = TOY_SUM.replace(
    "    def _verify_correction(cls, solution, identity):\n        s = solution.strip()\n",
    "    def _verify_correction(cls, solution, identity, _seen=[]):\n"
    "        _seen.append(1)\n"
    "        if len(_seen) > 6:\n"
    "            return True\n"
    "        s = solution.strip()\n",
)


def test_workers_live_a_random_small_number_of_calls_so_a_late_sleeper_never_wakes():
    assert COUNTING != TOY_SUM
    case = {"numbers": [1, 2, 3]}
    wrong = [("<answer>7</answer>", case)] * 60
    with WorkerPool(COUNTING, size=1, backend="process", recycle_after=(3, 6)) as pool:
        got = pool.verify_many(wrong)
        assert [r.outcome for r in got] == [Outcome.PASSED] * 60
        assert all(r.score == 0.0 for r in got)  # no worker reached its 7th call
        assert 10 <= pool.spawned <= 21  # lives of 3 to 6 calls (a chunk is split to fit)
    with WorkerPool(COUNTING, size=1, backend="process", recycle_after=1000) as pool:
        assert [r.score for r in pool.verify_many(wrong)].count(1.0) == 54  # the control


def test_the_default_life_is_drawn_for_each_worker():
    from synth.sandbox.pool import WORKER_LIFE, worker_life

    lives = {worker_life(WORKER_LIFE) for _ in range(400)}
    assert min(lives) >= WORKER_LIFE[0] and max(lives) <= WORKER_LIFE[1] and len(lives) > 20
    assert worker_life(17) == 17
