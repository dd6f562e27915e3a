"""Witnesses of the set_b input-validity corpus: each defect shown concretely, by hand.

    .venv/bin/python tests/defects/inputs/set_b/witness.py [NAME ...]   # from the repo root

Nothing here reads synth's statement parser or gate: the validators (``check_TASK(stdin) ->
str | None``) and the answer checkers (``correct_TASK(identity, answer) -> bool``) are written
by hand from the statements in ``_src/``. A module (a trusted test fixture) is imported with
importlib, and its generator is run for 60 cases per level (seeds 0..59, one case per seed).
By kind, a witness is:

* format       -- a generated input that the task's validator rejects (the rule it breaks);
* check_output -- a wrong answer (index reused, out of range, reversed, not a route, ...) that
                  the module's check_output accepts while the hand-written checker rejects it;
* prompt       -- a generated case whose prompt does not contain render_stdin's text verbatim
                  (and the lines that differ);
* no_solution  -- a generated case on which the reference program (a subprocess on
                  render_stdin) prints the statement's impossible output although the statement
                  guarantees an answer.

``witness(path, task)`` computes all four for a module; a clean module shows none of them.
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
KINDS = ("format", "check_output", "prompt", "no_solution")


# ------------------------------------------------------------------------------------------
# loading and generating
# ------------------------------------------------------------------------------------------


@cache
def load_class(path: Path) -> type:
    """The bootcamp class a module defines (a trusted fixture: imported in this process)."""
    from synth.bootcamp import CompiledBootcamp

    spec = importlib.util.spec_from_file_location(f"set_b_{path.stem}", path)
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
    """The input breaks a rule of the statement (the message names it)."""


_INT = re.compile(r"-?(0|[1-9][0-9]*)")


def _lines(stdin: str) -> list[str]:
    if not stdin.endswith("\n"):
        raise Bad("the input does not end with a newline")
    lines = stdin[:-1].split("\n")
    for line in lines:
        if line != line.strip() or "  " in line:
            raise Bad(f"stray whitespace in line {line!r}")
    return lines


def _ints(line: str, count: int | None, what: str) -> list[int]:
    tokens = line.split()
    if count is not None and len(tokens) != count:
        raise Bad(f"{what}: expected {count} integers on the line, got {len(tokens)} ({line!r})")
    if not all(_INT.fullmatch(t) for t in tokens):
        raise Bad(f"{what}: not integers ({line!r})")
    return [int(t) for t in tokens]


def _bound(value: int, low: int, high: int, what: str) -> None:
    if not low <= value <= high:
        raise Bad(f"{what} = {value} is outside [{low}, {high}]")


class _Reader:
    def __init__(self, stdin: str) -> None:
        self.lines, self.pos = _lines(stdin), 0

    def line(self, what: str) -> str:
        if self.pos >= len(self.lines):
            raise Bad(f"the input ends before {what}")
        self.pos += 1
        return self.lines[self.pos - 1]

    def ints(self, count: int | None, what: str) -> list[int]:
        return _ints(self.line(what), count, what)

    def end(self) -> None:
        if self.pos != len(self.lines):
            raise Bad(f"{len(self.lines) - self.pos} line(s) after the end of the input "
                      f"(first: {self.lines[self.pos]!r})")


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
# the validators, one per task, from the statements' Input sections
# ------------------------------------------------------------------------------------------


@_validator
def check_lantern_path(r: _Reader) -> None:
    """n m; m streets u v (1-based, u != v, no pair twice); n reachable from 1."""
    n, m = r.ints(2, "the first line (n m)")
    _bound(n, 2, 2 * 10**5, "n")
    _bound(m, 1, 2 * 10**5, "m")
    seen, edges = set(), []
    for i in range(m):
        u, v = r.ints(2, f"street {i + 1}")
        _bound(u, 1, n, "u_i")
        _bound(v, 1, n, "v_i")
        if u == v:
            raise Bad(f"street {i + 1} joins square {u} with itself")
        if frozenset((u, v)) in seen:
            raise Bad(f"streets join squares {u} and {v} twice")
        seen.add(frozenset((u, v)))
        edges.append((u, v))
    if n not in _reachable(n, edges, 1):
        raise Bad("square n cannot be reached from square 1 (the statement guarantees it can)")


@_validator
def check_pipe_network(r: _Reader) -> None:
    """t; per test: n m, then m pipes x y (1-based, x != y, no pipe twice); sums bounded."""
    (t,) = r.ints(1, "the first line (t)")
    _bound(t, 1, 10**4, "t")
    sum_n = sum_m = 0
    for case in range(1, t + 1):
        n, m = r.ints(2, f"test {case}: the line n m")
        _bound(n, 1, 2 * 10**5, "n")
        _bound(m, 0, 2 * 10**5, "m")
        sum_n, sum_m = sum_n + n, sum_m + m
        seen = set()
        for i in range(m):
            x, y = r.ints(2, f"test {case}: pipe {i + 1}")
            _bound(x, 1, n, "x")
            _bound(y, 1, n, "y")
            if x == y:
                raise Bad(f"test {case}: a pipe joins house {x} with itself")
            if frozenset((x, y)) in seen:
                raise Bad(f"test {case}: the pipe {x} {y} is given twice")
            seen.add(frozenset((x, y)))
    _bound(sum_n, 1, 2 * 10**5, "the sum of n")
    _bound(sum_m, 0, 2 * 10**5, "the sum of m")


@_validator
def check_two_shelves(r: _Reader) -> None:
    """n m; n weights; m limits."""
    n, m = r.ints(2, "the first line (n m)")
    _bound(n, 1, 10**5, "n")
    _bound(m, 1, 10**5, "m")
    for x in r.ints(n, "the second line (a_1..a_n)"):
        _bound(x, 1, 10**9, "a_i")
    for x in r.ints(m, "the third line (b_1..b_m)"):
        _bound(x, 1, 10**9, "b_j")


@_validator
def check_subarray_target(r: _Reader) -> None:
    """n s; n weights; some block weighs exactly s."""
    n, s = r.ints(2, "the first line (n s)")
    _bound(n, 1, 10**5, "n")
    _bound(s, 1, 10**9, "s")
    a = r.ints(n, "the second line (a_1..a_n)")
    for x in a:
        _bound(x, 1, 10**4, "a_i")
    prefix, seen = 0, {0}
    for x in a:
        prefix += x
        if prefix - s in seen:
            return
        seen.add(prefix)
    raise Bad(f"no block weighs exactly s = {s} (the statement guarantees one)")


@_validator
def check_triple_sum(r: _Reader) -> None:
    """t; per test: n, then n values; sum of n <= 2000; a valid triple exists."""
    (t,) = r.ints(1, "the first line (t)")
    _bound(t, 1, 1000, "t")
    total = 0
    for case in range(1, t + 1):
        (n,) = r.ints(1, f"test {case}: the line n")
        _bound(n, 3, 500, "n")
        total += n
        a = r.ints(n, f"test {case}: the values")
        for x in a:
            _bound(x, 1, 10**6, "a_i")
        count: dict[int, int] = {}
        for x in a:
            count[x] = count.get(x, 0) + 1
        if not any(count.get(a[k] - a[i], 0) - (a[k] - a[i] == a[i]) - (a[k] - a[i] == a[k]) > 0
                   for i in range(n) for k in range(n) if i != k):
            raise Bad(f"test {case} has no valid triple (the statement guarantees one)")
    _bound(total, 3, 2000, "the sum of n")


@_validator
def check_coin_machine(r: _Reader) -> None:
    """t; t lines a b x."""
    (t,) = r.ints(1, "the first line (t)")
    _bound(t, 1, 100, "t")
    for case in range(1, t + 1):
        a, b, x = r.ints(3, f"test {case} (a b x)")
        _bound(a, 1, 50, "a")
        _bound(b, 1, 50, "b")
        if not a < b:
            raise Bad(f"test {case}: a = {a} is not less than b = {b}")
        _bound(x, 1, 10**4, "x")


@_validator
def check_sensor_log(r: _Reader) -> None:
    """n; then n lines with one reading each."""
    (n,) = r.ints(1, "the first line (n)")
    _bound(n, 1, 100_000, "n")
    for i in range(n):
        (h,) = r.ints(1, f"reading {i + 1} (one per line)")
        _bound(h, 1, 10**9, "h_i")


@_validator
def check_range_peaks(r: _Reader) -> None:
    """n; n altitudes; q; q lines l r with 1 <= l <= r <= n."""
    (n,) = r.ints(1, "the first line (n)")
    _bound(n, 1, 10**5, "n")
    for x in r.ints(n, "the second line (h_1..h_n)"):
        _bound(x, -10**9, 10**9, "h_i")
    (q,) = r.ints(1, "the third line (q)")
    _bound(q, 1, 10**5, "q")
    for i in range(q):
        lo, hi = r.ints(2, f"question {i + 1} (l r)")
        _bound(lo, 1, n, "l")
        _bound(hi, lo, n, "r")


CHECKS: dict[str, Callable[[str], str | None]] = {
    "lantern_path": check_lantern_path,
    "pipe_network": check_pipe_network,
    "two_shelves": check_two_shelves,
    "subarray_target": check_subarray_target,
    "triple_sum": check_triple_sum,
    "coin_machine": check_coin_machine,
    "sensor_log": check_sensor_log,
    "range_peaks": check_range_peaks,
}


# ------------------------------------------------------------------------------------------
# answers: a correct checker per task with several valid outputs, and wrong answers to try
# ------------------------------------------------------------------------------------------

_UNSIGNED = re.compile(r"0|[1-9][0-9]*")


def _numbers(text: str) -> list[int] | None:
    tokens = text.split()
    return [int(t) for t in tokens] if all(_UNSIGNED.fullmatch(t) for t in tokens) else None


def _bfs_distance(n: int, edges: list[list[int]]) -> int | None:
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


def correct_lantern_path(identity: dict[str, Any], answer: str) -> bool:
    n, edges = identity["n"], identity["edges"]
    best = _bfs_distance(n, edges)
    got = _numbers(answer)
    if best is None:
        return answer.split() == ["-1"]
    if got is None or len(got) != best + 2 or got[0] != best:
        return False
    route = got[1:]
    streets = {frozenset(e) for e in edges}
    return route[0] == 1 and route[-1] == n and all(1 <= p <= n for p in route) and \
        all(frozenset(route[j - 1:j + 1]) in streets for j in range(1, len(route)))


def wrong_lantern_path(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    n, tokens = identity["n"], expected.split()
    if tokens == ["-1"]:
        return
    k, route = int(tokens[0]), [int(t) for t in tokens[1:]]
    others = [p for p in range(2, n)]
    for name, middle in (("the lowest squares", others[:k - 1]),
                         ("the highest squares", others[::-1][:k - 1])):
        if len(middle) == k - 1:
            yield (f"a route through {name}, streets or not",
                   f"{k}\n{' '.join(map(str, [1, *middle, n]))}")
    yield "the route reversed (from square n to 1)", f"{k}\n{' '.join(map(str, route[::-1]))}"
    if k >= 2:
        bad = [*route[:1], n + 1, *route[2:]]
        yield "a square outside 1..n", f"{k}\n{' '.join(map(str, bad))}"
        yield "a square repeated", f"{k}\n{' '.join(map(str, [1, 1, *route[2:]]))}"


def correct_subarray_target(identity: dict[str, Any], answer: str) -> bool:
    a, s = identity["a"], identity["s"]
    got = _numbers(answer)
    exists = any(sum(a[i:j]) == s for i in range(len(a)) for j in range(i + 1, len(a) + 1))
    if not exists:
        return answer.split() == ["-1"]
    if got is None or len(got) != 2:
        return False
    lo, hi = got
    return 1 <= lo <= hi <= len(a) and sum(a[lo - 1:hi]) == s


def wrong_subarray_target(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    n = len(identity["a"])
    for lo in range(0, n + 3):  # every pair of positions, in both orders, a little outside too
        for hi in range(0, n + 3):
            yield f"positions {lo} {hi}", f"{lo} {hi}"


def correct_triple_sum(identity: dict[str, Any], answer: str) -> bool:
    tests = identity["tests"]
    lines = [line.split() for line in answer.splitlines() if line.strip()]
    if len(lines) != len(tests):
        return False
    for a, toks in zip(tests, lines, strict=True):
        n = len(a)
        exists = any(a[i] + a[j] == a[k] for i in range(n) for j in range(n) for k in range(n)
                     if len({i, j, k}) == 3)
        if not exists:
            if toks != ["-1"]:
                return False
            continue
        got = _numbers(" ".join(toks))
        if got is None or len(got) != 3 or len(set(got)) != 3:
            return False
        if not all(1 <= x <= n for x in got):
            return False
        i, j, k = got
        if a[i - 1] + a[j - 1] != a[k - 1]:
            return False
    return True


def wrong_triple_sum(identity: dict[str, Any], expected: str) -> Iterator[tuple[str, str]]:
    """Every triple of 0..n whose sum holds when read naively (a[x - 1], Python indexing) but
    that the statement forbids (a repeated index, or 0), in one test case; the other test
    cases keep the reference's lines."""
    lines = expected.splitlines()
    for t, a in enumerate(identity["tests"]):
        n = len(a)
        for i in range(n + 1):
            for j in range(n + 1):
                for k in range(n + 1):
                    if a[i - 1] + a[j - 1] == a[k - 1] and (len({i, j, k}) < 3 or 0 in (i, j, k)):
                        what = "an index reused" if len({i, j, k}) < 3 else "index 0"
                        out = list(lines)
                        out[t] = f"{i} {j} {k}"
                        yield f"test {t + 1}: {what} ({i} {j} {k})", "\n".join(out)


CORRECT: dict[str, Callable[[dict[str, Any], str], bool]] = {
    "lantern_path": correct_lantern_path,
    "subarray_target": correct_subarray_target,
    "triple_sum": correct_triple_sum,
}
WRONG: dict[str, Callable[[dict[str, Any], str], Iterator[tuple[str, str]]]] = {
    "lantern_path": wrong_lantern_path,
    "subarray_target": wrong_subarray_target,
    "triple_sum": wrong_triple_sum,
}

#: the statement's impossible output, for the tasks whose statement guarantees an answer
IMPOSSIBLE: dict[str, Callable[[str], bool]] = {
    "lantern_path": lambda out: out.split() == ["-1"],
    "subarray_target": lambda out: out.split() == ["-1"],
    "triple_sum": lambda out: any(line.split() == ["-1"] for line in out.splitlines()),
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
    """Per kind: ``{"count": cases showing it, "levels": {level: count}, "first": {...} or
    None}`` over 60 cases per level."""
    cls = load_class(path)
    out: dict[str, Any] = {kind: {"count": 0, "levels": {lv: 0 for lv in cls.LEVELS},
                                  "first": None} for kind in KINDS}

    def hit(kind: str, level: str, seed: int, **detail: Any) -> None:
        entry = out[kind]
        entry["count"] += 1
        entry["levels"][level] += 1
        if entry["first"] is None:
            entry["first"] = {"level": level, "seed": seed, **detail}

    generated = list(cases(cls))
    stdins = [cls.render_stdin(identity) for _, _, identity in generated]
    for (level, seed, identity), stdin in zip(generated, stdins, strict=True):
        rule = CHECKS[task](stdin)
        if rule is not None and not (task in IMPOSSIBLE and "guarantees" in rule):
            hit("format", level, seed, rule=rule, stdin=stdin)
        prompt = cls.prompt_func(identity)
        if stdin not in prompt:
            shown = _prompt_block(prompt)
            diff = [line for line in difflib.unified_diff(
                stdin.splitlines(), shown.splitlines(), "render_stdin", "prompt", lineterm="",
                n=0) if not line.startswith(("---", "+++", "@@"))]
            hit("prompt", level, seed, stdin=stdin, shown=shown, diff=diff[:6])
        if task in CORRECT:
            expected = cls.reference_answer(identity)
            for what, answer in WRONG[task](identity, expected):
                if cls.check_output(identity, expected, answer) is True and \
                        not CORRECT[task](identity, answer):
                    hit("check_output", level, seed, what=what, answer=answer,
                        expected=expected, stdin=stdin)
                    break
    if task in IMPOSSIBLE:
        runs = run_references(path, stdins)
        for (level, seed, _), stdin, run in zip(generated, stdins, runs, strict=True):
            assert run.returncode == 0, f"{path.name}: the reference fails on\n{stdin}"
            if IMPOSSIBLE[task](run.stdout):
                hit("no_solution", level, seed, stdin=stdin, stdout=run.stdout)
    return out


def describe(kind: str, first: dict[str, Any]) -> str:
    where = f"level {first['level']}, seed {first['seed']}"
    if kind == "format":
        return f"{where}: {first['rule']}\n{first['stdin']}"
    if kind == "check_output":
        return (f"{where}: accepts {first['what']}:\n{first['answer']}\n(the reference: "
                f"{first['expected']!r}) on\n{first['stdin']}")
    if kind == "prompt":
        return f"{where}: the prompt differs from render_stdin:\n" + "\n".join(first["diff"])
    return f"{where}: the reference prints {first['stdout'].strip()!r} on\n{first['stdin']}"


def main(argv: list[str]) -> None:
    import json

    manifest = json.loads((HERE / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["modules"]:
        if argv and entry["module"] not in argv:
            continue
        w = witness(HERE / f"{entry['module']}.py", entry["task"])
        print(f"== {entry['module']} ({entry['kind']})")
        for kind in KINDS:
            if w[kind]["first"]:
                print(f"  {kind}: {w[kind]['levels']}\n    " +
                      describe(kind, w[kind]["first"]).strip().replace("\n", "\n    "))


if __name__ == "__main__":
    main(sys.argv[1:])
