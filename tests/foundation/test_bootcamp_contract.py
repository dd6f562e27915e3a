from __future__ import annotations

import pytest

from synth.bootcamp import BaseBootcamp, BootcampContractError


class Minimal(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 9}}

    def __init__(self, seed: int | None = None, n: int = 5) -> None:
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self) -> dict:
        return {"xs": [self.rng.randint(0, 9) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity: dict) -> str:
        return f"sum of {identity['xs']} as <answer>N</answer>"

    @classmethod
    def reference_answer(cls, identity: dict) -> str:
        return str(sum(identity["xs"]))

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict) -> bool | float:
        if solution == "half":
            return 0.5
        if solution == "zero":
            return 0.0
        if solution == "bad":
            return 7  # contract violation
        if solution == "crash":
            raise ZeroDivisionError("verifier bug")
        return solution == str(sum(identity["xs"]))


def test_subclass_with_explicit_params_works():
    bc = Minimal(seed=3, n=4)
    assert bc.n == 4 and bc.seed == 3
    assert len(bc.case_generator()["xs"]) == 4


def test_typo_parameter_raises_type_error():
    with pytest.raises(TypeError):
        Minimal(seed=1, m=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected parameter"):
        BaseBootcamp(seed=1, n=3)


def test_seed_must_be_int():
    with pytest.raises(TypeError):
        Minimal(seed="7")  # type: ignore[arg-type]


def test_same_seed_same_cases_and_levels():
    a = [Minimal.from_level("hard", seed=11).case_generator() for _ in range(3)]
    b = [Minimal.from_level("hard", seed=11).case_generator() for _ in range(3)]
    assert a == b and len(a[0]["xs"]) == 9
    with pytest.raises(KeyError, match="no level"):
        Minimal.from_level("extreme")


def test_verify_score_cannot_be_overridden():
    with pytest.raises(TypeError, match="overrides verify_score"):

        class Cheater(Minimal):
            @classmethod
            def verify_score(cls, response, identity, format_score=0.0):  # type: ignore[override]
                return 1.0


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("<answer>42</answer>", "42"),
        ("think <answer>1</answer> then <answer> 2 </answer>", "2"),
        ("<answer>unterminated", None),
        ("no tags at all", None),
        ("</answer><answer>", None),
        ("<answer></answer>", ""),
        ("<answer>a\nb</answer> trailing", "a\nb"),
    ],
)
def test_extract_output_takes_last_complete_answer(response, expected):
    assert BaseBootcamp.extract_output(response) == expected


def test_extract_output_non_string_is_none():
    assert BaseBootcamp.extract_output(None) is None  # type: ignore[arg-type]
    assert BaseBootcamp.extract_output(b"<answer>1</answer>") is None  # type: ignore[arg-type]


def test_wrap_is_inverse_of_extract():
    for ans in ["1", "a b c", "x<y", "ünïcode", ""]:
        assert Minimal.extract_output(Minimal.wrap_answer(ans)) == ans.strip()


def test_verify_score_semantics():
    case = {"xs": [1, 2, 3]}
    assert Minimal.verify_score(Minimal.wrap_answer("6"), case) == 1.0
    assert Minimal.verify_score(Minimal.wrap_answer("7"), case) == 0.0
    assert Minimal.verify_score(Minimal.wrap_answer("7"), case, format_score=0.1) == 0.1
    assert Minimal.verify_score("6", case, format_score=0.1) == 0.0  # nothing extracted
    assert Minimal.verify_score(Minimal.wrap_answer("half"), case) == 0.5
    assert Minimal.verify_score(Minimal.wrap_answer("zero"), case, format_score=0.2) == 0.2


def test_verify_score_propagates_bootcamp_exceptions():
    with pytest.raises(ZeroDivisionError, match="verifier bug"):
        Minimal.verify_score(Minimal.wrap_answer("crash"), {"xs": [1]})


def test_verify_score_rejects_non_score_return():
    with pytest.raises(BootcampContractError, match="returned 7"):
        Minimal.verify_score(Minimal.wrap_answer("bad"), {"xs": [1]})


def test_render_stdin_is_not_defined_on_the_base():
    assert not hasattr(BaseBootcamp, "render_stdin")
