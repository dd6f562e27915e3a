"""The gate's time per compiled candidate with the input-validity checks, side by side with the
same gate given no statement (issue 21's target: <= 3 s median per compiled candidate).

Runs the whole gate on every correct module of the input-validity corpus
(tests/defects/inputs/corpus) and on the shipped generated bootcamps, twice in one run: as
``synth check FILE`` runs it (the module's embedded statement read: the derived checker, the
prompt and check_output probes) and with an empty task text (no statement rules), and prints
the median and maximum seconds per candidate and the ratio of the medians.

    .venv/bin/python bench/inputs.py [--backend process]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._common import setup  # noqa: E402
from synth.gate import run_checks  # noqa: E402
from synth.sandbox import get_backend  # noqa: E402

CORPUS = REPO / "tests" / "defects" / "inputs" / "corpus"


def modules() -> list[Path]:
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))["modules"]
    own = [CORPUS / f"{m['module']}.py" for m in manifest if m["kind"] == "clean"]
    return own + sorted((REPO / "generated_bootcamps" / "codecontests").glob("codecontests_*.py"))


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="process")
    args = ap.parse_args()
    backend = get_backend(args.backend)
    times: dict[str, list[float]] = {"with the statement": [], "without (task text '')": []}
    paths = modules()
    print(f"gating {len(paths)} modules twice ({args.backend} backend)")
    for i, path in enumerate(paths, 1):
        source = path.read_text(encoding="utf-8")
        cells = []
        for label, text in (("with the statement", None), ("without (task text '')", "")):
            t0 = time.perf_counter()
            report = run_checks(source, backend=backend, task_text=text, name=path.name)
            times[label].append(time.perf_counter() - t0)
            cells.append(f"{label.split()[0]} {times[label][-1]:5.2f}s")
            if label.startswith("with ") and not report.passed:
                print(f"  note: {path.name} rejected: {[c.name for c in report.failing]}")
        print(f"  {i:>2}/{len(paths)} {path.name[:48]:<48} " + ", ".join(cells))
    print(f"gate per compiled candidate ({len(modules())} modules, {args.backend} backend)")
    print(f"{'':<26}{'median s':>10}{'max s':>8}")
    for label, xs in times.items():
        print(f"{label:<26}{statistics.median(xs):>10.2f}{max(xs):>8.2f}")
    a, b = (statistics.median(v) for v in times.values())
    print(f"ratio of medians (with / without): {a / b:.2f}")


if __name__ == "__main__":
    main()
