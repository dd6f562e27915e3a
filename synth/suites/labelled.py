"""Labelled solutions: programs known to be correct or incorrect, per task.

Two places hold them:

* a labelled folder (``bench/labelled/codecontests``), one sub-folder per task named by the
  task id's part after the source (``<source>/<folder>`` is the id)::

      <folder>/correct/<style>.py             correct Python 3 stdin -> stdout programs
      <folder>/incorrect/<kind>__<short>.py   incorrect ones; <kind> is one of FAULT_KINDS
      <folder>/inputs.py                      an independent input generator (not read here)

* a CodeContests data file: each record's Python 3 ``solutions`` (correct; with ``verify``, only
  those that reproduce the public tests in the sandbox) and Python 3 ``incorrect_solutions``
  (fault kind ``dataset``), read by :mod:`synth.sources.codecontests`.

Programs are read as text and never run here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from synth.tasks import TaskDescription

__all__ = ["DATASET_KIND", "FAULT_KINDS", "LabelledTask", "Program", "read_codecontests",
           "read_labelled"]

#: the fault kinds of the labelled folders' incorrect programs
FAULT_KINDS = ("off_by_one", "wrong_greedy", "edge_case", "format", "too_slow", "large_only")
#: the fault kind of a dataset's incorrect submission (its fault is not labelled)
DATASET_KIND = "dataset"
#: largest program read (characters)
MAX_PROGRAM_CHARS = 200_000


@dataclass(frozen=True)
class Program:
    """One labelled program: ``kind`` is the fault kind of an incorrect one (None if correct)."""

    name: str
    code: str
    correct: bool
    kind: str | None = None


@dataclass
class LabelledTask:
    task_id: str
    programs: list[Program] = field(default_factory=list)
    #: what could not be read (each a line)
    problems: list[str] = field(default_factory=list)

    @property
    def correct(self) -> list[Program]:
        return [p for p in self.programs if p.correct]

    @property
    def incorrect(self) -> list[Program]:
        return [p for p in self.programs if not p.correct]


def _read(path: Path, task: LabelledTask) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        task.problems.append(f"{path.name}: cannot read it ({exc})")
        return None
    if len(text) > MAX_PROGRAM_CHARS:
        task.problems.append(f"{path.name}: {len(text)} characters (at most {MAX_PROGRAM_CHARS})")
        return None
    return text


def read_labelled(root: Path, source: str = "codecontests",
                  only: list[str] | None = None) -> list[LabelledTask]:
    """The tasks of a labelled folder, in name order (``only``: these folder names or ids)."""
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder of labelled tasks")
    tasks = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        task_id = f"{source}/{folder.name}"
        if only and folder.name not in only and task_id not in only:
            continue
        task = LabelledTask(task_id)
        for label in ("correct", "incorrect"):
            for path in sorted((folder / label).glob("*.py")):
                code = _read(path, task)
                if code is None:
                    continue
                kind = None
                if label == "incorrect":
                    kind = path.stem.split("__", 1)[0]
                    if kind not in FAULT_KINDS:
                        task.problems.append(f"incorrect/{path.name}: the kind {kind!r} is not one "
                                             f"of {', '.join(FAULT_KINDS)}")
                task.programs.append(Program(f"{label}/{path.stem}", code, label == "correct",
                                             kind))
        if not task.programs:
            task.problems.append("no correct/ or incorrect/ programs")
        tasks.append(task)
    return tasks


def labelled_from_task(task: TaskDescription) -> LabelledTask:
    """A source's task as labelled programs: its Python 3 references are correct, its Python 3
    incorrect solutions incorrect (kind :data:`DATASET_KIND`)."""
    out = LabelledTask(task.id)
    refs = [r for r in task.references if r.language == "python3" and r.interface == "stdio"]
    for k, ref in enumerate(refs, 1):
        out.programs.append(Program(f"solutions/{k}", ref.code, True))
    for k, bad in enumerate(task.incorrect_solutions, 1):
        out.programs.append(Program(f"incorrect_solutions/{k}", bad.code, False, DATASET_KIND))
    if not out.programs:
        out.problems.append("the record has no Python 3 solution")
    return out


def read_codecontests(path: Path, *, verify: bool = True, backend: str = "auto",
                      max_references: int = 10, max_incorrect: int = 50,
                      limit: int | None = None) -> tuple[list[LabelledTask], list[str]]:
    """The labelled tasks of a CodeContests data file (any rating), and the records skipped
    (each a line)."""
    from synth.sources.codecontests import CodeContestsSource

    tasks: list[LabelledTask] = []
    skipped: list[str] = []
    items = CodeContestsSource().load(path=path, min_rating=None, max_rating=None, verify=verify,
                                      backend=backend, max_references=max_references,
                                      max_attempts=min(20, max(5, max_references)),
                                      max_incorrect=max_incorrect, limit=limit, split=None)
    for item in items:
        if isinstance(item, TaskDescription):
            tasks.append(labelled_from_task(item))
        else:
            skipped.append(str(item))
    return tasks, skipped
