"""Hand-written seed bootcamp of bootcamp-synth; task: the generalised 24 game.

Given ``num_numbers`` positive integers and a target, write ONE arithmetic expression that uses
every given number exactly once, combined with ``+ - * /`` and parentheses, whose exact value is
the target. The classic game is four numbers from 1..13 and the target 24: for 3 3 8 8 the
answer is ``8/(3-8/3)``.

Generation draws the numbers and a target (uniformly), then runs a bounded, randomised
meet-in-the-middle search with exact :class:`fractions.Fraction` arithmetic. A draw whose search
finds no expression within the budget is discarded and drawn again, so every case is solvable;
the expression the search found (the witness) is stored in the case and is the reference answer.

Answer grammar (documented in the prompt, enforced by a hand-written recursive-descent parser;
the answer is never evaluated as Python)::

    expr   := term (("+" | "-") term)*
    term   := factor (("*" | "/") factor)*
    factor := INTEGER | "(" expr ")"

Whitespace is ignored and the signs ``×``, ``÷`` and ``−`` are read as ``*``, ``/`` and ``-``.
There is NO unary minus or plus (the prompt says so): ``-3+27`` and ``-(1-2)`` are rejected, and
the generator never needs one since it only builds positive intermediate values. Also rejected:
other operators (``**``, ``^``, ``%``, ``//``), decimals, leading zeros, concatenated digits
(``33`` is the number 33, not a use of 3 and 3) and division by zero.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any, TypeAlias

from synth.bootcamp import BaseBootcamp

#: An expression tree built by the search: a number, or (operator, left, right).
Tree: TypeAlias = "int | tuple[str, Tree, Tree]"
#: A value with the tree that makes it.
Item: TypeAlias = "tuple[Fraction, Tree]"

SEARCH_DESCENTS = 20  # random descents per draw before the draw is given up
MAX_DRAWS = 1_000  # draws per case before generation reports failure
MAX_ANSWER_CHARS = 300  # longer answers are rejected unread
MAX_PAREN_DEPTH = 30  # bounds the recursion of the parser

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_SIGN_ALIASES = {"×": "*", "÷": "/", "−": "-"}


class Game24Bootcamp(BaseBootcamp):
    """Combine the given numbers with + - * / and parentheses to reach the target exactly."""

    LEVELS = {
        "easy": {"num_numbers": 4, "range_max": 13, "target_max": 24},
        "medium": {"num_numbers": 5, "range_max": 20, "target_max": 100},
        "hard": {"num_numbers": 6, "range_max": 50, "target_max": 500},
    }

    def __init__(
        self,
        seed: int | None = None,
        num_numbers: int = 4,
        range_max: int = 13,
        target_max: int = 24,
    ) -> None:
        """Numbers are drawn from 1..``range_max``, the target from 1..``target_max``."""
        super().__init__(seed=seed)
        if not 2 <= num_numbers <= 6:
            raise ValueError(f"num_numbers must be in 2..6, got {num_numbers}")
        if not 2 <= range_max <= 100:
            raise ValueError(f"range_max must be in 2..100, got {range_max}")
        if not 1 <= target_max <= 1_000:
            raise ValueError(f"target_max must be in 1..1000, got {target_max}")
        self.num_numbers = num_numbers
        self.range_max = range_max
        self.target_max = target_max

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            numbers = [self.rng.randint(1, self.range_max) for _ in range(self.num_numbers)]
            target = self.rng.randint(1, self.target_max)
            witness = find_expression(numbers, target, self.rng)
            if witness is not None:
                return {"numbers": numbers, "target": target, "solution": witness}
        raise RuntimeError(
            f"no solvable draw in {MAX_DRAWS} attempts; raise range_max or lower target_max"
        )

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        numbers = " ".join(str(n) for n in identity["numbers"])
        return (
            f"Numbers: {numbers}\n"
            f"Target: {identity['target']}\n\n"
            "Write one arithmetic expression whose value is exactly the target. Use each of "
            "the numbers above exactly once (a number listed twice must be used twice), "
            "combined with the operators +, -, * and / and parentheses. Division is exact, "
            "so fractions may appear in intermediate steps. Do not use any other number, "
            "operator or function, do not join digits into a new number, and do not use a "
            "minus sign in front of a number or parenthesis (no unary minus).\n\n"
            "Answer with the expression only (no '=' and no result), put your final answer "
            "inside <answer></answer> tags, e.g. <answer>(1+2)*8</answer>."
        )

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        return str(identity["solution"])

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        if not isinstance(solution, str) or len(solution) > MAX_ANSWER_CHARS:
            return False
        tokens = tokenize(solution)
        if tokens is None:
            return False
        # The multiset check comes first: it also bounds the arithmetic below to the given numbers.
        if Counter(int(tok) for tok in tokens if tok.isdigit()) != Counter(identity["numbers"]):
            return False
        value = _Parser(tokens).parse()
        return value is not None and value == identity["target"]


# ----------------------------------------------------------------------------------------------
# Generation: random descents, each finished by an exact meet-in-the-middle over two groups.
# ----------------------------------------------------------------------------------------------


def find_expression(
    numbers: list[int], target: int, rng: random.Random, descents: int = SEARCH_DESCENTS
) -> str | None:
    """Return an expression over ``numbers`` equal to ``target``, or None if none was found.

    Each descent merges a few random pairs of items with random operators, then splits the
    remaining items at random into two groups of at most three, lists every value each group
    can make, and meets in the middle: for each value ``x`` of the smaller group it computes
    the values ``y`` that would give ``x + y``, ``x - y``, ``y - x``, ``x * y``, ``x / y`` or
    ``y / x`` equal to the target and looks them up in the other group's table. One descent
    thus checks thousands of expressions with a few hundred fraction operations, and random
    restarts never get stuck in a hopeless subtree. Only positive intermediate values are
    built (fewer branches, tidier witnesses; the verifier accepts any valid answer). At most
    ``descents`` descents run, so None means "not found", not "impossible".
    """
    goal = Fraction(target)
    leaves: list[Item] = [(Fraction(n), n) for n in numbers]
    tried: set[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]] = set()
    for _ in range(descents):
        items = list(leaves)
        # Leave four to six items (n < 4: all of them); two groups of at most three hold them.
        for _ in range(rng.randint(max(0, len(items) - 6), max(0, len(items) - 4))):
            i, j = rng.sample(range(len(items)), 2)
            merged = rng.choice(_combinations(items[i], items[j]))
            items = [item for k, item in enumerate(items) if k not in (i, j)] + [merged]
        rng.shuffle(items)
        cut = rng.randint(max(1, len(items) - 3), len(items) // 2)
        small, large = items[:cut], items[cut:]
        key = (tuple(sorted(v for v, _ in small)), tuple(sorted(v for v, _ in large)))
        if key in tried:
            continue
        tried.add(key)
        tree = _meet(_closure(small), _closure(large), goal)
        if tree is not None:
            return render(tree)
    return None


def _closure(items: list[Item]) -> dict[Fraction, Tree]:
    """Every positive value an expression over all of ``items`` can take, with one tree each."""
    if len(items) == 1:
        value, tree = items[0]
        return {value: tree}
    table: dict[Fraction, Tree] = {}
    first, rest = items[0], items[1:]
    # Every expression splits at its root into two groups; put ``first`` in the left one.
    for mask in range(2 ** len(rest) - 1):
        left = [first] + [item for k, item in enumerate(rest) if mask >> k & 1]
        right = [item for k, item in enumerate(rest) if not mask >> k & 1]
        right_table = _closure(right)
        for x in _closure(left).items():
            for y in right_table.items():
                table.update(_combinations(x, y))
    return table


def _meet(small: dict[Fraction, Tree], large: dict[Fraction, Tree], goal: Fraction) -> Tree | None:
    """A tree ``x op y`` (or ``y op x``) equal to ``goal``, x from ``small``, y from ``large``."""
    for x, tx in small.items():
        wanted: list[tuple[Fraction, str, bool]] = [
            (goal - x, "+", False),  # x + y
            (x - goal, "-", False),  # x - y
            (goal + x, "-", True),  # y - x
            (goal / x, "*", False),  # x * y
            (x / goal, "/", False),  # x / y
            (goal * x, "/", True),  # y / x
        ]
        for y, op, y_first in wanted:
            ty = large.get(y)
            if ty is not None:
                return (op, ty, tx) if y_first else (op, tx, ty)
    return None


def _combinations(a: Item, b: Item) -> list[Item]:
    """The positive results of combining two positive items with one operator."""
    (x, tx), (y, ty) = (a, b) if a[0] >= b[0] else (b, a)
    results: list[Item] = [(x + y, ("+", tx, ty)), (x * y, ("*", tx, ty)), (x / y, ("/", tx, ty))]
    if x != y:
        results += [(x - y, ("-", tx, ty)), (y / x, ("/", ty, tx))]
    return results


def render(tree: Tree) -> str:
    """Write a tree with the fewest parentheses that keep its exact value."""
    if isinstance(tree, int):
        return str(tree)
    op, left, right = tree
    return f"{_operand(left, op, is_right=False)}{op}{_operand(right, op, is_right=True)}"


def _operand(child: Tree, parent_op: str, is_right: bool) -> str:
    text = render(child)
    if isinstance(child, int):
        return text
    child_rank, parent_rank = _PRECEDENCE[child[0]], _PRECEDENCE[parent_op]
    # a-(b+c) and a/(b*c) need parentheses; a+(b-c) == a+b-c and a*(b/c) == a*b/c do not.
    if child_rank < parent_rank or (is_right and child_rank == parent_rank and parent_op in "-/"):
        return f"({text})"
    return text


# ----------------------------------------------------------------------------------------------
# Verification: a tokenizer and a recursive-descent evaluator with exact fractions.
# ----------------------------------------------------------------------------------------------


def tokenize(text: str) -> list[str] | None:
    """Split an answer into integer literals and the tokens ``+ - * / ( )``; None if invalid."""
    tokens: list[str] = []
    i = 0
    while i < len(text):
        char = _SIGN_ALIASES.get(text[i], text[i])
        if char.isspace():
            i += 1
        elif "0" <= char <= "9":
            start = i
            while i < len(text) and "0" <= text[i] <= "9":
                i += 1
            tokens.append(text[start:i])
        elif char in "+-*/()":
            tokens.append(char)
            i += 1
        else:
            return None
    return tokens


class _Parser:
    """Evaluates a token list by the grammar in the module docstring; None on any error."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def parse(self) -> Fraction | None:
        value = self._expr()
        if value is None or self.pos != len(self.tokens):
            return None
        return value

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self) -> str | None:
        token = self._peek()
        self.pos += 1
        return token

    def _expr(self) -> Fraction | None:
        value = self._term()
        while value is not None and self._peek() in ("+", "-"):
            op, rhs = self._take(), self._term()
            if rhs is None:
                return None
            value = value + rhs if op == "+" else value - rhs
        return value

    def _term(self) -> Fraction | None:
        value = self._factor()
        while value is not None and self._peek() in ("*", "/"):
            op, rhs = self._take(), self._factor()
            if rhs is None or (op == "/" and rhs == 0):
                return None
            value = value * rhs if op == "*" else value / rhs
        return value

    def _factor(self) -> Fraction | None:
        token = self._take()
        if token == "(":
            self.depth += 1
            if self.depth > MAX_PAREN_DEPTH:
                return None
            value = self._expr()
            self.depth -= 1
            return value if self._take() == ")" else None
        if token is not None and token.isdigit() and (token == "0" or token[0] != "0"):
            return Fraction(int(token))
        return None  # an operator where a number belongs (e.g. unary minus), or the end
