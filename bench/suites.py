"""How well compiled bootcamps' code test suites separate correct programs from incorrect ones:
`synth suite-eval` over the labelled CodeContests tasks (bench/labelled/codecontests), every task
that has a labelled folder and a compiled bootcamp in the library, and the TPR/TNR table.

Side by side for each suite: the statement's examples alone, the suite without its stress level,
the full suite; then which tests catch which fault kinds, and the minimised suites' sizes.

``--compiled-fixtures`` measures the compiled modules of tests/fixtures/compiled (tasks 08, 12,
13 and 14 of the bundled sample, written for the compiled-mode tests; not in the library) from a
temporary library, as more suites to measure the machinery on.

``--stress NAME=JSON`` adds a what-if row: the bootcamp NAME measured once more with the STRESS
preset JSON added to a copy of its module in a temporary library (the library is not changed),
to show what a stress level would catch on a bootcamp that declares none.

    .venv/bin/python bench/suites.py [--labelled DIR] [--sandbox process] [--json FILE]
        [--stress 'codecontests_06_c_divisors_loyal_to_their_digits={"n": 1000000000000}']
"""

from __future__ import annotations

import argparse
import ast
import json
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
from synth.suites.build import BuildError, BuildOptions  # noqa: E402
from synth.suites.evaluate import suite_eval  # noqa: E402
from synth.suites.labelled import read_labelled  # noqa: E402


def with_stress(code: str, preset: dict[str, object]) -> str:
    """The module with ``STRESS = preset`` added to its bootcamp class, after its LEVELS."""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for stmt in node.body:
            target = stmt.target if isinstance(stmt, ast.AnnAssign) else (
                stmt.targets[0] if isinstance(stmt, ast.Assign) else None)
            if isinstance(target, ast.Name) and target.id == "LEVELS":
                lines = code.splitlines(keepends=True)
                end = stmt.end_lineno or stmt.lineno
                indent = " " * stmt.col_offset
                lines.insert(end, f"{indent}STRESS = {preset!r}\n")
                return "".join(lines)
    raise SystemExit("the module's class has no LEVELS to put STRESS after")


#: the compiled fixtures measured with --compiled-fixtures: module -> sample record
FIXTURES = {"08_one_wall_down": 8, "12_rebuild_the_queue": 12, "13_strangers_to_m": 13,
            "14_earliest_course_plan": 14}


def fixtures_library(root: Path) -> Library:
    """A library of the compiled fixtures, each under its sample task's id."""
    sys.path.insert(0, str(REPO / "tests" / "fixtures" / "compiled"))
    from assemble_all import sample_task  # the fixtures' own helper

    from synth.library import find_bootcamp_class

    lib = Library(root)
    for module, record in FIXTURES.items():
        code = (REPO / "tests" / "fixtures" / "compiled" / f"{module}.py").read_text("utf-8")
        lib.commit(name=f"fixture_{module[3:]}", code=code, class_name=find_bootcamp_class(code),
                   source="codecontests", task_id=sample_task(record).id, origin="generated",
                   mode="compiled")
    return lib


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
    ap.add_argument("--compiled-fixtures", action="store_true")
    ap.add_argument("--no-derive-stress", action="store_true",
                    help="no derived stress preset for a class without STRESS")
    args = ap.parse_args()
    if not args.labelled.is_dir():
        raise SystemExit(f"no labelled folder at {args.labelled}")
    keep = tempfile.TemporaryDirectory()
    lib = Library(args.library) if args.library else Library()
    if args.compiled_fixtures:
        lib = fixtures_library(Path(keep.name))
    backend = get_backend(args.sandbox)
    options = BuildOptions(seed=args.seed, per_level=args.tests_per_level,
                           stress=args.stress_tests, derive_stress=not args.no_derive_stress)
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
            try:
                extra = suite_eval([t for t in tasks if t.task_id == rec.task_id],
                                   library=what_if, backend=backend, options=options,
                                   progress=print)
            except BuildError as exc:
                print(f"what if: {name} with STRESS = {preset}: no suite: {exc}")
                continue
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
