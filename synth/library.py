"""The bootcamp library: a folder of bootcamp modules plus a validated manifest.

Layout of a library folder::

    <library>/manifest.json           {"version": 1, "bootcamps": [BootcampRecord, ...]}
    <library>/<source>/<name>.py      one BaseBootcamp subclass per module
    <library>/<source>/reference/<name>.py   optional reference program (oracle)
    <library>/<source>/checkers/<name>.py    optional independent checker (the judge's)
    <library>/<source>/validators/<name>.py  optional input validator (the judge's)

Writes are atomic (temporary file + ``os.replace``) and the manifest is only ever rewritten under
an exclusive file lock, so concurrent committers never lose a record. Reading a module's code
(:meth:`Library.checked_code`) checks its sha256 against the manifest, so an edited or swapped
file is refused rather than served.

The CLI never imports a bootcamp: export, review, ``library add/show`` and the default reward
hand the checked code to a sandboxed method server. :meth:`Library.load_bootcamp` -- the only
place of ``synth`` that imports bootcamp code -- is for a trainer that chooses to trust the
library and run it in its own process.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Literal
from urllib.parse import urlsplit

from filelock import FileLock
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, field_validator

from synth.bootcamp import BaseBootcamp
from synth.paths import OutsideRootError, inside
from synth.text import pyast
from synth.text.utf8 import describe, find_unencodable

MANIFEST_NAME = "manifest.json"
MANIFEST_VERSION = 1
DEFAULT_LIBRARY = Path(__file__).resolve().parent.parent / "generated_bootcamps"

NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
SOURCE_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")

Origin = Literal["generated", "handwritten"]
#: ``quarantined``: production caught it lying (an export's spot-check or a reward canary
#: failed, synth.training.spotcheck): out of exports and rewards, the finding in ``review_reason``
Status = Literal["accepted", "pending-review", "rejected-in-review", "quarantined"]
LIVE_STATUSES: frozenset[str] = frozenset({"accepted"})


class LibraryError(Exception):
    """A library operation was refused; the message says why and what to do."""


ENDPOINT_RE = re.compile(r"^[A-Za-z0-9._:\[\]-]{1,255}$")


def endpoint_name(base_url: str | None) -> str:
    """What a record may say about an endpoint: the host[:port] of its base URL (no scheme,
    user, password, path or query, which may carry a key); ``api.openai.com`` for the openai
    client's default."""
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url if "//" in base_url else f"//{base_url}")
    host = parts.hostname or "unknown"
    if ":" in host:  # IPv6
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host


class Calibration(BaseModel):
    """How a record's pass rates were measured by ``synth calibrate`` (all K answers, no early
    stop). When a record carries one, its ``pass_rate``, ``samples``, ``level_pass_rates`` and
    ``level_samples`` come from this measurement, not from the workflow's filter."""

    model_config = ConfigDict(extra="forbid")

    solver_model: str
    endpoint: str = Field(description="host[:port] of the solver's base URL, or an endpoint name "
                          "(embedded, api.openai.com); never a path, a user or a key")
    temperature: float | None = None
    samples_requested: int = Field(ge=1)
    samples_answered: int = Field(ge=0)
    solver_failures: int = Field(default=0, ge=0)
    seed: int
    calibrated_at: str

    @field_validator("endpoint")
    @classmethod
    def _check_endpoint(cls, v: str) -> str:
        if not ENDPOINT_RE.match(v):
            raise ValueError(f"endpoint {v[:80]!r} must be a host[:port] or a name, nothing more")
        return v


class BootcampRecord(BaseModel):
    """One manifest entry: everything needed to trust, load and trace a bootcamp."""

    model_config = ConfigDict(extra="forbid")

    name: str
    class_name: str
    module_path: str = Field(description="path of the module, relative to the library folder")
    source: str
    task_id: str
    title: str = ""
    origin: Origin
    status: Status = "accepted"
    pass_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    samples: int | None = Field(default=None, ge=0, description="K: solver attempts behind pass_rate")
    level_pass_rates: dict[str, float] = Field(default_factory=dict)
    level_samples: dict[str, NonNegativeInt] = Field(
        default_factory=dict, description="answers behind each level's rate (one or two when "
        "the filter stopped early: such a rate says little)"
    )
    stopped_early: bool | None = Field(
        default=None, description="the filter stopped once its verdict was decided, so the rates "
        "rest on fewer than K answers; False: every answer was scored; None: not recorded"
    )
    calibration: Calibration | None = Field(
        default=None, description="set by `synth calibrate`: the measurement behind the rates"
    )
    levels: list[str] = Field(default_factory=list)
    coder_model: str | None = None
    solver_model: str | None = None
    prompt_version: str | None = None
    run_id: str | None = None
    code_sha256: str
    content_hash: str | None = None
    reference_program: str | None = Field(
        default=None, description="path of a reference program, relative to the library folder"
    )
    review_reason: str | None = None
    created_at: str
    checker_sha256: str | None = Field(
        default=None, description="sha256 of the independent checker the bootcamp was compared with"
    )
    checker_path: str | None = Field(
        default=None, description="path of that checker, relative to the library folder"
    )
    validator_sha256: str | None = Field(
        default=None, description="sha256 of the input validator (validate(stdin) -> None | str, "
        "written by the judge role) every generated input was checked with"
    )
    validator_path: str | None = Field(
        default=None, description="path of that validator, relative to the library folder"
    )
    key_verified_by: str | None = Field(
        default=None, description="how the answer key was verified on generated inputs (the "
        "gate's key check): e.g. '3 solutions agree on 100 generated inputs', 'the judge's "
        "solver agrees with the reference program on 100 generated inputs', or 'unverified: "
        "...' (a compiled bootcamp is committed unverified only under --allow-unverified-key)"
    )
    key_solver_sha256: str | None = Field(
        default=None, description="sha256 of the solver program the judge role wrote from the "
        "statement that voted on the answer key (when the task had no second solution)"
    )
    key_solver_path: str | None = Field(
        default=None, description="path of that solver, relative to the library folder"
    )
    mode: Literal["full", "compiled", "function"] | None = Field(
        default=None, description="how it was synthesised: full (the model wrote the module), "
        "compiled (the task's reference program is embedded; the model wrote the rest) or "
        "function (the task's reference function is embedded; the model wrote the arguments)"
    )
    differential: dict[str, str | int | float | bool | None] | None = Field(
        default=None, description="the differential check's verdict on the committed code, "
        "and how the checker came about (judge model, round, regenerations, disputes)"
    )
    engines: dict[str, str] | None = Field(
        default=None, description="the engines the bootcamp declares (ENGINES), each with the "
        "version its cases and scores were made with (they are reproducible with that version)"
    )
    task_text_key: str | None = Field(
        default=None, description="key of the task's statement (normalised, numbers masked: "
        "filters.dedup_index.task_text_key): a bootcamp of the same family with the same key "
        "is a duplicate; None for a bootcamp without a task description (hand-written)"
    )

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str) -> str:
        if not NAME_RE.match(v):
            raise ValueError(f"bootcamp name {v!r} must match {NAME_RE.pattern}")
        return v

    @field_validator("source")
    @classmethod
    def _check_source(cls, v: str) -> str:
        if not SOURCE_RE.match(v):
            raise ValueError(f"source {v!r} must match {SOURCE_RE.pattern}")
        return v

    @field_validator("module_path", "reference_program", "checker_path", "validator_path",
                     "key_solver_path")
    @classmethod
    def _check_relative(cls, v: str | None) -> str | None:
        if v is None:
            return v
        p = Path(v)
        if p.is_absolute() or ".." in p.parts or not v.endswith(".py"):
            raise ValueError(f"path {v!r} must be a relative .py path inside the library")
        return v


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = MANIFEST_VERSION
    #: the names every bootcamp's first LEVELS presets carry, easiest first (trainers pick a
    #: curriculum stage by name across the library); empty: any names. The shipped library
    #: says easy, medium, hard: ``commit`` refuses other names and ``synth run`` gates its
    #: candidates with them (so a model's two-level module is revised, not filtered and refused)
    curriculum: list[str] = Field(default_factory=list)
    bootcamps: list[BootcampRecord] = Field(default_factory=list)

    def by_name(self) -> dict[str, BootcampRecord]:
        return {r.name: r for r in self.bootcamps}


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def atomic_write(path: Path, data: str) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new file, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_CONTRACT_BASES = frozenset({"BaseBootcamp", "CompiledBootcamp", "FunctionBootcamp",
                             "MultiTurnBootcamp"})


def find_bootcamp_class(code: str) -> str:
    """Name of the single bootcamp class in ``code`` (by AST, no import): a top-level subclass
    of BaseBootcamp or CompiledBootcamp, directly or through classes of the module; the most
    derived one when they chain (as the static gate and the kit decide)."""
    tree = pyast.parse(code)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]

    def bases(node: ast.ClassDef) -> set[str]:
        return {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                if isinstance(b, ast.Name | ast.Attribute)}

    camps: set[str] = set()
    grown = True
    while grown:
        grown = False
        for node in classes:
            if node.name not in camps and bases(node) & (_CONTRACT_BASES | camps):
                camps.add(node.name)
                grown = True
    names = [n.name for n in classes if n.name in camps
             and not any(n.name in bases(o) for o in classes if o.name in camps)]
    if len(names) != 1:
        raise LibraryError(f"expected exactly one BaseBootcamp subclass, found {len(names)}")
    return names[0]


def declared_levels(code: str, class_name: str) -> list[str]:
    """Level names of a literal ``LEVELS = {...}`` in the class body (by AST, no import)."""
    for node in pyast.parse(code).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for stmt in node.body:
                target: ast.expr
                value: ast.expr | None
                if isinstance(stmt, ast.AnnAssign):
                    target, value = stmt.target, stmt.value
                elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                    target, value = stmt.targets[0], stmt.value
                else:
                    continue
                if isinstance(target, ast.Name) and target.id == "LEVELS" and value is not None:
                    try:
                        levels = pyast.literal_eval(value)
                    except ValueError:
                        return []
                    return [str(k) for k in levels] if isinstance(levels, dict) else []
    return []


class Library:
    """A library folder. Cheap to construct; reads the manifest on demand."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root).resolve() if root is not None else DEFAULT_LIBRARY
        self._modules: dict[str, tuple[str, ModuleType]] = {}

    # -- manifest ------------------------------------------------------------------------

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST_NAME

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(str(self.root / f"{MANIFEST_NAME}.lock"), timeout=60):
            yield

    def read_manifest(self) -> Manifest:
        if not self.manifest_path.exists():
            if not self.root.is_dir():
                raise LibraryError(
                    f"library folder {self.root} does not exist; pass --library DIR "
                    "pointing at a folder with a manifest.json"
                )
            return Manifest()
        try:
            raw = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LibraryError(f"cannot read {self.manifest_path}: {exc}") from exc
        unreadable = find_unencodable(raw, 1)
        if unreadable:  # a JSON escape of a lone surrogate: no writer (a terminal, a row) takes it
            raise LibraryError(f"invalid manifest {self.manifest_path}: "
                               f"{describe(unreadable[0], 'the manifest')}")
        try:
            return Manifest.model_validate(raw)
        except ValueError as exc:
            raise LibraryError(f"invalid manifest {self.manifest_path}: {exc}") from exc

    def _write_manifest(self, manifest: Manifest) -> None:
        manifest.bootcamps.sort(key=lambda r: r.name)
        data = manifest.model_dump(mode="json")
        if not data["curriculum"]:
            del data["curriculum"]
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        atomic_write(self.manifest_path, text)

    @property
    def curriculum(self) -> tuple[str, ...]:
        """The level names the library requires first, in order (:attr:`Manifest.curriculum`;
        empty: any, as in a library with no manifest yet); an unreadable manifest raises."""
        if not self.manifest_path.exists():
            return ()
        return tuple(self.read_manifest().curriculum)

    # -- queries ---------------------------------------------------------------------------

    def records(self, statuses: set[str] | frozenset[str] | None = LIVE_STATUSES) -> list[BootcampRecord]:
        """Records in name order; by default only live (accepted) bootcamps."""
        recs = self.read_manifest().bootcamps
        if statuses is not None:
            recs = [r for r in recs if r.status in statuses]
        return sorted(recs, key=lambda r: r.name)

    def list_bootcamps(self) -> list[str]:
        """Names of the live (accepted) bootcamps, sorted."""
        return [r.name for r in self.records()]

    def record(self, name: str) -> BootcampRecord:
        rec = self.read_manifest().by_name().get(name)
        if rec is None:
            known = ", ".join(self.list_bootcamps()) or "(empty library)"
            raise LibraryError(f"no bootcamp named {name!r} in {self.root}; known: {known}")
        return rec

    def has_task(self, source: str, task_id: str) -> BootcampRecord | None:
        for rec in self.read_manifest().bootcamps:
            if rec.source == source and rec.task_id == task_id:
                return rec
        return None

    def code(self, name: str) -> str:
        """The module source of ``name`` (its ``module_path`` must resolve inside the library)."""
        rec = self.record(name)
        return self._inside(rec.module_path, f"module_path of {name!r}").read_text(encoding="utf-8")

    def checked_code(self, name: str, *, include_unlisted: bool = False) -> tuple[BootcampRecord, str]:
        """(record, module source) of ``name`` after checking the source's sha256 against the
        manifest. Nothing is imported: this is what the sandboxed paths (export, reward,
        ``library show``) hand to a method server.

        Only live (accepted) bootcamps are served unless ``include_unlisted`` is set (review)."""
        rec = self.record(name)
        if rec.status not in LIVE_STATUSES and not include_unlisted:
            raise LibraryError(f"bootcamp {name!r} is {rec.status}, not accepted; it is not loadable")
        path = self._inside(rec.module_path, f"module_path of {name!r}")
        try:
            code = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise LibraryError(f"bootcamp {name!r}: cannot read {path}: {exc}") from exc
        if sha256_text(code) != rec.code_sha256:
            raise LibraryError(
                f"bootcamp {name!r}: {path} does not match the sha256 in the manifest "
                "(the file was changed after commit); re-commit it or restore it"
            )
        return rec, code

    def load_bootcamp(self, name: str, *, include_unlisted: bool = False) -> type[BaseBootcamp]:
        """Import the bootcamp class ``name`` INTO THIS PROCESS, after checking its code hash
        against the manifest.

        For a trainer's own process only; nothing of ``synth``'s CLI calls it (export, review,
        ``library add/show`` and the default reward run bootcamps in the sandbox). The hash
        check proves the module is the one the manifest recorded, not that it is harmless:
        calling this trusts the library's code. The module then runs with the caller's
        privileges, environment (API keys included), files and network; whatever it does at
        import time is done; and it can patch ``BaseBootcamp`` (``verify_score`` and the rest)
        for every bootcamp of the process, so one bad module can change every score.

        Only live (accepted) bootcamps load unless ``include_unlisted`` is set.
        """
        rec, code = self.checked_code(name, include_unlisted=include_unlisted)
        digest = rec.code_sha256
        cached = self._modules.get(name)
        if cached is None or cached[0] != digest:
            # Execute the very text that was hash-checked (re-reading the file would let a
            # swap between the check and the import through).
            path = self.root / rec.module_path
            module_name = f"_synth_library_{digest[:16]}_{name}"
            module = ModuleType(module_name)
            module.__file__ = str(path)
            sys.modules[module_name] = module
            try:
                exec(compile(code, str(path), "exec"), module.__dict__)  # trusted by the caller (see above)
            except Exception:
                sys.modules.pop(module_name, None)
                raise
            cached = (digest, module)
            self._modules[name] = cached
        cls = vars(cached[1]).get(rec.class_name)
        if not (isinstance(cls, type) and issubclass(cls, BaseBootcamp)):
            raise LibraryError(
                f"bootcamp {name!r}: {rec.module_path} has no BaseBootcamp subclass {rec.class_name}"
            )
        return cls

    # -- writes ----------------------------------------------------------------------------

    def commit(
        self,
        *,
        name: str,
        code: str,
        class_name: str,
        source: str,
        task_id: str,
        origin: Origin,
        status: Status = "accepted",
        reference_code: str | None = None,
        replace: bool = False,
        **fields: object,
    ) -> BootcampRecord:
        """Write a bootcamp module (and optional reference program) and its manifest record.

        Atomic: files are written to temporary names and renamed; the manifest is read, updated
        and replaced under an exclusive lock. Refuses a name that is already taken unless
        ``replace`` is set (then the old record and files are replaced, never silently).
        """
        unwritable = find_unencodable({"name": name, "code": code, "class_name": class_name,
                                       "source": source, "task_id": task_id,
                                       "reference_code": reference_code, **fields}, 1)
        if unwritable:  # no file takes it: refused before anything is written
            raise LibraryError(f"bootcamp {name!r} cannot be committed: "
                               f"{describe(unwritable[0], 'its record')}")
        module_rel = f"{source}/{name}.py"
        ref_rel = f"{source}/reference/{name}.py" if reference_code is not None else None
        record = BootcampRecord(
            name=name,
            class_name=class_name,
            module_path=module_rel,
            source=source,
            task_id=task_id,
            origin=origin,
            status=status,
            code_sha256=sha256_text(code),
            reference_program=ref_rel,
            created_at=str(fields.pop("created_at", None) or utc_now()),
            **fields,  # type: ignore[arg-type]
        )
        with self._locked():
            manifest = self.read_manifest()
            want = manifest.curriculum
            if want and record.levels[:len(want)] != want:
                raise LibraryError(
                    f"bootcamp {name!r} has the levels {record.levels}; this library's "
                    f"bootcamps begin with {want} (its manifest's curriculum)")
            existing = manifest.by_name()
            if name in existing and not replace:
                raise LibraryError(
                    f"a bootcamp named {name!r} already exists in {self.root}; "
                    "choose another name (see unique_name) or replace it explicitly"
                )
            module_path = self.root / module_rel
            if (
                module_path.exists()
                and name not in existing
                and not replace
                and module_path.read_text(encoding="utf-8") != code
            ):
                raise LibraryError(
                    f"{module_path} exists, differs and is not in the manifest; move it away first"
                )
            atomic_write(module_path, code)
            if ref_rel is not None and reference_code is not None:
                atomic_write(self.root / ref_rel, reference_code)
            manifest.bootcamps = [r for r in manifest.bootcamps if r.name != name]
            manifest.bootcamps.append(record)
            self._write_manifest(manifest)
        self._modules.pop(name, None)
        return record

    def write_file(self, rel: str, text: str) -> None:
        """Write a file of the library that has no record of its own (a bootcamp's independent
        checker) at ``rel``, atomically; writing the same text again changes nothing."""
        atomic_write(self._inside(rel), text)

    def remove_file(self, rel: str) -> None:
        self._inside(rel)  # refused when it leads out of the library
        (self.root / rel).unlink(missing_ok=True)  # a link itself, not what it points at

    def _inside(self, rel: str, what: str = "path") -> Path:
        """``rel`` under the library folder, resolved (symlinks followed) and refused unless it
        stays inside it (see :func:`synth.paths.inside`)."""
        try:
            return inside(self.root, rel, what=what)
        except OutsideRootError as exc:
            raise LibraryError(str(exc)) from exc

    def unique_name(self, base: str) -> str:
        """A name derived from ``base`` that no record uses yet (not reserved: commit may still lose a race)."""
        slug = re.sub(r"[^a-z0-9_]+", "_", base.lower()).strip("_") or "bootcamp"
        if not slug[0].isalpha():
            slug = f"b_{slug}"
        slug = slug[:56]
        taken = set(self.read_manifest().by_name())
        if slug not in taken:
            return slug
        i = 2
        while f"{slug}_{i}" in taken:
            i += 1
        return f"{slug}_{i}"

    def set_calibration(
        self,
        name: str,
        *,
        code_sha256: str,
        pass_rate: float,
        samples: int,
        level_pass_rates: dict[str, float],
        level_samples: dict[str, int],
        calibration: Calibration,
    ) -> BootcampRecord:
        """Replace a record's pass rates with a calibration's measurement (``stopped_early``
        becomes False). Status, code and everything else stay as they are. Refused when the
        module's hash is no longer ``code_sha256`` (the code measured), so a re-commit between
        measuring and writing is never credited with the old code's rates."""
        with self._locked():
            manifest = self.read_manifest()
            for i, rec in enumerate(manifest.bootcamps):
                if rec.name != name:
                    continue
                if rec.code_sha256 != code_sha256:
                    raise LibraryError(
                        f"bootcamp {name!r} was re-committed while it was being measured; "
                        "run `synth calibrate` again to measure the new code"
                    )
                data = rec.model_dump()
                data.update(pass_rate=pass_rate, samples=samples,
                            level_pass_rates=dict(level_pass_rates),
                            level_samples=dict(level_samples), stopped_early=False,
                            calibration=calibration.model_dump())
                manifest.bootcamps[i] = BootcampRecord.model_validate(data)
                self._write_manifest(manifest)
                self._modules.pop(name, None)
                return manifest.bootcamps[i]
        raise LibraryError(f"no bootcamp named {name!r} in {self.root}")

    def set_status(self, name: str, status: Status, reason: str | None = None) -> BootcampRecord:
        """Change a record's review status (the module stays on disk)."""
        with self._locked():
            manifest = self.read_manifest()
            for i, rec in enumerate(manifest.bootcamps):
                if rec.name == name:
                    updated = rec.model_copy(update={"status": status, "review_reason": reason})
                    manifest.bootcamps[i] = BootcampRecord.model_validate(updated.model_dump())
                    self._write_manifest(manifest)
                    self._modules.pop(name, None)
                    return manifest.bootcamps[i]
        raise LibraryError(f"no bootcamp named {name!r} in {self.root}")


_default: Library | None = None


def default_library() -> Library:
    global _default
    if _default is None:
        _default = Library()
    return _default


def list_bootcamps(library: Path | str | None = None) -> list[str]:
    return (Library(library) if library is not None else default_library()).list_bootcamps()


def load_bootcamp(name: str, library: Path | str | None = None) -> type[BaseBootcamp]:
    """Import bootcamp ``name`` into this process (hash-checked); the caller trusts the
    library's code: see :meth:`Library.load_bootcamp`."""
    return (Library(library) if library is not None else default_library()).load_bootcamp(name)
