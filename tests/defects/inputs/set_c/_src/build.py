"""Re-assemble the set_c input-validity corpus from its sources.

    .venv/bin/python tests/defects/inputs/set_c/_src/build.py     # from the repository root

Sources, per task: ``TASK.statement.md`` (the problem text; the tasks are written in several
house styles -- AtCoder, Codeforces, Markdown, plain prose -- so the examples are not found by
one pattern), ``TASK.examples.json`` (the statement's examples as ``[[input, output], ...]``),
``TASK.reference.py`` (the reference program), and ``NAME.model.py`` (the part of a compiled
bootcamp a code model writes; NAME is TASK or TASK_<defect>).

Before anything is written, every example must appear verbatim in its statement (input and
output, each stripped) and the reference program must print the example's output on its
input. Then ``synth.compiled.assemble(model, reference, statement)`` is written to
``../NAME.py`` and the reference program is copied to ``../NAME.reference.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent
OUT = SRC.parent
ROOT = SRC.parents[4]
sys.path.insert(0, str(ROOT))

from synth.compiled import assemble  # noqa: E402


def tasks() -> dict[str, tuple[str, str]]:
    """task -> (statement, reference program)."""
    out = {}
    for path in sorted(SRC.glob("*.statement.md")):
        task = path.name[: -len(".statement.md")]
        out[task] = (path.read_text(encoding="utf-8"),
                     (SRC / f"{task}.reference.py").read_text(encoding="utf-8"))
    return out


def task_of(name: str, known: dict[str, tuple[str, str]]) -> str:
    """The longest task name that is ``name`` or a prefix of it followed by '_'."""
    matches = [t for t in known if name == t or name.startswith(t + "_")]
    if not matches:
        raise SystemExit(f"{name}: no statement for it")
    return max(matches, key=len)


def examples(task: str) -> list[tuple[str, str]]:
    found = json.loads((SRC / f"{task}.examples.json").read_text(encoding="utf-8"))
    return [(stdin, out) for stdin, out in found]


def check_examples(task: str, statement: str, program: str) -> int:
    found = examples(task)
    if len(found) < 2:
        raise SystemExit(f"{task}: fewer than 2 examples")
    for stdin, expected in found:
        for what, text in (("input", stdin), ("output", expected)):
            if text.strip() not in statement:
                raise SystemExit(f"{task}: the example {what} {text!r} is not in the statement")
        run = subprocess.run([sys.executable, "-c", program], input=stdin, capture_output=True,
                             text=True, timeout=30, check=False)
        if run.returncode != 0 or run.stdout.split() != expected.split():
            raise SystemExit(f"{task}: example\n{stdin}\ngives {run.stdout!r} (exit "
                             f"{run.returncode}, {run.stderr[-300:]}); the statement says "
                             f"{expected!r}")
    return len(found)


def main() -> None:
    known = tasks()
    for task, (statement, program) in known.items():
        check_examples(task, statement, program)
    names = []
    for model_path in sorted(SRC.glob("*.model.py")):
        name = model_path.name[: -len(".model.py")]
        statement, program = known[task_of(name, known)]
        module = assemble(model_path.read_text(encoding="utf-8"), program, statement)
        (OUT / f"{name}.py").write_text(module, encoding="utf-8")
        (OUT / f"{name}.reference.py").write_text(program, encoding="utf-8")
        names.append(name)
    print(f"{len(known)} tasks (examples verified), {len(names)} modules written to {OUT}")


if __name__ == "__main__":
    main()
