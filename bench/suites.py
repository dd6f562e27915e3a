"""How well compiled bootcamps' code test suites separate correct programs from incorrect ones:
`synth suite-eval` over the labelled CodeContests tasks (bench/labelled/codecontests), every task
that has a labelled folder and a compiled bootcamp in the library, and the TPR/TNR table.

Side by side for each suite: the statement's examples alone, the suite without its stress level,
the full suite; then which tests catch which fault kinds, and the minimised suites' sizes.

``--stress NAME=JSON`` adds a what-if row: the bootcamp NAME measured once more with the STRESS
preset JSON added to a copy of its module in a temporary library (the library is not changed),
to show what a stress level would catch on a bootcamp that declares none.

    .venv/bin/python bench/suites.py [--labelled DIR] [--sandbox process] [--json FILE]
        [--stress 'codecontests_06_c_divisors_loyal_to_their_digits={"n": 1000000000000}']
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402
from synth.commands.suite_eval import print_report  # noqa: E402
from synth.library import Library  # noqa: E402
from synth.sandbox import get_backend  # noqa: E402
from synth.suites.build import BuildOptions  # noqa: E402
from synth.suites.evaluate import suite_eval  # noqa: E402
from synth.suites.labelled import read_labelled  # noqa: E402

_LEVELS_LINE = re.compile(r"^(\s+)LEVELS\b[^\n]*$", re.M)


def with_stress(code: str, preset: dict[str, object]) -> str:
    """The module with ``STRESS = preset`` added to its class body, after its LEVELS line."""
    match = _LEVELS_LINE.search(code)
    if match is None:
        raise SystemExit("the module has no one-line LEVELS in its class body to put STRESS after")
    line = f"\n{match.group(1)}STRESS = {preset!r}"
    return code[:match.end()] + line + code[match.end():]


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labelled", type=Path, default=REPO / "bench" / "labelled" / "codecontests")
    ap.add_argument("--library", type=Path, default=None)
    ap.add_argument("--sandbox", default="process")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tests-per-level", type=int, default=10)
    ap.add_argument("--stress-tests", type=int, default=5)
    ap.add_argument("--stress", action="append", default=[], metavar="NAME=JSON")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not args.labelled.is_dir():
        raise SystemExit(f"no labelled folder at {args.labelled}")
    lib = Library(args.library) if args.library else Library()
    backend = get_backend(args.sandbox)
    options = BuildOptions(seed=args.seed, per_level=args.tests_per_level,
                           stress=args.stress_tests)
    tasks = read_labelled(args.labelled)
    print(f"{len(tasks)} labelled task(s) in {args.labelled}; {args.sandbox} backend; "
          f"{args.tests_per_level} tests per level, {args.stress_tests} stress tests")
    t0 = time.perf_counter()
    report = suite_eval(tasks, library=lib, backend=backend, options=options, progress=print)
    for spec in args.stress:
        name, _, preset = spec.partition("=")
        rec, code = lib.checked_code(name)
        with tempfile.TemporaryDirectory() as tmp:
            what_if = Library(Path(tmp))
            what_if.commit(name=f"{name[:56]}_stress", code=with_stress(code, json.loads(preset)),
                           class_name=rec.class_name, source=rec.source, task_id=rec.task_id,
                           origin=rec.origin, mode=rec.mode)
            extra = suite_eval([t for t in tasks if t.task_id == rec.task_id], library=what_if,
                               backend=backend, options=options, progress=print)
        for t in extra.tasks:
            t.bootcamp = f"{name}+stress"
        print(f"what if: {name}+stress is {name} with STRESS = {preset}")
        report.tasks += extra.tasks
    report.elapsed_s = round(time.perf_counter() - t0, 3)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report.plain(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
