"""Compiled bootcamp of bootcamp-synth; task: "Highest Point" (range-maximum questions over
the altitudes of a trail, 1-based checkpoints).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'prompt': prompt_func lists the questions with the
stored 0-based checkpoints, while render_stdin prints them 1-based as the statement says. The
reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

# The task's problem text, embedded by synth.compiled.assemble (do not edit): the
# contract's default prompt_func shows it with the case's input.
_TASK_TEXT = """\
Highest Point

A hiking trail passes n checkpoints; the altitude of the i-th checkpoint is h_i metres (it may be negative below sea level). Hikers often walk only a part of the trail, from checkpoint l to checkpoint r, and want to know the highest altitude they will reach.

Answer q such questions.

Input

The first line contains n (1 ≤ n ≤ 10^5), the number of checkpoints.

The second line contains n integers h_1, h_2, …, h_n (−10^9 ≤ h_i ≤ 10^9).

The third line contains q (1 ≤ q ≤ 10^5), the number of questions. Each of the next q lines contains two integers l and r (1 ≤ l ≤ r ≤ n) — the first and the last checkpoint of a walk.

Output

For each question print the largest of h_l, h_{l+1}, …, h_r on a line of its own.

Examples

Input

5
120 -40 300 15 300
3
1 2
2 4
4 4


Output

120
300
15


Input

2
-5 -7
2
2 2
1 2


Output

-7
-5


Note

In the first example the walk from checkpoint 2 to checkpoint 4 passes altitudes −40, 300 and 15, so the highest point is 300.
"""

# The task's reference program, embedded by synth.compiled.assemble (do not edit): the
# answer key is its standard output on render_stdin(identity).
_REFERENCE_PROGRAM = r"""import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:1 + n]]
    q = int(data[1 + n])
    table = [h]
    span = 1
    while 2 * span <= n:
        prev = table[-1]
        table.append([max(prev[i], prev[i + span]) for i in range(n - 2 * span + 1)])
        span *= 2
    out = []
    pos = 2 + n
    for _ in range(q):
        l, r = int(data[pos]) - 1, int(data[pos + 1])
        pos += 2
        k = (r - l).bit_length() - 1
        row = table[k]
        out.append(max(row[l], row[r - (1 << k)]))
    sys.stdout.write("\n".join(map(str, out)) + "\n")


main()
"""


def _render(identity: dict[str, Any]) -> str:
    h, queries = identity["h"], identity["queries"]
    lines = [str(len(h)), " ".join(map(str, h)), str(len(queries))]
    lines += [f"{l + 1} {r + 1}" for l, r in queries]  # stored 0-based, printed 1-based
    return "\n".join(lines) + "\n"


class HighestPointBootcamp(CompiledBootcamp):
    """The highest altitude of each walk."""
    REFERENCE_PROGRAM = _REFERENCE_PROGRAM
    TASK_TEXT = _TASK_TEXT

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_points": 5, "max_questions": 2, "max_abs": 50},
        "medium": {"max_points": 10, "max_questions": 4, "max_abs": 500},
        "hard": {"max_points": 20, "max_questions": 7, "max_abs": 5000},
    }

    def __init__(self, seed: int | None = None, max_points: int = 10, max_questions: int = 4,
                 max_abs: int = 500) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_points <= 1000 or not 1 <= max_questions <= 1000 or \
                not 1 <= max_abs <= 10**9:
            raise ValueError("need 2 <= max_points <= 1000, 1 <= max_questions <= 1000, "
                             "1 <= max_abs <= 10^9")
        self.max_points, self.max_questions, self.max_abs = max_points, max_questions, max_abs

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_points)
        h = [rng.randint(-self.max_abs, self.max_abs) for _ in range(n)]
        queries = []
        for _ in range(rng.randint(1, self.max_questions)):
            l, r = sorted((rng.randrange(n), rng.randrange(n)))
            queries.append([l, r])
        return {"h": h, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _render(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        h, queries = identity["h"], identity["queries"]
        shown = "\n".join([str(len(h)), " ".join(map(str, h)), str(len(queries))]
                          + [f"{l} {r}" for l, r in queries]) + "\n"
        return (
            "Highest Point\n\n"
            "A hiking trail passes n checkpoints numbered 1 to n; checkpoint i has altitude h_i "
            "metres (possibly negative). For each question (l, r) give the largest of "
            "h_l, ..., h_r.\n\n"
            "Input format: n; then h_1 ... h_n; then q; then q lines \"l r\" "
            "(1 <= l <= r <= n).\n\n"
            "Input:\n```\n" + shown + "```\n\n"
            "Output one integer per question, each on its own line, inside <answer></answer> "
            "tags."
        )
