"""A starting input generator for a compiled (stdin) task, written by trusted code from the
layout and the rules its statement states (:mod:`synth.statement`), for the coder to adapt.

The layout says which values each input line holds (a scalar, ``n`` values of an array, a
string of length ``m``, ``n - 1`` lines of two values, ``t`` test cases of a block); the rules
say their bounds (``1 <= k <= n <= 2*10^5``), alphabets, and that some arrays are distinct,
sorted, a permutation, or the edges of a tree. Each value gets a draw inside its stated bounds
and under a level parameter: ``size`` caps a value that counts something (a length, a
repetition, a test count), ``top`` the others, so each level is larger than the one before.
``render_stdin`` writes the lines in the layout's order.

What the rules do not say in a form read here (a product bound such as ``n*m <= 2*10^5``,
"exactly one S", a connected graph that is not a tree) is the coder's part: the draft asks it to
change the generator where the statement restricts the input further, and the gate's inputs
check, with the same rules, decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from synth.workflow.scaffold import Presets

if TYPE_CHECKING:
    from synth.statement import InputChecker
    from synth.statement.shapes import Item, Line, Rule
    from synth.statement.text import Expr

SIZES = {"easy": 4, "medium": 8, "hard": 14}
TOPS = {"easy": 12, "medium": 200, "hard": 3000}
TESTS = {"easy": 2, "medium": 3, "hard": 4}
_LOWER = {"≤": 0, "<=": 0, "<": 1}
_UPPER = {"≥": 0, ">=": 0, ">": 1}


@dataclass
class StdinScaffold(Presets):
    """The compiled draft skeleton's filled-in parts: the presets, the body of
    ``case_generator`` and of ``render_stdin`` (lines without their method's indentation)."""

    generator: list[str] = field(default_factory=list)
    render: list[str] = field(default_factory=list)
    #: what the statement states and no draw here follows: the coder's part
    left: list[str] = field(default_factory=list)

    def source(self, title: str, class_name: str, *, two_answers: tuple[str, str] | None = None
               ) -> str:
        """The compiled draft's skeleton, filled in; ``two_answers``: the Output section's two
        possible answers (:func:`two_answers`), declared as ``YES_NO_TASK``."""
        extra = [f"YES_NO_TASK = True  # the output is {two_answers[0]!r} or {two_answers[1]!r}"
                 ] if two_answers else []
        lines = [*self.head(title, "CompiledBootcamp", class_name, extra, "solve"),
                 "    def case_generator(self) -> dict[str, Any]:", "        rng = self.rng",
                 *[f"        {line}" for line in self.generator], "", "    @staticmethod",
                 "    def render_stdin(identity: dict[str, Any]) -> str:",
                 *[f"        {line}" for line in self.render]]
        return "\n".join(lines) + "\n"


_QUOTED = re.compile(r'["\u201c]([A-Za-z]{1,12})["\u201d]')
_PRINT = re.compile(r"\b(print|output|write)\b", re.IGNORECASE)
_MORE = re.compile(r"\b(then|followed|after that|also|and the)\b", re.IGNORECASE)


def two_answers(output_spec: str | None) -> tuple[str, str] | None:
    """The two words a task's Output section says its answer is one of (``Print "Alice" if
    Alice wins, and "Bob" otherwise``; ``print "YES" if ..., otherwise print "NO"``), or None:
    exactly two different quoted words, at most two sentences and two verbs that say to print,
    and nothing printed after them (``then``, ``followed by``)."""
    if not output_spec or len(output_spec) > 400:
        return None
    words = list(dict.fromkeys(_QUOTED.findall(output_spec)))
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", output_spec.strip()) if s]
    if len(words) != 2 or len(_PRINT.findall(output_spec)) > 2 or len(sentences) > 2 \
            or _MORE.search(output_spec):
        return None
    return words[0], words[1]


class _Unreadable(Exception):
    pass


def _py(expr: Expr, known: set[str] | dict[str, str]) -> str:
    """``expr`` as Python over the values generated so far (``known``: their names, or each
    name's Python spelling); raises when it reads another."""
    op = expr.op
    if op == "num":
        return str(expr.value)
    if op in ("var", "len"):
        if expr.name not in known:
            raise _Unreadable(expr.name)
        name = known[expr.name] if isinstance(known, dict) else expr.name
        return name if op == "var" else f"len({name})"
    if op == "neg":
        return f"-({_py(expr.args[0], known)})"
    py = {"+": "+", "-": "-", "*": "*", "/": "//", "^": "**"}.get(op)
    if py is None or len(expr.args) != 2:
        raise _Unreadable(op)
    return f"({_py(expr.args[0], known)} {py} {_py(expr.args[1], known)})"


class _Writer:
    def __init__(self, checker: InputChecker) -> None:
        self.spec = checker.spec
        self.rules: list[Rule] = list(checker.rules)
        #: the values generated so far, each name's Python spelling (a row's own: ``_x``)
        self.known: dict[str, str] = {}
        self.counting = self._counting_names()
        self.floor = self._floors()
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.left: list[str] = []
        self.followed: set[int] = set()

    def _counting_names(self) -> set[str]:
        """Values that count something: a length, a repetition, or the bound of a distinct
        array's values (they set how big a case is)."""
        out: set[str] = set()
        exprs: list[Expr] = []
        for line in self.spec.head + self.spec.block:
            if line.repeat is not None:
                exprs.append(line.repeat)
            for it in line.items:
                exprs += [e for e in (it.count, it.length) if e is not None]
        while exprs:
            e = exprs.pop()
            if e.op in ("var", "len"):
                out.add(e.name)
            exprs.extend(e.args)
        if self.spec.tests:
            out.add(self.spec.tests)
        return out

    def _pairs(self) -> list[tuple[int, Expr, str, Expr]]:
        return [(k, lhs, rel, rhs) for k, r in enumerate(self.rules) if r.kind == "chain"
                for lhs, rel, rhs in r.args.get("pairs", [])]

    def _floors(self) -> dict[str, int]:
        """Each value's least possible value by the chains alone (``1 <= k < n``: n >= 2), so
        that a value drawn before another it must exceed starts high enough."""
        floor: dict[str, int] = {}
        for _ in range(6):
            for _k, lhs, rel, rhs in self._pairs():
                pairs = [(lhs, rhs, _LOWER.get(rel)), (rhs, lhs, _UPPER.get(rel))]
                for low, high, strict in pairs:
                    if strict is None or high.op != "var":
                        continue
                    base = low.value if low.op == "num" else \
                        floor.get(low.name) if low.op == "var" else None
                    if base is not None and floor.get(high.name, base + strict - 1) < base + strict:
                        floor[high.name] = base + strict
        return floor

    def different(self, name: str) -> list[str]:
        """The values generated before ``name`` that a chain says it must differ from."""
        out: list[str] = []
        for k, lhs, rel, rhs in self._pairs():
            if rel not in ("≠", "!="):
                continue
            for mine, other in ((lhs, rhs), (rhs, lhs)):
                if mine.op == "var" and mine.name == name:
                    try:
                        out.append(_py(other, self.known))
                        self.followed.add(k)
                    except _Unreadable:
                        continue
        return out

    def bounds(self, name: str, op: str = "var") -> tuple[list[str], list[str]]:
        """Python expressions of the lower and upper bounds the chain rules give ``name`` (or,
        with ``op="len"``, its length), where the other side reads only values generated
        before it."""
        lows: list[str] = []
        highs: list[str] = []
        if op == "var" and name in self.floor:
            lows.append(str(self.floor[name]))
        for k, lhs, rel, rhs in self._pairs():
            try:
                if rhs.op == op and rhs.name == name and rel in _LOWER:
                    lows.append(_py(lhs, self.known) + (" + 1" if _LOWER[rel] else ""))
                elif lhs.op == op and lhs.name == name and rel in _LOWER:
                    highs.append(_py(rhs, self.known) + (" - 1" if _LOWER[rel] else ""))
                elif lhs.op == op and lhs.name == name and rel in _UPPER:
                    lows.append(_py(rhs, self.known) + (" + 1" if _UPPER[rel] else ""))
                elif rhs.op == op and rhs.name == name and rel in _UPPER:
                    highs.append(_py(lhs, self.known) + (" - 1" if _UPPER[rel] else ""))
                else:
                    continue
                self.followed.add(k)
            except _Unreadable:
                continue
        lows = list(dict.fromkeys(lows))
        return lows, list(dict.fromkeys(highs))

    def _rule(self, kind: str, name: str) -> Rule | None:
        return next((r for r in self.rules if r.kind == kind and
                     (r.args.get("name") == name or r.args.get("names") == [name])), None)

    def number(self, name: str, count: str | None) -> str:
        lows, highs = self.bounds(name)
        lo = lows[0] if len(lows) == 1 else f"max({', '.join(lows)})" if lows else \
            ("1" if name in self.counting else "0")
        cap_name = "size" if name in self.counting else "top"
        if self.spec.tests == name:
            cap_name = "tests"
        self.used.add(cap_name)
        cap = f"{lo} + self.{cap_name}" if cap_name != "tests" else f"self.{cap_name}"
        hi = f"min({', '.join(highs)}, {cap})" if highs else cap
        if count is None:
            avoid = self.different(name)
            if avoid:
                return (f"rng.choice([_x for _x in range({lo}, max({lo}, {hi}) + 1) "
                        f"if _x not in ({', '.join(avoid)},)] or [{lo}])")
            return f"rng.randint({lo}, max({lo}, {hi}))"
        distinct = self._rule("distinct", name)
        perm = self._rule("permutation", name)
        ordered = self._rule("sorted", name)
        if perm is not None:
            self.followed.add(self.rules.index(perm))
            return f"rng.sample(range(1, {count} + 1), {count})"
        if distinct is not None:  # within the stated bounds, not a level cap: room for all
            self.followed.add(self.rules.index(distinct))
            top = (highs[0] if len(highs) == 1 else f"min({', '.join(highs)})") if highs \
                else f"{lo} + 2 * {count} + self.top"
            self.used.add("top")
            draw = f"rng.sample(range({lo}, max({lo}, {top}) + 1), {count})"
        else:
            draw = f"[rng.randint({lo}, max({lo}, {hi})) for _ in range({count})]"
        if ordered is not None:
            self.followed.add(self.rules.index(ordered))
            return f"sorted({draw})"
        return draw

    def string(self, name: str, length: Expr | None, count: str | None) -> str:
        alphabet = self._rule("alphabet", name)
        letters = alphabet.args["letters"] if alphabet is not None else "abcdefghijklmnopqrstuvwxyz"
        if alphabet is not None:
            self.followed.add(self.rules.index(alphabet))
        if length is not None:
            n = _py(length, self.known)
        else:
            self.used.add("size")
            lows, highs = self.bounds(name, "len")
            lo = lows[0] if len(lows) == 1 else f"max({', '.join(lows)})" if lows else "1"
            hi = f"min({', '.join(highs)}, {lo} + self.size)" if highs else f"{lo} + self.size"
            n = f"rng.randint({lo}, max({lo}, {hi}))"
        one = f"''.join(rng.choice({''.join(sorted(letters))!r}) for _ in range({n}))"
        return one if count is None else f"[{one} for _ in range({count})]"

    def item(self, it: Item, repeat: str | None) -> str:
        count = _py(it.count, self.known) if it.count is not None else repeat
        if it.kind == "str":
            return self.string(it.name, it.length, count)
        if it.kind != "int":
            raise _Unreadable(f"{it.name} ({it.kind})")
        return self.number(it.name, count)

    def tree(self, line: Line, repeat: str) -> bool:
        """A line of ``n - 1`` edges that a rule says form a tree: a random tree on 1..n."""
        names = [it.name for it in line.items]
        rule = next((r for r in self.rules if r.kind == "tree" and
                     list(r.args.get("edges", ())) == names[:2]), None)
        if rule is None or len(names) != 2 or "n" not in self.known:
            return False
        self.followed.add(self.rules.index(rule))
        # the endpoints' bounds and "x != y" hold by construction
        for k, r in enumerate(self.rules):
            if r.kind == "chain" and {str(a) for p in r.args.get("pairs", []) for a in (p[0], p[2])
                                      } & set(names):
                self.followed.add(k)
        u, v = names
        self.lines += ["_label = list(range(1, n + 1))", "rng.shuffle(_label)",
                       f"{u}, {v} = [], []", "for _i in range(1, n):",
                       "    _j = rng.randrange(_i)",
                       f"    {u}.append(_label[_i])", f"    {v}.append(_label[_j])"]
        self.known.update({n: n for n in names})
        return True

    def rows(self, line: Line, repeat: str) -> bool:
        """``repeat`` lines of scalars, drawn row by row, so that a value's bounds may read the
        values before it on its row (``l <= r``, ``u != v``)."""
        if any(it.count is not None or it.kind != "int" for it in line.items):
            return False
        names = [it.name for it in line.items]
        self.lines.append(f"{', '.join(names)} = {', '.join('[]' for _ in names)}")
        self.lines.append(f"for _ in range({repeat}):")
        for it in line.items:
            self.lines.append(f"    _{it.name} = {self.number(it.name, None)}")
            self.known[it.name] = f"_{it.name}"
        self.lines += [f"    {n}.append(_{n})" for n in names]
        for n in names:  # after the rows: whole columns, which no later bound reads
            del self.known[n]
        return True

    def lines_of(self, lines: list[Line]) -> None:
        for line in lines:
            repeat = _py(line.repeat, self.known) if line.repeat is not None else None
            if repeat is not None and (self.tree(line, repeat) or self.rows(line, repeat)):
                continue
            for it in line.items:
                self.lines.append(f"{it.name} = {self.item(it, repeat)}")
                self.known[it.name] = it.name


def _render_line(line: Line, source: str) -> list[str]:
    def part(it: Item) -> str:
        value = f"{source}[{it.name!r}]"
        many = it.count is not None
        return f"' '.join(map(str, {value}))" if many else f"str({value})"

    if line.repeat is None:
        parts = ", ".join(part(it) for it in line.items)
        return [f"out.append(' '.join(p for p in [{parts}] if p != ''))"]
    first = line.items[0].name
    cols = ", ".join(f"str({source}[{it.name!r}][_j])" for it in line.items)
    return [f"for _j in range(len({source}[{first!r}])):",
            f"    out.append(' '.join([{cols}]))"]


def stdin_scaffold(checker: InputChecker | None) -> StdinScaffold | None:
    """The starting generator for a stdin task whose statement gives ``checker`` (derived and
    validated on the task's examples); None when its layout was not read, or it holds a value
    this module does not draw (a real number, an unread bound)."""
    if checker is None or not checker.layout:
        return None
    spec = checker.spec
    w = _Writer(checker)
    try:
        w.lines_of(spec.head)
        head = [it.name for line in spec.head for it in line.items]
        if spec.block:
            if not spec.tests or spec.tests not in w.known:
                return None
            outer = w.lines
            w.lines = []
            w.lines_of(spec.block)
            block = [it.name for line in spec.block for it in line.items]
            w.lines = [*outer, "cases = []", f"for _ in range({spec.tests}):",
                       *[f"    {ln}" for ln in w.lines],
                       "    cases.append({" + ", ".join(f"{n!r}: {n}" for n in block) + "})"]
            head = [n for n in head if n != spec.tests]
            ret = "return {" + ", ".join([*(f"{n!r}: {n}" for n in head), "'cases': cases"]) + "}"
        else:
            ret = "return {" + ", ".join(f"{n!r}: {n}" for n in head) + "}"
    except _Unreadable:
        return None
    render = ["out: list[str] = []"]
    for line in spec.head:
        if spec.tests and [it.name for it in line.items] == [spec.tests]:
            render.append("out.append(str(len(identity['cases'])))")
            continue
        render += _render_line(line, "identity")
    if spec.block:
        render.append("for case in identity['cases']:")
        for line in spec.block:
            render += [f"    {ln}" for ln in _render_line(line, "case")]
    render.append("return '\\n'.join(out) + '\\n'")
    params: list[str] = [p for p in ("size", "top", "tests") if p in w.used]
    if not params:
        return None
    table = {"size": SIZES, "top": TOPS, "tests": TESTS}
    levels: dict[str, dict[str, int]] = {lv: {p: table[p][lv] for p in params} for lv in ("easy", "medium", "hard")}
    left = [r.describe() for k, r in enumerate(checker.rules) if k not in w.followed]
    return StdinScaffold(levels, params, [*w.lines, ret], render, left)
