"""Deterministic size repairs: new ``LEVELS`` presets when the gate fails a candidate only on sizes.

Small code models often write a bootcamp whose logic passes every check of the gate but whose
presets are too small or not ordered: ``{"easy": {"n": 3, "k": 2}, "medium": {"n": 5, "k": 1},
...}`` gives six distinct easy cases (the ``diversity`` check wants ten) and a medium level that
is no larger than the easy one (the ``levels`` check). The sizes are plain numbers the model
chose; the pipeline can try others without asking it again.

:func:`level_variants` reads the class's ``LEVELS`` literal with :mod:`ast` (never importing or
running the code) and proposes a few rewritten literals: for every integer size parameter whose
value differs between the model's levels, a geometric ladder from the model's own easy value
(``easy * base * growth**i`` for level ``i``), clamped to ``[1, bound]`` where the task's input
specification states a bound for a variable of that name (``1 <= k <= 12``). Parameters the
model kept equal on every level, booleans, non-integers and lower bounds (``min_*``) are left as
they are. The workflow gates each variant in turn and keeps the first one that passes *every*
check (the gate, not this module, decides), recorded as a :class:`~synth.workflow.repair.Repair`
of kind ``levels`` that names the old and new presets, so the next prompt shows it.
"""

from __future__ import annotations

import ast
import re

from synth.statement.spec import upper_bounds
from synth.text import pyast
from synth.workflow.repair import Repair

__all__ = ["SIZE_CHECKS", "VARIANTS", "input_bounds", "level_variants"]

#: the gate checks a size repair answers (``instances``: the library's rule on the instance
#: space, which the gate reports): if these are all that failed, sizes are tried
SIZE_CHECKS = frozenset({"diversity", "levels", "instances"})
#: (base, growth) ladders tried, in order: level i gets easy * base * growth**i
VARIANTS: tuple[tuple[int, int], ...] = ((2, 2), (2, 4), (4, 4), (3, 10), (10, 10))

def input_bounds(spec: str | None) -> dict[str, int]:
    """Upper bounds the input specification states: ``1 ≤ n, m ≤ 100`` -> {"n": 100, "m": 100}.
    A variable bounded twice keeps the smaller bound. The statement's one parser
    (:func:`synth.statement.spec.upper_bounds`), as the gate's inputs check reads it."""
    return upper_bounds(spec)


def _int_value(node: ast.expr) -> int | None:
    """An integer literal or a small constant expression of them (``10**4``, ``2 * 10**3``)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp):
        left, right = _int_value(node.left), _int_value(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Pow) and 0 <= right <= 30 and abs(left) <= 10:
            return int(left**right)
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
    return None


def _levels_node(tree: ast.Module) -> ast.Dict | None:
    """The ``LEVELS = {...}`` dict literal of the module's (first) class that has one."""
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for stmt in cls.body:
            value: ast.expr | None
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign):
                targets, value = [stmt.target], stmt.value
            else:
                continue
            if any(isinstance(t, ast.Name) and t.id == "LEVELS" for t in targets):
                return value if isinstance(value, ast.Dict) else None
    return None


def _bound_for(key: str, bounds: dict[str, int]) -> int | None:
    names = [key, re.sub(r"^(?:max_|num_)|(?:_max|_count)$", "", key)]
    for name in names:
        if name in bounds:
            return bounds[name]
    lower = {k.lower(): v for k, v in bounds.items()}
    return next((lower[n.lower()] for n in names if n.lower() in lower), None)


def _render(levels: list[tuple[str, list[tuple[str, str]]]]) -> str:
    inner = ", ".join(
        f"{name!r}: {{" + ", ".join(f"{k!r}: {v}" for k, v in params) + "}" for name, params in levels
    )
    return "{" + inner.replace("'", '"') + "}"


def _replace(code: str, node: ast.expr, text: str) -> str:
    lines = code.splitlines(keepends=True)
    start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    head = lines[start].encode("utf-8")[: node.col_offset].decode("utf-8")
    tail = lines[end].encode("utf-8")[node.end_col_offset or 0:].decode("utf-8")
    return "".join(lines[:start]) + head + text + tail + "".join(lines[end + 1:])


def level_variants(code: str, input_spec: str | None = None) -> list[tuple[str, Repair]]:
    """Rewritten ``LEVELS`` for ``code`` (see the module docstring), most conservative first;
    [] when the module has no literal LEVELS of at least two levels with integer sizes that
    differ between levels, or when it does not parse."""
    try:
        tree = pyast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    node = _levels_node(tree)
    if node is None or len(node.keys) < 2:
        return []
    levels: list[tuple[str, ast.Dict]] = []
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)
                and isinstance(value, ast.Dict)):
            return []
        levels.append((key.value, value))
    # per level: [(param, source text)], and the integer values of each param by level
    params: list[list[tuple[str, str]]] = []
    ints: dict[str, list[int | None]] = {}
    for i, (_, body) in enumerate(levels):
        row: list[tuple[str, str]] = []
        for knode, vnode in zip(body.keys, body.values, strict=True):
            if not (isinstance(knode, ast.Constant) and isinstance(knode.value, str)):
                return []
            row.append((knode.value, ast.unparse(vnode)))
            ints.setdefault(knode.value, [None] * len(levels))[i] = _int_value(vnode)
        params.append(row)
    bounds = input_bounds(input_spec)
    sizes = [k for k, vals in ints.items()
             if all(v is not None for v in vals) and len(set(vals)) > 1 and "min" not in k.lower()
             and all(v is not None and v >= 0 for v in vals)]
    if not sizes:
        return []
    before = _render([(name, row) for (name, _), row in zip(levels, params, strict=True)])
    out: list[tuple[str, Repair]] = []
    seen = {before}
    for base, growth in VARIANTS:
        rows: list[list[tuple[str, str]]] = []
        for i, row in enumerate(params):
            new_row = []
            for k, text in row:
                if k in sizes:
                    easy = max(1, ints[k][0] or 0)
                    value = max(1, easy * base * growth**i)
                    cap = _bound_for(k, bounds)
                    if cap is not None:
                        value = min(value, max(1, cap))
                    text = str(value)
                new_row.append((k, text))
            rows.append(new_row)
        after = _render([(name, row) for (name, _), row in zip(levels, rows, strict=True)])
        if after in seen:
            continue
        seen.add(after)
        fixed = _replace(code, node, after)
        try:
            pyast.parse(fixed)
        except SyntaxError:
            continue
        capped = sorted(k for k in sizes if _bound_for(k, bounds) is not None)
        note = f" (capped by the input bounds of {', '.join(capped)})" if capped else ""
        out.append((fixed, Repair(
            "levels",
            f"LEVELS {before} -> {after}{note}: the gate failed only the size checks "
            f"(diversity/levels), so the sizes were scaled from your easy values "
            f"({base}x, then {growth}x per level); every check then passed on the new presets",
            node.lineno)))
    return out
