"""When are two solutions of a task the same solution? (read as text, never run)

An answer key counts as verified only when an *independent* solution agrees with it
(:mod:`synth.gate.key`). A dataset can carry the same program twice -- copied, with names
changed, reformatted, comments added -- and two copies of one wrong program agree everywhere.
So solutions are compared here before they may vote:

* :func:`fingerprint`: the program's AST with docstrings and string-only statements dropped
  and every identifier that is not a builtin renamed by order of first use (``v0``, ``v1``,
  ...). Programs that differ only in names, layout and comments have the same fingerprint.
* :func:`similarity`: the ratio of the longest matching blocks of the two token streams with
  every identifier written as one token ``N`` (a copy with a few lines added, removed or moved
  still scores high).

:func:`same_solution` is either; :func:`copies` applies it to a list (the first of a family is
kept). Two honest solutions of a very short problem can look alike: they then count as one,
which errs on the side of asking for another voter.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import keyword
import tokenize
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from synth.text import pyast

__all__ = ["SAME_RATIO", "copies", "fingerprint", "same_solution", "similarity"]

#: token-stream similarity at or above which two programs count as one solution
SAME_RATIO = 0.9
#: tokens compared at most (a longer program is compared on its first ones)
_MAX_TOKENS = 6000
_BUILTINS = frozenset(dir(builtins))


class _Canon(ast.NodeTransformer):
    """Renames non-builtin identifiers by order of first use and drops string statements."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def name(self, text: str) -> str:
        if text in _BUILTINS:
            return text
        return self.names.setdefault(text, f"v{len(self.names)}")

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list):
                kept = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(
                    s.value, ast.Constant) and isinstance(s.value.value, str))]
                setattr(node, field, kept or [ast.Pass()])
        return super().generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.name(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.name(node.arg)
        node.annotation = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self.name(node.name)
        node.returns = None
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        node.name = self.name(node.name)
        node.returns = None
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self.name(node.name)
        return self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> ast.AST:
        if node.asname:
            node.asname = self.name(node.asname)
        return node

    def visit_Global(self, node: ast.Global) -> ast.AST:
        node.names = [self.name(n) for n in node.names]
        return node

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.AST:
        node.names = [self.name(n) for n in node.names]
        return node

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        if node.arg is not None and node.arg in self.names:
            node.arg = self.names[node.arg]
        return self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is None:
            return ast.Pass()
        return self.visit(ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno))


@lru_cache(maxsize=256)
def fingerprint(code: str) -> str:
    """sha256 of the program's canonical AST (see the module docstring); a program that does
    not parse is fingerprinted by its whitespace-normalised text."""
    try:
        tree = pyast.parse(code)
        canon = ast.dump(_Canon().visit(tree), annotate_fields=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        canon = "text:" + " ".join(code.split())
    return hashlib.sha256(canon.encode("utf-8", "replace")).hexdigest()


@lru_cache(maxsize=256)
def _tokens(code: str) -> tuple[str, ...]:
    out: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                            tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string) and \
                    tok.string not in _BUILTINS:
                out.append("N")
            else:
                out.append(tok.string)
            if len(out) >= _MAX_TOKENS:
                break
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return tuple(code.split())[:_MAX_TOKENS]
    return tuple(out)


def similarity(a: str, b: str) -> float:
    """How much of the two programs' token streams match (0..1; see the module docstring)."""
    ta, tb = _tokens(a), _tokens(b)
    if not ta and not tb:
        return 1.0
    matcher = SequenceMatcher(None, ta, tb, autojunk=False)
    if matcher.real_quick_ratio() < SAME_RATIO or matcher.quick_ratio() < SAME_RATIO:
        return matcher.quick_ratio()
    return matcher.ratio()


def same_solution(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are one program, up to names, layout, comments and small
    edits: they may not vote for each other."""
    return a == b or fingerprint(a) == fingerprint(b) or similarity(a, b) >= SAME_RATIO


def copies(codes: Sequence[str]) -> list[int | None]:
    """For each program, the index of an earlier one it is the same solution as, else None."""
    out: list[int | None] = []
    for i, code in enumerate(codes):
        out.append(next((j for j in range(i) if out[j] is None and same_solution(codes[j], code)),
                        None))
    return out
