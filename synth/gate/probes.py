"""Probes the gate feeds to a verifier: corrupted reference answers and garbage responses.

Trusted host code (pure functions of an answer and a ``random.Random``): the sandboxed bootcamp
only scores what these produce, and the host judges the scores.
"""

from __future__ import annotations

import json
import math
import random
import re
import string

__all__ = [
    "CASE_TAGS",
    "HARD_MUTATIONS",
    "HUGE",
    "MUTATION_KINDS",
    "SOFT_MUTATIONS",
    "SOFT_SEMANTIC",
    "case_answers",
    "garbage",
    "hard_mutants",
    "is_number",
    "mostly_accepted",
    "mutate",
    "near",
    "prompt_examples",
    "semantic_mutants",
]

#: Mutation kinds; ``swap_tokens`` only reorders, which order-free answers legitimately allow,
#: so its survivors are reported but do not fail the check.
MUTATION_KINDS = (
    "change_digit", "replace_char", "drop_token", "duplicate_token", "truncate",
    "append_junk", "empty", "swap_tokens",
)
SOFT_MUTATIONS = ("swap_tokens",)
HUGE = 1_000_000


def _tokens(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for pos, ch in enumerate(text + " "):
        if ch.isspace():
            if start is not None:
                spans.append((start, pos))
                start = None
        elif start is None:
            start = pos
    return spans


def _distinct_pair(items: list[str], rng: random.Random) -> tuple[int, int] | None:
    """Two positions holding different items (random tries; None if none found)."""
    if len(set(items)) < 2:
        return None
    for _ in range(100):
        a, b = sorted(rng.sample(range(len(items)), 2))
        if items[a] != items[b]:
            return a, b
    return None


def mutate(kind: str, answer: str, rng: random.Random) -> str | None:
    """One corruption of ``answer`` of the given kind, or None when it does not apply."""
    toks = _tokens(answer)
    if kind == "change_digit":
        spots = [i for i, ch in enumerate(answer) if ch in string.digits]
        if not spots:
            return None
        i = rng.choice(spots)
        return answer[:i] + rng.choice(string.digits.replace(answer[i], "")) + answer[i + 1 :]
    if kind == "replace_char":
        spots = [i for i, ch in enumerate(answer) if ch in string.ascii_letters]
        if not spots:
            return None
        i = rng.choice(spots)
        pool = string.ascii_lowercase if answer[i].islower() else string.ascii_uppercase
        return answer[:i] + rng.choice(pool.replace(answer[i], "")) + answer[i + 1 :]
    if kind == "drop_token":
        if len(toks) >= 2:
            s, e = rng.choice(toks)
            return answer[:s] + answer[e:]
        word = answer.strip()
        if len(word) < 2:
            return None
        i = rng.randrange(len(word))
        return word[:i] + word[i + 1 :]
    if kind == "duplicate_token":
        if not toks:
            return None
        s, e = rng.choice(toks)
        return answer[:e] + " " + answer[s:e] + answer[e:]
    if kind == "swap_tokens":
        pair = _distinct_pair([answer[s:e] for s, e in toks], rng)
        if pair is not None:
            (s1, e1), (s2, e2) = toks[pair[0]], toks[pair[1]]
            return answer[:s1] + answer[s2:e2] + answer[e1:s2] + answer[s1:e1] + answer[e2:]
        chars = list(answer.strip())
        pair = _distinct_pair(chars, rng) if len(toks) == 1 else None
        if pair is None:
            return None
        a, b = pair
        chars[a], chars[b] = chars[b], chars[a]
        return "".join(chars)
    if kind == "truncate":
        word = answer.strip()
        return word[: len(word) // 2] if len(word) >= 2 else None
    if kind == "append_junk":
        return answer + f" zq{rng.randrange(10)}"
    if kind == "empty":
        return ""
    raise ValueError(f"unknown mutation kind {kind!r}")


def garbage(open_: str, close: str, rng: random.Random) -> list[tuple[str, str]]:
    """Responses that must score 0 for every case: (name, text)."""
    # No decimal digit anywhere (except the 1 MB number): a lenient verifier that finds "the
    # one number in the answer" could otherwise meet a real answer by chance.
    printable = string.ascii_letters + string.punctuation + " "
    noise = "".join(rng.choice(printable) for _ in range(300))
    ranges = [(0x00A1, 0x024F), (0x0370, 0x03FF), (0x0600, 0x06FF), (0x4E00, 0x4FFF),
              (0x1F300, 0x1F64F)]
    uni = "".join(ch for ch in (chr(rng.randint(*rng.choice(ranges))) for _ in range(240))
                  if not ch.isdecimal())[:200]
    return [
        ("empty", ""),
        ("whitespace", " \n\t "),
        ("no_tags", "I think the answer is probably qz, but I am not sure."),
        ("unclosed_tag", open_ + "qz zq"),
        ("empty_tags", open_ + close),
        ("blank_tags", open_ + " \n " + close),
        ("nested_tags", open_ + open_ + "qz" + close + "zq" + close),
        ("reversed_tags", close + "qz" + open_),
        ("random_ascii", open_ + noise + close),
        ("random_unicode", open_ + uni + close),
        ("non_ascii", open_ + "答案：四十二 ½ Ⅻ 🙂\u200b\u202e ñ" + close),
        ("control_chars", open_ + "\x00\x01\x1b[H\x7f\ufeff" + close),
        ("nan_inf", open_ + "NaN -inf inf" + close),
        ("deep_brackets", open_ + "[" * 20000 + "(" * 20000 + close),
        ("many_tags", (open_ + "qz" + close) * 20000),
        ("huge_digits", open_ + "9" * HUGE + close),
        ("huge_text", open_ + "lorem ipsum " * (HUGE // 12) + close),
        ("huge_no_tags", "x" * HUGE),
    ]


# ------------------------------------------------------------------------------------------
# Semantic mutants: wrong-looking answers chosen by the answer's shape
# ------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")


def is_number(token: str) -> bool:
    return bool(_NUMBER.match(token))


def near(answer: str, other: str, rel: float = 1e-3) -> bool:
    """Both are the same sequence of numbers up to a relative difference of ``rel`` (the
    mutant may lie within a stated tolerance: without a checker it cannot count as wrong)."""
    a, b = answer.split(), other.split()
    if not a or len(a) != len(b) or not all(is_number(x) and is_number(y) for x, y in zip(a, b, strict=True)):
        return False
    for x, y in zip(a, b, strict=True):
        fx, fy = float(x), float(y)
        if not (math.isfinite(fx) and math.isfinite(fy)):
            return False
        if abs(fx - fy) > rel * max(1.0, abs(fx), abs(fy)):
            return False
    return True


#: the character-level kinds whose mutants must be wrong (``swap_tokens`` may reorder an
#: order-free answer into another right one)
HARD_MUTATIONS = tuple(k for k in MUTATION_KINDS if k not in SOFT_MUTATIONS)


def hard_mutants(answer: str, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, mutant) for each hard kind that applies to ``answer``: a mutant that differs
    from it beyond whitespace and lies outside the 0.1 % a task may state as its tolerance
    (:func:`near`), so that a verifier must score it below 1.0. Production's audits (the
    consistency check's fresh cases, the export's spot-check) ask these."""
    out = []
    for kind in HARD_MUTATIONS:
        bad = mutate(kind, answer, rng)
        if bad is not None and " ".join(bad.split()) != " ".join(answer.split()) \
                and not near(answer, bad):
            out.append((kind, bad))
    return out


def mostly_accepted(tried: int, accepted: int) -> bool:
    """The mutation check's rule: a kind tried at least 3 times and accepted more often than
    not is a finding (one accepted mutant may be another right answer)."""
    return tried >= 3 and 2 * accepted > tried


def _fmt_like(token: str, value: float) -> str:
    if re.fullmatch(r"[+-]?\d+", token):
        return str(int(value))
    decimals = len(token.split(".", 1)[1]) if "." in token and "e" not in token.lower() else 6
    return f"{value:.{max(decimals, 1)}f}"


#: Semantic mutant kinds that may legitimately be correct (order-free answers, case-free
#: tasks, answers within a tolerance): without a checker their survivors are reported only.
SOFT_SEMANTIC = ("permute", "case_flip", "near_offset", "reverse")


def semantic_mutants(answer: str, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, mutant) pairs for ``answer``, chosen by its shape: numbers get sign flips, +-1
    and small offsets; text gets a case flip; token lists get an element added, dropped,
    duplicated, or the items permuted; every answer gets NaN / inf / empty."""
    out: list[tuple[str, str]] = []
    toks = answer.split()
    nums = [i for i, t in enumerate(toks) if is_number(t)]
    if nums:
        i = rng.choice(nums)
        tok = toks[i]
        value = float(tok)
        flipped = tok[1:] if tok.startswith("-") else ("-" + tok.lstrip("+") if value != 0 else None)
        if flipped is not None:
            out.append(("sign_flip", " ".join([*toks[:i], flipped, *toks[i + 1:]])))
        if re.fullmatch(r"[+-]?\d+", tok):
            for delta, kind in ((1, "plus_one"), (-1, "minus_one")):
                out.append((kind, " ".join([*toks[:i], str(int(tok) + delta), *toks[i + 1:]])))
        else:
            bumped = _fmt_like(tok, value + max(0.5, abs(value) * 0.1))
            out.append(("offset", " ".join([*toks[:i], bumped, *toks[i + 1:]])))
            decimals = len(tok.split(".", 1)[1]) if "." in tok and "e" not in tok.lower() else 0
            tiny = f"{value + 10.0 ** -decimals:.{decimals}f}" if decimals else tok
            if tiny != tok:
                out.append(("near_offset", " ".join([*toks[:i], tiny, *toks[i + 1:]])))
    if any(ch.isalpha() for ch in answer) and answer.swapcase() != answer:
        out.append(("case_flip", answer.swapcase()))
    if len(toks) >= 2:
        j = rng.randrange(len(toks))
        out.append(("drop_element", " ".join(toks[:j] + toks[j + 1 :])))
        out.append(("duplicate_element", " ".join([*toks[:j + 1], toks[j], *toks[j + 1:]])))
        extra = str(int(float(toks[nums[0]])) + 7) if nums else toks[j] + "x"
        out.append(("add_element", " ".join([*toks, extra])))
        if len(set(toks)) >= 2:
            shuffled = toks[:]
            for _ in range(20):
                rng.shuffle(shuffled)
                if shuffled != toks:
                    break
            if shuffled != toks:
                out.append(("permute", " ".join(shuffled)))
            if toks[::-1] != toks:
                out.append(("reverse", " ".join(toks[::-1])))
    for kind, text in (("nan", "nan"), ("inf", "inf"), ("empty", "")):
        if answer.strip().lower() != text:
            out.append((kind, text))
    seen: set[str] = {answer}
    unique: list[tuple[str, str]] = []
    for kind, text in out:
        if text not in seen:
            seen.add(text)
            unique.append((kind, text))
    return unique


def prompt_examples(prompt: str, open_: str, close: str) -> list[str]:
    """Answers a prompt shows as its format example (text between the answer tags)."""
    found: list[str] = []
    start = prompt.find(open_)
    while start >= 0 and len(found) < 5 and open_:
        end = prompt.find(close, start + len(open_))
        if end < 0:
            break
        found.append(prompt[start + len(open_) : end].strip())
        start = prompt.find(open_, end + len(close))
    return found


#: Answer tags the InternBootcamp-style probes try (the library's common ones).
CASE_TAGS = (("[answer]", "[/answer]"), ("<answer>", "</answer>"), ("\\boxed{", "}"))


def _renderings(value: object) -> list[str]:
    """A case value as an answer could spell it: its text, and a list as JSON, as a tuple,
    space- and comma-separated."""
    if isinstance(value, bool) or value is None:
        return [json.dumps(value)]
    if isinstance(value, int | float | str):
        return [str(value)]
    text = json.dumps(value, ensure_ascii=False)
    out = [text]
    if isinstance(value, list) and value and all(isinstance(x, int | float | str) for x in value):
        items = [str(x) for x in value]
        out += [" ".join(items), ",".join(items), "(" + ", ".join(items) + ")"]
    elif isinstance(value, list):
        out.append(text.replace("[", "(").replace("]", ")"))
    return out


def _leaves(value: object, depth: int = 0, out: list[object] | None = None) -> list[object]:
    """The first few scalar values nested in a case (below its top level)."""
    out = [] if out is None else out
    children = (list(value.values()) if isinstance(value, dict)
                else value if isinstance(value, list) else [])
    for child in children[:8]:
        if len(out) >= 8:
            break
        if isinstance(child, dict | list):
            if depth < 3:
                _leaves(child, depth + 1, out)
        elif depth > 0:
            out.append(child)
    return out


def case_answers(case_text: str, limit: int = 40) -> list[str]:
    """Responses made of a case's own values (and two garbage ones), in the answer tags
    InternBootcamp modules use: probes that need no reference answer. At most ``limit``."""
    try:
        case = json.loads(case_text)
    except (ValueError, RecursionError):
        case = {}
    answers = ["", "0"]
    if isinstance(case, dict):
        top = list(case.values())[:8]
        scalars = [v for v in top if not isinstance(v, dict | list)] + _leaves(case)
        for value in scalars + [v for v in top if isinstance(v, dict | list)]:
            answers += [r for r in _renderings(value) if len(r) <= 2000]
    responses = [answers[0]]
    for answer in dict.fromkeys(answers):
        responses += [open_ + answer + close for open_, close in CASE_TAGS]
    return list(dict.fromkeys(responses))[:limit]
