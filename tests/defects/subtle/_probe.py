"""Child-process half of tests/defects/test_subtle_corpus.py (plain CPython, never in pytest).

Reads a JSON request on stdin -- {"root": DIR, "entries": [MANIFEST entries], "cases": N,
"mode": "full" | "answers"} -- imports each bootcamp module and its checker from their files,
and prints one JSON object: per module, how its checker's ``solve()`` fares under its own
``check()``, and the witness of the planted defect that the manifest names (see README.md).
Everything a witness needs is computed here; the test only asserts on the numbers.

Usage: python _probe.py < request.json (the repository root on PYTHONPATH for synth.bootcamp).
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from synth.bootcamp import BaseBootcamp

sys.path.append(str(Path(__file__).resolve().parent.parent / "inputs"))  # for _fork_runs only
from _fork_runs import run_many  # noqa: E402

SEED = 424242
#: the second try of :func:`fresh_case_s` is stopped once it has taken this long
SECOND_TRY_CAP_S = 1.2


def load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bootcamp_class(module: Any) -> type[BaseBootcamp]:
    found = [v for v in vars(module).values() if isinstance(v, type)
             and issubclass(v, BaseBootcamp) and v is not BaseBootcamp]
    assert len(found) == 1, f"{module.__name__}: {len(found)} bootcamp classes"
    return found[0]


def levels(cls: type[BaseBootcamp]) -> list[tuple[str, dict[str, Any]]]:
    return list(cls.LEVELS.items()) or [("default", {})]


def generate(cls: type[BaseBootcamp], total: int,
             first_case_s: dict[str, float] | None = None) -> list[tuple[str, str]]:
    """``total`` cases spread over the levels, as (level, canonical JSON), generated in one
    process from one instance per level (as a gate or trainer would). ``first_case_s``, if
    given, receives per level the seconds of that instance's construction and first case
    (one try of :func:`fresh_case_s`, at seed ``SEED + k`` for the level's index k)."""
    lv = levels(cls)
    per = max(1, -(-total // len(lv)))
    out: list[tuple[str, str]] = []
    for k, (name, params) in enumerate(lv):
        start = time.perf_counter()
        inst = cls(seed=SEED + k, **params)
        first = inst.case_generator()
        if first_case_s is not None:
            first_case_s[name] = time.perf_counter() - start
        out.append((name, json.dumps(first, sort_keys=True)))
        out += [(name, json.dumps(inst.case_generator(), sort_keys=True))
                for _ in range(per - 1)]
    return out


def last_block(response: str) -> str | None:
    """What the contract calls the answer: the last <answer> block (BaseBootcamp's rule)."""
    return BaseBootcamp.extract_output(response)


def score(cls: type[BaseBootcamp], response: str, case: str) -> float:
    return float(cls.verify_score(response, json.loads(case)))


def mutants(answer: str) -> list[str]:
    """Generic semantic mutants by the answer's shape (the checker's probes add task-aware ones)."""
    out: list[str] = []
    toks = answer.split()
    nums = re.fullmatch(r"-?\d+", answer.strip())
    if nums:
        v = int(answer)
        out += [str(-v), str(v + 1), str(v - 1), str(abs(v))]
    try:
        f = float(answer)
        if math.isfinite(f):
            out += [repr(-f), repr(f + 1e-3), repr(f * 1.01)]
    except ValueError:
        pass
    out += [answer.swapcase(), answer.lower(), answer.upper(), "nan", "NaN", "inf", ""]
    if len(toks) >= 2:
        out += [" ".join(reversed(toks)), " ".join(sorted(toks)), " ".join(toks[:-1]),
                " ".join(toks + toks[:1])]
    return [m for m in dict.fromkeys(out) if m != answer]


def candidates(checker: Any, case: dict[str, Any], ref: str) -> list[str]:
    pool = [ref]
    if hasattr(checker, "solve"):
        pool.append(checker.solve(case))
    if hasattr(checker, "probes"):
        pool += list(checker.probes(case))
    pool += mutants(ref)
    return list(dict.fromkeys(pool))


def responses(cls: type[BaseBootcamp], ref: str, pool: list[str]) -> list[str]:
    wrap = cls.wrap_answer
    out = [wrap(a) for a in pool]
    for a in pool[1:8]:
        out += [wrap(ref) + "\n" + wrap(a), wrap(a) + "\n" + wrap(ref)]
    return out


def scalars(value: Any) -> int:
    """Number of scalar leaves of a JSON value (a size proxy blind to magnitudes)."""
    if isinstance(value, dict):
        return sum(scalars(v) for v in value.values())
    if isinstance(value, list):
        return sum(scalars(v) for v in value)
    return 1


def shown_order(identity: dict[str, Any]) -> str:
    """The items of the case's list (its first list field) in the order the case holds them,
    which is the order the prompt shows them in: an item is a name or [name, attribute]."""
    items = next(v for v in identity.values() if isinstance(v, list))
    return " ".join(str(x[0] if isinstance(x, list) else x) for x in items)


class _Late(BaseException):
    """The second try of :func:`fresh_case_s` ran past :data:`SECOND_TRY_CAP_S`."""


def fresh_case_s(cls: type[BaseBootcamp], params: dict[str, Any], seed: int,
                 first_try: float) -> float:
    """Seconds for one case as production makes it (a new instance per case): the fastest
    of two tries with different seeds, ``first_try`` being :func:`generate`'s (at ``seed``,
    an instance built and asked once, the same measure: the costliest level's instance is
    not built a third time) and the other a new instance at ``seed + 1``.

    The second try is stopped once it has taken :data:`SECOND_TRY_CAP_S` (and then counts as
    that long): the witness asks whether the faster try took over a second at the hardest
    level and under 0.2 s at the easiest, and a try longer than the cap decides neither, so
    the answers are those of the whole try; only the seconds reported are then a lower bound
    (the slow modules' second hard try took another 2-6 s of CPU to the end)."""
    armed = [True]

    def late(signum: int, frame: Any) -> None:
        if armed[0]:
            armed[0] = False
            raise _Late

    before = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, SECOND_TRY_CAP_S)
    start = time.perf_counter()
    try:
        cls(seed=seed + 1, **params).case_generator()
        armed[0] = False
        took = time.perf_counter() - start
    except _Late:
        took = SECOND_TRY_CAP_S
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    return min(first_try, took)


def probe(root: Path, entry: dict[str, Any], n_cases: int, mode: str) -> dict[str, Any]:
    name = entry["module"]
    mod = load(root / entry["files"]["module"], "subtle_" + name.replace(".", "_"))
    cls = bootcamp_class(mod)
    witness = entry["witness"]
    if mode == "answers":
        cases = generate(cls, n_cases)
        return {"answers": [cls.reference_answer(json.loads(c)) for _, c in cases]}
    checker = load(root / entry["files"]["checker"], "checker_" + name.replace(".", "_"))
    total = 200 if witness in ("two_valued", "rare", "capped") else n_cases
    first_case_s: dict[str, float] = {}
    cases = generate(cls, total, first_case_s)
    out: dict[str, Any] = {"cases": len(cases), "solve_rejected": [], "reference_rejected": 0,
                           "solve_scored_below_1": 0, "disagreements": [], "disagree_lenient": 0,
                           "disagree_strict": 0, "witness": None}
    answers: list[str] = []
    for li, (_level, case) in enumerate(cases):
        ident = json.loads(case)
        ref = cls.reference_answer(json.loads(case))
        answers.append(ref)
        if not checker.check(json.loads(case), ref):
            out["reference_rejected"] += 1
            if witness in ("reference", "rare") and out["witness"] is None:
                out["witness"] = {"case": case, "answer": ref, "check": False,
                                  "verify_score": score(cls, cls.wrap_answer(ref), case)}
        if li >= n_cases:
            continue
        mine = checker.solve(json.loads(case))
        if not checker.check(json.loads(case), mine):
            out["solve_rejected"].append({"case": case, "answer": mine})
        if score(cls, cls.wrap_answer(mine), case) < 1.0:
            out["solve_scored_below_1"] += 1
        if witness in ("lenient", "strict", "none"):
            pool = candidates(checker, ident, ref)
            for response in responses(cls, ref, pool):
                got = score(cls, response, case)
                said = last_block(response)
                verdict = said is not None and bool(checker.check(json.loads(case), said))
                if (got == 1.0) == verdict:
                    continue
                row = {"case": case, "response": response, "answer": said, "check": verdict,
                       "verify_score": got}
                side = "lenient" if got == 1.0 else "strict"
                out["disagree_" + side] += 1
                if witness == "none":
                    out["disagreements"].append(row)
                elif witness == side:
                    out["witness"] = out["witness"] or row
        elif witness == "purity" and out["witness"] is None:
            before = json.dumps(ident, sort_keys=True)
            r1 = cls.reference_answer(ident)
            r2 = cls.reference_answer(ident)
            s1 = cls.verify_score(cls.wrap_answer(r1), ident)
            s2 = cls.verify_score(cls.wrap_answer(r1), ident)
            after = json.dumps(ident, sort_keys=True)
            if before != after or r1 != r2 or s1 != s2:
                out["witness"] = {"case": before, "after": after, "references": [r1, r2],
                                  "scores": [s1, s2]}
    if witness == "copyable":
        copied = 0
        for _level, case in cases[:n_cases]:
            shown = shown_order(json.loads(case))
            if checker.check(json.loads(case), shown) and \
                    score(cls, cls.wrap_answer(shown), case) == 1.0:
                copied += 1
                out["witness"] = out["witness"] or {"case": case, "shown": shown}
        out["copy_share"] = copied / min(n_cases, len(cases))
    if witness == "slow":
        out["fresh_case_s"] = {name: fresh_case_s(cls, params, SEED + k, first_case_s[name])
                               for k, (name, params) in enumerate(levels(cls))}
        hardest = levels(cls)[-1][0]
        if out["fresh_case_s"][hardest] > 1.0:
            out["witness"] = {"level": hardest, "seconds": out["fresh_case_s"][hardest]}
    if witness == "rare":
        out["rate"] = out["reference_rejected"] / len(cases)
    if witness == "hashseed":
        out["answers"] = answers
    if witness == "two_valued":
        counts = Counter(" ".join(a.split()) for a in answers)
        top = counts.most_common(2)
        out["top2_share"] = sum(n for _, n in top) / len(answers)
        out["top_share"] = top[0][1] / len(answers)
        out["values"] = dict(counts.most_common(6))
        if out["top2_share"] >= 0.95:
            out["witness"] = {"top": top, "cases": len(answers)}
    if witness == "capped":
        by: dict[str, list[int]] = {}
        for level, case in cases:
            by.setdefault(level, []).append(scalars(json.loads(case)))
        names = [n for n, _ in levels(cls)]
        size = {n: sum(v) / len(v) for n, v in by.items()}
        out["size"] = size
        a, b = names[-2], names[-1]
        asked = [k for k, v in cls.LEVELS[b].items() if isinstance(v, int | float)
                 and isinstance(cls.LEVELS[a].get(k), int | float) and v > cls.LEVELS[a][k]]
        if asked and size[b] <= size[a] * 1.05:
            out["witness"] = {"levels": [a, b], "size": [size[a], size[b]], "grown_params": asked}
    ref_prog = entry["files"].get("reference")
    if ref_prog:
        render = cls.render_stdin  # type: ignore[attr-defined]
        bad = []
        shown = cases[:12]
        program = (root / ref_prog).read_text(encoding="utf-8")
        stdins = [render(json.loads(case)) for _level, case in shown]
        # each run a process of its own, forked from one interpreter (_fork_runs.py)
        for (_level, case), run in zip(shown, run_many(program, stdins, timeout=20), strict=True):
            said = run.stdout.strip()
            if run.returncode != 0 or not checker.check(json.loads(case), said):
                bad.append({"case": case, "stdout": run.stdout, "stderr": run.stderr[-500:]})
        out["reference_program_rejected"] = bad
    return out


def main() -> None:
    request = json.load(sys.stdin)
    root = Path(request["root"])
    report: dict[str, Any] = {}
    for entry in request["entries"]:
        start = time.perf_counter()
        try:
            res = probe(root, entry, int(request["cases"]), request.get("mode", "full"))
        except Exception:  # report, do not stop the other modules
            res = {"error": traceback.format_exc()[-3000:]}
        res["seconds"] = round(time.perf_counter() - start, 3)
        report[entry["module"]] = res
    print(json.dumps(report))


if __name__ == "__main__":
    main()
