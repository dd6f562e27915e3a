"""The words of a statement made regular, and the small arithmetic its bounds are written in.

Problem setters write the same bound many ways: ``1 ≤ n ≤ 2·10^5``, ``$1 \\le n \\le 2 \\cdot
10^{5}$``, ``1 <= n <= 200000``, ``n does not exceed 100``. :func:`normalise` rewrites a
statement's text into one spelling (``≤ ≥ < > ≠``, ``*`` for products, ``^`` for powers, ``...``
for ellipses, ``a_i`` for subscripts, no TeX dollars), and :func:`parse_expr` reads the
expressions that stand on either side of a relation (``2*10^5``, ``n-1``, ``n*m``, ``|s|``,
``a_i``) into a tiny tree that :func:`evaluate` computes against the values read from an input.
Nothing here runs code from the statement: it is text, parsed by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["NUMBER_WORDS", "Expr", "evaluate", "names_of", "normalise", "parse_expr"]

NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "a single": 1, "two": 2, "three": 3,
                "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

_TEX = [
    (r"\\(?:leqslant|leq|le)(?![a-z])", "≤"), (r"\\(?:geqslant|geq|ge)(?![a-z])", "≥"),
    (r"\\(?:neq|ne)(?![a-z])", "≠"), (r"\\lt(?![a-z])", "<"), (r"\\gt(?![a-z])", ">"),
    (r"\\(?:cdot|times)(?![a-z])", "*"), (r"\\(?:ldots|dots|cdots|dotsc)(?![a-z])", "..."),
    (r"\\(?:left|right|big|Big|bigl|bigr|lvert|rvert|mid)(?![a-z])", ""),
    (r"\\(?:operatorname|mathrm|text|textit|mathit|textbf|mathbf)\{([^{}]*)\}", r"\1"),
    (r"\\sum(?![a-z])", "sum "), (r"\\(?:vdots|ddots)(?![a-z])", "⋮"),
    (r"\\(?:min|max)(?![a-z])", "min"), (r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)"), (r"\\[,;:! ]", " "), (r"\\\\", " "), (r"\\%", "%"),
    (r"\\'", "'"),
]


def normalise(text: str) -> str:
    """One spelling for relations, products, powers, ellipses and subscripts (see above)."""
    t = text.replace("\r", "")
    for pat, rep in _TEX:
        t = re.sub(pat, rep, t)
    t = t.replace("$", "").replace("\u2009", " ").replace("\u00a0", " ").replace("\u202f", " ")
    t = (t.replace("<=", "≤").replace(">=", "≥").replace("!=", "≠").replace("⩽", "≤")
         .replace("⩾", "≥").replace("…", "...").replace("⋯", "...").replace("·", "*")
         .replace("×", "*").replace("∙", "*").replace("−", "-").replace("–", "-")
         .replace("\u2014", " — ").replace("**", "^").replace("≦", "≤").replace("≧", "≥"))
    t = re.sub(r"(?<=[0-9a-zA-Z}])\s*\^\s*\{\s*([^{}]*?)\s*\}", r"^\1", t)  # 10^{12} -> 10^12
    t = re.sub(r"(?<=\d)\s*\^\s*(?=\d)", "^", t)
    t = re.sub(r"_\{\s*([A-Za-z0-9]+)\s*\}", r"_\1", t)  # a_{i} -> a_i
    t = re.sub(r"_\{([^{}]*)\}", lambda m: "_" + re.sub(r"\W", "", m.group(1)), t)
    t = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", t)  # 200,000 -> 200000
    t = re.sub(r"(?<=\d) (?=\d{3}(?![\d.]))", "", t)  # 200 000 -> 200000
    t = re.sub(r"\.\s*\.\s*\.(?:\s*\.)*", "...", t)
    t = re.sub(r"(?<=\d)\s*\*\s*10\^", "*10^", t)
    t = re.sub(r"(?<=\d)\s*x\s*10\^", "*10^", t)  # 2 x 10^5
    t = re.sub(r"(?<=\d)[eE](?=\d{1,2}\b)", "*10^", t)  # 1e9 -> 1*10^9
    return t


# -- expressions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """An arithmetic expression of a bound: ``op`` is ``num``, ``var`` (an input value: a scalar,
    or an element of an array named by its base ``a`` of ``a_i``), ``len`` (``|s|``, the
    length of a string or list), or one of ``+ - * / ^ neg``."""

    op: str
    value: int = 0
    name: str = ""
    args: tuple[Expr, ...] = ()

    def __str__(self) -> str:
        if self.op == "num":
            return str(self.value)
        if self.op == "var":
            return self.name
        if self.op == "len":
            return f"|{self.name}|"
        if self.op == "neg":
            return f"-{self.args[0]}"
        return f"{self.args[0]}{self.op}{self.args[1]}"


_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)?|\|[A-Za-z][A-Za-z0-9]*"
                    r"(?:_[A-Za-z0-9]+)?\|)|([-+*/^()]))")


def base_name(name: str) -> str:
    """``a_i`` -> ``a``: the array a subscripted name belongs to."""
    return name.split("_", 1)[0] if "_" in name else name


def parse_expr(text: str) -> Expr | None:
    """``2*10^5``, ``n-1``, ``n*m``, ``|s|``, ``a_i``, ``10^9+7`` -> Expr, or None when the text
    is not such an expression (words, functions, several sentences)."""
    text = text.strip()
    if not text or len(text) > 60:
        return None
    toks: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            return None
        pos = m.end()
        if m.group(1):
            toks.append(("num", m.group(1)))
        elif m.group(2):
            word = m.group(2)
            if word.startswith("|"):
                toks.append(("len", base_name(word.strip("|"))))
            else:
                if len(base_name(word)) > 3 and word.lower() not in ("sum",):
                    return None  # a word, not a variable
                toks.append(("var", base_name(word)))
        else:
            toks.append(("op", m.group(3)))
    parser = _Parser(toks)
    try:
        out = parser.expr()
    except (IndexError, ValueError):
        return None
    return out if parser.i == len(toks) else None


class _Parser:
    def __init__(self, toks: list[tuple[str, str]]) -> None:
        self.toks, self.i = toks, 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expr(self) -> Expr:
        left = self.term()
        while ((p := self.peek()) is not None and p == ("op", "+")) or p == ("op", "-"):
            op = self.take()[1]
            left = Expr(op, args=(left, self.term()))
        return left

    def term(self) -> Expr:
        left = self.power()
        while True:
            p = self.peek()
            if p in (("op", "*"), ("op", "/")):
                op = self.take()[1]
                left = Expr(op, args=(left, self.power()))
            elif p is not None and p[0] in ("var", "len", "num") and left.op == "num":
                left = Expr("*", args=(left, self.power()))  # 2n
            else:
                return left

    def power(self) -> Expr:
        base = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            exp = self.power()
            if exp.op != "num" or exp.value > 40:
                raise ValueError("exponent")
            return Expr("^", args=(base, exp))
        return base

    def atom(self) -> Expr:
        kind, text = self.take()
        if kind == "num":
            if len(text) > 30:
                raise ValueError("number")
            return Expr("num", value=int(text))
        if kind == "var":
            return Expr("var", name=text)
        if kind == "len":
            return Expr("len", name=text)
        if text == "(":
            inner = self.expr()
            if self.take() != ("op", ")"):
                raise ValueError("paren")
            return inner
        if text == "-":
            return Expr("neg", args=(self.atom(),))
        raise ValueError(text)


def names_of(expr: Expr) -> set[str]:
    """The input values an expression reads (``len`` as ``|s|``)."""
    if expr.op == "var":
        return {expr.name}
    if expr.op == "len":
        return {f"|{expr.name}|"}
    out: set[str] = set()
    for a in expr.args:
        out |= names_of(a)
    return out


def evaluate(expr: Expr, env: dict[str, object]) -> int | None:
    """The expression's value with the scalars of ``env`` (None when it reads a value that is
    not a number there, or is not an integer)."""
    op = expr.op
    if op == "num":
        return expr.value
    if op == "var":
        v = env.get(expr.name)
        return v if type(v) is int else None
    if op == "len":
        v = env.get(expr.name)
        return len(v) if isinstance(v, str | list) else None
    vals = [evaluate(a, env) for a in expr.args]
    if any(v is None for v in vals):
        return None
    if op == "neg":
        return -vals[0]  # type: ignore[operator]
    a, b = vals[0], vals[1]
    assert a is not None and b is not None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b if b and a % b == 0 else None
    if op == "^":
        return a ** b if 0 <= b <= 40 and abs(a) <= 10**6 else None
    return None


IDENT = r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)?"


NOT_NAMES = {"and", "or", "the", "of", "a", "an", "integers", "integer", "numbers", "number", "is",
             "are", "in", "on", "to", "its", "their", "by", "space", "spaces", "line", "lines",
             "string", "strings", "values", "value", "respectively", "single", "one", "two",
             "three", "four", "five", "six", "with", "as", "for", "from", "positive", "followed",
             "characters", "character", "letters", "symbols", "first", "second", "then",
             "array", "sequence", "elements", "list", "it", "this", "these", "all", "denote",
             "separated", "given", "which", "each", "i", "j", "k-th", "blank", "empty", "distinct", "pairwise", "some", "non", "negative", "real", "natural", "word",
             "length", "size", "following"}
