"""Sleeper bootcamps (issue 22, part 6): the verdict in production must be the one the gate gave.

Each ``sleepers/corpus/*.py`` program is a plausible bootcamp that behaves when it is judged and
lies when it is used (``# sleeper:`` seed, call_count, response_shape or environment; the module
docstring says the trick). For each program and backend the harness (``sleepers/harness.py``)
runs the gate and, when the gate accepts, production on wrong answers: ``synth export`` rows
scored by the RL reward and by a warm pool, the acceptance filter with a solver that is always
wrong, and rollouts of multi-turn programs. The test asserts that the gate rejects the program,
or that no wrong answer scores 1.0 on any production path (a path may instead report the
bootcamp quarantined), and that no process started by the measurement outlives it.

process runs every program; each program also runs on one of the isolating backends, for
time: docker runs :data:`DOCKER`, bwrap the others (:data:`BWRAP`); each of the two gets every
class and a multi-turn program (a sleeper's trick tells the gate's traffic from production's,
which no backend changes; what each backend contains is shown on every backend by
``test_corpus.py`` and ``test_gate_attacks.py``). A measurement takes 3-10 s, one the gate
rejects under a second. The table of every measurement on every backend:
``.venv/bin/python -m bench.sleepers``.
"""

from __future__ import annotations

import time

import pytest
from helpers import descendants, require_backend
from sleepers.harness import CLASSES, Program, measure, programs

PROGRAMS = programs()
#: programs measured on no backend (an escape still open would be named here, with its reason):
#: none. The single-turn hash-seed sleeper is caught by the consistency check's reorderings on
#: production's cases, the multi-turn ones by the episode consistency check.
OPEN: set[str] = set()
MEASURED = [p for p in PROGRAMS if p.name not in OPEN]
#: the programs measured on docker too: three or more of each class, a multi-turn one among them
DOCKER = frozenset({
    "seed_case_checksum", "seed_export_exact", "seed_float_unit",
    "count_pool_closure", "count_distinct_cases", "count_multiturn_steps",
    "shape_first_block", "shape_long_reasoning", "shape_prose_first", "shape_sentence_answer",
    "env_first_response", "env_set_order_late", "env_hashseed_cases",
})
#: the programs measured on bwrap too: every program docker does not measure
BWRAP = frozenset({
    "seed_known_identities", "count_default_arg", "count_multiturn_identities",
    "shape_worked_solution", "env_instance_stream", "env_multiturn_hashseed",
    "env_multiturn_hashseed_step",
})
ON = {"process": None, "bwrap": BWRAP, "docker": DOCKER}  # None: every program
#: one measurement (gate, export, reward, pool, filter, rollouts) stays under this
MEASURE_MAX_S = 120.0
pytestmark = pytest.mark.timeout(300)


def _cases() -> list[object]:
    cases: list[object] = []
    for backend in ("process", "bwrap", "docker"):
        for p in MEASURED:
            chosen = ON[backend]
            if chosen is not None and p.name not in chosen:
                continue
            marks = [pytest.mark.docker] if backend == "docker" else []
            cases.append(pytest.param(p, backend, id=f"{p.name}-{backend}", marks=marks))
    return cases




def test_corpus_has_three_programs_of_every_class() -> None:
    per_class = {c: [p.name for p in PROGRAMS if p.sleeper == c] for c in CLASSES}
    assert all(len(names) >= 3 for names in per_class.values()), per_class
    assert sum(p.multi_turn for p in PROGRAMS) >= 2, "multi-turn sleepers are missing"
    for chosen in (DOCKER, BWRAP):
        assert {p.sleeper for p in PROGRAMS if p.name in chosen} == set(CLASSES), sorted(chosen)
        assert any(p.multi_turn for p in PROGRAMS if p.name in chosen), sorted(chosen)
    assert {p.name for p in PROGRAMS} == DOCKER | BWRAP, "a program measured on process only"
    for p in PROGRAMS:
        assert p.trick.startswith("SLEEPER ("), f"{p.name}: the docstring does not say the trick"


@pytest.mark.parametrize(("program", "backend_name"), _cases())
def test_production_agrees_with_the_gate(program: Program, backend_name: str) -> None:
    backend = require_backend(backend_name)
    before = descendants()
    start = time.monotonic()
    m = measure(program, backend)
    elapsed = time.monotonic() - start
    deadline = time.monotonic() + (10.0 if backend_name == "docker" else 3.0)
    while descendants() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    left = sorted(descendants() - before)
    shown = m.summary()
    assert m.ok, (f"a wrong answer scored 1.0 in production after the gate accepted "
                  f"{program.name} ({program.sleeper}: {program.trick[:300]})\n{shown}")
    assert left == [], f"processes outlived the measurement: {left}\n{shown}"
    assert elapsed <= MEASURE_MAX_S, f"the measurement took {elapsed:.0f}s\n{shown}"
