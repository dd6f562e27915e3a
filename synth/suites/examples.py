"""The statement's own examples, read from the task text a compiled module embeds (no model,
nothing run).

* stdin tasks: the example inputs and outputs of the problem text
  (:func:`synth.statement.split_sections`: CodeContests' headings, ``Example 1`` / ``input:``
  blocks, Markdown variants);
* function tasks: the docstring's ``>>> f(...)`` lines with the value on the next line
  (:func:`synth.sources.humaneval.docstring_examples`), each call's arguments read as Python
  literals (a call with keywords, ``*args`` or a non-literal argument is left out and counted).

An example's expected output in the suite is the reference's (computed in the sandbox like every
other test's); the statement's own output is kept here only to say where the two disagree.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from synth.sources.humaneval import docstring_examples
from synth.statement import split_sections
from synth.text import pyast
from synth.values import ValueProblem, encode

__all__ = ["Example", "Examples", "function_examples", "stdin_examples"]


@dataclass(frozen=True)
class Example:
    """One example: ``stdin`` (stdin tasks) or ``args`` (JSON-encoded arguments), and the
    output the statement shows (text, as written)."""

    shown: str
    stdin: str | None = None
    args: list[Any] | None = None


@dataclass
class Examples:
    items: list[Example] = field(default_factory=list)
    #: examples that could not be read (why), left out
    unread: list[str] = field(default_factory=list)


def stdin_examples(text: str | None) -> Examples:
    """The example inputs (with their outputs) of a problem text."""
    out = Examples()
    if not text:
        return out
    parts = split_sections(text)
    outputs = parts.example_outputs
    for k, stdin in enumerate(parts.example_inputs):
        if not stdin.strip():
            out.unread.append(f"example {k + 1}: an empty input block")
            continue
        shown = outputs[k] if k < len(outputs) else ""
        out.items.append(Example(shown=shown, stdin=stdin))
    return out


def function_examples(text: str | None, entry_point: str) -> Examples:
    """The docstring examples of a function task's specification, as argument lists."""
    out = Examples()
    if not text:
        return out
    for ex in docstring_examples(text):
        args = _call_args(ex.input, entry_point)
        if isinstance(args, str):
            out.unread.append(f"{ex.input[:120]}: {args}")
            continue
        out.items.append(Example(shown=ex.output, args=args))
    return out


def _call_args(call: str, entry_point: str) -> list[Any] | str:
    """The JSON-encoded positional arguments of ``entry_point(...)`` written in ``call``, or
    why they cannot be read."""
    try:
        tree = pyast.parse(call.strip())
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return "not a Python expression"
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return "not one expression"
    node = tree.body[0].value
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == entry_point):
        return f"not a call of {entry_point}"
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return "keyword or starred arguments"
    try:
        values = [pyast.literal_eval(a) for a in node.args]
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return "an argument is not a literal"
    try:
        encoded = encode(values)
    except ValueProblem as exc:
        return f"an argument is not a value of a function task: {exc}"
    return list(encoded)
