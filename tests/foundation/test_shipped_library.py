"""Acceptance checks over every bootcamp shipped in generated_bootcamps/ (the manifest)."""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from synth.bootcamp import BaseBootcamp, MultiTurnBootcamp
from synth.library import Library

LIB = Library()
NAMES = LIB.list_bootcamps()
CASES = 200
#: Cases per level for a bootcamp that consults an engine (its record names the engines): each
#: case costs engine self-play, and tests/engines holds the volume of these same properties --
#: the 200-position acceptance test (GNU Go's own move scores 1.0 by verify_score), the reference
#: policy reaching 1.0 on 15 go_game episodes, the gate's self_consistency and determinism
#: checks on the shipped modules at full size. Here 3 per level (12 go_move positions, 9 go_game
#: episodes) show each level self-consistent, varied and growing.
ENGINE_CASES = 3

#: Every level's first cases at one seed, as JSON. An engine-backed bootcamp draws 2 a level
#: (engine self-play per case: the first case and the stream continuing); tests/engines asserts
#: the same of them on more cases: the gate's determinism check on the shipped go_move and
#: go_game (6 cases a level, another PYTHONHASHSEED: test_gate.py's shipped_checks),
#: test_go_move's cases in another process and test_go_game's episodes replayed in another one.
DUMP = """
import json, sys
from generated_bootcamps import list_bootcamps, load_bootcamp
out = {}
for name in list_bootcamps():
    cls = load_bootcamp(name)
    for level in cls.LEVELS:
        bc = cls.from_level(level, seed=12345)
        count = 2 if getattr(cls, "ENGINES", ()) else 40  # engine time per case
        out[f"{name}/{level}"] = [bc.case_generator() for _ in range(count)]
sys.stdout.write(json.dumps(out, sort_keys=True))
"""


def test_library_ships_enough_bootcamps():
    assert len(NAMES) >= 6, NAMES
    records = LIB.records()
    assert {r.origin for r in records} <= {"handwritten", "generated"}
    assert any(r.origin == "generated" for r in records)  # the pipeline's own, with the embedded model
    for rec in records:
        if rec.origin == "handwritten":  # hand-written ones stay marked as such
            assert rec.source == "handwritten" and rec.coder_model is None and rec.run_id is None
        else:  # generated: who wrote it, in which run, with which prompt, at what pass rate
            assert rec.coder_model and rec.solver_model and rec.run_id and rec.prompt_version
            assert rec.pass_rate is not None and rec.samples and rec.level_pass_rates
            assert 0.03 <= rec.pass_rate <= 0.85
    for rec in records:
        assert rec.levels[:3] == LIB.read_manifest().curriculum == ["easy", "medium", "hard"], rec.name


def test_generated_bootcamps_are_calibrated_and_none_duplicates_another(tmp_path: Path) -> None:
    """Every generated bootcamp: its pass rate measured by the calibration (all of at least 16
    solver answers, no early stop) and in the band; and no two of them alike. The generated
    records, indexed afresh as the commit's duplicate check indexes them (the same prompts, or
    the same answers to the same arguments, on 95 % of either side's probes, or the same task
    text): no bootcamp's probes find another of its family."""
    import shutil

    from filters.dedup import reindex

    generated = [r for r in LIB.records() if r.origin == "generated"]
    assert generated
    for rec in generated:
        cal = rec.calibration
        assert cal is not None and cal.samples_answered >= 16 and (rec.samples or 0) >= 16, rec.name
        assert rec.pass_rate is not None and 0.03 <= rec.pass_rate <= 0.85, rec.name
    root = tmp_path / "lib"
    shutil.copytree(LIB.root, root, ignore=shutil.ignore_patterns("_dedup", "__pycache__"))
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["bootcamps"] = [r for r in manifest["bootcamps"] if r["name"] in
                             {g.name for g in generated}]
    (root / "manifest.json").write_text(json.dumps(manifest))
    index = reindex(Library(root), backend="process")
    assert sorted(index.entries) == sorted(r.name for r in generated)
    families = {index.entries[r.name].family for r in generated}
    assert {"codecontests", "humaneval"} <= families, families
    for name, fp in index.entries.items():
        assert len(fp) >= 24, (name, len(fp))
        assert [p.name for p in index.duplicates(fp) if p.name != name] == [], name


def _cases(cls: type[BaseBootcamp], level: str, n: int = CASES, seed: int = 2024) -> list[dict]:
    if getattr(cls, "ENGINES", ()):  # every test here takes the same few engine cases, drawn once
        return copy.deepcopy(_engine_cases(cls, level))
    bc = cls.from_level(level, seed=seed)
    return [bc.case_generator() for _ in range(n)]


@functools.cache
def _engine_cases(cls: type[BaseBootcamp], level: str) -> list[dict]:
    bc = cls.from_level(level, seed=2024)
    return [bc.case_generator() for _ in range(ENGINE_CASES)]


def test_same_seed_same_cases_across_processes_and_hash_seeds():
    procs = []  # the two processes at the same time (two cores; each is one chain of processes)
    for hashseed in ("1", "31337"):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
        env["PYTHONHASHSEED"] = hashseed
        procs.append(subprocess.Popen([sys.executable, "-c", DUMP], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env))
    try:
        done = [proc.communicate(timeout=300) for proc in procs]
    finally:  # (one timed out: none is left running)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    dumps = []
    for proc, (out, err) in zip(procs, done, strict=True):
        assert proc.returncode == 0, err[-2000:]
        dumps.append(json.loads(out))
    assert set(dumps[0]) == {f"{n}/{lvl}" for n in NAMES for lvl in LIB.load_bootcamp(n).LEVELS}
    for key in dumps[0]:
        assert dumps[0][key] == dumps[1][key], f"{key} differs between processes"


@pytest.mark.parametrize("name", NAMES)
def test_typo_parameter_raises(name: str):
    cls = LIB.load_bootcamp(name)
    with pytest.raises(TypeError):
        cls(seed=1, definitely_not_a_parameter=3)


def _reference_episode(cls: type[MultiTurnBootcamp], case: dict) -> tuple[list[str], dict]:
    """A multi-turn bootcamp's reference episode from ``case``: (actions, last step). An
    engine-backed bootcamp's (GNU Go at the reference level for every move) is played once per
    case for every test of the file (:data:`_ENGINE_EPISODES`): the same few cases are drawn
    once, and an episode depends only on its case."""
    if not getattr(cls, "ENGINES", ()):
        return _played_episode(cls, case)
    key = (cls, json.dumps(case, sort_keys=True))
    if key not in _ENGINE_EPISODES:
        _ENGINE_EPISODES[key] = _played_episode(cls, copy.deepcopy(case))
    actions, step = _ENGINE_EPISODES[key]
    return list(actions), copy.deepcopy(step)


#: The reference episodes of the engine-backed bootcamps' cases, by (class, case as JSON)
_ENGINE_EPISODES: dict[tuple[type, str], tuple[list[str], dict]] = {}


def _played_episode(cls: type[MultiTurnBootcamp], case: dict) -> tuple[list[str], dict]:
    _, state = cls.reset(case)
    actions, step = [], {"reward": 0.0, "done": False}
    for _ in range(cls.MAX_TURNS):
        actions.append(cls.reference_policy(state))
        step = cls.step(state, actions[-1])
        state = step["state"]
        if step["done"]:
            break
    return actions, step


@pytest.mark.parametrize("name", NAMES)
def test_self_consistency_on_200_cases_per_level(name: str):
    cls = LIB.load_bootcamp(name)
    for level in cls.LEVELS:
        for case in _cases(cls, level):
            assert json.loads(json.dumps(case)) == case
            if issubclass(cls, MultiTurnBootcamp):  # the reference episode reaches 1.0
                _, last = _reference_episode(cls, case)
                assert last["done"] and last["reward"] == 1.0, (level, case)
                continue
            answer = cls.reference_answer(case)
            assert cls.verify_score(cls.wrap_answer(answer), case) == 1.0, (level, case)


def _corruptions(answer: str) -> list[str]:
    # the answer twice, apart: written together, "0" twice is "00", the same integer in any
    # verifier that compares values
    out = ["", answer[:-1], answer + " " + answer, answer + " 0"]
    for i in (len(answer) // 2, 0, len(answer) - 1):
        if not answer:
            break
        ch = answer[i]
        if ch.isdigit():
            rep = str((int(ch) + 1) % 10)
        elif ch.isalpha():
            rep = "q" if ch.lower() != "q" else "z"
        else:
            continue
        out.append(answer[:i] + rep + answer[i + 1 :])
        break
    return [c for c in out if c != answer]


@pytest.mark.parametrize("name", NAMES)
def test_corrupted_answers_score_below_one(name: str):
    cls = LIB.load_bootcamp(name)
    for level in cls.LEVELS:
        for case in _cases(cls, level, n=60, seed=99):
            for bad in _corruptions(cls.reference_answer(case)):
                assert cls.verify_score(cls.wrap_answer(bad), case) < 1.0, (level, bad, case)


@pytest.mark.parametrize("name", NAMES)
def test_distinct_cases_and_varied_answers(name: str):
    """Hand-written seeds: at least 90% distinct cases of 200 on every level. Generated ones are
    held to the gate's diversity standard (at least 10 distinct of 40): the embedded
    model's bootcamp for sample task 16 has 40 possible easy cases (n <= 10, k <= 4)."""
    cls = LIB.load_bootcamp(name)
    handwritten = LIB.record(name).origin == "handwritten"
    for level in cls.LEVELS:
        cases = _cases(cls, level, seed=7)
        distinct = {json.dumps(c, sort_keys=True) for c in cases}
        if handwritten:
            assert len(distinct) >= 0.9 * len(cases), (level, len(distinct))
        else:
            first = {json.dumps(c, sort_keys=True) for c in cases[:40]}
            assert len(first) >= 10, (level, len(first))
        if issubclass(cls, MultiTurnBootcamp):  # an episode's answer is its actions
            answers = {"\n".join(_reference_episode(cls, c)[0]) for c in cases}
        else:
            answers = {cls.reference_answer(c) for c in cases}
        assert len(answers) > 1, level


@pytest.mark.parametrize("name", NAMES)
def test_levels_change_the_cases(name: str):
    cls = LIB.load_bootcamp(name)
    sizes = []
    for level in ("easy", "medium", "hard"):
        cases = _cases(cls, level, n=60, seed=5)
        sizes.append(sum(len(json.dumps(c)) + len(cls.prompt_func(c)) for c in cases))
    assert sizes[0] < sizes[2], sizes
    assert sizes[0] <= sizes[1] <= sizes[2] or sizes[0] < sizes[1], sizes


@pytest.mark.parametrize("name", NAMES)
def test_garbage_scores_zero(name: str):
    cls = LIB.load_bootcamp(name)
    case = _cases(cls, "medium", n=1)[0]
    for garbage in ["", "no tags", "<answer></answer>", "<answer>" + "9" * 100_000 + "</answer>",
                    "<answer>ünï©ødé ✓</answer>", "<answer>\x00\x01</answer>", "x" * 1_000_000]:
        assert cls.verify_score(garbage, case) == 0.0
