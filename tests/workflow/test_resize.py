"""Size repairs (synth.workflow.resize): rewritten LEVELS when the gate fails a candidate only on
diversity/levels, the input bounds they respect, and the workflow that gates each variant and
keeps the first that passes every check -- recorded as a repair, never silent."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e import REPO, FakeEndpoint, only_run, outcomes, synth, synth_env
from fakes.scenarios import TINY_LEVELS_PART
from fixtures.compiled.assemble_all import sample_reference, sample_task

from synth import compiled
from synth.gate import run_checks
from synth.library import Library
from synth.runs import read_events
from synth.workflow.repair import repair_source
from synth.workflow.resize import SIZE_CHECKS, input_bounds, level_variants

SPEC_16 = "The only line contains two integers n and k (1 ≤ n ≤ 10^18, 1 ≤ k ≤ 12)."


def _levels(code: str) -> dict[str, dict[str, int]]:
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "LEVELS" for t in node.targets):
            return dict(ast.literal_eval(node.value))
    raise AssertionError("no LEVELS")


@pytest.mark.parametrize(("spec", "want"), [
    (SPEC_16, {"n": 10**18, "k": 12}),
    ("n (2 ≤ n ≤ 2·10^5), then 1 ≤ a_i ≤ 10^9", {"n": 200_000, "a": 10**9}),
    ("1 \\le m, q \\le 100 and 1 <= t <= 10**4", {"m": 100, "q": 100, "t": 10_000}),
    ("1 ≤ n ≤ 50, and later again 1 ≤ n ≤ 20", {"n": 20}),
    ("no bounds at all", {}),
    (None, {}),
])
def test_input_bounds_reads_the_constraints_of_a_specification(spec, want):
    assert input_bounds(spec) == want


def test_variants_scale_the_sizes_that_differ_and_respect_the_bounds():
    variants = level_variants(TINY_LEVELS_PART, SPEC_16)
    assert len(variants) >= 3
    for code, repair in variants:
        levels = _levels(code)
        assert list(levels) == ["easy", "medium", "hard"]
        for name in ("n", "k"):
            values = [levels[lv][name] for lv in levels]
            assert values == sorted(values)  # a ladder (k may reach its bound early)
        n = [levels[lv]["n"] for lv in levels]
        assert n[0] > 3 and n[0] < n[1] < n[2]
        assert all(1 <= levels[lv]["k"] <= 12 for lv in levels)  # 1 <= k <= 12
        assert repair.kind == "levels" and "LEVELS" in repair.detail and "k" in repair.detail
        # only the literal changed
        rest = [x for x in code.splitlines() if "LEVELS" not in x]
        assert rest == [x for x in TINY_LEVELS_PART.splitlines() if "LEVELS" not in x]
    assert len({code for code, _ in variants}) == len(variants)


def test_parameters_kept_equal_lower_bounds_and_non_integers_are_left_alone():
    code = '''class B:
    LEVELS = {"easy": {"n": 2, "mode": "sum", "width": 5, "min_len": 1, "p": 0.5},
              "medium": {"n": 4, "mode": "max", "width": 5, "min_len": 2, "p": 0.7},
              "hard": {"n": 8, "mode": "max", "width": 5, "min_len": 3, "p": 0.9}}
'''
    for fixed, _ in level_variants(code):
        levels = _levels(fixed)
        assert [levels[lv]["width"] for lv in levels] == [5, 5, 5]
        assert [levels[lv]["min_len"] for lv in levels] == [1, 2, 3]
        assert [levels[lv]["mode"] for lv in levels] == ["sum", "max", "max"]
        assert [levels[lv]["p"] for lv in levels] == [0.5, 0.7, 0.9]
        assert levels["easy"]["n"] > 2


@pytest.mark.parametrize("code", [
    "class B:\n    LEVELS = make_levels()\n",
    "class B:\n    LEVELS = {'easy': {'n': 3}}\n",  # one level: nothing to order
    "class B:\n    LEVELS = {'easy': {'n': 3}, 'hard': {'n': 3}}\n",  # nothing differs
    "class B:\n    pass\n",
    "class B(:\n",
])
def test_nothing_to_rewrite_gives_no_variant(code):
    assert level_variants(code) == []


@pytest.fixture(scope="module")
def tiny_module() -> str:
    """The tiny-LEVELS part after the static repairs, assembled with record 16's program."""
    own, _ = repair_source(TINY_LEVELS_PART)
    return compiled.assemble(own, sample_reference(16), compiled.task_text(sample_task(16)))


def test_the_gate_fails_the_tiny_presets_on_sizes_only_and_passes_the_first_variant(tiny_module):
    examples = [e.input for e in sample_task(16).examples]
    before = run_checks(tiny_module, backend="process", example_inputs=examples)
    assert not before.passed
    assert {x.name for x in before.failing} <= SIZE_CHECKS and before.failing
    fixed, _ = level_variants(tiny_module, SPEC_16)[0]
    after = run_checks(fixed, backend="process", example_inputs=examples)
    assert after.passed, after.feedback()


def test_a_candidate_failing_more_than_sizes_is_not_resized(tiny_module):
    """Presets are rewritten only when sizes are ALL that failed: a broken render_stdin stays
    failed (here: the 'Input:' label the static repair would have removed)."""
    broken = tiny_module.replace("return f\"{identity['n']} {identity['k']}\\n\"",
                                 "return f\"Input: {identity['n']} {identity['k']}\\n\"")
    assert broken != tiny_module
    report = run_checks(broken, backend="process",
                        example_inputs=[e.input for e in sample_task(16).examples])
    assert {x.name for x in report.failing} - SIZE_CHECKS


def test_the_workflow_repairs_the_label_and_the_presets_and_accepts(tmp_path: Path):
    """The real CLI, scripted endpoint: the draft has the 'Input:' label and tiny presets; the
    static repair and the size repair (each an event, each on the candidate) make it pass the
    gate in round 0, with no revision asked for; the committed module has the new presets."""
    lines = (REPO / "task_descriptions" / "codecontests" / "sample.jsonl").read_text().splitlines()
    data = tmp_path / "one.jsonl"
    data.write_text(lines[15] + "\n")
    fake = FakeEndpoint(tmp_path, "resize")
    try:
        res = synth([sys.executable, "-m", "synth.cli", "run", "--source", "codecontests",
                     "--path", str(data), "--coder-model", "fake-coder", "--solver-model",
                     "fake-solver", "--library", str(tmp_path / "lib"), "--runs-dir",
                     str(tmp_path / "runs"), "--sandbox", "process", "--samples", "16",
                     "--rounds", "1", "--candidates", "1", "--request-timeout", "10"],
                    synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    run_dir = only_run(tmp_path / "runs")
    assert [s for s, _ in outcomes(run_dir).values()] == ["accepted"]
    events = read_events(run_dir / "events.jsonl")
    kinds = [e["repair"] for e in events if e["kind"] == "repair"]
    assert "stdin_label" in kinds and "levels" in kinds
    resized = [e for e in events if e["kind"] == "resize"]
    assert len(resized) == 1 and resized[0]["passed"] and resized[0]["tried"] >= 1
    assert set(resized[0]["failing"].split(", ")) <= SIZE_CHECKS
    assert not [e for e in events if e["kind"] == "node" and e["node"] == "revise"]
    recs = Library(tmp_path / "lib").records()
    assert len(recs) == 1
    module = (tmp_path / "lib" / recs[0].module_path).read_text()
    levels = _levels(module)
    assert levels["easy"]["n"] > 3 and all(levels[lv]["k"] <= 12 for lv in levels)
    cand = run_dir / "candidates"
    assert list(cand.rglob("*.check.before_resize.json"))
    assert json.loads(next(cand.rglob("*.check.before_resize.json")).read_text())["passed"] is False


def test_few_instances_blocks_the_commit_and_a_size_repair_answers_it():
    """A bootcamp the gate passes but whose seeds give few different prompts (2 or 3 numbers
    of 0..4): the workflow counts the library's instances rule among what blocks it, tells the
    coder why in the revise feedback, and tries sizes; the first rewritten LEVELS passes the
    gate and the rule."""
    from helpers import TOY_SUM

    from synth.workflow.nodes import blocking, feedback

    few = TOY_SUM.replace('LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
                          'LEVELS = {"easy": {"n": 2, "hi": 4}, "hard": {"n": 3, "hi": 4}}')
    assert few != TOY_SUM
    report = run_checks(few, backend="process")
    assert report.passed and blocking(report) == ["instances"]
    assert set(blocking(report)) <= SIZE_CHECKS
    text = feedback(report)
    assert "library's rule" in text and "widen the ranges" in text
    fixed, _ = level_variants(few)[0]
    after = run_checks(fixed, backend="process")
    assert after.passed and not blocking(after), feedback(after)
    assert not blocking(run_checks(TOY_SUM, backend="process"))


def test_size_variants_are_gated_fail_fast_and_the_kept_one_ran_every_check(tmp_path: Path):
    """Each variant is gated fail-fast (a variant that still fails ends at its first rejecting
    check, before the slow oracle and key checks); the variant kept passed with every check
    run, and its report is the one returned; the candidate carries the new presets as a
    repair."""
    import asyncio
    import threading
    from types import SimpleNamespace

    from helpers import TOY_SUM

    from synth.tasks import Provenance, TaskDescription, TaskKind
    from synth.workflow.nodes import _resize, blocking

    few = TOY_SUM.replace('LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
                          'LEVELS = {"easy": {"n": 2, "hi": 4}, "hard": {"n": 3, "hi": 4}}')
    calls: list[tuple[bool, Any]] = []
    lock = threading.Lock()

    def gate(code: str, **kw: Any) -> Any:
        report = run_checks(code, **kw)
        with lock:
            calls.append((bool(kw.get("config") and kw["config"].fail_fast), report))
        return report

    events: list[tuple[str, dict[str, Any]]] = []
    run = SimpleNamespace(candidate_dir=lambda _tid: tmp_path,
                          events=SimpleNamespace(emit=lambda kind, _t, **kw: events.append((kind, kw))),
                          root=tmp_path)
    ctx = SimpleNamespace(gate=gate, backend="process", run=run,
                          curriculum=(),  # a library that takes any names
                          sandbox_slots=asyncio.Semaphore(1))
    task = TaskDescription(id="local/toy", source="local", kind=TaskKind.DESCRIPTION, title="toy",
                           statement="a toy task", provenance=Provenance(dataset="tests", location="here"))
    c: dict[str, Any] = {"code": few, "mode": "full", "round": 0, "index": 0}
    before = run_checks(few, backend="process")
    assert blocking(before) == ["instances"]
    after = asyncio.run(_resize(ctx, task, c, {}, before))  # type: ignore[arg-type]
    assert calls and all(fast for fast, _ in calls)
    assert not blocking(after) and after is calls[-1][1]
    assert all(x.status.value != "skipped" or "fail_fast" not in x.reason for x in after.checks)
    assert c["code"] != few and [k for k, _ in events] == ["repair", "resize"]
