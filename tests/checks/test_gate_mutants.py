"""The corruptions and garbage the gate feeds to verifiers (pure host functions, no sandbox)."""

from __future__ import annotations

import random

import pytest

from synth.gate import probes as hc
from synth.gate.results import norm
from synth.sandbox import kit


@pytest.mark.parametrize("answer", ["-3 1 1 7", "42", "Alice: knight, Bob: knave", "12\n34\n56"])
def test_every_mutant_differs_from_the_answer(answer):
    rng = random.Random(0)
    for kind in hc.MUTATION_KINDS:
        for _ in range(20):
            mutant = hc.mutate(kind, answer, rng)
            if mutant is not None:
                assert norm(mutant) != norm(answer) or kind == "swap_tokens", (kind, mutant)


def test_mutation_kinds_do_what_they_say():
    rng = random.Random(1)
    assert hc.mutate("empty", "5 6", rng) == ""
    assert hc.mutate("append_junk", "5 6", rng).startswith("5 6 zq")
    assert hc.mutate("truncate", "123456", rng) == "123"
    assert hc.mutate("change_digit", "abc", rng) is None
    assert hc.mutate("replace_char", "123", rng) is None
    changed = hc.mutate("change_digit", "1000", rng)
    assert len(changed) == 4 and sum(a != b for a, b in zip(changed, "1000", strict=True)) == 1
    dropped = hc.mutate("drop_token", "1 2 3", rng)
    assert len(dropped.split()) == 2
    duplicated = hc.mutate("duplicate_token", "1 2 3", rng)
    assert sorted(set(duplicated.split())) == ["1", "2", "3"] and len(duplicated.split()) == 4
    swapped = hc.mutate("swap_tokens", "1 2 3", rng)
    assert sorted(swapped.split()) == ["1", "2", "3"] and swapped != "1 2 3"
    assert hc.mutate("swap_tokens", "7 7 7", rng) is None
    assert hc.mutate("swap_tokens", "ab", rng) == "ba"
    with pytest.raises(ValueError):
        hc.mutate("flip", "1", rng)


def test_garbage_has_no_decimal_digits_except_the_huge_number():
    items = dict(hc.garbage("<answer>", "</answer>", random.Random(3)))
    assert {"empty", "no_tags", "nested_tags", "random_unicode", "huge_digits"} <= set(items)
    for name, text in items.items():
        if name != "huge_digits":
            assert not any(ch.isdecimal() for ch in text), name
    assert len(items["huge_digits"]) > 1_000_000
    assert items["no_tags"].count("<answer>") == 0


def test_json_problem_names_the_offending_path():
    assert kit.json_problem({"a": [1, 2.5, "x", None, True, {"b": []}]}) is None
    assert "tuple" in kit.json_problem({"a": [1, (2, 3)]})
    assert "case['a'][1]" in kit.json_problem({"a": [1, (2, 3)]})
    assert "int key" in kit.json_problem({1: "x"})
    assert "nan" in kit.json_problem({"x": float("nan")})


def test_importing_the_kit_on_the_host_leaves_sys_path_alone():
    import importlib
    import sys

    before = list(sys.path)
    importlib.reload(kit)
    assert sys.path == before  # else synth/sandbox/docker.py would shadow the docker SDK


def test_derive_seed_is_the_export_derivation():
    import hashlib

    digest = hashlib.sha256(b"7\x1fgame24\x1ftrain\x1f3").digest()
    assert kit.derive_seed(7, "game24", "train", 3) == int.from_bytes(digest[:8], "big") & (2**63 - 1)
