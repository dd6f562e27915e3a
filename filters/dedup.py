"""Behavioural deduplication: a candidate that behaves like a bootcamp of its family in the
library, or states the same task, is not committed (reason code ``duplicate_of``).

Before a commit the candidate's probe cases are drawn in the sandbox (:class:`CaseSampler`:
every level, the seeds :data:`~filters.dedup_index.PROBE_SEEDS`, with reference answers) and
reduced to a fingerprint (:mod:`filters.dedup_index`). It is compared with the live (accepted or
pending-review) bootcamps of its *family* -- its source; hand-written bootcamps are one family:

1. **by hash** (the index): a probe of one side agrees with the other when the other has a
   probe with the same prompt and reference answer, or -- when both have varied answers -- the
   same case values (field names aside) and reference answer. Both sides' shares of agreeing
   probes must reach 95 %. The same *task text* is a duplicate too: the statement's key, or
   the prompts with numbers and whitespace normalised on 95 % of both sides' probes;
2. **by cross-scoring**, for the bootcamps whose cases have the candidate's shape (keys and
   value kinds: only then can one verifier read the other's cases), at most :data:`MAX_CROSS` of
   them: a candidate probe also agrees when the other bootcamp's ``verify_score`` gives the
   candidate's reference answer (in the other's ``wrap_answer``) full marks on the candidate's
   case, and a probe of the other when the candidate's verifier gives the other's reference
   answer full marks on the other's case. Two verifiers that accept each other's answers on
   each other's cases (95 % both ways) judge the same task, whatever their generators draw.

Why not only (2): a case is an object of one bootcamp's schema; another bootcamp cannot read it
when the fields are named otherwise, so the portable unit is what any bootcamp shows -- the
prompt and the reference answer -- and the case's values. Why hashes: the fingerprints of a
library are kept in its index (``<library>/_dedup/index.json``), keyed by the module's sha256
(a re-committed module is drawn again); a lookup reads the candidate's keys in inverted maps,
not every pair, and draws nothing of the library unless an entry is missing or stale. The probe
cases and answers of each bootcamp (for cross-scoring) are kept beside the index
(``_dedup/probes/<name>.json``).

The check, the commit and the index update happen under one lock (``_dedup/index.lock``), so
two committers of one library never both commit the same behaviour. When the candidate's probes
cannot be drawn (its gate run drew them: a sandbox failure) the check is *skipped* and the
verdict says why; the commit goes on (deduplication keeps the library tidy, it does not guard it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from contextlib import closing
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from pydantic import BaseModel, ConfigDict, Field

from filters.dedup_index import (
    DEDUP_DIR,
    LIVE_FOR_DEDUP,
    PROBE_SEEDS,
    THRESHOLD,
    DedupIndex,
    Fingerprint,
    PairAgreement,
    agreement,
    fingerprint_of,
    record_family,
)
from synth.library import BootcampRecord, Library, LibraryError, atomic_write, sha256_text
from synth.sandbox.base import Backend, Outcome, SandboxUnavailableError
from synth.sandbox.pool import validate_score
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, Sample, SampleError

__all__ = [
    "MAX_CROSS",
    "DedupUnavailableError",
    "DedupVerdict",
    "Drawn",
    "commit_unless_duplicate",
    "draw",
    "probe_specs",
    "reindex",
]

#: Bootcamps of the candidate's case shape that are cross-scored, at most (those sharing the
#: most keys with it first).
MAX_CROSS = 8
#: Probe cases longer than this are not kept for cross-scoring.
MAX_STORED_CASE = 50_000
#: Seconds one scoring call of a cross-score may take.
SCORE_LIMIT_S = 5.0
#: Seconds a committer waits for another's check and commit.
LOCK_TIMEOUT_S = 1800.0
#: Probe lines an evidence list keeps.
EVIDENCE_LINES = 12
PROBES_DIR = "probes"
SCORE_BATCH = 16


class DedupUnavailableError(Exception):
    """The check cannot run (no sandbox, or the lock was held too long)."""


class StoredProbe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str
    seed: int
    case_text: str
    answer: str


class StoredProbes(BaseModel):
    """A bootcamp's probe cases and reference answers, for cross-scoring."""

    model_config = ConfigDict(extra="forbid")

    code_sha256: str
    probes: list[StoredProbe]


class DedupVerdict(BaseModel):
    """What the check found: ``duplicate_of`` names the bootcamp (None: not a duplicate), with
    the evidence -- which probes agreed and how, the shares on both sides."""

    model_config = ConfigDict(extra="forbid")

    duplicate_of: str | None = None
    by: str | None = None  # behaviour | statement | task_text
    candidate_agreed: int = 0
    candidate_probes: int = 0
    existing_agreed: int = 0
    existing_probes: int = 0
    agreed: list[str] = Field(default_factory=list)
    disagreed: list[str] = Field(default_factory=list)
    compared: int = 0
    found_by_hash: list[str] = Field(default_factory=list)
    cross_scored: list[str] = Field(default_factory=list)
    redrawn: list[str] = Field(default_factory=list)
    unavailable: dict[str, str] = Field(default_factory=dict)
    skipped: str | None = None
    elapsed_s: float = 0.0

    @property
    def ratios(self) -> tuple[float, float]:
        return (self.candidate_agreed / max(1, self.candidate_probes),
                self.existing_agreed / max(1, self.existing_probes))

    def reason(self) -> str:
        """One line: the bootcamp it duplicates and why, with examples of agreeing probes."""
        name = self.duplicate_of
        if name is None:
            return "not a duplicate" if self.skipped is None else f"not checked: {self.skipped}"
        shares = (f"{self.candidate_agreed}/{self.candidate_probes} of this bootcamp's probe "
                  f"cases and {self.existing_agreed}/{self.existing_probes} of {name}'s")
        if self.by == "statement":
            why = "the same task statement (numbers and whitespace normalised)"
        elif self.by == "task_text":
            why = (f"the same task text (prompts with numbers and whitespace normalised) on "
                   f"{shares}")
        else:
            why = f"agrees on {shares} (at least {THRESHOLD:.0%} both ways)"
        shown = "; ".join(self.agreed[:4])
        return f"duplicate of {name}: {why}" + (f"; e.g. {shown}" if shown else "")


class Drawn:
    """A bootcamp's probes as drawn in the sandbox, and its fingerprint."""

    def __init__(self, fingerprint: Fingerprint, samples: list[Sample]) -> None:
        self.fingerprint = fingerprint
        self.samples = samples


def probe_specs(levels: Collection[str]) -> list[tuple[str, int]]:
    """Every level (``default`` when there are none) with every probe seed."""
    return [(level, seed) for level in (levels or [DEFAULT_LEVEL]) for seed in PROBE_SEEDS]


def draw(sampler: CaseSampler, *, family: str, code_sha256: str,
         text_key: str | None = None) -> Drawn:
    """Draw the probes of the (started) ``sampler``'s bootcamp; raises :class:`SampleError`.
    A multi-turn bootcamp is drawn without answers (its prompt is the first observation)."""
    multi = sampler.max_turns is not None
    samples = sampler.sample(probe_specs(sampler.levels), answers=not multi)
    fp = fingerprint_of(((s.level, s.seed, s.case_text, s.prompt, s.answer) for s in samples),
                        family=family, code_sha256=code_sha256, text_key=text_key,
                        multi_turn=multi)
    return Drawn(fp, samples)


# -- stored probes ----------------------------------------------------------------------------


def _probes_path(root: Path, name: str) -> Path:
    return root / DEDUP_DIR / PROBES_DIR / f"{name}.json"


def _store_probes(root: Path, name: str, drawn: Drawn) -> None:
    kept = [StoredProbe(level=s.level, seed=s.seed, case_text=s.case_text, answer=s.answer)
            for s in drawn.samples
            if s.answer is not None and len(s.case_text) <= MAX_STORED_CASE]
    data = StoredProbes(code_sha256=drawn.fingerprint.code_sha256, probes=kept)
    atomic_write(_probes_path(root, name), data.model_dump_json() + "\n")


def _load_probes(root: Path, name: str, code_sha256: str) -> list[StoredProbe] | None:
    try:
        data = StoredProbes.model_validate_json(_probes_path(root, name).read_bytes())
    except (OSError, ValueError):
        return None
    return data.probes if data.code_sha256 == code_sha256 else None


# -- drawing the library ------------------------------------------------------------------------


def _sampler(code: str, backend: str | Backend, class_name: str, name: str) -> CaseSampler:
    return CaseSampler(code, backend=backend, class_name=class_name, name=name,
                       label="synth-dedup", recycle_after=10**9)


def _draw_record(library: Library, rec: BootcampRecord, backend: str | Backend) -> Drawn:
    """Draw a library bootcamp's probes; raises :class:`DedupUnavailableError` when the
    sandbox itself failed, :class:`SampleError` / :class:`LibraryError` for the bootcamp."""
    _, code = library.checked_code(rec.name, include_unlisted=True)
    try:
        with _sampler(code, backend, rec.class_name, rec.name) as sampler:
            return draw(sampler, family=record_family(rec), code_sha256=rec.code_sha256,
                        text_key=rec.task_text_key)
    except SandboxUnavailableError as exc:
        raise DedupUnavailableError(str(exc)) from exc
    except SampleError as exc:
        if exc.outcome is Outcome.SANDBOX_ERROR:
            raise DedupUnavailableError(exc.message) from exc
        raise


def _refresh(library: Library, index: DedupIndex, records: list[BootcampRecord],
             backend: str | Backend, verdict: DedupVerdict | None = None,
             everything: bool = False) -> bool:
    """Draw the entries of ``records`` that are missing or stale (all of them with
    ``everything``). A bootcamp that cannot be drawn gets an entry with its error. True when
    the index changed."""
    changed = False
    for rec in records:
        if not (everything or index.stale(rec)):
            continue
        try:
            drawn = _draw_record(library, rec, backend)
        except (SampleError, LibraryError, KeyError) as exc:
            why = exc.message if isinstance(exc, SampleError) else str(exc)
            index.add(rec.name, Fingerprint(family=record_family(rec), code_sha256=rec.code_sha256,
                                            text_key=rec.task_text_key, error=why[:500]))
        else:
            _store_probes(library.root, rec.name, drawn)
            index.add(rec.name, drawn.fingerprint)
        if verdict is not None:
            verdict.redrawn.append(rec.name)
        changed = True
    return changed


def _lock(root: Path) -> FileLock:
    (root / DEDUP_DIR).mkdir(parents=True, exist_ok=True)
    return FileLock(str(root / DEDUP_DIR / "index.lock"), timeout=LOCK_TIMEOUT_S)


def reindex(library: Library, backend: str | Backend = "auto",
            progress: Callable[[str, Fingerprint], None] | None = None) -> DedupIndex:
    """Draw every record of the library again and write a new index (``synth library
    reindex``). ``progress(name, entry)`` is called after each record."""
    with _lock(library.root):
        index = DedupIndex()
        for rec in library.records(None):
            _refresh(library, index, [rec], backend, everything=True)
            if progress is not None:
                progress(rec.name, index.entries[rec.name])
        index.save(library.root)
    return index


# -- cross-scoring ------------------------------------------------------------------------------


def _batch(sampler: CaseSampler, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The values of ``calls`` asked of the sampler's server in batches (None: no answer)."""
    values: list[Any] = [None] * len(calls)
    for start in range(0, len(calls), SCORE_BATCH):
        chunk = calls[start:start + SCORE_BATCH]
        body = {"calls": [[m, {**p, "limit": SCORE_LIMIT_S}] for m, p in chunk]}
        reply = sampler.server.call("batch", body, timeout_s=SCORE_LIMIT_S * len(chunk) + 1.0)
        if not reply.ok or type(reply.value) is not list:
            continue
        for j, item in enumerate(reply.value[:len(chunk)]):
            if type(item) is dict and "ok" in item:
                values[start + j] = item["ok"]
    return values


def full_marks(sampler: CaseSampler, items: list[tuple[str, str]]) -> list[bool]:
    """For each (answer, case_text): does the sampler's bootcamp give the answer, in its own
    ``wrap_answer``, full marks on the case? A call that fails or is refused is not full marks
    (a verifier that cannot read another bootcamp's case does not agree with it)."""
    out = [False] * len(items)
    wrapped = _batch(sampler, [("wrap", {"answer": answer}) for answer, _ in items])
    calls: list[tuple[str, dict[str, Any]]] = []
    where: list[int] = []
    for i, (response, (_, case_text)) in enumerate(zip(wrapped, items, strict=True)):
        if type(response) is str:
            calls.append(("score", {"response": response, "case_text": case_text}))
            where.append(i)
    for i, value in zip(where, _batch(sampler, calls), strict=True):
        if type(value) is dict and not value.get("tampered") and not value.get("identity_changed"):
            score, _ = validate_score(value.get("score"))
            out[i] = score is not None and score >= 1.0
    return out


def _cross(library: Library, index: DedupIndex, drawn: Drawn, candidate: CaseSampler,
           name: str, rec: BootcampRecord, backend: str | Backend,
           verdict: DedupVerdict) -> PairAgreement | None:
    """The key agreement with ``name`` plus both sides' cross-scores (None: not comparable)."""
    entry = index.entries[name]
    stored = _load_probes(library.root, name, entry.code_sha256)
    if stored is None:
        verdict.unavailable[name] = "its probe cases are not stored (synth library reindex)"
        return None
    pair = agreement(drawn.fingerprint, name, entry)
    mine = [(i, s) for i, s in enumerate(drawn.samples) if i not in pair.candidate]
    try:
        _, code = library.checked_code(name, include_unlisted=True)
        with _sampler(code, backend, rec.class_name, name) as other:
            ok = full_marks(other, [(s.answer or "", s.case_text) for _, s in mine])
    except (SampleError, LibraryError, SandboxUnavailableError) as exc:
        verdict.unavailable[name] = (exc.message if isinstance(exc, SampleError) else str(exc))[:300]
        return None
    verdict.cross_scored.append(name)
    for (i, _), agreed in zip(mine, ok, strict=True):
        if agreed:
            pair.candidate[i] = f"cross-scored by {name}"
    if pair.ratios[0] < THRESHOLD:
        return pair  # the other side cannot make it a duplicate: not scored
    where = {label: j for j, label in enumerate(entry.labels)}
    theirs: list[tuple[int, StoredProbe]] = []
    for p in stored:
        j = where.get(f"{p.level}/{p.seed}")
        if j is not None and j not in pair.other:
            theirs.append((j, p))
    ok = full_marks(candidate, [(p.answer, p.case_text) for _, p in theirs])
    for (j, _), agreed in zip(theirs, ok, strict=True):
        if agreed:
            pair.other[j] = "cross-scored by the candidate"
    return pair


# -- the check ---------------------------------------------------------------------------------


def _evidence(verdict: DedupVerdict, pair: PairAgreement) -> None:
    by = pair.by
    verdict.duplicate_of, verdict.by = pair.name, by
    verdict.candidate_probes, verdict.existing_probes = (len(pair.candidate_probes),
                                                         len(pair.other_probes))
    if by == "task_text":
        verdict.candidate_agreed, verdict.existing_agreed = (pair.template_candidate,
                                                             pair.template_other)
        return
    verdict.candidate_agreed, verdict.existing_agreed = len(pair.candidate), len(pair.other)
    verdict.agreed = [f"{pair.candidate_probes[i]}: {how}"
                      for i, how in sorted(pair.candidate.items())][:EVIDENCE_LINES]
    verdict.disagreed = (
        [pair.candidate_probes[i] for i in range(len(pair.candidate_probes))
         if i not in pair.candidate][:EVIDENCE_LINES]
        + [f"{pair.name} {pair.other_probes[j]}" for j in range(len(pair.other_probes))
           if j not in pair.other][:EVIDENCE_LINES])


def _decide(library: Library, index: DedupIndex, drawn: Drawn, candidate: CaseSampler,
            members: dict[str, BootcampRecord], backend: str | Backend,
            verdict: DedupVerdict) -> None:
    fp = drawn.fingerprint
    verdict.compared = len(members)
    found = index.duplicates(fp, members)
    verdict.found_by_hash = [p.name for p in found]
    if found:
        _evidence(verdict, found[0])
        return
    if fp.multi_turn or fp.schema_key is None:
        return
    peers = [n for n in index.schema_peers(fp, members) if not index.entries[n].multi_turn]
    best: PairAgreement | None = None
    for name in peers[:MAX_CROSS]:
        pair = _cross(library, index, drawn, candidate, name, members[name], backend, verdict)
        if pair is not None and pair.by == "behaviour" and (best is None or
                                                            pair.strength > best.strength):
            best = pair
    if best is not None:
        _evidence(verdict, best)


def commit_unless_duplicate(
    library: Library,
    code: str,
    commit: Callable[[], BootcampRecord],
    *,
    family: str,
    class_name: str = "",
    text_key: str | None = None,
    exclude: Collection[str] = (),
    backend: str | Backend = "auto",
) -> tuple[DedupVerdict, BootcampRecord | None]:
    """Check ``code`` against the live bootcamps of ``family`` (less ``exclude``: the record a
    commit replaces) and, unless it duplicates one, run ``commit()`` and add the new record to
    the index -- all under the index's lock. Returns the verdict and the record (None: a
    duplicate, nothing committed). ``commit()``'s errors propagate (nothing is indexed).

    Runs in one thread (the samplers it starts are closed in the thread that started them)."""
    t0 = time.perf_counter()
    verdict = DedupVerdict()

    def skipped(why: str) -> tuple[DedupVerdict, BootcampRecord | None]:
        verdict.skipped = why[:500]
        verdict.elapsed_s = round(time.perf_counter() - t0, 3)
        return verdict, commit()

    try:
        candidate = _sampler(code, backend, class_name, "the candidate").start()
    except (SampleError, SandboxUnavailableError) as exc:
        return skipped(f"the candidate's probes could not be drawn: "
                       f"{exc.message if isinstance(exc, SampleError) else exc}")
    with closing(candidate):
        try:
            drawn = draw(candidate, family=family, code_sha256=sha256_text(code),
                         text_key=text_key)
        except SampleError as exc:
            return skipped(f"the candidate's probes could not be drawn: {exc.message}")
        lock = _lock(library.root)
        try:
            lock.acquire()
        except Timeout:
            return skipped(f"another committer held the dedup lock for {LOCK_TIMEOUT_S:.0f} s")
        try:
            return _locked(library, drawn, candidate, commit, family, exclude, backend,
                           verdict, t0)
        finally:
            lock.release()


def _locked(library: Library, drawn: Drawn, candidate: CaseSampler,
            commit: Callable[[], BootcampRecord], family: str, exclude: Collection[str],
            backend: str | Backend, verdict: DedupVerdict,
            t0: float) -> tuple[DedupVerdict, BootcampRecord | None]:
    index = DedupIndex.load(library.root)
    records = library.read_manifest().bootcamps
    changed = False
    for name in set(index.entries) - {r.name for r in records}:  # records that are gone
        index.remove(name)
        _probes_path(library.root, name).unlink(missing_ok=True)
        changed = True
    members = {r.name: r for r in records if r.status in LIVE_FOR_DEDUP
               and r.name not in exclude and record_family(r) == family}
    record: BootcampRecord | None = None
    try:
        try:
            changed |= _refresh(library, index, list(members.values()), backend, verdict)
        except DedupUnavailableError as exc:
            verdict.skipped = f"the library's probes could not be drawn: {exc}"[:500]
        else:
            _decide(library, index, drawn, candidate, members, backend, verdict)
        if verdict.duplicate_of is None:
            record = commit()
            index.add(record.name, drawn.fingerprint.model_copy(
                update={"code_sha256": record.code_sha256}))
            _store_probes(library.root, record.name, drawn)
            changed = True
    finally:
        if changed:
            index.save(library.root)
        verdict.elapsed_s = round(time.perf_counter() - t0, 3)
    return verdict, record
