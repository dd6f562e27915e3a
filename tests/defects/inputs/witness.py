"""Witnesses of the input-validity corpus's defects, written by hand from each statement and
independent of synth.statement and the gate. Run as a child process (it imports the bootcamps):

    python tests/defects/inputs/witness.py tests/defects/inputs/corpus

prints {module: evidence or null} as JSON: for each module, the first generated case (levels
easy/medium/hard, seeds 0..39) that shows its kind of defect.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))


def _ints(line: str) -> list[int]:
    return [int(x) for x in line.split()]


def _lines(stdin: str) -> list[str]:
    return stdin.rstrip("\n").split("\n")


def v_lantern(stdin: str) -> str | None:
    rows = _lines(stdin)
    if len(rows) != 2 or len(rows[0].split()) != 1:
        return "not two lines with n first"
    n, h = int(rows[0]), _ints(rows[1])
    if not 1 <= n <= 40 or len(h) != n:
        return "n out of range or count mismatch"
    return None if all(1 <= x <= 10**9 for x in h) else "height out of range"


def v_badge(stdin: str) -> str | None:
    rows = _lines(stdin)
    t = _ints(rows[0])
    if len(t) != 1 or not 1 <= t[0] <= 50 or len(rows) != 1 + 2 * t[0]:
        return "bad t line"
    total = 0
    for k in range(t[0]):
        n, b = _ints(rows[1 + 2 * k]), _ints(rows[2 + 2 * k])
        if len(n) != 1 or len(b) != n[0] or not 2 <= n[0] <= 100:
            return "bad test"
        if len(set(b)) != len(b) or not all(1 <= x <= 10**6 for x in b):
            return "duplicates or out of range"
        total += n[0]
    return None if total <= 120 else "sum of n above 120"


def v_seat(stdin: str) -> str | None:
    rows = _lines(stdin)
    n, p = int(rows[0]), _ints(rows[1])
    return None if sorted(p) == list(range(1, n + 1)) else "not a permutation of 1..n"


def _tree_ok(n: int, edges: list[list[int]]) -> bool:
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x
    for x, y in edges:
        if not (1 <= x <= n and 1 <= y <= n) or x == y or find(x) == find(y):
            return False
        parent[find(x)] = find(y)
    return len(edges) == n - 1


def v_village(stdin: str) -> str | None:
    rows = _lines(stdin)
    n = int(rows[0])
    return None if _tree_ok(n, [_ints(r) for r in rows[1:]]) else "not a tree on 1..n"


def v_checkpoint(stdin: str) -> str | None:
    rows = _lines(stdin)
    k, x = int(rows[0]), _ints(rows[1])
    ok = len(x) == k and all(a < b for a, b in itertools.pairwise(x))
    return None if ok else "not strictly increasing"


def v_window(stdin: str) -> str | None:
    rows = _lines(stdin)
    n, q = _ints(rows[0])
    a = _ints(rows[1])
    if len(a) != n or len(rows) != 2 + q or not all(-1000 <= x <= 1000 for x in a):
        return "array or query count wrong"
    for r in rows[2:]:
        lo, hi = _ints(r)
        if not 1 <= lo <= hi <= n:
            return "query out of order or range"
    return None


def v_junction(stdin: str) -> str | None:
    rows = _lines(stdin)
    n, m = _ints(rows[0])
    edges = [tuple(_ints(r)) for r in rows[1:]]
    if len(edges) != m or any(not (1 <= u <= n and 1 <= v <= n) or u == v for u, v in edges):
        return "edge count, range or self-loop"
    keys = [frozenset(e) for e in edges]
    return None if len(set(keys)) == len(keys) else "repeated street"


def v_letters(stdin: str) -> str | None:
    s = stdin.strip()
    ok = 1 <= len(s) <= 100 and all("a" <= c <= "z" for c in s) and "e" in s
    return None if ok else "outside the alphabet, length or no 'e'"


def v_median(stdin: str) -> str | None:
    rows = _lines(stdin)
    t = int(rows[0])
    if not 1 <= t <= 20 or len(rows) != 1 + 2 * t:
        return "bad T or line count"
    for k in range(t):
        n = _ints(rows[1 + 2 * k])
        d = _ints(rows[2 + 2 * k])
        if len(n) != 1 or n[0] % 2 == 0 or not 1 <= n[0] <= 99 or len(d) != n[0]:
            return "bad group"
    return None


VALID = {"lantern_span": v_lantern, "badge_pairs": v_badge, "seat_cycles": v_seat,
         "village_tree": v_village, "checkpoint_gap": v_checkpoint, "window_sums": v_window,
         "busiest_junction": v_junction, "letter_kinds": v_letters, "median_trip": v_median}


def ticket_has_answer(identity: dict[str, Any]) -> bool:
    a = identity["a"]
    return any(a[i] + a[j] == identity["s"] for i in range(len(a)) for j in range(i + 1, len(a)))


def ticket_right(identity: dict[str, Any], answer: str) -> bool:
    t = answer.split()
    if len(t) != 2 or not all(x.lstrip("-").isdigit() for x in t):
        return False
    i, j, a = int(t[0]), int(t[1]), identity["a"]
    return 1 <= i <= len(a) and 1 <= j <= len(a) and i != j and a[i - 1] + a[j - 1] == identity["s"]


def odd_right(identity: dict[str, Any], answer: str) -> bool:
    t = answer.split()
    if len(t) != 2 or not all(x.lstrip("-").isdigit() for x in t):
        return False
    p, q, c = int(t[0]), int(t[1]), identity["c"]
    return 1 <= p < q <= len(c) and c[p - 1] != c[q - 1]


SOLVABLE = {"ticket_pair": ticket_has_answer,
            "odd_one_out": lambda ident: len(set(ident["c"])) > 1}
RIGHT = {"ticket_pair": ticket_right, "odd_one_out": odd_right}


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from synth.bootcamp import CompiledBootcamp
    return next(v for v in vars(mod).values() if isinstance(v, type)
                and issubclass(v, CompiledBootcamp) and v is not CompiledBootcamp)


def _cases(cls: Any) -> list[dict[str, Any]]:
    out = []
    for level in ("easy", "medium", "hard"):
        for seed in range(40):
            out.append(cls(seed=seed, **cls.LEVELS[level]).case_generator())
    return out


def _norm(text: str) -> str:
    return "\n".join(" ".join(x.split()) for x in text.strip().splitlines() if x.strip())


def witness(path: Path, kind: str, task: str) -> str | None:
    cls = _load(path)
    cases = _cases(cls)
    if kind in ("clean", "bounds", "guarantee", "format"):
        for ident in cases:
            bad = VALID[task](cls.render_stdin(ident)) if task in VALID else None
            if bad is not None:
                return f"{bad}: {cls.render_stdin(ident)[:120]!r}"
        if kind != "clean":
            return None
    if kind in ("clean", "prompt"):
        for ident in cases:
            if _norm(cls.render_stdin(ident)) not in _norm(cls.prompt_func(ident)):
                return f"the prompt lacks stdin {cls.render_stdin(ident)[:80]!r}"
        if kind != "clean":
            return None
    if kind in ("clean", "no_solution") and task in SOLVABLE:
        for ident in cases:
            if not SOLVABLE[task](ident):
                return f"no answer exists for {ident}"
        if kind != "clean":
            return None
    if kind in ("clean", "check_output") and task in RIGHT:
        for ident in cases[:60]:
            n = len(ident.get("a") or ident.get("c"))
            for i in range(-1, n + 3):
                for j in range(-1, n + 3):
                    ans = f"{i} {j}"
                    if cls.check_output(ident, "", ans) and not RIGHT[task](ident, ans):
                        return f"check_output accepts {ans!r} on {ident}"
    return None


def main() -> None:
    folder = Path(sys.argv[1])
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))["modules"]
    found = {m["module"]: witness(folder / f"{m['module']}.py", m["kind"], m["task"])
             for m in manifest}
    print(json.dumps(found))


if __name__ == "__main__":
    main()
