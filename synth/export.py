"""Training data from the library: seeded, split-disjoint rows in verl's shape.

Every row can be regenerated from its ``extra_info`` alone::

    load_bootcamp(bootcamp).from_level(level, seed=seed).case_generator()

Seeds are derived from (export seed, bootcamp, split, index) with sha256, so the same ``--seed``
gives byte-identical files on any machine and with any number of worker processes. The test split
is generated first; a train row whose prompt already appears in the test split (or earlier in
train) is dropped and counted, and generation continues until the requested count is reached or
the bootcamp is shown to be unable to produce that many distinct prompts.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.bootcamp import BaseBootcamp
from synth.library import Library

Split = Literal["train", "test"]
SEED_MASK = (1 << 63) - 1
DEFAULT_LEVEL = "default"


class ExportConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: Path
    library: Path | None = None
    per_bootcamp: int = Field(default=200, ge=0, le=1_000_000)
    test_per_bootcamp: int = Field(default=50, ge=0, le=1_000_000)
    level: str | None = None
    seed: int = 0
    format: Literal["jsonl", "parquet"] = "jsonl"
    workers: int = Field(default=2, ge=1, le=256)
    bootcamps: list[str] | None = None
    chunk_size: int = Field(default=64, ge=1, le=100_000)


class BootcampExportStats(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train: int = 0
    test: int = 0
    generated: int = 0
    dup_within_split: int = 0
    dup_across_splits: int = 0
    short_by: int = 0


class ExportSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: list[str]
    rows: dict[str, int]
    duplicates_dropped: int
    per_bootcamp: dict[str, BootcampExportStats]
    elapsed_s: float
    workers: int


def case_seed(seed: int, name: str, split: str, index: int) -> int:
    digest = hashlib.sha256(f"{seed}\x1f{name}\x1f{split}\x1f{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK


def levels_of(cls: type[BaseBootcamp], level: str | None) -> list[str]:
    if level is not None:
        if level != DEFAULT_LEVEL and level not in cls.LEVELS:
            raise KeyError(f"{cls.__name__} has no level {level!r}; levels: {list(cls.LEVELS)}")
        return [level]
    return list(cls.LEVELS) or [DEFAULT_LEVEL]


def make_case(cls: type[BaseBootcamp], level: str, seed: int) -> dict[str, Any]:
    bc = cls(seed=seed) if level == DEFAULT_LEVEL else cls.from_level(level, seed=seed)
    return bc.case_generator()


# -- worker side ---------------------------------------------------------------------------

_WORKER_LIBS: dict[str, Library] = {}


def _generate_chunk(
    library_root: str, name: str, level: str | None, seed: int, split: str, start: int, stop: int
) -> list[dict[str, Any]]:
    """Generate rows ``start..stop-1`` of one bootcamp and split (runs in a worker process)."""
    lib = _WORKER_LIBS.get(library_root)
    if lib is None:
        lib = _WORKER_LIBS[library_root] = Library(library_root)
    cls = lib.load_bootcamp(name)
    levels = levels_of(cls, level)
    rows = []
    for index in range(start, stop):
        lvl = levels[index % len(levels)]
        s = case_seed(seed, name, split, index)
        identity = make_case(cls, lvl, s)
        prompt = cls.prompt_func(identity)
        rows.append(
            {
                "data_source": f"bootcamp/{name}",
                "prompt": [{"role": "user", "content": prompt}],
                "ability": "reasoning",
                "reward_model": {
                    "style": "rule",
                    "ground_truth": json.dumps(identity, ensure_ascii=False, sort_keys=True),
                },
                "extra_info": {
                    "bootcamp": name,
                    "level": lvl,
                    "seed": s,
                    "index": index,
                    "split": split,
                },
            }
        )
    return rows


class _InlineExecutor:
    """Runs submitted work in this process (workers=1): no pickling, same results."""

    class _Done:
        def __init__(self, value: Any) -> None:
            self._value = value

        def result(self) -> Any:
            return self._value

    def submit(self, fn: Callable[..., Any], *args: Any) -> _InlineExecutor._Done:
        return self._Done(fn(*args))

    def shutdown(self) -> None:
        pass


def _prompt_key(row: dict[str, Any]) -> str:
    return hashlib.sha256(row["prompt"][0]["content"].encode("utf-8")).hexdigest()


def _collect(
    pool: Executor | _InlineExecutor,
    cfg: ExportConfig,
    root: str,
    names: list[str],
    split: Split,
    target: int,
    forbidden: dict[str, set[str]],
    stats: dict[str, BootcampExportStats],
    advance: Callable[[int], None],
) -> dict[str, list[dict[str, Any]]]:
    """Fill each bootcamp's split with ``target`` distinct prompts, in index order."""
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    seen: dict[str, set[str]] = {n: set() for n in names}
    next_index = dict.fromkeys(names, 0)
    limit = {n: max(3 * target, target + 100) for n in names}  # attempts before giving up
    pending = [n for n in names if target > 0]
    while pending:
        futures = []
        for n in pending:
            need = target - len(out[n])
            # over-generate a little so a few duplicates do not cost another round trip
            want = min(need + need // 10 + 4, limit[n] - next_index[n])
            start = next_index[n]
            for a in range(start, start + want, cfg.chunk_size):
                b = min(a + cfg.chunk_size, start + want)
                futures.append((n, pool.submit(_generate_chunk, root, n, cfg.level, cfg.seed, split, a, b)))
            next_index[n] = start + want
        for n, fut in futures:
            for row in fut.result():
                if len(out[n]) >= target:
                    break
                stats[n].generated += 1
                key = _prompt_key(row)
                if key in forbidden.get(n, ()):
                    stats[n].dup_across_splits += 1
                    continue
                if key in seen[n]:
                    stats[n].dup_within_split += 1
                    continue
                seen[n].add(key)
                out[n].append(row)
                advance(1)
        pending = [n for n in pending if len(out[n]) < target and next_index[n] < limit[n]]
    for n in names:
        stats[n].short_by += target - len(out[n])
        if split == "train":
            stats[n].train = len(out[n])
        else:
            stats[n].test = len(out[n])
    forbidden_update = {n: seen[n] for n in names}
    for n, keys in forbidden_update.items():
        forbidden.setdefault(n, set()).update(keys)
    return out


def _write(rows: Iterable[dict[str, Any]], path: Path, fmt: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    if fmt == "jsonl":
        with tmp.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(list(rows))
        pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


def export(
    cfg: ExportConfig, progress: Callable[[str, int], Callable[[int], None]] | None = None
) -> ExportSummary:
    """Write ``train`` and ``test`` files for the library's accepted bootcamps.

    ``progress(label, total)`` may return a callback advanced by the number of rows accepted.
    """
    t0 = time.perf_counter()
    lib = Library(cfg.library) if cfg.library is not None else Library()
    names = cfg.bootcamps or lib.list_bootcamps()
    if not names:
        raise ValueError(f"no accepted bootcamps in {lib.root}; nothing to export")
    for n in names:  # fail fast, in this process, with a clear message
        levels_of(lib.load_bootcamp(n), cfg.level)
    cfg.out.mkdir(parents=True, exist_ok=True)
    root = str(lib.root)
    stats = {n: BootcampExportStats() for n in names}
    forbidden: dict[str, set[str]] = {}
    pool: Executor | _InlineExecutor = (
        ProcessPoolExecutor(max_workers=cfg.workers) if cfg.workers > 1 else _InlineExecutor()
    )

    def _noop(_: int) -> None:
        return None

    try:
        results: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for split, target in (("test", cfg.test_per_bootcamp), ("train", cfg.per_bootcamp)):
            advance = progress(split, target * len(names)) if progress else _noop
            results[split] = _collect(
                pool, cfg, root, names, split, target, forbidden, stats, advance  # type: ignore[arg-type]
            )
    finally:
        pool.shutdown()
    files = []
    for split in ("train", "test"):
        path = cfg.out / f"{split}.{cfg.format}"
        _write((row for n in names for row in results[split][n]), path, cfg.format)
        files.append(str(path))
    dups = sum(s.dup_within_split + s.dup_across_splits for s in stats.values())
    return ExportSummary(
        files=files,
        rows={s: sum(len(v) for v in results[s].values()) for s in ("train", "test")},
        duplicates_dropped=dups,
        per_bootcamp=stats,
        elapsed_s=time.perf_counter() - t0,
        workers=cfg.workers,
    )
