"""The reward's canaries: production audits itself while it scores (issue 22).

A *sleeper* bootcamp behaves under the gate and lies in production (after N calls of a worker,
on many distinct cases, on responses worded as a model words them). The gate cannot see what
only production's traffic triggers, so the reward watches its own stream: at random points (a
random gap after each canary, :data:`CANARY_RATE` canaries per real call on average) it takes
the row it is scoring and sends the SAME scoring workers, by the same call as real traffic,

* the row's reference answer, shaped as a model writes a response
  (:func:`synth.gate.answers.production_shape`: long reasoning, prose, an earlier answer
  block; the contract's extraction reads the same answer) -- it must score 1.0;
* a hard mutant of it (:func:`synth.gate.probes.hard_mutants`, the kinds in turn; one in four
  also worded inside its tags, :func:`synth.gate.answers.worded_answer`) -- a kind tried 3
  times and accepted more often than not fails (:func:`synth.gate.probes.mostly_accepted`,
  the gate's mutation rule: one accepted mutant may be another right answer).

For a multi-turn bootcamp a canary is an episode: the transcript of the reference policy's
episode (:func:`synth.serving.rollout.reference_episode`) replayed through the reward's own
environments must earn what the reference earned, and the same transcript with its last action
replaced by a hard mutant must earn less.

The reference is computed OUTSIDE the scoring workers, in a sandboxed process of its own (a
method server asked ``reference_answer``, or an episode environment that runs the policy): a
scoring worker is only ever asked to score, real traffic and canaries alike. A failed canary
is a :class:`Quarantine` with its evidence, handed to the owner (the reward marks the library
record and scores the bootcamp's later rows 0.0 as findings). Canary work runs in one
background thread per :class:`Auditor`; the caller's hot path only counts down and, at a
canary, queues the row (a full queue drops it). Measured cost: ``bench/canaries.py``.
"""

from __future__ import annotations

import json
import logging
import math
import queue
import random
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from synth.bootcamp import BaseBootcamp
from synth.gate.probes import hard_mutants, mostly_accepted
from synth.sandbox.base import Backend, Outcome, SandboxUnavailableError

__all__ = ["CANARY_RATE", "AnswerProbe", "Auditor", "Canary", "EpisodeProbe", "OracleError",
           "Probe", "Quarantine", "Scored"]

log = logging.getLogger("synth.training.reward")

#: canaries per real call, on average (each is two scoring calls and one call of the oracle's
#: process): about 2 % more scoring work (``bench/canaries.py``)
CANARY_RATE = 0.01
#: one mutant in this many is also worded inside its tags (tallied as the kind ``worded``)
WORDED_EVERY = 4
#: canaries waiting for the background thread; more are dropped (the cost stays bounded)
QUEUE_MAX = 64
#: the failure outcomes that say nothing about the bootcamp's honesty (the machine, a load peak)
TRANSIENT = (Outcome.TIMEOUT, Outcome.OOM, Outcome.SANDBOX_ERROR)
_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Canary:
    """One response sent as a canary: ``kind`` is ``reference``, a hard mutation kind or
    ``worded``; ``expected`` is what the reference earns (1.0 for a single answer)."""

    kind: str
    response: str
    answer: str
    expected: float


@dataclass(frozen=True, slots=True)
class Scored:
    """What the scoring workers said of a canary: a score, or a failure (``outcome``)."""

    score: float | None
    outcome: Outcome = Outcome.PASSED
    error: str = ""

    def shown(self) -> str:
        return f"{self.score:g}" if self.score is not None else \
            f"{self.outcome.value}: {self.error[:200]}"


class OracleError(Exception):
    """The reference could not be computed for a row. ``transient``: the machine's fault (a
    timeout, no sandbox), not counted against the bootcamp."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


@dataclass
class Quarantine:
    """A failed canary and its evidence: the case, the response's tail, expected vs got."""

    bootcamp: str
    finding: str
    case: str
    response: str = ""
    expected: str = ""
    got: str = ""
    #: what became of the library record (filled in by the owner)
    record: str = ""
    #: the bootcamp's rows refused since (counted by the owner)
    refused: int = 0

    @property
    def reason(self) -> str:
        """One line, for the library record."""
        return (f"quarantined by the reward's canaries: {self.finding}; case {self.case[:300]}; "
                f"expected {self.expected}, got {self.got}")

    def message(self) -> str:
        """What the trainer's log says, once."""
        return (f"bootcamp {self.bootcamp} QUARANTINED by the reward's canaries: {self.finding}\n"
                f"  case: {self.case[:400]}\n"
                f"  response tail: {self.response[-300:]!r}\n"
                f"  expected {self.expected}, got {self.got}\n"
                f"  from now on its rows score 0.0 and count as findings; {self.record}")


class Probe(Protocol):
    """One bootcamp's two sides, as canaries need them: an oracle outside the scoring workers
    (:meth:`draw`: the row's canaries) and the scoring workers themselves (:meth:`send`)."""

    def draw(self, identity: dict[str, Any], rng: random.Random, tally: Tally) -> list[Canary]: ...

    def send(self, canary: Canary, identity: dict[str, Any]) -> Scored: ...

    def close(self) -> None: ...


@dataclass
class Tally:
    """One bootcamp's canaries so far: per mutant kind [tried, accepted]; the oracle's
    [asked, failed]; recent reference answers (another block's answer in a shaped response)."""

    kinds: dict[str, list[int]] = field(default_factory=dict)
    oracle: list[int] = field(default_factory=lambda: [0, 0])
    answers: deque[str] = field(default_factory=lambda: deque(maxlen=16))
    sent: int = 0

    def pick(self, mutants: list[tuple[str, str]], rng: random.Random) -> tuple[str, str] | None:
        """The mutant of the kind tried least so far (ties at random)."""
        if not mutants:
            return None
        least = min(self.kinds.get(k, [0, 0])[0] for k, _ in mutants)
        return rng.choice([m for m in mutants if self.kinds.get(m[0], [0, 0])[0] == least])


def _case(identity: dict[str, Any]) -> str:
    return json.dumps(identity, sort_keys=True, ensure_ascii=False)[:400]


def _shaped(answer: str, rng: random.Random, other: str) -> str:
    """``answer`` in its tags, shaped as a model writes a response (its extraction unchanged)."""
    from synth.gate.answers import production_shape

    plain = BaseBootcamp.wrap_answer(answer)
    shaped = production_shape(plain, rng, other)
    return shaped if BaseBootcamp.extract_output(shaped) == BaseBootcamp.extract_output(plain) \
        else plain


class AnswerProbe:
    """A single-turn bootcamp: the reference answer from a method server of its own (started
    on first use), the canaries scored by ``verify`` -- the reward's own pool call."""

    def __init__(self, code: str, *, name: str, class_name: str, backend: str | Backend,
                 call_timeout_s: float, verify: Callable[[str, dict[str, Any]], Scored]) -> None:
        self.code, self.name, self.class_name, self.backend = code, name, class_name, backend
        self.call_timeout_s = call_timeout_s
        self.verify = verify
        self.server: Any = None
        self.closed = False

    def reference(self, identity: dict[str, Any]) -> str:
        from synth.sandbox.methods import MethodServer, server_limits
        from synth.serving.sampling import MAX_TEXT_CHARS

        if self.closed:
            raise OracleError("the reward is closing", transient=True)
        if self.server is None:
            self.server = MethodServer(self.code, backend=self.backend, limits=server_limits(),
                                       class_name=self.class_name, label="synth-canary-oracle")
        reply = self.server.call("answer", {"case": identity}, timeout_s=self.call_timeout_s)
        if not reply.ok:
            self.stop()  # a fresh server next time
            raise OracleError(f"reference_answer failed ({reply.outcome.value}): "
                              f"{reply.error[:300]}", transient=reply.outcome in TRANSIENT)
        if type(reply.value) is not str or len(reply.value) > MAX_TEXT_CHARS:
            raise OracleError(f"reference_answer returned {str(reply.value)[:100]}, not a str")
        return reply.value

    def draw(self, identity: dict[str, Any], rng: random.Random, tally: Tally) -> list[Canary]:
        from synth.gate.answers import worded_answer

        ref = self.reference(identity)
        picked = tally.pick(hard_mutants(ref, rng), rng)
        other = rng.choice(tally.answers) if tally.answers else (picked[1] if picked else "0")
        tally.answers.append(ref)
        out = [Canary("reference", _shaped(ref, rng, other), ref, 1.0)]
        if picked is not None:
            kind, bad = picked
            if rng.randrange(WORDED_EVERY) == 0:
                kind, bad = "worded", worded_answer(bad, rng)
            out.append(Canary(kind, _shaped(bad, rng, other), bad, 1.0))
        return out

    def send(self, canary: Canary, identity: dict[str, Any]) -> Scored:
        return self.verify(canary.response, identity)

    def close(self) -> None:
        self.closed = True
        self.stop()

    def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None


class EpisodeProbe:
    """A multi-turn bootcamp: the reference policy's episode played in an environment of its
    own (started on first use), its transcript replayed by ``replay`` -- the reward's own
    environments -- as a trainer's decoded conversation."""

    def __init__(self, code: str, *, name: str, class_name: str, backend: str | Backend,
                 step_limit_s: float, replay: Callable[[dict[str, Any], str], float]) -> None:
        self.code, self.name, self.class_name, self.backend = code, name, class_name, backend
        self.step_limit_s = step_limit_s
        self.replay = replay
        self.env: Any = None
        self.closed = False

    def draw(self, identity: dict[str, Any], rng: random.Random, tally: Tally) -> list[Canary]:
        from synth.serving.rollout import EpisodeEnv, RolloutError, reference_episode

        if self.closed:
            raise OracleError("the reward is closing", transient=True)
        if self.env is None:
            self.env = EpisodeEnv(self.code, name=self.name, class_name=self.class_name,
                                  backend=self.backend, step_limit_s=self.step_limit_s)
        try:
            episode = reference_episode(self.env, identity)
        except (RolloutError, SandboxUnavailableError) as exc:
            self.stop()
            raise OracleError(f"the reference episode failed: {exc}"[:400],
                              transient=_transient(exc)) from None
        if not episode.turns:
            return []
        turns = episode.turns
        parts = [p for i, t in enumerate(turns) for p in ((t.observation,) if i else ()) +
                 (t.response,)]
        out = [Canary("reference", "\n\n".join(parts), turns[-1].action, episode.score)]
        picked = tally.pick(hard_mutants(turns[-1].action, rng), rng) \
            if episode.score > 0 else None
        if picked is not None:
            kind, bad = picked
            out.append(Canary(kind, "\n\n".join([*parts[:-1], BaseBootcamp.wrap_answer(bad)]),
                              bad, episode.score))
        return out

    def send(self, canary: Canary, identity: dict[str, Any]) -> Scored:
        from synth.serving.rollout import RolloutError

        try:
            return Scored(self.replay(identity, canary.response))
        except (RolloutError, SandboxUnavailableError) as exc:
            outcome = Outcome.TIMEOUT if _transient(exc) else Outcome.ERROR
            return Scored(None, outcome, str(exc)[:400])

    def close(self) -> None:
        self.closed = True
        self.stop()

    def stop(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, SandboxUnavailableError) or "(timeout)" in str(exc) \
        or "(oom)" in str(exc)


def judge(name: str, identity: dict[str, Any], sent: list[tuple[Canary, Scored]],
          tally: Tally) -> Quarantine | None:
    """Tally one row's canaries; the quarantine they call for, if any (the rule is the
    module docstring's)."""
    case = _case(identity)
    ref = next(((c, s) for c, s in sent if c.kind == "reference"), None)
    if ref is None:
        return None
    canary, got = ref
    if got.score is None and got.outcome in TRANSIENT:
        return None  # nothing learnt: the machine was slow, not the bootcamp dishonest
    if got.score is None or abs(got.score - canary.expected) > _EPS:
        what = "the row's reference answer" if canary.expected == 1.0 else \
            "the reference policy's episode, replayed,"
        return Quarantine(name, f"{what} scored {got.shown()}, not {canary.expected:g}", case,
                          canary.response, f"{canary.expected:g}", got.shown())
    for c, s in sent:
        if c.kind == "reference" or s.score is None:
            continue
        seen = tally.kinds.setdefault(c.kind, [0, 0])
        seen[0] += 1
        if s.score >= c.expected - _EPS:
            seen[1] += 1
            if mostly_accepted(*seen):
                return Quarantine(
                    name, f"corrupted answers of kind {c.kind} scored as well as the reference "
                    f"({seen[1]} of {seen[0]} canaries; the gate's mutation rule)", case,
                    c.response, f"below {c.expected:g} (the corrupted answer {c.answer[:80]!r})",
                    s.shown())
    return None


class _Watch:
    """One bootcamp under watch: its probe (made on the first canary), countdown and tally."""

    def __init__(self, key: str, name: str, make_probe: Callable[[], Probe], gap: int) -> None:
        self.key, self.name = key, name
        self.make_probe = make_probe
        self.probe: Probe | None = None
        self.countdown = gap
        self.tally = Tally()
        self.quarantine: Quarantine | None = None
        self.lock = threading.Lock()


class Auditor:
    """Canaries for every bootcamp a reward scores: :meth:`offer` on each real call (cheap),
    the canaries sent and judged in one background thread, a failure handed to
    ``on_quarantine`` once per bootcamp. ``rate`` 0 disables it."""

    def __init__(self, rate: float, on_quarantine: Callable[[str, Quarantine], None],
                 rng: random.Random | None = None) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"canary_rate must be in [0, 1], got {rate}")
        self.rate = rate
        self.on_quarantine = on_quarantine
        self.rng = rng or random.Random(secrets.randbits(64))
        self.sent = 0  # canary rows judged
        self.dropped = 0  # canary rows dropped: the queue was full
        self._watches: dict[str, _Watch] = {}
        self._jobs: queue.Queue[tuple[_Watch, dict[str, Any]] | None] = queue.Queue(QUEUE_MAX)
        self._idle = threading.Condition()
        self._pending = 0
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _gap(self) -> int:
        """Real calls until the next canary: geometric, mean ``1 / rate``."""
        if self.rate >= 1.0:
            return 1
        u = 1.0 - self.rng.random()  # in (0, 1]
        return 1 + int(math.log(u) / math.log1p(-self.rate))

    def watch(self, key: str, name: str, make_probe: Callable[[], Probe]) -> None:
        """Audit the bootcamp ``name``, whose rows are offered under ``key``."""
        if self.rate > 0 and key not in self._watches:
            with self._lock:
                self._watches.setdefault(key, _Watch(key, name, make_probe, self._gap()))

    def offer(self, key: str, identity: dict[str, Any]) -> None:
        """A real call on ``identity`` was scored: maybe a canary of it (the hot path)."""
        w = self._watches.get(key)
        if w is None or w.quarantine is not None or self._closed:
            return
        with w.lock:
            w.countdown -= 1
            if w.countdown > 0:
                return
            w.countdown = self._gap()
        with self._idle:
            self._pending += 1
        try:  # a copy: the caller may reuse its dict
            self._jobs.put_nowait((w, json.loads(json.dumps(identity))))
        except queue.Full:
            self.dropped += 1
            self._done()
            return
        if self._thread is None:
            with self._lock:
                if self._thread is None and not self._closed:
                    self._thread = threading.Thread(target=self._run, name="synth-canaries",
                                                    daemon=True)
                    self._thread.start()

    def _done(self) -> None:
        with self._idle:
            self._pending -= 1
            self._idle.notify_all()

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until every canary queued so far has been judged (False: ``timeout_s`` ran out)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending <= 0, timeout_s)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                if not self._closed:
                    self._audit(*job)
            except Exception:  # a bug of ours must not stop the audit, nor the trainer
                log.exception("a reward canary of %s could not run", job[0].name)
            finally:
                self._done()

    def _audit(self, w: _Watch, identity: dict[str, Any]) -> None:
        if w.quarantine is not None:
            return
        if w.probe is None:
            w.probe = w.make_probe()
        tally = w.tally
        try:
            canaries = w.probe.draw(identity, self.rng, tally)
        except OracleError as exc:
            if self._closed:
                return
            if exc.transient:
                log.warning("bootcamp %s: a canary was skipped: %s", w.name, exc)
                return
            tally.oracle[0] += 1
            tally.oracle[1] += 1
            if mostly_accepted(*tally.oracle):
                self._quarantine(w, Quarantine(
                    w.name, f"the reference could not be computed for {tally.oracle[1]} of "
                    f"{tally.oracle[0]} canary rows: {exc}", _case(identity), "",
                    "a reference", str(exc)[:200]))
            return
        tally.oracle[0] += 1
        self.rng.shuffle(canaries)  # the reference and the mutant in either order
        sent = [(c, w.probe.send(c, identity)) for c in canaries]
        tally.sent += 1
        self.sent += 1
        found = judge(w.name, identity, sent, tally) if not self._closed else None
        if found is not None:
            self._quarantine(w, found)

    def _quarantine(self, w: _Watch, found: Quarantine) -> None:
        w.quarantine = found
        self.on_quarantine(w.key, found)

    def close(self) -> None:
        """Stop the thread (canaries still queued are dropped) and the oracles' processes."""
        with self._lock:
            self._closed = True
            thread, self._thread = self._thread, None
        if thread is not None:
            while True:  # make room for the stop sign: queued canaries are dropped
                try:
                    self._jobs.get_nowait()
                    self._done()
                except queue.Empty:
                    break
            self._jobs.put(None)
        probes = [w.probe for w in self._watches.values() if w.probe is not None]
        for probe in probes:  # a canary in flight fails fast, nothing new starts
            probe.close()
        if thread is not None:
            thread.join(timeout=30)
        for probe in probes:  # what the thread may have started meanwhile
            probe.close()
