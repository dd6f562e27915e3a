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
