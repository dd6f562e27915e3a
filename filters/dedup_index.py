"""The dedup index: fingerprints of a library's bootcamps, looked up by hash (no sandbox here).

A bootcamp's *fingerprint* is what it does on fixed probe specs -- every level of its
``LEVELS`` (``default`` when it has none) with the seeds :data:`PROBE_SEEDS` -- reduced to short
hashes, one of each kind per probe:

``prompt``    the prompt (NFKC, case-folded, whitespace collapsed) with the reference answer
              (whitespace collapsed): the same question with the same answer, whatever code,
              field names or level names produced it;
``values``    the sorted leaf values of the case's canonical JSON with the reference answer: the
              same instance under other field names or another nesting (the prompt's wording
              may differ). It counts only for bootcamps with at least :data:`MIN_ANSWER_KINDS`
              distinct answers over their probes: two yes/no tasks over one input generator
              agree by chance far too often;
``template``  the prompt's *task text*: normalised as above and every number masked (a run of
              numbers is one ``#``). None when fewer than :data:`MIN_TEMPLATE_LETTERS` letters
              are left (a prompt that is mostly data says nothing about the task).

Besides these: ``text_key``, the task statement's key (:func:`task_text_key`, the same
masking; from the task description at commit time, kept in the record), and ``schema_key``, the
shape of the cases (keys and value kinds, two levels deep), which says whether one bootcamp's
verifier can read another's cases (cross-scoring, :mod:`filters.dedup`).

Keys carry neither the level name nor the seed: two bootcamps agree on a probe when the other
has a probe with the same key anywhere. A side's *agreement* is the share of its probes that
agree; a pair is a duplicate when both sides reach :data:`THRESHOLD` (behaviour or task text),
or when their statements' keys are equal.

:class:`DedupIndex` keeps, per source family, an inverted map from each key to the bootcamps
that have it, so a lookup costs one dictionary probe per key of the candidate plus the exact
count for the few bootcamps it hits; :func:`naive_duplicates` compares with every bootcamp of
the family probe by probe (the benchmark's baseline, bench/dedup.py; both give the same
answer). The index is a file of the library folder (:data:`DEDUP_DIR`/:data:`INDEX_NAME`),
a cache of what the code does: each entry carries its module's sha256, and an entry whose record
has other code is stale and drawn again (:mod:`filters.dedup`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from synth.library import BootcampRecord, atomic_write
from synth.tasks import normalise_statement

__all__ = [
    "DEDUP_DIR",
    "FINGERPRINT_VERSION",
    "INDEX_NAME",
    "LIVE_FOR_DEDUP",
    "MIN_ANSWER_KINDS",
    "PROBE_SEEDS",
    "THRESHOLD",
    "DedupIndex",
    "Fingerprint",
    "PairAgreement",
    "family_of",
    "fingerprint_of",
    "mask_numbers",
    "naive_duplicates",
    "task_text_key",
]

#: Bumped when a key's definition changes: every entry of another version is stale.
FINGERPRINT_VERSION = 1
#: The probe seeds drawn at every level (fixed: two bootcamps are compared on the same seeds).
PROBE_SEEDS: tuple[int, ...] = tuple(range(16))
#: Both sides' agreement must reach this share for a duplicate.
THRESHOLD = 0.95
#: Hex digits kept of each sha256 (64 bits: no accidental collision among millions of keys).
KEY_CHARS = 16
#: Distinct reference answers a bootcamp's probes need before its ``values`` keys count.
MIN_ANSWER_KINDS = 4
#: Letters a masked prompt needs before its ``template`` key counts.
MIN_TEMPLATE_LETTERS = 20
#: The library's records a candidate is compared with (a rejected or quarantined bootcamp's
#: task may be synthesised again).
LIVE_FOR_DEDUP: frozenset[str] = frozenset({"accepted", "pending-review"})
DEDUP_DIR = "_dedup"  # no source name starts with "_": never a source folder
INDEX_NAME = "index.json"

KeyKind = Literal["prompt", "values", "template"]
KINDS: tuple[KeyKind, ...] = ("prompt", "values", "template")

_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")
_NUMBER_RUN = re.compile(r"#(?:[\s,;]*#)+")


def _key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:KEY_CHARS]


def mask_numbers(text: str) -> str:
    """``text`` normalised (:func:`synth.tasks.normalise_statement`: NFKC, case-folded,
    whitespace collapsed) with every number masked as ``#`` and a run
    of numbers (``3 5 7``, ``3, 5, 7``) as one ``#``: what stays is the task, not the instance."""
    return _NUMBER_RUN.sub("#", _NUMBER.sub("#", normalise_statement(text)))


def task_text_key(text: str) -> str:
    """The key of a task statement: sha256 of :func:`mask_numbers` (versioned)."""
    return f"t{FINGERPRINT_VERSION}:{_key('statement', mask_numbers(text))}"


def family_of(source: str, origin: str) -> str:
    """The family a bootcamp is compared within: its source; hand-written ones are one family."""
    return "handwritten" if origin == "handwritten" else source


def record_family(rec: BootcampRecord) -> str:
    return family_of(rec.source, rec.origin)


def _leaves(value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    else:
        out.append(json.dumps(value, ensure_ascii=False))


def _shape(value: Any, depth: int = 2) -> str:
    if isinstance(value, dict):
        if depth <= 0:
            return "{}"
        return "{" + ",".join(f"{json.dumps(k)}:{_shape(value[k], depth - 1)}"
                              for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[]"
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int | float):
        return "n"
    return "s" if isinstance(value, str) else "z"


def _answer(answer: str | None) -> str:
    return " ".join((answer or "").split())


class Fingerprint(BaseModel):
    """One bootcamp's entry in the index: per probe (in drawing order) its label
    (``level/seed``) and keys, one list per kind (see the module docstring; columns keep the
    file small and quick to read). ``error``: its probes could not be drawn -- it has none, so
    only its statement's key is compared, until ``synth library reindex`` draws it again."""

    model_config = ConfigDict(extra="forbid")

    version: int = FINGERPRINT_VERSION
    family: str
    code_sha256: str
    text_key: str | None = None
    schema_key: str | None = None
    multi_turn: bool = False
    labels: list[str] = Field(default_factory=list)
    prompt: list[str] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)
    template: list[str | None] = Field(default_factory=list)
    answer: list[str] = Field(default_factory=list)
    error: str | None = None

    @model_validator(mode="after")
    def _same_lengths(self) -> Fingerprint:
        n = len(self.labels)
        if any(len(getattr(self, kind)) != n for kind in (*KINDS, "answer")):
            raise ValueError("a fingerprint needs one key of each kind per probe")
        return self

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def informative(self) -> bool:
        """Enough distinct answers for the ``values`` keys to count."""
        return len(set(self.answer)) >= MIN_ANSWER_KINDS

    def keys(self, kind: KeyKind) -> list[str | None]:
        if kind == "values" and not self.informative:
            return [None] * len(self.labels)
        return list(getattr(self, kind))


def fingerprint_of(samples: Iterable[tuple[str, int, str, str, str | None]], *, family: str,
                   code_sha256: str, text_key: str | None = None,
                   multi_turn: bool = False) -> Fingerprint:
    """The fingerprint of drawn probes: ``(level, seed, case_text, prompt, answer)`` each (the
    case as canonical JSON; the answer None for a multi-turn bootcamp)."""
    columns: dict[str, list[Any]] = {k: [] for k in ("labels", *KINDS, "answer")}
    shapes: set[str] = set()
    for level, seed, case_text, prompt, answer in samples:
        case = json.loads(case_text)
        leaves: list[str] = []
        _leaves(case, leaves)
        shapes.add(_shape(case))
        ans = _answer(answer)
        masked = mask_numbers(prompt)
        letters = sum(ch.isalpha() for ch in masked)
        columns["labels"].append(f"{level}/{seed}")
        columns["prompt"].append(_key("prompt", normalise_statement(prompt), ans))
        columns["values"].append(_key("values", *sorted(leaves), "\x1e", ans))
        columns["template"].append(_key("template", masked)
                                   if letters >= MIN_TEMPLATE_LETTERS else None)
        columns["answer"].append(_key("answer", ans))
    schema = _key("schema", *sorted(shapes)) if shapes else None
    return Fingerprint(family=family, code_sha256=code_sha256, text_key=text_key,
                       schema_key=schema, multi_turn=multi_turn, labels=columns["labels"],
                       prompt=columns["prompt"], values=columns["values"],
                       template=columns["template"], answer=columns["answer"])


# -- agreement -------------------------------------------------------------------------------


@dataclass
class PairAgreement:
    """How a candidate and one library bootcamp agree, probe by probe.

    ``candidate[i]`` / ``other[j]``: how probe i of the candidate (j of the other) agrees, e.g.
    ``"prompt ~ hard/3"`` or ``"cross-scored"``; absent: it does not."""

    name: str
    candidate_probes: list[str]
    other_probes: list[str]
    candidate: dict[int, str] = field(default_factory=dict)
    other: dict[int, str] = field(default_factory=dict)
    template_candidate: int = 0
    template_other: int = 0
    same_statement: bool = False

    @property
    def ratios(self) -> tuple[float, float]:
        """(candidate side, other side) behavioural agreement."""
        return (len(self.candidate) / max(1, len(self.candidate_probes)),
                len(self.other) / max(1, len(self.other_probes)))

    @property
    def template_ratios(self) -> tuple[float, float]:
        return (self.template_candidate / max(1, len(self.candidate_probes)),
                self.template_other / max(1, len(self.other_probes)))

    @property
    def by(self) -> Literal["behaviour", "task_text", "statement"] | None:
        """Why the pair is a duplicate (the strongest evidence first), or None."""
        if min(self.ratios) >= THRESHOLD:
            return "behaviour"
        if self.same_statement:
            return "statement"
        if min(self.template_ratios) >= THRESHOLD:
            return "task_text"
        return None

    @property
    def strength(self) -> float:
        if self.by == "behaviour":
            return 2.0 + min(self.ratios)
        return 1.0 + min(self.template_ratios) if self.by else min(self.ratios)


def _first_index(values: Sequence[str | None]) -> dict[str, int]:
    out: dict[str, int] = {}
    for j, v in enumerate(values):
        if v is not None:
            out.setdefault(v, j)
    return out


def agreement(fp: Fingerprint, name: str, other: Fingerprint) -> PairAgreement:
    """The exact probe-by-probe agreement of ``fp`` and ``other`` on their keys (hash maps:
    linear in the probes)."""
    pair = PairAgreement(name, fp.labels, other.labels,
                         same_statement=fp.text_key is not None and fp.text_key == other.text_key)
    for side_a, side_b, out in ((fp, other, pair.candidate), (other, fp, pair.other)):
        for kind in ("prompt", "values"):
            where = _first_index(side_b.keys(kind))
            for i, key in enumerate(side_a.keys(kind)):
                if i not in out and key is not None and key in where:
                    out[i] = f"{kind} ~ {side_b.labels[where[key]]}"
    cand_t = {t for t in fp.keys("template") if t is not None}
    other_t = {t for t in other.keys("template") if t is not None}
    pair.template_candidate = sum(1 for t in fp.keys("template") if t in other_t)
    pair.template_other = sum(1 for t in other.keys("template") if t in cand_t)
    return pair


def naive_duplicates(entries: dict[str, Fingerprint], fp: Fingerprint,
                     allowed: Container[str] | None = None) -> list[PairAgreement]:
    """The baseline of :meth:`DedupIndex.duplicates`: every bootcamp of the family, every probe
    of the candidate against every probe of the other (no index, no hash map)."""
    found = []
    mine = {kind: fp.keys(kind) for kind in KINDS}
    for name, other in entries.items():
        if other.family != fp.family or (allowed is not None and name not in allowed):
            continue
        theirs = {kind: other.keys(kind) for kind in KINDS}
        pair = PairAgreement(name, fp.labels, other.labels,
                             same_statement=fp.text_key is not None and fp.text_key == other.text_key)
        for a, b, labels, out in ((mine, theirs, other.labels, pair.candidate),
                                  (theirs, mine, fp.labels, pair.other)):
            for i in range(len(a["prompt"])):
                for kind in ("prompt", "values"):
                    key = a[kind][i]
                    j = next((j for j, k in enumerate(b[kind]) if key is not None and k == key),
                             None)
                    if j is not None:
                        out[i] = f"{kind} ~ {labels[j]}"
                        break
        ta, tb = mine["template"], theirs["template"]
        pair.template_candidate = sum(1 for t in ta if t is not None and any(t == u for u in tb))
        pair.template_other = sum(1 for t in tb if t is not None and any(t == u for u in ta))
        if pair.by:
            found.append(pair)
    return sorted(found, key=lambda p: (-p.strength, p.name))


# -- the index -------------------------------------------------------------------------------


class IndexFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = FINGERPRINT_VERSION
    entries: dict[str, Fingerprint] = Field(default_factory=dict)


class DedupIndex:
    """Fingerprints by bootcamp name, with inverted maps (family, kind, key) -> names."""

    def __init__(self, entries: dict[str, Fingerprint] | None = None) -> None:
        self.entries: dict[str, Fingerprint] = {}
        self._maps: dict[tuple[str, str], dict[str, set[str]]] = {}
        for name, fp in (entries or {}).items():
            self.add(name, fp)

    # -- persistence --------------------------------------------------------------------------
    @staticmethod
    def path(library_root: Path) -> Path:
        return library_root / DEDUP_DIR / INDEX_NAME

    @classmethod
    def load(cls, library_root: Path) -> DedupIndex:
        """The library's index; empty when it is missing, unreadable or of another version
        (it is a cache: everything in it can be drawn again)."""
        try:
            data = IndexFile.model_validate_json(cls.path(library_root).read_bytes())
        except (OSError, ValueError):
            return cls()
        if data.version != FINGERPRINT_VERSION:
            return cls()
        return cls({n: fp for n, fp in data.entries.items() if fp.version == FINGERPRINT_VERSION})

    def save(self, library_root: Path) -> None:
        data = IndexFile(entries=dict(sorted(self.entries.items())))
        atomic_write(self.path(library_root), data.model_dump_json() + "\n")

    # -- entries ------------------------------------------------------------------------------
    def _postings(self, fp: Fingerprint) -> Iterable[tuple[dict[str, set[str]], set[str]]]:
        """(table, keys) of each kind of key ``fp`` is found by."""
        for kind in KINDS:
            yield self._maps.setdefault((fp.family, kind), {}), {k for k in fp.keys(kind) if k}
        for what, key in (("statement", fp.text_key), ("schema", fp.schema_key)):
            yield self._maps.setdefault((fp.family, what), {}), {key} if key else set()

    def add(self, name: str, fp: Fingerprint) -> None:
        self.remove(name)
        self.entries[name] = fp
        for table, keys in self._postings(fp):
            for key in keys:
                names = table.get(key)
                if names is None:
                    table[key] = {name}
                else:
                    names.add(name)

    def remove(self, name: str) -> None:
        old = self.entries.pop(name, None)
        if old is None:
            return
        for table, keys in self._postings(old):
            for key in keys:
                names = table.get(key)
                if names is not None:
                    names.discard(name)
                    if not names:
                        del table[key]

    def stale(self, rec: BootcampRecord) -> bool:
        """The record's entry is missing, or was drawn from other code (an entry that failed
        to draw is kept as it is until ``synth library reindex``)."""
        fp = self.entries.get(rec.name)
        return fp is None or fp.code_sha256 != rec.code_sha256 or fp.family != record_family(rec)

    # -- lookup ---------------------------------------------------------------------------------
    def _hits(self, fp: Fingerprint, kind: str, keys: Iterable[str | None],
              allowed: Container[str] | None) -> Counter[str]:
        """How many of ``keys`` each bootcamp of the family has (each key counted once per name)."""
        table = self._maps.get((fp.family, kind), {})
        counts: Counter[str] = Counter()
        for key in keys:
            for name in table.get(key, ()) if key is not None else ():
                if allowed is None or name in allowed:
                    counts[name] += 1
        return counts

    def duplicates(self, fp: Fingerprint,
                   allowed: Container[str] | None = None) -> list[PairAgreement]:
        """The bootcamps of ``fp``'s family that it duplicates on keys alone, best first.

        A bootcamp is looked at only when the candidate's keys hit it often enough for it to
        be a duplicate: behaviour (a candidate probe agrees when its prompt or values key is
        the other's), task text (the template keys) or the statement's key."""
        n = max(1, len(fp))
        per_probe: Counter[str] = Counter()  # candidate probes that agree with each name
        template_probes: Counter[str] = Counter()
        prompts, values, templates = (self._maps.get((fp.family, kind), {}) for kind in KINDS)
        for p, v, t in zip(*(fp.keys(kind) for kind in KINDS), strict=True):
            names: set[str] = set()
            if p is not None:
                names |= prompts.get(p, set())
            if v is not None:
                names |= values.get(v, set())
            per_probe.update(names)
            if t is not None:
                template_probes.update(templates.get(t, set()))
        maybe = {name for name, c in per_probe.items() if c / n >= THRESHOLD}
        maybe |= {name for name, c in template_probes.items() if c / n >= THRESHOLD}
        maybe |= set(self._hits(fp, "statement", [fp.text_key], allowed))
        if allowed is not None:
            maybe = {name for name in maybe if name in allowed}
        found = [agreement(fp, name, self.entries[name]) for name in sorted(maybe)]
        return sorted((p for p in found if p.by), key=lambda p: (-p.strength, p.name))

    def schema_peers(self, fp: Fingerprint, allowed: Container[str] | None = None) -> list[str]:
        """The bootcamps of the family whose cases have the candidate's shape, those that share
        the most keys with it first."""
        names = self._hits(fp, "schema", [fp.schema_key], allowed)
        shared = Counter[str]()
        for kind in KINDS:
            shared.update(self._hits(fp, kind, fp.keys(kind), allowed))
        return sorted(names, key=lambda name: (-shared[name], name))
