"""Training data from the library: seeded, split-disjoint rows in verl's shape.

Every row can be regenerated from its ``extra_info`` alone (in a process that trusts the
library, see :func:`synth.library.load_bootcamp`)::

    load_bootcamp(bootcamp).from_level(level, seed=seed).case_generator()

Seeds are derived from (export seed, bootcamp, split, index) with :func:`~synth.sandbox.kit.
derive_seed`, so the same ``--seed`` gives byte-identical files on any machine and with any
number of workers. The test split is generated first; a train row whose prompt already appears
in the test split (or earlier in train) is dropped and counted, and generation continues until
the requested count is reached or the bootcamp is shown to be unable to produce that many
distinct prompts.

The cases are generated in sandboxed method servers (:class:`synth.serving.sampling.CaseSampler`),
never in this process: ``workers`` threads each drive one server at a time, a server serves one
bootcamp, and a thread keeps to the bootcamp it serves while that bootcamp has work. Each value
a server returns is validated (the case is the canonical JSON of an object, the prompt a bounded
``str``); a bootcamp that raises, hangs or returns something else stops the export with an
:class:`ExportError` naming the bootcamp, the row and the exception. Nothing is written then.

Formats: ``jsonl`` and ``parquet`` (``train.*`` and ``test.*``, verl's files), and ``hf``: a
Hugging Face ``DatasetDict`` saved with ``save_to_disk`` in ``hf/`` (the same rows and columns,
which TRL passes to :func:`synth.integrations.trl.bootcamp_reward_func`). With ``curriculum``
the train rows are ordered from easy to hard by the library's per-level pass rates, every row
says in ``extra_info["curriculum"]`` what its level's rate rests on, and ``curriculum.json``
lists every level's estimate (:mod:`synth.training.curriculum`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synth.library import Library
from synth.sandbox import get_backend
from synth.sandbox.base import Backend
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError
from synth.training.curriculum import LevelDifficulty, curriculum_fields, level_difficulty
from synth.training.rows import (
    SERVER_LABEL,
    SPLITS,
    BootcampExportStats,
    ExportConfig,
    ExportError,
    ExportSummary,
    Source,
    case_seed,
    make_row,
    prompt_key,
    read_sources,
    unwritable,
)

if TYPE_CHECKING:
    from synth.training.spotcheck import PlannedSpotCheck


__all__ = ["ExportConfig", "ExportError", "ExportSummary", "export"]

log = logging.getLogger("synth.training.export")


# -- the servers ----------------------------------------------------------------------------


@dataclass
class _Task:
    name: str
    split: str
    start: int
    stop: int
    future: Future[list[dict[str, Any]]] = field(default_factory=Future)


class _Servers:
    """``workers`` threads, each driving one sandboxed method server at a time.

    A free thread takes the oldest task of the bootcamp it serves; else the oldest task of a
    bootcamp no thread serves (starting that bootcamp's server); else the oldest task of all
    (a second server for a busy bootcamp)."""

    def __init__(self, cfg: ExportConfig, backend: Backend, sources: dict[str, Source],
                 planned: dict[str, PlannedSpotCheck] | None = None) -> None:
        self.cfg = cfg
        self.backend = backend
        self.sources = sources
        self.queue: deque[_Task] = deque()
        self.cond = threading.Condition()
        self.closing = False
        self.serving: dict[int, str] = {}
        self.started = 0
        #: bootcamp -> its spot-check, told the reference answers of its picked rows
        self.planned: dict[str, PlannedSpotCheck] = planned or {}
        self.threads = [threading.Thread(target=self._serve, args=(i,), daemon=True,
                                         name=f"export-server-{i}") for i in range(cfg.workers)]
        for t in self.threads:
            t.start()

    def submit(self, name: str, split: str, start: int, stop: int) -> Future[list[dict[str, Any]]]:
        task = _Task(name, split, start, stop)
        with self.cond:
            self.queue.append(task)
            self.cond.notify()
        return task.future

    def close(self) -> None:
        with self.cond:
            self.closing = True
            for task in self.queue:
                task.future.cancel()
            self.queue.clear()
            self.cond.notify_all()
        for t in self.threads:
            t.join()

    def _pick(self, slot: int) -> _Task | None:
        current = self.serving.get(slot)
        held = set(self.serving.values())
        chosen = next((t for t in self.queue if t.name == current), None)
        if chosen is None:
            chosen = next((t for t in self.queue if t.name not in held), None)
        if chosen is None and self.queue:
            chosen = self.queue[0]
        if chosen is not None:
            self.queue.remove(chosen)
        return chosen

    def _serve(self, slot: int) -> None:
        sampler: CaseSampler | None = None
        try:
            while True:
                with self.cond:
                    while not self.queue and not self.closing:
                        self.cond.wait()
                    if self.closing:
                        return
                    task = self._pick(slot)
                    if task is None or not task.future.set_running_or_notify_cancel():
                        continue
                    if sampler is not None and sampler.name != task.name:
                        sampler.close()
                        sampler = None
                    self.serving[slot] = task.name
                try:
                    if sampler is None:
                        sampler = self._start(task.name)
                    task.future.set_result(self._generate(sampler, task))
                except BaseException as exc:  # handed to the caller, who stops the export
                    task.future.set_exception(exc)
                    if sampler is not None:
                        sampler.close()
                        sampler = None
                    with self.cond:
                        self.serving.pop(slot, None)
        finally:
            if sampler is not None:
                sampler.close()

    def _start(self, name: str) -> CaseSampler:
        src = self.sources[name]
        sampler = CaseSampler(src.code, backend=self.backend, class_name=src.class_name, name=name,
                              call_limit_s=self.cfg.call_limit_s, label=SERVER_LABEL)
        with self.cond:
            self.started += 1
        try:
            sampler.start()
        except SampleError as exc:
            raise ExportError(f"bootcamp {name!r}: {exc.message}", exc.traceback) from None
        levels = sampler.levels
        with self.cond:
            if src.levels is None:
                src.levels = levels
            elif src.levels != levels:
                sampler.close()
                raise ExportError(f"bootcamp {name!r}: its LEVELS differ between two imports "
                                  f"({src.levels} vs {levels}); it is not deterministic")
        if self.cfg.level is not None:
            sampler.level_params(self.cfg.level)  # KeyError naming the known levels
        return sampler

    def _generate(self, sampler: CaseSampler, task: _Task) -> list[dict[str, Any]]:
        """Rows ``start..stop-1`` of one bootcamp and split, drawn by its method server."""
        name, split, seed = task.name, task.split, self.cfg.seed
        levels = [self.cfg.level] if self.cfg.level is not None else sampler.levels or [DEFAULT_LEVEL]
        indices = range(task.start, task.stop)
        specs = [(levels[i % len(levels)], case_seed(seed, name, split, i)) for i in indices]
        try:
            samples = sampler.sample(specs)
        except SampleError as exc:
            if exc.position is None:
                where = f"rows {split}[{task.start}..{task.stop - 1}]"
            else:
                where = f"row {split}[{task.start + exc.position}] (level {exc.level}, seed {exc.seed})"
            raise ExportError(f"bootcamp {name!r} failed on {where}: {exc.message}",
                              exc.traceback) from None
        planned = self.planned.get(name)
        wanted = planned.wanted(split, indices) if planned is not None else []
        if planned is not None and wanted:  # the spot-check's rows: their reference answers
            at = [i - task.start for i in wanted]
            try:
                again = sampler.sample([specs[k] for k in at], answers=True)
            except SampleError as exc:
                for i, k in zip(wanted, at, strict=True):
                    planned.fail(split, i, specs[k][0], exc.message)
            else:
                for i, k, sm in zip(wanted, at, again, strict=True):
                    planned.offer(split, i, sm.level, sm.seed, samples[k].case_text,
                                  sm.case_text, sm.answer or "", sm.max_turns is not None)
        return [make_row(name, split, i, s) for i, s in zip(indices, samples, strict=True)]


# -- collection -----------------------------------------------------------------------------


class _Bootcamp:
    """One bootcamp's collection: test split first, then train; rounds of chunks, consumed in
    index order, exactly as many distinct prompts as asked for (or as it can give).

    The first round of each split does not depend on anything drawn before it, so both are
    submitted at once (a server then serves the bootcamp's two splits without a restart);
    the train rows are consumed only once the test split is complete (its prompts are
    forbidden in train)."""

    def __init__(self, name: str, cfg: ExportConfig, stats: BootcampExportStats,
                 advance: dict[str, Callable[[int], None]]) -> None:
        self.name = name
        self.cfg = cfg
        self.stats = stats
        self.advance = advance
        self.targets = {"test": cfg.test_per_bootcamp, "train": cfg.per_bootcamp}
        self.out: dict[str, list[dict[str, Any]]] = {"test": [], "train": []}
        self.seen: dict[str, set[str]] = {"test": set(), "train": set()}
        self.pending: dict[str, deque[Future[list[dict[str, Any]]]]] = {
            "test": deque(), "train": deque()}
        self.next_index = {"test": 0, "train": 0}
        self.forbidden: set[str] = set()
        self.splits = [s for s in SPLITS if self.targets[s] > 0]

    @property
    def head(self) -> Future[list[dict[str, Any]]] | None:
        """The chunk to consume next (None: done)."""
        if not self.splits:
            return None
        pending = self.pending[self.splits[0]]
        return pending[0] if pending else None

    def begin(self, servers: _Servers) -> None:
        for split in self.splits:
            self._submit(servers, split)

    def _limit(self, split: str) -> int:
        target = self.targets[split]
        return max(3 * target, target + 100)  # attempts before giving up

    def _submit(self, servers: _Servers, split: str) -> None:
        need = self.targets[split] - len(self.out[split])
        # over-generate a little so a few duplicates do not cost another round trip
        want = min(need + need // 10 + 4, self._limit(split) - self.next_index[split])
        start = self.next_index[split]
        for a in range(start, start + want, self.cfg.chunk_size):
            b = min(a + self.cfg.chunk_size, start + want)
            self.pending[split].append(servers.submit(self.name, split, a, b))
        self.next_index[split] = start + want

    def consume(self, servers: _Servers) -> None:
        """Take the finished chunks at the head; move on when a round or a split is over."""
        while self.splits:
            split = self.splits[0]
            out, target, seen = self.out[split], self.targets[split], self.seen[split]
            pending = self.pending[split]
            while pending and pending[0].done():
                rows = pending.popleft().result()  # raises the chunk's ExportError
                for row in rows:
                    if len(out) >= target:
                        break
                    self.stats.generated += 1
                    key = prompt_key(row)
                    if key in self.forbidden:
                        self.stats.dup_across_splits += 1
                        continue
                    if key in seen:
                        self.stats.dup_within_split += 1
                        continue
                    seen.add(key)
                    out.append(row)
                    self.advance[split](1)
            if pending:
                return
            if len(out) < target and self.next_index[split] < self._limit(split):
                self._submit(servers, split)
                return
            self.stats.short_by += target - len(out)
            setattr(self.stats, split, len(out))
            self.forbidden |= seen
            self.splits.pop(0)


def _write(rows: list[dict[str, Any]], path: Path, fmt: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if fmt == "jsonl":
            with tmp.open("w", encoding="utf-8") as fh:
                for row in rows:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist(rows)
            pq.write_table(table, tmp, compression="zstd")
    except UnicodeEncodeError:
        tmp.unlink(missing_ok=True)
        raise unwritable(rows, path.name) from None
    tmp.replace(path)


HF_DIR = "hf"


def _write_hf(splits: dict[str, list[dict[str, Any]]], out: Path) -> Path:
    """A Hugging Face ``DatasetDict`` (train, test) saved with ``save_to_disk`` to ``out/hf``:
    the export's columns, which TRL hands the reward function as keyword arguments. Written
    to a temporary folder and renamed, so a reader sees the old dataset or the new one."""
    import shutil

    try:
        import datasets
    except ImportError as exc:  # the [train] extra
        raise ValueError("--format hf needs the datasets package: pip install "
                         "'bootcamp-synth[train]' (or pip install datasets)") from exc
    target = out / HF_DIR
    tmp = out / f".{HF_DIR}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        full = {split: datasets.Dataset.from_list(rows) for split, rows in splits.items() if rows}
    except UnicodeEncodeError:
        raise unwritable((r for rows in splits.values() for r in rows), HF_DIR) from None
    if not full:
        raise ValueError("--format hf: every split is empty; nothing to write")
    features = next(iter(full.values())).features
    # an empty split gets the other's columns and one shard (datasets cannot read back a
    # split saved with none)
    dd = datasets.DatasetDict({split: full.get(split) or datasets.Dataset.from_dict(
        {k: [] for k in features}, features=features) for split in splits})
    dd.save_to_disk(str(tmp), num_shards={split: 1 for split in splits if not splits[split]} or None)
    old = out / f".{HF_DIR}.old"
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.replace(old)
    tmp.replace(target)
    shutil.rmtree(old, ignore_errors=True)
    return target


def _curriculum(lib: Library, camps: list[_Bootcamp], sources: dict[str, Source],
                level: str | None) -> tuple[list[LevelDifficulty], list[dict[str, Any]]]:
    """Every exported level's estimate, and the train rows sorted by (hardness, bootcamp
    position, index); each row of both splits gains ``extra_info["curriculum"]``."""
    table: list[LevelDifficulty] = []
    keyed: list[tuple[float, int, int, dict[str, Any]]] = []
    for pos, camp in enumerate(camps):
        record = lib.record(camp.name)
        levels = [level] if level is not None else (sources[camp.name].levels or record.levels
                                                    or [DEFAULT_LEVEL])
        known = {lv: level_difficulty(record, lv, record.levels or levels) for lv in levels}
        table += known.values()
        for split in SPLITS:
            for row in camp.out[split]:
                info = row["extra_info"]
                d = known.get(info["level"]) or level_difficulty(record, info["level"], levels)
                info["curriculum"] = curriculum_fields(d)
                if split == "train":
                    keyed.append((d.hardness, pos, info["index"], row))
    keyed.sort(key=lambda k: (k[0], k[1], k[2]))
    return table, [k[3] for k in keyed]


def export(
    cfg: ExportConfig, progress: Callable[[str, int], Callable[[int], None]] | None = None
) -> ExportSummary:
    """Write ``train`` and ``test`` files for the library's accepted bootcamps.

    ``progress(label, total)`` may return a callback advanced by the number of rows accepted.
    Raises :class:`ExportError` (a bootcamp failed), ``KeyError`` (no such level),
    :class:`~synth.library.LibraryError` and :class:`~synth.sandbox.SandboxUnavailableError`;
    nothing is written then.
    """
    if cfg.executor == "ray":
        from synth.training.export_ray import (
            export_ray,  # Ray, the optional extra, only on this path
        )

        return export_ray(cfg, progress)
    t0 = time.perf_counter()
    lib = Library(cfg.library) if cfg.library is not None else Library()
    names = cfg.bootcamps or lib.list_bootcamps()
    if not names:
        raise ValueError(f"no accepted bootcamps in {lib.root}; nothing to export")
    sources = read_sources(lib, list(dict.fromkeys(names)))
    names = list(sources)
    backend = get_backend(cfg.sandbox)
    stats = {n: BootcampExportStats() for n in names}

    def _noop(_: int) -> None:
        return None

    advance = {
        split: progress(split, target * len(names)) if progress else _noop
        for split, target in (("test", cfg.test_per_bootcamp), ("train", cfg.per_bootcamp))
    }
    from synth.training.spotcheck import run_in_background  # the gate's probes, only when exporting

    planned = _plan_spot_checks(cfg, sources, backend)
    auditing = run_in_background(list(planned.values())) if planned else None
    servers = _Servers(cfg, backend, sources, planned)
    camps = [_Bootcamp(n, cfg, stats[n], advance) for n in names]
    try:
        for camp in camps:
            camp.begin(servers)
        while True:
            heads = [h for c in camps if (h := c.head) is not None]
            if not heads:
                break
            wait(heads, return_when=FIRST_COMPLETED)
            for camp in camps:
                head = camp.head
                if head is not None and head.done():
                    camp.consume(servers)
    except BaseException:
        for check in planned.values():
            check.cancelled.set()
        raise
    finally:
        servers.close()
        if auditing is not None:
            auditing.join()  # no audit outlives the export, whatever happened
    quarantined, checked, spot_s = _spot_check(lib, camps, planned)
    camps = [c for c in camps if c.name not in quarantined]
    splits = {split: [row for c in camps for row in c.out[split]] for split in ("train", "test")}
    table = None
    if cfg.curriculum:
        table, splits["train"] = _curriculum(lib, camps, sources, cfg.level)
    cfg.out.mkdir(parents=True, exist_ok=True)
    files = []
    if cfg.format == "hf":
        files.append(str(_write_hf(splits, cfg.out)))
    else:
        for split, rows in splits.items():
            path = cfg.out / f"{split}.{cfg.format}"
            _write(rows, path, cfg.format)
            files.append(str(path))
    if table is not None:
        path = cfg.out / "curriculum.json"
        doc = {"order": "train rows by (hardness, bootcamp, index); hardness = 1 - pass rate",
               "levels": [d.model_dump(mode="json") | {"reliable": d.reliable} for d in table]}
        tmp = path.with_name(".curriculum.json.tmp")
        tmp.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
        files.append(str(path))
    dups = sum(s.dup_within_split + s.dup_across_splits for s in stats.values())
    return ExportSummary(
        files=files,
        rows={s: len(rows) for s, rows in splits.items()},
        duplicates_dropped=dups,
        per_bootcamp=stats,
        elapsed_s=time.perf_counter() - t0,
        workers=cfg.workers,
        backend=getattr(backend, "name", str(cfg.sandbox)),
        servers_started=servers.started,
        curriculum=table,
        quarantined=quarantined,
        spot_checked=checked,
        spot_check_s=round(spot_s, 3),
    )


def _plan_spot_checks(cfg: ExportConfig, sources: dict[str, Source],
                      backend: Backend) -> dict[str, PlannedSpotCheck]:
    """Each bootcamp's spot-check (:mod:`synth.training.spotcheck`), planned before its rows exist."""
    from synth.training.spotcheck import PlannedSpotCheck

    if not cfg.spot_check:
        return {}
    targets = {"test": cfg.test_per_bootcamp, "train": cfg.per_bootcamp}
    return {name: PlannedSpotCheck(name, src.code, src.class_name, backend, targets)
            for name, src in sources.items()}


def _spot_check(lib: Library, camps: list[_Bootcamp],
                planned: dict[str, PlannedSpotCheck]) -> tuple[dict[str, str], int, float]:
    """Each bootcamp's spot-check compared with its rows; one that fails is quarantined in the
    library, its finding logged. (quarantined, rows checked, seconds the audits took)"""
    quarantined: dict[str, str] = {}
    checked, spent = 0, 0.0
    for camp in camps:
        if camp.name not in planned:
            continue
        found = planned[camp.name].result(camp.out["test"] + camp.out["train"])
        checked += found.checked
        spent += found.elapsed_s
        if not found.ok:
            quarantined[camp.name] = found.reason
            log.error("synth export: bootcamp %r quarantined: %s", camp.name, found.reason)
            lib.set_status(camp.name, "quarantined", found.reason[:2000])
    return quarantined, checked, spent
