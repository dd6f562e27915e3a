"""Tests of the hand-written seed bootcamp ``generated_bootcamps/handwritten/cipher.py``."""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

import pytest
from helpers import cases_in_subprocess

from generated_bootcamps.handwritten import cipher
from generated_bootcamps.handwritten.cipher import CipherBootcamp

LEVELS = list(CipherBootcamp.LEVELS)
N_CASES = 200


def _cases(level: str, seed: int = 7, n: int = N_CASES) -> list[dict[str, Any]]:
    camp = CipherBootcamp.from_level(level, seed=seed)
    return [camp.case_generator() for _ in range(n)]


def _score(answer: str, case: dict[str, Any]) -> float:
    return CipherBootcamp.verify_score(CipherBootcamp.wrap_answer(answer), case)


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    return {level: _cases(level) for level in LEVELS}


# --- known vectors and the cipher's rules ---------------------------------------------------


def test_classic_vigenere_vector() -> None:
    case = {"mode": "vigenere", "ciphertext": "LXFOPVEFRNHR", "key": "LEMON"}
    assert CipherBootcamp.reference_answer(case) == "attackatdawn"
    assert _score("ATTACKATDAWN", case) == 1.0


def test_caesar_wraps_around() -> None:
    case = {"mode": "caesar", "ciphertext": "ABC XYZ.", "shift": 3}
    assert CipherBootcamp.reference_answer(case) == "xyz uvw."


def test_punctuation_and_spaces_do_not_use_up_key_letters() -> None:
    # The example of the prompt: key BAD, "hi, ho." -> "II, KP.".
    case = {"mode": "vigenere", "ciphertext": "II, KP.", "key": "BAD"}
    assert CipherBootcamp.reference_answer(case) == "hi, ho."
    assert 'with the key BAD: "hi, ho." is encrypted as "II, KP."' in (
        CipherBootcamp.prompt_func(case)
    )


def test_crib_mode_derives_the_key() -> None:
    # Plaintext "attack at dawn!" under the key LEMON; only the crib and key length are known.
    case = {"mode": "crib", "ciphertext": "LXFOPV EF RNHR!", "key_length": 5, "crib": "attack"}
    assert CipherBootcamp.reference_answer(case) == "attack at dawn!"
    assert "LEMON" not in CipherBootcamp.prompt_func(case)


@pytest.mark.parametrize("level", LEVELS)
def test_generated_ciphertexts_follow_the_stated_format(
    cases: dict[str, list[dict[str, Any]]], level: str
) -> None:
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ ,.!?")
    for case in cases[level]:
        text = case["ciphertext"]
        assert set(text) <= allowed
        assert text[-1] in ".!?" and "  " not in text and text == text.strip()
        plain = CipherBootcamp.reference_answer(case)
        assert all(word.rstrip(",.!?") in cipher.WORDS for word in plain.split())


def test_crib_is_a_strict_prefix_with_enough_letters(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for case in cases["hard"]:
        plain = CipherBootcamp.reference_answer(case)
        crib = case["crib"]
        assert plain.startswith(crib) and len(crib) < len(plain)
        assert sum(c.isalpha() for c in crib) >= case["key_length"]
        assert crib[-1].isalpha()


# --- self-consistency, determinism, diversity, levels, timing -------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_reference_answer_scores_one(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    for case in cases[level]:
        assert _score(CipherBootcamp.reference_answer(case), case) == 1.0


@pytest.mark.parametrize("level", LEVELS)
def test_prompt_is_self_contained_and_does_not_leak(
    cases: dict[str, list[dict[str, Any]]], level: str
) -> None:
    for case in cases[level][:50]:
        prompt = CipherBootcamp.prompt_func(case)
        assert case["ciphertext"] in prompt and "<answer>" in prompt
        assert CipherBootcamp.reference_answer(case) not in prompt
        if case["mode"] == "caesar":
            assert f"The shift is {case['shift']}." in prompt
        elif case["mode"] == "vigenere":
            assert f"The key is {case['key']}." in prompt
        else:
            assert f'begins with "{case["crib"]}"' in prompt
            assert f"exactly {case['key_length']} letters" in prompt


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_cases_and_json_round_trip(level: str) -> None:
    first, second = _cases(level, seed=11, n=50), _cases(level, seed=11, n=50)
    assert first == second
    assert json.loads(json.dumps(first)) == first
    assert _cases(level, seed=12, n=50) != first


def test_determinism_across_processes_and_hash_seeds() -> None:
    outputs = [
        cases_in_subprocess("generated_bootcamps.handwritten.cipher", "CipherBootcamp", seed=3, count=20,
                            hash_seed=hash_seed)
        for hash_seed in ("1", "2")
    ]
    expected = {level: _cases(level, seed=3, n=20) for level in LEVELS}
    assert outputs[0] == outputs[1] == expected


@pytest.mark.parametrize("level", LEVELS)
def test_cases_and_answers_are_diverse(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    distinct = {json.dumps(case, sort_keys=True) for case in cases[level]}
    answers = {CipherBootcamp.reference_answer(case) for case in cases[level]}
    assert len(distinct) >= 0.9 * N_CASES
    assert len(answers) >= 0.9 * N_CASES
    if level == "easy":
        assert len({case["shift"] for case in cases[level]}) >= 20
    if level == "medium":
        assert len({case["key"] for case in cases[level]}) >= 50


def test_levels_are_measurably_harder(cases: dict[str, list[dict[str, Any]]]) -> None:
    assert [cases[level][0]["mode"] for level in LEVELS] == ["caesar", "vigenere", "crib"]
    mean_len = [statistics.mean(len(c["ciphertext"]) for c in cases[level]) for level in LEVELS]
    assert mean_len[0] < mean_len[1] < mean_len[2]
    medium_keys = statistics.mean(len(c["key"]) for c in cases["medium"])
    hard_keys = statistics.mean(c["key_length"] for c in cases["hard"])
    assert 1 < medium_keys < hard_keys


@pytest.mark.parametrize("level", LEVELS)
def test_generation_is_fast(level: str) -> None:
    camp = CipherBootcamp.from_level(level, seed=5)
    start = time.perf_counter()
    for _ in range(N_CASES):
        camp.case_generator()
    assert (time.perf_counter() - start) / N_CASES < 0.020


# --- accepted alternatives, rejected corruptions, garbage -----------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_case_and_whitespace_variants_are_accepted(
    cases: dict[str, list[dict[str, Any]]], level: str
) -> None:
    for case in cases[level][:50]:
        plain = CipherBootcamp.reference_answer(case)
        for variant in (
            plain.upper(),
            plain.title(),
            "  " + plain.replace(" ", " \n\t ") + "\n",
        ):
            assert _score(variant, case) == 1.0, variant


def _corruptions(plain: str, case: dict[str, Any], rng: random.Random) -> list[str]:
    """Wrong answers: each differs from the plaintext by one kind of mistake."""
    letters = [i for i, c in enumerate(plain) if c.isalpha()]
    i = rng.choice(letters)
    one_letter = plain[:i] + ("a" if plain[i] != "a" else "b") + plain[i + 1 :]
    words = plain.split(" ")
    out = [
        one_letter,
        plain[:-1],  # final punctuation dropped
        plain[:-1] + ("." if plain[-1] != "." else "!"),  # wrong final punctuation
        " ".join(words[:-1]) + plain[-1],  # last word dropped
        plain.replace(" ", ""),  # spaces removed
        plain + " the.",  # extra word
        f'"{plain}"',  # quotes added
        case["ciphertext"],  # the ciphertext itself
        cipher._shift_letters(case["ciphertext"], [1], -1),  # decrypted with a wrong shift
    ]
    if len(words) > 1 and words[0] != words[1]:
        out.append(" ".join([words[1], words[0], *words[2:]]))  # two words swapped
    if case["mode"] != "caesar":  # decrypted by shifting FORWARD: wrong direction
        out.append(cipher._shift_letters(case["ciphertext"], CipherBootcamp._shifts(case), +1))
    return [wrong for wrong in out if wrong.lower() != plain]


@pytest.mark.parametrize("level", LEVELS)
def test_corrupted_answers_are_rejected(cases: dict[str, list[dict[str, Any]]], level: str) -> None:
    rng = random.Random(0)
    for case in cases[level][:100]:
        plain = CipherBootcamp.reference_answer(case)
        for wrong in _corruptions(plain, case, rng):
            assert _score(wrong, case) == 0.0, (wrong, plain)


def test_crib_mode_rejects_a_consistent_decryption_that_misses_the_crib(
    cases: dict[str, list[dict[str, Any]]],
) -> None:
    for case in cases["hard"][:100]:
        # A valid Vigenère decryption with another key of the right length, but not the crib.
        other_key = [(k + 1) % 26 for k in CipherBootcamp._shifts(case)]
        wrong = cipher._shift_letters(case["ciphertext"], other_key, -1)
        assert _score(wrong, case) == 0.0
        # The crib is right but a later letter breaks the periodic key.
        plain = CipherBootcamp.reference_answer(case)
        i = len(plain) - 2
        assert plain[i].isalpha()
        broken = plain[:i] + ("a" if plain[i] != "a" else "b") + plain[i + 1 :]
        assert _score(broken, case) == 0.0


def test_crib_mode_verifier_checks_the_rules_not_the_reference_string() -> None:
    # Hand-made case the generator never emits: the crib "hi" has fewer letters than the key,
    # so the third key letter is free. Every plaintext that begins with the crib and encrypts
    # to the ciphertext under SOME 3-letter key is correct by the stated rules.
    case = {"mode": "crib", "ciphertext": "II, KP.", "key_length": 3, "crib": "hi"}
    assert _score("hi, ho.", case) == 1.0  # key BAD
    assert _score("hi, ao.", case) == 1.0  # key BAK
    assert _score("hi, hp.", case) == 0.0  # 4th letter needs key B again, gets A
    assert _score("ho, ho.", case) == 0.0  # misses the crib


@pytest.mark.parametrize(
    "response",
    [
        "",
        "no tags at all",
        "<answer></answer>",
        "<answer>   </answer>",
        "<answer>" + "x" * 1_000_000 + "</answer>",
        "<answer>" + "a " * 500_000 + "</answer>",
        "<answer>ÄÖÜ ß 日本語 İİİ</answer>",
        "<answer>\x00\x01\x02</answer>",
        "<answer>",
        "</answer><answer>",
    ],
)
def test_garbage_scores_zero(cases: dict[str, list[dict[str, Any]]], response: str) -> None:
    for level in LEVELS:
        for case in cases[level][:5]:
            assert CipherBootcamp.verify_score(response, case) == 0.0


def test_random_text_scores_zero(cases: dict[str, list[dict[str, Any]]]) -> None:
    rng = random.Random(1)
    alphabet = "abcdefghijklmnopqrstuvwxyz ,.!?\n"
    for level in LEVELS:
        for case in cases[level][:50]:
            length = len(case["ciphertext"])
            text = "".join(rng.choice(alphabet) for _ in range(length))
            assert _score(text, case) == 0.0


def test_huge_answer_is_rejected_quickly(cases: dict[str, list[dict[str, Any]]]) -> None:
    case = cases["hard"][0]
    start = time.perf_counter()
    assert _score(CipherBootcamp.reference_answer(case) * 50_000, case) == 0.0
    assert time.perf_counter() - start < 0.5


# --- parameters -------------------------------------------------------------------------------


def test_typo_parameter_raises_type_error() -> None:
    with pytest.raises(TypeError):
        CipherBootcamp(seed=1, max_word=9)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "params",
    [
        {"mode": "playfair"},
        {"min_words": 0},
        {"min_words": 9, "max_words": 8},
        {"max_words": 61},
        {"min_key_length": 2},
        {"max_key_length": 9},
        {"min_key_length": 5, "max_key_length": 4},
        {"mode": "crib", "min_words": 5, "max_words": 9, "max_key_length": 5},
    ],
)
def test_invalid_parameters_raise_value_error(params: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        CipherBootcamp(seed=1, **params)


def test_custom_parameters_are_honoured() -> None:
    camp = CipherBootcamp(
        seed=2, mode="vigenere", min_words=3, max_words=3, min_key_length=8, max_key_length=8
    )
    for _ in range(20):
        case = camp.case_generator()
        assert len(case["key"]) == 8
        assert len(CipherBootcamp.reference_answer(case).split()) == 3
