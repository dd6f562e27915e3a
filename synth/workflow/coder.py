"""The code model's side of a task: its mode, its prompts and one call.

Every coder prompt is two messages (see :mod:`synth.models.prompts`): the stable prefix
(``_prefix.j2``) as the system message -- byte-identical for every task and round of a mode, so
the prefix caches of vLLM, llama.cpp and the paid endpoints apply -- and the task part as the
user message: the task statement, specifications, examples and reference program (``_task.j2``,
the same text in the draft, revise and steer prompts), then what to write or fix.

Modes: ``full`` -- the model writes the whole module; ``compiled`` -- for a task with a Python 3
stdio reference program, the program is embedded in the module (:func:`synth.compiled.assemble`)
with the task's problem text (the contract's default prompt shows it), and the model writes only
the levels, the input generator, the rendering and, where outputs are not unique, a checker;
``function`` -- for a task whose reference is a Python function (HumanEval), the function, its
name and its specification are embedded and the model writes only the levels, the argument
generator and ``call_args`` (:class:`synth.bootcamp.FunctionBootcamp`). ``auto`` picks
``compiled`` where the task has a *verified* stdio reference, ``function`` where it has a
function reference the contract's runner can run.
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import synth.bootcamp
from synth import compiled
from synth.models.extract import extract_code
from synth.models.llm import LLMFailure
from synth.models.prompts import compact_source
from synth.tasks import ReferenceProgram, TaskDescription
from synth.text import pyast
from synth.workflow.judge_program import VALIDATOR_MARK, parse_argument
from synth.workflow.repair import Repair, repair_source
from synth.workflow.scaffold import Scaffold, scaffold
from synth.workflow.state import Candidate, TaskState, WorkflowContext
from synth.workflow.stdin_scaffold import StdinScaffold, stdin_scaffold, two_answers

Mode = Literal["full", "compiled", "function"]
#: the modes whose module embeds the task's reference (the model writes only its part)
EMBEDDING = ("compiled", "function")


def embeds(mode: str | None) -> bool:
    """Whether a candidate of ``mode`` is the model's part with the reference embedded."""
    return mode in EMBEDDING

CONTRACT_SOURCE = Path(synth.bootcamp.__file__).read_text(encoding="utf-8")
#: the contract's definitions a bootcamp of each mode uses (the prefix shows these, in order)
CONTRACT_NAMES: dict[str, list[str]] = {
    "full": ["ANSWER_OPEN", "ANSWER_CLOSE", "BootcampContractError", "BaseBootcamp"],
    "compiled": ["ANSWER_OPEN", "ANSWER_CLOSE", "BootcampContractError", "BaseBootcamp",
                 "same_tokens", "CompiledBootcamp"],
    "function": ["ANSWER_OPEN", "ANSWER_CLOSE", "BootcampContractError", "BaseBootcamp",
                 "FunctionBootcamp"],
}
#: methods shown by signature and docstring only: the contract implements them and a bootcamp
#: never does (their docstrings say what they do; the bodies would only cost tokens)
CONTRACT_ELIDED = frozenset({
    "BaseBootcamp.__init_subclass__", "BaseBootcamp.__init__", "BaseBootcamp.from_level",
    "BaseBootcamp.extract_output", "BaseBootcamp.verify_score",
    "CompiledBootcamp.__init_subclass__", "CompiledBootcamp.reference_answer",
    "CompiledBootcamp.prompt_func", "FunctionBootcamp.__init_subclass__",
    "FunctionBootcamp.arguments", "FunctionBootcamp.render_stdin", "FunctionBootcamp.call_text",
    "FunctionBootcamp.prompt_func", "FunctionBootcamp.reference_answer",
    "FunctionBootcamp._verify_correction",
})

#: exemplar bootcamps from the shipped library, best first: a fixed set per mode, never per task
#: (the prefix they are part of must be the same for every task)
EXEMPLARS: dict[str, list[str]] = {
    "full": ["interval_cover", "sudoku", "cipher", "game24"],
}
MAX_EARLIER_LINE = 500


@dataclass(frozen=True)
class Prefix:
    """The rendered stable prefix of one mode (the system message of every coder call)."""

    mode: str
    text: str
    version: str
    sha256: str


# -- mode and reference ------------------------------------------------------------------------


def python_references(task: TaskDescription) -> list[ReferenceProgram]:
    """Python 3 stdio reference programs of the task, verified ones first."""
    refs = [r for r in task.references if r.language == "python3" and r.interface == "stdio"]
    refs.sort(key=lambda r: not r.verified)
    return refs


def compiled_program(task: TaskDescription, *, verified_only: bool = True) -> str | None:
    """The program compiled mode embeds: the first (verified) Python 3 stdio reference that the
    contract's runner can run (:func:`synth.compiled.program_problems` finds nothing)."""
    if verified_only:
        return compiled.compiled_reference(task)
    for ref in python_references(task):
        if not compiled.program_problems(ref.code):
            return ref.code
    return None


def reference(task: TaskDescription, mode: str = "full") -> ReferenceProgram | None:
    """The task's oracle: in compiled mode the embedded program; else a Python 3 stdio program,
    preferably one the source verified."""
    refs = python_references(task)
    if mode == "compiled":
        program = compiled_program(task) or compiled_program(task, verified_only=False)
        refs = [r for r in refs if r.code == program] or refs
    return refs[0] if refs else None


def task_mode(requested: str, task: TaskDescription) -> tuple[Mode, str]:
    """(mode, why) for ``task`` under the configured ``requested`` mode (full|compiled|auto)."""
    if requested == "full":
        return "full", "--mode full"
    if compiled_program(task, verified_only=False) is None:
        function = compiled.function_reference(task, verified_only=False)
        if function is not None:
            verified = compiled.function_reference(task) is not None
            return "function", (f"{'--mode compiled' if requested == 'compiled' else 'auto'}: "
                                f"the task's reference is the Python function {function[1]}() "
                                f"({'verified' if verified else 'not verified by the source'}"
                                "; the gate runs it on every generated call)")
    if compiled_program(task) is not None:
        return "compiled", f"{'--mode compiled' if requested == 'compiled' else 'auto'}: the task " \
            "has a verified Python 3 stdio reference program the contract's runner can run"
    refs = python_references(task)
    if requested == "compiled" and compiled_program(task, verified_only=False) is not None:
        return "compiled", "--mode compiled (the reference program is unverified)"
    if not refs:
        why = "the task has no Python 3 stdio reference program"
    elif not any(r.verified for r in refs) and requested != "compiled":
        why = "the reference program is unverified"
    else:
        why = "the contract's runner cannot run the reference program: " + "; ".join(
            compiled.program_problems(refs[0].code)[:3])
    return "full", f"{'--mode compiled, but ' if requested == 'compiled' else 'auto: '}{why}"


# -- the stable prefix -------------------------------------------------------------------------


def _defined(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def _elide(lines: list[str], start: int, end: int, node: ast.stmt) -> list[str]:
    """Lines ``start:end`` with the bodies of :data:`CONTRACT_ELIDED` methods of class ``node``
    replaced by ``...`` (their signature and docstring stay)."""
    if not isinstance(node, ast.ClassDef):
        return lines[start:end]
    cut: dict[int, int] = {}  # first body line (0-based) -> end line (exclusive)
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and f"{node.name}.{item.name}" in CONTRACT_ELIDED:
            first = item.body[0]
            keep = first if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else None
            body_start = (keep.end_lineno if keep else item.body[0].lineno - 1) or 0
            cut[body_start] = item.end_lineno or body_start
    out: list[str] = []
    i = start
    while i < end:
        if i in cut:
            indent = " " * (node.col_offset + 8)
            out.append(f"{indent}...  # implemented by the contract")
            i = cut[i]
            continue
        out.append(lines[i])
        i += 1
    return out


def contract_excerpt(source: str, names: list[str]) -> str:
    """The contract's module docstring and the top-level definitions ``names`` (whole, with the
    comments inside them), in source order; the rest (private helpers) is left out and says so,
    as is the in-process runner of reference programs (``synth/runner.py``). Deterministic for a
    given source."""
    tree = pyast.parse(source)
    lines = source.splitlines()
    body = tree.body
    parts: list[str] = []
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        parts.append("\n".join(lines[: body[0].end_lineno]))
    wanted = set(names)
    for i, node in enumerate(body):
        if not _defined(node) & wanted:
            continue
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
        end = body[i + 1].lineno - 1 if i + 1 < len(body) else len(lines)
        chunk = _elide(lines, start, end, node)
        while chunk and (not chunk[-1].strip() or chunk[-1].startswith("#")):
            chunk.pop()  # blank lines and column-0 comments (section banners) after it
        # the comments just above it (its documentation), up to a blank line
        above = start
        while above > 0 and lines[above - 1].startswith("#:"):
            above -= 1
        parts.append("\n".join(lines[above:start] + chunk))
    parts.append("# ... the rest of synth/bootcamp.py (private helpers) and synth/runner.py (the "
                 "in-process runner of reference programs) are not shown: a bootcamp does not use "
                 "them directly.")
    return "\n\n\n".join(parts) + "\n"


def contract(mode: Mode) -> str:
    """The contract as the prefix of ``mode`` shows it."""
    return contract_excerpt(CONTRACT_SOURCE, CONTRACT_NAMES[mode])


FUNCTION_EXEMPLAR_PATH = Path(compiled.EXEMPLAR_PATH).with_name("function_exemplar.py")
FUNCTION_EXEMPLAR = FUNCTION_EXEMPLAR_PATH.read_text(encoding="utf-8")
FUNCTION_EXEMPLAR_TITLE = ('a function bootcamp for HumanEval/3 "below_zero" (the part the model '
                           "writes; the pipeline embeds the reference function)")


def _function_exemplars(compact: bool) -> list[dict[str, str]]:
    return [{"name": "function", "title": FUNCTION_EXEMPLAR_TITLE,
             "code": compact_source(FUNCTION_EXEMPLAR) if compact else FUNCTION_EXEMPLAR}]


def _compiled_exemplars(compact: bool) -> list[dict[str, str]]:
    code = compiled.COMPACT_EXEMPLAR if compact else compiled.EXEMPLAR
    return [{"name": "compiled", "title": compiled.EXEMPLAR_TITLE,
             "code": compact_source(code) if compact else code}]


def exemplars(ctx: WorkflowContext, mode: Mode) -> list[dict[str, str]]:
    """The exemplars of ``mode``'s prefix: the first ``config.exemplars`` of the mode's fixed
    list, or with ``compact_exemplars`` one short exemplar stripped of docstrings and comments."""
    cfg = ctx.config
    if cfg.exemplars == 0:
        return []
    if mode == "compiled":
        return _compiled_exemplars(cfg.compact_exemplars)
    if mode == "function":
        return _function_exemplars(cfg.compact_exemplars)
    available = set(ctx.exemplar_library.list_bootcamps())
    names = [n for n in EXEMPLARS["full"] if n in available]
    names = names[:1] if cfg.compact_exemplars else names[: cfg.exemplars]
    out = []
    for name in names:
        rec = ctx.exemplar_library.record(name)
        code = ctx.exemplar_library.code(name)
        out.append({"name": name, "title": rec.title,
                    "code": compact_source(code) if cfg.compact_exemplars else code})
    return out


def prefix(ctx: WorkflowContext, mode: Mode) -> Prefix:
    """The stable prefix of ``mode``, rendered once per run."""
    key = f"prefix:{mode}"
    cached = ctx.extra.get(key)
    if isinstance(cached, Prefix):
        return cached
    text, version = ctx.prompts.render("_prefix.j2", contract=contract(mode),
                                       exemplars=exemplars(ctx, mode), mode=mode)
    made = Prefix(mode=mode, text=text, version=version,
                  sha256=hashlib.sha256(text.encode()).hexdigest())
    ctx.extra[key] = made
    return made


# -- the task part -----------------------------------------------------------------------------


def state_mode(state: TaskState) -> Mode:
    mode = state.get("mode")
    return mode if mode == "compiled" or mode == "function" else "full"


def task_context(ctx: WorkflowContext, task: TaskDescription, mode: Mode) -> dict[str, Any]:
    """The variables every task part shares: the task, its reference program, mode and band."""
    ref = reference(task, mode)
    function = compiled.function_reference(task, verified_only=False) \
        if mode == "function" else None
    cfg = ctx.config
    return {"task": task, "reference_program": function[0] if function else (
                ref.code if ref and mode != "function" else None),
            "mode": mode, "entry_point": function[1] if function else "",
            "returns_bool": bool(function and returns_bool(function[0], function[1],
                                                            task.tests.check_code)),
            "parameters": parameters(function[0], function[1], task.tests.check_code)
            if function else [],
            **dict(zip(("scaffold", "skeleton"), starting_draft(task, mode), strict=True)),
            "band_low": cfg.band_low, "band_high": cfg.band_high, "samples": cfg.samples,
            "class_name": class_name(task)}


def parameters(source: str, entry_point: str, tests: str | None = None
               ) -> list[dict[str, str]]:
    """The function's parameters as the function-mode skeleton names them: each one's name, the
    type the gate will hold its arguments to (:func:`synth.gate.functions.expected_arguments`),
    one value the task's own calls pass, and how ``call_args`` builds it from the JSON case (a
    tuple or a set is made from a list)."""
    from synth.gate.functions import describe, expected_arguments

    want = expected_arguments(source, entry_point, tests)
    if want is None:
        return []
    out = []
    for name, shape, example in zip(want.names, want.shapes, want.examples, strict=True):
        build = f'identity["{name}"]'
        if shape[0] in ("tuple", "tuplen"):
            build = f"tuple({build})"
        elif shape[0] == "set":
            build = f"set({build})"
        out.append({"name": name, "type": describe(shape), "example": example, "build": build})
    return out


def function_scaffold(source: str, entry_point: str, tests: str | None = None
                      ) -> Scaffold | None:
    """The starting generator the function-mode draft shows (:mod:`synth.workflow.scaffold`)."""
    from synth.gate.functions import expected_arguments

    return scaffold(expected_arguments(source, entry_point, tests))


def stdin_scaffold_of(task: TaskDescription) -> StdinScaffold | None:
    """The starting generator the compiled draft shows (:mod:`synth.workflow.stdin_scaffold`),
    from the rules the gate's inputs check derives from the same task text (its cache)."""
    from synth.gate.inputs import input_checker

    return stdin_scaffold(input_checker(compiled.task_text(task)))


def starting_draft(task: TaskDescription, mode: Mode
                   ) -> tuple[Scaffold | StdinScaffold | None, str | None]:
    """The starting generator of ``task`` in ``mode`` and the draft's skeleton as it fills it in
    (the module the model is asked to adapt); (None, None) when the mode has none, or the task
    gives it nothing to draw."""
    if mode == "compiled":
        stdin = stdin_scaffold_of(task)
        return (stdin, stdin.source(task.title, class_name(task),
                                    two_answers=two_answers(task.output_spec))
                ) if stdin else (None, None)
    function = compiled.function_reference(task, verified_only=False) \
        if mode == "function" else None
    if function is None:
        return None, None
    source, entry = function
    tests = task.tests.check_code
    found = function_scaffold(source, entry, tests)
    if found is None:
        return None, None
    params = parameters(source, entry, tests)
    found.yes_no = returns_bool(source, entry, tests)
    return found, found.source(
        task.title, class_name(task), entry_point=entry,
        comments=[f"{p['name']}: {p['type']}" + (f" (the task passes e.g. {p['example']})"
                                                  if p["example"] else "") for p in params],
        builds=[p["build"] for p in params])


def unchanged_draft(task: TaskDescription, mode: Mode) -> str | None:
    """The module the gate would see if the model sent the filled skeleton back unchanged,
    assembled as the workflow assembles a reply (:func:`assemble`); None without a complete
    skeleton, or when it cannot be assembled. What ``bench/scaffolds.py`` gates."""
    found, skeleton = starting_draft(task, mode)
    if skeleton is None or (isinstance(found, Scaffold) and not found.complete):
        return None
    c = Candidate(model_code=skeleton, mode=mode)
    assemble(c, task)
    return c.get("code")


def returns_bool(source: str, entry_point: str, tests: str | None = None) -> bool:
    """Whether the function ``entry_point`` of ``source`` returns a bool, read, never run: it is
    annotated ``-> bool``, or every ``candidate(...) == X`` of the task's ``tests`` compares
    with True or False (HumanEval's unannotated predicates). Its bootcamp then sets
    ``YES_NO_TASK``."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if any(isinstance(n, ast.FunctionDef) and n.name == entry_point and
           isinstance(n.returns, ast.Name) and n.returns.id == "bool" for n in tree.body):
        return True
    try:
        checks = pyast.parse(tests or "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    compared: list[object] = []
    for node in ast.walk(checks):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1 and \
                isinstance(node.ops[0], ast.Eq | ast.Is) and isinstance(node.left, ast.Call) and \
                isinstance(node.left.func, ast.Name) and \
                node.left.func.id in ("candidate", entry_point):
            other = node.comparators[0]
            compared.append(other.value if isinstance(other, ast.Constant) else other)
    return bool(compared) and all(type(v) is bool for v in compared)


def class_name(task: TaskDescription) -> str:
    """A class name for the task's bootcamp (the compiled draft's skeleton uses it)."""
    words = re.findall(r"[A-Za-z0-9]+", task.title)
    name = "".join(w[:1].upper() + w[1:] for w in words) or "Task"
    return ("T" + name if name[0].isdigit() else name) + "Bootcamp"


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def earlier_rounds(history: list[dict[str, Any]]) -> list[str]:
    """One line per round so far: its kind and each candidate's key failures (or verdict)."""
    lines = []
    for entry in history:
        parts = []
        for c in entry.get("candidates", []):
            who = f"candidate {c.get('index', 0)}"
            if c.get("failure"):
                parts.append(f"{who}: no usable module ({c['failure']})")
            elif c.get("passed"):
                parts.append(f"{who}: passed the gate")
            else:
                keys = c.get("key_failures") or c.get("failing") or ["?"]
                parts.append(f"{who}: failed " + "; ".join(keys))
            if c.get("repairs"):
                parts.append(f"{who}: {c['repairs']} repair(s) by the pipeline")
        filt = entry.get("filter")
        if filt:
            rate = filt.get("pass_rate")
            parts.append(f"filter: {filt.get('verdict')}"
                         + (f" (pass rate {rate:.3f})" if isinstance(rate, int | float) else ""))
        line = f"round {entry.get('round', 0)} ({entry.get('kind', 'draft')}): " + ("; ".join(parts)
                                                                                     or "no candidate")
        lines.append(_clip(line, MAX_EARLIER_LINE))
    return lines


def model_part(c: Candidate) -> str:
    """The code the model wrote (after repairs): in compiled mode its own part, else the module."""
    return (c.get("model_code") if embeds(c.get("mode")) else None) or c.get("code") or ""


def declares_stress(code: str) -> bool:
    """Whether a class of ``code`` assigns ``STRESS`` in its body (code that does not parse:
    True, so that nothing is asked of it beyond the gate's findings)."""
    try:
        tree = pyast.parse(code)
    except SyntaxError:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                    [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                if any(isinstance(t, ast.Name) and t.id == "STRESS" for t in targets):
                    return True
    return False


# -- repairs -----------------------------------------------------------------------------------


def apply_repairs(ctx: WorkflowContext, task: TaskDescription, c: Candidate, fixed: str,
                  repairs: list[Repair], stage: str) -> None:
    """Put the repaired code ``fixed`` of the model's part into candidate ``c`` (in compiled
    mode it is assembled with the reference program again), record every repair on it, emit a
    ``repair`` event per repair and save the repaired module in the run folder. Never silent."""
    if not repairs:
        return
    if embeds(c.get("mode")):
        c["model_code"] = fixed
        assemble(c, task)
    else:
        c["code"] = fixed
    done = list(c.get("repairs") or [])
    for r in repairs:
        entry = {**r.as_dict(), "stage": stage}
        done.append(entry)
        ctx.run.events.emit("repair", task.id, round=c.get("round", 0), index=c.get("index", 0),
                            repair=r.kind, detail=r.detail, line=r.line, stage=stage)
    c["repairs"] = done
    stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
    path = ctx.run.candidate_dir(task.id) / f"{stem}.repaired.py"
    path.write_text(c.get("code") or "", encoding="utf-8")
    c["repaired_path"] = str(path.relative_to(ctx.run.root))


def repair_static(ctx: WorkflowContext, task: TaskDescription, c: Candidate) -> None:
    """:func:`synth.workflow.repair.repair_source` on a new candidate's part, before anything
    (the judge's example cases, the gate) runs it."""
    own = model_part(c)
    if own:
        fixed, repairs = repair_source(own, docstring=module_docstring(task))
        apply_repairs(ctx, task, c, fixed, repairs, "source")


def module_docstring(task: TaskDescription) -> str:
    """The docstring a module without one gets: the task and where it comes from."""
    where = task.provenance.dataset + (f", {task.provenance.url}" if task.provenance.url else "")
    return f"Bootcamp for {task.title!r}: task {task.id} (source {task.source}; {where})."


# -- one call ----------------------------------------------------------------------------------


def assemble(c: Candidate, task: TaskDescription) -> None:
    """Compiled mode: ``c["code"]`` becomes the model's part (``c["model_code"]``) with the
    task's program and problem text embedded (the contract's default prompt shows the text); a
    part that cannot be assembled, or a module that does not embed exactly the program and
    text, leaves no code and says why (for the next prompt)."""
    ref = reference(task, "compiled")
    function = compiled.function_reference(task, verified_only=False) \
        if c.get("mode") == "function" else None
    program, entry = (function if function else (ref.code if ref else None, None))
    own = compiled.split(c.get("model_code") or "")[0]  # the model sees and keeps only its part
    c["model_code"] = own
    text = compiled.function_text(task) if function else compiled.task_text(task)
    problem: str | None = None
    if program is None:
        problem = "the task has no reference program to embed"
    else:
        try:
            module = compiled.assemble(own, program, text, entry_point=entry)
        except compiled.AssemblyError as exc:
            problem = str(exc)
        else:
            problem = compiled.check_embedded(module, program, text, entry)
            if problem is None:
                c["code"] = module
                c["failure"] = None
                c["detail"] = ""
                return
    c["code"] = None
    c["failure"] = "assembly_error"
    c["detail"] = f"your part could not be assembled with the reference program: {problem}"[:800]


async def ask_coder(ctx: WorkflowContext, task: TaskDescription, mode: Mode, text: str, version: str,
                    tag: str, rnd: int, index: int) -> Candidate:
    """One coder call: the mode's prefix as the system message, ``text`` as the user message.
    In compiled mode the reply is the model's part, assembled with the reference program."""
    pre = prefix(ctx, mode)
    messages = [{"role": "system", "content": pre.text}, {"role": "user", "content": text}]
    try:
        res = await ctx.llm.complete("coder", messages, tag=f"{task.id}|{tag}", prompt_version=version)
    except LLMFailure as exc:
        return Candidate(round=rnd, index=index, code=None, failure=f"llm_{exc.kind}",
                         detail=exc.message[:500], prompt_version=version, mode=mode)
    ex = extract_code(res.text, res.finish_reason)
    cand = Candidate(round=rnd, index=index, code=ex.code, failure=ex.failure, detail=ex.detail,
                     prompt_version=version, argument=parse_argument(res.text), mode=mode,
                     validator_argument=parse_argument(res.text, VALIDATOR_MARK))
    if embeds(mode) and ex.code is not None:
        whole = full_module(ex.code) if ctx.config.mode == "auto" else None
        if whole is not None:  # a whole bootcamp, not the compiled part: gated as one
            cand["mode"] = "full"
            ctx.run.events.emit("mode_switch", task.id, round=rnd, index=index,
                                from_mode=mode, to_mode="full", why=whole)
        else:
            cand["model_code"] = ex.code
            assemble(cand, task)
    return cand


#: what a full-mode bootcamp class defines itself (the contract's own versions raise)
FULL_METHODS = ("case_generator", "prompt_func", "reference_answer", "_verify_correction")


def full_module(code: str) -> str | None:
    """Why ``code`` -- a reply to the compiled skeleton -- is a complete full-mode bootcamp
    module (a class on ``BaseBootcamp`` or ``MultiTurnBootcamp`` that defines every method of
    :data:`FULL_METHODS`, and no ``CompiledBootcamp``), or None. In ``--mode auto`` such a reply
    is gated as a full-mode candidate instead of failing assembly every round."""
    try:
        tree = pyast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None

    def base_name(node: ast.expr) -> str:
        return node.id if isinstance(node, ast.Name) else node.attr if isinstance(
            node, ast.Attribute) else ""

    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    if any(base_name(b) == "CompiledBootcamp" for c in classes for b in c.bases):
        return None
    for c in classes:
        if not any(base_name(b) in ("BaseBootcamp", "MultiTurnBootcamp") for b in c.bases):
            continue
        defined = {n.name for n in c.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        if all(m in defined for m in FULL_METHODS):
            return (f"the reply is a complete bootcamp module (class {c.name}({base_name(c.bases[0])}) "
                    f"defines {', '.join(FULL_METHODS)}), not the compiled part: gated as a "
                    "full-mode candidate (--mode auto)")
    return None


def save_candidate(ctx: WorkflowContext, task: TaskDescription, c: Candidate) -> None:
    """The candidate as the model wrote it: ``round_<k>_<i>.py`` (the module the model's reply
    gives; compiled: assembled, and the model's own part in ``.model.py``) or ``.failure.txt``
    (no module: why)."""
    d = ctx.run.candidate_dir(task.id)
    stem = f"round_{c.get('round', 0)}_{c.get('index', 0)}"
    if embeds(c.get("mode")) and c.get("model_code"):
        (d / f"{stem}.model.py").write_text(c["model_code"] or "", encoding="utf-8")
    if c.get("code"):
        (d / f"{stem}.py").write_text(c["code"] or "", encoding="utf-8")
    else:
        (d / f"{stem}.failure.txt").write_text(f"{c.get('failure')}: {c.get('detail')}\n", encoding="utf-8")


async def ask_and_repair(ctx: WorkflowContext, task: TaskDescription, mode: Mode, text: str,
                         version: str, tag: str, rnd: int, index: int) -> Candidate:
    """:func:`ask_coder`, the raw reply saved, then the static repairs (recorded)."""
    cand = await ask_coder(ctx, task, mode, text, version, tag, rnd, index)
    save_candidate(ctx, task, cand)
    repair_static(ctx, task, cand)
    return cand


def render(ctx: WorkflowContext, name: str, task: TaskDescription, mode: Mode,
           **context: Any) -> tuple[str, str]:
    """(task part, version) of template ``name``; the version covers the prefix template too."""
    text, version = ctx.prompts.render(name, **task_context(ctx, task, mode), **context)
    pre = prefix(ctx, mode)
    combined = hashlib.sha256(f"{pre.version}|{version}".encode()).hexdigest()[:12]
    return text, f"{version.rsplit('-', 1)[0]}-{combined}"
