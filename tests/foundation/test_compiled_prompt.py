"""A compiled bootcamp's prompt always says how to answer (the contract states the format)."""

from __future__ import annotations

import pytest

from synth.bootcamp import (
    ANSWER_OPEN,
    COMPILED_ANSWER_FORMAT,
    COMPILED_PROMPT_INTRO,
    CompiledBootcamp,
)
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


# ------------------------------------------------------------------------------------------
# The default prompt: the embedded task text, the case's input and the answer format
# ------------------------------------------------------------------------------------------

TEXT = "Doubling\n\nRead n and print 2n.\n"
NO_PROMPT = PART[:PART.index("    @staticmethod\n    def prompt_func")].rstrip("\n") + "\n"


def _default_camp(text: str | None = TEXT, part: str = NO_PROMPT) -> type[CompiledBootcamp]:
    namespace: dict[str, object] = {}
    exec(compile(assemble(part, PROGRAM, text), "double.py", "exec"), namespace)
    camp = namespace["DoubleBootcamp"]
    assert isinstance(camp, type) and issubclass(camp, CompiledBootcamp)
    return camp


def test_the_default_prompt_shows_the_task_text_the_input_and_the_answer_format() -> None:
    camp = _default_camp()
    assert camp.TASK_TEXT == TEXT
    text = camp.prompt_func({"n": 4})
    assert text == (COMPILED_PROMPT_INTRO + "\n\nDoubling\n\nRead n and print 2n.\n\nInput:\n```\n4\n```\n\n"
                    + COMPILED_ANSWER_FORMAT)
    assert "not asked for a program" in text and "Do not write a program" in text
    assert camp(seed=3).prompt_func({"n": 4}) == text  # on an instance too
    case = camp(seed=3).case_generator()
    assert f"```\n{case['n']}\n```" in camp.prompt_func(case)
    assert camp.verify_score(camp.wrap_answer(str(2 * case["n"])), case) == 1.0


def test_the_default_prompt_closes_an_input_without_a_final_newline() -> None:
    part = NO_PROMPT.replace("return f\"{identity['n']}\\n\"", "return str(identity['n'])")
    assert part != NO_PROMPT
    assert "Input:\n```\n4\n```\n\n" in _default_camp(part=part).prompt_func({"n": 4})


def test_a_class_with_a_program_but_no_task_text_and_no_prompt_func_fails_at_creation() -> None:
    with pytest.raises(TypeError, match="no TASK_TEXT and no prompt_func"):
        _default_camp(None)


def test_an_own_prompt_func_wins_over_the_task_text_and_still_gets_the_format() -> None:
    namespace: dict[str, object] = {"TAIL": ""}
    exec(compile(assemble(PART, PROGRAM, TEXT), "double.py", "exec"), namespace)
    camp = namespace["DoubleBootcamp"]
    assert isinstance(camp, type) and issubclass(camp, CompiledBootcamp)
    assert camp.TASK_TEXT == TEXT
    assert camp.prompt_func({"n": 4}) == "Double 4.\n\n" + COMPILED_ANSWER_FORMAT
    assert camp().prompt_func({"n": 4}) == "Double 4.\n\n" + COMPILED_ANSWER_FORMAT


def test_task_text_must_be_a_str() -> None:
    with pytest.raises(TypeError, match="TASK_TEXT must be a str"):
        class Bad(CompiledBootcamp):
            REFERENCE_PROGRAM = PROGRAM
            TASK_TEXT = 3  # type: ignore[assignment]
