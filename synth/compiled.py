"""Compiled bootcamps: a task's verified reference program embedded in the module.

In *compiled* mode the code model does not re-derive a CodeContests solution. It writes only
what needs understanding -- ``LEVELS``, the input generator, ``render_stdin``, the prompt and,
for a problem with several valid outputs, ``check_output`` -- as a subclass of
:class:`synth.bootcamp.CompiledBootcamp`; :func:`assemble` then puts the task's reference
program and its problem text (:func:`task_text`) into the module, so that the module's sha256
covers them::

    <the model's docstring and imports>

    # The task's problem text, embedded by synth.compiled.assemble (do not edit): the
    # contract's default prompt_func shows it with the case's input.
    _TASK_TEXT = \"\"\"...\"\"\"

    # The task's reference program, embedded by synth.compiled.assemble (do not edit): the
    # answer key is its standard output on render_stdin(identity).
    _REFERENCE_PROGRAM = r\"\"\"...\"\"\"

    class XBootcamp(CompiledBootcamp):
        REFERENCE_PROGRAM = _REFERENCE_PROGRAM
        TASK_TEXT = _TASK_TEXT
        <the model's class body>

The prompt's problem text is thus the task's own, not the model's paraphrase (a small model
copies its exemplar's problem into a prompt_func). :func:`split` and :func:`parts` are the
inverse (what a revision shows the model as its own part), :func:`check_embedded` says whether
a module embeds exactly a given program and text (the workflow runs it before trusting the
oracle's agreement), and :func:`program_problems` says,
without running it, why the contract's runner could not run a program (then the task stays in
full mode). Nothing here imports or runs the code it reads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from synth.runner import PROGRAM_MODULES, PROGRAM_SYS_NAMES
from synth.tasks import TaskDescription
from synth.text import pyast

__all__ = [
    "BASE_NAME",
    "CLASS_LINE",
    "COMPACT_EXEMPLAR",
    "CONSTANT",
    "EXEMPLAR",
    "EXEMPLAR_PATH",
    "EXEMPLAR_TITLE",
    "TEXT_CONSTANT",
    "TEXT_LINE",
    "AssemblyError",
    "Parts",
    "assemble",
    "check_embedded",
    "compiled_reference",
    "embedded_entry_point",
    "embedded_program",
    "embedded_text",
    "function_reference",
    "function_text",
    "parts",
    "program_problems",
    "split",
    "task_text",
]

#: The contract's base class of compiled bootcamps.
BASE_NAME = "CompiledBootcamp"
#: The module-level constant that holds the program.
CONSTANT = "_REFERENCE_PROGRAM"
#: The class attribute the contract reads.
ATTRIBUTE = "REFERENCE_PROGRAM"
#: The first statement of the bootcamp class body.
CLASS_LINE = f"{ATTRIBUTE} = {CONSTANT}"
_MARKER = [
    "# The task's reference program, embedded by synth.compiled.assemble (do not edit): the",
    "# answer key is its standard output on render_stdin(identity).",
]
#: The module-level constant that holds the task's problem text, the class attribute the
#: contract's default prompt_func reads, and the class body's line after CLASS_LINE.
TEXT_CONSTANT = "_TASK_TEXT"
TEXT_ATTRIBUTE = "TASK_TEXT"
TEXT_LINE = f"{TEXT_ATTRIBUTE} = {TEXT_CONSTANT}"
_TEXT_MARKER = [
    "# The task's problem text, embedded by synth.compiled.assemble (do not edit): the",
    "# contract's default prompt_func shows it with the case's input.",
]
#: A function task (:class:`synth.bootcamp.FunctionBootcamp`): its base class, and the
#: module-level constant and class attribute that hold the reference function's name.
FUNCTION_BASE = "FunctionBootcamp"
ENTRY_CONSTANT = "_ENTRY_POINT"
ENTRY_ATTRIBUTE = "ENTRY_POINT"
ENTRY_LINE = f"{ENTRY_ATTRIBUTE} = {ENTRY_CONSTANT}"
_ENTRY_MARKER = [
    "# The reference function's name, embedded by synth.compiled.assemble (do not edit): the",
    "# answer key is its return value on call_args(identity).",
]
#: every name only assemble binds
_NAMES = (CONSTANT, ATTRIBUTE, TEXT_CONSTANT, TEXT_ATTRIBUTE, ENTRY_CONSTANT, ENTRY_ATTRIBUTE)


#: The compiled-mode exemplar: the part of a compiled bootcamp that the model writes (for the
#: CodeContests sample "13_E. Strangers to m"), read as text; it is short enough to serve as
#: the compact exemplar too.
EXEMPLAR_PATH = Path(__file__).resolve().parent / "data" / "compiled_exemplar.py"
EXEMPLAR = EXEMPLAR_PATH.read_text(encoding="utf-8")
COMPACT_EXEMPLAR = EXEMPLAR
EXEMPLAR_TITLE = ('a compiled bootcamp for CodeContests "Strangers to m" (the part the model '
                  "writes; the pipeline embeds the reference program)")


class AssemblyError(ValueError):
    """The model's code cannot be assembled (the message says what to change)."""


# ------------------------------------------------------------------------------------------
# Reading a module
# ------------------------------------------------------------------------------------------


def _parse(code: str, what: str) -> ast.Module:
    try:
        return pyast.parse(code)
    except SyntaxError as exc:
        raise AssemblyError(f"{what} does not parse: line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise AssemblyError(f"{what} does not parse: {exc}") from None


def _base_names(cls: ast.ClassDef) -> list[str]:
    names = []
    for base in cls.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def _bootcamp_class(tree: ast.Module) -> ast.ClassDef:
    """The one top-level CompiledBootcamp subclass (the most derived, when they chain)."""
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    compiled: dict[str, ast.ClassDef] = {}
    changed = True
    while changed:  # CompiledBootcamp subclasses, directly or through classes of the module
        changed = False
        for name, cls in classes.items():
            if name not in compiled and any(b in (BASE_NAME, FUNCTION_BASE) or b in compiled
                                            for b in _base_names(cls)):
                compiled[name] = cls
                changed = True
    leaves = [c for c in compiled.values()
              if not any(c.name in _base_names(o) for o in compiled.values())]
    if len(leaves) == 1:
        return leaves[0]
    if not leaves:
        others = [c.name for c in classes.values() if "BaseBootcamp" in _base_names(c)]
        hint = (f" ({', '.join(others)} subclasses BaseBootcamp: in compiled mode subclass "
                f"{BASE_NAME} instead)" if others else "")
        raise AssemblyError(f"no class deriving from {BASE_NAME} found{hint}; define exactly "
                            f"one `class XBootcamp({BASE_NAME})` and import it with "
                            f"`from synth.bootcamp import {BASE_NAME}`")
    raise AssemblyError(f"more than one {BASE_NAME} subclass "
                        f"({', '.join(c.name for c in leaves)}); a module holds one bootcamp")


def _targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Assign):
        return list(stmt.targets)
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        return [stmt.target]
    return []


def _binds(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(t, ast.Name) and t.id == name for t in _targets(stmt))


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
        isinstance(stmt.value.value, str)


def _constant_value(stmt: ast.stmt, name: str = CONSTANT) -> str | None:
    """The string of ``<name> = "<str>"`` (the program, or the text), or None for any other
    statement."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _binds(stmt, name) and \
            isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
        return stmt.value.value
    return None


def _is_class_line(stmt: ast.stmt, attribute: str = ATTRIBUTE, constant: str = CONSTANT) -> bool:
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
        _binds(stmt, attribute) and isinstance(stmt.value, ast.Name) and \
        stmt.value.id == constant


def _is_text_line(stmt: ast.stmt) -> bool:
    return _is_class_line(stmt, TEXT_ATTRIBUTE, TEXT_CONSTANT)


def _span(stmt: ast.stmt) -> tuple[int, int]:
    """0-based first and last line of a statement (with its decorators)."""
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
    return first - 1, (stmt.end_lineno or stmt.lineno) - 1


def _alone(stmt: ast.stmt, body: list[ast.stmt], what: str) -> None:
    """Refuse a statement that shares a line with another one (``a = 1; b = 2``)."""
    first, last = _span(stmt)
    for other in body:
        if other is not stmt:
            o_first, o_last = _span(other)
            if o_first <= last and first <= o_last:
                raise AssemblyError(f"line {first + 1}: put {what} on lines of its own")


# ------------------------------------------------------------------------------------------
# assemble / split
# ------------------------------------------------------------------------------------------


def literal(program: str) -> str:
    """The program as a readable Python literal: a (raw, when it holds backslashes)
    triple-quoted string when that reads back exactly, else its repr."""
    candidates = []
    for quote in ('"""', "'''"):
        if "\\" not in program:
            candidates.append(f"{quote}\\\n{program}{quote}")
        candidates.append(f"r{quote}{program}{quote}")
    for text in candidates:
        try:
            text.encode("utf-8")
            if pyast.literal_eval(text) == program:
                return text
        except (SyntaxError, ValueError, UnicodeEncodeError, MemoryError, RecursionError):
            continue
    return repr(program)


def assemble(model_code: str, reference_program: str, task_text: str | None = None, *,
             entry_point: str | None = None) -> str:
    """The module: ``model_code`` with ``reference_program`` embedded as the module-level
    constant ``_REFERENCE_PROGRAM`` (after the imports) and ``REFERENCE_PROGRAM =
    _REFERENCE_PROGRAM`` as the first statement of the ``CompiledBootcamp`` subclass (after its
    docstring). With ``task_text`` (the task's problem text, :func:`task_text`), also
    ``_TASK_TEXT`` (before the program) and ``TASK_TEXT = _TASK_TEXT`` (after the class line):
    the contract's default prompt_func shows it. With ``entry_point`` (a function task: the
    class derives from ``FunctionBootcamp``), also ``_ENTRY_POINT`` (after the program) and
    ``ENTRY_POINT = _ENTRY_POINT`` (after the text line). Any of these names the model bound
    itself is replaced. Raises :class:`AssemblyError` naming what to change."""
    if not isinstance(reference_program, str) or not reference_program.strip():
        raise AssemblyError("the reference program is empty")
    if task_text is not None and (not isinstance(task_text, str) or not task_text.strip()):
        raise AssemblyError("the task text is empty")
    if entry_point is not None and (not isinstance(entry_point, str)
                                    or not entry_point.isidentifier()):
        raise AssemblyError(f"the entry point {entry_point!r} is not a function name")
    _parse(model_code, "the module")
    model_code = split(model_code)[0]  # what an earlier assembly embedded goes
    tree = _parse(model_code, "the module")
    leaf = _bootcamp_class(tree)
    lines = model_code.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    removals: list[tuple[int, int]] = []  # 0-based inclusive line spans
    for stmt in tree.body:
        if any(_binds(stmt, name) for name in _NAMES):
            removals.append(_checked_removal(stmt, tree.body, "the module"))
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for stmt in cls.body:
            if any(_binds(stmt, name) for name in _NAMES):
                removals.append(_checked_removal(stmt, cls.body, cls.name))
    # where the class line goes: after the docstring, else before the first kept statement
    kept = [s for s in leaf.body if _span(s) not in removals]
    if leaf.body[0].lineno == leaf.lineno:
        raise AssemblyError(f"line {leaf.lineno}: put the body of {leaf.name} on lines of its own")
    indent = " " * leaf.body[0].col_offset
    if kept and _is_docstring(kept[0]):
        class_at = _span(kept[0])[1] + 1
    elif kept:
        class_at = _span(kept[0])[0]
    else:  # the body was only a REFERENCE_PROGRAM of the model's: the class line replaces it
        class_at = _span(leaf.body[0])[0]
    # where the constant goes: after the last top-level import before the class
    before = [s for s in tree.body if _span(s)[1] < _span(leaf)[0]]
    imports = [s for s in before if isinstance(s, ast.Import | ast.ImportFrom)]
    if imports:
        const_at = _span(imports[-1])[1] + 1
    elif before and _is_docstring(tree.body[0]):
        const_at = _span(tree.body[0])[1] + 1
    else:
        const_at = 0
    block = ["\n", *(m + "\n" for m in _MARKER), f"{CONSTANT} = {literal(reference_program)}\n"]
    class_lines = [f"{indent}{CLASS_LINE}\n"]
    if task_text is not None:
        block = ["\n", *(m + "\n" for m in _TEXT_MARKER),
                 f"{TEXT_CONSTANT} = {literal(task_text)}\n", *block]
        class_lines.append(f"{indent}{TEXT_LINE}\n")
    if entry_point is not None:
        block += ["\n", *(m + "\n" for m in _ENTRY_MARKER),
                  f"{ENTRY_CONSTANT} = {entry_point!r}\n"]
        class_lines.append(f"{indent}{ENTRY_LINE}\n")
    inserts = [(class_at, class_lines), (const_at, block)]
    out: list[str] = []
    for i in range(len(lines) + 1):
        for at, new in inserts:
            if at == i:
                out.extend(new)
        if i < len(lines) and not any(a <= i <= b for a, b in removals):
            out.append(lines[i])
    return "".join(out)


def _checked_removal(stmt: ast.stmt, body: list[ast.stmt], where: str) -> tuple[int, int]:
    names = [t.id if isinstance(t, ast.Name) else ast.unparse(t) for t in _targets(stmt)]
    if len(names) != 1:
        raise AssemblyError(f"line {stmt.lineno}: {', '.join(names)} are assigned together in "
                            f"{where}; do not assign {ATTRIBUTE} or {TEXT_ATTRIBUTE} yourself "
                            "(assemble adds them)")
    _alone(stmt, body, f"the assignment to {names[0]}")
    return _span(stmt)


class Parts(NamedTuple):
    """A module taken apart (:func:`parts`): the model's own part and what assemble embedded
    (None where nothing is)."""

    model_code: str
    program: str | None
    task_text: str | None


def parts(module_code: str) -> Parts:
    """The inverse of :func:`assemble`: the model's own part (to show it in a revision), the
    embedded program and the embedded task text. Each embedding is taken out only when the
    module binds its constant exactly once (else it stays in the model's part, and its field is
    None); a module that embeds nothing comes back unchanged."""
    try:
        tree = pyast.parse(module_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Parts(module_code, None, None)
    lines = module_code.splitlines(keepends=True)
    drop: set[int] = set()
    found: dict[str, str | None] = {}
    for constant, attribute, marker in ((CONSTANT, ATTRIBUTE, _MARKER),
                                        (TEXT_CONSTANT, TEXT_ATTRIBUTE, _TEXT_MARKER),
                                        (ENTRY_CONSTANT, ENTRY_ATTRIBUTE, _ENTRY_MARKER)):
        constants = [s for s in tree.body if _constant_value(s, constant) is not None]
        found[constant] = None
        if len(constants) != 1:
            continue
        stmt = constants[0]
        found[constant] = _constant_value(stmt, constant)
        first, last = _span(stmt)
        drop.update(range(first, last + 1))
        at = first
        for line in reversed(marker):  # the comment assemble wrote above it, and its blank line
            if at > 0 and lines[at - 1].rstrip("\n") == line:
                at -= 1
                drop.add(at)
            else:
                break
        if at > 0 and not lines[at - 1].strip():
            drop.add(at - 1)
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for inner in cls.body:
                if _is_class_line(inner, attribute, constant):
                    a, b = _span(inner)
                    drop.update(range(a, b + 1))
    if not drop:
        return Parts(module_code, None, None)
    own = "".join(line for i, line in enumerate(lines) if i not in drop)
    return Parts(own, found[CONSTANT], found[TEXT_CONSTANT])


def split(module_code: str) -> tuple[str, str | None]:
    """``(model_code, reference_program)`` of :func:`parts`: the model's own part (without any
    embedding, the task text's included) and the embedded program, or ``(module_code, None)``
    for a module that embeds nothing."""
    own, program, _ = parts(module_code)
    return own, program


def embedded_program(module_code: str) -> str | None:
    """The program a module embeds (its one ``_REFERENCE_PROGRAM`` constant), or None."""
    return parts(module_code).program


def embedded_entry_point(module_code: str) -> str | None:
    """The function name a function-task module embeds (its one ``_ENTRY_POINT``), or None."""
    try:
        tree = pyast.parse(module_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found = [_constant_value(s, ENTRY_CONSTANT) for s in tree.body]
    names = [f for f in found if f is not None]
    return names[0] if len(names) == 1 and names[0].isidentifier() else None


def embedded_text(module_code: str) -> str | None:
    """The task text a module embeds (its one ``_TASK_TEXT`` constant), or None."""
    return parts(module_code).task_text


# ------------------------------------------------------------------------------------------
# Checks
# ------------------------------------------------------------------------------------------


def check_embedded(module_code: str, reference_program: str,
                   task_text: str | None = None, entry_point: str | None = None) -> str | None:
    """None when the module is an assembled compiled bootcamp that embeds exactly
    ``reference_program`` (and ``task_text``, when given) and nothing can swap them; else the
    first problem, in one sentence.

    Checked: one binding of ``_REFERENCE_PROGRAM`` in the whole module, at top level, a string
    literal equal to the program; one ``CompiledBootcamp`` subclass whose body begins (after
    its docstring) with ``REFERENCE_PROGRAM = _REFERENCE_PROGRAM``; with ``task_text``, one
    top-level ``_TASK_TEXT`` literal byte-equal to it and ``TASK_TEXT = _TASK_TEXT`` right
    after that line (without it, an assembled text is allowed, not required); no other binding
    of these names (assignment, attribute, import alias, ``global``, a string naming one) and
    no import or attribute use of the contract's ``run_program``."""
    try:
        tree = pyast.parse(module_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"the module does not parse ({type(exc).__name__})"
    try:
        leaf = _bootcamp_class(tree)
    except AssemblyError as exc:
        return str(exc)
    constants = [s for s in tree.body if _constant_value(s) is not None]
    if len(constants) != 1:
        return (f"the module must bind {CONSTANT} exactly once, at top level, to the program "
                f"(found {len(constants)} such constants)")
    constant = constants[0]
    if _constant_value(constant) != reference_program:
        return f"the program in {CONSTANT} is not the task's reference program"
    body = leaf.body[1:] if _is_docstring(leaf.body[0]) and len(leaf.body) > 1 else leaf.body
    class_line = body[0]
    if not _is_class_line(class_line):
        return f"the body of {leaf.name} must begin with `{CLASS_LINE}`"
    assert isinstance(constant, ast.Assign) and isinstance(class_line, ast.Assign)
    allowed = {id(constant.targets[0]), id(class_line.targets[0])}
    texts = [s for s in tree.body if _constant_value(s, TEXT_CONSTANT) is not None]
    text_line = body[1] if len(body) > 1 and _is_text_line(body[1]) else None
    if task_text is not None:
        if len(texts) != 1:
            return (f"the module must bind {TEXT_CONSTANT} exactly once, at top level, to the "
                    f"task's problem text (found {len(texts)} such constants)")
        if _constant_value(texts[0], TEXT_CONSTANT) != task_text:
            return f"the text in {TEXT_CONSTANT} is not the task's problem text"
        if text_line is None:
            return f"the body of {leaf.name} must go on with `{TEXT_LINE}` after `{CLASS_LINE}`"
    if len(texts) == 1 and text_line is not None:
        for stmt in (texts[0], text_line):
            assert isinstance(stmt, ast.Assign)
            allowed.add(id(stmt.targets[0]))
    entries = [s for s in tree.body if _constant_value(s, ENTRY_CONSTANT) is not None]
    entry_line = next((b for b in body[1:3] if _is_class_line(b, ENTRY_ATTRIBUTE, ENTRY_CONSTANT)),
                      None)
    if entry_point is not None:
        if len(entries) != 1 or _constant_value(entries[0], ENTRY_CONSTANT) != entry_point:
            return f"the module must bind {ENTRY_CONSTANT} once, at top level, to {entry_point!r}"
        if entry_line is None:
            return f"the body of {leaf.name} must go on with `{ENTRY_LINE}`"
    if len(entries) == 1 and entry_line is not None:
        for stmt in (entries[0], entry_line):
            assert isinstance(stmt, ast.Assign)
            allowed.add(id(stmt.targets[0]))
    for node in ast.walk(tree):
        problem = _swap(node, allowed)
        if problem:
            return f"line {getattr(node, 'lineno', '?')}: {problem}"
    return None


def _swap(node: ast.AST, allowed: set[int]) -> str | None:
    """Why ``node`` could bind or replace the embedded program, or None."""
    if id(node) in allowed:
        return None
    names = _NAMES
    if isinstance(node, ast.Name) and node.id in names and not isinstance(node.ctx, ast.Load):
        return f"{node.id} is bound here; only assemble binds it"
    if isinstance(node, ast.Attribute) and node.attr in names and \
            not isinstance(node.ctx, ast.Load):
        return f"an attribute {node.attr} is set here; only assemble sets it"
    if isinstance(node, ast.Global | ast.Nonlocal) and set(node.names) & set(names):
        return "a global statement names an embedded program or text"
    if isinstance(node, ast.alias) and (node.asname or node.name) in names:
        return "an import binds an embedded program's or text's name"
    if isinstance(node, ast.arg | ast.ExceptHandler) and \
            getattr(node, "arg", getattr(node, "name", None)) in names:
        return "a parameter or exception binds an embedded program's or text's name"
    if isinstance(node, ast.Constant) and node.value in names:
        what = "program" if node.value in (CONSTANT, ATTRIBUTE, ENTRY_CONSTANT,
                                           ENTRY_ATTRIBUTE) else "task text"
        return f"the string {node.value!r} names the embedded {what} (setattr, type(...))"
    if (isinstance(node, ast.Attribute) and node.attr == "run_program") or \
            (isinstance(node, ast.alias) and node.name == "run_program"):
        return "run_program is the contract's own; CompiledBootcamp runs the program itself"
    return None


def _catches_import_error(handlers: Iterable[ast.ExceptHandler]) -> bool:
    for handler in handlers:
        kinds = handler.type
        if kinds is None:
            return True
        items = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if any(isinstance(k, ast.Name) and k.id in ("ImportError", "ModuleNotFoundError",
                                                     "Exception", "BaseException")
               for k in items):
            return True
    return False


def program_problems(program: str) -> list[str]:
    """Why :func:`synth.runner.run_program` could not run ``program``, read without running
    it: a syntax error, an import outside ``sys`` and :data:`~synth.runner.PROGRAM_MODULES`
    (unless a ``try`` catches its ImportError), a ``sys`` attribute the runner does not give,
    ``open`` of anything but the standard streams. Empty: it can be compiled."""
    try:
        tree = pyast.parse(program)
    except SyntaxError as exc:
        return [f"line {exc.lineno}: SyntaxError: {exc.msg} (Python 2?)"]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [f"does not parse: {exc}"]
    problems: list[str] = []
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and _catches_import_error(node.handlers):
            guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    sys_names = {"sys"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.level:
                problems.append(f"line {node.lineno}: a relative import")
                continue
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names]
            for module in modules:
                top = module.split(".")[0]
                if top != "sys" and top not in PROGRAM_MODULES and id(node) not in guarded:
                    problems.append(f"line {node.lineno}: imports {module}")
            if isinstance(node, ast.Import):
                sys_names.update(a.asname or a.name for a in node.names if a.name == "sys")
            elif node.module == "sys":
                for alias in node.names:
                    if alias.name != "*" and alias.name not in PROGRAM_SYS_NAMES:
                        problems.append(f"line {node.lineno}: uses sys.{alias.name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in sys_names and node.attr not in PROGRAM_SYS_NAMES:
            problems.append(f"line {node.lineno}: uses sys.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "open" and node.args and not (
                    isinstance(node.args[0], ast.Constant) and node.args[0].value in (0, 1, 2)):
            problems.append(f"line {node.lineno}: opens a file")
    return list(dict.fromkeys(problems))


def function_reference(task: TaskDescription, *, verified_only: bool = True
                       ) -> tuple[str, str] | None:
    """(source, entry point) of the reference function a function task's module would embed:
    its first (verified) Python 3 reference of interface ``function`` with an entry point that
    :func:`program_problems` finds nothing against, or None."""
    refs = sorted((r for r in task.references if r.language == "python3"
                   and r.interface == "function" and r.entry_point), key=lambda r: not r.verified)
    for ref in refs:
        if (ref.verified or not verified_only) and ref.entry_point and \
                not program_problems(ref.code):
            return ref.code, ref.entry_point
    return None


def compiled_reference(task: TaskDescription) -> str | None:
    """The program compiled mode would embed for ``task``: its first verified Python 3 stdio
    reference that :func:`program_problems` finds nothing against, or None (full mode)."""
    for ref in task.verified_references:
        if ref.language == "python3" and ref.interface == "stdio" and \
                not program_problems(ref.code):
            return ref.code
    return None


def function_text(task: TaskDescription) -> str:
    """A function task's specification as its module embeds it: the statement alone (for
    HumanEval, the prompt: imports, signature and docstring, with any helper the task gives),
    never the solution, and without the benchmark's title."""
    return task.statement.strip() + "\n"


def task_text(task: TaskDescription) -> str:
    """The task's problem text as a compiled bootcamp embeds it (plain text): the title, the
    statement, then whatever of the input and output specifications, examples and notes the
    statement does not already hold (a CodeContests statement holds them all)."""
    statement = task.statement.strip()
    title = task.title.strip()
    blocks = [statement] if statement.startswith(title) else [title, statement]
    for heading, extra in (("Input", task.input_spec), ("Output", task.output_spec)):
        if extra and extra.strip() and extra.strip() not in statement:
            blocks.append(f"{heading}\n\n{extra.strip()}")
    if task.examples and not all(ex.input.strip() in statement and ex.output.strip() in statement
                                 for ex in task.examples):
        shown = []
        for i, ex in enumerate(task.examples, 1):
            one = f"Example {i}\ninput:\n{ex.input.rstrip()}\noutput:\n{ex.output.rstrip()}"
            if ex.explanation and ex.explanation.strip():
                one += f"\n{ex.explanation.strip()}"
            shown.append(one)
        blocks.append("Examples\n\n" + "\n\n".join(shown))
    if task.notes and task.notes.strip() and task.notes.strip() not in statement:
        blocks.append(f"Note\n\n{task.notes.strip()}")
    return "\n\n".join(blocks) + "\n"
