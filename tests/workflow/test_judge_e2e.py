"""The judge role end to end: the real CLI against the scripted endpoint (scenario ``judge``).

The independent checker is written by the judge model from the task statement and example cases;
the gate compares the bootcamp with it; disagreements reach the revise prompt with both sides'
evidence; the coder fixes its bootcamp or argues that the checker is wrong, and the checker is
rewritten once. Everything is asserted on the run folder and the library, not on exit codes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e import FakeEndpoint, only_run, outcomes, synth, synth_env
from fakes.scenarios import (
    MAX_BOOTCAMP,
    MAX_CHECKER,
    MAX_CHECKER_RARE,
    MAX_CHECKER_RESHAPED,
    MAX_CHECKER_WRONG,
    MAX_REFERENCE,
    MAX_RESHAPED,
    SORT_CHECKER,
    SORT_FIXED,
    SORT_LENIENT,
)

from synth.gate import run_checks
from synth.gate.report import CheckResult, CheckStatus, differential_examples, render_differential
from synth.library import Library
from synth.runs import read_events, task_slug
from synth.tasks import make_task_id
from synth.workflow.judge import extract_checker
from synth.workflow.judge_program import parse_argument

TASKS = {
    "lenient-sort": ("Sort a list of integers", "Given a list of non-negative integers, output the "
                     "same integers in ascending order, separated by single spaces."),
    "argue-max": ("The largest integer", "Given a list of integers, output the largest of them."),
    "nochecker-max": ("The largest integer, again", "Given a list of integers, output the largest."),
    "reshape-max": ("The largest integer, reshaped", "Given a list of integers, output the largest."),
}


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _run(tmp: Path, source: str, path: Path, candidates: int) -> tuple[Path, Path]:
    fake = FakeEndpoint(tmp, "judge")
    try:
        args = [
            sys.executable, "-m", "synth.cli", "run", "--source", source, "--path", str(path),
            "--coder-model", "fake-coder", "--solver-model", "fake-solver",
            "--judge-model", "fake-judge", "--library", str(tmp / "lib"),
            "--runs-dir", str(tmp / "runs"), "--sandbox", "process", "--samples", "24",
            "--rounds", "2", "--candidates", str(candidates), "--request-timeout", "5",
            "--no-dedup",  # three tasks ask for the largest integer: kept apart here
        ]
        res = synth(args, synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    return only_run(tmp / "runs"), tmp / "lib"


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    tmp = tmp_path_factory.mktemp("judge")
    folder = tmp / "tasks"
    folder.mkdir()
    for name, (title, statement) in TASKS.items():
        (folder / f"{name}.md").write_text(f"---\nid: {name}\ntitle: {title}\n---\n{statement}\n")
    run_dir, lib = _run(tmp, "local", folder, candidates=2)
    return run_dir, Library(lib)


def events(run_dir: Path, task: str, kind: str | None = None) -> list[dict[str, Any]]:
    return [e for e in read_events(run_dir / "events.jsonl")
            if e.get("task") == task and (kind is None or e["kind"] == kind)]


def report(run_dir: Path, task: str, stem: str) -> dict[str, Any]:
    path = run_dir / "candidates" / task.replace("/", "_") / f"{stem}.check.json"
    return json.loads(path.read_text())


def check_of(rep: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in rep["checks"] if c["name"] == name)


def prompts(run_dir: Path, task: str, tag: str) -> list[str]:
    lines = (run_dir / "transcripts" / f"{task.replace('/', '_')}.jsonl").read_text().splitlines()
    calls = [json.loads(x) for x in lines]
    return [c["messages"][-1]["content"] for c in calls if c["record"]["tag"].startswith(f"{task}|{tag}")]


def test_every_task_ends_as_scripted(local_run):
    run_dir, lib = local_run
    assert outcomes(run_dir) == {f"local/{n}": ("accepted", "accepted") for n in TASKS}
    assert sorted(lib.list_bootcamps()) == sorted(f"local_{n.replace('-', '_')}" for n in TASKS)
    judge_calls = [e for e in read_events(run_dir / "events.jsonl")
                   if e["kind"] == "llm_call" and e["role"] == "judge"]
    assert judge_calls and all(e["model"] == "fake-judge" for e in judge_calls)
    assert json.loads((run_dir / "config.json").read_text())["config"]["judge"]["model"] == "fake-judge"


def test_a_lenient_verifier_is_exposed_fixed_and_committed_with_its_checker(local_run):
    run_dir, lib = local_run
    task = "local/lenient-sort"
    checkers = run_dir / "checkers" / "local_lenient-sort"
    # the judge wrote one checker, before the first check, from three sampled example cases
    assert (checkers / "round_0.py").read_text() == SORT_CHECKER
    meta = json.loads((checkers / "round_0.json").read_text())
    assert meta["origin"] == "initial" and meta["sha256"] == sha(SORT_CHECKER)
    assert meta["keys"] == ["numbers"] and len(meta["examples"]) == 3
    assert {e["level"] for e in meta["examples"]} == {"easy", "medium", "hard"}
    assert not (checkers / "round_1.py").exists()
    judge_prompt = prompts(run_dir, task, "judge")[0]
    assert meta["examples"][0]["case_text"] in judge_prompt and meta["examples"][0]["prompt"] in judge_prompt
    assert "def _verify_correction" not in judge_prompt  # never the bootcamp's code
    # the lenient draft passes every check of the gate without the checker; the checker exposes it
    draft = (run_dir / "candidates" / "local_lenient-sort" / "round_0_0.py").read_text()
    assert draft == SORT_LENIENT
    # without the checker, the gate now sees it too: the list exactly as the prompt shows it
    # (unsorted) scores 1.0 on every case (the mutation check's copied-answer probe)
    alone = run_checks(draft, backend="process")
    assert [(c.name, c.finding) for c in alone.failing] == [("mutation", "answer_is_input")]
    first = report(run_dir, task, "round_0_0")
    diff = check_of(first, "differential")
    assert diff["status"] == "failed" and diff["finding"] == "verifier_too_lenient"
    assert all(c["status"] in ("passed", "skipped") for c in first["checks"]
               if c["name"] not in ("differential", "mutation"))
    # both sides' evidence reached the coder, case by case
    revise = prompts(run_dir, task, "revise")[0]
    assert "### verifier_too_lenient" in revise and "your verifier: score 1.0 (accepted)" in revise
    assert "independent checker: rejects it" in revise and "the checker's own solve():" in revise
    assert "CHECKER IS WRONG:" in revise  # the coder may dispute (it did not)
    # the revision fixes the order and passes, with the same checker
    assert (run_dir / "candidates" / "local_lenient-sort" / "round_1_0.py").read_text() == SORT_FIXED
    second = report(run_dir, task, "round_1_0")
    assert second["passed"] and check_of(second, "differential")["status"] == "passed"
    verdicts = [json.loads(x) for x in (checkers / "verdicts.jsonl").read_text().splitlines()]
    assert [(v["round"], v["status"]) for v in verdicts] == [(0, "failed"), (0, "failed"), (1, "passed")]
    assert {v["checker_sha256"] for v in verdicts} == {sha(SORT_CHECKER)}
    assert not [e for e in events(run_dir, task, "judge") if e["action"] == "dispute"]
    # committed with its checker: hash, file in the library, verdict summary
    rec = lib.record("local_lenient_sort")
    assert rec.code_sha256 == sha(SORT_FIXED)
    assert rec.checker_sha256 == sha(SORT_CHECKER)
    assert rec.checker_path == "local/checkers/local_lenient_sort.py"
    assert (lib.root / rec.checker_path).read_text() == SORT_CHECKER
    assert rec.differential is not None
    assert rec.differential["status"] == "passed" and rec.differential["checker_origin"] == "initial"
    assert rec.differential["disputed"] is False and rec.differential["judge_model"] == "fake-judge"
    commit = events(run_dir, task, "commit")[0]
    assert commit["checker_sha256"] == sha(SORT_CHECKER)


def test_a_wrong_checker_is_argued_rewritten_once_and_the_bootcamp_accepted(local_run):
    run_dir, lib = local_run
    task = "local/argue-max"
    checkers = run_dir / "checkers" / "local_argue-max"
    assert (checkers / "round_0.py").read_text() == MAX_CHECKER_WRONG
    first = report(run_dir, task, "round_0_0")
    assert check_of(first, "differential")["finding"] == "reference_disagrees"
    # the coder argued instead of changing correct code
    dispute = [e for e in events(run_dir, task, "judge") if e["action"] == "dispute"]
    assert len(dispute) == 1 and dispute[0]["round"] == 1 and dispute[0]["with_code"] is False
    assert "computes min()" in dispute[0]["argument"]
    assert dispute[0]["checker_sha256"] == sha(MAX_CHECKER_WRONG)
    # one rewrite, with the argument and both sides' evidence in the judge's prompt
    judge_prompts = prompts(run_dir, task, "judge")
    assert len(judge_prompts) == 2
    assert "## Your checker was disputed" in judge_prompts[1]
    assert "it computes min() where the statement says largest" in judge_prompts[1]
    assert "the bootcamp's verifier: score 1.0 (accepted)" in judge_prompts[1]
    assert "your checker: rejects it" in judge_prompts[1] and MAX_CHECKER_WRONG.strip() in judge_prompts[1]
    assert (checkers / "round_1.py").read_text() == MAX_CHECKER
    meta = json.loads((checkers / "round_1.json").read_text())
    assert meta["origin"] == "argued" and meta["generation"] == 2
    assert meta["replaces"] == sha(MAX_CHECKER_WRONG)
    assert "computes min()" in meta["dispute"]["argument"]
    # the same module, checked again with the new checker, passes
    cands = run_dir / "candidates" / "local_argue-max"
    assert (cands / "round_1_0.py").read_text() == (cands / "round_0_0.py").read_text() == MAX_BOOTCAMP
    second = report(run_dir, task, "round_1_0")
    assert second["passed"] and check_of(second, "differential")["status"] == "passed"
    rec = lib.record("local_argue_max")
    assert rec.code_sha256 == sha(MAX_BOOTCAMP) and rec.checker_sha256 == sha(MAX_CHECKER)
    assert (lib.root / (rec.checker_path or "")).read_text() == MAX_CHECKER
    assert rec.differential is not None
    assert rec.differential["disputed"] is True and rec.differential["dispute_rewrote_checker"] is True
    assert rec.differential["generations"] == 2 and rec.differential["checker_origin"] == "argued"


def test_a_checker_that_fails_its_lint_is_regenerated_once_then_the_task_goes_on_without(local_run):
    run_dir, lib = local_run
    task = "local/nochecker-max"
    judge = events(run_dir, task, "judge")
    assert [e["action"] for e in judge] == ["attempt_rejected", "attempt_rejected", "gave_up"]
    assert "import of 'os' is not allowed" in judge[0]["problem"]
    assert "WITHOUT an independent checker" in judge[-1]["warning"]
    checkers = run_dir / "checkers" / "local_nochecker-max"
    assert (checkers / "round_0.rejected_0.py").read_text().startswith("import os")
    assert json.loads((checkers / "round_0.json").read_text())["status"] == "gave_up"
    assert not (checkers / "round_0.py").exists()
    refused = prompts(run_dir, task, "judge")[1]
    assert "## Your previous checker was refused" in refused and "import os" in refused
    assert check_of(report(run_dir, task, "round_0_0"), "differential")["status"] == "skipped"
    rec = lib.record("local_nochecker_max")
    assert rec.checker_sha256 is None and rec.checker_path is None
    assert rec.differential is not None and rec.differential["status"] == "no_checker"


def test_a_revision_with_other_fields_gets_a_checker_for_them(local_run):
    run_dir, lib = local_run
    task = "local/reshape-max"
    checkers = run_dir / "checkers" / "local_reshape-max"
    assert (checkers / "round_0.py").read_text() == MAX_CHECKER
    assert (checkers / "round_1.py").read_text() == MAX_CHECKER_RESHAPED
    meta = json.loads((checkers / "round_1.json").read_text())
    assert meta["origin"] == "format" and meta["keys"] == ["values"]
    final = report(run_dir, task, "round_1_0")
    assert final["passed"]
    diff = check_of(final, "differential")
    assert diff["status"] == "passed" and not diff["artifacts"].get("checker_notes")
    rec = lib.record("local_reshape_max")
    assert rec.code_sha256 == sha(MAX_RESHAPED) and rec.checker_sha256 == sha(MAX_CHECKER_RESHAPED)
    assert rec.differential is not None and rec.differential["format_regenerations"] == 1


def test_with_a_reference_program_its_verdict_is_evidence_and_settles_it(tmp_path: Path):
    record = {"id": "refmax", "title": "Largest of a list (with a reference program)",
              "statement": "The first line holds n, the second n integers. Print the largest.",
              "reference": MAX_REFERENCE}
    data = tmp_path / "tasks.jsonl"
    data.write_text(json.dumps(record) + "\n")
    run_dir, lib_dir = _run(tmp_path, "jsonl", data, candidates=1)
    task = make_task_id("jsonl", "refmax", record["statement"])  # with the statement's hash
    assert outcomes(run_dir) == {task: ("accepted", "accepted")}
    checkers = run_dir / "checkers" / task_slug(task)
    assert (checkers / "round_0.py").read_text() == MAX_CHECKER_RARE
    first = report(run_dir, task, "round_0_0")
    assert check_of(first, "oracle")["status"] == "passed"
    notes = check_of(first, "differential")["artifacts"]["checker_notes"]
    assert "checker_outvoted" in notes  # the third voter sided with the bootcamp
    rec = Library(lib_dir).record("jsonl_refmax")
    assert rec.reference_program is not None and rec.code_sha256 == sha(MAX_BOOTCAMP)
    if check_of(first, "differential")["status"] == "passed":
        assert rec.checker_sha256 == sha(MAX_CHECKER_RARE)  # the program settled it alone
        return
    # the program's verdict went to the coder and, with its argument, to the judge
    revise = prompts(run_dir, task, "revise")[0]
    assert "reference program (third voter), oracle check passed" in revise
    judge_prompts = prompts(run_dir, task, "judge")
    assert len(judge_prompts) == 2 and "reference program (third voter)" in judge_prompts[1]
    assert "7 modulo 20" in judge_prompts[1]
    assert (checkers / "round_1.py").read_text() == MAX_CHECKER
    assert report(run_dir, task, "round_1_0")["passed"]
    assert rec.checker_sha256 == sha(MAX_CHECKER)
    assert rec.differential is not None and rec.differential["disputed"] is True


# -- the pieces the run relies on ---------------------------------------------------------------


def test_the_argument_convention():
    assert parse_argument("CHECKER IS WRONG: it wants the minimum.") == "it wants the minimum."
    text = "Thinking done.\n**CHECKER IS WRONG:** case 3 is right\nbecause...\n```python\nx = 1\n```\n"
    assert parse_argument(text) == "case 3 is right\nbecause..."
    assert parse_argument("checker is wrong: lower case counts too") == "lower case counts too"
    assert parse_argument("<think>CHECKER IS WRONG: maybe</think>\n```python\nx=1\n```") is None
    assert parse_argument("Do not write `CHECKER IS WRONG:` unless sure.") is None  # not a line start
    assert parse_argument("CHECKER IS WRONG:   \n") is None


def test_checker_extraction():
    ok = extract_checker("Here:\n```python\ndef check(identity, answer):\n    return True\n```\n")
    assert ok.code == "def check(identity, answer):\n    return True\n"
    assert extract_checker("no code").failure == "no_code"
    assert extract_checker("```python\ndef solve(i):\n    return 1\n```").failure == "no_code"
    assert extract_checker("```python\ndef check(i, a):\n    return (\n```").failure == "syntax_error"


def test_truncated_evidence_still_renders_every_whole_example():
    example = {"answer": "4 9 5", "case": '{"numbers": [9, 5, 4]}', "checker_says": False,
               "level": "easy", "origin": "mutant:permute", "reference_answer": "4 5 9",
               "response": None, "solve_answer": "4 5 9", "verifier_score": 1.0}
    evidence = json.dumps({"verifier_too_lenient": [example] * 12}, sort_keys=True)
    check = CheckResult(name="differential", status=CheckStatus.FAILED, reason="lenient",
                        finding="verifier_too_lenient", artifacts={"evidence": evidence})
    assert len(check.artifacts["evidence"]) < len(evidence)  # cut to the artifact cap
    found = differential_examples(check.artifacts["evidence"])
    assert 3 <= len(found) < 12 and all(k == "verifier_too_lenient" for k, _ in found)
    text = render_differential(check)
    assert "answer judged: '4 9 5'" in text and "your verifier: score 1.0 (accepted)" in text
    judge_text = render_differential(check, voice="judge")
    assert "your checker: rejects it" in judge_text and "the bootcamp's verifier" in judge_text
