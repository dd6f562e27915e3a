"""Production's cases for the consistency check, drawn while the other checks run.

The consistency check (:func:`synth.gate.answers.check_consistency`) scores fresh cases drawn as
export draws them: a sampling process of its own, random 63-bit seeds, every level in turn. The
drawing is the check's longest part (up to 800 cases; for an engine-backed module, 40 cases of
engine self-play), and it depends on nothing the other checks find, so it starts in a thread of
its own once the generate check has passed (the generation times are measured before it) and the
consistency check takes what it drew. A suite that ends early stops it.

The process that draws the cases does what export's does and nothing else while it draws: one
instance per case, no reference answer (a module can count what its process was asked, and
generate otherwise once it has built many instances and never answered). The reference answers
are asked for once every case is drawn.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

__all__ = ["EXPORT_ATTEMPTS", "FEW_INSTANCES", "FRESH_MIN", "FRESH_MIN_S", "FRESH_S", "FreshDraw",
           "export_yield", "instance_space", "shared_fraction", "space_estimate"]

#: fresh production cases drawn however slow the drawing (within FRESH_MIN_S seconds): more
#: distinct cases than the gate's own 120, by a margin
FRESH_MIN = 256
FRESH_MIN_S = 10.0
#: the drawing's own budget: as many cases as it draws in this time, at least FRESH_MIN
FRESH_S = 2.0
#: distinct prompts export is expected to get (:func:`export_yield`) below this is a finding:
#: export's default is 250 rows per bootcamp (200 train, 50 test), and a bootcamp that cannot
#: fill it from the draws export allows itself is a fixed data set, not a generator. The figure
#: is export's own yield, not a space to leave a margin under (the rule before it, the largest
#: level's space, asked for 300 and passed bootcamps whose export came out short)
FEW_INSTANCES = 250
#: the draws export allows itself for its default 250 rows (synth.training.export: at most
#: max(3 * target, target + 100) per split: 600 for 200 train rows, 150 for 50 test rows), spread
#: evenly over the levels
EXPORT_ATTEMPTS = 750
#: draws needed (all levels together) before the instance space is judged at all
SPACE_MIN_DRAWS = 96


class FreshDraw:
    """Draws ``(case_text, reference answer)`` pairs in a background thread, as many as
    :data:`FRESH_S` allows but at least :data:`FRESH_MIN` (within :data:`FRESH_MIN_S`), never
    more than a production scoring worker's longest life (:func:`synth.sandbox.pool.scoring_life`:
    800 calls, 40 for an engine-backed module, whose workers cannot see more cases than that).
    The seeds come from a generator of its own (seeded from ``rng`` once, when it starts)."""

    def __init__(self, source: str, backend: Any, class_name: str, rng: random.Random) -> None:
        from synth.sandbox.pool import scoring_life

        self._source, self._backend, self._class_name = source, backend, class_name
        self._seeds = random.Random(rng.getrandbits(64))
        self._top = scoring_life(source)[1]
        self._stop = threading.Event()
        self.samples: list[tuple[str, str]] = []
        #: the level each sample was drawn at (parallel to ``samples``)
        self.sample_levels: list[str] = []
        #: why the drawing ended before its budget and size (a bootcamp's error), else ""
        self.ended = ""
        #: the drawing ended because the bootcamp raised (not a timeout): a finding
        self.raised = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._draw, name="synth-gate-fresh-draw",
                                        daemon=True)
        self._thread.start()

    def _draw(self) -> None:
        from synth.gate.calls import Failure, ask_many
        from synth.sandbox.base import Outcome
        from synth.serving.sampling import CaseSampler, SampleError

        top = self._top
        least = min(FRESH_MIN, top)
        # small first steps (a slow generator is heard stopping), doubling up to 64 (engine
        # self-play: up to 8)
        batch, largest = 2, (8 if top < FRESH_MIN else 64)
        deadline = time.perf_counter() + FRESH_S
        kw = {"backend": self._backend, "class_name": self._class_name, "recycle_after": 10**9}
        try:
            with CaseSampler(self._source, name="the candidate", **kw) as sampler:
                levels = sampler.levels or ["default"]
                cases: list[str] = []
                drawn_at: list[str] = []
                while not self._stop.is_set() and len(cases) < top and (
                        time.perf_counter() < deadline or (
                            len(cases) < least
                            and time.perf_counter() < deadline + FRESH_MIN_S - FRESH_S)):
                    specs = [(levels[(len(cases) + i) % len(levels)], self._seeds.getrandbits(63))
                             for i in range(min(batch, top - len(cases)))]
                    cases += [sample.case_text for sample in sampler.sample(specs)]
                    drawn_at += [level for level, _ in specs][: len(cases) - len(drawn_at)]
                    batch = min(largest, batch * 2)
                # every case drawn, then their answers (the same process: it cannot know, while
                # it draws, that it will be asked)
                for start in range(0, len(cases), 64):
                    if self._stop.is_set():
                        return
                    chunk = cases[start:start + 64]
                    at = drawn_at[start:start + 64]
                    replies, _ = ask_many(sampler.server, [("answer", {"case_text": c})
                                                           for c in chunk], 5.0)
                    for k, (case_text, (value, failure)) in enumerate(
                            zip(chunk, replies, strict=False)):
                        if failure is not None:
                            raise failure
                        if type(value) is not str:  # the checks of the answers name it
                            self.ended = f"reference_answer returned a {type(value).__name__}"
                            return
                        self.samples.append((case_text, value))
                        self.sample_levels.append(at[k])
                    if len(replies) < len(chunk):
                        break
        except SampleError as exc:  # the check says how its drawing ended
            self.ended = exc.message[:400]
            self.raised = exc.outcome in (Outcome.ERROR, Outcome.FAILED)
        except Failure as exc:
            self.ended = f"reference_answer {exc.what[:400]}"
            self.raised = exc.status not in ("timeout", "oom")
        except OSError as exc:
            self.ended = f"the sandbox failed: {exc}"
        except Exception as exc:  # the host's own fault: the consistency check raises it
            self._error = exc

    def take(self) -> list[tuple[str, str]]:
        """What was drawn (waits for the drawing to end; raises what the drawing raised other
        than a sampling error)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return list(self.samples)

    def stop(self) -> None:
        """End the drawing early (the suite ended before the consistency check)."""
        self._stop.set()
        self._thread.join(timeout=FRESH_MIN_S + 30)


def space_estimate(draws: int, distinct: int) -> float:
    """The size S of a uniform space in which ``draws`` independent draws are expected to show
    ``distinct`` different values (S (1 - (1 - 1/S)^draws) = distinct), or infinity when no draw
    repeated. A generator that favours some cases has a larger true space than this: the
    estimate errs small only where repeats are real."""
    if distinct >= draws:
        return float("inf")
    if distinct <= 1:
        return float(distinct)

    def seen(size: float) -> float:
        return size * (1.0 - (1.0 - 1.0 / size) ** draws)

    lo, hi = float(distinct), float(distinct)
    while seen(hi) < distinct:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if seen(mid) < distinct else (lo, mid)
    return hi


def export_yield(estimates: list[float], nested: bool, attempts: int = EXPORT_ATTEMPTS) -> float:
    """The distinct prompts expected from ``attempts`` draws spread evenly over levels whose
    instance spaces have these sizes (``inf``: no repeat seen), as export draws them.
    ``nested``: the levels share prompts (the fresh draws repeated a prompt across two
    levels), taken as nested sets, each level's inside the next larger one (an easy range inside
    the hard one): a prompt of the smallest set can come from every level. Else the levels'
    prompts are disjoint and their yields add up. An unbounded level yields one prompt a draw."""
    if not estimates:
        return 0.0
    per = attempts / len(estimates)
    finite = sorted(e for e in estimates if e != float("inf"))
    total = per * (len(estimates) - len(finite))
    if not nested:
        return total + sum(size * (1.0 - (1.0 - 1.0 / size) ** per) for size in finite if size >= 1)
    previous = 0.0
    for j, size in enumerate(finite):
        missed = 1.0
        for larger in finite[j:]:
            missed *= (1.0 - 1.0 / larger) ** per if larger >= 1 else 0.0
        total += (size - previous) * (1.0 - missed)
        previous = size
    return total


def shared_fraction(sets: list[set[str]], estimates: list[float], draws: list[int]) -> float:
    """How far the levels' prompts nest, from the fresh draws: the prompts each level shares
    with the larger levels' draws, over what they would share were each level's space inside
    the next larger one's (a prompt of the smaller level is then hit by a larger level's n
    draws with probability 1 - (1 - 1/S)^n). 1: nested, 0: disjoint (clipped to [0, 1])."""
    order = sorted(range(len(sets)), key=lambda k: estimates[k])
    seen = expected = 0.0
    for pos, k in enumerate(order):
        larger = order[pos + 1:]
        if not larger:
            continue
        others = set().union(*(sets[m] for m in larger))
        seen += len(sets[k] & others)
        missed = 1.0
        for m in larger:
            if estimates[m] != float("inf") and estimates[m] >= 1:
                missed *= (1.0 - 1.0 / estimates[m]) ** draws[m]
        expected += len(sets[k]) * (1.0 - missed)
    if expected <= 0:
        return 1.0 if seen else 0.0
    return max(0.0, min(1.0, seen / expected))


def instance_space(samples: list[tuple[str, str]], levels: list[str]) -> dict[str, Any]:
    """What the fresh draws say of the instance space: per level, draws, distinct prompts and
    the estimated space; ``shared``, how far the levels nest (:func:`shared_fraction`);
    ``total``, the distinct prompts export is expected to get for its default 250 rows over
    :data:`EXPORT_ATTEMPTS` draws (:func:`export_yield`, between the disjoint and the nested
    yield by ``shared``)."""
    per: dict[str, list[str]] = {}
    for (case_text, _), level in zip(samples, levels, strict=False):
        per.setdefault(level, []).append(case_text)
    out: dict[str, Any] = {"draws": sum(len(v) for v in per.values()), "levels": {}}
    estimates = []
    for level, cases in per.items():
        est = space_estimate(len(cases), len(set(cases)))
        estimates.append(est)
        out["levels"][level] = {"draws": len(cases), "distinct": len(set(cases)),
                                "estimate": "unbounded" if est == float("inf") else round(est)}
    shared = shared_fraction([set(v) for v in per.values()], estimates,
                             [len(v) for v in per.values()])
    out["shared"] = round(shared, 2)
    out["total"] = (shared * export_yield(estimates, True)
                    + (1.0 - shared) * export_yield(estimates, False))
    return out
