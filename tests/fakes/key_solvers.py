"""The scripted judge model's *reference solvers* (prompts/key_solver.j2) for the compiled tasks
of the fake endpoint's scenarios: one program per problem title, written for the tests
independently of the tasks' reference programs (other algorithms), so that the gate's key check
has a second voter on tasks whose data carry one solution.

:func:`answer` is what every scenario replies to a solver prompt for one of these titles
(``scenarios.build`` routes it); a scenario with solver prompts of its own handles the rest.
"""

from __future__ import annotations

from fakes.openai_server import Reply, Request

PREFIX = "You write *reference solvers*"

#: "One Wall Down": BFS from S and from T over free cells; the best wall joins the two
ONE_WALL_DOWN = '''import sys
from collections import deque


def bfs(rows, n, m, source):
    far = [[-1] * m for _ in range(n)]
    far[source[0]][source[1]] = 0
    todo = deque([source])
    while todo:
        r, c = todo.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a, b = r + dr, c + dc
            if 0 <= a < n and 0 <= b < m and rows[a][b] != "#" and far[a][b] < 0:
                far[a][b] = far[r][c] + 1
                todo.append((a, b))
    return far


def main():
    tokens = sys.stdin.read().split()
    n, m = int(tokens[0]), int(tokens[1])
    rows = tokens[2:2 + n]
    where = {ch: (r, c) for r in range(n) for c in range(m) for ch in "ST" if rows[r][c] == ch}
    from_s, from_t = bfs(rows, n, m, where["S"]), bfs(rows, n, m, where["T"])
    best = from_s[where["T"][0]][where["T"][1]]
    best = best if best >= 0 else None
    for r in range(n):
        for c in range(m):
            if rows[r][c] != "#":
                continue
            near_s = near_t = None
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = r + dr, c + dc
                if 0 <= a < n and 0 <= b < m:
                    if from_s[a][b] >= 0 and (near_s is None or from_s[a][b] < near_s):
                        near_s = from_s[a][b]
                    if from_t[a][b] >= 0 and (near_t is None or from_t[a][b] < near_t):
                        near_t = from_t[a][b]
            if near_s is not None and near_t is not None:
                through = near_s + near_t + 2
                if best is None or through < best:
                    best = through
    print(-1 if best is None else best)


main()
'''

#: "Strangers to m": the primes of m, then inclusion-exclusion by recursion over them
STRANGERS = '''import sys


def primes_of(m):
    found, p = [], 2
    while p * p <= m:
        if m % p == 0:
            found.append(p)
            while m % p == 0:
                m //= p
        p += 1
    return found + ([m] if m > 1 else [])


def coprime_up_to(n, primes, start=0, product=1, sign=1):
    total = sign * (n // product)
    for i in range(start, len(primes)):
        if product * primes[i] > n:
            continue
        total += coprime_up_to(n, primes, i + 1, product * primes[i], -sign)
    return total


def main():
    numbers = list(map(int, sys.stdin.read().split()))
    t = numbers[0]
    answers = []
    for q in range(t):
        n, m = numbers[1 + 2 * q], numbers[2 + 2 * q]
        answers.append(coprime_up_to(n, primes_of(m)))
    print("\\n".join(map(str, answers)))


main()
'''

#: "Bulbs Without Long Glows": a(n) = a(n-1) + ... + a(n-k), a(i) = 2^i below k, by the
#: companion matrix's powers
BULBS = '''MOD = 10**9 + 7


def multiply(x, y):
    size = len(x)
    return [[sum(x[i][t] * y[t][j] for t in range(size)) % MOD for j in range(size)]
            for i in range(size)]


def power(matrix, e):
    size = len(matrix)
    out = [[int(i == j) for j in range(size)] for i in range(size)]
    while e:
        if e & 1:
            out = multiply(out, matrix)
        matrix = multiply(matrix, matrix)
        e >>= 1
    return out


n, k = map(int, input().split())
if n < k:
    print(pow(2, n, MOD))
else:
    companion = [[1] * k] + [[int(j == i - 1) for j in range(k)] for i in range(1, k)]
    start = [pow(2, i, MOD) for i in range(k - 1, -1, -1)]  # a(k-1), ..., a(0)
    top = power(companion, n - k + 1)[0]
    print(sum(a * b for a, b in zip(top, start)) % MOD)
'''

#: the candy tasks of the validator scenario: half the total
CANDY = "import sys\n\nbags = list(map(int, sys.stdin.read().split()))[1:]\nprint(sum(bags) // 2)\n"

SOLVERS = {"One Wall Down": ONE_WALL_DOWN, "Strangers to m": STRANGERS,
           "Bulbs Without Long Glows": BULBS, "Even Split": CANDY, "Fair Candy Share": CANDY}


def answer(req: Request) -> Reply | None:
    """The reply to a solver prompt for one of :data:`SOLVERS`' problems, else None."""
    text = req.last_user
    if not text.startswith(PREFIX):
        return None
    problem = text.split("## The problem", 1)[-1][:400]
    title = next((t for t in SOLVERS if t in problem), None)
    if title is None:
        return None
    return Reply(text=f"Here is a solver.\n\n```python\n{SOLVERS[title]}```\n")
