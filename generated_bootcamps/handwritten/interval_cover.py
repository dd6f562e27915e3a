"""Hand-written seed bootcamp of bootcamp-synth; task: minimum number of intervals to cover a segment.

A classic greedy problem in CodeContests style (Codeforces rating about 1300-1500): given ``n``
closed intervals ``[l_i, r_i]`` with integer endpoints and a segment ``[0, M]``, choose as few
intervals as possible whose union contains every point of ``[0, M]``, or report ``-1`` when
no choice does. Intervals that only touch (``[0, 2]`` and ``[2, 5]``) together cover ``[0, 5]``.

Cases are built around a random chain of overlapping intervals that covers the segment, plus
random distractors that sometimes shorten the optimal chain; a share of cases is made
impossible by cutting every interval that crosses one unit gap. :meth:`render_stdin` gives the
case in the statement's input format, for the standalone reference program
``reference/interval_cover.py``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from synth.bootcamp import BaseBootcamp

MAX_INTERVALS = 10_000
MAX_LENGTH = 10**9

# One number in an answer: an optional sign (ASCII or Unicode minus), digits, an optional
# fractional part ("3.0" is read as 3; "3.5" is not an integer and is rejected).
_NUMBER = re.compile(r"[-+\u2212]?[0-9]+(?:\.[0-9]+)?")
_MAX_ANSWER_CHARS = 1000

_STATEMENT = """\
Covering a Segment

You are given n closed intervals [l_i, r_i] on the number line, all with integer endpoints, and
the segment [0, M]. Choose the minimum number of the given intervals whose union contains every
point of [0, M] (every real point, not only the integers). Intervals that merely touch at an
endpoint join up: [0, 2] and [2, 5] together cover [0, 5]. If no choice of intervals covers
[0, M], the answer is -1.

Input
The first line contains two integers n and M (1 <= n <= 2*10^5, 1 <= M <= 10^9). Each of the
next n lines contains two integers l_i and r_i (0 <= l_i < r_i <= M), the endpoints of the i-th
interval. Intervals may overlap, nest or repeat.

Output
Print one integer: the minimum number of intervals needed to cover [0, M], or -1 if it is
impossible.
"""


def _render_input(identity: dict[str, Any]) -> str:
    """``n M`` on the first line, then ``l r`` for each interval, newline-terminated."""
    lines = [f"{len(identity['intervals'])} {identity['m']}"]
    lines += [f"{left} {right}" for left, right in identity["intervals"]]
    return "\n".join(lines) + "\n"


class IntervalCoverBootcamp(BaseBootcamp):
    """Minimum number of given intervals whose union covers ``[0, M]`` (or -1)."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_intervals": 3, "max_intervals": 6, "min_length": 5, "max_length": 20},
        "medium": {"min_intervals": 8, "max_intervals": 15, "min_length": 20, "max_length": 100},
        "hard": {"min_intervals": 20, "max_intervals": 40, "min_length": 100, "max_length": 1000},
    }

    def __init__(
        self,
        seed: int | None = None,
        min_intervals: int = 8,
        max_intervals: int = 15,
        min_length: int = 20,
        max_length: int = 100,
        impossible_rate: float = 0.2,
    ) -> None:
        """Validate and store the difficulty parameters.

        A case has ``min_intervals..max_intervals`` intervals and a segment length ``M`` in
        ``min_length..max_length``; about ``impossible_rate`` of the cases have answer -1.
        """
        super().__init__(seed=seed)
        if not 1 <= min_intervals <= max_intervals <= MAX_INTERVALS:
            raise ValueError(f"need 1 <= min_intervals <= max_intervals <= {MAX_INTERVALS}")
        if not 2 <= min_length <= max_length <= MAX_LENGTH:
            raise ValueError(f"need 2 <= min_length <= max_length <= {MAX_LENGTH}")
        if not 0.0 <= impossible_rate <= 1.0:
            raise ValueError("impossible_rate must lie in [0, 1]")
        self.min_intervals, self.max_intervals = min_intervals, max_intervals
        self.min_length, self.max_length = min_length, max_length
        self.impossible_rate = impossible_rate

    def case_generator(self) -> dict[str, Any]:
        """One case: ``{"m": M, "intervals": [[l, r], ...]}`` with ``0 <= l < r <= M``."""
        rng = self.rng
        m = rng.randint(self.min_length, self.max_length)
        n = rng.randint(self.min_intervals, self.max_intervals)
        # A chain of k intervals covering [0, m]: cut [0, m] at k - 1 distinct points and let
        # each piece reach back by a random overlap into the previous one.
        k = min(n, m, rng.randint(max(2, n // 3), max(2, 2 * n // 3)))
        cuts = [0, *sorted(rng.sample(range(1, m), k - 1)), m]
        overlap = max(1, m // (2 * k))
        intervals = [[max(0, cuts[j] - rng.randint(0, overlap)), cuts[j + 1]] for j in range(k)]
        # Distractors, up to about two chain pieces long, so that some shorten the chain.
        reach = max(1, 2 * m // k)
        for _ in range(n - k):
            left = rng.randint(0, m - 1)
            intervals.append([left, rng.randint(left + 1, min(m, left + reach))])
        if rng.random() < self.impossible_rate:
            gap = rng.randint(0, m - 1)
            intervals = [self._avoid_gap(interval, gap, m) for interval in intervals]
        rng.shuffle(intervals)
        return {"m": m, "intervals": intervals}

    @staticmethod
    def _avoid_gap(interval: list[int], gap: int, m: int) -> list[int]:
        """Cut ``interval`` so that it no longer covers the unit gap ``(gap, gap + 1)``.

        The longer remaining side is kept; a unit interval ``[gap, gap + 1]`` moves next door.
        """
        left, right = interval
        if right <= gap or left >= gap + 1:
            return interval
        if gap - left >= right - gap - 1 and gap > left:
            return [left, gap]
        if right > gap + 1:
            return [gap + 1, right]
        return [gap + 1, gap + 2] if gap + 2 <= m else [gap - 1, gap]

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        """The case in the statement's input format: ``n M`` then one ``l r`` line each."""
        return _render_input(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        """The full statement, this case's input, and the answer format."""
        return (
            f"{_STATEMENT}\n"
            f"Solve the problem for this input:\n\n{_render_input(identity)}\n"
            "Give only the integer the program would print (for example -1 if the segment "
            "cannot be covered). Put your final answer inside <answer></answer> tags, "
            "e.g. <answer>3</answer>."
        )

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """Greedy in O(n log n): from the covered prefix [0, reach], take the interval that
        starts inside it and ends furthest right; -1 when none extends the reach."""
        m = identity["m"]
        intervals = sorted(identity["intervals"])
        reach, count, i = 0, 0, 0
        while reach < m:
            best = reach
            while i < len(intervals) and intervals[i][0] <= reach:
                best = max(best, intervals[i][1])
                i += 1
            if best == reach:
                return "-1"
            reach, count = best, count + 1
        return str(count)

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        """Accept an answer that contains exactly one number, equal to the minimum (or -1).

        Surrounding words are tolerated ("The answer is 3."); several numbers ("2 or 3"), a
        non-integer or a missing number are rejected. The answer is unique, so comparing
        with the reference value is the rule check.
        """
        if not isinstance(solution, str) or len(solution) > _MAX_ANSWER_CHARS:
            return False
        numbers = _NUMBER.findall(solution)
        if len(numbers) != 1:
            return False
        number = numbers[0].replace("\u2212", "-")
        whole, _, fraction = number.partition(".")
        if fraction.strip("0"):
            return False
        return int(whole) == int(cls.reference_answer(identity))
