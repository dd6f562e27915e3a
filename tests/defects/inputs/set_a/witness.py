"""Hand-written input validators of the set_a tasks, and a witness of each module's inputs.

``check_TASK(stdin)`` reads one standard input of TASK and returns the rule of the statement's
Input section that it breaks (a short text), or None when the statement allows the input. They
are written from the statements in ``_src/TASK.statement.md`` alone, not from any generator.

``witness(module_path, task)`` loads a bootcamp module of the corpus (a trusted test fixture:
it is imported in this process), generates 60 cases per level with seeds 0..59, renders each
case's standard input and counts, per level, the inputs that the task's validator rejects.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
CASES = 60


class Bad(Exception):
    """The input breaks a rule (the message says which)."""


def _lines(stdin: str) -> list[str]:
    lines = stdin.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if any(line != line.strip() for line in lines):
        raise Bad("format: stray whitespace at the end or start of a line")
    return lines


def _ints(line: str, count: int | None = None, what: str = "") -> list[int]:
    parts = line.split(" ")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise Bad(f"format: expected integers {what}, got {line!r}") from None
    if any(p != str(int(p)) for p in parts):
        raise Bad(f"format: badly written integer in {line!r}")
    if count is not None and len(values) != count:
        raise Bad(f"format: expected {count} integers {what}, got {len(values)}")
    return values


def _bound(value: int, low: int, high: int, rule: str) -> None:
    if not low <= value <= high:
        raise Bad(f"bounds: {rule} (got {value})")


def _run(check: Any, stdin: str) -> str | None:
    try:
        check(stdin)
    except Bad as exc:
        return str(exc)
    except (IndexError, ValueError) as exc:
        return f"format: {type(exc).__name__}: {exc}"
    return None


# ------------------------------------------------------------------------------------------
# One validator per task
# ------------------------------------------------------------------------------------------


def _nearest_ratings(stdin: str) -> None:
    lines = _lines(stdin)
    (t,) = _ints(lines[0], 1, "(t)")
    _bound(t, 1, 100, "1 ≤ t ≤ 100")
    if len(lines) != 1 + 2 * t:
        raise Bad(f"format: expected {1 + 2 * t} lines, got {len(lines)}")
    total = 0
    for k in range(t):
        (n,) = _ints(lines[1 + 2 * k], 1, "(n)")
        _bound(n, 2, 100, "2 ≤ n ≤ 100")
        a = _ints(lines[2 + 2 * k], n, "(a_i)")
        for x in a:
            _bound(x, 1, 10**9, "1 ≤ a_i ≤ 10^9")
        if len(set(a)) != n:
            raise Bad("guarantee: all ratings within one test case are pairwise distinct")
        total += n
    if total > 120:
        raise Bad(f"guarantee: the sum of n over all test cases does not exceed 120 (got {total})")


def _signal_towers(stdin: str) -> None:
    lines = _lines(stdin)
    (n,) = _ints(lines[0], 1, "(n)")
    _bound(n, 2, 10**5, "2 ≤ n ≤ 10^5")
    if len(lines) != n:
        raise Bad(f"format: expected n - 1 = {n - 1} cable lines, got {len(lines) - 1}")
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for line in lines[1:]:
        u, v, w = _ints(line, 3, "(u v w)")
        _bound(u, 1, n, "1 ≤ u_i, v_i ≤ n")
        _bound(v, 1, n, "1 ≤ u_i, v_i ≤ n")
        _bound(w, 1, 10**9, "1 ≤ w_i ≤ 10^9")
        a, b = find(u), find(v)
        if a == b:  # a self-loop, a repeated cable or a cycle: n - 1 edges then cannot connect
            raise Bad(f"guarantee: the given cables form a tree (cable {u} {v} closes a cycle)")
        parent[a] = b


def _road_repairs(stdin: str) -> None:
    lines = _lines(stdin)
    n, m = _ints(lines[0], 2, "(n m)")
    _bound(n, 1, 2 * 10**5, "1 ≤ n ≤ 2·10^5")
    _bound(m, 0, 2 * 10**5, "0 ≤ m ≤ 2·10^5")
    if len(lines) != 1 + m:
        raise Bad(f"format: expected {m} edge lines, got {len(lines) - 1}")
    seen = set()
    for line in lines[1:]:
        x, y = _ints(line, 2, "(x y)")
        _bound(x, 1, n, "1 ≤ x, y ≤ n")
        _bound(y, 1, n, "1 ≤ x, y ≤ n")
        if x == y:
            raise Bad(f"guarantee: the graph contains no self-loops (edge {x} {y})")
        key = (min(x, y), max(x, y))
        if key in seen:
            raise Bad(f"guarantee: the graph contains no multiple edges (edge {x} {y})")
        seen.add(key)


def _letter_ranges(stdin: str) -> None:
    lines = _lines(stdin)
    n, q = _ints(lines[0], 2, "(n q)")
    _bound(n, 1, 2 * 10**5, "1 ≤ n ≤ 2·10^5")
    _bound(q, 1, 2 * 10**5, "1 ≤ q ≤ 2·10^5")
    if len(lines) != 2 + q:
        raise Bad(f"format: expected {2 + q} lines, got {len(lines)}")
    s = lines[1]
    if len(s) != n:
        raise Bad(f"format: |s| = n (got |s| = {len(s)}, n = {n})")
    if any(not "a" <= c <= "z" for c in s):
        raise Bad("guarantee: s consists of lowercase Latin letters only")
    for line in lines[2:]:
        l, r = _ints(line, 2, "(l r)")
        if not 1 <= l <= r <= n:
            kind = "guarantee" if 1 <= r < l <= n else "bounds"
            raise Bad(f"{kind}: 1 ≤ l_i ≤ r_i ≤ n (got {l} {r}, n = {n})")


def _anchor_letter(stdin: str) -> None:
    lines = _lines(stdin)
    (t,) = _ints(lines[0], 1, "(t)")
    _bound(t, 1, 1000, "t is positive and does not exceed 1000")
    if len(lines) != 1 + t:
        raise Bad(f"format: expected {1 + t} lines, got {len(lines)}")
    for s in lines[1:]:
        _bound(len(s), 1, 100, "s is non-empty and the length of s is at most 100")
        if any(not "a" <= c <= "z" for c in s):
            raise Bad(f"guarantee: s is made of lowercase Latin letters ({s!r})")
        if "a" not in s:
            raise Bad(f"guarantee: s contains at least one letter 'a' ({s!r})")


def _checkpoints(stdin: str) -> None:
    lines = _lines(stdin)
    if len(lines) != 2:
        raise Bad(f"format: expected 2 lines, got {len(lines)}")
    n, d = _ints(lines[0], 2, "(n d)")
    _bound(n, 1, 10**5, "1 ≤ n ≤ 10^5")
    _bound(d, 1, 10**9, "1 ≤ d ≤ 10^9")
    a = _ints(lines[1], n, "(a_i)")
    for x in a:
        _bound(x, 0, 10**9, "0 ≤ a_1 < ... < a_n ≤ 10^9")
    if any(a[i] >= a[i + 1] for i in range(n - 1)):
        raise Bad("guarantee: a_1 < a_2 < ... < a_n")


def _gift_exchange(stdin: str) -> None:
    lines = _lines(stdin)
    (t,) = _ints(lines[0], 1, "(t)")
    _bound(t, 1, 10**4, "1 ≤ t ≤ 10^4")
    if len(lines) != 1 + 2 * t:
        raise Bad(f"format: expected {1 + 2 * t} lines, got {len(lines)}")
    total = 0
    for k in range(t):
        (n,) = _ints(lines[1 + 2 * k], 1, "(n)")
        _bound(n, 1, 2 * 10**5, "1 ≤ n ≤ 2·10^5")
        p = _ints(lines[2 + 2 * k], n, "(p_i)")
        for x in p:
            _bound(x, 1, n, "1 ≤ p_i ≤ n")
        if sorted(p) != list(range(1, n + 1)):
            raise Bad("guarantee: p is a permutation")
        total += n
    if total > 2 * 10**5:
        raise Bad("guarantee: the sum of n over all test cases does not exceed 2·10^5")


def _balanced_weights(stdin: str) -> None:
    lines = _lines(stdin)
    if len(lines) != 2:
        raise Bad(f"format: expected 2 lines, got {len(lines)}")
    (n,) = _ints(lines[0], 1, "(n)")
    _bound(n, 1, 20, "n is positive and does not exceed 20")
    for w in _ints(lines[1], n, "(w_i)"):
        _bound(w, 1, 10**6, "all w_i are between 1 and 10^6 inclusive")


def check_nearest_ratings(stdin: str) -> str | None:
    return _run(_nearest_ratings, stdin)


def check_signal_towers(stdin: str) -> str | None:
    return _run(_signal_towers, stdin)


def check_road_repairs(stdin: str) -> str | None:
    return _run(_road_repairs, stdin)


def check_letter_ranges(stdin: str) -> str | None:
    return _run(_letter_ranges, stdin)


def check_anchor_letter(stdin: str) -> str | None:
    return _run(_anchor_letter, stdin)


def check_checkpoints(stdin: str) -> str | None:
    return _run(_checkpoints, stdin)


def check_gift_exchange(stdin: str) -> str | None:
    return _run(_gift_exchange, stdin)


def check_balanced_weights(stdin: str) -> str | None:
    return _run(_balanced_weights, stdin)


CHECKS = {name[len("check_"):]: fn for name, fn in list(globals().items())
          if name.startswith("check_") and callable(fn)}


# ------------------------------------------------------------------------------------------
# The witness
# ------------------------------------------------------------------------------------------


def load_class(module_path: str | Path) -> type:
    """The bootcamp class of a corpus module (the class that defines LEVELS and render_stdin
    in the module itself)."""
    path = Path(module_path).resolve()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location(f"set_a_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    classes = [c for c in vars(module).values()
               if inspect.isclass(c) and c.__module__ == module.__name__ and "LEVELS" in vars(c)]
    if len(classes) != 1:
        raise ValueError(f"{path}: expected one bootcamp class, found {len(classes)}")
    return classes[0]


def witness(module_path: str | Path, task: str) -> dict[str, Any]:
    """Per level: how many of the 60 cases (seeds 0..59) break the task's rules, and the
    first violating stdin (with its rule) overall."""
    cls = load_class(module_path)
    check = CHECKS[task]
    levels: dict[str, dict[str, int]] = {}
    first: dict[str, Any] | None = None
    for level in cls.LEVELS:
        bad = 0
        for seed in range(CASES):
            stdin = cls.render_stdin(cls.from_level(level, seed=seed).case_generator())
            rule = check(stdin)
            if rule is not None:
                bad += 1
                if first is None:
                    first = {"level": level, "seed": seed, "rule": rule, "stdin": stdin}
        levels[level] = {"cases": CASES, "violations": bad}
    return {"module": Path(module_path).stem, "task": task, "levels": levels,
            "violations": sum(v["violations"] for v in levels.values()), "first": first}
