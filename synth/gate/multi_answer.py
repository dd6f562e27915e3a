"""Probes of a compiled bootcamp's ``check_output`` (tasks with several valid outputs), and the
rule that a compiled bootcamp's prompt shows the input its program reads.

``check_output`` decides which answers besides the reference program's own are right, so a
lenient one teaches wrong answers. Without an independent checker the host cannot know every
valid answer, so it asks only about answers that must be wrong *for index-like answers*: the
reference answer with one index reused in place of another (when the statement asks for
different or increasing indices and the reference's own are pairwise distinct), and with an
index moved outside the input (0 or -1, when every index of the reference answer is at least
1). Each probe goes through ``verify_score`` in the sandbox; a probe accepted on at least
:data:`MIN_ACCEPTED` cases is the finding ``check_output_lenient`` with the case and the answer.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from synth import pyast
from synth.gate.calls import Failure
from synth.gate.suite import Suite, result

__all__ = ["MIN_ACCEPTED", "probe_check_output", "prompt_shows_input"]

#: cases probed, spread over the levels
CASES = 40
#: a probe kind accepted on this many cases is a finding (one could be a coincidence)
MIN_ACCEPTED = 2
#: the statement asks for two positions in increasing order ("p < q", "i < j")
_ORDERED = re.compile(r"\b([a-z])\s*<\s*([a-z])\b(?!\s*<)")
_DIFFERENT = re.compile(r"\b(?:different|distinct)\b|≠|!=|\\ne|<\s*[a-z]\b|\btwice\b", re.I)


def _probes(answer: str, stdin: str = "") -> list[tuple[str, str]]:
    tokens = answer.split()
    if not tokens or len(tokens) > 50 or not all(re.fullmatch(r"\d+", t) for t in tokens):
        return []
    out: list[tuple[str, str]] = []
    values = [int(t) for t in tokens]
    if len(values) >= 2 and len(set(values)) == len(values):
        out.append(("reuse", " ".join([tokens[0], tokens[0], *tokens[2:]])))
        out.append(("reuse", " ".join([tokens[1], tokens[1], *tokens[2:]])))
    if min(values) >= 1:
        out.append(("outside", " ".join(["0", *tokens[1:]])))
        out.append(("outside", " ".join([*tokens[:-1], "0"])))
        # one past the end of a list the input gives (a line of that many values)
        sizes = {len(line.split()) for line in stdin.splitlines() if len(line.split()) > 2}
        for size in sorted(sizes)[:2]:
            if max(values) <= size:
                out.append(("outside", " ".join([*tokens[:-1], str(size + 1)])))
                out.append(("outside", " ".join([*tokens[:-1], str(values[-1] + size)])))
    if len(values) == 2 and values[0] < values[1]:
        out.append(("order", f"{tokens[1]} {tokens[0]}"))
    return out


def probe_check_output(s: Suite, text: str) -> dict[str, Any] | None:
    """A failed result when a must-be-wrong answer passes ``check_output``, else None."""
    if not defines_check_output(s.source):
        return None
    different = bool(_DIFFERENT.search(text or ""))
    ordered = bool(_ORDERED.search(text or ""))
    accepted: dict[str, list[tuple[int, int, str]]] = {"reuse": [], "outside": [], "order": []}
    for li, i in s.spread(CASES):
        try:
            answer = s.answer(li, i)
        except Failure:
            continue
        stdin = ""
        if s.reference is not None:
            try:
                stdin, _ = s.cand.stdin(s.cases[li][i], s.limit(2.0))
            except Failure:
                stdin = ""
        for kind, probe in _probes(answer, stdin):
            if (kind == "reuse" and not different) or (kind == "order" and not ordered):
                continue
            if probe == answer:
                continue
            try:
                score, _ = s.score(s.wrap(probe), s.cases[li][i])
            except Failure:
                continue
            if score == 1.0:
                accepted[kind].append((li, i, probe))
    for kind, hits in accepted.items():
        cases = {(li, i) for li, i, _ in hits}
        if len(cases) >= MIN_ACCEPTED:
            li, i, probe = hits[0]
            why = {"reuse": "it uses one index twice, where the statement asks for different ones",
                   "outside": "it names a position outside the input",
                   "order": "its two positions are in decreasing order, where the statement asks "
                            "for increasing"}[kind]
            return result("failed", f"{s.where(li, i)}: check_output accepts {probe!r}, an answer "
                          f"that must be wrong ({why}); {len(cases)} cases accepted such an "
                          f"answer. Check every condition the statement puts on an answer",
                          finding="check_output_lenient", probe=probe, why=why,
                          reference_answer=s.answer(li, i), case=s.cases[li][i])
    return None


def defines_check_output(source: str) -> bool:
    """Whether the module defines a ``check_output`` (read with ast on the host)."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "check_output" for n in ast.walk(tree))


def _norm(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def prompt_shows_input(s: Suite, rendered: list[tuple[int, int, str]],
                       limit: int = 30) -> dict[str, Any] | None:
    """A failed result when a compiled bootcamp's prompt does not contain ``render_stdin``'s
    text (whitespace inside a line and blank lines aside), else None."""
    step = max(1, len(rendered) // limit)
    for li, i, stdin in rendered[::step][:limit]:
        try:
            prompt, _ = s.cand.prompt(s.cases[li][i], s.limit(2.0))
        except Failure:
            return None  # the prompt check reports a prompt_func that fails
        want, got = _norm(stdin), _norm(prompt)
        if want and want not in got:
            lines = want.splitlines()
            missing = next((ln for ln in lines if ln not in got.splitlines()), lines[0])
            return result("failed", f"{s.where(li, i)}: the prompt does not show the input the "
                          f"reference program reads (render_stdin's text); e.g. the line "
                          f"{missing[:80]!r} is not in it. The answer key is the program's output "
                          "on that input: show exactly render_stdin(identity) in the prompt",
                          finding="prompt_hides_input", stdin=stdin, prompt=prompt,
                          missing_line=missing, case=s.cases[li][i])
    return None
