"""The shape of an Input section as :mod:`synth.statement.spec` reads it: the lines of the
input (:class:`Line`) and the values on each (:class:`Item`), the rules on them (:class:`Rule`),
all in one :class:`InputSpec`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synth.statement.text import Expr

__all__ = ["InputSpec", "Item", "Line", "Rule"]


@dataclass
class Item:
    """Values on one line: a scalar (``count`` None), or ``count`` values of an array ``name``;
    ``kind`` is ``int``, ``str`` (a string token) or ``tok`` (a number that may be real)."""

    name: str
    kind: str = "int"
    count: Expr | None = None
    length: Expr | None = None  # a string's stated length


@dataclass
class Line:
    items: list[Item]
    words: str
    repeat: Expr | None = None  # "each of the next m lines": every item becomes a column array


@dataclass
class Rule:
    kind: str
    words: str
    args: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        return f"{self.kind}: {self.words}"


@dataclass
class InputSpec:
    head: list[Line] = field(default_factory=list)
    tests: str | None = None  # the name of the test-case count, when there is one
    block: list[Line] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    #: why the layout could not be derived ("" when it was)
    layout_problem: str = ""

    def names(self) -> dict[str, str]:
        """Every value the layout reads: name -> "scalar" | "array" | "string" | "strings"."""
        out: dict[str, str] = {}
        for line in self.head + self.block:
            for it in line.items:
                many = it.count is not None or line.repeat is not None
                if it.kind == "str":
                    out[it.name] = "strings" if many else "string"
                else:
                    out[it.name] = "array" if many else "scalar"
        return out
