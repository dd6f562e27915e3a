"""Production audits itself: an export's spot-check of its own rows (issue 22).

The gate judges a bootcamp on the gate's cases; a bootcamp that can tell the gate's cases from
production's (a flag hidden in the identities it generates for export's seeds, say) passes it
and scores wrong answers 1.0 in training. So :func:`spot_check` takes a random sample of the
rows an export made, on the rows' own identities, and asks a FRESH worker (a new sandboxed
process, young as every production worker is) what the gate asked:

* the row is reproduced: the same (level, seed) gives the same identity;
* the reference answer, in the answer tags, scores 1.0;
* corrupted references (each of the gate's hard mutation kinds: a digit changed, a token
  dropped or repeated, junk appended, the answer cut or emptied; none within a stated 0.1 %
  tolerance: :func:`synth.gate.probes.hard_mutants`) score less than 1.0.

References and mutants are sent in one shuffled stream, shaped as every other scoring request.
A kind of corruption fails as in the gate's mutation check (tried at least 3 times, accepted
more often than not: one accepted corruption may be another right answer); a reference that
does not score 1.0 or a row that is not reproduced fails at once. A failed
spot-check is a list of findings with their evidence; the export quarantines the bootcamp
(:meth:`synth.library.Library.set_status`) and leaves its rows out.

Cost: one fresh sandboxed process per bootcamp, the picked rows drawn again with their
reference answers by the export's own servers, and a few calls per checked row;
:data:`SPOT_RATE` of the rows (at least :data:`SPOT_MIN`, at most :data:`SPOT_MAX`) per
bootcamp (``bench/spotcheck.py``).
"""

from __future__ import annotations

import json
import math
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from synth.bootcamp import BaseBootcamp
from synth.gate.probes import hard_mutants, mostly_accepted
from synth.sandbox.base import Backend, Outcome
from synth.serving.sampling import DEFAULT_LEVEL, CaseSampler, SampleError

__all__ = ["SPOT_MAX", "SPOT_MIN", "SPOT_RATE", "PlannedSpotCheck", "SpotCheck", "sample_size",
           "spot_check"]

#: the share of a bootcamp's rows audited (at least SPOT_MIN, at most SPOT_MAX). A bootcamp
#: lenient on export's rows is lenient on each of them, and each audited row still meets every
#: hard mutation kind. 1 % since 2026-12-07: at 2 % the spot-check cost 5.5-7.6 % of the export's
#: time on the shipped library (13 bootcamps, 1,200 rows each; bench/spotcheck.py), most of it
#: per row (the export's servers draw each picked row again with its reference answer); the
#: fresh worker's start (about 75 ms of CPU per bootcamp) does not change with the rate
SPOT_RATE = 0.01
SPOT_MIN = 6
SPOT_MAX = 48


@dataclass
class SpotCheck:
    """What a spot-check of one bootcamp's rows found (``findings`` empty: it holds)."""

    bootcamp: str
    checked: int = 0
    scored: int = 0
    findings: list[str] = field(default_factory=list)
    skipped: str = ""
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def reason(self) -> str:
        return (f"spot-check of {self.checked} exported row(s) of {self.bootcamp!r} in a fresh "
                f"worker failed: " + "; ".join(self.findings[:3]))


def _where(split: Any, index: Any, level: Any) -> str:
    return f"row {split}[{index}] (level {level})"


#: one row to audit: (split, index, level, seed)
Pick = tuple[str, int, str, int]


def sample_size(rows: int) -> int:
    """How many of a bootcamp's ``rows`` rows are spot-checked."""
    return min(rows, max(SPOT_MIN, min(SPOT_MAX, math.ceil(SPOT_RATE * rows))))


@dataclass
class _Audit:
    """The rows drawn again in a fresh sampler and scored in a fresh worker; compared with the
    export's rows afterwards (:meth:`compare`)."""

    out: SpotCheck
    picks: list[Pick] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)  # each pick's case, as the fresh sampler drew it

    def compare(self, rows: dict[tuple[str, int], str]) -> SpotCheck:
        """Add a finding for each pick whose exported row (``(split, index) -> ground_truth``;
        a row the export dropped as a duplicate is absent) differs from the fresh draw."""
        for (split, index, level, _), case_text in zip(self.picks, self.drawn, strict=True):
            exported = rows.get((split, index))
            if exported is not None and exported != case_text:
                self.out.findings.append(
                    f"{_where(split, index, level)}: a fresh worker drew another case for its "
                    f"level and seed ({case_text[:120]!r} instead of {exported[:120]!r})")
        return self.out


def _audit(name: str, code: str, class_name: str, backend: str | Backend, rng: random.Random,
           choose: Callable[[list[str]], list[Pick]], call_limit_s: float | None = None) -> _Audit:
    """Draw the rows ``choose(levels)`` picks in a fresh sampler (with their reference
    answers) and score each reference and its hard mutants in a fresh scoring worker."""
    t0 = time.perf_counter()
    audit = _Audit(SpotCheck(bootcamp=name))
    out = audit.out
    try:
        with CaseSampler(code, backend=backend, class_name=class_name, name=name,
                         recycle_after=10**9,
                         call_limit_s=10.0 if call_limit_s is None else call_limit_s) as sampler:
            audit.picks = choose(sampler.levels or [DEFAULT_LEVEL])
            samples = sampler.sample([(lv, seed) for _, _, lv, seed in audit.picks], answers=True)
    except SampleError as exc:
        out.checked = len(audit.picks)
        out.findings.append(f"a fresh worker could not redraw the rows: {exc.message}")
        out.elapsed_s = time.perf_counter() - t0
        audit.picks = []
        return audit
    audit.drawn = [sm.case_text for sm in samples]
    _score(out, code, class_name, backend, rng, audit.picks,
           [(sm.case_text, sm.answer or "", sm.max_turns is not None) for sm in samples])
    out.elapsed_s = time.perf_counter() - t0
    return audit


def _score(out: SpotCheck, code: str, class_name: str, backend: str | Backend,
           rng: random.Random, picks: Sequence[Pick],
           drawn: Sequence[tuple[str, str, bool]]) -> None:
    """Score each pick's reference answer and its hard mutants (``drawn``: (case, reference,
    multi-turn) per pick) in a fresh scoring worker; findings into ``out``."""
    from synth.sandbox.pool import WorkerPool

    out.checked = len(drawn)
    if any(multi for _, _, multi in drawn):
        out.skipped = "multi-turn rows (episodes are audited by the reward's canaries)"
        return
    items: list[tuple[str, dict[str, Any]]] = []
    meta: list[tuple[int, str, str]] = []  # (pick, kind, answer)
    for i, (case_text, ref, _) in enumerate(drawn):
        identity = json.loads(case_text)
        items.append((BaseBootcamp.wrap_answer(ref), identity))
        meta.append((i, "reference", ref))
        for kind, bad in hard_mutants(ref, rng):
            items.append((BaseBootcamp.wrap_answer(bad), identity))
            meta.append((i, kind, bad))
    if not items:
        return
    order = list(range(len(items)))
    rng.shuffle(order)  # references and mutants interleaved, as any scoring stream
    with WorkerPool(code, size=1, backend=backend, class_name=class_name,
                    label="synth-spot-check", recycle_after=10**9) as pool:
        got = pool.verify_many([items[j] for j in order])
    scores: dict[int, Any] = {}
    for j, res in zip(order, got, strict=True):
        scores[j] = res.score if res.outcome is Outcome.PASSED else res
    out.scored = len(items)
    tried: dict[str, int] = {}
    survived: dict[str, list[str]] = {}
    for j, (i, kind, answer) in enumerate(meta):
        split, index, level, _ = picks[i]
        where = _where(split, index, level)
        score = scores[j]
        if not isinstance(score, float):
            out.findings.append(f"{where}: scoring {kind} {answer[:80]!r} failed: "
                                f"{score.outcome.value} {score.error[:200]}")
        elif kind == "reference" and score < 1.0:
            out.findings.append(f"{where}: the reference answer {answer[:80]!r} "
                                f"scores {score:g}, not 1.0")
        elif kind != "reference":
            tried[kind] = tried.get(kind, 0) + 1
            if score >= 1.0:
                survived.setdefault(kind, []).append(f"{where}: {answer[:60]!r}")
    # the gate's rule (synth.gate.answers.check_mutation): a kind of corruption tried at least
    # 3 times and accepted more often than not
    weak = [k for k, n in tried.items() if mostly_accepted(n, len(survived.get(k, [])))]
    if weak:
        table = ", ".join(f"{k} {len(survived.get(k, []))}/{tried[k]}" for k in weak)
        shown = "; ".join(x for k in weak for x in survived[k][:2])
        out.findings.append(f"corrupted answers score 1.0 on the exported rows (accepted/tried: "
                            f"{table}), e.g. {shown}")


def spot_check(name: str, code: str, class_name: str, rows: Sequence[dict[str, Any]],
               backend: str | Backend, rng: random.Random | None = None,
               k: int | None = None) -> SpotCheck:
    """Spot-check ``rows`` (one bootcamp's exported rows; ``k`` of them, by default
    :func:`sample_size`) in fresh sandboxed workers."""
    rng = rng or random.Random(secrets.randbits(64))
    single = [r for r in rows if not (r.get("extra_info") or {}).get("multi_turn")]
    if not single:
        out = SpotCheck(bootcamp=name)
        out.skipped = "multi-turn rows (episodes are audited by the reward's canaries)" \
            if rows else "no rows"
        return out
    picked = rng.sample(list(single), min(len(single), k or sample_size(len(single))))
    picks: list[Pick] = []
    for r in picked:
        info = r["extra_info"]
        picks.append((str(info.get("split")), int(info.get("index", -1)), str(info["level"]),
                      int(info["seed"])))
    audit = _audit(name, code, class_name, backend, rng, lambda _levels: picks)
    t0 = time.perf_counter()
    found = audit.compare({(p[0], p[1]): r["reward_model"]["ground_truth"]
                           for p, r in zip(picks, picked, strict=True)})
    found.elapsed_s += time.perf_counter() - t0
    return found


class PlannedSpotCheck:
    """An export's spot-check, planned before its rows exist: the rows to audit are picked
    at random among the indices the export will write (``targets``: rows per split; a row's
    level and seed follow from its index). The export's sampler, having drawn a picked row,
    is asked its reference answer (:meth:`offer`; the same (level, seed) must give the same
    case again); once every pick is in, a background thread (:func:`run_in_background`)
    scores the references and their hard mutants in a fresh scoring worker while the export
    goes on, and :meth:`result` compares the picks with the exported rows. What is audited is
    what :func:`spot_check` audits -- the verifier, in a fresh worker, on the rows' own
    identities -- for one extra sandboxed process per bootcamp, mostly overlapped."""

    def __init__(self, name: str, code: str, class_name: str, backend: str | Backend,
                 targets: dict[str, int], rng: random.Random | None = None) -> None:
        self.name, self.code, self.class_name, self.backend = name, code, class_name, backend
        self.rng = rng or random.Random(secrets.randbits(64))
        keys = [(split, i) for split, n in targets.items() for i in range(n)]
        self.chosen = set(self.rng.sample(keys, sample_size(len(keys))) if keys else [])
        self.out = SpotCheck(bootcamp=name)
        #: (split, index) -> (level, seed, case, reference, multi-turn), as the export drew it
        self.offered: dict[tuple[str, int], tuple[str, int, str, str, bool]] = {}
        self._in: set[tuple[str, int]] = set()  # picks offered or failed
        self.cancelled = threading.Event()  # the export failed: nothing more is scored
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._done = threading.Event()
        self._error: BaseException | None = None
        self.elapsed_s = 0.0
        if not self.chosen:
            self._ready.set()

    def wanted(self, split: str, indices: range) -> list[int]:
        """The picked indices among ``indices`` of ``split``."""
        return [i for i in indices if (split, i) in self.chosen]

    def offer(self, split: str, index: int, level: str, seed: int, case_text: str,
              again: str, answer: str, multi_turn: bool) -> None:
        """A picked row as the export drew it (``case_text``), drawn ``again`` with its
        reference ``answer``."""
        if again != case_text:
            with self._lock:
                self.out.findings.append(
                    f"{_where(split, index, level)}: drawn again for its reference answer, "
                    f"its level and seed gave another case ({again[:120]!r} instead of "
                    f"{case_text[:120]!r})")
        with self._lock:
            self.offered[(split, index)] = (level, seed, case_text, answer, multi_turn)
            self._arrived(split, index)

    def fail(self, split: str, index: int, level: str, why: str) -> None:
        """A picked row the export's sampler could not draw again: a finding."""
        with self._lock:
            self.out.findings.append(f"{_where(split, index, level)}: drawn again for its "
                                     f"reference answer, it failed: {why[:300]}")
            self._arrived(split, index)

    def _arrived(self, split: str, index: int) -> None:
        self._in.add((split, index))
        if len(self._in) >= len(self.chosen):
            self._ready.set()

    def run(self) -> None:
        """Wait for every pick, then score them (in the calling thread)."""
        try:
            while not self._ready.wait(0.05):
                if self.cancelled.is_set():
                    return
            if self.chosen and not self.cancelled.is_set():
                t0 = time.perf_counter()
                keys = sorted(self.offered)
                picks = [(k[0], k[1], self.offered[k][0], self.offered[k][1]) for k in keys]
                drawn = [(self.offered[k][2], self.offered[k][3], self.offered[k][4])
                         for k in keys]
                _score(self.out, self.code, self.class_name, self.backend, self.rng, picks,
                       drawn)
                self.elapsed_s = time.perf_counter() - t0
        except BaseException as exc:  # handed to result()
            self._error = exc
        finally:
            self._done.set()

    def result(self, rows: Sequence[dict[str, Any]]) -> SpotCheck:
        """Wait for the audit and compare it with the bootcamp's exported ``rows``."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        out = self.out
        out.elapsed_s = self.elapsed_s
        if not self.chosen or not rows:
            out.skipped = out.skipped or "no rows"
            return out
        exported = {(r["extra_info"]["split"], int(r["extra_info"]["index"])):
                    r["reward_model"]["ground_truth"] for r in rows}
        for (split, index), (level, _, case_text, _, _) in sorted(self.offered.items()):
            got = exported.get((split, index))
            if got is not None and got != case_text:
                out.findings.append(f"{_where(split, index, level)}: the exported row is not "
                                    "the case drawn for it")
        return out


def run_in_background(checks: Sequence[PlannedSpotCheck]) -> threading.Thread:
    """Score ``checks`` in a daemon thread, each as soon as its picks are in (one scoring
    worker at a time beside the export's own servers); each one's
    :meth:`~PlannedSpotCheck.result` waits for it."""
    def run_all() -> None:
        left = list(checks)
        while left:
            ready = next((c for c in left if c._ready.is_set() or c.cancelled.is_set()), None)
            if ready is None:
                time.sleep(0.02)
                continue
            left.remove(ready)
            ready.run()

    thread = threading.Thread(target=run_all, name="spot-checks", daemon=True)
    thread.start()
    return thread
