"""What an Input section says, read without a model: the lines of the input and their values,
the bounds on named values, and the guarantees a setter writes in words.

:func:`parse_input_spec` turns the (normalised) Input section into an :class:`InputSpec`:

* a **layout**: the lines in order (``The first line contains two integers n and m``, ``The
  second line contains n integers a_1, ..., a_n``, ``Each of the next m lines contains ...``),
  and, when the first line gives ``t`` test cases, the block of lines each test case repeats;
* **rules** (:class:`Rule`), each with the statement's words it came from: chains of bounds
  (``1 ≤ k ≤ n ≤ 2·10^5``, ``1 ≤ l_i ≤ r_i ≤ n``, ``|s| ≤ 100``, ``u_i ≠ v_i``), bounds in words
  (``n does not exceed 100``, ``between 1 and 10^9``), sums over test cases, alphabets of
  strings, and guarantees (distinct, permutation, sorted, tree, connected, no self-loops, no
  repeated edges, a letter that must occur);
* ``not_checked``: phrases that look like a rule but could not be read -- listed, never guessed.

The layout is read by :mod:`synth.statement.layout`, the rules by :mod:`synth.statement.rules`,
into the shapes of :mod:`synth.statement.shapes`; they are checked against an input by
:mod:`synth.statement.check`.
"""

from __future__ import annotations

import re

from synth.statement.layout import format_blocks, format_layout, read_layout, sentences
from synth.statement.rules import BETWEEN, WORD_BOUNDS, chains, read_rules, word_names
from synth.statement.shapes import InputSpec, Rule
from synth.statement.text import Expr, names_of, normalise, parse_expr

__all__ = ["parse_input_spec", "subscripts", "upper_bounds"]


_BARE_SEQ = re.compile(r"\b([A-Za-z])([01])(\s*,?\s*)\1([12])(\s*,?\s*)(\.\.\.)(\s*,?\s*)\1"
                       r"([A-Za-z]|\d+)\b")


def subscripts(section: str) -> str:
    """Old Codeforces spelling without underscores: ``a1, a2, ..., an`` -> ``a_1, a_2, ...,
    a_n``, and then ``ai`` / ``xi`` of those arrays -> ``a_i``, ``x_i``."""
    text = normalise(section)
    bases = set()

    def seq(m: re.Match[str]) -> str:
        bases.add(m.group(1))
        return (f"{m.group(1)}_{m.group(2)}{m.group(3)}{m.group(1)}_{m.group(4)}{m.group(5)}"
                f"{m.group(6)}{m.group(7)}{m.group(1)}_{m.group(8)}")

    text = _BARE_SEQ.sub(seq, text)
    # "xi and yi" in a line that repeats: the pair's names, subscripted
    for m in re.finditer(r"\b([a-z])i\s+and\s+([a-z])i\b", text):
        bases.update((m.group(1), m.group(2)))
    for base in bases:
        text = re.sub(r"\b" + re.escape(base) + r"([ijk]|\d+)\b(?!_)", base + r"_\1", text)
    return text


def parse_input_spec(section: str, full_text: str = "") -> InputSpec:
    """The layout and rules of an Input section (see the module docstring)."""
    section = subscripts(section)
    spec = InputSpec()
    sents = sentences(section)
    read_layout(spec, sents)
    blocks = format_blocks(section)
    if blocks and (spec.layout_problem or not spec.head):
        fresh = InputSpec()
        if format_layout(fresh, blocks):
            spec.head, spec.block, spec.tests, spec.layout_problem = (
                fresh.head, fresh.block, fresh.tests, "")
    read_rules(spec, sents, full_text)
    # a rule about a value the layout never reads cannot be checked: say so
    known = set(spec.names())
    kept: list[Rule] = []
    for rule in spec.rules:
        if rule.kind == "chain":
            pairs = [p for p in rule.args["pairs"]
                     if {n.strip("|") for n in names_of(p[0]) | names_of(p[2])} <= known]
            if not pairs:
                spec.not_checked.append(rule.words)
                continue
            if len(pairs) < len(rule.args["pairs"]):
                spec.not_checked.append(rule.words + " (in part: it names values the input "
                                        "layout does not read)")
            rule = Rule("chain", rule.words, {"pairs": pairs})
        kept.append(rule)
    spec.rules = kept
    return spec


def upper_bounds(section: str | None) -> dict[str, int]:
    """The constant upper bound the section states for each named value (``1 ≤ n, m ≤ 100``
    -> {"n": 100, "m": 100}; ``a_i`` is named ``a``), read by the same chains as the rules,
    whatever the layout; a value bounded twice keeps the smaller bound. The workflow's size
    repair caps ``LEVELS`` with these."""
    out: dict[str, int] = {}

    def add(name: str, rel: str, value: int | None) -> None:
        if value is None:
            return
        value = value - 1 if rel == "<" else value
        out[name] = min(value, out.get(name, value))

    below: list[tuple[str, str]] = []  # (a, b): a ≤ b, both named
    for sent in sentences(section or ""):
        for _, operands, ops in chains(sent):
            for k, rel in enumerate(ops):
                for lhs in operands[k]:
                    for rhs in operands[k + 1]:
                        if rel in ("≤", "<") and lhs.op == "var" and rhs.op == "var":
                            below.append((lhs.name, rhs.name))
                        if rel in ("≤", "<") and lhs.op == "var" and not names_of(rhs):
                            add(lhs.name, rel, _constant(rhs))
                        if rel in ("≥", ">") and rhs.op == "var" and not names_of(lhs):
                            add(rhs.name, "<" if rel == ">" else "≤", _constant(lhs))
        for pat, rel in WORD_BOUNDS:
            if rel != "≤":
                continue
            for m in pat.finditer(sent):
                v = parse_expr(m.group("v"))
                for name in word_names(m.group("names")):
                    if v is not None and not names_of(v):
                        add(name, "≤", _constant(v))
        for m in BETWEEN.finditer(sent):
            v = parse_expr(m.group("b"))
            for name in word_names(m.group("names")):
                if v is not None and not names_of(v):
                    add(name, "≤", _constant(v))
    for _ in range(len(below)):  # 1 ≤ k ≤ n ≤ 10^5: k ≤ 10^5 too
        for a, b in below:
            if b in out:
                add(a, "≤", out[b])
    return out


def _constant(expr: Expr) -> int | None:
    from synth.statement.text import evaluate

    value = evaluate(expr, {})
    return value if value is not None and abs(value) < 10**30 else None
