"""synth.text.solutions: when two programs are one solution (they may not vote for each other)."""

from __future__ import annotations

from key_tasks import STRETCH_HONEST, WEIGHTS_HONEST, WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED

from synth.text.solutions import SAME_RATIO, copies, fingerprint, same_solution, similarity

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"


def test_names_layout_comments_and_docstrings_do_not_make_another_program():
    other = '"""Adds."""\n# read two numbers\nx,y=map(int,input().split())  # here\nprint(x+y)\n'
    assert fingerprint(SUM) == fingerprint(other)
    assert fingerprint(WEIGHTS_MEMO) == fingerprint(WEIGHTS_MEMO_RENAMED)
    assert same_solution(WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED)


def test_a_changed_operator_or_builtin_is_another_fingerprint():
    assert fingerprint(SUM) != fingerprint(SUM.replace("a + b", "a - b"))
    assert fingerprint("print(min(1, 2))\n") != fingerprint("print(max(1, 2))\n")


def test_a_copy_with_a_line_added_is_still_the_same_solution():
    near = WEIGHTS_MEMO_RENAMED + "\nDONE = True\n"
    assert fingerprint(near) != fingerprint(WEIGHTS_MEMO)
    assert similarity(near, WEIGHTS_MEMO) >= SAME_RATIO and same_solution(near, WEIGHTS_MEMO)


def test_independently_written_solutions_are_different():
    for group in (WEIGHTS_HONEST, STRETCH_HONEST):
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                assert not same_solution(a, b), (a, b)
    assert not same_solution(WEIGHTS_MEMO, WEIGHTS_HONEST[0])


def test_copies_names_the_first_of_each_family():
    codes = [WEIGHTS_MEMO, WEIGHTS_HONEST[0], WEIGHTS_MEMO_RENAMED, WEIGHTS_HONEST[0] + "\n"]
    assert copies(codes) == [None, None, 0, 1]


def test_text_that_does_not_parse_is_compared_as_text():
    assert fingerprint("print 'py2'\n") == fingerprint("print   'py2'")
    assert fingerprint("print 'py2'\n") != fingerprint("print 'other'\n")
