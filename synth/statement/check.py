"""An input checker derived from a statement, with no model: read an input by the statement's
layout, then check every rule.

:func:`derive` parses a problem text (its Input section and its example inputs) into an
:class:`InputChecker`. The examples validate the parser: a layout that does not read every
example input is dropped (and with it every rule, since no value can be found), and a rule
that rejects an example is dropped; both are reported in :attr:`InputChecker.dropped`, with the
phrases the parser could not read in :attr:`InputChecker.not_checked`.
:meth:`InputChecker.check` returns the first :class:`Violation` of an input, with the rule and
the statement's words it came from. Inputs are text from untrusted code: the reader is bounded
(:data:`MAX_CHARS`, :data:`MAX_VALUES`) and never raises on odd text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.statement.sections import split_sections
from synth.statement.shapes import InputSpec, Line, Rule
from synth.statement.spec import parse_input_spec
from synth.statement.text import Expr, evaluate, names_of

__all__ = ["InputChecker", "Violation", "derive", "read_input"]

#: the largest input read (a stress input at a statement's limits -- 2*10^5 values up to 10^9 --
#: is about 2.2 MB) and the most values one count may announce
MAX_CHARS = 4_000_000
MAX_VALUES = 1_000_000
_INT = re.compile(r"[-+]?\d+")
_REAL = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass
class Violation:
    rule: str  # the rule's kind ("layout" for the input's shape)
    words: str  # the statement's words it came from
    detail: str  # what in the input breaks it

    def __str__(self) -> str:
        return f"{self.detail} (the statement: \"{self.words}\")"


class _Bad(Exception):
    def __init__(self, detail: str, words: str) -> None:
        super().__init__(detail)
        self.detail, self.words = detail, words


Env = dict[str, Any]


@dataclass
class Parsed:
    head: Env
    cases: list[Env]


def _value(tok: str, kind: str, words: str) -> Any:
    if kind == "str":
        return tok
    if kind == "any":  # a format block says nothing of types: a number when it reads as one
        return int(tok) if _INT.fullmatch(tok) and len(tok) <= 40 else tok
    if kind == "int":
        if not _INT.fullmatch(tok) or len(tok) > 40:
            raise _Bad(f"{tok[:30]!r} is not an integer", words)
        return int(tok)
    if not _REAL.fullmatch(tok):
        raise _Bad(f"{tok[:30]!r} is not a number", words)
    return tok


def _read_lines(lines: list[Line], rows: list[str], at: int, env: Env) -> int:
    for line in lines:
        if line.repeat is not None:
            count = evaluate(line.repeat, env)
            if count is None:
                raise _Bad(f"the number of lines, {line.repeat}, is not a value read before it",
                           line.words)
            if count < 0 or count > MAX_VALUES:
                raise _Bad(f"{line.repeat} = {count} lines", line.words)
            cols: dict[str, list[Any]] = {it.name: [] for it in line.items}
            for _ in range(count):
                if at >= len(rows):
                    raise _Bad(f"the input ends before the {count} lines of {line.repeat}",
                               line.words)
                got = _read_one(line, rows[at], env)
                at += 1
                for k, v in got.items():
                    cols[k].append(v)
            env.update(cols)
            continue
        arrays = [it for it in line.items if it.count is not None]
        if arrays and at < len(rows) and not rows[at].strip():
            sizes = [evaluate(it.count, env) for it in arrays if it.count is not None]
            if all(s == 0 for s in sizes) and len(arrays) == len(line.items):
                env.update({it.name: [] for it in arrays})
                at += 1
                continue
        if at >= len(rows):
            sizes = [evaluate(it.count, env) for it in arrays if it.count is not None]
            if arrays and len(arrays) == len(line.items) and all(s == 0 for s in sizes):
                env.update({it.name: [] for it in arrays})
                continue
            raise _Bad("the input ends before this line", line.words)
        env.update(_read_one(line, rows[at], env))
        at += 1
    return at


def _read_one(line: Line, row: str, env: Env) -> Env:
    toks = row.split()
    out: Env = {}
    want = 0
    for it in line.items:
        if it.count is None:
            want += 1
            continue
        n = evaluate(it.count, {**env, **out})
        if n is None:
            raise _Bad(f"the count {it.count} is not a value read before it", line.words)
        want += n
    if len(toks) != want:
        raise _Bad(f"the line {row[:80]!r} has {len(toks)} value(s), the statement gives it {want}",
                   line.words)
    pos = 0
    for it in line.items:
        if it.count is None:
            out[it.name] = _value(toks[pos], it.kind, line.words)
            pos += 1
        else:
            n = evaluate(it.count, {**env, **out}) or 0
            out[it.name] = [_value(t, it.kind, line.words) for t in toks[pos:pos + n]]
            pos += n
        if it.kind == "str" and it.length is not None:
            want_len = evaluate(it.length, {**env, **out})
            got = out[it.name]
            if want_len is not None and isinstance(got, str) and len(got) != want_len:
                raise _Bad(f"{got[:40]!r} has length {len(got)}, not {it.length} = {want_len}",
                           line.words)
    return out


def read_input(spec: InputSpec, stdin: str) -> Parsed:
    """The values of an input by the spec's layout; raises _Bad with the first mismatch."""
    if len(stdin) > MAX_CHARS:
        raise _Bad(f"the input has {len(stdin)} characters", "")
    rows = stdin.replace("\r\n", "\n").split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    head: Env = {}
    at = _read_lines(spec.head, rows, 0, head)
    cases: list[Env] = []
    if spec.tests is not None:
        t = head.get(spec.tests)
        if type(t) is not int or not 0 <= t <= MAX_VALUES:
            raise _Bad(f"the number of test cases {spec.tests} is {t!r}", spec.head[0].words
                       if spec.head else "")
        for k in range(t):
            env: Env = dict(head)
            if at >= len(rows) and spec.block:
                raise _Bad(f"the input ends after {k} of the {t} test cases", spec.block[0].words)
            at = _read_lines(spec.block, rows, at, env)
            cases.append(env)
    else:
        cases.append(head)
    extra = [r for r in rows[at:] if r.strip()]
    if extra:
        where = spec.block[-1].words if spec.tests is not None and spec.block else \
            (spec.head[-1].words if spec.head else "")
        raise _Bad(f"{len(extra)} line(s) after the input the statement describes, from "
                   f"{extra[0][:80]!r}", where)
    return Parsed(head, cases)


# -- rules -----------------------------------------------------------------------------------

_CMP = {"≤": lambda a, b: a <= b, "<": lambda a, b: a < b, "≥": lambda a, b: a >= b,
        ">": lambda a, b: a > b, "≠": lambda a, b: a != b}


def _eval(expr: Expr, env: Env) -> int | None:
    if expr.op == "len":
        v = env.get(expr.name)
        if type(v) is int:
            return abs(v)
    return evaluate(expr, env)


def _pair(lhs: Expr, rel: str, rhs: Expr, env: Env, words: str) -> str | None:
    names = {n.strip("|") for n in names_of(lhs) | names_of(rhs)}
    arrays = {n: env[n] for n in names if isinstance(env.get(n), list)}
    if not arrays:
        a, b = _eval(lhs, env), _eval(rhs, env)
        if a is None or b is None:
            return None
        return None if _CMP[rel](a, b) else f"{lhs} = {a} and {rhs} = {b}: not {lhs} {rel} {rhs}"
    sizes = {len(v) for v in arrays.values()}
    if len(sizes) != 1:
        return None
    (size,) = sizes
    scalars = {k: v for k, v in env.items() if not isinstance(v, list)}
    for j in range(min(size, MAX_VALUES)):
        row = dict(scalars)
        row.update({k: v[j] for k, v in arrays.items()})
        a, b = _eval(lhs, row), _eval(rhs, row)
        if a is None or b is None:
            continue
        if not _CMP[rel](a, b):
            which = ", ".join(f"{k}[{j + 1}] = {str(v[j])[:40]}" for k, v in arrays.items())
            return f"{which}: not {lhs} {rel} {rhs} ({a} vs {b})"
    return None


def _edges(args: dict[str, Any], env: Env) -> list[tuple[Any, Any]] | None:
    u, v = args["edges"]
    us, vs = env.get(u), env.get(v)
    if not isinstance(us, list) or not isinstance(vs, list) or len(us) != len(vs):
        return None
    return list(zip(us, vs, strict=True))


def _vertex_count(env: Env) -> int | None:
    n = env.get("n")
    return n if type(n) is int else None


def _find(parent: dict[Any, Any], x: Any) -> Any:
    while parent.setdefault(x, x) != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _rule(rule: Rule, env: Env) -> str | None:
    a = rule.args
    kind = rule.kind
    if kind == "chain":
        for lhs, rel, rhs in a["pairs"]:
            bad = _pair(lhs, rel, rhs, env, rule.words)
            if bad:
                return bad
        return None
    if kind == "sorted":
        xs = env.get(a["name"])
        if not isinstance(xs, list):
            return None
        for j in range(len(xs) - 1):
            if not _CMP[a["rel"]](xs[j], xs[j + 1]):
                return (f"{a['name']}[{j + 1}] = {xs[j]} and {a['name']}[{j + 2}] = {xs[j + 1]}: "
                        f"not in order ({a['rel']})")
        return None
    if kind == "permutation":
        xs = env.get(a["name"])
        if not isinstance(xs, list):
            return None
        if sorted(xs) != list(range(1, len(xs) + 1)) and sorted(xs) != list(range(len(xs))):
            seen: set[Any] = set()
            dup = next((x for x in xs if x in seen or seen.add(x)), None)  # type: ignore[func-returns-value]
            why = f"{dup} occurs twice" if dup is not None else "its values are not 1..n"
            return f"{a['name']} = {str(xs)[:120]} is not a permutation: {why}"
        return None
    if kind == "distinct":
        cols = [env.get(n) for n in a["names"]]
        if not all(isinstance(c, list) for c in cols) or len({len(c) for c in cols}) != 1:  # type: ignore[arg-type]
            return None
        seen2: dict[Any, int] = {}
        for j, key in enumerate(zip(*cols, strict=True)):
            k = key if len(key) > 1 else key[0]
            if k in seen2:
                return (f"{'/'.join(a['names'])} repeats {k!r} (at positions {seen2[k] + 1} and "
                        f"{j + 1})")
            seen2[k] = j
        return None
    if kind in ("tree", "connected", "no_self_loops", "no_multi_edges"):
        edges = _edges(a, env)
        if edges is None:
            return None
        if kind == "no_self_loops":
            loop = next((e for e in edges if e[0] == e[1]), None)
            return f"the edge {loop[0]} {loop[1]} is a self-loop" if loop else None
        if kind == "no_multi_edges":
            seen3: set[frozenset[Any]] = set()
            for x, y in edges:
                key = frozenset((x, y))
                if key in seen3:
                    return f"the edge {x} {y} appears twice"
                seen3.add(key)
            return None
        n = _vertex_count(env)
        if n is None:
            return None
        if kind == "tree" and len(edges) != n - 1:
            return f"{len(edges)} edges on {n} vertices: a tree has n-1 = {n - 1}"
        parent: dict[Any, Any] = {}
        for x, y in edges:
            rx, ry = _find(parent, x), _find(parent, y)
            if rx == ry and kind == "tree":
                return f"the edge {x} {y} closes a cycle"
            parent[rx] = ry
        roots = {_find(parent, v) for v in range(1, n + 1)}
        if len(roots) > 1:
            return f"the {n} vertices fall into {len(roots)} components"
        return None
    if kind == "alphabet":
        vals = env.get(a["name"])
        strs = vals if isinstance(vals, list) else [vals]
        allowed = set(a["letters"])
        for s in strs:
            if isinstance(s, str):
                bad2 = next((c for c in s if c not in allowed), None)
                if bad2 is not None:
                    return f"{a['name']} = {s[:60]!r} holds {bad2!r}, outside {''.join(sorted(allowed))!r}"
        return None
    if kind == "occurs" and a.get("each"):
        for name in a["names"]:
            vals = env.get(name)
            for s in vals if isinstance(vals, list) else [vals]:
                if isinstance(s, str) and s.count(a["letter"]) < a.get("at_least", 1):
                    return f"{name} = {s[:60]!r} has no {a['letter']!r}"
        return None
    if kind == "occurs":
        total = 0
        for name in a["names"]:
            vals = env.get(name)
            for s in vals if isinstance(vals, list) else [vals]:
                if isinstance(s, str):
                    total += s.count(a["letter"])
        if "exactly" in a and total != a["exactly"]:
            return f"{a['letter']!r} occurs {total} time(s), not exactly {a['exactly']}"
        if "at_least" in a and total < a["at_least"]:
            return f"{a['letter']!r} occurs {total} time(s), not at least {a['at_least']}"
        return None
    return None


def _sum_rule(rule: Rule, parsed: Parsed) -> str | None:
    total = 0
    for env in parsed.cases:
        if rule.args["expr"].op == "len":
            v = env.get(rule.args["expr"].name)
            if isinstance(v, list):
                total += sum(len(x) for x in v if isinstance(x, str))
                continue
        x = _eval(rule.args["expr"], env)
        if x is None:
            return None
        total += x
    cap = evaluate(rule.args["cap"], parsed.head)
    if cap is None:
        return None
    ok = total < cap if rule.args["strict"] else total <= cap
    return None if ok else f"the sum of {rule.args['expr']} over the test cases is {total} > {cap}"


@dataclass
class InputChecker:
    """Rules derived from a statement, validated on its examples."""

    spec: InputSpec
    rules: list[Rule] = field(default_factory=list)
    layout: bool = False
    examples: int = 0
    dropped: list[str] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)

    def check(self, stdin: str) -> Violation | None:
        """The first rule the input breaks, or None."""
        if not self.layout:
            return None
        try:
            parsed = read_input(self.spec, stdin)
        except _Bad as bad:
            return Violation("layout", bad.words, bad.detail)
        except (RecursionError, MemoryError, ValueError, OverflowError):
            return None
        return self.check_parsed(parsed)

    def check_parsed(self, parsed: Parsed, rules: list[Rule] | None = None) -> Violation | None:
        for rule in self.rules if rules is None else rules:
            try:
                if rule.kind == "sum":
                    bad = _sum_rule(rule, parsed)
                else:
                    bad = next((b for env in parsed.cases if (b := _rule(rule, env))), None)
                    if bad is None and self.spec.tests is not None and rule.kind == "chain":
                        bad = _rule(rule, parsed.head)
            except (TypeError, ValueError, OverflowError, RecursionError):
                bad = None
            if bad:
                return Violation(rule.kind, rule.words, bad)
        return None

    def checked(self) -> list[str]:
        out = ["layout: the lines and the number of values on each"] if self.layout else []
        return out + [r.describe() for r in self.rules]


def derive(text: str, example_inputs: list[str] | None = None,
           input_spec: str | None = None) -> InputChecker:
    """The checker of a problem text (its Input section, or ``input_spec`` when given; its
    example inputs, or ``example_inputs`` when given)."""
    parts = split_sections(text)
    spec = parse_input_spec(input_spec if input_spec is not None else parts.input_spec, text)
    examples = [e for e in (example_inputs if example_inputs is not None else
                            parts.example_inputs) if e.strip()]
    out = InputChecker(spec, examples=len(examples), not_checked=list(spec.not_checked))
    if not (input_spec if input_spec is not None else parts.input_spec).strip():
        out.not_checked.append("the statement has no Input section")
        return out
    if spec.layout_problem:
        out.not_checked.append(f"the input's layout: {spec.layout_problem}")
        return out
    if not examples:
        out.not_checked.append("no example input: the derived rules cannot be validated, so "
                               "none is used")
        return out
    parsed: list[Parsed] = []
    for k, ex in enumerate(examples, 1):
        try:
            parsed.append(read_input(spec, ex))
        except _Bad as bad:
            out.dropped.append(f"layout (example {k} does not read: {bad.detail})")
            return out
    out.layout = True
    for rule in spec.rules:
        broken = next(((k, v) for k, p in enumerate(parsed, 1)
                       if (v := out.check_parsed(p, [rule])) is not None), None)
        if broken is None:
            out.rules.append(rule)
        else:
            out.dropped.append(f"{rule.describe()} (rejects example {broken[0]}: "
                               f"{broken[1].detail})")
    return out
