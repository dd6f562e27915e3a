"""Run the witness over every module of MANIFEST.json and assert the corpus's promises.

    .venv/bin/python tests/defects/inputs/set_c/check_witnesses.py     # from the repo root

* every example input of every task (``_src/TASK.examples.json``, each verbatim in the
  statement) is legal for the task's hand-written validator;
* the manifest holds enough modules of each kind, and each defect's rule is the statement's
  own text;
* a clean module shows no witness of any kind on any generated case (60 per level);
* a defective module shows its own kind's witness on >= 10 % of the cases of at least one
  level, and no witness of another kind (one mistake each);
* for an input defect (bounds, guarantee, format), the task's reference program still exits 0
  on the inputs that break the rule (so the mistake is not already caught by a crash).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from witness import CHECKS, SEEDS, WITNESS_OF, WITNESSES, load_class, run_references, witness  # noqa: E402

MINIMUM = {"clean": 8, "bounds": 4, "guarantee": 8, "format": 4, "prompt": 3, "check_output": 3}
SHARE = 0.10  # a defect shows on at least this share of one level's cases


def examples_legal(task: str) -> int:
    statement = (HERE / "_src" / f"{task}.statement.md").read_text(encoding="utf-8")
    examples = json.loads((HERE / "_src" / f"{task}.examples.json").read_text(encoding="utf-8"))
    assert len(examples) >= 2, f"{task}: fewer than two examples"
    for stdin, output in examples:
        assert stdin.strip() in statement and output.strip() in statement, \
            f"{task}: an example is not in the statement:\n{stdin}"
        rule = CHECKS[task](stdin)
        assert rule is None, f"{task}: the validator rejects an example input ({rule}):\n{stdin}"
    return len(examples)


def reference_survives(name: str, task: str, limit: int = 20) -> int:
    """The reference program exits 0 on up to ``limit`` of the module's rule-breaking inputs."""
    path = HERE / f"{name}.py"
    cls = load_class(path)
    breaking: list[str] = []  # the first ``limit`` of them, run in one batch
    for level in cls.LEVELS:
        for seed in SEEDS:
            stdin = cls.render_stdin(cls.from_level(level, seed=seed).case_generator())
            if CHECKS[task](stdin) is not None and len(breaking) < limit:
                breaking.append(stdin)
    for stdin, run in zip(breaking, run_references(path, breaking), strict=True):
        assert run.returncode == 0, f"{name}: the reference crashes on\n{stdin}\n{run.stderr}"
    return len(breaking)


def judge(entry: dict[str, Any]) -> dict[str, Any]:
    name, task, kind = entry["module"], entry["task"], entry["kind"]
    w = witness(HERE / f"{name}.py", task)
    problems = []
    if kind == "clean":
        problems += [f"a clean module shows a {k} witness: {w[k]['first']}" for k in WITNESSES
                     if w[k]["count"]]
    else:
        own = WITNESS_OF[kind]
        levels = w[own]["levels"]
        if not any(count >= SHARE * len(SEEDS) for count in levels.values()):
            problems.append(f"its {own} witness shows on too few cases: {levels}")
        problems += [f"it also shows a {k} witness (more than one mistake?): {w[k]['first']}"
                     for k in WITNESSES if k != own and w[k]["count"]]
        if own == "input" and w[own]["count"]:
            assert reference_survives(name, task) > 0
    return {"module": name, "kind": kind, "levels": {k: w[k]["levels"] for k in WITNESSES},
            "counts": {k: w[k]["count"] for k in WITNESSES}, "problems": problems,
            "first_rule": (w["input"]["first"] or {}).get("rule", ""),
            "today": entry["today_caught"]}


def main() -> None:
    manifest = json.loads((HERE / "MANIFEST.json").read_text(encoding="utf-8"))
    modules = manifest["modules"]
    tasks = sorted({m["task"] for m in modules})
    for task in tasks:
        examples_legal(task)
    kinds = Counter(m["kind"] for m in modules)
    for kind, least in MINIMUM.items():
        assert kinds[kind] >= least, f"only {kinds[kind]} {kind} modules (want {least})"
    assert set(kinds) <= set(MINIMUM), kinds
    for entry in modules:
        statement = (HERE / "_src" / f"{entry['task']}.statement.md").read_text(encoding="utf-8")
        if entry["kind"] == "clean":
            assert entry["rule"] == "" and entry["defect"] == "", entry["module"]
        else:
            assert entry["defect"] and entry["rule"] and entry["rule"] in statement, \
                f"{entry['module']}: its rule is not text of the statement"
        assert isinstance(entry["today_caught"], bool), entry["module"]
        assert isinstance(entry["today_failing"], list), entry["module"]
        assert (HERE / f"{entry['module']}.reference.py").is_file(), entry["module"]
    with ProcessPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(judge, modules))
    head = "".join(f" {k[:12]:>13}" for k in WITNESSES)
    print(f"{'module':34} {'kind':12}{head}  today   first broken rule")
    for r in results:
        cells = "".join(f" {r['counts'][k]:>13}" for k in WITNESSES)
        print(f"{r['module']:34} {r['kind']:12}{cells}  {'caught' if r['today'] else '-':7} "
              f"{r['first_rule'][:70]}")
    problems = [f"{r['module']}: {p}" for r in results for p in r["problems"]]
    assert not problems, "\n".join(problems)
    print(f"\n{len(results)} modules of {len(tasks)} tasks ({dict(kinds)}): every defect has "
          "its witness, no clean module has any")


if __name__ == "__main__":
    main()
