"""A starting argument generator for a function task, written by trusted code from the task's
own example calls (its docstring's and its tests'), for the coder to adapt.

The small coder's function-mode drafts failed the gate mostly on what this module gets right by
construction: levels whose parameters the generator ignores, easy levels with fewer than ten
distinct cases, and argument types other than the examples'. Each parameter gets a random value
of the shape the gate will hold it to (:func:`synth.gate.functions.expected_arguments`), drawn
from what the examples show: the alphabet of their strings, the sign and the smallest of their
numbers, the shortest of their lists. Two level parameters drive every draw, ``size`` (lengths)
and ``top`` (magnitudes), so each level is larger than the one before.

What the examples cannot show (a range the docstring states, sorted or distinct items, balanced
brackets, a well-formed date) is the coder's part: the draft prompt asks it to change the
generator where the specification restricts the inputs, and the gate's input checks decide.
A parameter whose shape has no draw here (a dict, a union, anything) is left as ``...``.
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the gate is imported where a scaffold is made (coder.function_scaffold)
    from synth.gate.functions import Expected, Shape

#: the two level parameters, easiest first: lengths of strings and lists, and the span of numbers
#: (a single int from 0 has a median of 1, 3 and 4 digits: the gate measures a case by its size)
SIZES = {"easy": 4, "medium": 8, "hard": 14}
TOPS = {"easy": 15, "medium": 200, "hard": 2000}
_MAX_DEPTH = 4
#: examples whose numbers are all at most this get the gentle spans
SMALL_EXAMPLES = 20


@dataclass
class Presets:
    """What both starting generators share: the ``LEVELS`` presets over the level parameters,
    and the head of the class the draft shows (docstring, imports, LEVELS, ``__init__``)."""

    levels: dict[str, dict[str, int]]
    params: list[str]

    def head(self, title: str, base: str, class_name: str, extra: list[str], sizes: str
             ) -> list[str]:
        """The skeleton's first lines, through ``__init__``: ``extra`` class lines come before
        LEVELS, which keeps its order (easiest first)."""
        easy = self.levels["easy"]
        signature = ", ".join(f"{p}: int = {easy[p]}" for p in self.params)
        body = f"self.{', self.'.join(self.params)} = {', '.join(self.params)}"
        return [f'"""Bootcamp for {title}."""', "from typing import Any", "",
                f"from synth.bootcamp import {base}", "", "",
                f"class {class_name}({base}):", *[f"    {line}" for line in extra],
                f"    # three sizes, small enough for a person to {sizes} by hand",
                f"    LEVELS = {json.dumps(self.levels)}", "",
                f"    def __init__(self, seed: int | None = None, {signature}) -> None:",
                "        super().__init__(seed=seed)", f"        {body}", ""]


@dataclass
class Scaffold(Presets):
    """A generator for the function draft's skeleton: the presets, and one Python expression
    per function parameter (None where the coder writes it)."""

    draws: list[tuple[str, str | None]] = field(default_factory=list)
    #: the function returns a bool: the skeleton declares YES_NO_TASK and balances the answers
    yes_no: bool = False

    @property
    def complete(self) -> bool:
        return all(expr is not None for _, expr in self.draws)

    def source(self, title: str, class_name: str, *, entry_point: str,
               comments: list[str], builds: list[str]) -> str:
        """The function draft's skeleton, filled in (``...`` where a draw is missing):
        ``comments`` name each parameter's type, ``builds`` make ``call_args``'s arguments."""
        extra = ["YES_NO_TASK = True  # the function returns a bool"] if self.yes_no else []
        lines = [*self.head(title, "FunctionBootcamp", class_name, extra, "work out")]
        lines += (balanced_generator if self.yes_no else informative_generator)(DRAW)
        lines += [f"    def {DRAW}(self) -> dict[str, Any]:", "        rng = self.rng",
                  f"        # the arguments of one call of {entry_point}, each of the type the "
                  "gate checks:", *[f"        # {c}" for c in comments],
                  *[f"        {name} = {expr or '...'}" for name, expr in self.draws],
                  "        return {" + ", ".join(f'"{n}": {n}' for n, _ in self.draws) + "}", "",
                  "    @staticmethod",
                  "    def call_args(identity: dict[str, Any]) -> list[Any]:",
                  f"        return [{', '.join(builds)}]"]
        return "\n".join(lines) + "\n"


#: the skeleton's method that draws one call's arguments, which the coder adapts;
#: ``case_generator`` picks among its draws
DRAW = "draw_arguments"
#: draws a generator makes before it takes a case whose answer is not the one it wanted
BALANCE_TRIES = 60
#: answers that mean "nothing found" (an empty list, a zero count, -1): on random arguments a
#: filter or a count is mostly one of them, which fails the gate's diversity rule
UNINFORMATIVE = ("[]", "()", "''", "0", "0.0", "-1", "None", "{}", "set()")
#: the share of a generator's cases taken as drawn, whatever they answer
AS_DRAWN = 0.4


def balanced_generator(draw: str) -> list[str]:
    """``case_generator`` lines for a predicate: it picks the answer first (True or False, one
    half each) and draws arguments with ``draw`` until the reference function returns that
    answer, at most :data:`BALANCE_TRIES` times. On random arguments a predicate is mostly one
    value (a list below zero, a prime, a palindrome), and the gate fails a level where one answer
    takes more than 80 % of the cases; the answer key stays the reference's return value."""
    return ["    def case_generator(self) -> dict[str, Any]:",
            "        # half the calls answer True, half False: on random arguments a predicate is",
            "        # mostly one of them. The answer is the reference function's own.",
            '        want = "True" if self.rng.random() < 0.5 else "False"',
            f"        case = self.{draw}()",
            f"        for _ in range({BALANCE_TRIES}):",
            "            if self.reference_answer(case) == want:",
            "                break",
            f"            case = self.{draw}()",
            "        return case", ""]


def informative_generator(draw: str) -> list[str]:
    """``case_generator`` lines for any other function: :data:`AS_DRAWN` of its cases are taken as
    ``draw`` makes them; for the others it draws again, at most :data:`BALANCE_TRIES` times,
    while the reference function returns an :data:`UNINFORMATIVE` answer (on random arguments a
    filter is mostly ``[]``, a count mostly 0, a search mostly -1)."""
    return ["    def case_generator(self) -> dict[str, Any]:",
            f"        # {round(AS_DRAWN * 100)} % of the calls as drawn; the others drawn again "
            "while the reference",
            "        # function's answer says nothing was found (a filter's [], a count's 0, -1)",
            f"        case = self.{draw}()",
            f"        if self.rng.random() < {AS_DRAWN}:",
            "            return case",
            f"        for _ in range({BALANCE_TRIES}):",
            f"            if self.reference_answer(case) not in {UNINFORMATIVE!r}:",
            "                break",
            f"            case = self.{draw}()",
            "        return case", ""]


class _Uses:
    def __init__(self) -> None:
        self.size = self.top = False


def _items(values: list[Any]) -> list[Any]:
    return [v for seq in values if isinstance(seq, list | tuple | set | frozenset) for v in seq]


def _number_draw(values: list[Any], uses: _Uses, *, real: bool) -> str:
    uses.top = True
    numbers = [v for v in values if type(v) in (int, float)]
    lo = min(numbers) if numbers else 0
    if real:
        decimals = max([len(repr(float(v)).partition(".")[2]) for v in numbers] or [1])
        decimals = min(max(decimals, 1), 2)
        if lo >= 0:
            return f"round(rng.uniform({float(lo)!r}, {float(lo)!r} + self.top), {decimals})"
        return f"round(rng.uniform(-self.top, self.top), {decimals})"
    lo = int(lo)
    if lo >= 0:
        return f"rng.randint({lo}, {lo} + self.top)" if lo else "rng.randint(0, self.top)"
    return "rng.randint(-self.top, self.top)"


def _length(values: list[Any], uses: _Uses) -> str | None:
    """How many items or characters: from the shortest the examples show up to ``size`` more;
    None when every example has the same length (a fixed-length value)."""
    lengths = [len(v) for v in values if isinstance(v, str | list | tuple | set | frozenset)]
    if lengths and len(set(lengths)) == 1 and len(values) >= 2:
        return str(lengths[0]) if lengths[0] <= 3 else None
    shortest = min(lengths) if lengths else 1
    uses.size = True
    return f"rng.randint({shortest}, {shortest} + self.size)" if shortest else \
        "rng.randint(0, self.size)"


def _draw(shape: Shape, values: list[Any], uses: _Uses, depth: int = 0) -> str | None:
    """A Python expression (over ``rng`` and the level parameters) for one random value of
    ``shape``, grounded in the example ``values`` at that position; None when there is none."""
    tag = shape[0]
    if depth > _MAX_DEPTH:
        return None
    if tag == "bool":
        return "rng.random() < 0.5"
    if tag == "int":
        return _number_draw(values, uses, real=False)
    if tag == "float":
        return _number_draw(values, uses, real=True)
    if tag == "str":
        strings = [v for v in values if isinstance(v, str)]
        alphabet = "".join(sorted(set("".join(strings)))) or string.ascii_lowercase
        count = _length(strings, uses)
        if count is None:  # one length in every example: keep it
            count = str(len(strings[0]))
        if count == "1":
            return f"rng.choice({alphabet!r})"
        return f"''.join(rng.choice({alphabet!r}) for _ in range({count}))"
    if tag in ("list", "tuple", "set"):
        item = _draw(shape[1], _items(values), uses, depth + 1)
        if item is None:
            return None
        count = _length(values, uses) or str(len(values[0]))
        if tag == "set":
            return f"sorted({{{item} for _ in range({count})}})"
        return f"[{item} for _ in range({count})]"
    if tag == "tuplen":
        parts = []
        for k, member in enumerate(shape[1]):
            at = [v[k] for v in values if isinstance(v, tuple | list) and len(v) > k]
            expr = _draw(member, at, uses, depth + 1)
            if expr is None:
                return None
            parts.append(expr)
        return f"[{', '.join(parts)}]"
    return None  # dict, union, None, anything: the coder writes it


def scaffold(want: Expected | None) -> Scaffold | None:
    """The starting generator for a function task whose arguments ``want`` describes; None when
    no parameter has a draw, or no draw depends on a level parameter (nothing could grow)."""
    if want is None or not want.names:
        return None
    uses = _Uses()
    draws = [(name, _draw(shape, values, uses))
             for name, shape, values in zip(want.names, want.shapes, want.values, strict=True)]
    params = [p for p, used in (("size", uses.size), ("top", uses.top)) if used]
    if not params or all(expr is None for _, expr in draws):
        return None
    tops = TOPS
    magnitude = _largest_int(want.values)
    if magnitude is not None and magnitude <= SMALL_EXAMPLES:
        # every example is a small number (fib(10), fib4(12)): often an index into something
        # that grows fast with it, and a recursive reference; grow the span more gently
        tops = {"easy": max(12, magnitude), "medium": max(18, magnitude * 3 // 2),
                "hard": max(24, magnitude * 2)}
    levels = {level: {p: (SIZES if p == "size" else tops)[level] for p in params}
              for level in ("easy", "medium", "hard")}
    return Scaffold(levels, params, draws)


def _largest_int(values: list[list[Any]]) -> int | None:
    """The largest absolute int among the examples' values, nested ones included."""
    found: list[int] = []
    stack: list[Any] = [v for vs in values for v in vs]
    while stack and len(found) < 10_000:
        v = stack.pop()
        if type(v) is int:
            found.append(abs(v))
        elif isinstance(v, list | tuple | set | frozenset):
            stack.extend(v)
    return max(found) if found else None
