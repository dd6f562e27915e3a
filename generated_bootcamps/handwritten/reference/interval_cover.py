"""Reference program for the "Covering a Segment" task (bootcamp ``interval_cover``).

Standalone Python 3: reads the problem's standard input and prints the answer. It is written
independently of the bootcamp and uses a different algorithm, so it can serve as an oracle:
a breadth-first search over "covered prefix" states instead of the bootcamp's greedy sweep.

State ``a`` means the chosen intervals cover exactly ``[0, a]`` (a union containing 0 that is
connected). Adding an interval ``[l, r]`` with ``l <= a < r`` moves to state ``r``; intervals
that do not start inside the covered prefix, or do not extend it, are never useful next. The
fewest intervals is the BFS distance from state 0 to state M, or -1 if M is unreachable.
This is O(n^2) per test: plenty for the bootcamp's cases, not for the statement's limits.

Input: one test case (``n M``, then ``n`` lines ``l r``) or several concatenated one after
another; one answer line is printed per test case, so a whole batch can be checked with a
single process.
"""

from __future__ import annotations

import sys
from collections import deque


def min_cover(m: int, intervals: list[tuple[int, int]]) -> int:
    """Fewest intervals whose union contains [0, m] (m >= 1), or -1."""
    dist = {0: 0}
    queue = deque([0])
    while queue:
        covered = queue.popleft()
        if covered >= m:
            return dist[covered]
        for left, right in intervals:
            if left <= covered < right and right not in dist:
                dist[right] = dist[covered] + 1
                queue.append(right)
    return -1


def main() -> None:
    tokens = sys.stdin.read().split()
    pos = 0
    answers = []
    while pos < len(tokens):
        n, m = int(tokens[pos]), int(tokens[pos + 1])
        pos += 2
        intervals = []
        for _ in range(n):
            intervals.append((int(tokens[pos]), int(tokens[pos + 1])))
            pos += 2
        answers.append(str(min_cover(m, intervals)))
    sys.stdout.write("\n".join(answers) + "\n" if answers else "")


if __name__ == "__main__":
    main()
