"""The episode consistency check: a multi-turn environment judged as production runs it.

The multi-turn twin of :func:`synth.gate.answers.check_consistency`. Production's environment
processes (:class:`synth.serving.rollout.EpisodeEnv`: the reward's episode replays, rollouts, the TRL
and verl integrations) run under a random hash seed (no ``PYTHONHASHSEED`` set), are asked
``reset`` and ``step`` and nothing else, serve up to :func:`synth.serving.rollout.episode_life` calls
each, and see identities export drew at random 63-bit seeds. The gate's other processes differ
in each of these ways (hash seeds 1 and 2, case generation and ``reference_policy`` calls,
at most a few hundred calls, its fixed seeds). This check sends production's traffic:

1. **fresh identities**, drawn as export draws them (a sampling process of its own, random
   63-bit seeds, every level in turn) for :data:`FRESH_S` seconds, at least :data:`FRESH_MIN`
   of them; on each the gate plays, in its own main process, the reference policy, the
   reference with its last action mutated, an illegal policy (empty, garbage in turn) and a
   weak one (constant, random, another case's actions in turn);
2. **the gate's own episodes** (reference and degenerate policies, the replies it recorded) and
   the gate's reference episodes with their last action mutated;
3. **one fresh production process** (no ``PYTHONHASHSEED``, one ``reset`` or ``step`` call at a
   time, as :class:`~synth.serving.rollout.EpisodeEnv` sends them) replays all of them, episodes
   shuffled and cycled, until it has served :func:`stream_calls` calls: more than any
   production process lives.

Either is the finding ``inconsistent_verifier``: a reply (observation, reward, done, state)
that differs from the gate's own reply to the same call (evidence: the identity, the turn, the
call number in the process, both replies); or a losing policy that wins on fresh identities
where the gate established that it loses (the degenerate_policies rules: an illegal policy
above ``illegal_max_score`` in most of 3+ episodes, a weak one above ``degenerate_max_mean`` on
average over 3+; the mutated reference accepted in most of 3+ fresh episodes where the gate's
cases refused it at least 3 times in 4).
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from synth.gate.calls import Failure
from synth.gate.probes import mostly_accepted
from synth.gate.results import failure_result, mean, result
from synth.sandbox.methods import MethodServer
from synth.serving.rollout import episode_life
from synth.serving.sampling import EpisodeStep, parse_reset, parse_step

__all__ = ["FRESH_MAX", "FRESH_MIN", "FRESH_S", "check_episode_consistency", "stream_calls"]

#: Seconds the gate spends drawing fresh identities and playing them in its own process, and
#: the most it draws; it draws at least FRESH_MIN (one for an engine-backed bootcamp) unless
#: that takes FRESH_HARD_S. With the gate's own (8 per level), a process sees more distinct
#: identities than the gate's other processes do, on a loaded machine too.
FRESH_S = 1.0
FRESH_MAX = 48
FRESH_MIN = 32
FRESH_HARD_S = 4.0
#: The gate's reference episodes replayed with the last action mutated (in its own process).
OWN_MUTANTS = 12
#: Differences kept as evidence (the stream stops after this many).
MAX_DIFFERENCES = 3
ILLEGAL = ("empty", "garbage")
WEAK = ("constant", "random", "other_case")
MUTANT = "mutated_last"
_JUNK = "qzxjvkwQZXJ#@%&~^!?;"
_INT = re.compile(r"[+-]?\d{1,15}")


def stream_calls(source: str) -> int:
    """Calls the production process is sent: the upper end of a production environment's
    life (:func:`synth.serving.rollout.episode_life`) and a margin."""
    top = episode_life(source)[1]
    return top + max(16, top // 10)


@dataclass
class Played:
    """An episode the gate played in its own process: the identity, the policy, every reply."""

    case: str
    where: str
    policy: str
    start: EpisodeStep
    actions: list[str] = field(default_factory=list)
    steps: list[EpisodeStep] = field(default_factory=list)
    fresh: bool = False

    @property
    def score(self) -> float:
        return self.steps[-1].reward if self.steps else 0.0

    def before(self, turn: int) -> EpisodeStep:
        return self.start if turn == 0 else self.steps[turn - 1]


def mutate_action(action: str) -> str | None:
    """A near miss of a winning action: an integer one more, other text reversed (or doubled
    when reversing changes nothing); None for an empty action."""
    text = action.strip()
    if not text:
        return None
    if _INT.fullmatch(text):
        return str(int(text) + 1)
    return text[::-1] if text[::-1] != text else text + text


def _short(value: Any, cap: int = 600) -> str:
    text = value if type(value) is str else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= cap else text[: cap - 20] + f"...({len(text)} chars)"


def _play(s: Any, case: str, where: str, policy: str, start: EpisodeStep, choose: Any,
          fresh: bool) -> Played:
    """One episode in the gate's main process: ``choose(played, current, turn)`` gives each
    action (None: the episode stops there)."""
    out = Played(case, where, policy, start, fresh=fresh)
    current = start
    for turn in range(s.max_turns):
        action = choose(out, current, turn)
        if action is None:
            break
        current = s.step(current.state, action, f"{where}, {policy} policy, turn {turn + 1}")
        out.actions.append(action)
        out.steps.append(current)
        if current.done:
            break
    return out


def _mutant(s: Any, ref: Played) -> Played | None:
    """The reference episode with its last action mutated (one step in the gate's process)."""
    if not ref.actions:
        return None
    bad = mutate_action(ref.actions[-1])
    if bad is None or bad == ref.actions[-1]:
        return None
    turn = len(ref.actions) - 1
    before = ref.before(turn)
    step = s.step(before.state, bad, f"{ref.where}, the reference's last action mutated")
    return Played(ref.case, ref.where, MUTANT, ref.start, [*ref.actions[:-1], bad],
                  [*ref.steps[:-1], step], fresh=ref.fresh)


def _own_episodes(s: Any) -> tuple[list[Played], list[Played]]:
    """The gate's recorded episodes (all but the very long actions' ones) and its reference
    episodes with the last action mutated."""
    own = [Played(s.cases[e.li][e.i], s.where(e.li, e.i), e.policy, e.start, list(e.actions),
                  list(e.steps)) for e in s.episodes if e.policy != "long"]
    mutants: list[Played] = []
    for p in own:
        if p.policy == "reference" and len(mutants) < OWN_MUTANTS:
            m = _mutant(s, p)
            if m is not None:
                mutants.append(m)
    return own, mutants


def _fresh_episodes(s: Any, rng: random.Random) -> tuple[list[Played], int]:
    """Fresh identities drawn as export draws them, each played by the gate (reference, its
    mutant, an illegal and a weak policy in turn) in its main process. (episodes, identities)"""
    from synth.engines import declared_engines
    from synth.serving.sampling import CaseSampler, SampleError

    out: list[Played] = []
    level_index = {name: li for li, (name, _, _) in enumerate(s.levels)}
    pool: dict[int, list[str]] = {}
    last_ref: dict[int, list[str]] = {}
    for (li, _), e in s.ref_episodes.items():
        pool.setdefault(li, []).extend(e.actions)
        last_ref.setdefault(li, e.actions)
    batch, least = (1, 1) if declared_engines(s.source) else (8, FRESH_MIN)
    drawn = 0
    t0 = time.perf_counter()

    def more() -> bool:
        spent = time.perf_counter() - t0
        return drawn < FRESH_MAX and (drawn < least or spent < FRESH_S) and \
            (drawn == 0 or spent < FRESH_HARD_S)

    try:
        with CaseSampler(s.source, backend=s.backend, class_name=str(s.info.get("class") or ""),
                         name="the candidate", recycle_after=10**9) as sampler:
            levels = sampler.levels or ["default"]
            while more():
                specs = [(levels[(drawn + k) % len(levels)], rng.getrandbits(63))
                         for k in range(batch)]
                for sample in sampler.sample(specs):
                    if not more():
                        break
                    li = level_index.get(sample.level, 0)
                    where = f"fresh identity (level {sample.level!r}, seed {sample.seed})"
                    start = s.reset(sample.case_text, where)
                    ref = _play(s, sample.case_text, where, "reference", start,
                                lambda p, c, t, w=where: s.policy(c.state, f"{w}, turn {t + 1}"),
                                True)
                    out.append(ref)
                    mutant = _mutant(s, ref)
                    if mutant is not None:
                        out.append(mutant)
                    illegal = ILLEGAL[drawn % len(ILLEGAL)]
                    out.append(_play(s, sample.case_text, where, illegal, start,
                                     _losing(illegal, rng, [], [], []), True))
                    weak = WEAK[drawn % len(WEAK)]
                    theirs = last_ref.get(li, [])
                    if weak != "other_case" or (theirs and theirs != ref.actions):
                        out.append(_play(s, sample.case_text, where, weak, start,
                                         _losing(weak, rng, pool.get(li, []), ref.actions,
                                                 theirs), True))
                    last_ref[li] = ref.actions
                    drawn += 1
    except (SampleError, OSError):
        pass  # generation is judged by the generate check; the stream keeps what was drawn
    return out, drawn


def _losing(name: str, rng: random.Random, pool: list[str], mine: list[str],
            theirs: list[str]) -> Any:
    """The degenerate_policies policy ``name`` as a choice function for :func:`_play`."""
    first = mine[0] if mine else ""
    if name == "empty":
        return lambda p, c, t: ""
    if name == "garbage":
        return lambda p, c, t: "".join(rng.choice(_JUNK) for _ in range(rng.randint(3, 12)))
    if name == "constant":
        return lambda p, c, t: first
    if name == "random":
        return lambda p, c, t: rng.choice(pool) if pool else first
    return lambda p, c, t: theirs[t] if t < len(theirs) else (theirs[-1] if theirs else first)


def _replay(s: Any, server: MethodServer, episodes: list[Played], target: int,
            rng: random.Random) -> tuple[int, list[dict[str, Any]], str]:
    """Replay ``episodes`` (shuffled, cycled) in ``server``, one reset or step call at a time,
    until ``target`` calls: (calls, the differences, why it stopped short or "")."""
    calls = 0
    differ: list[dict[str, Any]] = []
    limit = s.cfg.step_limit_s
    while calls < target:
        order = list(episodes)
        rng.shuffle(order)
        for ep in order:
            if calls >= target or len(differ) >= MAX_DIFFERENCES:
                return calls, differ, ""
            if time.monotonic() > s.deadline - 1.0:
                return calls, differ, f"the suite's wall-clock budget ran out after {calls} calls"
            asked: list[tuple[str, dict[str, Any], EpisodeStep]] = [
                ("reset", {"case_text": ep.case}, ep.start)]
            asked += [("step", {"state": ep.before(t).state, "action": a}, ep.steps[t])
                      for t, a in enumerate(ep.actions)]
            for turn, (method, params, want) in enumerate(asked):
                calls += 1
                reply = server.call(method, params, timeout_s=s.limit(limit))
                got: Any
                if not reply.ok:
                    got = f"{reply.outcome.value}: {reply.error[:300]}"
                else:
                    try:
                        got = (parse_reset(reply.value) if method == "reset"
                               else parse_step(reply.value)).plain()
                    except ValueError as exc:
                        got = f"malformed: {exc}"[:400]
                if got != want.plain():
                    differ.append({
                        "identity": ep.case[:400], "episode": f"{ep.policy} policy on {ep.where}",
                        "turn": turn, "call": calls, "method": method,
                        "action": _short(params.get("action", ""), 200),
                        "under_the_gate": _short(want.plain()), "in_production": _short(got)})
                    break  # the rest of this episode would follow another state
                if not server.alive:
                    return calls, differ, "the production process died"
    return calls, differ, ""


def _losers(s: Any, fresh: list[Played], gate_mutants: list[Played]) -> list[dict[str, Any]]:
    """Losing policies that win on fresh identities where the gate established they lose."""
    cfg = s.cfg
    found: list[dict[str, Any]] = []

    def evidence(p: Played, rule: str) -> dict[str, Any]:
        return {"identity": p.case[:400], "episode": f"{p.policy} policy on {p.where}",
                "actions": _short(p.actions[:8], 300), "score": p.score, "rule": rule}

    for name in ILLEGAL:
        got = [p for p in fresh if p.policy == name]
        won = [p for p in got if p.score > cfg.illegal_max_score]
        if mostly_accepted(len(got), len(won)):
            found.append(evidence(won[0], f"{len(won)} of {len(got)} fresh episodes scored above "
                                  f"{cfg.illegal_max_score:g} (illegal actions earn nothing on "
                                  "the gate's cases)"))
    for name in WEAK:
        got = [p for p in fresh if p.policy == name]
        avg = mean([p.score for p in got])
        if len(got) >= 3 and avg > cfg.degenerate_max_mean:
            best = max(got, key=lambda p: p.score)
            found.append(evidence(best, f"mean {avg:.3f} over {len(got)} fresh episodes (at most "
                                  f"{cfg.degenerate_max_mean:g}, as on the gate's cases)"))
    tried = len(gate_mutants)
    accepted = sum(p.score >= 1.0 - 1e-9 for p in gate_mutants)
    if tried >= 3 and accepted * 4 <= tried:
        got = [p for p in fresh if p.policy == MUTANT]
        won = [p for p in got if p.score >= 1.0 - 1e-9]
        if mostly_accepted(len(got), len(won)):
            found.append(evidence(won[0], f"the reference with its last action mutated won "
                                  f"{len(won)} of {len(got)} fresh episodes; on the gate's "
                                  f"cases {accepted} of {tried}"))
    return found


def check_episode_consistency(s: Any) -> dict[str, Any]:
    """See the module docstring. ``s`` is the :class:`~synth.gate.episodes.EpisodeSuite`."""
    rng = random.Random()  # fresh draws each run, as production's
    target = stream_calls(s.source)
    try:
        own, gate_mutants = _own_episodes(s)
        fresh, drawn = _fresh_episodes(s, rng)
    except Failure as f:
        return failure_result(f, "playing production's identities in the gate's process:")
    losers = _losers(s, fresh, gate_mutants)
    episodes = own + gate_mutants + fresh
    server = MethodServer(s.source, backend=s.backend, limits=s.limits, mode=s.mode,
                          relative=s.relative, class_name=str(s.info.get("class") or ""),
                          role="production episodes", budget=s.budget)
    try:
        started = server.start()
        if not started.ok:
            return result("error", f"the bootcamp did not load in a production process: "
                          f"{started.error}", traceback=started.traceback)
        calls, differ, short = _replay(s, server, episodes, target, rng)
    finally:
        server.close()
    identities = len({p.case for p in episodes})
    if differ or losers:
        first = differ[0] if differ else losers[0]
        said = (f"{len(differ)} of its replies differed from the gate's replies to the same "
                f"calls, first at call {differ[0]['call']} (turn {differ[0]['turn']} of the "
                f"{differ[0]['episode']})" if differ else
                f"a losing policy won on identities drawn as export draws them, where it lost on "
                f"the gate's (the {losers[0]['episode']}: {losers[0]['rule']})")
        return result("failed", f"production's traffic (one environment process with a random "
                      f"hash seed, reset and step only, {calls} calls, {identities} identities "
                      f"of which {drawn} fresh) was judged otherwise than the gate's: {said}. "
                      "reset and step must depend only on the identity, the state and the "
                      "action -- never on the hash seed, on how many calls the process served "
                      "or on what else it was asked", finding="inconsistent_verifier",
                      examples=(differ + losers)[:3], first=first)
    if short:
        return result("skipped", f"not finished: {short} (of {target}); no reply differed")
    return result("passed", f"{calls} reset/step calls ({len(episodes)} episodes on {identities} "
                  f"identities, {drawn} drawn as export draws them, replayed in turn) in one "
                  "production process (random hash seed, reset and step only, longer-lived "
                  f"than production's {episode_life(s.source)[1]} calls): the gate's replies; "
                  "losing policies lost on the fresh identities")
