"""Builders of CodeContests-schema records and files for the source tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"

SUM_PY3 = "a, b = map(int, input().split())\nprint(a + b)\n"
MAX_PY3 = "print(max(map(int, input().split())))\n"
CRASH_PY3 = "a, b = map(int, input().split())\nprint(a // 0)\n"
LOOP_PY3 = "while True:\n    pass\n"


def record(name: str, description: str, **overrides: Any) -> dict[str, Any]:
    """A full ``deepmind/code_contests`` record (every field of the schema present)."""
    rec: dict[str, Any] = {
        "name": name,
        "description": description,
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["5 7\n", "0 0\n"], "output": ["12\n", "0\n"]},
        "generated_tests": {"input": ["10 -3\n"], "output": ["7\n"]},
        "source": 2,
        "difficulty": 7,
        "solutions": {"language": [3], "solution": [SUM_PY3]},
        "incorrect_solutions": {"language": [3], "solution": ["print(0)\n"]},
        "cf_contest_id": 1000,
        "cf_index": "A",
        "cf_points": 500.0,
        "cf_rating": 1200,
        "cf_tags": ["math", "implementation"],
        "is_description_translated": False,
        "untranslated_description": "",
        "time_limit": {"seconds": 1, "nanos": 0},
        "memory_limit_bytes": 256_000_000,
        "input_file": "",
        "output_file": "",
    }
    rec.update(overrides)
    return rec


def sum_statement(extra: str = "") -> str:
    return (
        f"Add two integers.{extra}\n\nInput\n\nOne line with two integers a and b "
        "(|a|, |b| <= 10^9).\n\nOutput\n\nPrint a + b.\n\nExamples\n\nInput\n\n1 2\n\n"
        "Output\n\n3\n"
    )


def write_jsonl(path: Path, rows: list[dict[str, Any] | str]) -> Path:
    """Rows are records (dumped as JSON) or raw lines (written as given)."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def write_arrow_stream(path: Path, rows: list[dict[str, Any]]) -> Path:
    """An Arrow IPC stream, the format of a ``datasets`` cache ``.arrow`` file."""
    import pyarrow as pa

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return path
