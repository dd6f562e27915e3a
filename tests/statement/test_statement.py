"""The model-free statement parser (synth.statement): sections, layout, bounds and guarantees
read from Input sections written in several styles, each rule shown rejecting an input that
breaks it and accepting the statement's own examples; phrases it cannot read are listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synth.statement import derive, split_sections
from synth.statement.answers import answer_guaranteed, impossible_outputs, says_impossible
from synth.statement.spec import subscripts, upper_bounds

REPO = Path(__file__).resolve().parents[2]
BUNDLED = [REPO / "task_descriptions" / "codecontests" / name
           for name in ("sample.jsonl", "more.jsonl")]


def _task(input_section: str, *examples: str) -> str:
    shown = "".join(f"Input\n\n{e}\n\nOutput\n\n0\n\n\n" for e in examples)
    return f"Some Title\n\nA legend.\n\nInput\n\n{input_section}\n\nOutput\n\nOne number.\n\n" \
           f"Examples\n\n{shown}Note\n\nNothing.\n"


# (input section, example inputs, [(bad input, the rule kind that must reject it)])
CASES = {
    "unicode bounds, two lines": (
        "The first line contains one integer n (1 ≤ n ≤ 2·10^5) — the number of piles.\n\n"
        "The second line contains n integers a_1, a_2, ..., a_n (1 ≤ a_i ≤ 10^9).",
        ["3\n1 2 3\n"],
        [("3\n0 2 3\n", "chain"), ("200001\n" + "1 " * 200001 + "\n", "chain"),
         ("3\n1 2\n", "layout"), ("1 2 3\n", "layout"), ("3\n1 2 3\n4\n", "layout")]),
    "latex test cases with a sum": (
        "The first line contains a single integer $t$ ($1 \\le t \\le 100$) — the number of test "
        "cases. Then the test cases follow.\n\nThe first line of each test case contains one "
        "integer $n$ ($1 \\leq n \\leq 50$).\n\nThe second line of each test case contains $n$ "
        "integers $a_1, a_2, \\ldots, a_n$ ($-10^{9} \\le a_i \\le 10^{9}$).\n\nIt is guaranteed "
        "that the sum of $n$ over all test cases does not exceed $60$.",
        ["2\n2\n-1 5\n1\n7\n"],
        [("2\n2\n-1 5\n1\n10000000000\n", "chain"), ("2\n2\n-1 5\n", "layout"),
         ("2\n40\n" + "1 " * 40 + "\n30\n" + "2 " * 30 + "\n", "sum"), ("2\n-1 5\n1\n7\n", "layout")]),
    "words for bounds": (
        "The input consists of a single line with two integers p and q. Both p and q are "
        "between 1 and 1000 inclusive, and q does not exceed p.",
        ["10 3\n"],
        [("10 0\n", "chain"), ("3 10\n", "chain"), ("1001 3\n", "chain")]),
    "distinct values": (
        "The first line contains n (1 ≤ n ≤ 100). The second line contains n pairwise distinct "
        "integers b_1, ..., b_n (1 ≤ b_i ≤ 1000).",
        ["3\n5 1 9\n"],
        [("3\n5 5 9\n", "distinct")]),
    "permutation": (
        "The first line contains an integer n (1 ≤ n ≤ 1000). The next line contains n integers "
        "p_1, p_2, ..., p_n — a permutation of the numbers from 1 to n.",
        ["4\n2 4 1 3\n"],
        [("4\n2 4 4 3\n", "permutation"), ("4\n2 5 1 3\n", "permutation")]),
    "non-decreasing order in words": (
        "In the first line you are given n (1 ≤ n ≤ 100). In the second line you are given n "
        "integers c_1, c_2, ..., c_n (0 ≤ c_i ≤ 10^6), sorted in non-decreasing order.",
        ["4\n1 1 2 8\n"],
        [("4\n1 3 2 8\n", "sorted")]),
    "strictly increasing as a chain": (
        "The first line contains one integer k (1 ≤ k ≤ 50). The second line contains k integers "
        "d_1 < d_2 < ... < d_k (1 ≤ d_i ≤ 10^9).",
        ["3\n1 4 6\n"],
        [("3\n1 4 4\n", "sorted")]),
    "queries with l <= r": (
        "The first line contains two integers n and q (1 ≤ n, q ≤ 10^5). The second line contains "
        "n integers a_1, ..., a_n (|a_i| ≤ 10^9). Each of the next q lines contains two integers "
        "l_i and r_i (1 ≤ l_i ≤ r_i ≤ n) describing a query.",
        ["3 2\n-4 0 4\n1 3\n2 2\n"],
        [("3 2\n-4 0 4\n3 1\n2 2\n", "chain"), ("3 2\n-4 0 4\n1 4\n2 2\n", "chain"),
         ("3 2\n-4 0 4000000000\n1 3\n2 2\n", "chain")]),
    "a tree": (
        "The first line contains an integer n (2 ≤ n ≤ 10^5) — the number of towns. Then n - 1 "
        "lines follow, each containing two integers x and y (1 ≤ x, y ≤ n), meaning that towns "
        "x and y are joined by a road. It is guaranteed that the roads form a tree.",
        ["3\n1 2\n3 1\n"],
        [("3\n1 2\n2 1\n", "tree"), ("4\n1 2\n3 4\n2 1\n", "tree")]),
    "a simple connected graph": (
        "The first line contains two integers n and m (2 ≤ n ≤ 50, 1 ≤ m ≤ 100). Each of the next "
        "m lines contains two integers u and v (1 ≤ u, v ≤ n) — an edge. The graph is connected "
        "and contains no self-loops or multiple edges.",
        ["3 2\n1 2\n2 3\n"],
        [("3 3\n1 1\n1 2\n2 3\n", "no_self_loops"), ("3 3\n1 2\n2 1\n2 3\n", "no_multi_edges"),
         ("4 2\n1 2\n3 4\n", "connected")]),
    "alphabet and a letter that must occur": (
        "The only line of input contains a string s (1 ≤ |s| ≤ 100) consisting of lowercase Latin "
        "letters. It is guaranteed that s contains at least one letter 'z'.",
        ["zebra\n"],
        [("Zebra\n", "alphabet"), ("abc\n", "occurs"), ("z" * 101 + "\n", "chain")]),
    "test cases named in words, one line each": (
        "The input contains several test cases. Its first line gives their number t "
        "(1 ≤ t ≤ 100).\n\nEach test case is a single line with three integers a, b and x "
        "(1 ≤ a < b ≤ 50, 1 ≤ x ≤ 10^4).",
        ["2\n3 6 7\n1 2 3\n"],
        [("3 6 7\n1 2 3\n", "layout"), ("2\n6 3 7\n1 2 3\n", "chain")]),
    "a group of lines described in the next sentence": (
        "The first line contains t (1 ≤ t ≤ 10), the number of test cases.\n\nEach test case is "
        "given on two lines. The first of them contains one integer n (3 ≤ n ≤ 50), the second "
        "contains n integers a_1, ..., a_n (1 ≤ a_i ≤ 100). The sum of n over all test cases is "
        "at most 60.",
        ["1\n3\n1 2 3\n"],
        [("1\n3\n1 2\n", "layout"), ("2\n30\n" + "1 " * 30 + "\n31\n" + "2 " * 31 + "\n", "sum")]),
    "queries after a line that only says they follow": (
        "The first line contains two integers n and q (1 ≤ n, q ≤ 100). The second line contains "
        "the string s of length n. It consists of lowercase Latin letters only.\n\nThen q lines "
        "follow. The i-th of them contains two integers l_i and r_i (1 ≤ l_i ≤ r_i ≤ n).",
        ["3 1\nabc\n1 2\n"],
        [("3 1\nabc\n2 1\n", "chain"), ("3 1\naBc\n1 2\n", "alphabet")]),
    "subscripts without underscores (a1, a2, ..., an; ai)": (
        "The first line contains integer n (1 ≤ n ≤ 100). The second line contains a sequence of "
        "n integers a1, a2, ..., an (1 ≤ ai ≤ 1000).",
        ["3\n1 2 3\n"],
        [("3\n0 2 3\n", "chain"), ("3\n1 2\n", "layout")]),
    "integers without a count word, and pairs xi and yi": (
        "The first line contains integers n and m (1 ≤ n, m ≤ 100). Then follow m lines, each "
        "containing two integers xi and yi (1 ≤ xi, yi ≤ n).",
        ["3 1\n1 2\n"],
        [("3 1\n1 4\n", "chain"), ("3 2\n1 2\n", "layout")]),
    "a Constraints section after the lines": (
        "The first line contains two space-separated integers N and K. The next line contains N "
        "space-separated integers A1, A2, ..., AN.\n\nConstraints\n\n1 ≤ N ≤ 10^5\n1 ≤ K ≤ "
        "10^9\n1 ≤ Ai ≤ 10^9",
        ["3 2\n1 2 3\n"],
        [("3 2\n1 2 0\n", "chain"), ("3 0\n1 2 3\n", "chain")]),
    "an AtCoder format block with constraints bullets": (
        "Input is given from Standard Input in the following format:\n\nN M\nA_1 A_2 \\ldots "
        "A_N\nu_1 v_1\n\\vdots\nu_M v_M\n\n- 2 \\leq N \\leq 50\n- 1 \\leq M \\leq 50\n"
        "- 1 \\leq A_i \\leq 10^9\n- A_i \\neq A_j (i \\neq j)\n- 1 \\leq u_i, v_i \\leq N",
        ["3 2\n5 6 7\n1 2\n2 3\n"],
        [("3 2\n5 5 7\n1 2\n2 3\n", "distinct"), ("3 2\n5 6 7\n1 2\n", "layout"),
         ("3 2\n5 6 7\n1 2\n2 4\n", "chain")]),
    "a grid of quoted characters": (
        "The first line contains two integers h and w (1 ≤ h, w ≤ 20). Each of the next h lines "
        "contains a string of w characters, each of which is '.' or '#'.",
        ["2 3\n.#.\n...\n"],
        [("2 3\n.#.\n..\n", "layout"), ("2 3\n.#.\n.x.\n", "alphabet")]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_rule_rejects_an_input_that_breaks_it_and_accepts_the_examples(name):
    section, examples, bad = CASES[name]
    checker = derive(_task(section, *examples))
    assert checker.layout, (checker.not_checked, checker.dropped)
    assert not checker.dropped
    for ex in examples:
        assert checker.check(ex) is None
    for text, kind in bad:
        got = checker.check(text)
        assert got is not None, (name, text)
        assert got.rule == kind, (name, text, got)
        assert got.words and " ".join(got.words.split()[:3]) in " ".join(subscripts(section).split())


def test_a_rule_that_rejects_an_example_is_dropped_and_reported():
    # the statement says distinct, but its own example repeats a value: the parser (or the
    # statement) is wrong about this input, so the rule is not used
    checker = derive(_task("The first line contains n (1 ≤ n ≤ 10). The second line contains n "
                           "distinct integers a_1, ..., a_n (1 ≤ a_i ≤ 10).", "3\n1 1 2\n"))
    assert checker.layout
    assert any("distinct" in d and "example 1" in d for d in checker.dropped)
    assert checker.check("3\n2 2 2\n") is None  # the dropped rule is not applied
    assert checker.check("3\n2 2 11\n") is not None  # the bound still is


def test_a_layout_that_does_not_read_an_example_is_dropped():
    checker = derive(_task("The first line contains two integers n and m (1 ≤ n, m ≤ 10).", "3\n"))
    assert not checker.layout
    assert any("layout" in d for d in checker.dropped)
    assert checker.check("anything at all\n") is None


def test_unreadable_phrases_are_listed_not_guessed():
    checker = derive(_task("The input describes a game position in the usual notation; its "
                           "size is reasonable.", "x\n"))
    assert not checker.layout and checker.rules == []
    assert checker.not_checked
    assert checker.check("y\n") is None


def test_no_examples_means_no_rule_is_used():
    text = "Title\n\nInput\n\nThe only line contains one integer n (1 ≤ n ≤ 5).\n\nOutput\n\nx\n"
    checker = derive(text)
    assert not checker.layout and checker.rules == []
    assert any("no example input" in n for n in checker.not_checked)


def test_sections_of_the_three_layouts():
    cc = split_sections(_task("The only line contains n.", "5", "6"))
    assert cc.input_spec == "The only line contains n." and cc.example_inputs == ["5\n", "6\n"]
    own = split_sections("T\n\nInput\n\nThe only line contains n.\n\nOutput\n\nx\n\nExamples\n\n"
                         "Example 1\ninput:\n5\noutput:\n25\nbecause 5*5\n\nExample 2\ninput:\n"
                         "1\noutput:\n1\n")
    assert own.example_inputs == ["5\n", "1\n"] and own.input_spec == "The only line contains n."
    md = split_sections("# T\n\n## Input format\n\nThe only line contains n.\n\n## Output format\n"
                        "\nx\n\n## Sample Input 1\n\n```\n7\n```\n\n## Sample Output 1\n\n```\n49\n"
                        "```\n\n## Constraints\n\n1 ≤ n ≤ 9\n")
    assert md.example_inputs == ["7\n"] and "1 ≤ n ≤ 9" in md.input_spec


def test_the_bundled_codecontests_statements_accept_all_their_tests():
    """Every example, private and generated test input of the 42 bundled tasks passes the
    checker derived from its statement; the statements' layouts are all read. The 24 of
    more.jsonl were written for the checker: it reads every phrase of their Input sections."""
    lines = [(f.name, line) for f in BUNDLED for line in f.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 42
    for file, line in lines:
        rec = json.loads(line)
        checker = derive(rec["description"])
        assert checker.layout, (rec["name"], checker.not_checked, checker.dropped)
        assert not checker.dropped, (rec["name"], checker.dropped)
        if file == "more.jsonl":
            assert not checker.not_checked and checker.rules, (rec["name"], checker.not_checked)
        tests = [*rec["public_tests"]["input"], *rec["private_tests"]["input"],
                 *rec["generated_tests"]["input"]]
        bad = [(t[:60], str(v)) for t in tests if (v := checker.check(t)) is not None]
        assert not bad, (rec["name"], bad[:3])


def test_upper_bounds_are_the_size_repairs_caps():
    assert upper_bounds("1 ≤ n, m ≤ 500, 2 ≤ n·m ≤ 2·10^5; 1 ≤ k ≤ n ≤ 10^5") == {
        "n": 500, "m": 500, "k": 500}
    assert upper_bounds("$1 \\le q < 10^{4}$ and t does not exceed 7") == {"q": 9999, "t": 7}


def test_the_promise_of_an_answer_and_its_impossible_outputs():
    assert answer_guaranteed("It is guaranteed that at least one valid pair exists.")
    assert answer_guaranteed("It is guaranteed that the answer always exists.")
    assert answer_guaranteed("If no answer exists, print -1.") is None
    assert answer_guaranteed("It is guaranteed that square n can be reached from square 1.")
    assert answer_guaranteed("It is guaranteed that at least one block of boxes weighs s.")
    # the Output section says what to print when there is none: "none" is then an answer
    assert answer_guaranteed("It is guaranteed that a route exists.",
                             "Print the length, or -1 if there is no route.") is None
    outs = impossible_outputs("Print the pair, or IMPOSSIBLE if there is none.")
    assert "IMPOSSIBLE" in outs and "-1" in outs
    assert says_impossible("3 4\n-1\n", outs) == "-1"
    assert says_impossible("3 4\n", outs) is None
