"""A compiled bootcamp's prompt always says how to answer (the contract states the format)."""

from __future__ import annotations

from synth.bootcamp import ANSWER_OPEN, COMPILED_ANSWER_FORMAT, CompiledBootcamp
from synth.compiled import assemble

PROGRAM = "n = int(input())\nprint(n * 2)\n"
PART = '''"""Doubling (test)."""
from synth.bootcamp import CompiledBootcamp


class DoubleBootcamp(CompiledBootcamp):
    LEVELS = {"easy": {}}

    def case_generator(self):
        return {"n": self.rng.randint(1, 9)}

    @staticmethod
    def render_stdin(identity):
        return f"{identity['n']}\\n"

    @staticmethod
    def prompt_func(identity):
        """Shows the number."""
        return f"Double {identity['n']}." + TAIL
'''


def _camp(tail: str) -> type[CompiledBootcamp]:
    namespace: dict[str, object] = {"TAIL": tail}
    exec(compile(assemble(PART, PROGRAM), "double.py", "exec"), namespace)
    camp = namespace["DoubleBootcamp"]
    assert isinstance(camp, type) and issubclass(camp, CompiledBootcamp)
    return camp


def test_a_prompt_without_the_answer_tags_gets_the_contract_line() -> None:
    camp = _camp("")
    text = camp.prompt_func({"n": 4})
    assert text == "Double 4.\n\n" + COMPILED_ANSWER_FORMAT and ANSWER_OPEN in text
    assert camp.prompt_func.__doc__ == "Shows the number."
    assert camp().verify_score(camp.wrap_answer(camp.reference_answer({"n": 4})), {"n": 4}) == 1.0


def test_a_prompt_that_states_the_format_is_left_as_written() -> None:
    camp = _camp(" Answer inside <answer></answer>.")
    assert camp.prompt_func({"n": 4}) == "Double 4. Answer inside <answer></answer>."
