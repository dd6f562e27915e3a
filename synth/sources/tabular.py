"""Find and read record files: JSONL, parquet and Arrow, in plain folders or HF cache layouts.

Supported layouts for a ``--path`` folder:

* any folder of ``*.jsonl`` / ``*.parquet`` / ``*.arrow`` files (searched recursively, hidden
  entries skipped);
* a Hugging Face hub snapshot or hub cache (``datasets--<org>--<name>/snapshots/<rev>/data/
  train-00000-of-00039-<hash>.parquet``): only the revision named by ``refs/main`` (else the
  newest snapshot) is read, so several cached revisions never double the data;
* a ``datasets`` cache folder (``<org>___<name>/default/0.0.0/<hash>/<name>-train-00000-of-
  00039.arrow``).

File names that carry a split (``train``, ``valid``/``validation``, ``test``) are filtered by the
requested split; when no file name carries a split every file is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from synth.sources.base import SourceUnavailableError, iter_json_lines
from synth.tasks import SkipReason, SourceError

__all__ = ["RECORD_SUFFIXES", "discover_files", "file_split", "iter_records"]

RECORD_SUFFIXES = (".jsonl", ".parquet", ".arrow")

_SPLIT_RE = re.compile(r"(?:^|[-_.])(train|valid|validation|test)(?=[-_.]|$)")
_SPLIT_ALIASES = {"validation": "valid"}


def file_split(name: str) -> str | None:
    """The split a data file's name carries (``valid`` for ``validation``), else None."""
    match = _SPLIT_RE.search(name.lower())
    if not match:
        return None
    return _SPLIT_ALIASES.get(match.group(1), match.group(1))


def _chosen_revision(repo_dir: Path) -> str | None:
    """The snapshot revision of a hub cache repo folder: ``refs/main`` or the newest."""
    ref = repo_dir / "refs" / "main"
    snapshots = repo_dir / "snapshots"
    try:
        if ref.is_file():
            rev = ref.read_text(encoding="utf-8").strip()
            if (snapshots / rev).is_dir():
                return rev
        revs = [p for p in snapshots.iterdir() if p.is_dir()]
    except OSError:
        return None
    if not revs:
        return None
    return max(revs, key=lambda p: (p.stat().st_mtime, p.name)).name


def _keep_snapshot(path: Path, root: Path, chosen: dict[Path, str | None]) -> bool:
    parts = path.relative_to(root).parts
    for i, part in enumerate(parts[:-1]):
        if part == "snapshots" and i + 1 < len(parts) - 1:
            repo_dir = root.joinpath(*parts[:i])
            if repo_dir not in chosen:
                chosen[repo_dir] = _chosen_revision(repo_dir)
            return chosen[repo_dir] == parts[i + 1]
    return True


def discover_files(path: Path, split: str | None, what: str) -> list[Path]:
    """The record files under ``path`` for ``split`` (see the module docstring)."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise SourceUnavailableError(f"{what}: {path} does not exist; pass --path to a file or "
                                     "folder of .jsonl/.parquet/.arrow files")
    chosen: dict[Path, str | None] = {}
    files = sorted(
        p
        for p in path.rglob("*")
        if p.name.endswith(RECORD_SUFFIXES)
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
        and p.is_file()
        and _keep_snapshot(p, path, chosen)
    )
    if not files:
        raise SourceUnavailableError(f"{what}: no .jsonl, .parquet or .arrow files under {path}")
    tagged = {p: file_split(p.name) for p in files}
    if split is None or not any(tagged.values()):
        return files
    want = _SPLIT_ALIASES.get(split, split)
    selected = [p for p in files if tagged[p] == want]
    if not selected:
        found = ", ".join(sorted({s for s in tagged.values() if s})) or "none"
        raise SourceUnavailableError(
            f"{what}: no files of split {split!r} under {path} (splits found: {found}); "
            "pass --split"
        )
    return selected


def _iter_arrow_batches(
    path: Path, skip_columns: frozenset[str]
) -> Iterator[list[dict[str, Any]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.suffix == ".parquet":
        pfile = pq.ParquetFile(path)
        names = pfile.schema_arrow.names
        cols = [c for c in names if c not in skip_columns]
        for batch in pfile.iter_batches(batch_size=16, columns=cols):
            yield batch.to_pylist()
        return
    with path.open("rb") as handle:
        reader: Any
        try:
            reader = pa.ipc.open_stream(handle)
        except pa.ArrowInvalid:
            handle.seek(0)
            reader = pa.ipc.open_file(handle)
            for i in range(reader.num_record_batches):
                yield reader.get_batch(i).to_pylist()
            return
        for batch in reader:
            yield batch.to_pylist()


def iter_records(
    path: Path, source: str, skip_columns: frozenset[str] = frozenset()
) -> Iterator[tuple[int, dict[str, Any]] | SourceError]:
    """``(record_number, record)`` for each record of one file (1-based: the line of a JSONL
    file, the row of a parquet/Arrow file); unreadable input becomes SourceError items.
    ``skip_columns`` are not read from parquet files (large columns a source does not use)."""
    if path.suffix not in (".parquet", ".arrow"):
        yield from iter_json_lines(path, source)
        return
    row = 0
    try:
        for batch in _iter_arrow_batches(path, skip_columns):
            for record in batch:
                row += 1
                yield row, record
    except Exception as exc:  # pyarrow raises many types for corrupt/foreign files
        yield SourceError(source=source, reason=SkipReason.UNREADABLE, file=str(path),
                          line=row + 1 if row else None,
                          message=f"cannot read {path.suffix[1:]} data: "
                                  f"{type(exc).__name__}: {str(exc)[:200]}")
        return
    if row == 0:
        yield SourceError(source=source, reason=SkipReason.EMPTY_FILE, file=str(path),
                          message="the file holds no rows")
