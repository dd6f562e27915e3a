from __future__ import annotations

from synth.models.extract import extract_code

MODULE = '''"""Task."""
from synth.bootcamp import BaseBootcamp


class SumBootcamp(BaseBootcamp):
    def case_generator(self):
        return {"a": self.rng.randint(1, 9)}
'''


def fenced(body: str, lang: str = "python") -> str:
    return f"```{lang}\n{body}```\n"


def test_single_fenced_block_with_prose():
    res = extract_code("Here is my bootcamp:\n\n" + fenced(MODULE) + "\nIt works because...")
    assert res.ok and res.code == MODULE and res.blocks_found == 1


def test_several_blocks_pick_the_bootcamp_one_last_wins():
    other = "def helper():\n    return 1\n"
    v2 = MODULE.replace("randint(1, 9)", "randint(1, 99)")
    text = fenced(other) + "first try:\n" + fenced(MODULE) + "better:\n" + fenced(v2) + fenced("pip install x\n", "bash")
    res = extract_code(text)
    assert res.ok and "randint(1, 99)" in (res.code or "") and res.blocks_found == 4


def test_thinking_section_is_ignored():
    draft = MODULE.replace("randint(1, 9)", "randint(0, 0)")
    text = "<think>let me draft\n" + fenced(draft) + "hmm</think>\nFinal:\n" + fenced(MODULE)
    res = extract_code(text)
    assert res.ok and "randint(1, 9)" in (res.code or "")


def test_code_only_inside_unclosed_think_is_not_taken():
    res = extract_code("<think>" + fenced(MODULE))
    assert not res.ok and res.failure == "no_code"


def test_truncated_block():
    res = extract_code("```python\n" + MODULE[:60], finish_reason="length")
    assert res.failure == "truncated" and "token limit" in res.detail


def test_truncated_but_closed_is_a_syntax_problem_named_as_truncation():
    res = extract_code(fenced(MODULE + "    def prompt_func(identity):\n        return (\n"),
                       finish_reason="length")
    assert res.failure == "truncated" and "SyntaxError" in res.detail


def test_syntax_error_names_line():
    res = extract_code(fenced(MODULE + "  def broken(:\n"))
    assert res.failure == "syntax_error" and "line 8" in res.detail


def test_no_code_at_all():
    for text in ["", "   ", "I cannot help with that.", None]:
        res = extract_code(text)  # type: ignore[arg-type]
        assert res.failure == "no_code" and res.code is None


def test_code_without_bootcamp_class():
    res = extract_code(fenced("def f():\n    return 1\n"))
    assert res.failure == "no_bootcamp_class"


def test_unfenced_plain_python_is_accepted():
    res = extract_code(MODULE)
    assert res.ok and res.code == MODULE


def test_unfenced_prose_mixed_is_refused():
    res = extract_code("Sure! " + MODULE)
    assert res.failure == "no_code"


def test_tilde_fences_and_longer_fences():
    res = extract_code("~~~python\n" + MODULE + "~~~\n")
    assert res.ok
    res = extract_code("````python\n" + MODULE + "```\nnot the end\n````\n")
    assert res.failure == "syntax_error" or res.ok


def test_too_large():
    res = extract_code(fenced(MODULE + "# pad\n" * 20000))
    assert res.failure == "too_large"


def test_a_compiled_bootcamp_class_counts_as_the_bootcamp():
    code = ("from synth.bootcamp import CompiledBootcamp\n\n\n"
            "class PairsBootcamp(CompiledBootcamp):\n    LEVELS = {}\n")
    res = extract_code("Here it is:\n```python\n" + code + "```\n")
    assert res.ok and res.code == code
