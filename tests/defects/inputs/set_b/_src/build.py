"""Re-assemble the set_b input-validity corpus from its sources.

    .venv/bin/python tests/defects/inputs/set_b/_src/build.py     # from the repository root

Sources: ``TASK.statement.md`` (the task's problem text, CodeContests layout),
``TASK.reference.py`` (its reference program) and ``NAME.model.py`` (the part of a compiled
bootcamp a code model writes; NAME is TASK or TASK_<defect>). For every model part,
``synth.compiled.assemble(model, reference, statement)`` is written to ``../NAME.py`` and the
reference program is copied to ``../NAME.reference.py``. First every example of every
statement is run through the task's reference program, whose output must be the example's.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent
OUT = SRC.parent
ROOT = SRC.parents[4]
sys.path.insert(0, str(ROOT))

from synth.compiled import assemble  # noqa: E402

# an example: "Input", blank line, the input, two blank lines, "Output", blank line, the output
_EXAMPLE = re.compile(r"^Input\n\n(.*?)\n\n\nOutput\n\n(.*?)(?=\n\n\nInput\n|\n\n\nNote\n|\Z)",
                      re.S | re.M)


def tasks() -> dict[str, tuple[str, str]]:
    """task -> (statement, reference program)."""
    return {p.name[: -len(".statement.md")]: (
        p.read_text(encoding="utf-8"),
        (SRC / (p.name[: -len(".statement.md")] + ".reference.py")).read_text(encoding="utf-8"))
        for p in sorted(SRC.glob("*.statement.md"))}


def task_of(name: str, known: dict[str, tuple[str, str]]) -> str:
    """The longest task name that is ``name`` or a prefix of it followed by '_'."""
    matches = [t for t in known if name == t or name.startswith(t + "_")]
    if not matches:
        raise SystemExit(f"{name}: no statement for it")
    return max(matches, key=len)


def examples(statement: str) -> list[tuple[str, str]]:
    return _EXAMPLE.findall(statement.split("\nExamples\n", 1)[1])


def check_examples(task: str, statement: str, program: str) -> int:
    found = examples(statement)
    if len(found) < 2:
        raise SystemExit(f"{task}: fewer than 2 examples")
    for stdin, expected in found:
        run = subprocess.run([sys.executable, "-c", program], input=stdin.strip() + "\n",
                             capture_output=True, text=True, timeout=30, check=False)
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
