"""Paths read from files resolve inside their roots.

A library record's ``module_path``, a run id in a record, a candidate file of a run folder: each
names a file relative to a root (the library folder, the runs folder, a run folder), and each is
untrusted data. :func:`inside` is the one gate every such read goes through: the path must be
relative, and after every symlink is followed (:meth:`Path.resolve`) it must still lie inside
the resolved root. An absolute path, a ``..`` that climbs out, or a symlink that points out of
the root raises :class:`OutsideRootError`, naming the path and the root.
"""

from __future__ import annotations

from pathlib import Path


class OutsideRootError(ValueError):
    """A path read from a file does not resolve inside its root."""

    def __init__(self, rel: str | Path, root: Path, why: str) -> None:
        self.rel, self.root, self.why = str(rel), root, why
        super().__init__(f"path {str(rel)!r} {why}; it must resolve inside {root}")


def inside(root: Path | str, rel: str | Path, *, what: str = "path") -> Path:
    """``root / rel`` resolved (symlinks followed), refused unless it lies inside the resolved
    ``root``. ``rel`` must be relative and non-empty; ``what`` names it in the error (e.g.
    "module_path", "run id"). The file need not exist."""
    base = Path(root).resolve()
    text = str(rel)
    p = Path(rel)
    if not text or not p.parts:
        raise OutsideRootError(rel, base, f"({what}) is empty")
    if "\x00" in text:
        raise OutsideRootError(rel, base, f"({what}) holds a NUL byte")
    if p.is_absolute():
        raise OutsideRootError(rel, base, f"({what}) is absolute")
    if ".." in p.parts:
        raise OutsideRootError(rel, base, f"({what}) climbs out with '..'")
    target = (base / p).resolve()
    if target != base and not target.is_relative_to(base):
        raise OutsideRootError(rel, base, f"({what}) leads out through a symlink to {target}")
    return target


def contained(root: Path | str, path: Path, *, what: str = "file") -> Path:
    """``path`` (already under ``root``, e.g. an entry of a folder listing) resolved, refused
    unless it still lies inside the resolved ``root`` (a symlink out of it)."""
    base = Path(root).resolve()
    target = Path(path).resolve()
    if target != base and not target.is_relative_to(base):
        raise OutsideRootError(path, base, f"({what}) leads out through a symlink to {target}")
    return target
