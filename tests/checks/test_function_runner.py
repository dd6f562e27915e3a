"""The contract's function runner (:func:`synth.runner.call_function`), the values of function
tasks (:mod:`synth.values`: arguments in JSON, the answer's text, the comparison rule), and what
the gate reads of a function's arguments (:func:`synth.gate.functions.expected_arguments`,
:func:`~synth.gate.functions.fits`). No sandbox: these run in the test process."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from synth import compiled
from synth.gate.functions import ANY, annotation_shape, expected_arguments, fits
from synth.runner import FunctionTimeout, ProgramError, UnsupportedProgramError, call_function
from synth.values import (
    ANSWER_RULE,
    ValueProblem,
    canonical,
    check_answer,
    declared_return,
    decode,
    encode,
    parse,
    return_form,
    same_value,
)

SOURCE = '''from typing import List, Tuple


def grow(items: List[int], extra: int = 1) -> List[int]:
    """Appends extra and returns the list.
    >>> grow([1, 2], 3)
    [1, 2, 3]
    """
    items.append(extra)
    return items


def spin(n):
    while True:
        n += 1


def pair(x: int) -> Tuple[int, int]:
    return (x, -x)


if __name__ == "__main__":
    raise SystemExit("a main block must not run")
'''


def test_call_function_returns_and_deep_copies_the_arguments() -> None:
    args: list[Any] = [[1, 2], 3]
    assert call_function(SOURCE, "grow", args) == [1, 2, 3]
    assert args == [[1, 2], 3]  # the case's arguments are not changed by a mutating reference
    assert call_function(SOURCE, "pair", [4]) == (4, -4)


def test_call_function_names_the_exception_and_the_call() -> None:
    with pytest.raises(ProgramError) as info:
        call_function(SOURCE, "grow", ["abc", 1])
    text = str(info.value)
    assert "AttributeError" in text and "grow('abc', 1)" in text and "line 9" in text
    with pytest.raises(ProgramError, match="no function missing"):
        call_function(SOURCE, "missing", [])
    with pytest.raises(UnsupportedProgramError):
        call_function("import os\ndef f():\n    return 1\n", "f", [])


def test_call_function_is_bounded_in_time() -> None:
    start = time.perf_counter()
    with pytest.raises(FunctionTimeout):
        call_function(SOURCE, "spin", [0], timeout_s=0.2)
    assert time.perf_counter() - start < 2
    assert call_function(SOURCE, "pair", [1], timeout_s=0.2) == (1, -1)  # the timer is gone


@pytest.mark.parametrize("value", [
    0, -7, 10**30, 1.5, -0.0, 1e-300, 1e300, math.inf, -math.inf, True, False, None, "",
    "it's \"quoted\"\n\t\\", "\x00\u00e9\u4e2d\U0001f600", [], [1, [2, [3]]], (), (1,),
    (1, "a", None), {"a": 1, 2: [3]}, {(1, 2): "t"}, set(), {3, 1, 2}, frozenset({"x"}),
])
def test_values_round_trip(value: Any) -> None:
    text = canonical(value)
    assert same_value(value, parse(text)), text
    assert same_value(value, decode(encode(value)))
    assert type(decode(encode(value))) is type(value)


def test_nan_and_unsupported_values() -> None:
    assert canonical(math.nan) == "nan" and same_value(math.nan, parse("nan"))
    assert decode(encode(math.nan)) != decode(encode(math.nan))  # still a nan
    for bad in (object(), b"bytes", 1j, [1, object()]):
        with pytest.raises(ValueProblem):
            encode(bad)
        with pytest.raises(ValueProblem):
            canonical(bad)
    with pytest.raises(ValueProblem):
        decode({"tuple": 3})
    with pytest.raises(ValueProblem):
        decode({"a": 1})


def test_sets_are_written_in_a_fixed_order() -> None:
    assert canonical({"b", "a", "c"}) == "{'a', 'b', 'c'}"
    assert canonical({1: "x", 0: "y"}) == "{1: 'x', 0: 'y'}"  # dicts keep their order


@pytest.mark.parametrize(("expected", "answer", "right"), [
    ("True", "True", True), ("True", "true", False), ("True", "1", False), ("1", "True", False),
    ("3", "3", True), ("3", "3.0", False), ("3.0", "3", True), ("0.1", "0.1000000001", True),
    ("0.1", "0.1001", False), ("nan", "nan", True), ("inf", "1e308", False), ("inf", "1e400", True),
    ("'abc'", "'abc'", True), ("'abc'", '"abc"', True), ("'abc'", "abc", True),
    ("'abc'", "abcd", False), ("'a b'", " a b ", True), ("''", "", False), ("''", "''", True),
    ("[1, 2]", "[1,2]", True), ("[1, 2]", "(1, 2)", True), ("[1, 2]", "[2, 1]", False),
    ("[1, 2]", "[1, 2, ]", True), ("(1, 2)", "1, 2", False), ("[[1], []]", "[[1], []]", True),
    ("{'a': 1}", "{'a': 1.0}", False), ("{'a': 1}", '{"a": 1}', True),
    ("{1, 2}", "{2, 1}", True), ("{1, 2}", "[1, 2]", False), ("None", "None", True),
    ("None", "", False), ("None", "null", False), ("[1]", "[1]" + " " * 5000, False),
    ("'x'", "__import__('os')", False),
])
def test_the_comparison_rule(expected: str, answer: str, right: bool) -> None:
    assert check_answer(expected, answer) is right


def test_answers_are_read_never_run() -> None:
    for text in ("1 + 1", "[x for x in y]", "f(1)", "{**a}", "'a' * 3", "[1]]", "'open"):
        with pytest.raises(ValueProblem):
            parse(text)


def test_expected_arguments_from_annotations_docstring_and_tests() -> None:
    want = expected_arguments(SOURCE, "grow")
    assert want is not None and want.names == ["items", "extra"] and want.required == 1
    assert fits([1, 2], want.shapes[0]) and fits([], want.shapes[0])
    assert not fits((1, 2), want.shapes[0]) and not fits(["1"], want.shapes[0])
    assert not fits([True], want.shapes[0]) and not fits(1.5, want.shapes[1])
    untyped = 'def f(s, n):\n    """f("ab", [1]) ==> 1\n    >>> f("x", [[2]])\n    """\n'
    tests = "def check(candidate):\n    assert candidate('abc', [1, 2]) == 1\n" \
            "    assert candidate(name, [])\n"
    want = expected_arguments(untyped, "f", tests)
    assert want is not None and want.calls == 4
    assert fits("zz", want.shapes[0]) and not fits(["z"], want.shapes[0])
    assert fits([3], want.shapes[1]) and fits([[3]], want.shapes[1]) and fits([], want.shapes[1])
    assert not fits([["x"]], want.shapes[1]) and not fits("1", want.shapes[1])
    nothing = expected_arguments("def g(x):\n    return x\n", "g")
    assert nothing is not None and nothing.shapes == [ANY] and fits(object(), ANY)
    assert expected_arguments(SOURCE, "absent") is None


def test_annotations_read_as_shapes() -> None:
    import ast

    def shape_of(text: str) -> Any:
        return annotation_shape(ast.parse(text, mode="eval").body)

    assert fits(None, shape_of("Optional[str]")) and fits("a", shape_of("Optional[str]"))
    assert fits(3, shape_of("float")) and not fits(3.0, shape_of("int"))
    assert fits((1, "a"), shape_of("Tuple[int, str]")) and not fits((1,), shape_of("Tuple[int, str]"))
    assert fits((1, 2, 3), shape_of("tuple[int, ...]"))
    assert fits({"a": [1]}, shape_of("Dict[str, List[int]]"))
    assert not fits({1: [1]}, shape_of("Dict[str, List[int]]"))
    assert fits(1, shape_of("int | str")) and not fits(None, shape_of("int | str"))
    assert shape_of("Callable[[int], int]") == ANY


def test_assembly_embeds_the_entry_point() -> None:
    model = ("from synth.bootcamp import FunctionBootcamp\n\n\nclass GrowBootcamp(FunctionBootcamp):\n"
             "    def case_generator(self):\n        return {'a': [1]}\n\n"
             "    @staticmethod\n    def call_args(identity):\n        return [identity['a']]\n")
    code = compiled.assemble(model, SOURCE, "grow(items) appends", entry_point="grow")
    assert compiled.embedded_entry_point(code) == "grow"
    assert compiled.check_embedded(code, SOURCE, "grow(items) appends", "grow") is None
    assert compiled.check_embedded(code, SOURCE, None, "pair") is not None
    assert compiled.split(code)[0].strip() == model.strip()
    again = compiled.assemble(code, SOURCE, "grow(items) appends", entry_point="grow")
    assert again == code
    with pytest.raises(compiled.AssemblyError):
        compiled.assemble(model, SOURCE, "text", entry_point="not a name")


def test_an_outer_timer_goes_on_after_the_call() -> None:
    import signal

    fired: list[int] = []
    before = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    saved = signal.getitimer(signal.ITIMER_REAL)
    try:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        with pytest.raises(FunctionTimeout):
            call_function(SOURCE, "spin", [0], timeout_s=0.1)
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 4.0 < left <= 5.0 and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, *saved)
        signal.signal(signal.SIGALRM, before)


@pytest.mark.parametrize(("spec", "name", "annotation", "form"), [
    ('def strlen(string: str) -> int:\n    """ Return length """\n', "strlen", "int",
     "an integer: write its digits, like 3"),
    ("def f(a, b=(1, (2, 3)), c={'k': [4]}) -> List[str]:\n", "f", "List[str]",
     "a list: write it in brackets"),
    ("def g(x: int,\n      y: int) -> typing.Tuple[int, int]:\n", "g", "typing.Tuple[int, int]",
     "a tuple: write it in parentheses"),
    ("def h(s: str) -> bool:  \n", "h", "bool", "a bool: write True or False"),
    ("def k(n) -> Optional[int]:\n", "k", "Optional[int]", ""),  # no one form: the rule says
    ("def u(n) -> int | None:\n", "u", "int | None", ""),
    ("def v(n):\n    return n\n", "v", "", ""),  # no annotation
    ("def w(n) -> int:  # a comment\n", "w", "", ""),  # not read past the colon
    ("def other(n) -> int:\n", "missing", "", ""),
])
def test_the_prompt_reads_the_declared_return_type(spec: str, name: str, annotation: str,
                                                   form: str) -> None:
    assert declared_return(spec, name) == annotation
    sentence = return_form(annotation)
    assert (form in sentence and annotation in sentence) if form else sentence == ""


def test_the_answer_rule_names_strings_before_booleans() -> None:
    # a small solver copies the first literal a rule names: "True" for a flip_case call
    assert ANSWER_RULE.index("'abc'") < ANSWER_RULE.index("True or False")
