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

Cost: two sandboxed processes and a few calls per checked row; :data:`SPOT_RATE` of the rows
(at least :data:`SPOT_MIN`, at most :data:`SPOT_MAX`) per bootcamp (``bench/spotcheck.py``).
"""

from __future__ import annotations

import json
import math
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from synth.bootcamp import BaseBootcamp
from synth.gate.probes import hard_mutants, mostly_accepted
from synth.sampling import CaseSampler, SampleError
from synth.sandbox.base import Backend, Outcome

__all__ = ["SPOT_MAX", "SPOT_MIN", "SPOT_RATE", "SpotCheck", "spot_check"]

SPOT_RATE = 0.02
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


def _where(row: dict[str, Any]) -> str:
    info = row.get("extra_info") or {}
    return f"row {info.get('split')}[{info.get('index')}] (level {info.get('level')})"


def spot_check(name: str, code: str, class_name: str, rows: Sequence[dict[str, Any]],
               backend: str | Backend, rng: random.Random | None = None) -> SpotCheck:
    """Spot-check ``rows`` (one bootcamp's exported rows) in fresh sandboxed workers."""
    from synth.sandbox.pool import WorkerPool

    t0 = time.perf_counter()
    out = SpotCheck(bootcamp=name)
    rng = rng or random.Random(secrets.randbits(64))
    single = [r for r in rows if not (r.get("extra_info") or {}).get("multi_turn")]
    if not single:
        out.skipped = "multi-turn rows (episodes are audited by the reward's canaries)" \
            if rows else "no rows"
        return out
    k = min(len(single), max(SPOT_MIN, min(SPOT_MAX, math.ceil(SPOT_RATE * len(single)))))
    picked = rng.sample(list(single), k)
    specs = [(r["extra_info"]["level"], int(r["extra_info"]["seed"])) for r in picked]
    try:
        with CaseSampler(code, backend=backend, class_name=class_name, name=name,
                         recycle_after=10**9) as sampler:
            samples = sampler.sample(specs, answers=True)
    except SampleError as exc:
        out.checked = k
        out.findings.append(f"a fresh worker could not redraw the rows: {exc.message}")
        out.elapsed_s = time.perf_counter() - t0
        return out
    items: list[tuple[str, dict[str, Any]]] = []
    meta: list[tuple[int, str, str]] = []  # (row position, kind, answer)
    for i, (row, sample) in enumerate(zip(picked, samples, strict=True)):
        if sample.case_text != row["reward_model"]["ground_truth"]:
            out.findings.append(f"{_where(row)}: a fresh worker drew another case for its level "
                                f"and seed ({sample.case_text[:120]!r} instead of "
                                f"{row['reward_model']['ground_truth'][:120]!r})")
            continue
        ref = sample.answer or ""
        identity = json.loads(sample.case_text)
        items.append((BaseBootcamp.wrap_answer(ref), identity))
        meta.append((i, "reference", ref))
        for kind, bad in hard_mutants(ref, rng):
            items.append((BaseBootcamp.wrap_answer(bad), identity))
            meta.append((i, kind, bad))
    order = list(range(len(items)))
    rng.shuffle(order)  # references and mutants interleaved, as any scoring stream
    with WorkerPool(code, size=1, backend=backend, class_name=class_name,
                    label="synth-spot-check", recycle_after=10**9) as pool:
        got = pool.verify_many([items[j] for j in order])
    scores: dict[int, Any] = {}
    for j, res in zip(order, got, strict=True):
        scores[j] = res.score if res.outcome is Outcome.PASSED else res
    out.checked, out.scored = k, len(items)
    tried: dict[str, int] = {}
    survived: dict[str, list[str]] = {}
    for j, (i, kind, answer) in enumerate(meta):
        score = scores[j]
        if not isinstance(score, float):
            out.findings.append(f"{_where(picked[i])}: scoring {kind} {answer[:80]!r} failed: "
                                f"{score.outcome.value} {score.error[:200]}")
        elif kind == "reference" and score < 1.0:
            out.findings.append(f"{_where(picked[i])}: the reference answer {answer[:80]!r} "
                                f"scores {score:g}, not 1.0")
        elif kind != "reference":
            tried[kind] = tried.get(kind, 0) + 1
            if score >= 1.0:
                survived.setdefault(kind, []).append(f"{_where(picked[i])}: {answer[:60]!r}")
    # the gate's rule (synth.gate.answers.check_mutation): a kind of corruption tried at least
    # 3 times and accepted more often than not
    weak = [k for k, n in tried.items() if mostly_accepted(n, len(survived.get(k, [])))]
    if weak:
        table = ", ".join(f"{k} {len(survived.get(k, []))}/{tried[k]}" for k in weak)
        shown = "; ".join(x for k in weak for x in survived[k][:2])
        out.findings.append(f"corrupted answers score 1.0 on the exported rows (accepted/tried: "
                            f"{table}), e.g. {shown}")
    out.elapsed_s = time.perf_counter() - t0
    return out
