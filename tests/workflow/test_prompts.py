"""The coder's prompts: one stable prefix (system message) for every task and round of a mode,
then a self-contained task part. The nodes are run directly with a recording fake model client.
"""

from __future__ import annotations

import ast
import asyncio
import io
import tokenize
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fakes.scenarios import TOY_SUM, fenced

from synth.library import Library
from synth.models.llm import LLMCallRecord, LLMResult, ModelSpec
from synth.models.prompts import PROMPTS_DIR, Prompts, compact_source
from synth.runs import Run, RunConfig
from synth.tasks import Example, Provenance, ReferenceProgram, TaskDescription, TaskKind
from synth.workflow import coder, nodes, steer
from synth.workflow.coder import CONTRACT_SOURCE, contract_excerpt, earlier_rounds

REFERENCE = "n, m = map(int, input().split())\nprint(n * m)\n"


def _task(tid: str, **kw: Any) -> TaskDescription:
    return TaskDescription(id=f"local/{tid}", source="local", title=kw.pop("title", f"Task {tid}"),
                           kind=kw.pop("kind", TaskKind.DESCRIPTION),
                           provenance=Provenance(dataset="tests", location=tid), **kw)


STDIO = _task("rect", kind=TaskKind.STDIO_PROGRAM, title="Rectangle area",
              statement="Given the sides n and m of a rectangle, print its area.",
              input_spec="One line: two integers n and m (1 <= n, m <= 1000).",
              output_spec="One integer: n * m.", notes="Sides are integers.",
              examples=[Example(input="2 3\n", output="6\n")],
              references=[ReferenceProgram(language="python3", code=REFERENCE, verified=False)])
PUZZLE = _task("knights", title="Knights and knaves",
               statement="Each islander is a knight (always truthful) or a knave (always lies).")


class RecordingLLM:
    """A model client that answers every coder call with a module and records the messages."""

    def __init__(self, reply: str = fenced(TOY_SUM)) -> None:
        self.reply = reply
        self.calls: list[tuple[str, list[dict[str, str]], str]] = []

    async def complete(self, role: str, messages: list[dict[str, str]], *, tag: str = "",
                       prompt_version: str | None = None) -> LLMResult:
        self.calls.append((role, messages, tag))
        rec = LLMCallRecord(call_id="x", role=role, model="fake", endpoint="fake", tag=tag,
                            prompt_version=prompt_version)
        return LLMResult(text=self.reply, finish_reason="stop", record=rec)


def _ctx(tmp_path: Path, **cfg: Any) -> SimpleNamespace:
    config = RunConfig(source="local", coder=ModelSpec(model="fake"), solver=ModelSpec(model="fake"),
                       library=str(tmp_path / "lib"), **cfg)
    run = Run.create(tmp_path / "runs", config)
    return SimpleNamespace(config=config, run=run, llm=RecordingLLM(), exemplar_library=Library(),
                           prompts=Prompts(), extra={})


def _state(task: TaskDescription, **kw: Any) -> dict[str, Any]:
    return {"task": task.model_dump(mode="json"), "round": 0, "mode": "full", **kw}


FEEDBACK = "## load: error -- NameError: name 're' is not defined\ntraceback:\n```\nNameError\n```"
HISTORY = [{"round": 0, "kind": "draft", "candidates": [
    {"index": 0, "passed": False, "failing": ["load"], "key_failures": ["load (NameError: re)"],
     "failure": None, "repairs": 1},
    {"index": 1, "passed": False, "failure": "truncated"}]}]
BEST = {"round": 0, "index": 0, "code": TOY_SUM, "mode": "full", "feedback": FEEDBACK,
        "failing": ["load"], "passed": False,
        "repairs": [{"kind": "contract_import", "detail": "added `from synth.bootcamp import "
                     "BaseBootcamp`", "line": 1}]}
FILTER = {"verdict": "too_easy", "reason": "pass rate 1.0 above 0.85", "pass_rate": 1.0,
          "answered": 21, "level_pass_rates": {"easy": 1.0, "medium": 1.0, "hard": 0.95},
          "level_counts": {"easy": 7, "medium": 7, "hard": 7}}


async def _drive(ctx: SimpleNamespace, task: TaskDescription) -> None:
    rt: Any = SimpleNamespace(context=ctx)
    await nodes.draft(_state(task), rt)
    await nodes.revise(_state(task, best=BEST, history=HISTORY), rt)
    await nodes.revise(_state(task, best={"round": 1, "index": 0, "code": None, "failure": "no_code",
                                          "detail": "no ```python block"}, history=HISTORY), rt)
    await steer.steer(_state(task, best={**BEST, "passed": True}, filter=FILTER, history=HISTORY,
                             round=1), rt)


def _prompts(ctx: SimpleNamespace) -> dict[str, list[list[dict[str, str]]]]:
    out: dict[str, list[list[dict[str, str]]]] = {}
    for _role, messages, tag in ctx.llm.calls:
        out.setdefault(tag.split("|")[1], []).append(messages)
    return out


@pytest.fixture
def both(tmp_path: Path) -> tuple[SimpleNamespace, SimpleNamespace]:
    """Two tasks (stdio with a reference program; a description) through every coder node."""
    a, b = _ctx(tmp_path / "a"), _ctx(tmp_path / "b")
    asyncio.run(_drive(a, STDIO))
    asyncio.run(_drive(b, PUZZLE))
    return a, b


def test_the_prefix_is_byte_identical_across_tasks_and_draft_revise_steer(both):
    a, _ = both
    calls = [m for ctx in both for _r, m, _t in ctx.llm.calls]
    assert len(calls) == 2 * (2 + 1 + 1 + 1)  # 2 drafts, 2 revisions, 1 steer per task
    assert all(len(m) == 2 and m[0]["role"] == "system" and m[1]["role"] == "user" for m in calls)
    prefixes = {m[0]["content"].encode() for m in calls}
    assert len(prefixes) == 1
    tags = {t.split("|")[1] for ctx in both for _r, _m, t in ctx.llm.calls}
    assert tags == {"draft", "revise", "steer"}
    # the task parts differ, and nothing task-specific leaks into the prefix
    prefix = prefixes.pop().decode()
    for task in (STDIO, PUZZLE):
        assert task.title not in prefix and task.statement not in prefix and task.id not in prefix
    assert REFERENCE.strip() not in prefix
    ev = [e for e in (a.run.root / "events.jsonl").read_text().splitlines() if '"node": "draft"' in e]
    assert coder.prefix(a, "full").sha256 in ev[0]


def test_the_prefix_holds_the_contract_rules_and_a_fixed_exemplar_set(both):
    a, _ = both
    prefix = coder.prefix(a, "full").text
    assert prefix.startswith("You write *bootcamps*")
    assert coder.contract("full").strip() in prefix
    assert "Rules your module must follow" in prefix and "render_stdin" in prefix
    assert "### interval_cover:" in prefix and "### sudoku:" in prefix  # exemplars=2: the first two
    assert Library().code("interval_cover").strip() in prefix
    assert "{{" not in prefix and "{%" not in prefix


def test_the_draft_carries_the_task_reference_and_band(both):
    a, b = both
    draft = _prompts(a)["draft"][0][1]["content"]
    for text in (STDIO.statement, STDIO.input_spec, STDIO.output_spec, STDIO.notes, "Task id: local/rect",
                 "2 3", REFERENCE.strip(), "[0.03, 0.85]", "64 prompts", "render_stdin",
                 "Write the complete bootcamp module"):
        assert text in draft, text
    plain = _prompts(b)["draft"][0][1]["content"]
    assert PUZZLE.statement in plain and "reference program" not in plain.lower()


def test_the_revise_prompt_is_self_contained(both):
    a, _ = both
    revise = _prompts(a)["revise"][0][1]["content"]
    for text in (STDIO.statement, STDIO.input_spec, STDIO.output_spec, "2 3", REFERENCE.strip(),
                 "did not pass the quality gate", "revision 1 of 3", TOY_SUM.strip(), FEEDBACK,
                 "the pipeline repaired: contract_import (line 1): added `from synth.bootcamp",
                 "## Earlier rounds", "- round 0 (draft): candidate 0: failed load (NameError: re)",
                 "candidate 1: no usable module (truncated)", "[0.03, 0.85]"):
        assert text in revise, text
    assert "CHECKER IS WRONG" not in revise  # no differential finding to dispute
    extraction = _prompts(a)["revise"][1][1]["content"]
    for text in (STDIO.statement, REFERENCE.strip(), "could not be used", "no ```python block",
                 "- round 0 (draft)", "[0.03, 0.85]"):
        assert text in extraction, text


def test_the_steer_prompt_shows_the_level_rates_band_and_direction(both, tmp_path: Path):
    a, _ = both
    text = _prompts(a)["steer"][0][1]["content"]
    for want in (STDIO.statement, REFERENCE.strip(), TOY_SUM.strip(), "its difficulty is outside the band",
                 "steering 1 of 1", "1.000 over 21 answers", "TOO EASY", "- easy: 1.000 (7 answers)",
                 "- hard: 0.950 (7 answers)", "[0.03, 0.85]", "Make the bootcamp HARDER",
                 "Keep the verifier", "- round 0 (draft)"):
        assert want in text, want
    ctx = _ctx(tmp_path / "hard")
    hard = {**FILTER, "verdict": "too_hard", "pass_rate": 0.0,
            "level_pass_rates": {"easy": 0.0, "medium": 0.0, "hard": 0.0}}
    asyncio.run(steer.steer(_state(PUZZLE, best={**BEST, "passed": True}, filter=hard), SimpleNamespace(context=ctx)))  # type: ignore[arg-type]
    text = ctx.llm.calls[0][1][1]["content"]
    assert "TOO HARD" in text and "Make the bootcamp EASIER" in text and "- medium: 0.000" in text


def test_the_contract_excerpt_is_what_a_bootcamp_uses_verbatim():
    tree = ast.parse(CONTRACT_SOURCE)
    full = coder.contract("full")
    assert full.startswith(f'"""{ast.get_docstring(tree, clean=False)}"""')
    base = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "BaseBootcamp")
    for item in base.body:  # verbatim, not paraphrased; what the contract implements: elided
        if isinstance(item, ast.FunctionDef):
            source = ast.get_source_segment(CONTRACT_SOURCE, item, padded=True) or ""
            if f"BaseBootcamp.{item.name}" in coder.CONTRACT_ELIDED:
                head = source.split('"""', 2)
                kept = '"""'.join(head[:2]) + '"""' if ast.get_docstring(item) else source.split(":\n", 1)[0]
                assert kept.strip() in full, item.name
                assert source.strip() not in full, item.name
            else:
                assert source.strip() in full, item.name
    assert "def case_generator(self)" in full and "raise NotImplementedError" in full
    assert "def render_stdin(identity: dict) -> str:" in full  # the comment block inside the class
    assert "def run_program" not in full and "class _Run" not in full and "class CompiledBootcamp" not in full
    ast.parse(full)
    assert contract_excerpt(CONTRACT_SOURCE, ["BaseBootcamp"]) == contract_excerpt(CONTRACT_SOURCE, ["BaseBootcamp"])
    if "class CompiledBootcamp" in CONTRACT_SOURCE:
        compiled = coder.contract("compiled")
        ast.parse(compiled)
        assert "class CompiledBootcamp(BaseBootcamp):" in compiled and "def check_output" in compiled
        assert "_PROGRAMS" not in compiled  # elided bodies
        assert "execute(program.compiled" not in compiled and len(compiled) < len(CONTRACT_SOURCE)


def test_compact_exemplars_one_short_stripped_exemplar_still_byte_stable(tmp_path: Path):
    full = _ctx(tmp_path / "full")
    compact = _ctx(tmp_path / "compact", compact_exemplars=True)
    p_full, p_compact = coder.prefix(full, "full").text, coder.prefix(compact, "full").text
    assert len(p_compact) < len(p_full) * 0.6
    assert p_compact.count("```python") == 2  # the contract and one exemplar
    assert "### interval_cover:" in p_compact and "### sudoku:" not in p_compact
    code = p_compact.split("### interval_cover:", 1)[1].split("```python\n", 1)[1].split("\n```", 1)[0] + "\n"
    assert code == compact_source(Library().code("interval_cover"))
    again = _ctx(tmp_path / "again", compact_exemplars=True)
    assert coder.prefix(again, "full").text == p_compact  # byte-stable across runs
    none = _ctx(tmp_path / "none", exemplars=0)
    assert "accepted bootcamp" not in coder.prefix(none, "full").text


def test_compact_source_strips_comments_and_docstrings_deterministically():
    for name in Library().list_bootcamps():
        src = Library().code(name)
        out = compact_source(src)
        assert out == compact_source(src) and len(out) < len(src)
        tree = ast.parse(out)
        assert ast.get_docstring(tree) == ast.get_docstring(ast.parse(src)).strip().splitlines()[0]  # type: ignore[union-attr]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                assert ast.get_docstring(node) is None, (name, node.name)
        toks = tokenize.generate_tokens(io.StringIO(out).readline)
        assert not [t for t in toks if t.type == tokenize.COMMENT], name
        assert "\n\n\n" not in out
    assert compact_source("def f(:\n") == "def f(:\n"  # unparsable: unchanged
    assert compact_source('def f():\n    """Only a docstring."""\n') == "def f():\n    ...\n"


def test_earlier_round_lines():
    lines = earlier_rounds([*HISTORY, {"round": 1, "kind": "revise", "candidates": [
        {"index": 0, "passed": True}], "filter": {"verdict": "too_easy", "pass_rate": 0.97}}])
    assert lines == [
        "round 0 (draft): candidate 0: failed load (NameError: re); candidate 0: 1 repair(s) by "
        "the pipeline; candidate 1: no usable module (truncated)",
        "round 1 (revise): candidate 0: passed the gate; filter: too_easy (pass rate 0.970)",
    ]
    long = earlier_rounds([{"round": 2, "candidates": [{"index": 0, "key_failures": ["x" * 900]}]}])
    assert len(long[0]) <= coder.MAX_EARLIER_LINE


def test_every_template_is_rendered_by_these_tests():
    covered = {"_prefix.j2", "_rules.j2", "_task.j2", "_mode.j2", "_band.j2", "_rounds.j2",
               "_repairs.j2", "draft.j2", "revise.j2", "revise_extraction.j2", "steer.j2",
               "judge.j2",  # tests/workflow/test_judge_e2e.py
               "validator.j2",  # tests/workflow/test_validator_e2e.py
               "key_solver.j2",  # tests/answer_key/test_key_workflow_e2e.py
               "_compiled.j2",  # the compiled mode's include (tests/workflow/test_compiled_mode.py)
               "_function.j2",  # the function mode's include (tests/workflow/test_function_mode.py)
               "code_task.j2"}  # a code row's prompt (tests/suites/test_suite_export.py)
    assert {p.name for p in PROMPTS_DIR.glob("*.j2")} <= covered


def test_task_modes():
    verified = STDIO.model_copy(update={"references": [
        ReferenceProgram(language="python3", code=REFERENCE, verified=True)]})
    assert coder.task_mode("auto", verified)[0] == "compiled"
    assert coder.task_mode("auto", STDIO)[0] == "full"  # unverified reference
    assert coder.task_mode("auto", PUZZLE)[0] == "full"
    assert coder.task_mode("compiled", STDIO)[0] == "compiled"
    mode, why = coder.task_mode("compiled", PUZZLE)
    assert mode == "full" and "no Python 3 stdio reference" in why
    assert coder.task_mode("full", verified)[0] == "full"
    cpp = STDIO.model_copy(update={"references": [ReferenceProgram(language="cpp", code="int main(){}",
                                                                  verified=True)]})
    assert coder.task_mode("auto", cpp)[0] == "full"


def test_the_compiled_draft_hands_the_model_a_skeleton_named_for_its_task(tmp_path: Path):
    """A small model copies a whole exemplar (another task's generator) but fills in a skeleton:
    the compiled draft ends with one, named for the task, with only what the model writes."""
    verified = STDIO.model_copy(update={"references": [
        ReferenceProgram(language="python3", code=REFERENCE, verified=True)]})
    text, _ = coder.render(_ctx(tmp_path), "draft.j2", verified, "compiled")
    skeleton = text[text.index("fill in this skeleton"):]
    assert "class RectangleAreaBootcamp(CompiledBootcamp):" in skeleton
    for part in ("LEVELS = {", "def case_generator(self)", "def render_stdin(identity"):
        assert part in skeleton
    for absent in ("prompt_func", "check_output", "reference_answer", "verify_score"):
        assert absent not in skeleton
    full, _ = coder.render(_ctx(tmp_path), "draft.j2", verified, "full")
    assert "fill in this skeleton" not in full
    assert coder.class_name(verified.model_copy(update={"title": "3-SAT, small"})) == "T3SATSmallBootcamp"


def test_a_compiled_revision_without_stress_asks_for_it(tmp_path: Path):
    """A compiled draft that declares no STRESS and goes to a revise round anyway: the feedback
    gets one line asking for it (no model call of its own); a draft with STRESS, or a full-mode
    module, is not asked."""
    verified = STDIO.model_copy(update={"references": [
        ReferenceProgram(language="python3", code=REFERENCE, verified=True)]})
    part = ("from synth.bootcamp import CompiledBootcamp\n\n\n"
            "class RectangleAreaBootcamp(CompiledBootcamp):\n"
            "    LEVELS = {\"easy\": {\"hi\": 9}, \"hard\": {\"hi\": 100}}\n")
    with_stress = part + "    STRESS: dict = {\"hi\": 1000}\n"
    asked = "Your class has no `STRESS`: add one"
    for name, mode, code, expected in (("without", "compiled", part, True),
                                       ("with", "compiled", with_stress, False),
                                       ("full", "full", TOY_SUM, False)):
        ctx = _ctx(tmp_path / name)
        best = {**BEST, "mode": mode, "model_code": code if mode == "compiled" else None}
        state = {**_state(verified, best=best, history=HISTORY), "mode": mode}
        asyncio.run(nodes.revise(state, SimpleNamespace(context=ctx)))  # type: ignore[arg-type]
        revise = _prompts(ctx)["revise"]
        assert len(revise) == 1, name  # one model call, as without the line
        text = revise[0][1]["content"]
        assert (asked in text) is expected, name
        if expected:  # right after the gate's evidence, before the earlier rounds
            assert text.index(FEEDBACK) < text.index(asked) < text.index("## Earlier rounds")
    assert coder.declares_stress(with_stress) and not coder.declares_stress(part)
    assert coder.declares_stress("class A:\n    STRESS = {}\n")
    assert not coder.declares_stress("STRESS = {}\nclass A:\n    pass\n")  # not the class's
