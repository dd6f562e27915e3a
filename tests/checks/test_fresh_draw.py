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


def test_the_space_estimate_recovers_known_spaces() -> None:
    """Draws from uniform spaces of known size: the estimate lands within a fifth of it (at
    256 draws), a space with no repeat is unbounded, and the estimate never falls below what
    was seen."""
    from synth.gate.fresh import space_estimate

    rng = random.Random(11)
    for size in (20, 60, 150, 400, 900):
        for _ in range(5):
            draws = [rng.randrange(size) for _ in range(256)]
            est = space_estimate(len(draws), len(set(draws)))
            assert 0.8 * size <= est <= 1.25 * size, (size, est)
            assert est >= len(set(draws))
    assert space_estimate(100, 100) == float("inf")
    assert space_estimate(50, 1) == 1.0


def test_export_yield_matches_export_s_own_draws() -> None:
    """The expected distinct prompts from export's 750 draws (spread over the levels), against
    draws made as export makes them (level by index, the split's attempts), on nested levels
    (an easy range inside the hard one: make_a_pile's 25/97/385, 232 expected: fewer than
    export's 250 rows, though its hardest level alone holds 385) and on disjoint ones; within 6 % of the mean."""
    from synth.gate.fresh import EXPORT_ATTEMPTS, export_yield

    rng = random.Random(5)
    for sizes, nested in (([25, 97, 385], True), ([60, 200, 900], True), ([40, 150, 120], False),
                          ([300], False), ([12, 30], True)):
        seen = []
        for _ in range(40):
            got: set[tuple[int, int]] = set()
            for i in range(EXPORT_ATTEMPTS):
                level = i % len(sizes)
                value = rng.randrange(sizes[level])
                got.add((0, value) if nested else (level, value))
            seen.append(len(got))
        mean = sum(seen) / len(seen)
        assert abs(export_yield([float(s) for s in sizes], nested) - mean) <= 0.06 * mean, (
            sizes, nested, mean)
    assert export_yield([25.0, 97.0, 385.0], True) < 250 <= 385
    assert export_yield([float("inf")] * 3, True) == EXPORT_ATTEMPTS


def test_the_shared_fraction_tells_nested_levels_from_disjoint_ones() -> None:
    """Levels drawn from nested ranges share about as many prompts as nesting predicts (near
    1), disjoint ranges none (0), half-overlapping ranges about half."""
    from synth.gate.fresh import shared_fraction, space_estimate

    rng = random.Random(3)

    def fraction(ranges: list[tuple[int, int]]) -> float:
        sets, ests, draws = [], [], []
        for lo, hi in ranges:
            got = [rng.randrange(lo, hi) for _ in range(267)]
            sets.append({str(v) for v in got})
            ests.append(space_estimate(len(got), len(set(got))))
            draws.append(len(got))
        return shared_fraction(sets, ests, draws)

    assert fraction([(0, 40), (0, 160), (0, 450)]) >= 0.85
    assert fraction([(0, 40), (1000, 1160), (2000, 2450)]) == 0.0
    assert 0.3 <= fraction([(0, 200), (100, 300)]) <= 0.7


#: the toy task over a handful of small numbers: 2 of 0..4 when easy (25 prompts), 3 when hard
#: (125 prompts)
FEW = TOY_SUM.replace('LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
                      'LEVELS = {"easy": {"n": 2, "hi": 4}, "hard": {"n": 3, "hi": 4}}')


def test_a_bootcamp_with_few_instances_is_reported_with_its_space(process_backend: Backend) -> None:
    """150 possible prompts: the bootcamp is right (every hard check passes: synth check
    accepts it), but export's 250 rows would repeat them. The instances check (not hard) puts
    the space at about 125 (the hard level's) from the consistency check's fresh draws and
    reports few_instances, naming each level's draws: synth run commits no such bootcamp. The
    toy task itself (1,000 easy prompts, far more hard ones) passes it and says so."""
    from synth.gate import run_checks

    assert FEW != TOY_SUM
    report = run_checks(FEW, backend=process_backend)
    assert report.passed and not report.failing, report.feedback()
    instances = report.few_instances
    assert instances is not None and not instances.hard and instances.status.value == "failed"
    assert report.get("consistency").ok
    levels = json.loads(instances.artifacts["levels"])
    assert set(levels) == {"easy", "hard"}
    assert levels["easy"]["distinct"] <= 25 and levels["hard"]["distinct"] <= 125
    assert 90 <= levels["hard"]["estimate"] <= 160, levels
    fine = run_checks(TOY_SUM, backend=process_backend)
    assert fine.few_instances is None
    got = fine.get("instances")
    assert got is not None and got.status.value == "passed" and "different prompts" in got.reason
