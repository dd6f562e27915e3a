"""Hand-written seed bootcamp of bootcamp-synth; task: predict what a Python function returns.

Each case is a small Python function ``f`` (integer arithmetic, ``for`` loops over ``range``,
``if``/``else``, list appends, string building) and a call such as ``f(4, 7)``; the model must
give the exact return value, written as Python's ``repr`` prints it: ``-7``, ``[3, 1, 4]`` or
``'abc'``.

Nothing is ever executed. A program is generated as a *structure* - JSON-ready nested lists
from a small grammar - and that one structure is both rendered as Python source for the prompt
and run by this module's own small interpreter, which follows Python's semantics (floor
division and modulo included) and enforces size limits (iterations, steps, magnitudes); a
program that breaks a limit is discarded and drawn again, so every case is quick to trace by
hand. The tests check the interpreter against real Python on generated cases.

Grammar of the structure (``E`` int or string expression, ``C`` condition, ``B`` block)::

    statement := ["assign", name, E] | ["augassign", name, op, E] | ["append", name, E]
               | ["for", var, [E_start, E_stop, E_step], B] | ["if", C, B_then, B_else]
    E         := ["num", int] | ["str", text] | ["var", name] | ["list"]
               | ["binop", op, E, E] | ["call", "str", E]
               | ["index", E, E] | ["reversed", E]
    C         := ["compare", op, E, E] | ["and", C, C] | ["or", C, C]

A case is ``{"params": [...], "args": [...], "body": [statement, ...], "returns": E}``.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, replace
from typing import Any

from synth.bootcamp import BaseBootcamp

# Size limits: a drawn program that exceeds one is discarded.
MAX_ABS_INT = 100_000  # any int value computed
MAX_LENGTH = 20  # any list or string value
MAX_ITERATIONS = 12  # iterations of one loop
MAX_STEPS = 250  # statements executed by one call
MAX_DRAWS = 200  # programs drawn per case before generation reports failure
MAX_ANSWER_CHARS = 2_000  # longer answers are rejected unread

PARAMS = ("n", "m")
INT_LOCALS = ("a", "b")
LOOP_VARS = ("i", "j", "k")
WORDS = ("abc", "xyz", "code", "hello")

Value = int | str | list[int]

# Python's own operators: the interpreter has exactly the semantics of the rendered source.
_ARITHMETIC: dict[str, Any] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
}
_COMPARISONS: dict[str, Any] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "//": 2, "%": 2}
_INT_LITERAL = re.compile(r"-?(?:0|[1-9][0-9]{0,11})")  # canonical: no leading zeros


class CodeOutputBootcamp(BaseBootcamp):
    """Trace a generated Python function by hand and give its exact return value."""

    LEVELS = {
        "easy": {"num_statements": 3, "max_depth": 1, "expr_depth": 1, "max_value": 6},
        "medium": {"num_statements": 5, "max_depth": 2, "expr_depth": 1, "max_value": 8},
        "hard": {
            "num_statements": 8,
            "max_depth": 3,
            "expr_depth": 2,
            "max_value": 10,
            "negative_inputs": True,
        },
    }

    def __init__(
        self,
        seed: int | None = None,
        num_statements: int = 3,
        max_depth: int = 1,
        expr_depth: int = 1,
        max_value: int = 6,
        negative_inputs: bool = False,
    ) -> None:
        """Size and shape of the programs.

        ``num_statements`` statements (nested ones included) after the initialisations,
        ``for``/``if`` nested at most ``max_depth`` deep, operators nested at most
        ``expr_depth`` deep in an expression, arguments in 0..``max_value`` (or
        -``max_value``..``max_value`` with ``negative_inputs``), loop bounds up to ``max_value``.
        """
        super().__init__(seed=seed)
        if not 1 <= num_statements <= 20:
            raise ValueError(f"num_statements must be in 1..20, got {num_statements}")
        if not 0 <= max_depth <= len(LOOP_VARS):
            raise ValueError(f"max_depth must be in 0..{len(LOOP_VARS)}, got {max_depth}")
        if not 0 <= expr_depth <= 3:
            raise ValueError(f"expr_depth must be in 0..3, got {expr_depth}")
        if not 2 <= max_value <= MAX_ITERATIONS:
            raise ValueError(f"max_value must be in 2..{MAX_ITERATIONS}, got {max_value}")
        self.num_statements = num_statements
        self.max_depth = max_depth
        self.expr_depth = expr_depth
        self.max_value = max_value
        self.negative_inputs = bool(negative_inputs)

    def case_generator(self) -> dict[str, Any]:
        low = -self.max_value if self.negative_inputs else 0
        for _ in range(MAX_DRAWS):
            case = self._program()
            if case is None:
                continue
            case["args"] = [self.rng.randint(low, self.max_value) for _ in case["params"]]
            try:
                result = run_program(case)
            except _LimitExceeded:
                continue
            if result not in ([], ""):  # an empty list or string is a dull answer
                return case
        raise RuntimeError(f"no program within the size limits in {MAX_DRAWS} draws")

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        args = ", ".join(repr(arg) for arg in identity["args"])
        return (
            "Here is a Python function:\n\n"
            f"```python\n{render_source(identity)}\n```\n\n"
            f"What does the call `f({args})` return? Work it out by tracing the code by hand "
            "(Python 3 semantics: `//` is floor division and `%` takes the sign of the "
            "divisor).\n\n"
            "Write the returned value exactly as Python's repr() prints it: an int like -7, a "
            "list like [3, 1, 4], a string in quotes like 'abc'. Put your final answer inside "
            "<answer></answer> tags, e.g. <answer>[3, 1, 4]</answer>."
        )

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        return repr(run_program(identity))

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        answer = parse_literal(solution)
        # No int, str or list equals a value of another of these types: '5' != 5 != [5].
        return answer is not None and answer == run_program(identity)

    # ------------------------------------------------------------------------------------------
    # Generation. Every name a statement reads is bound before it: parameters, locals
    # initialised at the top, and the loop variables of the enclosing loops only.
    # ------------------------------------------------------------------------------------------

    def _program(self) -> dict[str, Any] | None:
        """Draw a program, or None if its body leaves the returned value untouched."""
        rng = self.rng
        result = rng.choice(("int", "list", "str"))
        params = list(PARAMS[: rng.randint(1, len(PARAMS))])
        int_locals = INT_LOCALS[: rng.randint(1, 2) if result == "int" else rng.randint(0, 1)]
        scope = _Scope(readable=tuple(params), writable=int_locals, result=result)
        body: list[Any] = [["assign", name, self._leaf(scope)] for name in int_locals]
        if result == "list":
            body.append(["assign", "out", ["list"]])
        elif result == "str":
            body.append(["assign", "s", ["str", ""]])
        inner = replace(scope, readable=scope.readable + int_locals)
        statements = self._block(inner, self.num_statements)
        written = _written_names(statements)
        if result == "int":
            targets = [name for name in int_locals if name in written]
            if not targets:
                return None
            returns: list[Any] = ["var", rng.choice(targets)]
            if len(targets) == 2 and rng.random() < 0.5:
                returns = ["binop", rng.choice("+-*"), ["var", targets[0]], ["var", targets[1]]]
        else:
            returns = ["var", "out" if result == "list" else "s"]
        return {"params": params, "body": body + statements, "returns": returns}

    def _block(self, scope: _Scope, size: int) -> list[Any]:
        """A block of exactly ``size`` statements, counting the nested ones."""
        statements = []
        while size > 0:
            statement, used = self._statement(scope, size)
            statements.append(statement)
            size -= used
        return statements

    def _statement(self, scope: _Scope, size: int) -> tuple[list[Any], int]:
        """One statement of at most ``size`` statements (nested ones included), and its size."""
        rng = self.rng
        if scope.depth < self.max_depth and size >= 2 and rng.random() < 0.5:
            body_size = rng.randint(1, size - 1)
            if rng.random() < 0.6:
                return self._loop(scope, body_size), body_size + 1
            return self._branch(scope, body_size), body_size + 1
        if scope.result != "int" and (not scope.writable or rng.random() < 0.6):
            return self._effect(scope), 1
        return self._update(scope), 1

    def _loop(self, scope: _Scope, body_size: int) -> list[Any]:
        var = LOOP_VARS[scope.loops]
        inner = replace(
            scope, readable=(*scope.readable, var), depth=scope.depth + 1, loops=scope.loops + 1
        )
        return ["for", var, self._range(scope), self._block(inner, body_size)]

    def _branch(self, scope: _Scope, body_size: int) -> list[Any]:
        inner = replace(scope, depth=scope.depth + 1)
        then_size = self.rng.randint(1, body_size)
        then, orelse = self._block(inner, then_size), self._block(inner, body_size - then_size)
        return ["if", self._condition(scope), then, orelse]

    def _update(self, scope: _Scope) -> list[Any]:
        """Assign to an int local, or update it in place."""
        rng = self.rng
        name = rng.choice(scope.writable)
        op = rng.choice(("=", "=", "+", "+", "+", "-", "-", "*", "//", "%"))
        if op == "=":
            return ["assign", name, self._int_expr(scope, self.expr_depth)]
        if op == "*":
            return ["augassign", name, op, ["num", rng.randint(2, 3)]]
        if op in ("//", "%"):
            return ["augassign", name, op, ["num", rng.randint(2, 9)]]
        return ["augassign", name, op, self._int_expr(scope, self.expr_depth)]

    def _effect(self, scope: _Scope) -> list[Any]:
        """A statement that changes the returned list ``out`` or string ``s``."""
        rng = self.rng
        if scope.result == "list":
            if rng.random() < 0.85:
                return ["append", "out", self._int_expr(scope, self.expr_depth)]
            return ["assign", "out", ["reversed", ["var", "out"]]]
        word = rng.choice(WORDS)
        form = rng.choice(("letters", "digits", "pick", "reverse"))
        if form == "letters":
            return ["augassign", "s", "+", ["str", word[: rng.randint(1, 2)]]]
        if form == "digits":
            return ["augassign", "s", "+", ["call", "str", self._int_expr(scope, self.expr_depth)]]
        if form == "pick":  # word[x % len(word)]: the index is always in range
            pick = ["binop", "%", self._int_expr(scope, self.expr_depth), ["num", len(word)]]
            return ["augassign", "s", "+", ["index", ["str", word], pick]]
        return ["assign", "s", ["reversed", ["var", "s"]]]

    def _int_expr(self, scope: _Scope, depth: int, var_first: bool = False) -> list[Any]:
        """An int expression with operators nested at most ``depth`` deep.

        With ``var_first`` its leftmost leaf is a variable when one is in scope, so that
        conditions and operations are never about constants only (``5 % 9``, ``2 < 4``).
        """
        rng = self.rng
        if depth == 0 or rng.random() < 0.4:
            return self._leaf(scope, var_first)
        op = rng.choice(tuple(_ARITHMETIC))
        left = self._int_expr(scope, depth - 1, var_first=True)
        if op in ("//", "%"):  # a constant positive divisor: never a ZeroDivisionError
            return ["binop", op, left, ["num", rng.randint(2, 9)]]
        return ["binop", op, left, self._int_expr(scope, depth - 1)]

    def _leaf(self, scope: _Scope, var_first: bool = False) -> list[Any]:
        if scope.readable and (var_first or self.rng.random() < 0.7):
            return ["var", self.rng.choice(scope.readable)]
        return ["num", self.rng.randint(0, 9)]

    def _range(self, scope: _Scope) -> list[Any]:
        """Arguments [start, stop, step] of a ``range``; rendered as short as Python allows."""
        rng = self.rng
        stop = self._leaf(scope) if rng.random() < 0.5 else ["num", rng.randint(2, self.max_value)]
        form = rng.choice(("stop", "stop", "start", "down", "step"))
        if form == "start":
            return [["num", rng.randint(1, 3)], stop, ["num", 1]]
        if form == "down":
            return [stop, ["num", rng.randint(-1, 1)], ["num", -1]]
        if form == "step":
            return [["num", rng.randint(0, 2)], stop, ["num", rng.randint(2, 3)]]
        return [["num", 0], stop, ["num", 1]]

    def _condition(self, scope: _Scope) -> list[Any]:
        rng = self.rng
        if rng.random() < 0.4:
            modulus = rng.randint(2, 3)
            dividend = self._int_expr(scope, max(0, self.expr_depth - 1), var_first=True)
            parity = ["binop", "%", dividend, ["num", modulus]]
            condition = ["compare", rng.choice(("==", "!=")), parity, ["num", 0]]
        else:
            op = rng.choice(tuple(_COMPARISONS))
            left = self._int_expr(scope, self.expr_depth, var_first=True)
            condition = ["compare", op, left, self._leaf(scope)]
        if self.expr_depth >= 2 and rng.random() < 0.3:
            op = rng.choice(tuple(_COMPARISONS))
            other = ["compare", op, self._leaf(scope, var_first=True), self._leaf(scope)]
            return [rng.choice(("and", "or")), condition, other]
        return condition


@dataclass(frozen=True)
class _Scope:
    """What a statement being generated may read and write."""

    readable: tuple[str, ...]  # int names bound here: parameters, locals, enclosing loop vars
    writable: tuple[str, ...]  # int locals (never parameters or loop variables)
    result: str  # "int", "list" (returns ``out``) or "str" (returns ``s``)
    depth: int = 0  # enclosing for/if blocks
    loops: int = 0  # enclosing for loops


def _written_names(block: list[Any]) -> set[str]:
    """Names assigned anywhere in a block."""
    names: set[str] = set()
    for statement in block:
        match statement:
            case ["assign" | "augassign" | "append", name, *_]:
                names.add(name)
            case ["for", _, _, body]:
                names |= _written_names(body)
            case ["if", _, then, orelse]:
                names |= _written_names(then) | _written_names(orelse)
    return names


# ----------------------------------------------------------------------------------------------
# The interpreter: runs a program structure with Python's semantics, within the size limits.
# ----------------------------------------------------------------------------------------------


class _LimitExceeded(Exception):
    """The program went past a size limit."""


def run_program(program: dict[str, Any]) -> Value:
    """The value ``f(*args)`` returns; raises _LimitExceeded past a size limit."""
    return _Interpreter(dict(zip(program["params"], program["args"], strict=True))).run(program)


class _Interpreter:
    def __init__(self, env: dict[str, Any]) -> None:
        self.env = env
        self.steps = 0

    def run(self, program: dict[str, Any]) -> Value:
        self._block(program["body"])
        result: Value = self._value(program["returns"])
        return result

    def _block(self, block: list[Any]) -> None:
        for statement in block:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _LimitExceeded("too many steps")
            match statement:
                case ["assign", name, expr]:
                    self.env[name] = self._value(expr)
                case ["augassign", name, op, expr]:
                    self.env[name] = _bounded(_ARITHMETIC[op](self.env[name], self._value(expr)))
                case ["append", name, expr]:
                    self.env[name].append(self._value(expr))
                    _bounded(self.env[name])
                case ["for", var, [start, stop, step], body]:
                    # Like Python, the bounds are evaluated once, before the first iteration.
                    values = range(self._value(start), self._value(stop), self._value(step))
                    if len(values) > MAX_ITERATIONS:
                        raise _LimitExceeded("too many iterations")
                    for value in values:
                        self.env[var] = value
                        self._block(body)
                case ["if", condition, then, orelse]:
                    self._block(then if self._truth(condition) else orelse)
                case _:
                    raise ValueError(f"unknown statement: {statement!r}")

    def _value(self, expr: list[Any]) -> Any:
        match expr:
            case ["num" | "str", constant]:
                return constant
            case ["var", name]:
                return self.env[name]
            case ["list"]:
                return []
            case ["binop", op, left, right]:
                return _bounded(_ARITHMETIC[op](self._value(left), self._value(right)))
            case ["call", "str", arg]:
                return str(self._value(arg))
            case ["index", sequence, index]:
                return self._value(sequence)[self._value(index)]
            case ["reversed", sequence]:
                return self._value(sequence)[::-1]
        raise ValueError(f"unknown expression: {expr!r}")

    def _truth(self, condition: list[Any]) -> bool:
        match condition:
            case ["compare", op, left, right]:
                return _COMPARISONS[op](self._value(left), self._value(right))
            case ["and", left, right]:
                return self._truth(left) and self._truth(right)
            case ["or", left, right]:
                return self._truth(left) or self._truth(right)
        raise ValueError(f"unknown condition: {condition!r}")


def _bounded(value: Any) -> Any:
    if isinstance(value, int) and abs(value) > MAX_ABS_INT:
        raise _LimitExceeded("int too large")
    if isinstance(value, str | list) and len(value) > MAX_LENGTH:
        raise _LimitExceeded("sequence too long")
    return value


# ----------------------------------------------------------------------------------------------
# Rendering as Python source, with the parentheses Python's precedence rules need.
# ----------------------------------------------------------------------------------------------


def render_source(program: dict[str, Any]) -> str:
    """The program as the source text of a Python function ``f``."""
    lines = [f"def f({', '.join(program['params'])}):"]
    _render_block(program["body"], 1, lines)
    lines.append(f"    return {_expr(program['returns'])}")
    return "\n".join(lines)


def _render_block(block: list[Any], indent: int, lines: list[str]) -> None:
    pad = "    " * indent
    for statement in block:
        match statement:
            case ["assign", name, expr]:
                lines.append(f"{pad}{name} = {_expr(expr)}")
            case ["augassign", name, op, expr]:
                lines.append(f"{pad}{name} {op}= {_expr(expr)}")
            case ["append", name, expr]:
                lines.append(f"{pad}{name}.append({_expr(expr)})")
            case ["for", var, [start, stop, step], body]:
                args = [start, stop, step]
                if step == ["num", 1]:
                    args = [stop] if start == ["num", 0] else [start, stop]
                lines.append(f"{pad}for {var} in range({', '.join(map(_expr, args))}):")
                _render_block(body, indent + 1, lines)
            case ["if", condition, then, orelse]:
                lines.append(f"{pad}if {_condition(condition)}:")
                _render_block(then, indent + 1, lines)
                if orelse:
                    lines.append(f"{pad}else:")
                    _render_block(orelse, indent + 1, lines)
            case _:
                raise ValueError(f"unknown statement: {statement!r}")


def _expr(expr: list[Any]) -> str:
    match expr:
        case ["num", value]:
            return str(value)  # -1 needs no parentheses: unary minus binds tighter than + - * // %
        case ["str", text]:
            return repr(text)
        case ["var", name]:
            return str(name)
        case ["list"]:
            return "[]"
        case ["binop", op, left, right]:
            return f"{_operand(left, op, False)} {op} {_operand(right, op, True)}"
        case ["call", function, arg]:
            return f"{function}({_expr(arg)})"
        case ["index", sequence, index]:
            return f"{_atom(sequence)}[{_expr(index)}]"
        case ["reversed", sequence]:
            return f"{_atom(sequence)}[::-1]"
    raise ValueError(f"unknown expression: {expr!r}")


def _operand(child: list[Any], op: str, is_right: bool) -> str:
    """Parenthesise a binop operand when Python would otherwise group it differently."""
    if child[0] != "binop":
        return _expr(child)
    child_rank, rank = _PRECEDENCE[child[1]], _PRECEDENCE[op]
    # a - (b + c), a * (b // c) and a // (b * c) need them; a + (b + c) and a * (b * c) do not.
    associative = child[1] == op and op in ("+", "*")
    if child_rank < rank or (is_right and child_rank == rank and not associative):
        return f"({_expr(child)})"
    return _expr(child)


def _atom(expr: list[Any]) -> str:
    return f"({_expr(expr)})" if expr[0] == "binop" else _expr(expr)


def _condition(condition: list[Any]) -> str:
    match condition:
        case ["compare", op, left, right]:
            return f"{_expr(left)} {op} {_expr(right)}"
        case [("and" | "or") as op, left, right]:
            return f"({_condition(left)}) {op} ({_condition(right)})"
    raise ValueError(f"unknown condition: {condition!r}")


# ----------------------------------------------------------------------------------------------
# Reading an answer: a tiny literal parser (ints, lists of ints, quoted strings), not Python.
# ----------------------------------------------------------------------------------------------


def parse_literal(text: str) -> Value | None:
    """Parse an int, a list of ints or a quoted string; None if it is anything else.

    Lenient about whitespace (``[1, 2,3]`` reads as ``[1, 2, 3]``), a trailing comma in a list
    and the quote character; strict about everything else (no ``+5``, ``True`` or escapes).
    """
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        content = text[1:-1]
        return None if "\\" in content or text[0] in content else content
    if text.startswith("[") and text.endswith("]"):
        if not text[1:-1].strip():
            return []
        items = [item.strip() for item in text[1:-1].split(",")]
        if len(items) > 1 and items[-1] == "":
            items.pop()  # [1, 2, ] is a valid Python list
        if not all(_INT_LITERAL.fullmatch(item) for item in items):
            return None
        return [int(item) for item in items]
    return int(text) if _INT_LITERAL.fullmatch(text) else None
