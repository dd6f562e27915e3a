"""Run the witness over every module of MANIFEST.json and assert the corpus's promises.

    .venv/bin/python tests/defects/inputs/set_b/check_witnesses.py     # from the repo root

* every example input of every statement is legal for the task's hand-written validator;
* the manifest holds enough modules of each kind, and each defect's rule is the statement's text;
* a clean module shows no witness of any kind on any generated case (60 per level);
* a defective module shows its own kind's witness on >= 10 % of the cases of at least one level;
* for a format defect, the reference program still exits 0 on the inputs that break the rule
  (so the mistake is not already caught by a crash).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from witness import CHECKS, KINDS, SEEDS, load_class, run_references, witness  # noqa: E402

_EXAMPLE_INPUT = re.compile(r"^Input\n\n(.*?)\n\n\nOutput\n", re.S | re.M)
MINIMUM = {"clean": 7, "format": 6, "check_output": 4, "prompt": 4, "no_solution": 3}
SHARE = 0.10  # a defect shows on at least this share of one level's cases


def examples_legal(task: str) -> int:
    text = (HERE / "_src" / f"{task}.statement.md").read_text(encoding="utf-8")
    inputs = _EXAMPLE_INPUT.findall(text.split("\nExamples\n", 1)[1])
    assert len(inputs) >= 2, f"{task}: fewer than two examples"
    for stdin in inputs:
        rule = CHECKS[task](stdin.strip() + "\n")
        assert rule is None, f"{task}: the validator rejects an example input ({rule}):\n{stdin}"
    return len(inputs)


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
        problems += [f"a clean module shows a {k} witness: {w[k]['first']}" for k in KINDS
                     if w[k]["count"]]
    else:
        levels = w[kind]["levels"]
        if not any(count >= SHARE * len(SEEDS) for count in levels.values()):
            problems.append(f"its {kind} witness shows on too few cases: {levels}")
        if kind == "format" and w[kind]["count"]:
            survived = reference_survives(name, task)
            assert survived > 0
    return {"module": name, "kind": kind, "levels": {k: w[k]["levels"] for k in KINDS},
            "counts": {k: w[k]["count"] for k in KINDS}, "problems": problems,
            "today": entry["today_caught"]}


def main() -> None:
    manifest = json.loads((HERE / "MANIFEST.json").read_text(encoding="utf-8"))
    modules = manifest["modules"]
    for task in sorted({m["task"] for m in modules}):
        examples_legal(task)
    kinds = Counter(m["kind"] for m in modules)
    for kind, least in MINIMUM.items():
        assert kinds[kind] >= least, f"only {kinds[kind]} {kind} modules (want {least})"
    clean = [m for m in modules if m["kind"] == "clean"]
    own = Counter(attr for m in clean for attr in ("check_output", "prompt_func")
                  if attr in vars(load_class(HERE / f"{m['module']}.py")))
    assert own["check_output"] >= 3 and own["prompt_func"] >= 2, own
    for entry in modules:
        statement = (HERE / "_src" / f"{entry['task']}.statement.md").read_text(encoding="utf-8")
        if entry["kind"] == "clean":
            assert entry["rule"] == "" and entry["defect"] == "", entry["module"]
        else:
            assert entry["defect"] and entry["rule"] and entry["rule"] in statement, \
                f"{entry['module']}: its rule is not text of the statement"
        assert isinstance(entry["today_caught"], bool), entry["module"]
        assert (HERE / f"{entry['module']}.reference.py").is_file(), entry["module"]
    with ProcessPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(judge, modules))
    head = "".join(f" {k[:12]:>13}" for k in KINDS)
    print(f"{'module':32} {'kind':12}{head}  today")
    for r in results:
        cells = "".join(f" {r['counts'][k]:>13}" for k in KINDS)
        print(f"{r['module']:32} {r['kind']:12}{cells}  {'caught' if r['today'] else '-'}")
    problems = [f"{r['module']}: {p}" for r in results for p in r["problems"]]
    assert not problems, "\n".join(problems)
    print(f"\n{len(results)} modules ({dict(kinds)}): every defect has its witness, "
          "no clean module has any")


if __name__ == "__main__":
    main()
