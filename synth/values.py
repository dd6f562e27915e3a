"""Values of compiled function tasks: a call's arguments in JSON, a return value as text, and
the rule that compares an answer with it.

A *function* bootcamp (:class:`synth.bootcamp.FunctionBootcamp`) embeds a task's verified
reference function; its answer key is the function's return value on the case's arguments.
Three things have to be written down for that, and they live here:

* **arguments in JSON** (:func:`encode`, :func:`decode`): the gate and the reference's own
  sandbox job receive a call's arguments as JSON. A list is a JSON array; every other
  container is a one-key object naming its kind -- ``{"tuple": [...]}``, ``{"set": [...]}``,
  ``{"frozenset": [...]}``, ``{"dict": [[key, value], ...]}`` (so keys of any kind, in order)
  -- and a float that JSON cannot hold is ``{"float": "nan" | "inf" | "-inf"}``. Nothing else
  (objects, bytes, functions) is a value of a function task.
* **the answer's text** (:func:`canonical`): Python literal form -- ``True``/``False``,
  ``None``, integers in decimal, floats as Python's shortest ``repr`` (``nan``, ``inf``,
  ``-inf`` for the non-finite ones), strings quoted as ``repr`` quotes them, lists in brackets,
  tuples in parentheses (``(1,)``), dicts in braces in their order, sets in braces sorted by
  their elements' text (``set()`` when empty).
* **the comparison** (:func:`parse`, :func:`same_value`, :func:`check_answer`, stated to the
  solver as :data:`ANSWER_RULE`): the answer is read as a Python literal (never evaluated) and
  compared with the return value by kind: a bool only equals a bool, an int only an int, a
  float equals a number within :data:`REL_TOL` relative (or :data:`ABS_TOL` absolute) error,
  a list or a tuple equals a list or a tuple of equal items, a dict a dict with the same keys
  and equal values, a set a set of the same elements. A string may be written quoted, or bare
  when the bare text is exactly the string.

Part of the contract (imported by :mod:`synth.runner`): standard library only, and no
``compile``/``eval`` -- the literal reader is written out here, since the sandbox lets the
contract compile only the module's embedded program.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = [
    "ABS_TOL",
    "ANSWER_RULE",
    "MAX_DEPTH",
    "REL_TOL",
    "ValueProblem",
    "canonical",
    "check_answer",
    "decode",
    "encode",
    "parse",
    "same_value",
    "shape",
]

#: relative and absolute tolerance of a float answer
REL_TOL = 1e-6
ABS_TOL = 1e-9
#: deepest nesting of a value (arguments, return values, answers)
MAX_DEPTH = 60
#: longest canonical text of a value, in characters
MAX_TEXT = 1_000_000

#: How a function bootcamp's prompt states the answer format and the comparison. Strings come
#: first and booleans late: a small solver copies the first literal a rule names.
ANSWER_RULE = (
    "Write the return value as a Python literal: strings in quotes ('abc'; a string may also "
    "be given bare, exactly its characters), integers as digits (an int is not a float: 3, not "
    "3.0), floats as decimals (compared within a relative error of 1e-6), lists in brackets "
    "[1, 2], tuples in parentheses (1, 2) (a list and a tuple of equal items are accepted for "
    "each other), dicts {'a': 1}, sets {1, 2}, True or False for a bool, None. Do not write "
    "code or an expression to evaluate: write the value itself."
)

#: how each declared return type is written (the annotation's outer name, lower case)
_RETURN_FORMS = {
    "str": "a string: write it in quotes, like 'abc'",
    "int": "an integer: write its digits, like 3",
    "float": "a float: write it as a decimal number",
    "bool": "a bool: write True or False",
    "list": "a list: write it in brackets, like [1, 2], each item as a literal",
    "tuple": "a tuple: write it in parentheses, like (1, 2), each item as a literal",
    "dict": "a dict: write it in braces, like {'a': 1}",
    "set": "a set: write it in braces, like {1, 2}",
}


def declared_return(spec: str, name: str) -> str:
    """The return annotation of ``def name(...) -> X:`` in ``spec``, as written (its text, one
    line, no evaluation), or "" when there is none. Parentheses in the parameters (defaults,
    tuples) are balanced; the contract compiles nothing here."""
    at = spec.find(f"def {name}(")
    if at < 0:
        return ""
    depth, k = 0, at + len(f"def {name}")
    while k < len(spec):
        ch = spec[k]
        depth += (ch in "([{") - (ch in ")]}")
        k += 1
        if depth == 0:
            break
    rest = spec[k:].split("\n", 1)[0].strip()
    if not rest.startswith("->") or not rest.endswith(":"):
        return ""
    return rest[2:-1].strip()


def return_form(annotation: str) -> str:
    """One sentence saying how a value of the declared return type is written ("" when the
    annotation names no type the rule knows, e.g. a union or an Optional)."""
    head = annotation.split("[", 1)[0].strip().rsplit(".", 1)[-1].lower()
    form = _RETURN_FORMS.get(head)
    if form is None or "|" in annotation:
        return ""
    return f"The function is declared to return {annotation}, {form}."


_TAGS = ("tuple", "set", "frozenset", "dict", "float")


class ValueProblem(ValueError):
    """A value is not one a function task can carry, or a text is not a literal."""


# -- arguments in JSON ----------------------------------------------------------------------


def encode(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON (see the module docstring); raises :class:`ValueProblem`."""
    if depth > MAX_DEPTH:
        raise ValueProblem(f"a value nested deeper than {MAX_DEPTH}")
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        if math.isfinite(value):
            return value
        return {"float": "nan" if value != value else ("inf" if value > 0 else "-inf")}
    if kind is list:
        return [encode(v, depth + 1) for v in value]
    if kind is tuple:
        return {"tuple": [encode(v, depth + 1) for v in value]}
    if kind is set or kind is frozenset:
        items = sorted(value, key=canonical)
        return {kind.__name__: [encode(v, depth + 1) for v in items]}
    if kind is dict:
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    raise ValueProblem(f"a {kind.__name__} is not a value of a function task (use None, bool, "
                       "int, float, str, list, tuple, dict, set)")


def decode(data: Any, depth: int = 0) -> Any:
    """The value :func:`encode` wrote; raises :class:`ValueProblem` on anything else."""
    if depth > MAX_DEPTH:
        raise ValueProblem(f"a value nested deeper than {MAX_DEPTH}")
    kind = type(data)
    if data is None or kind is bool or kind is int or kind is str or kind is float:
        return data
    if kind is list:
        return [decode(v, depth + 1) for v in data]
    if kind is dict and len(data) == 1:
        (tag, inner), = data.items()
        if tag == "float" and inner in ("nan", "inf", "-inf"):
            return float(inner)
        if tag in _TAGS and type(inner) is list:
            items = [decode(v, depth + 1) for v in inner]
            if tag == "tuple":
                return tuple(items)
            try:
                if tag == "set":
                    return set(items)
                if tag == "frozenset":
                    return frozenset(items)
                if all(type(p) is list and len(p) == 2 for p in inner):
                    return {decode(k, depth + 1): decode(v, depth + 1) for k, v in inner}
            except TypeError as exc:  # an unhashable key or element
                raise ValueProblem(f"an unhashable {tag} member: {exc}") from None
    raise ValueProblem(f"not an encoded value: {str(data)[:80]}")


# -- the canonical text ---------------------------------------------------------------------


def canonical(value: Any) -> str:
    """``value`` as Python literal text (see the module docstring); raises
    :class:`ValueProblem` for what a function task cannot carry or a text over
    :data:`MAX_TEXT` characters."""
    parts: list[str] = []
    _write(value, parts, 0, [0])
    return "".join(parts)


def _write(value: Any, out: list[str], depth: int, size: list[int]) -> None:
    if depth > MAX_DEPTH:
        raise ValueProblem(f"a value nested deeper than {MAX_DEPTH}")
    if size[0] > MAX_TEXT:
        raise ValueProblem(f"a value longer than {MAX_TEXT:,} characters as text")
    kind = type(value)
    if value is None or kind is bool:
        text = repr(value)
    elif kind is int:
        text = int.__repr__(value)
    elif kind is float:
        text = repr(value)  # nan, inf, -inf as Python writes them
    elif kind is str:
        text = str.__repr__(value)
    elif kind is list or kind is tuple:
        out.append("[" if kind is list else "(")
        for i, v in enumerate(value):
            if i:
                out.append(", ")
            _write(v, out, depth + 1, size)
        out.append("]" if kind is list else ("," if len(value) == 1 else "") + ")")
        return
    elif kind is dict:
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(", ")
            _write(k, out, depth + 1, size)
            out.append(": ")
            _write(v, out, depth + 1, size)
        out.append("}")
        return
    elif kind is set or kind is frozenset:
        if not value:
            out.append("set()" if kind is set else "frozenset()")
            return
        texts = sorted(canonical(v) for v in value)
        text = "{" + ", ".join(texts) + "}"
        if kind is frozenset:
            text = f"frozenset({text})"
    else:
        raise ValueProblem(f"a {kind.__name__} is not a value of a function task (use None, "
                           "bool, int, float, str, list, tuple, dict, set)")
    size[0] += len(text)
    out.append(text)


# -- reading a literal ----------------------------------------------------------------------

_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r", "0": "\0",
            "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_END = "<end>"
_WORDS = {"True": True, "False": False, "None": None, "nan": math.nan, "inf": math.inf}


class _Reader:
    """A recursive-descent reader of Python literals (no expressions, no names but the words
    of :data:`_WORDS`, ``set()`` and ``frozenset(...)``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, what: str) -> ValueProblem:
        return ValueProblem(f"{what} at character {self.at} of the answer")

    def space(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        self.at = at

    def peek(self) -> str:
        """The next character after spacing, or :data:`_END` (no character test matches it)."""
        self.space()
        return self.text[self.at:self.at + 1] or _END

    def take(self, char: str) -> bool:
        if self.peek() == char:
            self.at += 1
            return True
        return False

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail("nesting too deep")
        char = self.peek()
        if char in ("[", "("):
            self.at += 1
            items, trailing = self.items("])"[char == "("], depth)
            return items if char == "[" else (tuple(items) if len(items) != 1 or trailing
                                              else items[0])
        if char == "{":
            return self.braces(depth)
        if char in ("'", '"'):
            return self.string()
        if char in ("-", "+", ".") or char.isdigit():
            return self.number()
        return self.word(depth)

    def items(self, close: str, depth: int) -> tuple[list[Any], bool]:
        items: list[Any] = []
        trailing = False
        while not self.take(close):
            if items and not trailing:
                raise self.fail(f"expected ',' or '{close}'")
            items.append(self.value(depth + 1))
            trailing = self.take(",")
        return items, trailing

    def braces(self, depth: int) -> Any:
        self.at += 1
        if self.take("}"):
            return {}
        first = self.value(depth + 1)
        try:
            if self.take(":"):
                out = {first: self.value(depth + 1)}
                while self.take(","):
                    if self.take("}"):
                        return out
                    key = self.value(depth + 1)
                    if not self.take(":"):
                        raise self.fail("expected ':'")
                    out[key] = self.value(depth + 1)
                if not self.take("}"):
                    raise self.fail("expected ',' or '}'")
                return out
            members = [first]
            while self.take(","):
                if self.take("}"):
                    return set(members)
                members.append(self.value(depth + 1))
            if not self.take("}"):
                raise self.fail("expected ',' or '}'")
            return set(members)
        except TypeError:
            raise self.fail("an unhashable key or set member") from None

    def string(self) -> str:
        text = self.text
        quote = text[self.at]
        at = self.at + 1
        out: list[str] = []
        while True:
            if at >= len(text) or text[at] == "\n":
                raise self.fail("an unterminated string")
            char = text[at]
            if char == quote:
                self.at = at + 1
                break
            if char == "\\":
                nxt = text[at + 1:at + 2]
                if nxt in _ESCAPES:
                    out.append(_ESCAPES[nxt])
                    at += 2
                    continue
                width = {"x": 2, "u": 4, "U": 8}.get(nxt)
                digits = text[at + 2:at + 2 + width] if width else ""
                if width and len(digits) == width and all(c in "0123456789abcdefABCDEF"
                                                          for c in digits):
                    code = int(digits, 16)
                    if code > 0x10FFFF:
                        raise self.fail("an escape beyond Unicode")
                    out.append(chr(code))
                    at += 2 + width
                    continue
                out.append(char)  # an unknown escape stays as written, as in Python
                at += 1
                continue
            out.append(char)
            at += 1
        joined = "".join(out)
        if self.peek() in ("'", '"'):  # adjacent literals join, as in Python
            return joined + self.string()
        return joined

    def number(self) -> int | float:
        text = self.text
        sign = 1
        while self.peek() in ("-", "+"):
            if text[self.at] == "-":
                sign = -sign
            self.at += 1
        self.space()
        start = self.at
        at = start
        while at < len(text) and (text[at].isalnum() or text[at] in "._" or (
                text[at] in "+-" and text[at - 1] in "eE" and not text[start:at].startswith("0x"))):
            at += 1
        token = text[start:at].replace("_", "")
        self.at = at
        if token in ("inf", "nan"):
            return sign * float(token)
        try:
            if token.isdigit() or (token[:2] in ("0x", "0o", "0b") and len(token) > 2):
                return sign * int(token, 0)
            if token and (token[0].isdigit() or token[0] == ".") and token.isascii():
                return sign * float(token)
        except ValueError:
            pass
        raise self.fail(f"not a number: {token[:40]!r}")

    def word(self, depth: int) -> Any:
        text = self.text
        start = self.at
        at = start
        while at < len(text) and (text[at].isalnum() or text[at] == "_"):
            at += 1
        name = text[start:at]
        self.at = at
        if name in _WORDS:
            return _WORDS[name]
        if name in ("set", "frozenset") and self.take("("):
            inner: Any = []
            if not self.take(")"):
                inner = self.value(depth + 1)
                if not self.take(")"):
                    raise self.fail("expected ')'")
            if type(inner) not in (list, tuple, set, frozenset, dict, str):
                raise self.fail(f"{name}() of a {type(inner).__name__}")
            try:
                return set(inner) if name == "set" else frozenset(inner)
            except TypeError:
                raise self.fail("an unhashable set member") from None
        raise self.fail(f"not a literal: {text[start:start + 40]!r}")


def parse(text: str) -> Any:
    """The value of ``text``, a Python literal (as :func:`canonical` writes, and as people
    write them: either quote, trailing commas, spacing); raises :class:`ValueProblem`."""
    if type(text) is not str:
        raise ValueProblem("an answer is text")
    if len(text) > 4 * MAX_TEXT:
        raise ValueProblem("the answer is too long")
    reader = _Reader(text)
    value = reader.value(0)
    if reader.peek() != _END:
        raise reader.fail("text after the value")
    return value


# -- the comparison -------------------------------------------------------------------------


def same_value(expected: Any, got: Any, depth: int = 0) -> bool:
    """Whether ``got`` equals ``expected`` by the rule of the module docstring."""
    if depth > MAX_DEPTH:
        return False
    kind, other = type(expected), type(got)
    if expected is None or kind is bool or kind is str:
        return other is kind and expected == got
    if kind is int:
        return other is int and expected == got
    if kind is float:
        if other is not float and other is not int:
            return False
        if expected != expected:
            return got != got
        if math.isinf(expected):
            return got == expected
        return math.isclose(expected, got, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if kind is list or kind is tuple:
        return (other is list or other is tuple) and len(got) == len(expected) and all(
            same_value(e, g, depth + 1) for e, g in zip(expected, got, strict=True))
    if kind is dict:
        if other is not dict or len(got) != len(expected):
            return False
        for key, value in expected.items():
            match = [k for k in got if type(k) is type(key) and k == key]
            if len(match) != 1 or not same_value(value, got[match[0]], depth + 1):
                return False
        return True
    if kind is set or kind is frozenset:
        if (other is not set and other is not frozenset) or len(got) != len(expected):
            return False
        try:
            want = sorted(canonical(v) for v in expected)
            have = sorted(canonical(v) for v in got)
        except ValueProblem:
            return False
        return want == have
    return False


def check_answer(expected_text: str, answer: str) -> bool:
    """Whether the answer text is right for the return value whose canonical text is
    ``expected_text`` (:data:`ANSWER_RULE`). Never raises on the answer."""
    if type(answer) is not str or type(expected_text) is not str:
        return False
    if len(answer) > 8 * len(expected_text) + 1024:
        return False
    expected = parse(expected_text)  # the contract's own text: a failure here is a defect
    try:
        got = parse(answer)
    except (ValueProblem, ValueError, OverflowError, RecursionError):
        got = _NOTHING
    if got is not _NOTHING and same_value(expected, got):
        return True
    return type(expected) is str and answer.strip() == expected and answer.strip() != ""


_NOTHING = object()


# -- shapes (for the gate's input checks) ---------------------------------------------------


def shape(value: Any, depth: int = 0) -> str:
    """A short description of a value's type and nesting: ``list[int]``, ``tuple[str, int]``,
    ``dict[str, list[float]]``, ``list[]`` (empty); for evidence in a report."""
    if depth > 6:
        return "..."
    kind = type(value)
    if value is None:
        return "None"
    if kind is list or kind is set or kind is frozenset:
        inner = sorted({shape(v, depth + 1) for v in value})
        return f"{kind.__name__}[{' | '.join(inner)}]"
    if kind is tuple:
        return f"tuple[{', '.join(shape(v, depth + 1) for v in value[:8])}]"
    if kind is dict:
        keys = sorted({shape(k, depth + 1) for k in value})
        vals = sorted({shape(v, depth + 1) for v in value.values()})
        return f"dict[{' | '.join(keys)}, {' | '.join(vals)}]"
    return kind.__name__
