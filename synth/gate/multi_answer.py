"""Probes of a compiled bootcamp's ``check_output`` (tasks with several valid outputs).

``check_output`` decides which answers besides the reference program's own are right, so a
lenient one teaches wrong answers. Without an independent checker the host cannot know every
valid answer; it asks ``verify_score`` (batched, one round trip per :data:`BATCH` probes) about
answers built from the reference program's output that must be wrong, and only where they
must be wrong, so that a correct checker of a genuinely multi-answer task is never rejected:

* **reuse** -- one token of the answer in place of another (an index or an element used
  twice). Counted only when the reference's own answer has pairwise-distinct index-like tokens
  and the statement asks for different ones ("distinct", "i ≠ j", "i < j", ...; without a
  statement: when no reference answer of the sample, at least 8 of them, repeats a token).
* **outside** -- an index outside the input: 0, -1, ``N + 1`` and (a list read modulo its
  length) ``v + N``, where ``N`` bounds every position the case's stdin could name (its longest
  line, its number of lines, its longest word). Counted only when every token of the
  reference answer lies in ``1..N`` (the answer is made of positions).
* **order** -- the two positions of a pair swapped, when the statement asks for ``p < q``.
* **other case** -- the reference answer of another case of the same level (when it differs;
  for positions, one naming only positions this case has), counted only when it is accepted on most of the cases tried (:data:`CROSS_SHARE`): a valid
  answer by chance is common on small cases, a checker that ignores the case accepts them
  nearly always.

A reuse, outside or order probe accepted on at least :data:`MIN_ACCEPTED` cases is the
finding ``check_output_lenient``, with the case, its stdin, the probe and why it must be wrong.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from synth.gate.calls import Failure, ask_many
from synth.gate.results import result
from synth.text import pyast

if TYPE_CHECKING:
    from synth.gate.suite import Suite

__all__ = ["CASES", "CROSS_SHARE", "MIN_ACCEPTED", "defines_check_output", "index_bound",
           "lenient_check_output", "probes"]

#: cases probed, spread over the levels
CASES = 120
#: a reuse / outside / order probe accepted on this many cases is a finding
MIN_ACCEPTED = 2
#: other cases' answers (within the case's positions): a finding when accepted on more than
#: this share of the cases tried (a right checker of the input corpus's odd_one_out accepts
#: ~55 %; one that checks only the answer's shape, all)
CROSS_SHARE = 0.9
CROSS_MIN_TRIED = 10
#: score calls per round trip
BATCH = 96
_INT = re.compile(r"-?\d{1,9}")
#: the statement asks for two positions in increasing order ("p < q", "i < j")
_ORDERED = re.compile(r"\b([a-z])\s*(?:<|<=|≤|\\leq?\b|(?:is\s+)?(?:smaller|less)\s+than)"
                      r"\s*([a-z])\b(?!\s*<)")
#: letters that name a bound, not an answer's position ("j ≤ n" is a range, not an order)
_BOUNDS = frozenset("nmkt")
_DIFFERENT = re.compile(r"\b(?:different|distinct|pairwise)\b|≠|!=|\\ne|\\neq|<\s*[a-z]\b|"
                        r"\bnot equal\b|\bnot the same\b|\b(?:smaller|less)\s+than\s+[a-z]\b", re.I)
WHY = {"reuse": "it uses one index (or element) twice where the statement asks for different "
                "ones, and the reference's own answer has none twice",
       "outside": "it names a position outside the input (every token of the reference answer "
                  "is a position in 1..N)",
       "order": "its two positions are in decreasing order, where the statement asks for "
                "increasing",
       "other_case": "it is another case's answer, and such answers are accepted on most "
                     "cases"}


def defines_check_output(source: str) -> bool:
    """Whether the module defines a ``check_output`` (read with ast on the host)."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "check_output" for n in ast.walk(tree))


def index_bound(stdin: str) -> int:
    """``N``: at least every position the input could name -- its longest line (in tokens),
    its number of lines, its longest word (a string's positions)."""
    lines = [ln.split() for ln in stdin.splitlines() if ln.strip()]
    if not lines:
        return 0
    longest = max(len(x) for x in lines)
    word = max((len(t) for x in lines for t in x if not _INT.fullmatch(t)), default=0)
    return max(longest, len(lines), word)


def probes(answer: str, stdin: str, *, different: bool, ordered: bool
           ) -> list[tuple[str, str]]:
    """(kind, probe) answers that must be wrong for this case (see the module docs)."""
    tokens = answer.split()
    if not tokens or len(tokens) > 200 or not all(_INT.fullmatch(t) for t in tokens):
        return []
    values = [int(t) for t in tokens]
    out: list[tuple[str, str]] = []
    if different and len(values) >= 2 and len(set(values)) == len(values):
        out.append(("reuse", " ".join([tokens[0], tokens[0], *tokens[2:]])))
        out.append(("reuse", " ".join([*tokens[:-1], tokens[-2]])))
    bound = index_bound(stdin)
    if bound and all(1 <= v <= bound for v in values):
        out.append(("outside", " ".join(["0", *tokens[1:]])))
        out.append(("outside", " ".join([*tokens[:-1], "-1"])))
        out.append(("outside", " ".join([*tokens[:-1], str(bound + 1)])))
        out.append(("outside", " ".join([*tokens[:-1], str(values[-1] + bound)])))
    if ordered and len(values) == 2 and values[0] < values[1]:
        out.append(("order", f"{tokens[1]} {tokens[0]}"))
    elif ordered:  # several lines of pairs ("k", then k lines "i j" with i < j): swap one
        rows = answer.strip().split("\n")
        for r, row in enumerate(rows):
            pair = row.split()
            if len(pair) == 2 and int(pair[0]) < int(pair[1]):
                swapped = [*rows[:r], f"{pair[1]} {pair[0]}", *rows[r + 1:]]
                out.append(("order", "\n".join(swapped)))
                break
    return list(dict.fromkeys((k, p) for k, p in out if p.split() != tokens))


def _output_section(text: str) -> str:
    """The statement's Output section (what it asks of an answer; the Input section's
    "distinct" or "l ≤ r" are about the input), else the whole text."""
    if not text:
        return ""
    try:
        from synth.statement import split_sections

        said = split_sections(text).output_spec
    except Exception:  # the parser's own failure on this text: read the whole of it
        return text
    return said if said and said.strip() else text


def _other_answer(answer: str, stdin: str, others: list[str | None]) -> str | None:
    """Another case's answer to try on this case: the first that differs and, when the
    answer is made of positions, names only positions this case has (a checker that checks
    the range but not the values then accepts it; a right one rejects it unless it happens
    to be right here)."""
    tokens = answer.split()
    bound = index_bound(stdin)
    positions = bool(tokens) and all(_INT.fullmatch(x) and 1 <= int(x) <= bound for x in tokens)
    for other in others:
        if other is None or other.split() == tokens:
            continue
        theirs = other.split()
        if positions and not all(_INT.fullmatch(x) and 1 <= int(x) <= bound for x in theirs):
            continue
        return other
    return None


def lenient_check_output(s: Suite) -> dict[str, Any] | None:
    """The failed result (finding ``check_output_lenient``) when a must-be-wrong answer
    passes ``check_output``, else None. Run by the mutation check."""
    if not defines_check_output(s.source):
        return None
    s.judged.add("check_output")
    text = _output_section(s.task_text or "")
    keys = s.spread(CASES, s.consistent)
    if not keys:
        return None
    stdins = s.stdins(keys)
    answers = {k: s.answers[k] for k in keys if k in s.answers}
    multi = [a.split() for a in answers.values() if len(a.split()) >= 2]
    if text:
        different = bool(_DIFFERENT.search(text))
    else:  # no statement: the reference never repeating a token is the evidence
        different = len(multi) >= 8 and all(len(set(t)) == len(t) for t in multi)
    ordered = any(not set(m.groups()) & _BOUNDS for m in _ORDERED.finditer(text))
    calls: list[tuple[str, tuple[int, int], str]] = []
    for n, key in enumerate(keys):
        answer, stdin = answers.get(key), stdins.get(key)
        if answer is None or stdin is None:
            continue
        calls += [(kind, key, p) for kind, p in probes(answer, stdin, different=different,
                                                         ordered=ordered)]
        other = _other_answer(answer, stdin, [answers.get(k) for k in keys[n + 1:] + keys[:n]
                                              if k[0] == key[0]])
        if other is not None:
            calls.append(("other_case", key, other))
    accepted: dict[str, list[tuple[tuple[int, int], str]]] = {}
    tried: dict[str, set[tuple[int, int]]] = {}
    for start in range(0, len(calls), BATCH):
        chunk = calls[start:start + BATCH]
        try:
            replies, elapsed = ask_many(
                s.cand.server, [("score", {"response": s.wrap(p), "case_text": s.cases[li][i]})
                                for _, (li, i), p in chunk],
                s.cfg.call_max_s, total_s=s.limit(15.0))
        except Failure:
            return None  # the session's failure: the other checks report it
        s.charge(elapsed)
        for (kind, key, p), (value, failure) in zip(chunk, replies, strict=False):
            if failure is not None:
                continue
            try:
                score = s.cand.score_value(value, p)
            except Failure:
                continue
            tried.setdefault(kind, set()).add(key)
            if score >= 1.0:
                accepted.setdefault(kind, []).append((key, p))
    for kind in ("reuse", "outside", "order", "other_case"):
        hits = accepted.get(kind, [])
        cases = {key for key, _ in hits}
        if kind == "other_case":
            n_tried = len(tried.get(kind, ()))
            if n_tried < CROSS_MIN_TRIED or len(cases) <= CROSS_SHARE * n_tried:
                continue
        elif len(cases) < MIN_ACCEPTED:
            continue
        (li, i), probe = hits[0]
        return result(
            "failed", f"{s.where(li, i)}: check_output accepts {probe!r}, an answer that must "
            f"be wrong ({WHY[kind]}); such answers were accepted on {len(cases)} of "
            f"{len(tried.get(kind, ()))} cases tried. Check every condition the statement puts "
            "on an answer (different indices, positions within 1..n, the order asked for, the "
            "case's own values)", finding="check_output_lenient", probe=probe, why=WHY[kind],
            reference_answer=s.answers[(li, i)], stdin=stdins.get((li, i)),
            case=s.cases[li][i])
    return None
