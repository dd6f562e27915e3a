"""What a statement promises about answers: "it is guaranteed that an answer exists".

When the statement makes that promise, an input on which the reference program prints a
"no solution" output (``-1``, ``NO``, ``Impossible``, or the output the statement names for
that case) is an input the statement does not allow. :func:`answer_guaranteed` finds the
promise; :func:`impossible_outputs` the outputs that mean "none".
"""

from __future__ import annotations

import re

from synth.statement.text import normalise

__all__ = ["answer_guaranteed", "impossible_outputs", "says_impossible"]

_PROMISE = re.compile(
    r"guaranteed\s+that\b[^.;]{0,120}?\b(?:exists?|can\s+(?:always\s+)?be\s+(?:reached|achieved|"
    r"obtained|found|formed|made|done|built|completed)|is\s+(?:always\s+)?(?:reachable|possible|"
    r"achievable|solvable|feasible)|has\s+(?:an?\s+|at\s+least\s+one\s+)?(?:answer|solution))\b|"
    r"guaranteed\s+that\s+at\s+least\s+one\b[^.;]{0,120}|"
    r"guaranteed\s+that\s+(?:(?:the|an?|at\s+least\s+one)\s+)?(?:valid\s+|correct\s+|possible\s+|"
    r"feasible\s+)?(?:answer|solution|\w+\s+(?:answer|solution))s?\s+(?:always\s+)?(?:exists?|is\s+"
    r"possible)|guaranteed\s+that\s+(?:there\s+is|there\s+exists|exists)\s+(?:at\s+least\s+one|an?)\s+|"
    r"guaranteed\s+that\s+at\s+least\s+one\s+(?:valid\s+|possible\s+)?\w+(?:\s+\w+)?\s+exists|"
    r"(?:answer|solution)\s+always\s+exists|always\s+(?:has|have)\s+(?:an?\s+|at\s+least\s+one\s+)?"
    r"(?:answer|solution)|guaranteed\s+to\s+(?:exist|have\s+(?:an?\s+)?(?:answer|solution))",
    re.I)
_NAMED = re.compile(r"(?:print|output|write)\s+[\"'“`]?(-1|NO|No|IMPOSSIBLE|Impossible|impossible|"
                    r"NONE|None|none|-)[\"'”`]?", re.I)
_DEFAULT = ("-1", "NO", "No", "no", "IMPOSSIBLE", "Impossible", "impossible", "NONE", "None",
            "No solution", "NO SOLUTION")


#: the Output section says what to print when there is no answer: then "none" is an answer
_NONE_CASE = re.compile(r"\bif\s+(?:there\s+(?:is|are)\s+no|no\s+(?:such|answer|solution|valid)|it\s+is\s+"
                        r"(?:not\s+possible|impossible)|the\s+answer\s+does\s+not\s+exist|no\s+set|"
                        r"(?:it|this)\s+cannot|there\s+(?:is|are)\s+not)|\bor\s+-1\b|\botherwise\s+"
                        r"print|\bimpossible\b", re.I)


def answer_guaranteed(text: str, output_spec: str = "") -> str | None:
    """The words promising an answer, or None (also None when ``output_spec`` says what to
    print when there is none: then such an output is a valid answer)."""
    if output_spec and _NONE_CASE.search(normalise(output_spec)):
        return None
    m = _PROMISE.search(normalise(text))
    return m.group(0) if m else None


def impossible_outputs(output_spec: str) -> tuple[str, ...]:
    """The outputs that mean "no answer": the ones the Output section names, and the usual."""
    named = tuple(m.group(1) for m in _NAMED.finditer(normalise(output_spec)))
    return tuple(dict.fromkeys(named + _DEFAULT))


def says_impossible(stdout: str, outputs: tuple[str, ...]) -> str | None:
    """The line of a program's output that is one of ``outputs`` (per test case), or None."""
    for line in stdout.strip().splitlines():
        if line.strip() in outputs:
            return line.strip()
    return None
