"""Build a library of the hand-written compiled bootcamps of the suite benchmark: one per bundled
CodeContests sample task (``task_descriptions/codecontests/sample.jsonl``, records 01-18), each
with a ``STRESS`` preset at the statement's limits, so that ``synth suite-eval`` measures code
test suites on every task of ``bench/labelled/codecontests``.

Each model part (the part a code model would write: LEVELS, STRESS, the generator,
``render_stdin``) is assembled with its record's reference program and task text (the helpers
of ``tests/fixtures/compiled/assemble_all.py``), judged by the gate as ``synth check`` judges a
compiled module (the oracle and the inputs checks read the embedded program and statement; the
task's example inputs are given as ``synth check --task`` gives them), and, when it passes,
committed to the library as ``synth library add`` commits a hand-written module (the class and
levels the sandbox reports; origin handwritten, source folder ``codecontests``, the task id the
codecontests source gives the record; the record also says ``mode: compiled``).

The model parts: ``bench/compiled/codecontests/NN_<slug>.model.py``, NN the record's number;
records 08, 12 and 14 are the compiled fixtures' parts (``tests/fixtures/compiled``) and 13 is
the compiled exemplar (``synth/data/compiled_exemplar.py``), taken from there, not copied.

    .venv/bin/python bench/compiled/build.py [--library DIR] [--only NN ...] [--sandbox process]

Prints per module the gate's verdict, its seconds and its findings; exits 1 when any module
fails the gate (the passing ones are still added), 2 on a usage or sandbox error. The library
folder is a build product: never commit it.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "fixtures" / "compiled"))

from assemble_all import sample_reference, sample_task  # noqa: E402  (the fixtures' helpers)

from bench._common import setup  # noqa: E402
from synth.compiled import EXEMPLAR_PATH, assemble, task_text  # noqa: E402

HERE = Path(__file__).resolve().parent
PARTS = HERE / "codecontests"
FIXTURES = REPO / "tests" / "fixtures" / "compiled"
LABELLED = REPO / "bench" / "labelled" / "codecontests"
#: the default library folder (outside the repository: a build product)
DEFAULT_LIBRARY = Path(tempfile.gettempdir()) / "bench-compiled-library"
#: the records whose model part lives elsewhere in the repository
ELSEWHERE = {8: FIXTURES / "08_one_wall_down.model.py",
             12: FIXTURES / "12_rebuild_the_queue.model.py",
             13: EXEMPLAR_PATH,
             14: FIXTURES / "14_earliest_course_plan.model.py"}
PART_NAME = re.compile(r"(\d\d)_([a-z0-9_]+)\.model\.py")


@dataclass(frozen=True)
class Part:
    record: int
    path: Path

    @property
    def name(self) -> str:
        """The bootcamp's name in the library: codecontests_NN_<the task's slug>."""
        slug = sample_task(self.record).id.split("/", 1)[1].rsplit("-", 1)[0]
        return "codecontests_" + slug.replace("-", "_")


def model_parts() -> dict[int, Part]:
    """Every model part of the benchmark, by record number."""
    parts = {n: Part(n, p) for n, p in ELSEWHERE.items()}
    for path in sorted(PARTS.glob("*.model.py")):
        found = PART_NAME.fullmatch(path.name)
        if found is None:
            raise SystemExit(f"{path}: a model part is named NN_<slug>.model.py")
        record = int(found.group(1))
        if record in parts:
            raise SystemExit(f"{path}: record {record} already has a model part "
                             f"({parts[record].path.relative_to(REPO)})")
        parts[record] = Part(record, path)
    return dict(sorted(parts.items()))


def assembled(part: Part) -> str:
    """The compiled module: the part with its record's reference program and task text."""
    task = sample_task(part.record)
    return assemble(part.path.read_text(encoding="utf-8"), sample_reference(part.record),
                    task_text(task))


def gate(part: Part, code: str, sandbox: str) -> tuple[bool, float, list[str]]:
    """The gate as ``synth check`` runs it on the module (with the task's example inputs, as
    ``--task`` gives them): accepted?, seconds, the findings (one line each)."""
    from synth.gate import run_checks

    examples = [e.input for e in sample_task(part.record).examples] or None
    start = time.perf_counter()
    report = run_checks(code, backend=sandbox, name=f"{part.name}.py", example_inputs=examples)
    seconds = time.perf_counter() - start
    findings = [f"{c.name}{'/' + c.finding if c.finding else ''} ({c.label}): {c.reason[:300]}"
                for c in report.checks if c.label not in ("passed", "skipped")]
    inputs = report.get("inputs")
    if inputs is not None and "STRESS" not in str(inputs.artifacts.get("checked", "")):
        findings.append("inputs: no STRESS level was checked")
    return report.passed and not report.infrastructure_error, seconds, findings


def add(library: Path, part: Part, code: str, sandbox: str) -> str:
    """Commit ``code`` as ``synth library add`` does (the sandbox names the class and the
    levels), replacing an earlier build of the same name; returns the task id."""
    from synth.library import Library
    from synth.serving.sampling import CaseSampler

    task_id = sample_task(part.record).id
    with CaseSampler(code, backend=sandbox, name=part.name) as sampler:
        class_name, levels = sampler.class_found, sampler.levels
    Library(library).commit(name=part.name, code=code, class_name=class_name,
                            source="codecontests", task_id=task_id,
                            title=sample_task(part.record).title, origin="handwritten",
                            reference_code=sample_reference(part.record), replace=True,
                            levels=levels, mode="compiled")
    return task_id


def main() -> int:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", type=Path, default=DEFAULT_LIBRARY,
                    help=f"library folder to add the modules to (default {DEFAULT_LIBRARY})")
    ap.add_argument("--only", type=int, action="append", default=[], metavar="NN",
                    help="only this record (repeatable)")
    ap.add_argument("--sandbox", default="process", help="auto | process | bwrap | docker")
    args = ap.parse_args()
    parts = model_parts()
    unknown = sorted(set(args.only) - set(parts))
    if unknown:
        print(f"error: no model part for record(s) {unknown}; there are {sorted(parts)}",
              file=sys.stderr)
        return 2
    chosen = [parts[n] for n in (sorted(set(args.only)) or parts)]
    from synth.sandbox import SandboxUnavailableError

    failed: list[str] = []
    added: list[str] = []
    try:
        for part in chosen:
            code = assembled(part)
            ok, seconds, findings = gate(part, code, args.sandbox)
            where = part.path.relative_to(REPO)
            print(f"{part.record:02d} {part.name}: {'PASSED' if ok else 'FAILED'} "
                  f"{seconds:.1f}s ({where})")
            for line in findings:
                print(f"    {line}")
            if not ok:
                failed.append(part.name)
                continue
            task_id = add(args.library, part, code, args.sandbox)
            added.append(task_id)
            if not (LABELLED / task_id.split("/", 1)[1]).is_dir():
                print(f"    note: no labelled folder for {task_id} in {LABELLED}")
    except SandboxUnavailableError as exc:
        print(f"error: {exc} (try --sandbox process)", file=sys.stderr)
        return 2
    print(f"added {len(added)} bootcamp(s) to {args.library}; "
          f"{len(failed)} failed the gate" + (f": {', '.join(failed)}" if failed else ""))
    only = "".join(f" --task {t.split('/', 1)[1]}" for t in added) if args.only else ""
    print(f"measure: .venv/bin/synth suite-eval --labelled {LABELLED.relative_to(REPO)} "
          f"--library {args.library} --sandbox {args.sandbox}{only}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
