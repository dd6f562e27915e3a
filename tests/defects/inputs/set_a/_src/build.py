"""Re-assemble the set_a input-validity corpus from its sources.

    .venv/bin/python tests/defects/inputs/set_a/_src/build.py     # from the repository root

For every ``NAME.model.py`` here (the part of a compiled bootcamp that a code model writes),
the task is the ``TASK`` of the longest ``TASK.statement.md`` whose name prefixes ``NAME``;
``synth.compiled.assemble(model, TASK.reference.py, TASK.statement.md)`` gives
``../NAME.py`` and the reference program is copied to ``../NAME.reference.py``. Before that,
every example of every statement is run through its reference program (its output must be
the example's output), so that the statements stay honest.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent
OUT = SRC.parent
sys.path.insert(0, str(SRC.parents[4]))

from synth.compiled import assemble  # noqa: E402

_EXAMPLE = re.compile(r"\nInput\n\n(.*?)\n\n\nOutput\n\n(.*?)(?=\n\n\nInput\n|\n\n\nNote\n|\Z)",
                      re.S)


def tasks() -> dict[str, tuple[str, str]]:
    """task -> (statement, reference program)."""
    out = {}
    for path in sorted(SRC.glob("*.statement.md")):
        task = path.name[: -len(".statement.md")]
        out[task] = (path.read_text(encoding="utf-8"),
                     (SRC / f"{task}.reference.py").read_text(encoding="utf-8"))
    return out


def task_of(name: str, known: dict[str, tuple[str, str]]) -> str:
    matches = [t for t in known if name == t or name.startswith(t + "_")]
    if not matches:
        raise SystemExit(f"{name}: no task statement for it")
    return max(matches, key=len)


def check_examples(task: str, statement: str, program: str) -> int:
    examples = _EXAMPLE.findall(statement.split("\nExamples\n", 1)[1])
    if len(examples) < 2:
        raise SystemExit(f"{task}: fewer than 2 examples found")
    for stdin, expected in examples:
        run = subprocess.run([sys.executable, "-c", program], input=stdin.strip() + "\n",
                             capture_output=True, text=True, timeout=30, check=False)
        if run.returncode != 0 or run.stdout.split() != expected.split():
            raise SystemExit(f"{task}: example\n{stdin}\ngives {run.stdout!r} "
                             f"(exit {run.returncode}, {run.stderr[-300:]}), statement says "
                             f"{expected!r}")
    return len(examples)


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
    print(f"{len(known)} tasks, {len(names)} modules written to {OUT}")


if __name__ == "__main__":
    main()
