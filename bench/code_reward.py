"""The code reward's throughput and overhead: programs scored against code rows' test suites in
the sandbox (synth.training.code_reward: a fresh sandboxed runner per program from a warm pool,
a forked run per test) side by side with an unsandboxed direct run (a plain ``python
program.py`` subprocess per test, the same tokens comparison, the same stop at the first failed
test), on the same rows and programs, in one run.

The rows' suites are those ``synth export --format code`` writes for the shipped library's
compiled bootcamps (``synth.suites.build``: the statement's examples, then ``--tests-per-level``
cases of each level with the reference's output, built in the sandbox).
Three kinds of response: a right program (every test runs), a wrong one (it fails its first
test: one run), and one without a program (nothing runs). Both sides score with the same number
of threads (``--runners``); the scores must be equal.

    .venv/bin/python bench/code_reward.py [--backend process] [--programs 24] [--runners 2]
        [--tests-per-level 10]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402
from synth.bootcamp import same_tokens  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.suites.build import BuildOptions, build_suite  # noqa: E402
from synth.training.code_reward import CodeReward, extract_program  # noqa: E402

LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
BULBS = "codecontests_16_f_bulbs_without_long_glows"
RIGHT = {
    LOYAL: ("n = int(input())\nc = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n"
            "        for x in {d, n // d}:\n            c += x % sum(map(int, str(x))) == 0\n"
            "    d += 1\nprint(c)\n"),
    BULBS: ("MOD = 10**9 + 7\nn, k = map(int, input().split())\ndp = [1] + [0] * (k - 1)\n"
            "for _ in range(n):\n    dp = [sum(dp) % MOD] + dp[:-1]\nprint(sum(dp) % MOD)\n"),
}
WRONG = "print(-1)\n"


def suite(library: Library, name: str, per_level: int, backend: str) -> str:
    """A code row's ground truth, as ``synth export --format code`` builds it."""
    rec, code = library.checked_code(name)
    return build_suite(name, code, code_sha256=rec.code_sha256, backend=backend,
                       options=BuildOptions(seed=0, per_level=per_level)).text


def direct(response: str, truth: str, scratch: Path) -> float:
    """The unsandboxed run: a plain interpreter per test, stop at the first failure."""
    program = extract_program(response)
    if program is None:
        return 0.0
    suite_ = json.loads(truth)
    fd, name = tempfile.mkstemp(suffix=".py", dir=scratch)
    with os.fdopen(fd, "w") as fh:
        fh.write(program)
    try:
        for test in suite_["tests"]:
            try:
                done = subprocess.run([sys.executable, "-s", "-S", "-B", name],
                                      input=test["stdin"].encode(), capture_output=True,
                                      timeout=2 * suite_["time_limit_s"] + 1)
            except subprocess.TimeoutExpired:
                return 0.0
            if done.returncode != 0 or not same_tokens(test["expected"],
                                                       done.stdout.decode("utf-8", "replace")):
                return 0.0
        return 1.0
    finally:
        os.unlink(name)


def timed(score: Callable[[tuple[str, str, str]], float], items: list[tuple[str, str, str]],
          threads: int) -> tuple[list[float], float]:
    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as ex:
        scores = list(ex.map(score, items))
    return scores, time.perf_counter() - t0


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process", help="process, bwrap, docker or auto")
    ap.add_argument("--programs", type=int, default=24, help="responses of each kind")
    ap.add_argument("--runners", type=int, default=2, help="sandboxed runners = direct threads")
    ap.add_argument("--tests-per-level", type=int, default=10)
    args = ap.parse_args()

    library = Library()
    truths = {name: suite(library, name, args.tests_per_level, args.backend) for name in RIGHT}
    sizes = ", ".join(f"{n[:16]}: {len(json.loads(t)['tests'])} tests" for n, t in truths.items())
    print(f"backend {args.backend}, {args.runners} runners (= direct threads), "
          f"{args.programs} responses of each kind; suites {sizes}; "
          f"load average {os.getloadavg()[0]:.1f}")
    names = list(RIGHT)
    kinds = {
        "right (every test runs)": [(f"code/{names[i % 2]}", f"```python\n{RIGHT[names[i % 2]]}```",
                                     truths[names[i % 2]]) for i in range(args.programs)],
        "wrong (fails its first test)": [(f"code/{names[i % 2]}", f"```python\n{WRONG}```",
                                          truths[names[i % 2]]) for i in range(args.programs)],
        "no program": [(f"code/{names[i % 2]}", "I do not know.", truths[names[i % 2]])
                       for i in range(args.programs)],
    }
    reward = CodeReward(library, size=args.runners, backend=args.backend)
    per_row: dict[str, tuple[float, float]] = {}  # kind -> (sandboxed, direct) seconds a row
    try:
        # the pool starts its runners, and the suites are parsed and cached, before timing
        reward(*kinds["right (every test runs)"][0])
        with tempfile.TemporaryDirectory(prefix="synth-bench-code-") as tmp:
            for kind, items in kinds.items():
                boxed, t_boxed = timed(lambda it: reward(*it), items, args.runners)
                plain, t_plain = timed(lambda it, d=Path(tmp): direct(it[1], it[2], d), items,
                                       args.runners)
                if boxed != plain:
                    sys.exit(f"{kind}: the scores differ: sandboxed {boxed}, direct {plain}")
                n = len(items)
                per_row[kind] = (t_boxed / n, t_plain / n)
                print(f"{kind:30} sandboxed {n / t_boxed:7.1f} rows/s "
                      f"({1000 * t_boxed / n:6.1f} ms/row)   direct {n / t_plain:7.1f} rows/s "
                      f"({1000 * t_plain / n:6.1f} ms/row)   sandboxed/direct "
                      f"{t_plain / t_boxed:5.2f}x throughput; mean score {sum(boxed) / n:.2f}")
    finally:
        reward.close()
    tests = sum(len(json.loads(t)["tests"]) for t in truths.values()) / len(truths)
    (box_all, plain_all), (box_one, plain_one) = (per_row["right (every test runs)"],
                                                  per_row["wrong (fails its first test)"])
    print(f"per program (a one-test row): sandboxed {1000 * box_one:.0f} ms, direct "
          f"{1000 * plain_one:.0f} ms; per further test: sandboxed "
          f"{1000 * (box_all - box_one) / (tests - 1):.1f} ms (a forked run), direct "
          f"{1000 * (plain_all - plain_one) / (tests - 1):.1f} ms (an interpreter start); "
          f"wall time of {args.runners} threads")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
