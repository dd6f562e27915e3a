"""``synth export --format code``: one code row per compiled bootcamp, in verl's row shape.

A code row asks for a program (or a function) and holds the bootcamp's test suite as its ground
truth (:mod:`synth.suites.format`)::

    {"data_source": "code/<bootcamp>",
     "prompt": [{"role": "user", "content": <statement, then what to write>}],
     "ability": "code",
     "reward_model": {"style": "rule", "ground_truth": <the suite's canonical JSON text>},
     "extra_info": {"bootcamp": name, "kind": "stdin" | "function", "index": i,
                    "split": "train" | "test", "tests": <count>, "levels": {level: count},
                    "suite_sha256": <sha256 of ground_truth>,
                    "stress": "declared" | "derived" | "none",
                    "stress_preset": <the preset's canonical JSON, or "">}}

The prompt is ``prompts/code_task.j2`` over the task text the module embeds. Bootcamps that are not
compiled (no embedded reference) are skipped, each with the reason; so is a compiled module that
embeds no task text (there is no statement to show). Which bootcamps go to the test split is
seeded: ``round(test_share x n)`` of them, in the order of ``derive_seed(seed, name, "code-split")``.
A class without STRESS gets a derived stress preset (``derive_stress``, :mod:`synth.suites.stress`);
``extra_info`` says which preset the stress tests come from.
The same seed gives byte-identical files (the suites are seeded and their time limits rounded,
:func:`synth.suites.build.time_limit`). Nothing is written when a bootcamp fails.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.library import Library, LibraryError, sha256_text
from synth.models.prompts import default_prompts
from synth.paths import OutsideRootError, inside
from synth.sandbox import get_backend
from synth.sandbox.kit import canonical, derive_seed
from synth.serving.sampling import STRESS_LEVEL
from synth.suites.build import (
    BuildOptions,
    BuildReport,
    BuiltSuite,
    NotCompiledError,
    build_suite,
    suite_kind,
)
from synth.suites.format import suite_sha256

__all__ = ["CodeExportConfig", "CodeExportSummary", "code_prompt", "code_row", "export_code",
           "library_validator"]

SPLITS = ("train", "test")


class CodeExportConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: Path
    library: Path | None = None
    bootcamps: list[str] | None = None
    seed: int = 0
    format: Literal["jsonl", "parquet"] = "jsonl"
    sandbox: Literal["auto", "process", "bwrap", "docker"] = "auto"
    tests_per_level: int = Field(default=10, ge=0, le=10_000)
    stress_tests: int = Field(default=5, ge=0, le=1000)
    derive_stress: bool = Field(default=True, description="a class without STRESS: derive a "
                                "stress preset (synth.suites.stress)")
    test_share: float = Field(default=0.0, ge=0.0, le=1.0, description="share of the bootcamps "
                              "whose row goes to the test split")
    memory_mb: int = Field(default=256, ge=32, le=16384)
    call_limit_s: float = Field(default=10.0, gt=0, le=600)


class CodeExportSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: list[str]
    rows: dict[str, int]
    built: dict[str, BuildReport]
    skipped: dict[str, str] = Field(default_factory=dict)
    elapsed_s: float = 0.0
    backend: str = ""


def code_prompt(kind: str, statement: str, *, entry_point: str | None, time_limit_s: float,
                memory_mb: int) -> str:
    """A code row's prompt text (``prompts/code_task.j2``)."""
    text, _ = default_prompts().render("code_task.j2", kind=kind, statement=statement,
                                       entry_point=entry_point or "",
                                       time_limit_s=f"{time_limit_s:g}", memory_mb=memory_mb)
    return text


def code_row(built: BuiltSuite, split: str, index: int) -> dict[str, Any]:
    """One row in verl's shape (see the module docstring)."""
    suite = built.suite
    prompt = code_prompt(suite.kind, built.task_text or "", entry_point=suite.entry_point,
                         time_limit_s=suite.time_limit_s, memory_mb=suite.memory_mb)
    return {
        "data_source": f"code/{suite.bootcamp}",
        "prompt": [{"role": "user", "content": prompt}],
        "ability": "code",
        "reward_model": {"style": "rule", "ground_truth": built.text},
        "extra_info": {"bootcamp": suite.bootcamp, "kind": suite.kind, "index": index,
                       "split": split, "tests": len(suite.tests), "levels": suite.levels(),
                       "suite_sha256": suite_sha256(built.text), **_stress_info(built)},
    }


def _stress_info(built: BuiltSuite) -> dict[str, str]:
    """Where a row's stress tests come from: the class's STRESS, a derived preset, or none."""
    preset = built.report.stress
    if preset is None or STRESS_LEVEL not in built.suite.levels():
        return {"stress": "none", "stress_preset": ""}
    return {"stress": "derived" if built.report.stress_derived else "declared",
            "stress_preset": canonical(preset)}


def library_validator(lib: Library, name: str) -> str | None:
    """The source of the input validator the record names (hash-checked), or None."""
    rec = lib.record(name)
    if not rec.validator_path:
        return None
    try:
        path = inside(lib.root, rec.validator_path, what=f"validator_path of {name!r}")
        source = path.read_text(encoding="utf-8")
    except (OSError, OutsideRootError) as exc:
        raise LibraryError(f"bootcamp {name!r}: cannot read its input validator: {exc}") from None
    if rec.validator_sha256 and sha256_text(source) != rec.validator_sha256:
        raise LibraryError(f"bootcamp {name!r}: {rec.validator_path} does not match the sha256 "
                           "in the manifest (changed after commit)")
    return source


def _write(rows: list[dict[str, Any]], path: Path, fmt: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    if fmt == "jsonl":
        with tmp.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), tmp, compression="zstd")
    tmp.replace(path)


def _splits(names: list[str], seed: int, share: float) -> dict[str, str]:
    """bootcamp -> split: ``round(share x n)`` test bootcamps, chosen by a seeded order."""
    tests = int(share * len(names) + 0.5)
    order = sorted(names, key=lambda n: (derive_seed(seed, n, "code-split"), n))
    chosen = set(order[:tests])
    return {n: "test" if n in chosen else "train" for n in names}


def export_code(cfg: CodeExportConfig,
                progress: Callable[[str], None] | None = None) -> CodeExportSummary:
    """Write ``train.<fmt>`` and ``test.<fmt>`` of code rows. Raises
    :class:`~synth.suites.build.BuildError`, :class:`~synth.library.LibraryError`,
    :class:`~synth.sandbox.SandboxUnavailableError`, ``ValueError``; nothing is written then."""
    t0 = time.perf_counter()
    lib = Library(cfg.library) if cfg.library is not None else Library()
    names = list(dict.fromkeys(cfg.bootcamps or lib.list_bootcamps()))
    if not names:
        raise ValueError(f"no accepted bootcamps in {lib.root}; nothing to export")
    backend = get_backend(cfg.sandbox)
    opts = BuildOptions(seed=cfg.seed, per_level=cfg.tests_per_level, stress=cfg.stress_tests,
                        derive_stress=cfg.derive_stress,
                        memory_mb=cfg.memory_mb, call_limit_s=cfg.call_limit_s)
    built: dict[str, BuiltSuite] = {}
    skipped: dict[str, str] = {}
    for name in names:
        rec, code = lib.checked_code(name)
        why = _not_exportable(rec.mode, code)
        if why is not None:
            skipped[name] = why
            continue
        suite = build_suite(name, code, code_sha256=rec.code_sha256, backend=backend,
                            options=opts, class_name=rec.class_name,
                            validator=library_validator(lib, name))
        if not (suite.task_text or "").strip():
            skipped[name] = "the module embeds no task text: no statement to show"
            continue
        built[name] = suite
        if progress:
            r = suite.report
            progress(f"{name}: {len(suite.suite.tests)} tests, time limit {r.time_limit_s:g} s")
    split_of = _splits(list(built), cfg.seed, cfg.test_share)
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    for name, suite in built.items():
        split = split_of[name]
        rows[split].append(code_row(suite, split, len(rows[split])))
    cfg.out.mkdir(parents=True, exist_ok=True)
    files = []
    for split in SPLITS:
        path = cfg.out / f"{split}.{cfg.format}"
        _write(rows[split], path, cfg.format)
        files.append(str(path))
    return CodeExportSummary(files=files, rows={s: len(r) for s, r in rows.items()},
                             built={n: b.report for n, b in built.items()}, skipped=skipped,
                             elapsed_s=round(time.perf_counter() - t0, 3),
                             backend=getattr(backend, "name", cfg.sandbox))


def _not_exportable(mode: str | None, code: str) -> str | None:
    """Why a library module gives no code row, or None."""
    try:
        suite_kind(code)
    except NotCompiledError:
        return (f"not a compiled bootcamp (its module embeds no reference program; mode: "
                f"{mode or 'not recorded'})")
    return None
