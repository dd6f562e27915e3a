"""Assemble the input-validity corpus: every task's correct bootcamp and each of its defects
(a one-place patch of the model's part), with the task's statement and reference program
embedded by ``synth.compiled.assemble``, into ``corpus/`` with a ``MANIFEST.json`` in the
layout :func:`synth.gate.corpus.run_corpus` reads.

    .venv/bin/python tests/defects/inputs/build.py     # rewrite corpus/ from tasks_*.py

tests/defects/test_input_corpus.py fails while corpus/ is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))

from tasks_a import TASKS as A  # noqa: E402
from tasks_b import TASKS as B  # noqa: E402
from tasks_c import TASKS as C  # noqa: E402

from synth.compiled import assemble  # noqa: E402

TASKS = {**A, **B, **C}
OUT = HERE / "corpus"


def modules() -> dict[str, tuple[str, str, dict[str, str]]]:
    """name -> (assembled module, reference program, manifest entry)."""
    out: dict[str, tuple[str, str, dict[str, str]]] = {}
    for task, t in TASKS.items():
        out[task] = (assemble(t["model"], t["reference"], t["statement"]), t["reference"],
                     {"module": task, "kind": "clean", "task": task, "defect": ""})
        for name, (kind, old, new, what) in t["defects"].items():
            if t["model"].count(old) != 1:
                raise SystemExit(f"{name}: the patch's text occurs {t['model'].count(old)} times")
            model = t["model"].replace(old, new)
            out[name] = (assemble(model, t["reference"], t["statement"]), t["reference"],
                         {"module": name, "kind": kind, "task": task, "defect": what})
    return out


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.py"):
        old.unlink()
    entries = []
    for name, (module, reference, entry) in modules().items():
        (OUT / f"{name}.py").write_text(module, encoding="utf-8")
        (OUT / f"{name}.reference.py").write_text(reference, encoding="utf-8")
        entries.append(entry)
    manifest = {"about": "Input-validity corpus (issue 21): compiled bootcamps, correct ones and "
                         "ones with one realistic mistake in what the code model writes. Built "
                         "by build.py from tasks_*.py.", "modules": entries}
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"{len(entries)} modules ({sum(e['kind'] == 'clean' for e in entries)} clean)")


if __name__ == "__main__":
    main()
