"""Deterministic repairs of candidate bootcamp source before the gate.

Small code models write plausible bootcamp modules that fail the gate's ``load`` stage for
trivial reasons: a missing ``from synth.bootcamp import BaseBootcamp`` or ``import re``, a
leftover ``if __name__ == "__main__":`` demo, a misspelt base class. The repairs here fix exactly
those, on the source alone: the candidate is parsed with :mod:`ast`, never imported or run, and
changed by line edits that keep the model's formatting and comments.

Every repair is recorded as a :class:`Repair` (never silent): the pipeline emits it as an event
and shows it to the model in the next prompt. A repair whose edit would not parse is skipped and
not recorded; code that does not parse is returned unchanged with no repairs. Repairing repaired
code finds nothing more to do.

* :func:`repair_source` -- static repairs: a top-level ``__main__`` block; a wrong contract import
  (``from bootcamp import Basebootcamp``); a misspelt base class; a missing contract import; a
  missing allowlisted standard-library import (a name that is bound nowhere in the module).
* :func:`repair_from_errors` -- the gate's errors (``NameError: name 'Counter' is not defined``)
  show what static analysis cannot: a name bound somewhere (a local import, a parameter) but not
  at module scope where it is used.
* :func:`gate_errors` -- the error texts of a :class:`~synth.gate.CheckReport` it reads.

Only modules of :data:`synth.sandbox.static.ALLOWED_IMPORTS` are ever imported, and from-imports
only for the names of :data:`FROM_IMPORTS`. The contract's names are read from the source of
``synth/bootcamp.py`` (its ``__all__``), so a name the contract adds later is known here too.

For synthesized candidates only: ``synth audit`` judges InternBootcamp modules by their own
conventions, and these repairs would rewrite their ``from bootcamp import Basebootcamp``.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from synth.sandbox.static import ALLOWED_IMPORTS
from synth.text import pyast

if TYPE_CHECKING:
    from synth.gate import CheckReport

__all__ = ["FROM_IMPORTS", "Repair", "gate_errors", "repair_from_errors", "repair_source"]

CONTRACT = "synth.bootcamp"
#: How close a misspelt name must be to a contract class (difflib ratio; case and the order of
#: the CamelCase words ignored, so BaseBootCamp, Basebootcamp and BootcampBase all qualify).
CLOSE = 0.8
#: Standard-library names a model uses without importing them: name -> (module, how it must be
#: used). "call" names are functions (called, or a decorator): a bare ``product`` may be a
#: variable the model forgot, and importing itertools.product would hide that NameError.
_TABLE: dict[str, tuple[tuple[str, ...], str]] = {
    "collections": (("Counter", "defaultdict", "deque", "OrderedDict", "namedtuple", "ChainMap"),
                    "any"),
    "functools": (("lru_cache", "reduce", "cache", "partial", "cmp_to_key", "total_ordering"),
                  "call"),
    "itertools": (("permutations", "combinations", "combinations_with_replacement", "product",
                   "accumulate", "chain", "groupby", "islice", "zip_longest", "pairwise",
                   "starmap"), "call"),
    "heapq": (("heappush", "heappop", "heapify", "heappushpop", "heapreplace", "nlargest",
               "nsmallest"), "call"),
    "bisect": (("bisect", "bisect_left", "bisect_right", "insort", "insort_left",
                "insort_right"), "call"),
    "fractions": (("Fraction",), "any"),
    "decimal": (("Decimal",), "any"),
    "dataclasses": (("dataclass", "field", "asdict", "astuple"), "call"),
    "math": (("gcd", "lcm", "isqrt", "comb", "perm", "factorial", "sqrt", "ceil", "floor",
              "log2", "log10", "prod"), "call"),
    "typing": (("Any", "Optional", "List", "Dict", "Tuple", "Set", "FrozenSet", "Union",
                "Callable", "Iterable", "Iterator", "Sequence", "Mapping", "ClassVar"), "any"),
    "string": (("ascii_lowercase", "ascii_uppercase", "ascii_letters"), "any"),
    "operator": (("itemgetter",), "call"),
}
_CONSTANTS = {"pi": "math"}  # constants: any use
#: name -> module of the from-imports this module adds (only modules of ALLOWED_IMPORTS).
FROM_IMPORTS: dict[str, str] = {
    **{n: m for m, (names, _) in _TABLE.items() for n in names},
    **_CONSTANTS,
}
_CALL_ONLY = frozenset(n for m, (names, use) in _TABLE.items() if use == "call" for n in names)
_MODULES = frozenset(ALLOWED_IMPORTS - {"__future__"})
assert set(FROM_IMPORTS.values()) <= _MODULES, "FROM_IMPORTS names a module outside the allowlist"
_BUILTINS = frozenset(dir(builtins))
_NAME_ERROR = re.compile(r"NameError: name '([A-Za-z_][A-Za-z0-9_]*)' is not defined")


@dataclass(frozen=True)
class Repair:
    """One repair: what kind, one line a model can read, and the line of the model's code."""

    kind: str  # "contract_import" | "stdlib_import" | "main_block" | "base_class"
    detail: str
    line: int | None = None  # in the code as it was given to the repair function

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "detail": self.detail, "line": self.line}


# -- the contract's names, from its source --------------------------------------------------


@functools.cache
def _contract() -> tuple[tuple[str, ...], frozenset[str]]:
    """(exported names, exported class names) of synth/bootcamp.py, read with ast (a class it
    imports from a module of synth, the runner's ``ProgramError``, counts as its own)."""
    package = resources.files("synth")
    tree = pyast.parse(package.joinpath("bootcamp.py").read_text("utf-8"))
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not node.level and node.module and \
                node.module.startswith("synth.") and "." not in node.module[6:]:
            part = pyast.parse(package.joinpath(node.module[6:] + ".py").read_text("utf-8"))
            defined = {n.name for n in part.body if isinstance(n, ast.ClassDef)}
            classes |= {a.asname or a.name for a in node.names if a.name in defined}
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            names = [e.value for e in getattr(node.value, "elts", [])
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if not names:
        top = {n.name for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)}
        top |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
        names = sorted(n for n in top if not n.startswith("_"))
    return tuple(names), frozenset(classes & set(names))


def _words(name: str) -> str:
    return "".join(sorted(w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)))


def _closest_class(name: str) -> str | None:
    """The contract class ``name`` misspells (ratio >= CLOSE, case and word order ignored)."""
    best, score = None, 0.0
    for cls in sorted(_contract()[1]):
        s = max(difflib.SequenceMatcher(None, name.lower(), cls.lower()).ratio(),
                difflib.SequenceMatcher(None, _words(name), _words(cls)).ratio())
        if s > score:
            best, score = cls, s
    return best if score >= CLOSE else None


def _contract_name(name: str) -> str | None:
    exports = _contract()[0]
    if name in exports:
        return name
    same = [e for e in exports if e.lower() == name.lower()]
    return same[0] if same else _closest_class(name)


# -- the source as lines, with the original line of each ------------------------------------


class _Source:
    def __init__(self, code: str) -> None:
        self.lines = code.splitlines(keepends=True) if code else []
        self.origin: list[int | None] = list(range(1, len(self.lines) + 1))
        self.newline = "\r\n" if "\r\n" in code else "\n"

    @property
    def code(self) -> str:
        return "".join(self.lines)

    def copy(self) -> _Source:
        other = _Source("")
        other.lines, other.origin, other.newline = list(self.lines), list(self.origin), self.newline
        return other

    def orig(self, line: int) -> int | None:
        return self.origin[line - 1] if 0 < line <= len(self.origin) else None

    def splice(self, start: int, end: int, new: list[str]) -> None:
        """Replace lines ``start..end`` (1-based, inclusive; end = start - 1 inserts)."""
        keep = self.origin[start - 1] if new and end >= start else None
        if new and start > 1 and not self.lines[start - 2].endswith(("\n", "\r")):
            self.lines[start - 2] += self.newline  # the line before had no line break
        self.lines[start - 1:end] = [text + self.newline for text in new]
        self.origin[start - 1:end] = [keep] + [None] * (len(new) - 1) if new else []

    def rename(self, nodes: Iterable[ast.Name], new: str) -> None:
        """Rename single-line Name nodes in place (columns are UTF-8 byte offsets)."""
        for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset), reverse=True):
            raw = self.lines[node.lineno - 1].encode("utf-8")
            end = node.end_col_offset if node.end_col_offset is not None else node.col_offset
            self.lines[node.lineno - 1] = (raw[:node.col_offset] + new.encode("utf-8")
                                           + raw[end:]).decode("utf-8")

    def segment(self, node: ast.stmt) -> str:
        text = "".join(self.lines[node.lineno - 1:(node.end_lineno or node.lineno)])
        return " ".join(text.split())


@dataclass(frozen=True)
class _Fix:
    key: str
    apply: Callable[[_Source], None]
    repair: Repair


def _parse(code: str) -> ast.Module | None:
    try:
        return pyast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


Finder = Callable[[_Source, ast.Module], Iterator[_Fix]]


def _run(code: str, finders: list[Finder]) -> tuple[str, list[Repair]]:
    # ast counts a lone "\r" (and only "\r", "\n", "\r\n") as a line break; splitlines counts
    # more. Where the two could disagree on line numbers, change nothing.
    if _parse(code) is None or re.search(r"\r(?!\n)|[\v\f\x1c-\x1e\x85\u2028\u2029]", code):
        return code, []
    src, repairs = _Source(code), []
    for finder in finders:
        failed: set[str] = set()
        for _ in range(100):  # every applied fix removes its own finding; this only bounds
            tree = _parse(src.code)
            assert tree is not None
            fix = next((f for f in finder(src, tree) if f.key not in failed), None)
            if fix is None:
                break
            trial = src.copy()
            fix.apply(trial)
            if _parse(trial.code) is None:
                failed.add(fix.key)
            else:
                src = trial
                repairs.append(fix.repair)
    return src.code, repairs


# -- what the module binds and uses ----------------------------------------------------------


def _targets(node: ast.AST) -> Iterator[str]:
    """Names a node binds by itself (not the names bound inside it)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
        yield node.id
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            if alias.name != "*":
                yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from node.names


def _bindings(tree: ast.AST) -> list[str]:
    """Every binding anywhere in the module, any scope (with repeats)."""
    return [name for node in ast.walk(tree) for name in _targets(node)]


def _module_bound(tree: ast.Module) -> set[str]:
    """Names bound at module scope (not inside functions, classes or comprehensions)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        found.update(_targets(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
                      | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _loads(tree: ast.AST) -> dict[str, list[ast.Name]]:
    out: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.id, []).append(node)
    for nodes in out.values():
        nodes.sort(key=lambda n: (n.lineno, n.col_offset))
    return out


def _attr_uses(tree: ast.AST) -> dict[str, list[str]]:
    """name -> "name.attr" texts of its attribute uses, in source order."""
    found = sorted((n.value.lineno, n.value.col_offset, n.value.id, n.attr) for n in ast.walk(tree)
                   if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                   and isinstance(n.value.ctx, ast.Load))
    out: dict[str, list[str]] = {}
    for _, _, name, attr in found:
        out.setdefault(name, []).append(f"{name}.{attr}")
    return out


def _called(tree: ast.AST) -> set[str]:
    """Names called (``f(...)``) or used as a decorator."""
    out = {n.func.id for n in ast.walk(tree)
           if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out |= {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
    return out


# -- where an import goes --------------------------------------------------------------------


def _insert_import(src: _Source, tree: ast.Module, line: str, *, stdlib: bool) -> None:
    """Insert an import after the docstring and ``from __future__`` imports: a standard-library
    one after the last standard-library import of the leading imports (or before them), a
    contract one after all of them."""
    body, i, header, pad_at = tree.body, 0, 0, 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        header = pad_at = body[0].end_lineno or 1
        i = 1
    while i < len(body) and isinstance(body[i], ast.ImportFrom) \
            and getattr(body[i], "module", "") == "__future__":
        header, i = body[i].end_lineno or 1, i + 1
    run: list[ast.stmt] = []
    while i < len(body) and isinstance(body[i], ast.Import | ast.ImportFrom):
        run.append(body[i])
        i += 1
    std = [n for n in run if not (isinstance(n, ast.ImportFrom) and n.module == CONTRACT)]
    if stdlib and std:
        after = std[-1].end_lineno or 1
    elif stdlib and run:
        after = run[0].lineno - 1
    elif run:
        after = run[-1].end_lineno or 1
    else:
        after = header
        if after == 0:  # no docstring: keep a leading comment block (shebang, header) first
            while after < len(src.lines) and src.lines[after].startswith("#"):
                after = pad_at = after + 1
    new = [line]
    if after and after == pad_at and src.lines[after - 1].strip():
        new.insert(0, "")
    nxt = src.lines[after].strip() if after < len(src.lines) else ""
    if nxt and not nxt.startswith(("import ", "from ")):
        new.append("")
    src.splice(after + 1, after, new)


# -- the static repairs ----------------------------------------------------------------------


def _is_main_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)


def _main_block(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    prev_end = 0
    for node in tree.body:
        # an else branch runs on import: dropping it would change what the module does
        if isinstance(node, ast.If) and _is_main_test(node.test) and not node.orelse:
            start, end = node.lineno, node.end_lineno or node.lineno
            while start - 1 > prev_end and src.lines[start - 2].startswith("#"):
                start -= 1  # a comment right above the block ("# Example usage") goes with it
            last = node is tree.body[-1]

            def apply(s: _Source, start: int = start, end: int = end, last: bool = last) -> None:
                s.splice(start, end, [])
                while last and s.lines and not s.lines[-1].strip():
                    s.splice(len(s.lines), len(s.lines), [])

            first, final = src.orig(start), src.orig(end)
            where = f"lines {first}-{final}" if first and final and final > first else f"line {first}"
            yield _Fix(f"main:{start}", apply, Repair(
                "main_block", f"removed the top-level `if __name__ == \"__main__\":` block "
                f"({where}): the gate imports a bootcamp module, it never runs it as a script",
                src.orig(node.lineno)))
        prev_end = node.end_lineno or node.lineno


def _contract_path(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    bound = _bindings(tree)
    loads = _loads(tree)
    exports = _contract()[0]
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or (node.level == 0 and node.module == "__future__"):
            continue
        module = node.module or ""
        if node.level == 0 and module.split(".")[0] in _MODULES:
            continue
        star = any(a.name == "*" for a in node.names)
        if star:
            if not (module == CONTRACT or module == "synth" or "bootcamp" in module.lower()):
                continue
            names = [n for n in exports if n in loads and bound.count(n) == 0]
            if not names:
                continue
            parts, renames = names, list[tuple[str, str]]()
        else:
            mapped = [_contract_name(a.name) for a in node.names]
            if any(m is None for m in mapped):
                continue
            parts, renames = [], list[tuple[str, str]]()
            for alias, target in zip(node.names, mapped, strict=True):
                assert target is not None
                if alias.asname and alias.asname != target:
                    parts.append(f"{target} as {alias.asname}")
                elif alias.asname or alias.name == target:
                    parts.append(target)
                elif bound.count(alias.name) > 1:  # bound elsewhere too: keep its name
                    parts.append(f"{target} as {alias.name}")
                else:
                    parts.append(target)
                    renames.append((alias.name, target))
            if node.level == 0 and module == CONTRACT and not renames \
                    and all(p.split(" as ")[0] == a.name for p, a in zip(parts, node.names, strict=True)):
                continue
        text = f"from {CONTRACT} import {', '.join(parts)}"
        old = src.segment(node)
        indent = src.lines[node.lineno - 1][:node.col_offset]
        start, end = node.lineno, node.end_lineno or node.lineno
        moved = [(old_name, new, loads.get(old_name, [])) for old_name, new in renames]

        def apply(s: _Source, start: int = start, end: int = end, text: str = text,
                  indent: str = indent, moved: list[Any] = moved) -> None:
            for _, new, nodes in moved:
                s.rename(nodes, new)
            s.splice(start, end, [indent + text])

        also = "".join(f"; renamed {o} to {n} at {len(u)} use(s)" for o, n, u in moved if u)
        why = ("a star import hides which names the module uses" if star else
               f"the contract is the module {CONTRACT}")
        yield _Fix(f"path:{start}", apply, Repair(
            "contract_import", f"replaced `{old}` with `{text}`{also}: {why}", src.orig(start)))


def _base_class(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    bound = set(_bindings(tree))
    loads = _loads(tree)
    exports = set(_contract()[0])
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            if not isinstance(base, ast.Name) or base.id in bound | exports | _BUILTINS \
                    | _MODULES or base.id in FROM_IMPORTS:
                continue
            target = _closest_class(base.id)
            if target is None:
                continue
            nodes = loads.get(base.id, [])

            def apply(s: _Source, nodes: list[ast.Name] = nodes, target: str = target) -> None:
                s.rename(nodes, target)

            yield _Fix(f"base:{base.id}", apply, Repair(
                "base_class", f"renamed the base class `{base.id}` of {node.name} to `{target}` "
                f"({len(nodes)} use(s)): {base.id} is defined nowhere; the contract "
                f"({CONTRACT}) defines {target}", src.orig(node.lineno)))


def _contract_fix(src: _Source, tree: ast.Module, names: list[str], why: str) -> _Fix:
    line = f"from {CONTRACT} import {', '.join(names)}"
    loads = _loads(tree)
    first = min(loads[n][0].lineno for n in names)
    return _Fix(f"contract:{','.join(names)}",
                lambda s: _insert_import(s, _tree(s), line, stdlib=False),
                Repair("contract_import", f"added `{line}`: {why}", src.orig(first)))


def _contract_import(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    bound = set(_bindings(tree))
    loads = _loads(tree)
    names = [n for n in _contract()[0] if n in loads and n not in bound]
    if names:
        them = "it" if len(names) == 1 else "them"
        yield _contract_fix(src, tree, names, f"the module uses {', '.join(names)} but never "
                            f"imports {them}")


def _tree(src: _Source) -> ast.Module:
    tree = _parse(src.code)
    assert tree is not None
    return tree


def _stdlib_fix(src: _Source, tree: ast.Module, name: str, why: str | None) -> _Fix | None:
    """``import name`` (a module used as ``name.attr``) or ``from M import name`` (a table name,
    called where it must be), or None when neither applies."""
    loads = _loads(tree).get(name)
    if not loads or name in _BUILTINS:
        return None
    attrs = _attr_uses(tree).get(name, [])
    if name in _MODULES and attrs:
        line, use = f"import {name}", attrs[0]
        why = why or f"the module uses {use} but never imports {name}"
    elif name in FROM_IMPORTS and (name not in _CALL_ONLY or name in _called(tree)):
        line = f"from {FROM_IMPORTS[name]} import {name}"
        why = why or f"the module uses {name} but never imports it"
    else:
        return None
    return _Fix(f"stdlib:{name}", lambda s: _insert_import(s, _tree(s), line, stdlib=True),
                Repair("stdlib_import", f"added `{line}`: {why}", src.orig(loads[0].lineno)))


def _stdlib_import(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    bound = set(_bindings(tree))
    for name in _loads(tree):
        if name in bound or not (name in _MODULES or name in FROM_IMPORTS):
            continue
        if (fix := _stdlib_fix(src, tree, name, None)) is not None:
            yield fix


#: a string literal that starts with the label the prompt shows above a case ("Input:")
_LABEL = re.compile(r"""(?<![A-Za-z0-9_])((?:[fFrR]{1,2})?(?:\"\"\"|\'\'\'|["']))"""
                    r"""[ \t]*(?:Input|INPUT|input)[ \t]*(?::[ \t]*(?:\\n)?|\\n)""")


def _stdin_label(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
    """``render_stdin`` returning ``f"Input: {n}\\n"``: the program would read the word "Input"
    as its first value. Problem inputs never start with that label (the prompt prints it above
    the case), so it is removed from the string literals that begin with it."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.FunctionDef) and node.name == "render_stdin"):
            continue
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            text = src.lines[line - 1]
            if text.lstrip().startswith("#") or not _LABEL.search(text):
                continue

            def apply(s: _Source, line: int = line) -> None:
                s.lines[line - 1] = _LABEL.sub(r"\1", s.lines[line - 1])

            yield _Fix(f"label:{line}", apply, Repair(
                "stdin_label", f"removed the label 'Input:' from a string of render_stdin "
                f"(line {src.orig(line)}): the program reads that text as the problem's input, "
                "which starts with its first value (the prompt shows the label itself)",
                src.orig(line)))


_STATIC: list[Finder] = [_main_block, _contract_path, _base_class, _contract_import,
                         _stdlib_import, _stdin_label]


def _docstring_finder(text: str) -> Finder:
    """A module without a docstring gets ``text`` as its first statement (the static gate
    requires one naming the task and its provenance, which the pipeline knows and a model may
    leave out)."""
    body = " ".join(text.replace('"""', "'''").replace("\\", "/").split())
    line = f'"""{body}"""'

    def finder(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
        first = tree.body[0] if tree.body else None
        if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            return
        at = 1  # after a shebang or a coding comment, else at the top
        while at <= len(src.lines) and (src.lines[at - 1].startswith("#!")
                                        or re.match(r"#.*coding[:=]", src.lines[at - 1])):
            at += 1
        yield _Fix("docstring", lambda s: s.splice(at, at - 1, [line, ""]),
                   Repair("docstring", f"added the module docstring {line}: a module must begin "
                          "with a docstring naming its task and provenance"))
    return finder


def repair_source(code: str, *, docstring: str | None = None) -> tuple[str, list[Repair]]:
    """Static repairs on the source alone (no execution). Returns the code unchanged and []
    when nothing applies, or when the code does not parse (say nothing, change nothing).

    ``docstring``: the text of a module docstring to add when the module has none (the caller
    knows the task and the provenance; the repair is reported like every other)."""
    return _run(code, ([_docstring_finder(docstring)] if docstring else []) + _STATIC)


# -- the repairs the gate's errors call for --------------------------------------------------


def _from_errors(names: list[str]) -> Finder:
    def finder(src: _Source, tree: ast.Module) -> Iterator[_Fix]:
        module_bound = _module_bound(tree)
        nested = set(_bindings(tree)) - module_bound
        loads = _loads(tree)
        for name in names:
            if name not in loads or name in module_bound:
                continue
            why = f"the gate reported NameError: name '{name}' is not defined"
            if name in nested:
                why += f" ({name} is bound only inside a function or class, not at module level)"
            if name in _contract()[0]:
                yield _contract_fix(src, tree, [name], why)
            elif (fix := _stdlib_fix(src, tree, name, why)) is not None:
                yield fix
        for fix in _base_class(src, tree):
            if fix.key.split(":", 1)[1] in names:
                yield fix
    return finder


def repair_from_errors(code: str, errors: Iterable[str]) -> tuple[str, list[Repair]]:
    """Repairs driven by error messages the gate reported (e.g. a load/construct/generate
    traceback containing "NameError: name 'Counter' is not defined"): the missing import of a
    contract name, an allowlisted module or a :data:`FROM_IMPORTS` name that is not bound at
    module scope, and a misspelt base class. Unchanged and [] when no error calls for one."""
    names = list(dict.fromkeys(m for text in errors for m in _NAME_ERROR.findall(text)))
    return _run(code, [_from_errors(names)]) if names else (code, [])


def gate_errors(report: CheckReport) -> list[str]:
    """The error texts of a CheckReport that :func:`repair_from_errors` reads: the reason and
    every artifact (traceback, stderr, violations, ...) of each check that did not pass."""
    out: list[str] = []
    for check in report.checks:
        if check.status.value in ("passed", "skipped"):
            continue
        out.append(check.reason)
        out.extend(check.artifacts.values())
    return out
