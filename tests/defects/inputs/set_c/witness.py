"""Witnesses of the set_c input-validity corpus: each defect shown concretely, by hand.

    .venv/bin/python tests/defects/inputs/set_c/witness.py [NAME ...]   # from the repo root

Nothing here reads synth's statement parser or gate. The validators (``CHECKS[task](stdin) ->
str | None``: the rule an input breaks, prefixed by ``bounds:``, ``guarantee:`` or
``format:``, or None when the statement allows it) and the answer checkers
(``CORRECT[task](identity, answer) -> bool``) are written by hand from the statements in
``_src/``. A module (a trusted test fixture) is imported with importlib, and its generator is
run for 60 cases per level (seeds 0..59, one case per seed). By kind, a witness is:

* input (kinds ``bounds``, ``guarantee``, ``format``) -- a generated standard input that the
  task's validator rejects, with the rule it breaks;
* prompt       -- a generated case whose prompt does not contain render_stdin's text verbatim
                  (and the lines that differ);
* check_output -- a wrong answer (an index reused, an index outside the input, a pair in the
                  wrong order, ...) that the module's check_output accepts while the
                  hand-written checker rejects it.

``witness(path, task)`` computes all three for a module; a clean module shows none of them.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(HERE.parent) not in sys.path:  # after the set's own folder: for _fork_runs only
    sys.path.append(str(HERE.parent))

from _fork_runs import run_many  # noqa: E402

SEEDS = range(60)
WITNESSES = ("input", "prompt", "check_output")
#: the witness each kind of defect must show
WITNESS_OF = {"bounds": "input", "guarantee": "input", "format": "input", "prompt": "prompt",
              "check_output": "check_output"}


# ------------------------------------------------------------------------------------------
# loading and generating
# ------------------------------------------------------------------------------------------


@cache
def load_class(path: Path) -> type:
    """The bootcamp class a module defines (a trusted fixture: imported in this process)."""
    from synth.bootcamp import CompiledBootcamp

    spec = importlib.util.spec_from_file_location(f"set_c_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = [v for v in vars(module).values() if isinstance(v, type)
             and issubclass(v, CompiledBootcamp) and v is not CompiledBootcamp
             and v.__module__ == module.__name__]
    assert len(found) == 1, f"{path.name}: {len(found)} bootcamp classes"
    return found[0]


def cases(cls: type) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for level in cls.LEVELS:
        for seed in SEEDS:
            yield level, seed, cls.from_level(level, seed=seed).case_generator()


# ------------------------------------------------------------------------------------------
# reading an input strictly, line by line
# ------------------------------------------------------------------------------------------


class Bad(Exception):
    """The input breaks a rule of the statement (the message names it, with its class)."""


_INT = re.compile(r"-?(0|[1-9][0-9]*)")


class _Reader:
    def __init__(self, stdin: str) -> None:
        if not stdin.endswith("\n"):
            raise Bad("format: the input does not end with a newline")
        self.lines = stdin[:-1].split("\n")
        for line in self.lines:
            if line != line.strip() or "  " in line:
                raise Bad(f"format: stray whitespace in line {line!r}")
        self.pos = 0

    def line(self, what: str) -> str:
        if self.pos >= len(self.lines):
            raise Bad(f"format: the input ends before {what}")
        self.pos += 1
        return self.lines[self.pos - 1]

    def ints(self, count: int | None, what: str) -> list[int]:
        line = self.line(what)
        tokens = line.split()
        if count is not None and len(tokens) != count:
            raise Bad(f"format: {what}: expected {count} integers on the line, got "
                      f"{len(tokens)} ({line!r})")
        if not all(_INT.fullmatch(t) for t in tokens):
            raise Bad(f"format: {what}: not integers ({line!r})")
        return [int(t) for t in tokens]

    def end(self) -> None:
        if self.pos != len(self.lines):
            raise Bad(f"format: {len(self.lines) - self.pos} line(s) after the end of the "
                      f"input (first: {self.lines[self.pos]!r})")


def _bound(value: int, low: int, high: int, rule: str) -> None:
    if not low <= value <= high:
        raise Bad(f"bounds: {rule} (got {value})")


def _validator(body: Callable[[_Reader], None]) -> Callable[[str], str | None]:
    def check(stdin: str) -> str | None:
        try:
            reader = _Reader(stdin)
            body(reader)
            reader.end()
        except Bad as exc:
            return str(exc)
        return None

    check.__name__ = body.__name__
    check.__doc__ = body.__doc__
    return check


def _is_tree(n: int, edges: list[tuple[int, int]]) -> bool:
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in edges:
        a, b = find(u), find(v)
        if a == b:
            return False
        parent[a] = b
    return len(edges) == n - 1


def _reachable(n: int, edges: list[tuple[int, int]], start: int) -> set[int]:
    adj: dict[int, list[int]] = {}
    for u, v in edges:
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    seen, queue = {start}, deque([start])
    while queue:
        for v in adj.get(queue.popleft(), ()):
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return seen


# ------------------------------------------------------------------------------------------
# the validators, one per task, from the statements' Input sections (and Constraints)
# ------------------------------------------------------------------------------------------


@_validator
def check_lamp_posts(r: _Reader) -> None:
    """AtCoder style: 'N K' then A_1 .. A_N; distinct coordinates."""
    n, k = r.ints(2, "N K")
    _bound(n, 2, 2 * 10**5, "2 <= N <= 2 x 10^5")
    _bound(k, 0, 10**9, "0 <= K <= 10^9")
    a = r.ints(n, "A_1 .. A_N")
    for x in a:
        _bound(x, 1, 10**9, "1 <= A_i <= 10^9")
    if len(set(a)) != n:
        raise Bad("guarantee: A_i != A_j (i != j)")


@_validator
def check_coin_subsets(r: _Reader) -> None:
    """AtCoder style: 'N X' then A_1 .. A_N."""
    n, x = r.ints(2, "N X")
    _bound(n, 1, 16, "1 <= N <= 16")
    _bound(x, 1, 16000, "1 <= X <= 16000")
    for v in r.ints(n, "A_1 .. A_N"):
        _bound(v, 1, 1000, "1 <= A_i <= 1000")


@_validator
def check_trail_tree(r: _Reader) -> None:
    """Codeforces style: t, then per test case n and n - 1 trails forming a tree."""
    (t,) = r.ints(1, "t")
    _bound(t, 1, 10**4, "1 <= t <= 10^4")
    total = 0
    for _ in range(t):
        (n,) = r.ints(1, "n")
        _bound(n, 2, 2 * 10**5, "2 <= n <= 2*10^5")
        total += n
        edges = []
        for _ in range(n - 1):
            u, v = r.ints(2, "u_i v_i")
            _bound(u, 1, n, "1 <= u_i, v_i <= n")
            _bound(v, 1, n, "1 <= u_i, v_i <= n")
            if u == v:
                raise Bad(f"guarantee: u_i != v_i (trail {u} {v})")
            edges.append((u, v))
        if not _is_tree(n, edges):
            raise Bad("guarantee: the given trails form a tree (they close a cycle and leave "
                      "the network in pieces)")
    if total > 2 * 10**5:
        raise Bad("guarantee: the sum of n over all test cases does not exceed 2*10^5")


@_validator
def check_relay_graph(r: _Reader) -> None:
    """Codeforces style: 'n m', m links of a connected simple graph."""
    n, m = r.ints(2, "n m")
    _bound(n, 2, 2 * 10**5, "2 <= n <= 2*10^5")
    _bound(m, n - 1, min(2 * 10**5, n * (n - 1) // 2), "n - 1 <= m <= min(2*10^5, n(n-1)/2)")
    seen, edges = set(), []
    for _ in range(m):
        a, b = r.ints(2, "a_i b_i")
        _bound(a, 1, n, "1 <= a_i, b_i <= n")
        _bound(b, 1, n, "1 <= a_i, b_i <= n")
        if a == b:
            raise Bad(f"guarantee: a_i != b_i (link {a} {b} is a self-loop)")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise Bad(f"guarantee: every pair of stations is joined by at most one link "
                      f"(link {a} {b} repeats)")
        seen.add(key)
        edges.append((a, b))
    if len(_reachable(n, edges, 1)) != n:
        raise Bad("guarantee: every station can be reached from station 1")


@_validator
def check_twin_mod(r: _Reader) -> None:
    """Plain prose: N alone on the first line, the N numbers on the second."""
    (n,) = r.ints(1, "N")
    _bound(n, 8, 10**5, "N is not smaller than eight and not larger than one hundred thousand")
    for v in r.ints(n, "A_1 .. A_N"):
        _bound(v, 1, 10**9, "each number is at least one and at most one billion")


@_validator
def check_sorted_stations(r: _Reader) -> None:
    """Markdown: 'n q', x_1 < ... < x_n, q lines 'l r' with 1 <= l <= r <= n."""
    n, q = r.ints(2, "n q")
    _bound(n, 1, 10**5, "1 <= n <= 10^5")
    _bound(q, 1, 10**5, "1 <= q <= 10^5")
    x = r.ints(n, "x_1 .. x_n")
    for v in x:
        _bound(v, 0, 10**9, "0 <= x_1 < ... < x_n <= 10^9")
    if any(x[i] >= x[i + 1] for i in range(n - 1)):
        raise Bad("guarantee: x_1 < x_2 < ... < x_n")
    for _ in range(q):
        lo, hi = r.ints(2, "l r")
        _bound(lo, 1, n, "1 <= l <= r <= n")
        _bound(hi, 1, n, "1 <= l <= r <= n")
        if lo > hi:
            raise Bad(f"guarantee: 1 <= l <= r <= n (question {lo} {hi})")


@_validator
def check_marker_k(r: _Reader) -> None:
    """Markdown: t, then t lowercase strings with a k each; total length <= 500."""
    (t,) = r.ints(1, "t")
    _bound(t, 1, 100, "1 <= t <= 100")
    total = 0
    for _ in range(t):
        s = r.line("a string")
        _bound(len(s), 1, 50, "1 <= |s| <= 50")
        if not re.fullmatch(r"[a-z]+", s):
            raise Bad(f"guarantee: the string consists of lowercase English letters ({s!r})")
        if "k" not in s:
            raise Bad(f"guarantee: the string contains the letter k at least once ({s!r})")
        total += len(s)
    if total > 500:
        raise Bad(f"guarantee: the total length of all strings does not exceed 500 "
                  f"(got {total})")


@_validator
def check_abc_fence(r: _Reader) -> None:
    """Plain prose: N, then the word S of N letters a, b, c."""
    (n,) = r.ints(1, "N")
    _bound(n, 1, 2 * 10**5, "N is at least one and at most two hundred thousand")
    s = r.line("S")
    if len(s) != n:
        raise Bad(f"format: S has N letters (got {len(s)}, N = {n})")
    if not re.fullmatch(r"[abc]+", s):
        raise Bad(f"guarantee: S is made only of the letters a, b and c ({s!r})")


@_validator
def check_book_swaps(r: _Reader) -> None:
    """Codeforces style: t, then per test case n and a permutation p."""
    (t,) = r.ints(1, "t")
    _bound(t, 1, 10**4, "1 <= t <= 10^4")
    total = 0
    for _ in range(t):
        (n,) = r.ints(1, "n")
        _bound(n, 1, 2 * 10**5, "1 <= n <= 2*10^5")
        total += n
        p = r.ints(n, "p_1 .. p_n")
        for v in p:
            _bound(v, 1, n, "1 <= p_i <= n")
        if sorted(p) != list(range(1, n + 1)):
            raise Bad(f"guarantee: p is a permutation ({p})")
    if total > 2 * 10**5:
        raise Bad("guarantee: the sum of n over all test cases does not exceed 2*10^5")


CHECKS: dict[str, Callable[[str], str | None]] = {
    "lamp_posts": check_lamp_posts,
    "coin_subsets": check_coin_subsets,
    "trail_tree": check_trail_tree,
    "relay_graph": check_relay_graph,
    "twin_mod": check_twin_mod,
    "sorted_stations": check_sorted_stations,
    "marker_k": check_marker_k,
    "abc_fence": check_abc_fence,
    "book_swaps": check_book_swaps,
}


# ------------------------------------------------------------------------------------------
# answers: a correct checker per task with several valid outputs, and wrong answers to try
# ------------------------------------------------------------------------------------------

_UNSIGNED = re.compile(r"0|[1-9][0-9]*")


def _numbers(text: str) -> list[int] | None:
    tokens = text.split()
    return [int(t) for t in tokens] if all(_UNSIGNED.fullmatch(t) for t in tokens) else None


def _distance(n: int, edges: list[list[int]]) -> int | None:
    adj: dict[int, list[int]] = {}
    for u, v in edges:
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    dist, queue = {1: 0}, deque([1])
    while queue:
        u = queue.popleft()
        for v in adj.get(u, ()):
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist.get(n)


def correct_relay_graph(identity: dict[str, Any], answer: str) -> bool:
    n, edges = identity["n"], identity["edges"]
    best = _distance(n, edges)
    got = _numbers(answer)
    if best is None or got is None or len(got) != best + 2 or got[0] != best:
        return False
    route = got[1:]
    links = {frozenset(e) for e in edges if e[0] != e[1]}
    return (route[0] == 1 and route[-1] == n and all(1 <= s <= n for s in route)
            and all(frozenset(route[i:i + 2]) in links for i in range(best)))


def wrong_relay_graph(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    n, tokens = identity["n"], expected.split()
    if tokens == ["-1"]:
        return
    d, route = int(tokens[0]), [int(t) for t in tokens[1:]]
    yield "the route reversed (from n to 1)", f"{d}\n{' '.join(map(str, route[::-1]))}"
    yield "a direct jump 1 -> n", f"1\n1 {n}"
    if d >= 2:
        yield "a station outside 1..n", f"{d}\n{' '.join(map(str, [1, n + 1, *route[2:]]))}"
        yield "a station repeated", f"{d}\n{' '.join(map(str, [1, 1, *route[2:]]))}"


def correct_twin_mod(identity: dict[str, Any], answer: str) -> bool:
    a = identity["a"]
    got = _numbers(answer)
    if got is None or len(got) != 2:
        return False
    p, q = got
    return 1 <= p < q <= len(a) and a[p - 1] % 7 == a[q - 1] % 7


def wrong_twin_mod(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    n = len(identity["a"])
    for p in range(0, n + 2):  # every pair of positions, both orders, a little outside too
        for q in range(0, n + 2):
            yield f"positions {p} {q}", f"{p} {q}"


def correct_abc_fence(identity: dict[str, Any], answer: str) -> bool:
    s = identity["s"]
    tokens = answer.split()
    if len(tokens) != 2 or not _UNSIGNED.fullmatch(tokens[0]):
        return False
    best = sum(length // 2 for length in (len(m.group()) for m in re.finditer(r"(.)\1*", s)))
    k, fence = int(tokens[0]), tokens[1]
    return (k == best and len(fence) == len(s) and re.fullmatch(r"[abc]+", fence) is not None
            and all(fence[i] != fence[i + 1] for i in range(len(s) - 1))
            and sum(x != y for x, y in zip(s, fence, strict=True)) == k)


def wrong_abc_fence(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    k, fence = expected.split()
    yield "the fence unchanged", f"{k}\n{identity['s']}"
    for i in range(len(fence)):  # one letter changed to every other letter, d included
        for c in "abcd":
            if c != fence[i]:
                yield f"letter {i + 1} made {c}", f"{k}\n{fence[:i]}{c}{fence[i + 1:]}"


def _fewest(p: list[int]) -> int:
    seen, cycles = set(), 0
    for i in range(len(p)):
        if i not in seen:
            cycles += 1
            while i not in seen:
                seen.add(i)
                i = p[i] - 1
    return len(p) - cycles


def correct_book_swaps(identity: dict[str, Any], answer: str) -> bool:
    values = _numbers(answer)
    if values is None:
        return False
    pos = 0
    for p in identity["tests"]:
        n = len(p)
        if sorted(p) != list(range(1, n + 1)):
            return False  # no answer is right for a shelf that is not a permutation
        if pos >= len(values) or values[pos] != _fewest(p):
            return False
        k = values[pos]
        pos += 1
        shelf = list(p)
        for _ in range(k):
            if pos + 2 > len(values):
                return False
            i, j = values[pos], values[pos + 1]
            pos += 2
            if not 1 <= i < j <= n:
                return False
            shelf[i - 1], shelf[j - 1] = shelf[j - 1], shelf[i - 1]
        if shelf != list(range(1, n + 1)):
            return False
    return pos == len(values)


def wrong_book_swaps(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    lines = expected.splitlines()
    for idx, line in enumerate(lines):
        parts = line.split()
        if len(parts) == 2:
            i, j = parts
            out = list(lines)
            out[idx] = f"{j} {i}"
            yield f"line {idx + 1} written j i", "\n".join(out)
            out[idx] = f"{i} {int(j) + 100}"
            yield f"line {idx + 1} with a position outside the shelf", "\n".join(out)
    yield "every case answered 0", "\n".join("0" for _ in identity["tests"])


CORRECT: dict[str, Callable[[dict[str, Any], str], bool]] = {
    "relay_graph": correct_relay_graph,
    "twin_mod": correct_twin_mod,
    "abc_fence": correct_abc_fence,
    "book_swaps": correct_book_swaps,
}
WRONG: dict[str, Callable[[dict[str, Any], str], Iterator[tuple[str, str]]]] = {
    "relay_graph": wrong_relay_graph,
    "twin_mod": wrong_twin_mod,
    "abc_fence": wrong_abc_fence,
    "book_swaps": wrong_book_swaps,
}


# ------------------------------------------------------------------------------------------
# the witnesses
# ------------------------------------------------------------------------------------------


def _prompt_block(prompt: str) -> str:
    """The text of the prompt's last ``` block (where the case is shown), or the prompt."""
    blocks = re.findall(r"```\n(.*?)```", prompt, re.S)
    return blocks[-1] if blocks else prompt


def run_references(path: Path, stdins: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """The module's reference program run on each input, as ``python -c PROGRAM`` would run
    it (each run a process of its own, forked from one warm interpreter: _fork_runs.py)."""
    program = path.with_name(path.stem + ".reference.py").read_text(encoding="utf-8")
    return run_many(program, stdins, timeout=60)


def witness(path: Path, task: str) -> dict[str, Any]:
    """Per witness: ``{"count": cases showing it, "levels": {level: count}, "first": {...} or
    None}`` over 60 cases per level."""
    cls = load_class(path)
    out: dict[str, Any] = {kind: {"count": 0, "levels": {lv: 0 for lv in cls.LEVELS},
                                  "first": None} for kind in WITNESSES}

    def hit(kind: str, level: str, seed: int, **detail: Any) -> None:
        entry = out[kind]
        entry["count"] += 1
        entry["levels"][level] += 1
        if entry["first"] is None:
            entry["first"] = {"level": level, "seed": seed, **detail}

    for level, seed, identity in cases(cls):
        stdin = cls.render_stdin(identity)
        rule = CHECKS[task](stdin)
        if rule is not None:
            hit("input", level, seed, rule=rule, stdin=stdin)
        prompt = cls.prompt_func(identity)
        if stdin not in prompt:
            shown = _prompt_block(prompt)
            diff = [line for line in difflib.unified_diff(
                stdin.splitlines(), shown.splitlines(), "render_stdin", "prompt", lineterm="",
                n=0) if not line.startswith(("---", "+++", "@@"))]
            hit("prompt", level, seed, stdin=stdin, shown=shown, diff=diff[:6])
        if task in CORRECT and rule is None:
            expected = cls.reference_answer(identity)
            for what, answer in WRONG[task](identity, expected):
                if cls.check_output(identity, expected, answer) is True and \
                        not CORRECT[task](identity, answer):
                    hit("check_output", level, seed, what=what, answer=answer,
                        expected=expected, stdin=stdin)
                    break
    return out


def describe(kind: str, first: dict[str, Any]) -> str:
    where = f"level {first['level']}, seed {first['seed']}"
    if kind == "input":
        return f"{where}: {first['rule']}\n{first['stdin']}"
    if kind == "check_output":
        return (f"{where}: accepts {first['what']}:\n{first['answer']}\n(the reference: "
                f"{first['expected']!r}) on\n{first['stdin']}")
    return f"{where}: the prompt differs from render_stdin:\n" + "\n".join(first["diff"])


def main(argv: list[str]) -> None:
    import json

    manifest = json.loads((HERE / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["modules"]:
        if argv and entry["module"] not in argv:
            continue
        w = witness(HERE / f"{entry['module']}.py", entry["task"])
        print(f"== {entry['module']} ({entry['kind']})")
        for kind in WITNESSES:
            if w[kind]["first"]:
                print(f"  {kind}: {w[kind]['levels']}\n    " +
                      describe(kind, w[kind]["first"]).strip().replace("\n", "\n    "))


if __name__ == "__main__":
    main(sys.argv[1:])
