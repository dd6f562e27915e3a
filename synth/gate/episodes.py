"""The gate of multi-turn bootcamps (``MultiTurnBootcamp``: episodes of reset/step calls).

:class:`EpisodeSuite` runs :data:`~synth.gate.report.MULTI_TURN_CHECK_NAMES` instead of the
single-turn answer checks, which do not apply to an episode. The load, construct, generate and
case-determinism checks are the single-turn suite's; the rest drive whole episodes from this
process -- every action is chosen here, every reply of ``reset``, ``step`` and
``reference_policy`` is validated here (:func:`synth.serving.sampling.parse_step`: the reward a finite
float in [0, 1], else ``invalid_score``) and every judgement is made here:

* ``observation``: ``reset`` gives a non-empty, bounded first prompt that shows the answer
  format, and the same one twice;
* ``reference_policy``: following ``reference_policy`` from ``reset`` ends within ``MAX_TURNS``
  with the score 1.0, on every sampled case of every level;
* ``unusual_actions``: single steps with empty, huge, non-ASCII, malformed and near-miss
  actions from initial and mid-episode states never raise, answer validly, and each returns
  within :attr:`~synth.gate.report.CheckConfig.step_limit_s` (a step that hangs is ``slow_step``
  with the action; the sandbox session is killed, so nothing is left running);
* ``degenerate_policies``: empty, garbage and very long actions score at most
  ``illegal_max_score`` (``rewards_illegal_actions``); always the same action, random actions
  seen at the level and another case's winning actions score at most ``degenerate_max_mean``
  on average (``degenerate_policy_wins``);
* ``state_purity``: recorded ``reset``/``step``/``reference_policy`` calls, replayed one by one
  in shuffled order in a fresh process that saw nothing else, give the same replies (else
  ``hidden_state``: the environment keeps state outside the JSON it returns);
* ``episode_determinism``: the reference episodes replayed whole in another process (other
  ``PYTHONHASHSEED``, clocks shifted, episodes in the reverse order) give the same
  observations, rewards, states and actions (``nondeterministic_episode``);
* ``turn_limit``: every episode played ends within ``MAX_TURNS`` (``episode_never_ends``);
* ``terminal``: stepping a finished state keeps it finished with the same reward
  (``terminal_changes``);
* ``levels``, ``timing``, ``contract``: harder presets give larger cases, longer reference
  episodes or lower random-policy scores; calls within their time budgets; the contract intact;
* ``episode_consistency``: production's traffic -- fresh identities, reset/step calls only, a
  random hash seed, a process longer-lived than production's -- gives the gate's replies
  (:mod:`synth.gate.episode_consistency`; ``inconsistent_verifier``).
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from synth.gate import basics, engines
from synth.gate.answers import check_contract
from synth.gate.calls import Failure, ask_many
from synth.gate.episode_consistency import check_episode_consistency
from synth.gate.report import MULTI_TURN_CHECK_NAMES
from synth.gate.results import case_size, failure_result, level_names_result, mean, median, result
from synth.gate.suite import Suite
from synth.sandbox.methods import MethodServer
from synth.serving.sampling import (
    EpisodeStep,
    multi_turn_info,
    parse_action,
    parse_reset,
    parse_step,
)
from synth.text import pyast

__all__ = ["EPISODE_CHECKS", "EpisodeSuite", "declares_multi_turn", "unusual_actions"]

_BASE = "MultiTurnBootcamp"
#: The checks that drive episodes: their bootcamp time is bounded by ``episode_budget_s``.
_EPISODE_CHECKS = frozenset({"observation", "reference_policy", "unusual_actions",
                             "degenerate_policies", "state_purity", "episode_determinism",
                             "terminal"})
#: The checks whose pass episode_consistency needs (the replies it compares are pure and
#: deterministic, the losing policies it plays lose on the gate's cases).
_CONSISTENCY_NEEDS = ("observation", "reference_policy", "unusual_actions", "degenerate_policies",
                      "state_purity", "episode_determinism", "turn_limit", "terminal")
#: Policies whose actions are illegal by any rules, and the legal-looking ones.
ILLEGAL_POLICIES = ("empty", "garbage", "long")
WEAK_POLICIES = ("constant", "random", "other_case")
_JUNK = "qzxjvkwQZXJ#@%&~^!?;"


def declares_multi_turn(source: str) -> bool:
    """Whether the module's classes derive from ``MultiTurnBootcamp`` (by AST, no import)."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    bases_ok = {_BASE}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "synth.bootcamp":
            bases_ok.update(a.asname or a.name for a in node.names if a.name == _BASE)
    derived: set[str] = set()
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                     if isinstance(b, ast.Name | ast.Attribute)}
            if node.name not in derived and bases & (bases_ok | derived):
                derived.add(node.name)
                grown = True
    return bool(derived)


def unusual_actions(reference: str) -> list[tuple[str, str]]:
    """(label, action) pairs a robust ``step`` answers by its rules: empty and blank text,
    numbers at the edges, JSON and Python words, answer tags, control and non-ASCII characters,
    a lone surrogate as production passes one on (escaped: ``\\ud800``, see :mod:`synth.text.utf8`;
    a step that echoes a raw one would be refused as ``unencodable_text``), near misses of a
    legal action, and very long text."""
    ref = reference or "a"
    return [
        ("empty", ""), ("blank", " \n\t "), ("zero", "0"), ("negative", "-1"),
        ("huge number", "9" * 400), ("float", "1e309"), ("nan", "NaN"), ("none", "None"),
        ("json", '{"move": [1, 2]}'), ("list", "[]"), ("tags", "<answer></answer>"),
        ("close tag", "</answer>"), ("punctuation", "?!.;:#%&*"), ("nul", "\x00"), ("control", "\x1b[2J\r\x08"),
        ("non-ascii", "é中🙂 ∞"), ("surrogate", "\\ud800"), ("doubled", ref + ref),
        ("repeated", " ".join([ref] * 3)), ("upper", ref.upper()), ("lower", ref.lower()),
        ("reversed", ref[::-1]), ("padded", f"  {ref}  "), ("half", ref[: max(1, len(ref) // 2)]),
        ("comma", ref.replace(" ", ",")), ("long", "x" * 100_000),
        ("long repeat", (ref + " ") * 5000), ("many lines", "\n".join([ref] * 500)),
    ]


@dataclass
class Episode:
    """One episode played by the gate: the case, the policy, the start and every step."""

    li: int
    i: int
    policy: str
    start: EpisodeStep
    actions: list[str] = field(default_factory=list)
    steps: list[EpisodeStep] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.steps[-1].reward if self.steps else 0.0

    @property
    def done(self) -> bool:
        return bool(self.steps) and self.steps[-1].done

    def before(self, turn: int) -> EpisodeStep:
        return self.start if turn == 0 else self.steps[turn - 1]

    def transcript(self, limit: int = 12) -> str:
        rows = [f"reset -> {_short(self.start.observation)}"]
        for n, (action, step) in enumerate(zip(self.actions, self.steps, strict=True), 1):
            rows.append(f"turn {n}: action {_short(action, 60)} -> reward {step.reward:g}, "
                        f"done {step.done}")
        if len(rows) > limit:
            rows = [*rows[:3], f"... {len(rows) - limit + 2} turns ...", *rows[-(limit - 4):]]
        return "\n".join(rows)


def _short(text: str | None, cap: int = 160) -> str:
    if text is None:
        return "None"
    shown = repr(text)
    return shown if len(shown) <= cap else shown[: cap - 20] + f"...({len(text)} chars)"


def _state_text(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, ensure_ascii=False)[:2000]


class EpisodeSuite(Suite):
    """The suite of a multi-turn bootcamp (see the module docstring)."""

    names = MULTI_TURN_CHECK_NAMES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_turns = 0
        self.starts: dict[tuple[int, int], EpisodeStep] = {}
        self.episodes: list[Episode] = []
        self.ref_episodes: dict[tuple[int, int], Episode] = {}
        self.reset_times: list[float] = []
        self.step_times: list[float] = []
        self.policy_times: list[float] = []
        #: (method, params, the reply as validated) of calls the purity check replays
        self.calls: list[tuple[str, dict[str, Any], Any]] = []

    def skip_reason(self, name: str) -> str | None:
        if name in ("turn_limit", "levels", "timing") and self.hung:
            return None if name != "turn_limit" else self.hung_reason()
        why = super().skip_reason(name)
        if why is None and name == "episode_consistency":
            return self._consistency_skip()
        if why is None and name in _EPISODE_CHECKS - {"observation", "reference_policy"} \
                and not self.ref_episodes:
            return "not run: no reference episode was played"
        return why

    def _consistency_skip(self) -> str | None:
        if self.hung or self.too_slow:
            return "not run: the bootcamp hung or was too slow earlier"
        if self.statuses.get("timing") not in (None, "passed"):
            # its call volume (production's environment life, and more) is sized for an
            # environment of production's speed; a slower one is rejected by the timing check
            return "not run: the timing check failed (the environment is too slow for production)"
        failed = [n for n in _CONSISTENCY_NEEDS if self.statuses.get(n) not in (None, "passed")]
        if failed:
            return (f"not run: the {failed[0]} check did not pass (the gate rejects the "
                    "environment already; production's traffic is compared with a passing one)")
        return None

    def charge(self, seconds: float) -> None:
        if self.current not in _EPISODE_CHECKS:
            super().charge(seconds)
            return
        self.spent += seconds
        if self.spent > self.cfg.episode_budget_s:
            self.too_slow = self.current
            raise Failure("timeout", f"used up the {self.cfg.episode_budget_s:g}s time budget "
                          f"of the {self.current} check: the bootcamp is too slow")

    # -- questions, validated -----------------------------------------------------------------
    def start(self, li: int, i: int) -> EpisodeStep:
        key = (li, i)
        if key not in self.starts:
            self.starts[key] = self.reset(self.cases[li][i], self.where(li, i))
        return self.starts[key]

    def reset(self, case: str, where: str) -> EpisodeStep:
        params = {"case_text": case}
        try:
            value, dt = self.cand.ask("reset", params, self.limit(self.cfg.step_limit_s))
        except Failure as f:
            raise Failure(f.status, f"reset ({where}) {f.what}", f.trace, f.finding,
                          **{**f.artifacts, "case": case}) from None
        self.reset_times.append(dt)
        self.charge(dt)
        try:
            start = parse_reset(value)
        except ValueError as exc:
            raise Failure("failed", f"reset ({where}): {exc}", finding="malformed_step",
                          case=case, **getattr(exc, "artifacts", {})) from None
        self.remember("reset", params, start.plain())
        return start

    def step(self, state: dict[str, Any], action: str, where: str) -> EpisodeStep:
        params = {"state": state, "action": action}
        limit = self.limit(self.cfg.step_limit_s)
        try:
            value, dt = self.cand.ask("step", params, limit)
        except Failure as f:
            finding = {"timeout": "slow_step", "error": "step_crashes"}.get(f.status, f.finding)
            if f.finding == "protocol":
                finding = "protocol"
            what = (f"step did not return within {limit:g}s on the action {_short(action, 80)} "
                    f"({where}): {f.what}" if f.status == "timeout" else
                    f"step ({where}, action {_short(action, 80)}) {f.what}")
            raise Failure(f.status, what, f.trace, finding,
                          **{**f.artifacts, "action": action, "state": _state_text(state)}) from None
        self.step_times.append(dt)
        self.charge(dt)
        try:
            step = parse_step(value)
        except ValueError as exc:
            # the evidence of what step returned, beside the action and the state it was given
            returned = {(f"returned_{k}" if k in ("action", "state") else k): v
                        for k, v in getattr(exc, "artifacts", {}).items()}
            raise Failure("failed", f"step ({where}, action {_short(action, 80)}): {exc}",
                          finding=getattr(exc, "finding", "") or "malformed_step", action=action,
                          state=_state_text(state), **returned) from None
        self.remember("step", params, step.plain())
        return step

    def policy(self, state: dict[str, Any], where: str) -> str:
        params = {"state": state}
        try:
            value, dt = self.cand.ask("policy", params, self.limit(self.cfg.step_limit_s))
        except Failure as f:
            raise Failure(f.status, f"reference_policy ({where}) {f.what}", f.trace, f.finding,
                          **{**f.artifacts, "state": _state_text(state)}) from None
        self.policy_times.append(dt)
        self.charge(dt)
        try:
            action = parse_action(value)
        except ValueError as exc:
            raise Failure("failed", f"reference_policy ({where}): {exc}",
                          state=_state_text(state)) from None
        self.remember("policy", params, action)
        return action

    def remember(self, method: str, params: dict[str, Any], reply: Any) -> None:
        if len(self.calls) < 5000 and len(params.get("action", "")) <= 4000:
            self.calls.append((method, params, reply))

    def play(self, li: int, i: int, policy: str,
             choose: Callable[[Episode, EpisodeStep, int], str]) -> Episode:
        """One episode of ``choose`` (action for the state before each turn), at most
        ``MAX_TURNS`` steps, recorded."""
        episode = Episode(li, i, policy, self.start(li, i))
        current = episode.start
        for turn in range(self.max_turns):
            where = f"{self.where(li, i)}, {policy} policy, turn {turn + 1}"
            action = choose(episode, current, turn)
            current = self.step(current.state, action, where)
            episode.actions.append(action)
            episode.steps.append(current)
            if current.done:
                break
        self.episodes.append(episode)
        return episode

    def sample_keys(self, per_level: int) -> list[tuple[int, int]]:
        return self.spread(per_level * max(1, len(self.levels)))


# -- the checks ---------------------------------------------------------------------------------


def check_load(s: EpisodeSuite) -> dict[str, Any]:
    res = basics.check_load(s)
    if res["status"] != "passed":
        return res
    info = s.info
    try:
        declared = multi_turn_info(info)
    except ValueError as exc:
        return result("failed", str(exc))
    if declared is None:
        return result("failed", f"{info['class']} is not a MultiTurnBootcamp in the sandbox, "
                      "although the module's classes derive from one by name")
    s.max_turns = declared[0]
    defined = set(info.get("episode_defines") or [])
    missing = [m for m in ("reset", "step", "reference_policy") if m not in defined]
    if missing:
        return result("failed", f"{info['class']} does not implement {', '.join(missing)}")
    engines = f", engines {', '.join(declared[1])}" if declared[1] else ""
    return result("passed", f"imported {info['class']} (multi-turn, MAX_TURNS={s.max_turns}"
                  f"{engines})", engines=res.get("artifacts", {}).get("engines"))


def check_diversity(s: EpisodeSuite) -> dict[str, Any]:
    for li, cases in enumerate(s.cases):
        n, distinct = len(cases), len(set(cases))
        need = max(2, math.ceil(0.25 * n)) if n >= 4 else 1
        if distinct < need:
            return result("failed", f"level {s.levels[li][0]!r}: only {distinct} distinct "
                          f"episode identities among {n} (need {need})", example=cases[0])
    _, params, seed = s.levels[0]
    try:
        other = s.construct(params, seed + 7919)
        got = [s.generate(other)[0] for _ in range(len(s.cases[0][:3]))]
    except Failure as f:
        return failure_result(f, "generating with another seed:")
    if got == s.cases[0][: len(got)]:
        return result("failed", "another seed gave exactly the same episodes: the seed is "
                      "ignored", example=got[0])
    return result("passed", f"{sum(len(set(c)) for c in s.cases)} distinct episode identities")


def check_observation(s: EpisodeSuite) -> dict[str, Any]:
    try:
        tag = s.tags()[0].strip()
    except Failure as f:
        return failure_result(f, "wrap_answer:")
    cap = s.cfg.prompt_max_chars
    for li, i in s.sample_keys(max(s.cfg.episode_cases, s.cfg.policy_cases) * 2):
        start = s.start(li, i)
        text = start.observation or ""
        if len(text) > cap:
            return result("failed", f"{s.where(li, i)}: the first observation has {len(text)} "
                          f"chars (max {cap})", observation=text)
        if tag and tag not in text:
            return result("failed", f"{s.where(li, i)}: the first observation never shows the "
                          f"answer format {tag!r}", observation=text)
    again = s.reset(s.cases[0][0], s.where(0, 0) + ", again")
    first = s.start(0, 0)
    if (again.observation, again.state_text) != (first.observation, first.state_text):
        return result("failed", "reset gave two different starts for the same identity",
                      finding="nondeterministic_episode", first=first.observation,
                      second=again.observation, first_state=first.state_text,
                      second_state=again.state_text)
    return result("passed", f"{len(s.starts)} first observations are non-empty, at most "
                  f"{max(len(x.observation or '') for x in s.starts.values())} chars, show the "
                  "answer format and repeat for the same identity")


def _reference_choice(s: EpisodeSuite) -> Callable[[Episode, EpisodeStep, int], str]:
    def choose(episode: Episode, current: EpisodeStep, turn: int) -> str:
        return s.policy(current.state, f"{s.where(episode.li, episode.i)}, turn {turn + 1}")
    return choose


def check_reference_policy(s: EpisodeSuite) -> dict[str, Any]:
    losses: list[Episode] = []
    played = 0
    for li, i in s.sample_keys(s.cfg.episode_cases):
        episode = s.play(li, i, "reference", _reference_choice(s))
        played += 1
        s.ref_episodes[(li, i)] = episode
        if not episode.done or episode.score < 1.0 - 1e-9:
            losses.append(episode)
    if losses:
        first = losses[0]
        how = (f"scored {first.score:g}" if first.done else
               f"had not finished after MAX_TURNS={s.max_turns} turns")
        return result("failed", f"the reference policy must reach the score 1.0 on every case: "
                      f"it {how} on {s.where(first.li, first.i)} ({len(losses)} of {played} "
                      "episodes short of 1.0)", finding="reference_loses",
                      case=s.cases[first.li][first.i], transcript=first.transcript(),
                      actions=json.dumps(first.actions[:30]))
    turns = [len(e.steps) for e in s.ref_episodes.values()]
    return result("passed", f"the reference policy scored 1.0 on all {played} episodes, in "
                  f"{min(turns)}..{max(turns)} turns (MAX_TURNS={s.max_turns})")


def _mid_turn(episode: Episode) -> int | None:
    """A turn in the middle of an episode (its state is not the start and not finished)."""
    turns = len(episode.steps)
    return turns // 2 if turns >= 2 else None


def check_unusual_actions(s: EpisodeSuite) -> dict[str, Any]:
    tried = 0
    worst = 0.0
    for li in range(len(s.levels)):
        episodes = [e for (lv, _), e in s.ref_episodes.items() if lv == li][:2]
        for n, episode in enumerate(episodes):
            starts = [("the initial state", episode.start, 0)]
            mid = _mid_turn(episode)
            if mid is not None:
                starts.append(("a mid-episode state", episode.before(mid), mid))
            for label, before, index in starts:
                reference = episode.actions[index] if index < len(episode.actions) else ""
                for kind, action in unusual_actions(reference):
                    if (n > 0 or label != "the initial state") and len(action) > 4000:
                        continue  # the long ones once per level
                    where = f"{s.where(episode.li, episode.i)}, {label}, {kind} action"
                    t0 = time.monotonic()
                    s.step(before.state, action, where)
                    worst = max(worst, time.monotonic() - t0)
                    tried += 1
    return result("passed", f"{tried} steps with unusual actions (empty, huge, non-ASCII, "
                  "malformed, near misses) answered by the rules, none raised; slowest "
                  f"{worst * 1000:.1f} ms")


def _junk(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(_JUNK) for _ in range(size))


def _policies(rng: random.Random, pool: list[str], mine: list[str], theirs: list[str],
              ) -> dict[str, Callable[[Episode, EpisodeStep, int], str]]:
    """The degenerate policies: illegal ones (no action, junk, very long junk), the same
    action every turn (this case's first reference action), random actions seen at the level,
    and another case's reference actions in their order."""
    first = mine[0] if mine else ""

    def other_case(e: Episode, c: EpisodeStep, turn: int) -> str:
        return theirs[turn] if turn < len(theirs) else (theirs[-1] if theirs else first)

    return {
        "empty": lambda e, c, t: "",
        "garbage": lambda e, c, t: _junk(rng, rng.randint(3, 12)),
        "long": lambda e, c, t: _junk(rng, 20_000),
        "constant": lambda e, c, t: first,
        "random": lambda e, c, t: rng.choice(pool),
        "other_case": other_case,
    }


def check_degenerate_policies(s: EpisodeSuite) -> dict[str, Any]:
    rng = random.Random(s.cfg.seed * 17 + 3)
    pool: dict[int, list[str]] = {}
    for (li, _), episode in s.ref_episodes.items():
        pool.setdefault(li, []).extend(episode.actions)
    keys = [k for k in s.sample_keys(s.cfg.policy_cases) if k in s.ref_episodes]
    scores: dict[str, list[tuple[float, Episode]]] = {p: [] for p in (*ILLEGAL_POLICIES,
                                                                     *WEAK_POLICIES)}
    for li, i in keys:
        mine = s.ref_episodes[(li, i)].actions
        others = [e for (lv, j), e in s.ref_episodes.items() if lv == li and j != i]
        theirs = others[0].actions if others else []
        for name, choose in _policies(rng, pool[li], mine, theirs).items():
            if name == "other_case" and (not theirs or theirs == mine):
                continue
            episode = s.play(li, i, name, choose)
            scores[name].append((episode.score, episode))
    table = "\n".join(f"{name}: mean {mean([x for x, _ in got]):.3f}, max "
                      f"{max((x for x, _ in got), default=0.0):.3f} over {len(got)} episodes"
                      for name, got in scores.items() if got)
    for name in ILLEGAL_POLICIES:
        high = [(x, e) for x, e in scores[name] if x > s.cfg.illegal_max_score]
        if high:
            x, e = high[0]
            return result("failed", f"the {name} policy (actions no rules allow) scored {x:g} "
                          f"on {s.where(e.li, e.i)} (at most {s.cfg.illegal_max_score:g} "
                          "allowed): illegal or empty actions must earn nothing",
                          finding="rewards_illegal_actions", scores=table,
                          transcript=e.transcript(), case=s.cases[e.li][e.i])
    for name in WEAK_POLICIES:
        got = scores[name]
        avg = mean([x for x, _ in got])
        if got and avg > s.cfg.degenerate_max_mean:
            x, e = max(got, key=lambda pair: pair[0])
            return result("failed", f"the {name} policy scored {avg:.3f} on average (at most "
                          f"{s.cfg.degenerate_max_mean:g}): the environment can be won without "
                          "playing the case", finding="degenerate_policy_wins", scores=table,
                          transcript=e.transcript(), case=s.cases[e.li][e.i])
    return result("passed", f"{sum(map(len, scores.values()))} episodes of degenerate "
                  "policies scored low and never crashed the environment", scores=table)


def _replay(s: EpisodeSuite, server: MethodServer, calls: list[tuple[str, dict[str, Any], Any]],
            logs: list[Any] | None = None) -> tuple[int, dict[str, Any] | None]:
    """Ask ``server`` the recorded ``calls`` in this order (batches of 16): (how many agreed,
    the first disagreement as evidence, or None). With ``logs`` (an engine-backed bootcamp)
    every call is followed by an ``engine_log`` question, whose answers -- the commands that
    call sent its engines -- are appended to ``logs``."""
    agreed = 0
    limit = s.cfg.step_limit_s
    for start in range(0, len(calls), 16):
        chunk = calls[start : start + 16]
        asked = [(m, p) for m, p, _ in chunk]
        if logs is not None:
            asked = [("engine_log", {})] + [q for call in asked for q in (call, ("engine_log", {}))]
        answers, _ = ask_many(server, asked, limit, total_s=limit * len(asked) + 2.0)
        if logs is not None:
            logs.extend(value if failure is None else {"failed": failure.what}
                        for value, failure in answers[2::2])
            answers = answers[1::2]
        for (method, params, want), (value, failure) in zip(chunk, answers, strict=False):
            evidence = {"method": method, "action": params.get("action"),
                        "state": _state_text(params["state"]) if "state" in params
                        else params.get("case_text"), "first_process": want}
            if failure is not None:
                return agreed, {**evidence, "second_process": f"raised: {failure.what}",
                                "traceback": failure.trace}
            try:
                got: Any = (parse_reset(value).plain() if method == "reset" else
                            parse_step(value).plain() if method == "step"
                            else parse_action(value))
            except ValueError as exc:
                return agreed, {**evidence, "second_process": f"malformed: {exc}"}
            if got != want:
                return agreed, {**evidence, "second_process": got}
            agreed += 1
        if len(answers) < len(chunk):
            return agreed, {"method": chunk[len(answers)][0], "second_process": "not answered"}
    return agreed, None


def _replay_in(s: EpisodeSuite, server: MethodServer, calls: list[tuple[str, dict[str, Any], Any]],
               doing: str, logs: list[Any] | None = None,
               ) -> tuple[int, dict[str, Any] | None] | dict[str, Any]:
    """:func:`_replay` in a fresh ``server`` (started here, closed after), or the check's
    result when it did not load or failed (``doing`` says what the gate was doing)."""
    try:
        started = server.start()
        if not started.ok:
            return result("error", f"the bootcamp did not load ({doing.rstrip(':')}): "
                          f"{started.error}", traceback=started.traceback)
        return _replay(s, server, calls, logs)
    except Failure as f:
        return failure_result(f, doing)
    finally:
        server.close()


def _evidence(differ: dict[str, Any]) -> dict[str, Any]:
    return {k: show(v) for k, v in differ.items() if v is not None}


def show(value: Any) -> str:
    return value if type(value) is str else json.dumps(value, ensure_ascii=False, sort_keys=True)


def check_state_purity(s: EpisodeSuite) -> dict[str, Any]:
    rng = random.Random(s.cfg.seed * 13 + 5)
    calls = list(s.calls)
    rng.shuffle(calls)
    calls = calls[: s.cfg.replay_steps]
    done = _replay_in(s, s.new_server(s.cfg.main_hashseed, role="replay"), calls,
                      "replaying recorded calls in a fresh process:")
    if isinstance(done, dict):
        return done
    agreed, differ = done
    if differ is not None:
        return result("failed", f"a recorded {differ['method']} call, replayed alone in a fresh "
                      "process (the same hash seed, calls in shuffled order), gave another "
                      "reply: reset, step and reference_policy must depend only on their "
                      "arguments -- keep everything an episode needs in the JSON state, nothing "
                      "in class or module variables", finding="hidden_state", **_evidence(differ))
    return result("passed", f"{agreed} recorded calls replayed one by one, in shuffled order, "
                  "in a fresh process gave the same replies")


def check_episode_determinism(s: EpisodeSuite) -> dict[str, Any]:
    """The reference episodes replayed in a second process (other hash seed, clocks shifted,
    reverse order) give the same replies. An engine-backed bootcamp's calls are replayed in a
    fresh first process too, the first ``engine_log_episodes`` of them, and must send their
    engines the same commands in both: a seed or level drawn from the clock or a string's hash
    is caught even where the engine's answers happened to agree."""
    calls: list[tuple[str, dict[str, Any], Any]] = []
    ends: list[int] = []  # where each episode's calls end
    for episode in reversed(list(s.ref_episodes.values())):
        case = s.cases[episode.li][episode.i]
        calls.append(("reset", {"case_text": case}, episode.start.plain()))
        for turn, (action, step) in enumerate(zip(episode.actions, episode.steps, strict=True)):
            state = episode.before(turn).state
            calls.append(("policy", {"state": state}, action))
            calls.append(("step", {"state": state, "action": action}, step.plain()))
        ends.append(len(calls))
    engine_backed = s.engine_backed
    first_logs: list[Any] = []
    if engine_backed:
        logged = calls[: ends[min(len(ends), s.cfg.engine_log_episodes) - 1]] if ends else []
        done = _replay_in(s, s.new_server(s.cfg.main_hashseed, role="engine log"), logged,
                          "replaying the reference episodes in a fresh process:", first_logs)
        if isinstance(done, dict):
            return done
        _, differ = done
        if differ is not None:
            return result("failed", f"a reference episode replayed in a fresh process (the same "
                          f"hash seed) diverged at a {differ['method']} call: everything from "
                          "the identity and the state", finding="nondeterministic_episode",
                          **_evidence(differ))
    second_logs: list[Any] = []
    done = _replay_in(s, s.new_server(s.cfg.child_hashseed, shift_clock=True, role="episodes"),
                      calls, "replaying the reference episodes in a second process:",
                      second_logs if engine_backed else None)
    if isinstance(done, dict):
        return done
    agreed, differ = done
    if differ is not None:
        return result("failed", f"the reference episodes replayed in a second process (other "
                      "PYTHONHASHSEED, clocks shifted, episodes in the reverse order) diverged "
                      f"at a {differ['method']} call: draw nothing from the clock, hash order "
                      "or global random; everything from the identity and the state",
                      finding="nondeterministic_episode", **_evidence(differ))
    told = engines.log_difference(first_logs, second_logs)
    if told is not None:
        method, params, _ = calls[told.pop("call")]
        return result("failed", f"a reference episode's {method} call sent its engine other "
                      "commands in a second process (other PYTHONHASHSEED, clocks shifted) than "
                      "in the first, though both answered alike: an engine's settings (seed, "
                      "level, options) must come from the identity and the state, never from "
                      "the clock or hash()", finding="nondeterministic_engine_settings",
                      method=method, action=params.get("action"),
                      state=_state_text(params["state"]) if "state" in params
                      else params.get("case_text"), **told)
    compared = f"; the engine commands of {len(first_logs)} calls agreed" if first_logs else ""
    return result("passed", f"{len(s.ref_episodes)} reference episodes ({agreed} calls) replayed "
                  "identically in a second process (other hash seed, clocks shifted, reverse "
                  f"order){compared}")


def check_turn_limit(s: EpisodeSuite) -> dict[str, Any]:
    endless = [e for e in s.episodes if not e.done]
    if endless:
        e = endless[0]
        return result("failed", f"{len(endless)} of {len(s.episodes)} episodes were not done "
                      f"after MAX_TURNS={s.max_turns} steps (first: the {e.policy} policy on "
                      f"{s.where(e.li, e.i)}): an episode must end within MAX_TURNS whatever "
                      "the actions", finding="episode_never_ends", transcript=e.transcript(),
                      last_observation=e.steps[-1].observation if e.steps else None)
    if not s.episodes:
        return result("skipped", "not run: no episode was played")
    longest = max(len(e.steps) for e in s.episodes)
    return result("passed", f"all {len(s.episodes)} episodes ended within MAX_TURNS="
                  f"{s.max_turns} (longest: {longest} steps)")


def check_terminal(s: EpisodeSuite) -> dict[str, Any]:
    finished = [e for e in s.episodes if e.done]
    picked = finished[:: max(1, len(finished) // 24)][:24]
    for e in picked:
        last = e.steps[-1]
        for action in (e.actions[-1], ""):
            where = f"{s.where(e.li, e.i)}, after the {e.policy} policy's episode ended"
            after = s.step(last.state, action, where)
            if not after.done or after.reward != last.reward:
                return result("failed", f"stepping a finished episode ({where}) changed it: "
                              f"done {after.done}, reward {last.reward:g} -> {after.reward:g}; "
                              "a finished state must stay finished with the same reward",
                              finding="terminal_changes", action=action,
                              state=last.state_text[:2000])
    return result("passed", f"{len(picked)} finished episodes stepped once more: still done, "
                  "same reward")


def check_levels(s: EpisodeSuite) -> dict[str, Any]:
    if len(s.levels) < 2:
        return result("failed", "define at least two LEVELS presets (easiest first) whose "
                      "episodes get measurably larger or harder")
    named = level_names_result([name for name, _, _ in s.levels], s.cfg.level_names)
    if named is not None:
        return named
    rows: list[dict[str, Any]] = []
    for li, (name, params, _) in enumerate(s.levels):
        reference = [len(e.steps) for (lv, _), e in s.ref_episodes.items() if lv == li]
        weak = [e.score for e in s.episodes if e.li == li and e.policy in WEAK_POLICIES]
        rows.append({"level": name, "params": params,
                     "case_size": median([case_size(json.loads(c)) for c in s.cases[li]]),
                     "turns": mean([float(t) for t in reference]),
                     "weak": mean(weak) if weak else None})
    table = "\n".join(f"{r['level']}: median case size {r['case_size']:.0f}, reference "
                      f"episodes {r['turns']:.2f} turns on average, weak policies "
                      + (f"{r['weak']:.3f}" if r["weak"] is not None else "not played")
                      for r in rows)
    for a, b in itertools.pairwise(rows):
        if a["params"] == b["params"]:
            return result("failed", f"levels {a['level']!r} and {b['level']!r} have identical "
                          "parameters", metrics=table)
        harder = (b["case_size"] >= a["case_size"] * 1.05 and b["case_size"] - a["case_size"] >= 1) \
            or (b["turns"] >= a["turns"] * 1.1 and b["turns"] - a["turns"] >= 0.5) \
            or (a["weak"] is not None and b["weak"] is not None and a["weak"] - b["weak"] >= 0.05)
        if not harder:
            return result("failed", f"level {b['level']!r} is not measurably harder than "
                          f"{a['level']!r} (case size, reference episode length and the weak "
                          "policies' scores did not change)", metrics=table)
    return result("passed", f"{len(rows)} levels, each larger or harder than the one before",
                  metrics=table)


def check_timing(s: EpisodeSuite) -> dict[str, Any]:
    cfg = s.cfg
    lines, problems = [], []
    for (name, _, _), times in zip(s.levels, s.gen_times, strict=False):
        if times:
            lines.append(f"generate {name}: mean {mean(times) * 1000:.1f} ms over {len(times)}")
            if mean(times) > cfg.gen_mean_s:
                problems.append(f"case generation at level {name!r} takes {mean(times):.3f}s "
                                f"per case on average (max {cfg.gen_mean_s:g}s)")
    for label, times in (("reset", s.reset_times), ("step", s.step_times),
                         ("reference_policy", s.policy_times)):
        if not times:
            continue
        avg, top = mean(times), max(times)
        lines.append(f"{label}: mean {avg * 1000:.2f} ms, max {top * 1000:.1f} ms over "
                     f"{len(times)} calls")
        if avg > cfg.step_mean_s or top > cfg.step_max_s:
            problems.append(f"{label} takes {avg * 1000:.1f} ms on average, {top:.2f}s at most "
                            f"(budget {cfg.step_mean_s * 1000:g} ms / {cfg.step_max_s:g}s)")
    if s.too_slow:
        problems.append(f"the {s.too_slow} check ran out of its time budget")
    if problems:
        return result("failed", "; ".join(problems), timings="\n".join(lines))
    return result("passed", "generation, reset, step and reference_policy within budget "
                  "(times measured on the host)", timings="\n".join(lines))


EPISODE_CHECKS: dict[str, Callable[[EpisodeSuite], dict[str, Any]]] = {
    "load": check_load,
    "construct": basics.check_construct,
    "generate": basics.check_generate,
    "determinism": basics.check_determinism,
    "diversity": check_diversity,
    "observation": check_observation,
    "reference_policy": check_reference_policy,
    "unusual_actions": check_unusual_actions,
    "degenerate_policies": check_degenerate_policies,
    "state_purity": check_state_purity,
    "episode_determinism": check_episode_determinism,
    "turn_limit": check_turn_limit,
    "terminal": check_terminal,
    "levels": check_levels,
    "timing": check_timing,
    "episode_consistency": check_episode_consistency,
    "contract": check_contract,
}
