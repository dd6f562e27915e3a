"""``synth run --order``: which tasks ``--limit`` keeps (the embedded model's default picks the
tasks with the shortest example inputs: the ones a 1.5B model most often gets right)."""

from __future__ import annotations

import pytest
import typer

from synth.commands.run import input_size, load_source_tasks


def test_simplest_keeps_the_shortest_example_inputs_and_source_keeps_the_first():
    first = load_source_tasks("codecontests", None, 2, "process", "source")
    simplest = load_source_tasks("codecontests", None, 3, "process", "simplest")
    every = load_source_tasks("codecontests", None, None, "process", "source")
    assert [t.title for t in first] == [t.title for t in every[:2]]
    assert [t.title for t in simplest] == ["Divisors Loyal to Their Digits",
                                           "Bulbs Without Long Glows",
                                           "Rotating Letters Palindrome"]
    sizes = sorted(input_size(t) for t in every)
    assert [input_size(t) for t in simplest] == sizes[:3]
    assert all(input_size(t)[0] == 1 for t in simplest)  # one-line inputs


def test_an_unknown_order_is_refused(capsys):
    with pytest.raises(typer.Exit):
        load_source_tasks("codecontests", None, 2, "process", "random")
    assert "--order must be source or simplest" in capsys.readouterr().err
