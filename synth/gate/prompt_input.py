"""Two judgements about what a prompt shows (host side, from the prompts, stdins and scores
the sandboxed bootcamp returned): the first is the ``prompt`` check's, the second the
``mutation`` check's (it scores answers, so it runs once self_consistency has seen
``verify_score`` answer: a verifier that hangs is reported there, not blamed on the prompt):

* :func:`hidden_input` -- the prompt shows the input the program reads. For a bootcamp whose
  answer key is a reference program's output on ``render_stdin(case)`` (a compiled bootcamp:
  :func:`applies`), every case's prompt must contain ``render_stdin``'s text as a block of
  lines (whitespace inside a line, blank lines, trailing whitespace and a final newline aside).
  Otherwise the model is asked about one input and graded on another: the finding
  ``prompt_hides_input``, with both texts and the first line where they differ.
* :func:`copied_answers` -- an answer copied from the prompt. When the answer is an arrangement
  of items the prompt lists ("order these so that ..."), the list exactly as the prompt shows
  it is tried as the answer (in the reference answer's format). A generator that often emits
  the items already in a valid order lets a model score by copying: the finding
  ``answer_is_input`` when that list is accepted on :data:`COPIED_SHARE` of the cases tried
  (or :data:`COPIED_LEVEL_SHARE` of one level's).
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from synth.gate.calls import Failure, ask_many
from synth.gate.results import norm, result
from synth.text import pyast

if TYPE_CHECKING:
    from synth.gate.suite import Suite

__all__ = ["COPIED_LEVEL_SHARE", "COPIED_SHARE", "applies", "copied_answers",
           "first_difference", "hidden_input", "is_compiled", "lines_of", "shows_block"]

#: an answer copied from the prompt is accepted on this share of the cases tried ...
COPIED_SHARE = 0.25
#: ... or on this share of one level's cases (at least :data:`COPIED_MIN_LEVEL` tried there)
COPIED_LEVEL_SHARE = 0.5
COPIED_MIN_LEVEL = 4
#: fewest cases with an accepted copy for a finding (one or two can be chance)
COPIED_MIN_CASES = 3
#: an answer of fewer distinct items is not judged (a random order is too often valid)
MIN_ITEMS = 3
#: candidate lists tried per case, and scoring calls per round trip
PER_CASE = 3
#: a verify_score call slower than this: the probe is not run (the timing check reports it)
SLOW_SCORE_S = 0.05
_BATCH = 64
_INT_TOKEN = re.compile(r"-?\d+")
_ITEM = re.compile(r"[^\s,;()\[\]{}\"'`]+")
_TRIM = ".:!?"


def lines_of(text: str) -> list[str]:
    """The text's non-blank lines, each with its whitespace collapsed to single spaces."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _fits(line: str, inside: str, *, start: bool, end: bool) -> bool:
    """``line`` is ``inside``, or (at the block's first / last line) the end / start of it,
    or (a one-line block) a run of it between token boundaries."""
    if line == inside:
        return True
    if start and end:
        at = inside.find(line)
        while at >= 0:
            before = inside[at - 1] if at else " "
            after = inside[at + len(line)] if at + len(line) < len(inside) else " "
            if not before.isalnum() and not after.isalnum():
                return True
            at = inside.find(line, at + 1)
        return False
    if start:
        return inside.endswith(line) and (len(inside) == len(line)
                                          or not inside[-len(line) - 1].isalnum())
    if end:
        return inside.startswith(line) and (len(inside) == len(line)
                                            or not inside[len(line)].isalnum())
    return False


def _run(want: list[str], got: list[str], k: int) -> int:
    """How many lines of ``want`` match ``got`` from line ``k`` on."""
    m = 0
    while m < len(want) and k + m < len(got):
        if not _fits(want[m], got[k + m], start=m == 0, end=m == len(want) - 1):
            break
        m += 1
    return m


def shows_block(stdin: str, prompt: str) -> bool:
    """Whether ``prompt`` contains ``stdin`` as a block of lines (see the module docs)."""
    want, got = lines_of(stdin), lines_of(prompt)
    if not want:
        return True
    return any(_run(want, got, k) == len(want) for k in range(len(got)))


def first_difference(stdin: str, prompt: str) -> dict[str, Any]:
    """Where the prompt's closest block of lines first differs from the stdin."""
    want, got = lines_of(stdin), lines_of(prompt)
    best_k, best = -1, -1
    for k in range(len(got)):
        m = _run(want, got, k)
        if m > best:
            best_k, best = k, m
    if best <= 0:
        return {"stdin_line": 1, "expected": want[0] if want else "",
                "prompt_has": "(no line of the prompt shows it)"}
    at = best_k + best
    return {"stdin_line": best + 1, "expected": want[best],
            "prompt_has": got[at] if at < len(got) else "(the prompt ends there)"}


def is_compiled(source: str) -> bool:
    """Whether the module's bootcamp derives from ``CompiledBootcamp`` (read with ast), whose
    answer key is the program's output on ``render_stdin``. A full-mode bootcamp with a
    ``render_stdin`` computes its own answers from the case and may state the case in prose
    (the program is only an oracle there), so the rule does not apply to it."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    derived = {"CompiledBootcamp"}
    for _ in range(len(classes)):  # subclasses of subclasses of the module
        for cls in classes:
            names = {b.id if isinstance(b, ast.Name) else b.attr for b in cls.bases
                     if isinstance(b, ast.Name | ast.Attribute)}
            if names & derived:
                derived.add(cls.name)
    return len(derived) > 1


def applies(s: Suite) -> bool:
    """Whether the prompt must show ``render_stdin``'s text: a compiled bootcamp judged with
    its (embedded or given) reference program."""
    return (s.reference is not None and "render_stdin" in set(s.info.get("defines") or [])
            and is_compiled(s.source))


def hidden_input(s: Suite) -> dict[str, Any] | None:
    """The failed result of a compiled bootcamp's prompt that does not show
    ``render_stdin``'s text, else None (see :func:`applies`)."""
    if not applies(s):
        return None
    stdins = s.stdins([key for key in s.prompts])
    hidden = [key for key, stdin in stdins.items()
              if stdin is not None and not shows_block(stdin, s.prompts[key])]
    if not hidden:
        return None
    li, i = hidden[0]
    stdin, prompt = stdins[(li, i)] or "", s.prompts[(li, i)]
    diff = first_difference(stdin, prompt)
    return result(
        "failed", f"{s.where(li, i)}: the prompt does not show the input the reference program "
        f"reads ({len(hidden)} of {len(stdins)} prompts); render_stdin's line "
        f"{diff['stdin_line']} is {diff['expected'][:80]!r}, the prompt shows "
        f"{diff['prompt_has'][:80]!r} there. The answer key is the program's output on "
        "render_stdin(identity): show exactly that input in the prompt (same values, order, "
        "fields and numbering)", finding="prompt_hides_input", stdin=stdin, prompt=prompt,
        first_difference=diff, case=s.cases[li][i])


def _items(text: str) -> list[str]:
    out = []
    for raw in _ITEM.findall(text):
        token = raw.rstrip(_TRIM)
        if token:
            out.append(token)
    return out


def _without_examples(prompt: str, open_: str, close: str) -> str:
    """The prompt with its answer-format examples (text between the answer tags) cut out."""
    if not open_ or not close:
        return prompt
    return re.sub(re.escape(open_) + r".*?" + re.escape(close), " ", prompt, flags=re.S)


def _in_format(answer: str, items: list[str]) -> str:
    """``items`` written in the reference answer's format (its separators kept)."""
    parts = re.split(r"([^\s,;]+)", answer)
    tokens = iter(items)
    return "".join(next(tokens) if k % 2 else part for k, part in enumerate(parts))


def _shape(token: str) -> str:
    return re.sub(r"\d+", "#", token)


def _whole_list(seq: list[str], at: list[int]) -> bool:
    """Whether the items at positions ``at`` of ``seq`` are a whole list the prompt shows:
    a constant stride, the same filler between items (numbers in it aside; numeric items need
    a filler of words or none), and the list does not go on before the first item or after
    the last (no token of the items' shape there followed by the same filler)."""
    stride = at[1] - at[0]
    pairs = list(itertools.pairwise(at))
    if stride < 1 or any(b - a != stride for a, b in pairs):
        return False
    filler = [_shape(x) for x in seq[at[0] + 1:at[1]]]
    if any([_shape(x) for x in seq[a + 1:b]] != filler for a, b in pairs):
        return False
    numeric = all(_INT_TOKEN.fullmatch(seq[k]) for k in at)
    if numeric and filler and all(x == "#" or x == "-#" for x in filler):
        return False  # numbers among numbers: a selection of a longer list
    if not numeric and not filler:
        return True  # a run of words: its neighbours are words too, nothing to tell
    for k in (at[0] - stride, at[-1] + stride):
        if not 0 <= k < len(seq) or (numeric and not _INT_TOKEN.fullmatch(seq[k])):
            continue
        if [_shape(x) for x in seq[k + 1:k + stride]] == filler:
            return False  # the list goes on: these items are a selection of it
    return True


def copy_candidates(prompt: str, answer: str, open_: str, close: str) -> list[str] | None:
    """Answers copied from the prompt: every run of the prompt's items that holds exactly
    the reference answer's items (an arrangement of them), in the answer's format. None when
    the answer is not an arrangement of at least :data:`MIN_ITEMS` distinct items."""
    want = re.findall(r"[^\s,;]+", answer)
    if len(set(want)) < MIN_ITEMS or len(want) > 2000:
        return None
    need = Counter(want)
    seq = _items(_without_examples(prompt, open_, close))
    n = len(want)
    found: list[str] = []
    if len(seq) < n:
        return found
    # items listed with their attributes ("ant (due day 3), bee (due day 1)"): every item of
    # the answer occurs once, at a constant stride, with the same words between them, and the
    # list neither goes on before the first nor after the last (a whole list, not a selection)
    have = Counter(seq)
    if len(need) == n and all(have[item] == 1 for item in need):
        place = {item: k for k, item in enumerate(seq) if item in need}
        run = sorted(want, key=place.__getitem__)
        if _whole_list(seq, sorted(place.values())):
            found.append(answer if run == want else _in_format(answer, run))
    # the window of n items slides along; ``off`` counts the items whose count in it differs
    # from the answer's (0: the window is an arrangement of the answer's items)
    window = Counter(seq[:n])
    off = sum(window[k] != need[k] for k in set(need) | set(window))
    for start in range(len(seq) - n + 1):
        if start:
            for item, step in ((seq[start - 1], -1), (seq[start + n - 1], 1)):
                was = window[item] == need[item]
                window[item] += step
                off += was - (window[item] == need[item])
        if off == 0 and _whole_list(seq, list(range(start, start + n))):
            run = seq[start:start + n]
            text = answer if run == want else _in_format(answer, run)
            if text not in found:
                found.append(text)
        if len(found) >= PER_CASE:
            break
    return found


def copied_answers(s: Suite) -> dict[str, Any] | None:
    """The failed result when answers copied from the prompts are accepted too often (see the
    module docs), else None. Scores go through ``verify_score`` in batches; a verifier that
    fails here is left to the answer checks."""
    try:
        open_, close = s.tags()
    except Failure:
        return None
    tried: dict[tuple[int, int], list[str]] = {}
    for key, prompt in s.prompts.items():
        answer = s.answers.get(key)
        if answer is None:
            continue
        found = copy_candidates(prompt, answer, open_, close)
        if found is not None:
            tried[key] = found
    if len(tried) < COPIED_MIN_CASES:
        return None
    copied: dict[tuple[int, int], str] = {}
    calls: list[tuple[tuple[int, int], str]] = []
    for key, found in tried.items():
        ref = norm(s.answers[key])
        same = next((c for c in found if norm(c) == ref), None)
        if same is not None:
            copied[key] = same  # the reference answer itself is in the prompt
        else:
            calls += [(key, c) for c in found]
    if calls:  # one call first: a slow verifier is the timing check's to report, not this one's
        (li, i), cand = calls[0]
        try:
            _, dt = s.cand.score(open_ + cand + close, s.cases[li][i], s.limit(s.cfg.call_max_s))
        except Failure:
            return None
        if dt > SLOW_SCORE_S:
            return None
    for start in range(0, len(calls), _BATCH):
        chunk = calls[start:start + _BATCH]
        try:
            replies, _ = ask_many(
                s.cand.server, [("score", {"response": open_ + c + close,
                                           "case_text": s.cases[k[0]][k[1]]}) for k, c in chunk],
                s.cfg.call_max_s, total_s=s.limit(10.0))
        except Failure:
            return None
        for (key, cand), (value, failure) in zip(chunk, replies, strict=False):
            if failure is not None or key in copied:
                continue
            try:
                score = s.cand.score_value(value, open_ + cand + close)
            except Failure:
                return None
            if score >= 1.0:
                copied[key] = cand
    per_level: dict[int, list[int]] = {}
    for li, _ in tried:
        per_level.setdefault(li, [0, 0])[1] += 1
    for li, _ in copied:
        per_level[li][0] += 1
    levels = ", ".join(f"{s.levels[li][0]}: {a}/{b}" for li, (a, b) in sorted(per_level.items()))
    share = len(copied) / len(tried)
    dense = [li for li, (a, b) in per_level.items()
             if b >= COPIED_MIN_LEVEL and a / b >= COPIED_LEVEL_SHARE]
    if len(copied) < COPIED_MIN_CASES or (share < COPIED_SHARE and not dense):
        return None
    key = next(k for k in copied if not dense or k[0] in dense)
    li, i = key
    return result(
        "failed", f"{len(copied)} of {len(tried)} cases are answered by copying a list from the "
        f"prompt as it is shown (first: {s.where(li, i)}; per level: {levels}), so a model "
        "scores without solving: either the generator emits the items already in a valid "
        "order (shuffle them, and check that the shown order is not already an answer), or "
        "verify_score accepts the items in an order the task does not allow (check the order)",
        finding="answer_is_input", copied_answer=copied[key],
        reference_answer=s.answers[key], prompt=s.prompts[key], case=s.cases[li][i])
