"""The suite benchmark stays whole: bench/compiled has one compiled model part per bundled
sample task, each assembles with its record's reference and text and declares ``STRESS``, and
bench/labelled has at least 3 correct and 6 incorrect programs of 5 fault kinds or more per task
(the issue's floor). The gate and suite-eval runs themselves are the benchmark's (docs/code-rl.md):
too slow for every CI run."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "task_descriptions" / "codecontests" / "sample.jsonl"


def _build_module():
    spec = importlib.util.spec_from_file_location("bench_compiled_build",
                                                  REPO / "bench" / "compiled" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def _class_attributes(code: str) -> set[str]:
    tree = ast.parse(code)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and b.id == "CompiledBootcamp" for b in node.bases):
            for stmt in node.body:
                target = stmt.target if isinstance(stmt, ast.AnnAssign) else \
                    stmt.targets[0] if isinstance(stmt, ast.Assign) else None
                if isinstance(target, ast.Name):
                    names.add(target.id)
    return names


def test_every_sample_task_has_a_compiled_part_with_stress_and_labelled_programs() -> None:
    build = _build_module()
    records = len(SAMPLE.read_text(encoding="utf-8").splitlines())
    parts = build.model_parts()
    assert sorted(parts) == list(range(1, records + 1))
    for record, part in parts.items():
        code = build.assembled(part)
        assert {"LEVELS", "STRESS"} <= _class_attributes(code), part.path
        compile(code, part.path.name, "exec")
        task_id = build.sample_task(record).id
        folder = build.LABELLED / task_id.split("/", 1)[1]
        correct = list((folder / "correct").glob("*.py"))
        incorrect = list((folder / "incorrect").glob("*.py"))
        kinds = {p.name.split("__", 1)[0] for p in incorrect}
        assert len(correct) >= 3 and len(incorrect) >= 6, folder
        assert len(kinds) >= 5 and kinds <= KINDS, (folder, kinds)


KINDS = {"off_by_one", "wrong_greedy", "edge_case", "format", "too_slow", "large_only"}
