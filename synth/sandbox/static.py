"""L0: the static gate. An AST lint of candidate bootcamp code -- not a security boundary.

:func:`check_source` parses the code (never imports or runs it) and returns one
:class:`Violation` per problem, each naming the line, the column and the rule. An empty list
means the code may go on to the sandboxed checks. The real containment is the sandbox; this
gate exists to give the code model precise, early feedback and to reject the obvious escape
attempts before any code runs.

Rules (``Violation.rule``):

``size``             more than :data:`MAX_BYTES` bytes or :data:`MAX_LINES` lines
``syntax``           the code does not parse (line and column of the error)
``docstring``        the module does not begin with a docstring (task and provenance)
``class``            not exactly one bootcamp class (subclass of ``BaseBootcamp``, of
                     ``CompiledBootcamp`` or of ``MultiTurnBootcamp``, directly or through
                     another class of the module)
``methods``          the bootcamp class lacks a required method (:data:`REQUIRED_METHODS`)
``import``           an import outside :data:`ALLOWED_IMPORTS` (or a relative import)
``verify_override``  the bootcamp defines ``verify_score`` (only BaseBootcamp defines it)
``extraction_override`` the bootcamp defines ``extract_output`` or ``wrap_answer`` (the
                     contract's own read the last answer block)
``kwargs``           ``__init__`` takes ``**kwargs`` (difficulty parameters must be explicit)
``dunder``           access to a dunder attribute or name outside :data:`SAFE_DUNDERS`
                     (``__subclasses__``, ``__globals__``, ``__builtins__``, ``__mro__`` ...),
                     also as a string constant or inside a format-string field
``forbidden_name``   use of ``eval``, ``exec``, ``compile``, ``open``, ``__import__``,
                     ``globals``, ``locals``, ``vars``, ``breakpoint``, ``input`` ... (even
                     without calling them: ``f = eval`` is as bad as ``eval(...)``)
``dynamic_attr``     ``getattr``/``setattr``/``delattr``/``hasattr`` (or ``operator``'s
                     ``attrgetter``/``methodcaller``) with a non-literal name
``monkeypatch``      assignment to an attribute of ``BaseBootcamp`` or of an imported module
``compiled``         in a ``CompiledBootcamp`` module: ``reference_answer`` or
                     ``_verify_correction`` defined (the answer key is the embedded program's
                     output; ``check_output`` is the hook), ``REFERENCE_PROGRAM``,
                     ``_REFERENCE_PROGRAM``, ``TASK_TEXT`` or ``_TASK_TEXT`` bound other than
                     as ``synth.compiled.assemble`` writes them, or the contract's
                     ``run_program`` imported or used (the contract runs the program)
``multi_turn``       in a ``MultiTurnBootcamp`` module: ``prompt_func``, ``reference_answer``,
                     ``_verify_correction``, ``extract_output`` or ``wrap_answer`` defined
                     (they follow from ``reset``, ``step`` and ``reference_policy``, or are
                     the contract's), or ``MAX_TURNS`` not declared
``introspection``    access to frames, code objects or the module table (``gi_frame``,
                     ``tb_frame``, ``f_back``, ``_getframe``, ``modules`` ...), to a module the
                     allowlist does not grant through another one (``dataclasses.sys``,
                     ``random._os``), or to a private attribute of an imported module; also as
                     a string constant naming such an attribute

The string literals of the embedded program and problem text (the module-level
``_REFERENCE_PROGRAM = "..."`` and ``_TASK_TEXT = "..."`` that ``synth.compiled.assemble``
writes) are not linted as code or names, like a docstring: they are the task's reference
program and statement, which the workflow checks against the task
(``synth.compiled.check_embedded``) and the oracle runs. A compiled class need not define
``prompt_func``: the contract's default shows the embedded text.

Mode ``"checker"`` lints an independent checker (a plain module with a top-level
``check(identity, answer)``, optionally ``solve`` and ``probes``): the same import allowlist
without ``synth.bootcamp``, the same name and dunder rules, no class rules.

Mode ``"intern"`` audits InternBootcamp-style modules: the base class is ``Basebootcamp``, the
imports ``bootcamp`` / ``internbootcamp...`` (and ``ast``, ``copy``) are also allowed, only
``case_generator``, ``prompt_func`` and ``_verify_correction`` are required, and overriding
``verify_score``, ``**kwargs`` and a missing docstring are accepted (they are the norm there).
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from synth.text import pyast

__all__ = [
    "ALLOWED_IMPORTS",
    "COMPILED_METHODS",
    "FORBIDDEN_NAMES",
    "INTROSPECTION_ATTRS",
    "MAX_BYTES",
    "MAX_LINES",
    "REQUIRED_METHODS",
    "SAFE_DUNDERS",
    "Violation",
    "check_source",
    "format_violations",
]

MAX_BYTES = 64 * 1024
MAX_LINES = 1500

#: Top-level modules a bootcamp may import (plus ``synth.bootcamp`` and ``synth.engines`` exactly).
ALLOWED_IMPORTS: frozenset[str] = frozenset(
    {
        "__future__",
        "random",
        "math",
        "re",
        "itertools",
        "collections",
        "functools",
        "heapq",
        "bisect",
        "string",
        "fractions",
        "decimal",
        "json",
        "typing",
        "dataclasses",
        "statistics",
        "operator",
    }
)
_SYNTH_MODULE = "synth.bootcamp"
#: The client of declared engines (``ENGINES``), which a bootcamp may import too.
_ENGINES_MODULE = "synth.engines"
_INTERN_EXTRA = frozenset({"bootcamp", "internbootcamp", "ast", "copy"})

#: Names a bootcamp may not use at all (called or not).
FORBIDDEN_NAMES: frozenset[str] = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "open",
        "__import__",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "input",
        "help",
        "exit",
        "quit",
        "memoryview",
        "__builtins__",
        "__loader__",
        "__spec__",
    }
)
_DYNAMIC_ATTR = frozenset({"getattr", "setattr", "delattr", "hasattr"})

#: Attribute names that reach the interpreter's internals (frames, code, the module table) or
#: a module the allowlist does not grant (``dataclasses.sys``, ``random._os``): flagged as an
#: attribute and as a string constant (``getattr(g, "gi_frame")``).
INTROSPECTION_ATTRS: frozenset[str] = frozenset(
    {
        "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "cr_await", "ag_frame",
        "ag_code", "tb_frame", "tb_next", "f_back", "f_globals", "f_locals", "f_builtins",
        "f_code", "f_trace", "f_lasti", "co_code", "co_consts", "_getframe", "_current_frames",
        "modules", "sys", "os", "_os", "posix", "builtins", "_bootstrap", "importlib", "gc",
        "ctypes", "_ctypes", "subprocess", "_posixsubprocess", "signal", "_signal", "socket",
        "_socket", "threading", "_thread", "io", "_io", "marshal", "pickle", "shutil", "mmap",
        "resource", "fcntl", "select", "selectors", "inspect", "types", "weakref", "atexit",
        "_sys", "_weakref", "_imp", "_warnings", "faulthandler", "tracemalloc",
        # getattr and eval engines under other names
        "Formatter", "get_field", "get_type_hints", "ForwardRef", "_eval_type", "vformat",
    }
)
#: Dunder names a module may bind at top level (anything else, e.g. ``__loader__``, changes
#: how the interpreter treats the module).
_BINDABLE_DUNDERS = frozenset({"__all__", "__slots__", "__doc__", "__version__", "__author__"})

#: Dunder attributes/names that are harmless and common in ordinary code.
SAFE_DUNDERS: frozenset[str] = frozenset(
    {"__init__", "__name__", "__qualname__", "__doc__", "__future__", "__main__", "__all__"}
)

#: Methods the bootcamp class must define (itself or through a class of the module).
REQUIRED_METHODS: dict[str, tuple[str, ...]] = {
    "synth": ("case_generator", "prompt_func", "reference_answer", "_verify_correction"),
    "intern": ("case_generator", "prompt_func", "_verify_correction"),
    "checker": (),
}
_BASE_NAMES = {"synth": "BaseBootcamp", "intern": "Basebootcamp", "checker": "BaseBootcamp"}
#: The contract's base of compiled bootcamps (synth mode), what its subclasses must define,
#: and the names only ``synth.compiled.assemble`` binds.
_COMPILED_BASE = "CompiledBootcamp"
COMPILED_METHODS: tuple[str, ...] = ("case_generator", "render_stdin")
#: The contract's base of function bootcamps (a reference function's return value is the key)
#: and what its subclasses define.
_FUNCTION_BASE = "FunctionBootcamp"
FUNCTION_METHODS: tuple[str, ...] = ("case_generator", "call_args")
#: The contract's base of multi-turn bootcamps (synth mode) and what its subclasses define.
_MULTI_TURN_BASE = "MultiTurnBootcamp"
MULTI_TURN_METHODS: tuple[str, ...] = ("case_generator", "reset", "step", "reference_policy")
_PROGRAM_CONSTANT, _PROGRAM_ATTRIBUTE = "_REFERENCE_PROGRAM", "REFERENCE_PROGRAM"
_TEXT_CONSTANT, _TEXT_ATTRIBUTE = "_TASK_TEXT", "TASK_TEXT"
#: constant -> class attribute, of each embedding assemble writes
_ENTRY_CONSTANT, _ENTRY_ATTRIBUTE = "_ENTRY_POINT", "ENTRY_POINT"
_EMBEDDED = {_PROGRAM_CONSTANT: _PROGRAM_ATTRIBUTE, _TEXT_CONSTANT: _TEXT_ATTRIBUTE,
             _ENTRY_CONSTANT: _ENTRY_ATTRIBUTE}
_EMBEDDED_NAMES = (_PROGRAM_CONSTANT, _PROGRAM_ATTRIBUTE, _TEXT_CONSTANT, _TEXT_ATTRIBUTE,
                   _ENTRY_CONSTANT, _ENTRY_ATTRIBUTE)

_DUNDER = re.compile(r"^__\w+__$")
_FORMAT_DUNDER = re.compile(r"\{[^{}]*__\w+__[^{}]*\}")
_DOTTED_DUNDER = re.compile(r"\.(__\w+__)")  # "func.__globals__" for attrgetter & co
_GETTER_FACTORIES = frozenset({"attrgetter", "methodcaller"})

Mode = Literal["synth", "intern", "checker"]


class Violation(BaseModel):
    """One reason the static gate rejects the code."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    line: int
    col: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}:{self.col} [{self.rule}] {self.message}"


def format_violations(violations: list[Violation]) -> str:
    """One line per violation, in source order."""
    return "\n".join(str(v) for v in sorted(violations, key=lambda v: (v.line, v.col)))


def check_source(
    code: str, mode: Mode = "synth", extra_imports: frozenset[str] = frozenset()
) -> list[Violation]:
    """Lint candidate bootcamp code; an empty list means no rule is broken."""
    if mode not in REQUIRED_METHODS:
        raise ValueError(f"unknown mode {mode!r}; use 'synth' or 'intern'")
    size = len(code.encode("utf-8", errors="replace"))
    lines = code.count("\n") + 1
    if size > MAX_BYTES or lines > MAX_LINES:
        return [
            Violation(
                line=1,
                col=0,
                rule="size",
                message=f"{size} bytes / {lines} lines; the cap is {MAX_BYTES} bytes and "
                f"{MAX_LINES} lines",
            )
        ]
    try:
        tree = pyast.parse(code, filename="<candidate>")
    except SyntaxError as exc:
        return [
            Violation(
                line=exc.lineno or 1,
                col=max(0, (exc.offset or 1) - 1),
                rule="syntax",
                message=f"{exc.msg}" + (f": {exc.text.strip()}" if exc.text else ""),
            )
        ]
    except (ValueError, RecursionError, MemoryError) as exc:
        return [Violation(line=1, col=0, rule="syntax", message=f"cannot parse: {exc}")]
    allowed = ALLOWED_IMPORTS | extra_imports | (_INTERN_EXTRA if mode == "intern" else set())
    linter = _Linter(mode, allowed)
    try:
        linter.visit(tree)
    except RecursionError:
        return [Violation(line=1, col=0, rule="syntax", message="code nested too deeply")]
    linter.finish(tree)
    return sorted(linter.found, key=lambda v: (v.line, v.col, v.rule))


class _Linter(ast.NodeVisitor):
    def __init__(self, mode: Mode, allowed: frozenset[str] | set[str]) -> None:
        self.mode = mode
        self.allowed = allowed
        self.found: list[Violation] = []
        self.module_aliases: set[str] = set()  # names bound to imported modules
        self.base_aliases: set[str] = {_BASE_NAMES[mode]}
        self.compiled_aliases: set[str] = {_COMPILED_BASE} if mode == "synth" else set()
        self.multi_aliases: set[str] = {_MULTI_TURN_BASE} if mode == "synth" else set()
        self.program_nodes: set[int] = set()  # id() of the assembled embedding's targets
        self.docstrings: set[int] = set()  # id() of docstring Constant nodes
        self.params: list[set[str]] = []  # parameter names of the enclosing functions
        self.call_funcs: set[int] = set()  # id() of the nodes that are called directly

    def add(self, node: ast.AST, rule: str, message: str) -> None:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        self.found.append(Violation(line=line, col=col, rule=rule, message=message))

    # -- imports --------------------------------------------------------------------------
    def _import_ok(self, module: str) -> bool:
        top = module.split(".")[0]
        if module in (_SYNTH_MODULE, _ENGINES_MODULE) and self.mode != "checker":
            return True
        if self.mode == "intern" and top in ("bootcamp", "internbootcamp"):
            return True
        return "." not in module and top in self.allowed

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not self._import_ok(alias.name):
                self.add(node, "import", f"import of {alias.name!r} is not allowed; " + _allow(self.mode))
            self.module_aliases.add((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.add(node, "import", "relative imports are not allowed")
            return
        if module == "synth" and all(a.name in ("bootcamp", "engines") for a in node.names):
            self.module_aliases.update(a.asname or a.name for a in node.names)
            return
        if not self._import_ok(module):
            self.add(node, "import", f"import from {module!r} is not allowed; " + _allow(self.mode))
            return
        for alias in node.names:
            if alias.name in INTROSPECTION_ATTRS or alias.name in _DYNAMIC_ATTR:
                self.add(node, "introspection", f"importing {alias.name!r} from {module!r} is "
                         "not allowed")
            if alias.name == "*":
                self.add(node, "import", f"'from {module} import *' is not allowed")
            elif alias.name == _BASE_NAMES[self.mode]:
                self.base_aliases.add(alias.asname or alias.name)
            elif alias.name in (_COMPILED_BASE, _FUNCTION_BASE) and self.mode == "synth":
                self.compiled_aliases.add(alias.asname or alias.name)
            elif alias.name == _MULTI_TURN_BASE and self.mode == "synth":
                self.multi_aliases.add(alias.asname or alias.name)
            elif alias.name == "run_program" and self.mode == "synth":
                self.add(node, "compiled", "run_program is the contract's own: a "
                         "CompiledBootcamp runs its REFERENCE_PROGRAM itself")

    # -- names and attributes -------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        if self.mode == "synth" and self._program_name(node, node.id, node.ctx):
            return
        if isinstance(node.ctx, ast.Store):
            if _DUNDER.match(node.id) and node.id not in _BINDABLE_DUNDERS | SAFE_DUNDERS:
                self.add(node, "dunder", f"binding the dunder name {node.id!r} is not allowed")
            return  # defining e.g. __slots__, or shadowing a name, reaches nothing
        if (node.id in _DYNAMIC_ATTR or node.id in _GETTER_FACTORIES) and \
                id(node) not in self.call_funcs:
            self.add(node, "dynamic_attr", f"{node.id} may only be called directly (an alias of "
                     "it escapes the literal-name rule)")
            return
        if node.id in FORBIDDEN_NAMES and not any(node.id in p for p in self.params):
            self.add(node, "forbidden_name", f"use of {node.id!r} is not allowed")
        elif _DUNDER.match(node.id) and node.id not in SAFE_DUNDERS:
            self.add(node, "dunder", f"use of the dunder name {node.id!r} is not allowed")

    def _program_name(self, node: ast.AST, name: str, ctx: ast.expr_context) -> bool:
        """Flag a binding of the embedded program's names other than the two that assemble
        writes, and the contract's ``run_program`` reached through a module (True when
        flagged; importing it is flagged at the import)."""
        if name == "run_program" and isinstance(node, ast.Attribute) and \
                isinstance(node.value, ast.Name) and node.value.id in self.module_aliases:
            self.add(node, "compiled", "run_program is the contract's own: a CompiledBootcamp "
                     "runs its REFERENCE_PROGRAM itself")
            return True
        if name in _EMBEDDED_NAMES and not isinstance(ctx, ast.Load) \
                and id(node) not in self.program_nodes:
            what = "reference program" if "PROGRAM" in name else "problem text"
            self.add(node, "compiled", f"{name} is written by synth.compiled.assemble (the "
                     f"task's {what}); do not bind or change it")
            return True
        return False

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if self.mode == "synth" and self._program_name(node, node.attr, node.ctx):
            self.generic_visit(node)
            return
        if _DUNDER.match(node.attr) and node.attr not in SAFE_DUNDERS:
            hint = "; use type(obj) instead" if node.attr == "__class__" else ""
            self.add(node, "dunder", f"access to the attribute {node.attr!r} is not allowed{hint}")
        elif node.attr in _GETTER_FACTORIES and id(node) not in self.call_funcs:
            self.add(node, "dynamic_attr", f"{node.attr} may only be called directly")
        elif node.attr in INTROSPECTION_ATTRS:
            self.add(node, "introspection", f"access to the attribute {node.attr!r} reaches "
                     "interpreter internals or a module outside the allowlist")
        elif (
            node.attr.startswith("_")
            and isinstance(node.value, ast.Name)
            and node.value.id in self.module_aliases
        ):
            self.add(node, "introspection", f"access to the private attribute {node.attr!r} of "
                     f"the module {node.value.id!r}")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and id(node) not in self.docstrings:
            text = node.value
            if self.mode == "synth" and text in _EMBEDDED_NAMES:
                what = "program" if "PROGRAM" in text else "problem text"
                self.add(node, "compiled", f"the string {text!r} names the embedded {what} "
                         "(setattr, type(...)); only synth.compiled.assemble writes it")
            elif _DUNDER.match(text) and text not in SAFE_DUNDERS:
                self.add(node, "dunder", f"the string {text!r} names a dunder attribute")
            elif text in INTROSPECTION_ATTRS and text not in ("os", "io", "types", "modules"):
                self.add(node, "introspection", f"the string {text!r} names interpreter "
                         "internals or a module outside the allowlist")
            elif len(text) < 10_000 and _FORMAT_DUNDER.search(text):
                self.add(node, "dunder", "a format-string field reaches a dunder attribute")
            elif len(text) < 10_000 and any(
                m not in SAFE_DUNDERS for m in _DOTTED_DUNDER.findall(text)
            ):
                self.add(node, "dunder", f"the string {text[:60]!r} names a dunder attribute")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        self.call_funcs.add(id(func))
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if called in _GETTER_FACTORIES and not all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:1]
        ):
            self.add(node, "dynamic_attr", f"{called}() needs a literal attribute name string")
        if isinstance(func, ast.Name) and func.id in _DYNAMIC_ATTR:
            name_arg = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(name_arg, ast.Constant) and isinstance(name_arg.value, str)):
                self.add(node, "dynamic_attr", f"{func.id}() needs a literal attribute name string")
            target = node.args[0] if node.args else None
            if (
                func.id in ("setattr", "delattr")
                and isinstance(target, ast.Name)
                and (target.id in self.base_aliases or target.id in self.module_aliases)
            ):
                self.add(node, "monkeypatch", f"{func.id}() on {target.id!r} is not allowed")
        self.generic_visit(node)

    # -- monkeypatching -------------------------------------------------------------------
    def _check_target(self, target: ast.expr) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self._check_target(elt)
            return
        if isinstance(target, ast.Starred):
            self._check_target(target.value)
            return
        if isinstance(target, ast.Attribute):
            root: ast.expr = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and (
                root.id in self.base_aliases or root.id in self.module_aliases
            ):
                self.add(
                    target,
                    "monkeypatch",
                    f"assignment to an attribute of {root.id!r} is not allowed "
                    "(do not patch the base class or imported modules)",
                )

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._check_target(target)
        # an alias of an imported module or of the base class is that module or class
        if isinstance(node.value, ast.Name):
            for group in (self.module_aliases, self.base_aliases):
                if node.value.id in group:
                    group.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check_target(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._check_target(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._check_target(target)
        self.generic_visit(node)

    # -- docstrings are prose, not code ---------------------------------------------------
    def _note_docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self.docstrings.add(id(body[0].value))

    def visit_Module(self, node: ast.Module) -> None:
        self._note_docstring(node.body)
        if self.mode == "synth":
            self._note_program(node)
        self.generic_visit(node)

    def _note_program(self, tree: ast.Module) -> None:
        """The assembled embeddings (once each): the module-level ``_REFERENCE_PROGRAM =
        "..."`` and ``_TASK_TEXT = "..."`` -- their strings are prose to this lint, like a
        docstring -- and ``REFERENCE_PROGRAM = _REFERENCE_PROGRAM`` and ``TASK_TEXT =
        _TASK_TEXT`` in a class body."""
        for constant, attribute in _EMBEDDED.items():
            constants = [s for s in tree.body if isinstance(s, ast.Assign)
                         and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                         and s.targets[0].id == constant and isinstance(s.value, ast.Constant)
                         and isinstance(s.value.value, str)]
            lines = [s for c in tree.body if isinstance(c, ast.ClassDef) for s in c.body
                     if isinstance(s, ast.Assign) and len(s.targets) == 1
                     and isinstance(s.targets[0], ast.Name) and s.targets[0].id == attribute
                     and isinstance(s.value, ast.Name) and s.value.id == constant]
            if len(constants) == 1:
                self.program_nodes.add(id(constants[0].targets[0]))
                self.docstrings.add(id(constants[0].value))
            if len(lines) == 1:
                self.program_nodes.add(id(lines[0].targets[0]))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._note_docstring(node.body)
        self.generic_visit(node)

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        # A parameter named like a builtin (``def f(input): ...``) shadows it in the body;
        # whoever passes the builtin in must name it, and is flagged there.
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        # Defaults, annotations and decorators are evaluated outside the function's scope.
        outside: list[ast.AST] = [*args.defaults, *(d for d in args.kw_defaults if d)]
        outside += [a.annotation for a in every if a is not None and a.annotation is not None]
        if not isinstance(node, ast.Lambda):
            self._note_docstring(node.body)
            outside += [*node.decorator_list, *([node.returns] if node.returns else [])]
        for child in outside:
            self.visit(child)
        self.params.append({a.arg for a in every if a is not None})
        for stmt in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(stmt)
        self.params.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._visit_function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._visit_function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_function(node)

    # -- whole-module rules ---------------------------------------------------------------
    def finish(self, tree: ast.Module) -> None:
        if self.mode == "checker":
            functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            if "check" not in functions:
                self.add(tree, "methods", "an independent checker must define a top-level "
                         "function check(identity, answer) -> bool")
            return
        if self.mode == "synth" and ast.get_docstring(tree) is None:
            self.add(
                tree.body[0] if tree.body else tree,
                "docstring",
                "the module must begin with a docstring naming its task and provenance",
            )
        classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        by_name = {c.name: c for c in classes}
        bootcamps = [c for c in classes if self._is_bootcamp(c, by_name, set())]
        base = _BASE_NAMES[self.mode]
        if not bootcamps:
            self.add(tree, "class", f"no subclass of {base} found; define exactly one")
            return
        # The bootcamp is the most derived one; intermediate classes of the module count
        # as its bases (their methods are inherited).
        leaves = [c for c in bootcamps if not any(c.name in _base_names(o) for o in bootcamps)]
        if len(leaves) != 1:
            for extra in leaves[1:]:
                self.add(
                    extra,
                    "class",
                    f"more than one {base} subclass ({', '.join(c.name for c in leaves)}); "
                    "a module holds exactly one bootcamp",
                )
        leaf = leaves[0] if leaves else bootcamps[-1]
        chain = self._chain(leaf, by_name)
        defined = {
            stmt.name
            for cls in chain
            for stmt in cls.body
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assigned = {
            t.id
            for cls in chain
            for stmt in cls.body
            if isinstance(stmt, ast.Assign)
            for t in stmt.targets
            if isinstance(t, ast.Name)
        }
        compiled = self.mode == "synth" and any(self._is_compiled(c) for c in chain)
        function = compiled and any(self._is_function(c) for c in chain)
        multi = self.mode == "synth" and any(self._is_multi_turn(c) for c in chain)
        required = FUNCTION_METHODS if function else COMPILED_METHODS if compiled \
            else MULTI_TURN_METHODS if multi \
            else REQUIRED_METHODS[self.mode]
        for method in required:
            if method not in defined and method not in assigned:
                self.add(leaf, "methods", f"{leaf.name} does not define {method}()")
        if self.mode != "synth":
            return
        if multi:
            self._multi_turn(chain, leaf, assigned)
        if compiled:
            for cls in chain:
                for stmt in cls.body:
                    banned = {"reference_answer", "_verify_correction"}
                    if function:
                        banned |= {"prompt_func", "render_stdin", "arguments", "call_text"}
                    for name in _bound_names(stmt) & banned:
                        self.add(stmt, "compiled", f"{cls.name} defines {name}; " + (
                                 "a FunctionBootcamp's answer key, prompt and arguments' JSON "
                                 "are the contract's (define case_generator and call_args)"
                                 if function else
                                 "a CompiledBootcamp's answer key is its reference program's "
                                 "output (define check_output(identity, expected, answer) for "
                                 "a problem with several valid outputs)"))
        for cls in chain:
            for stmt in cls.body:
                names = _bound_names(stmt)
                if "verify_score" in names:
                    self.add(
                        stmt,
                        "verify_override",
                        f"{cls.name} overrides verify_score; implement _verify_correction "
                        "(verify_score is defined once, in BaseBootcamp)",
                    )
                for name in sorted(names & {"extract_output", "wrap_answer"} if not multi else ()):
                    self.add(
                        stmt,
                        "extraction_override",
                        f"{cls.name} overrides {name}; the answer is read from the last "
                        "<answer></answer> block by the contract's own extract_output (an "
                        "override sees the whole response and could score production's "
                        "responses differently from the gate's)",
                    )
                if (
                    isinstance(stmt, ast.FunctionDef)
                    and stmt.name == "__init__"
                    and stmt.args.kwarg is not None
                ):
                    self.add(
                        stmt,
                        "kwargs",
                        f"{cls.name}.__init__ takes **{stmt.args.kwarg.arg}; declare each "
                        "difficulty parameter as an explicit keyword argument",
                    )

    def _is_bootcamp(
        self, cls: ast.ClassDef, by_name: dict[str, ast.ClassDef], seen: set[str]
    ) -> bool:
        if cls.name in seen:
            return False
        seen.add(cls.name)
        for base in cls.bases:
            name = _dotted(base)
            if name is None:
                continue
            last = name.rsplit(".", 1)[-1]
            if name in self.base_aliases or last == _BASE_NAMES[self.mode]:
                return True
            if name in self.compiled_aliases or (self.mode == "synth" and last in (
                    _COMPILED_BASE, _FUNCTION_BASE)):
                return True
            if name in self.multi_aliases or (self.mode == "synth" and last == _MULTI_TURN_BASE):
                return True
            if name in by_name and self._is_bootcamp(by_name[name], by_name, seen):
                return True
        return False

    def _multi_turn(self, chain: list[ast.ClassDef], leaf: ast.ClassDef, assigned: set[str]) -> None:
        for cls in chain:
            for stmt in cls.body:
                for name in _bound_names(stmt) & {"prompt_func", "reference_answer",
                                                  "_verify_correction", "extract_output",
                                                  "wrap_answer"}:
                    self.add(stmt, "multi_turn", f"{cls.name} defines {name}; a multi-turn "
                             "bootcamp defines reset, step and reference_policy (the "
                             "single-turn methods follow from them; actions are read from "
                             "the answer tags by the contract)")
        annotated = {stmt.target.id for cls in chain for stmt in cls.body
                     if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)}
        if "MAX_TURNS" not in assigned | annotated:
            self.add(leaf, "multi_turn", f"{leaf.name} does not declare MAX_TURNS (the most "
                     "steps an episode may take)")

    def _is_multi_turn(self, cls: ast.ClassDef) -> bool:
        """Whether one of the class's own bases is the contract's MultiTurnBootcamp."""
        return any(n in self.multi_aliases or n.rsplit(".", 1)[-1] == _MULTI_TURN_BASE
                   for n in _base_names(cls))

    def _is_compiled(self, cls: ast.ClassDef) -> bool:
        """Whether one of the class's own bases is the contract's CompiledBootcamp (or
        FunctionBootcamp)."""
        return any(n in self.compiled_aliases or n.rsplit(".", 1)[-1] in (_COMPILED_BASE,
                                                                          _FUNCTION_BASE)
                   for n in _base_names(cls))

    def _is_function(self, cls: ast.ClassDef) -> bool:
        """Whether one of the class's own bases is the contract's FunctionBootcamp."""
        return any(n.rsplit(".", 1)[-1] == _FUNCTION_BASE for n in _base_names(cls))

    def _chain(self, leaf: ast.ClassDef, by_name: dict[str, ast.ClassDef]) -> list[ast.ClassDef]:
        chain, todo, seen = [], [leaf], set()
        while todo:
            cls = todo.pop()
            if cls.name in seen:
                continue
            seen.add(cls.name)
            chain.append(cls)
            todo.extend(by_name[n] for n in _base_names(cls) if n in by_name)
        return chain


def _allow(mode: str = "synth") -> str:
    extra = "" if mode == "checker" else ", synth.bootcamp, synth.engines"
    return "allowed: " + ", ".join(sorted(ALLOWED_IMPORTS - {"__future__"})) + extra


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {n for n in (_dotted(b) for b in cls.bases) if n}


def _bound_names(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, ast.Assign):
        return {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return {stmt.target.id}
    return set()
