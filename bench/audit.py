"""Benchmark `synth audit`: modules per minute on this machine's cores.

    .venv/bin/python bench/audit.py [--modules 300] [--subset 60] [--sandbox process] [--full]

Generates ``--modules`` InternBootcamp-style fixture modules (written here, from a few
templates of this project's own: ``Basebootcamp``, ``**params`` or keyword arguments, global
``random``, ``[answer]`` / ``<answer>`` / ``\\boxed{}`` answers, tuples in some cases; about
70 % fine, 25 % with one real defect, 5 % importing a missing dependency), audits them with
``synth audit --jobs 2`` end to end (a fresh CLI process, as a user runs it), and prints modules
per minute; then audits the first ``--subset`` modules with ``--jobs 1`` and ``--jobs 2`` side by
side and prints the ratio. Also prints how the verdicts match what each fixture was made to be.
It reports; it is not a test, and always exits 0. Defaults take under 2 minutes on 2 cores
(100 s with a little other work on the machine); ``--full`` is the earlier default, 1000 modules and a subset of
100 (over 5 minutes: 1000 modules alone took more than 5.5 minutes with the machine busy).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import Ticker, run_child, setup  # noqa: E402

_MODULE = '''"""Benchmark fixture ({kind}): {what}."""

import random
import re
{extra_import}
from bootcamp import Basebootcamp


class {cls}(Basebootcamp):
{init}

    def case_generator(self):
{generate}

    @staticmethod
    def prompt_func(question_case):
{prompt}
        return f"{{text}} Give the answer as {example}."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"{pattern}", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
{verify}
'''

#: Answer formats: (the example shown in the prompt, as it stands in the generated f-string;
#: the extraction pattern, as it stands in the generated raw string).
TAGS = [("[answer]N[/answer]", r"\[answer\](.*?)\[/answer\]"),
        ("<answer>N</answer>", r"<answer>(.*?)</answer>"),
        (r"\\boxed{{N}}", r"\\boxed\{(.*?)\}")]

#: Task families: (what, case generator body, prompt body, correct verifier body).
FAMILIES = {
    "list_sum": (
        "the sum of a list of integers",
        '        return {"numbers": [random.randint(self.low, self.high) for _ in range(self.size)]}',
        '        text = "Add up: " + " ".join(str(x) for x in question_case["numbers"]) + "."',
        '        return int(solution) == sum(identity["numbers"])'),
    "list_max": (
        "the largest integer of a list",
        '        return {"numbers": [random.randint(self.low, self.high) for _ in range(self.size)]}',
        '        text = "The largest of: " + ", ".join(str(x) for x in question_case["numbers"]) + "?"',
        '        return int(solution) == max(identity["numbers"])'),
    "sorted_list": (
        "a list of integers in ascending order",
        '        return {"numbers": [random.randint(self.low, self.high) for _ in range(self.size)]}',
        '        text = "Sort ascending, separated by spaces: " + " ".join(str(x) for x in question_case["numbers"]) + "."',
        '        return [int(x) for x in solution.split()] == sorted(identity["numbers"])'),
    "word_reverse": (
        "a random word spelled backwards",
        '        letters = "abcdefghijklmnopqrstuvwxyz"\n'
        '        return {"word": "".join(random.choice(letters) for _ in range(self.size + 3))}',
        '        text = f"Spell {question_case[\'word\']!r} backwards."',
        '        return solution == identity["word"][::-1]'),
    "pair_gcd": (
        "the greatest common divisor of two integers (the case holds a tuple)",
        '        k = random.randint(2, 9)\n'
        '        return {"pair": (k * random.randint(self.low, self.high), k * random.randint(self.low, self.high))}',
        '        a, b = question_case["pair"]\n        text = f"What is gcd({a}, {b})?"',
        '        import math\n        a, b = identity["pair"]\n        return int(solution) == math.gcd(a, b)'),
    "count_vowels": (
        "how many vowels a random string has",
        '        letters = "abcdefghijklmnopqrstuvwxyz"\n'
        '        return {"text": "".join(random.choice(letters) for _ in range(self.size * 3))}',
        '        text = f"How many of the letters of {question_case[\'text\']!r} are vowels (aeiou)?"',
        '        return int(solution) == sum(ch in "aeiou" for ch in identity["text"])'),
}

#: Defects, each one the gate finds: (what, how the family's code is changed).
DEFECTS = {
    "accepts_anything": "the verifier returns True for any extracted answer",
    "constant_puzzle": "the generator ignores randomness: one puzzle forever",
    "unseeded": "cases come from random.SystemRandom(), which no seed controls",
    "crashing_generator": "the generator divides by zero on every case",
    "prompt_crash": "the prompt reads a field the case does not have",
}


def _init(style: str, size: int, low: int, high: int) -> str:
    if style == "params":
        return ("    def __init__(self, **params):\n"
                f'        self.size = params.get("size", {size})\n'
                f'        self.low = params.get("low", {low})\n'
                f'        self.high = params.get("high", {high})')
    return (f"    def __init__(self, size={size}, low={low}, high={high}):\n"
            "        self.size = size\n        self.low = low\n        self.high = high")


def make_module(index: int, rng: random.Random) -> tuple[str, str, str]:
    """(file name, kind, source) of fixture ``index``: kind is fine, defective:<defect> or
    cannot_judge."""
    family = rng.choice(sorted(FAMILIES))
    what, generate, prompt, verify = FAMILIES[family]
    roll = rng.random()
    kind = "fine" if roll < 0.70 else "cannot_judge" if roll < 0.75 else \
        "defective:" + rng.choice(sorted(DEFECTS))
    extra_import = ""
    if kind == "defective:accepts_anything":
        verify = "        return True"
    elif kind == "defective:constant_puzzle":
        generate = generate.replace("random.", "random.Random(7).")
    elif kind == "defective:unseeded":
        generate = generate.replace("random.", "random.SystemRandom().")
    elif kind == "defective:crashing_generator":
        generate = "        self.size = self.size // (self.size - self.size)\n" + generate
    elif kind == "defective:prompt_crash":
        prompt = '        text = "Solve: " + str(question_case["puzzle"])'
    elif kind == "cannot_judge":
        extra_import = rng.choice(["import sympy\n", "from libs.puzzles import tools\n",
                                   "import numpy as np\n"])
    example, pattern = rng.choice(TAGS)
    size, low = rng.randint(3, 9), rng.randint(1, 20)
    source = _MODULE.format(
        kind=kind, what=what, extra_import=extra_import,
        cls="".join(p.title() for p in family.split("_")) + f"{index:04d}bootcamp",
        init=_init(rng.choice(["params", "kwargs"]), size, low, low + rng.randint(50, 5000)),
        generate=generate, prompt=prompt, example=example, pattern=pattern, verify=verify)
    return f"{family}_{index:04d}.py", kind, source


def generate_fixtures(folder: Path, count: int, seed: int = 12) -> dict[str, str]:
    """Write ``count`` fixtures into ``folder``; returns file name -> kind."""
    rng = random.Random(seed)
    kinds = {}
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        name, kind, source = make_module(i, rng)
        (folder / name).write_text(source, encoding="utf-8")
        kinds[name] = kind
    return kinds


def audit(folder: Path, out: Path, jobs: int, sandbox: str) -> tuple[float, dict[str, str]]:
    """Run ``synth audit`` in a fresh process: (wall seconds, module -> verdict)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["PYTHONPATH"] = str(REPO)
    count = len(list(folder.glob("*.py")))
    print(f"auditing {count} modules, --jobs {jobs} ...", flush=True)
    t0 = time.perf_counter()
    with Ticker(lambda: f"auditing {count} modules, --jobs {jobs}", every_s=30):
        done = run_child([sys.executable, "-m", "synth.cli", "audit", str(folder), "--out",
                          str(out), "--jobs", str(jobs), "--sandbox", sandbox], cwd=REPO, env=env)
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1, 3):
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
    with (out / "audit.csv").open(encoding="utf-8", newline="") as fh:
        return wall, {row["module"]: row["verdict"] for row in csv.DictReader(fh)}


def main() -> int:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", type=int, default=300)
    ap.add_argument("--subset", type=int, default=60)
    ap.add_argument("--full", action="store_true", help="--modules 1000 --subset 100")
    ap.add_argument("--sandbox", default="process")
    ap.add_argument("--keep", type=Path, help="generate the fixtures here and keep them")
    args = ap.parse_args()
    if args.full:
        args.modules, args.subset = 1000, 100
    base = args.keep or Path(tempfile.mkdtemp(prefix="synth-bench-audit-"))
    try:
        kinds = generate_fixtures(base / "all", args.modules)
        subset = base / "subset"
        subset.mkdir(exist_ok=True)
        for name in sorted(kinds)[: args.subset]:
            shutil.copy2(base / "all" / name, subset / name)
        made = Counter(k.split(":")[0] for k in kinds.values())
        print(f"{args.modules} fixtures: {made['fine']} fine, {made['defective']} defective, "
              f"{made['cannot_judge']} cannot judge; {os.cpu_count()} CPU(s), load "
              f"{os.getloadavg()[0]:.1f}, {args.sandbox} sandbox")
        wall, verdicts = audit(base / "all", base / "out-all", 2, args.sandbox)
        print(f"all {args.modules} modules, --jobs 2: {wall:.1f} s, "
              f"{60 * len(verdicts) / wall:.0f} modules/minute")
        one, _ = audit(subset, base / "out-1", 1, args.sandbox)
        two, _ = audit(subset, base / "out-2", 2, args.sandbox)
        n = len(list(subset.glob("*.py")))
        print(f"subset of {n}: --jobs 1 {60 * n / one:.0f} modules/minute, --jobs 2 "
              f"{60 * n / two:.0f} modules/minute: {one / two:.2f}x with 2 jobs")
        table: Counter[tuple[str, str]] = Counter()
        for name, kind in kinds.items():
            table[(kind.split(":")[0], verdicts.get(name, "missing"))] += 1
        for kind in ("fine", "defective", "cannot_judge"):
            got = ", ".join(f"{v} {k}" for (kk, v), k in sorted(table.items()) if kk == kind)
            print(f"  {kind}: {got}")
        missed = Counter(kind for name, kind in kinds.items()
                         if kind.startswith("defective") and verdicts.get(name) != "rejected")
        if missed:
            print("  defective not rejected, by defect: "
                  + ", ".join(f"{k.split(':')[1]} {v}" for k, v in missed.most_common()))
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
