"""Run the witness over every module of MANIFEST.json and assert the corpus's promises.

    .venv/bin/python tests/defects/inputs/set_a/check_witnesses.py     # from the repo root

* every example input of every statement is legal for the task's validator;
* a clean module's cases are all legal;
* a defective module breaks its rule on at least one case, on >= 10 % of the cases of at least
  one level, and the task's reference program still exits 0 on the violating inputs.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parent))  # after the set's own folder: for _fork_runs only

from _fork_runs import run_many  # noqa: E402
from witness import CHECKS, load_class, witness  # noqa: E402

_EXAMPLE_INPUT = re.compile(r"\nInput\n\n(.*?)\n\n\nOutput\n", re.S)


def examples_legal(task: str) -> int:
    text = (HERE / "_src" / f"{task}.statement.md").read_text(encoding="utf-8")
    inputs = _EXAMPLE_INPUT.findall(text.split("\nExamples\n", 1)[1])
    assert len(inputs) >= 2, f"{task}: fewer than two examples"
    for stdin in inputs:
        rule = CHECKS[task](stdin.strip() + "\n")
        assert rule is None, f"{task}: the validator rejects an example input ({rule}):\n{stdin}"
    return len(inputs)


def reference_survives(name: str, task: str, limit: int = 20) -> int:
    """Run the module's reference program on up to ``limit`` violating inputs; all exit 0
    (each run as ``python -c PROGRAM``, forked from one warm interpreter: _fork_runs.py)."""
    cls = load_class(HERE / f"{name}.py")
    program = (HERE / f"{name}.reference.py").read_text(encoding="utf-8")
    breaking: list[str] = []
    for level in cls.LEVELS:
        for seed in range(60):
            stdin = cls.render_stdin(cls.from_level(level, seed=seed).case_generator())
            if CHECKS[task](stdin) is not None and len(breaking) < limit:
                breaking.append(stdin)
    for stdin, run in zip(breaking, run_many(program, breaking, timeout=30), strict=True):
        assert run.returncode == 0, f"{name}: the reference crashes on\n{stdin}\n{run.stderr}"
    return len(breaking)


def main() -> None:
    manifest = json.loads((HERE / "MANIFEST.json").read_text(encoding="utf-8"))
    tasks = sorted({m["task"] for m in manifest["modules"]})
    for task in tasks:
        examples_legal(task)
    kinds = Counter(m["kind"] for m in manifest["modules"])
    assert kinds["clean"] >= 7 and kinds["bounds"] >= 5 and kinds["guarantee"] >= 11, kinds
    for entry in manifest["modules"]:
        text = (HERE / "_src" / f"{entry['task']}.statement.md").read_text(encoding="utf-8")
        input_section = text.split("\nInput\n", 1)[1].split("\nOutput\n", 1)[0]
        if entry["kind"] == "clean":
            assert entry["rule"] == "" and entry["defect"] == "", entry["module"]
        else:
            assert entry["rule"] and entry["rule"] in input_section, \
                f"{entry['module']}: its rule is not text of the Input section"
        assert isinstance(entry["today_caught"], bool), entry["module"]
    print(f"{'module':34} {'kind':9} {'easy':>6} {'medium':>6} {'hard':>6}  today  first rule")
    failures = []
    for entry in manifest["modules"]:
        name, task, kind = entry["module"], entry["task"], entry["kind"]
        w = witness(HERE / f"{name}.py", task)
        counts = {lv: v["violations"] for lv, v in w["levels"].items()}
        first = w["first"]["rule"] if w["first"] else ""
        caught = "caught" if entry["today_caught"] else "-"
        print(f"{name:34} {kind:9} " + " ".join(f"{counts.get(lv, 0):>6}" for lv in
                                                 ("easy", "medium", "hard"))
              + f"  {caught:6} {first}")
        if kind == "clean":
            if w["violations"]:
                failures.append(f"{name}: clean, but {w['violations']} illegal cases: {first}\n"
                                f"{w['first']['stdin']}")
        else:
            if not w["violations"]:
                failures.append(f"{name}: defective, but every case is legal")
            elif max(counts.values()) < 6:
                failures.append(f"{name}: the defect shows on < 10 % of every level's cases")
            else:
                reference_survives(name, task)
    assert not failures, "\n".join(failures)
    print(f"ok: {len(manifest['modules'])} modules, {len(tasks)} tasks")


if __name__ == "__main__":
    main()
