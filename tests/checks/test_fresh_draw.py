"""The consistency check's fresh production cases (synth/gate/fresh.py), drawn in a thread of
their own while the other checks run: what it draws, and that a suite ending early stops it."""

from __future__ import annotations

import json
import random
import time

from helpers import TOY_SUM

from synth.gate.fresh import FRESH_MIN, FreshDraw
from synth.sandbox.base import Backend

SLOW = TOY_SUM.replace(
    "    def case_generator(self):\n",
    "    def case_generator(self):\n        import time\n        time.sleep(0.02)\n")


def test_the_draw_gives_distinct_cases_with_their_answers(process_backend: Backend) -> None:
    draw = FreshDraw(TOY_SUM, process_backend, "", random.Random(5))
    samples = draw.take()
    assert FRESH_MIN <= len(samples) <= 800
    cases = [json.loads(case) for case, _ in samples]
    assert len({json.dumps(c, sort_keys=True) for c in cases}) > 0.9 * len(cases)
    for case, answer in samples[:50]:  # the toy task: the answer is the numbers' sum
        assert int(answer) == sum(json.loads(case)["numbers"])


def test_stopping_ends_a_slow_draw_at_once(process_backend: Backend) -> None:
    """A slow generator (20 ms a case) would draw for 10 s to reach 256 cases; a suite that
    ends first stops it within a batch, and nothing is left running."""
    assert SLOW != TOY_SUM
    draw = FreshDraw(SLOW, process_backend, "", random.Random(5))
    time.sleep(0.5)
    start = time.monotonic()
    draw.stop()
    elapsed = time.monotonic() - start
    assert elapsed < 3.0, elapsed
    assert not draw._thread.is_alive()
    assert len(draw.samples) < FRESH_MIN


def test_a_worded_answer_adds_no_digit() -> None:
    """The consistency check words wrong answers inside the tags ("may score less, never
    more"): its words must hold no number, which a verifier reading the one number in the
    text would take for the answer (a numbered "Step 1" was the right answer of a case)."""
    from synth.gate.answers import worded_answer

    rng = random.Random(3)
    for _ in range(300):
        text = worded_answer("inf", rng)
        assert "inf" in text and not any(ch.isdigit() for ch in text), text


#: the toy task, with every case saying how many reference answers its process computed so far
COUNTS_ANSWERS = TOY_SUM.replace(
    "class ToySumBootcamp(BaseBootcamp):\n",
    "_ASKED = [0]\n\n\nclass ToySumBootcamp(BaseBootcamp):\n",
).replace(
    "        return {\"numbers\": [self.rng.randint(0, self.hi) for _ in range(self.n)]}\n",
    "        return {\"numbers\": [self.rng.randint(0, self.hi) for _ in range(self.n)],\n"
    "                \"answered_here\": _ASKED[0]}\n",
).replace(
    "    def reference_answer(cls, identity):\n",
    "    def reference_answer(cls, identity):\n        _ASKED[0] += 1\n",
)


def test_the_drawing_process_is_never_asked_for_an_answer(process_backend: Backend) -> None:
    """As in export: the process that builds the instances and draws the cases computes no
    reference answer (a module can count what its process was asked and generate otherwise
    once it never answered); the answers come from a process of their own, and are right."""
    assert COUNTS_ANSWERS.count("_ASKED") == 3
    samples = FreshDraw(COUNTS_ANSWERS, process_backend, "", random.Random(2)).take()
    assert len(samples) >= FRESH_MIN
    for case, answer in samples:
        identity = json.loads(case)
        assert identity["answered_here"] == 0, identity
        assert int(answer) == sum(identity["numbers"])


#: the toy task, raising once its process has built more than 150 instances (the gate's own
#: drawing builds fewer in one process; export's builds one per row)
RAISES_LATE = TOY_SUM.replace(
    "class ToySumBootcamp(BaseBootcamp):\n",
    "_BUILT = [0]\n\n\nclass ToySumBootcamp(BaseBootcamp):\n",
).replace(
    "        self.hi = hi\n",
    "        self.hi = hi\n        _BUILT[0] += 1\n",
).replace(
    "    def case_generator(self):\n",
    "    def case_generator(self):\n        if _BUILT[0] > 150:\n"
    "            raise RuntimeError('too many instances')\n",
)


def test_a_generator_that_raises_only_in_a_long_drawing_fails_the_consistency_check(
        process_backend: Backend) -> None:
    """Export would stop on that row: the consistency check fails and says where and what, not a
    pass on the cases drawn before it."""
    from synth.gate import run_checks

    assert RAISES_LATE.count("_BUILT") == 3
    report = run_checks(RAISES_LATE, backend=process_backend)
    consistency = next(c for c in report.checks if c.name == "consistency")
    assert consistency.status == "failed", consistency.reason
    assert "too many instances" in consistency.reason and "one instance per case" in consistency.reason
    assert not report.passed and not report.infrastructure_error
