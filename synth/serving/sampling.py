"""Cases drawn from a bootcamp in a sandboxed method server, validated on the host.

Export, ``synth library show``, review and the acceptance filter all need the same thing from a
bootcamp: for a list of ``(level, seed)`` specs, the case each one generates, its prompt and
(sometimes) its reference answer. :class:`CaseSampler` asks the kit's method server
(:mod:`synth.sandbox.kit`, method ``sample``) for them in batches, and trusts nothing it says:

* the handshake must name one class, and its ``LEVELS`` must be a JSON object of parameter
  objects (:func:`levels_from_info`), its ``STRESS`` (when it declares one) a parameter object
  (:func:`stress_from_info`), else :class:`SampleError`;
* each case must be the canonical JSON text of a JSON object, each prompt and answer a ``str``,
  all within :data:`MAX_CASE_CHARS` / :data:`MAX_TEXT_CHARS` (a standard input drawn for a code
  test suite, ``render="stdin"``, within :data:`MAX_STDIN_CHARS`);
* a bootcamp that raises, hangs, runs out of memory or breaks the protocol while drawing is a
  :class:`SampleError` naming the spec (its position, level and seed) and the exception with
  its traceback tail. A failed batch is replayed one spec at a time to find the one at fault.

Multi-turn bootcamps (``reset``, ``step``, ``reference_policy``): :func:`parse_reset`,
:func:`parse_step` and :func:`parse_action` validate those replies for every caller that drives
an episode (the gate, the rollout loop, review): the observation a str (or None once done), the
reward a finite float in [0, 1] (else the finding ``invalid_score``), ``done`` a bool, the state
a plain JSON dict under :data:`MAX_STATE_CHARS`; a malformed reply is an :class:`EpisodeError`.

Nothing of the bootcamp is imported here: the host only ever sees plain JSON values.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from synth.sandbox.base import Backend, Limits, Outcome, SandboxUnavailableError
from synth.sandbox.kit import canonical
from synth.sandbox.methods import MethodServer, Reply, server_limits
from synth.sandbox.pool import WORKER_LIFE, worker_life

__all__ = [
    "DEFAULT_LEVEL",
    "MAX_ACTION_CHARS",
    "MAX_CASE_CHARS",
    "MAX_STATE_CHARS",
    "MAX_STDIN_CHARS",
    "MAX_TEXT_CHARS",
    "STRESS_LEVEL",
    "CaseSampler",
    "EpisodeError",
    "EpisodeStep",
    "Sample",
    "SampleError",
    "levels_from_info",
    "multi_turn_info",
    "parse_action",
    "parse_case",
    "parse_reset",
    "parse_reward",
    "parse_step",
    "stress_from_info",
]

#: The level name that means "the class's default parameters" (no LEVELS preset).
DEFAULT_LEVEL = "default"
MAX_CASE_CHARS = 1_000_000
MAX_TEXT_CHARS = 200_000
#: Largest standard input a case may render for a code test suite (stress inputs are large).
MAX_STDIN_CHARS = 8_000_000
#: The level name of a class's ``STRESS`` preset (code test suites only, never prompts).
STRESS_LEVEL = "stress"
MAX_LEVELS = 64
MAX_LEVEL_NAME = 64
#: Replies of one ``sample`` call may hold this many bytes (larger batches are split).
MAX_REPLY_BYTES = 16_000_000


class SampleError(Exception):
    """The bootcamp could not give a valid case (or did not load). ``position`` is the index of
    the failing spec in the list passed to :meth:`CaseSampler.sample` (None: not one spec)."""

    def __init__(
        self,
        message: str,
        *,
        position: int | None = None,
        level: str | None = None,
        seed: int | None = None,
        outcome: Outcome = Outcome.ERROR,
        traceback: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.level = level
        self.seed = seed
        self.outcome = outcome
        self.traceback = traceback


@dataclass(frozen=True, slots=True)
class Sample:
    """One validated case: ``case_text`` is its canonical JSON (what ``ground_truth`` holds)."""

    level: str
    seed: int
    case_text: str
    prompt: str
    answer: str | None = None
    #: A multi-turn bootcamp's MAX_TURNS (the prompt is the episode's first observation);
    #: None for a single-turn bootcamp.
    max_turns: int | None = None
    #: The case's ``render_stdin`` text when drawn with ``render="stdin"`` (the prompt is then
    #: ``""``: it was not rendered).
    stdin: str | None = None

    @property
    def case(self) -> dict[str, Any]:
        case: dict[str, Any] = json.loads(self.case_text)
        return case


def levels_from_info(info: Any) -> list[str]:
    """The level names of a handshake (the class's ``LEVELS`` order), validated: a JSON object
    of at most :data:`MAX_LEVELS` names, each mapping to an object of parameters. No LEVELS
    gives ``[]``."""
    if type(info) is not dict:
        raise SampleError("the method server's handshake is not an object")
    raw = info.get("levels")
    if raw is None or raw == {}:
        return []
    if type(raw) is not dict:
        raise SampleError(f"LEVELS is not a dict of presets (got {type(raw).__name__})")
    if "__not_plain__" in raw and type(raw["__not_plain__"]) is str:
        raise SampleError(f"LEVELS is not plain JSON: {raw['__not_plain__'][:200]}")
    if len(raw) > MAX_LEVELS:
        raise SampleError(f"LEVELS has {len(raw)} presets (at most {MAX_LEVELS})")
    for name, params in raw.items():
        if not name or len(name) > MAX_LEVEL_NAME or not name.isprintable():
            raise SampleError(f"LEVELS has a bad level name {name[:80]!r}")
        if type(params) is not dict:
            raise SampleError(f"LEVELS[{name!r}] is a {type(params).__name__}, not a dict of parameters")
    return list(raw)


def stress_from_info(info: Any) -> dict[str, Any] | None:
    """The class's ``STRESS`` preset from a handshake, validated: None when it declares none,
    else a JSON object of parameters (like one LEVELS entry)."""
    if type(info) is not dict:
        raise SampleError("the method server's handshake is not an object")
    raw = info.get("stress")
    if raw is None:
        return None
    if type(raw) is not dict:
        raise SampleError(f"STRESS is a {type(raw).__name__}, not a dict of parameters")
    if "__not_plain__" in raw and type(raw["__not_plain__"]) is str:
        raise SampleError(f"STRESS is not plain JSON: {raw['__not_plain__'][:200]}")
    return raw


def parse_case(text: Any, cap: int = MAX_CASE_CHARS) -> dict[str, Any]:
    """The case a ``case`` reply holds: canonical JSON text of an object, at most ``cap``
    characters (a case drawn for a code test suite may be as large as its standard input)."""
    if type(text) is not str:
        raise ValueError(f"the case is a {type(text).__name__}, not JSON text")
    if len(text) > cap:
        raise ValueError(f"the case is {len(text)} characters of JSON (at most {cap})")
    try:
        case = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"the case is not JSON: {exc}") from None
    if type(case) is not dict:
        raise ValueError(f"the case is a JSON {type(case).__name__}, not an object")
    try:
        again = canonical(case)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"the case is not plain JSON: {exc}") from None
    if again != text:
        raise ValueError("the case text is not canonical JSON (sorted keys, no NaN)")
    return case


def _text(value: Any, what: str, cap: int = MAX_TEXT_CHARS) -> str:
    if type(value) is str:
        if len(value) > cap:
            raise ValueError(f"{what} is {len(value)} characters (at most {cap})")
        return value
    if type(value) is dict and "__type__" in value:
        shown = str(value.get("repr", ""))[:200]
        raise ValueError(f"{what} returned a {str(value['__type__'])[:40]}, not a str: {shown}")
    raise ValueError(f"{what} is a {type(value).__name__}, not a str")


def _row(raw: Any, level: str, seed: int, answers: bool, max_turns: int | None = None,
         render: str = "prompt") -> Sample:
    """One reply row as a :class:`Sample`, or ValueError saying what is wrong with it."""
    if type(raw) is not dict:
        raise ValueError("the reply row is not an object")
    case = raw.get("case")
    if type(case) is not dict:
        raise ValueError("the reply row has no case")
    if "problem" in case:
        raise ValueError(
            f"case_generator returned a case that is not plain JSON: {str(case['problem'])[:300]}"
            f" (repr: {str(case.get('repr', ''))[:300]})"
        )
    text = case.get("text")
    parse_case(text, MAX_STDIN_CHARS if render == "stdin" else MAX_CASE_CHARS)
    assert type(text) is str
    stdin = None
    if render == "stdin":
        prompt = ""
        stdin = _text(raw.get("stdin"), "render_stdin", MAX_STDIN_CHARS)
    else:
        prompt = _text(raw.get("prompt"), "prompt_func")
    answer = _text(raw.get("answer"), "reference_answer") if answers else None
    return Sample(level=level, seed=seed, case_text=text, prompt=prompt, answer=answer,
                  max_turns=max_turns, stdin=stdin)


class CaseSampler:
    """One sandboxed method server for one bootcamp's code, drawing validated cases.

    ``code`` is the module source; ``class_name`` (optional) the class the caller expects (the
    handshake must name it). ``call_limit_s`` bounds each bootcamp call (construct, generate,
    prompt, answer) inside the sandbox; the host waits at most ``call_limit_s + per_case_s *
    len(specs)`` for a batch (then the session is killed: a bootcamp that disarms the kit's
    timer still costs a bounded time). Not
    thread-safe; start, use and close it in one thread (bwrap ties a sandbox to the thread
    that started it)."""

    def __init__(
        self,
        code: str,
        *,
        backend: str | Backend = "auto",
        class_name: str = "",
        name: str = "",
        limits: Limits | None = None,
        call_limit_s: float = 10.0,
        per_case_s: float = 2.0,
        label: str = "",
        recycle_after: int | tuple[int, int] | None = None,
    ) -> None:
        self.name = name or "bootcamp"
        self.class_name = class_name
        self.call_limit_s = call_limit_s
        self.per_case_s = per_case_s
        self._server_args: dict[str, Any] = dict(
            backend=backend, class_name=class_name, label=label,
            limits=limits or server_limits(), max_reply_bytes=MAX_REPLY_BYTES)
        self.code = code
        self.server = MethodServer(code, **self._server_args)
        #: cases a server draws before a fresh one replaces it (a random small number for each
        #: server by default, as the scoring workers': "generate honestly for the first N
        #: cases of a process" cannot outlast the gate, whose process draws more)
        self.recycle_after = WORKER_LIFE if recycle_after is None else recycle_after
        self._life = worker_life(self.recycle_after)
        self._drawn = 0
        self.recycled = 0
        self.levels: list[str] = []
        #: the class's STRESS preset (None: it declares none)
        self.stress: dict[str, Any] | None = None
        self.class_found = ""
        #: MAX_TURNS of a multi-turn bootcamp (its prompts are first observations), else None
        self.max_turns: int | None = None

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> CaseSampler:
        """Start the server and validate its handshake (raises :class:`SampleError`)."""
        reply = self.server.start()
        if not reply.ok:
            self.close()
            if reply.outcome is Outcome.SANDBOX_ERROR:
                raise SandboxUnavailableError(f"{self.name}: {reply.error}")
            raise SampleError(f"{self.name} did not load in the sandbox: {reply.error}",
                              outcome=reply.outcome, traceback=reply.traceback)
        info = reply.value
        found = info.get("class")
        if type(found) is not str or not found.isidentifier():
            self.close()
            raise SampleError(f"{self.name}: the handshake names no class")
        if self.class_name and found != self.class_name:
            self.close()
            raise SampleError(f"{self.name}: the module's bootcamp class is {found}, "
                              f"not {self.class_name} as recorded")
        try:
            self.levels = levels_from_info(info)
            self.stress = stress_from_info(info)
        except SampleError as exc:
            self.close()
            raise SampleError(f"{self.name}: {exc.message}") from None
        try:
            declared = multi_turn_info(info)
        except EpisodeError as exc:
            self.close()
            raise SampleError(f"{self.name}: {exc.message}") from None
        self.max_turns = declared[0] if declared is not None else None
        tampered = info.get("tampered")
        if tampered:
            self.close()
            shown = "; ".join(str(t)[:200] for t in tampered[:3]) if type(tampered) is list else "?"
            raise SampleError(f"{self.name} changes the bootcamp contract when imported: {shown}")
        self.class_found = found
        return self

    def close(self) -> None:
        self.server.close()

    def _recycle(self) -> None:
        """Replace the server by a fresh one (its handshake validated again)."""
        self.server.close()
        self.server = MethodServer(self.code, **self._server_args)
        self.start()
        self._life, self._drawn = worker_life(self.recycle_after), 0
        self.recycled += 1

    def __enter__(self) -> CaseSampler:
        if not self.server.alive:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def info(self) -> dict[str, Any]:
        return self.server.info

    # -- drawing --------------------------------------------------------------------------------
    def level_params(self, level: str, stress: bool = False, derived: bool = False) -> str:
        """``level`` checked against the handshake's levels (``default``: no preset; with
        ``stress``, :data:`STRESS_LEVEL` names the class's STRESS preset, or with ``derived``
        the caller's own)."""
        if stress and level == STRESS_LEVEL and (self.stress is not None or derived) \
                and STRESS_LEVEL not in self.levels:
            return level
        if level != DEFAULT_LEVEL and level not in self.levels:
            known = ", ".join(self.levels) or "(none)"
            raise KeyError(f"{self.class_found or self.name} has no level {level!r}; levels: {known}")
        return level

    def sample(self, specs: Sequence[tuple[str, int]], answers: bool = False,
               render: str = "prompt", stress: dict[str, Any] | None = None) -> list[Sample]:
        """One validated :class:`Sample` per ``(level, seed)`` spec, in order. With
        ``render="stdin"`` each sample holds the case's ``render_stdin`` text instead of its
        prompt, and the level :data:`STRESS_LEVEL` draws from the class's STRESS preset (a code
        test suite's draw: :mod:`synth.suites.draw`), or from ``stress`` when the class
        declares none (a derived preset, :mod:`synth.suites.stress`)."""
        if not specs:
            return []
        if stress is not None and (render != "stdin" or self.stress is not None):
            raise ValueError("a stress preset is given only for stdin draws of a class "
                             "without STRESS")
        if self._drawn >= self._life:
            self._recycle()
        room = self._life - self._drawn
        if len(specs) > room:
            return self.sample(specs[:room], answers, render, stress) + self._shifted(
                specs[room:], answers, room, render, stress)
        self._drawn += len(specs)
        for level, _ in specs:
            self.level_params(level, stress=render == "stdin", derived=stress is not None)
        reply = self._call(specs, answers, render, stress)
        if reply.ok:
            return self._rows(reply.value, specs, answers, offset=0, render=render)
        if reply.outcome is Outcome.OUTPUT_OVERFLOW and len(specs) > 1:
            half = len(specs) // 2
            return self.sample(specs[:half], answers, render, stress) + self._shifted(
                specs[half:], answers, half, render, stress)
        if len(specs) > 1 and reply.outcome is not Outcome.SANDBOX_ERROR:
            self._locate(specs, answers, reply, render, stress)
        raise self._error(reply, None, specs)

    def _shifted(self, specs: Sequence[tuple[str, int]], answers: bool, offset: int,
                 render: str = "prompt", stress: dict[str, Any] | None = None) -> list[Sample]:
        try:
            return self.sample(specs, answers, render, stress)
        except SampleError as exc:
            if exc.position is not None:
                exc.position += offset
            raise

    def _call(self, specs: Sequence[tuple[str, int]], answers: bool,
              render: str = "prompt", stress: dict[str, Any] | None = None) -> Reply:
        if not self.server.alive:
            self.start()
        params: dict[str, Any] = {"specs": [[lvl, seed] for lvl, seed in specs],
                                  "answers": answers, "limit": self.call_limit_s}
        if render != "prompt":
            params["render"] = render
        if stress is not None:
            params["stress"] = stress
        budget = self.call_limit_s + self.per_case_s * len(specs)
        return self.server.call("sample", params, timeout_s=budget)

    def _rows(self, value: Any, specs: Sequence[tuple[str, int]], answers: bool,
              offset: int, render: str = "prompt") -> list[Sample]:
        if type(value) is not list or len(value) != len(specs):
            raise SampleError(f"{self.name}: the method server returned "
                              f"{len(value) if type(value) is list else 'no'} rows for {len(specs)} specs")
        rows = []
        for i, (raw, (level, seed)) in enumerate(zip(value, specs, strict=True)):
            try:
                rows.append(_row(raw, level, seed, answers, self.max_turns, render))
            except ValueError as exc:
                raise SampleError(str(exc), position=offset + i, level=level, seed=seed) from None
        return rows

    def _locate(self, specs: Sequence[tuple[str, int]], answers: bool, first: Reply,
                render: str = "prompt", stress: dict[str, Any] | None = None) -> None:
        """Replay a failed batch one spec at a time and raise for the first spec that fails."""
        for i, spec in enumerate(specs):
            reply = self._call([spec], answers, render, stress)
            if reply.outcome is Outcome.SANDBOX_ERROR:
                raise self._error(reply, None, specs)
            if not reply.ok:
                raise self._error(reply, i, specs)
            self._rows(reply.value, [spec], answers, offset=i, render=render)

    def _error(self, reply: Reply, position: int | None, specs: Sequence[tuple[str, int]]) -> SampleError:
        what = reply.error or reply.outcome.value
        if reply.outcome is Outcome.SANDBOX_ERROR:
            return SampleError(f"{self.name}: the sandbox failed: {what}",
                               outcome=reply.outcome, traceback=reply.traceback)
        level, seed = specs[position] if position is not None else (None, None)
        if reply.kind == "usage":
            what = f"the method server refused the request: {what}"
        elif reply.outcome is Outcome.TIMEOUT:
            what = f"timed out: {what}"
        elif reply.outcome is Outcome.OOM:
            what = f"ran out of memory: {what}"
        return SampleError(what, position=position, level=level, seed=seed,
                           outcome=reply.outcome, traceback=reply.traceback)


# ------------------------------------------------------------------------------------------
# Multi-turn bootcamps: the replies of reset, step and reference_policy, validated here
# ------------------------------------------------------------------------------------------

#: Largest episode state (characters of canonical JSON) a reset or step may return.
MAX_STATE_CHARS = 200_000
#: Largest action the reference policy may return.
MAX_ACTION_CHARS = 20_000
#: Keys of a step's result besides ``reward`` (``info``: optional, a JSON object).
STEP_KEYS = frozenset({"observation", "done", "state"})
MAX_INFO_CHARS = 20_000


class EpisodeError(ValueError):
    """A reply of a multi-turn bootcamp that breaks the contract: ``finding`` names the kind
    (``invalid_score`` for a reward that is not a finite float in [0, 1]), ``artifacts`` hold
    the evidence (the value as it came)."""

    def __init__(self, message: str, *, finding: str = "", **artifacts: str) -> None:
        super().__init__(message)
        self.message = message
        self.finding = finding
        self.artifacts = artifacts


@dataclass(frozen=True, slots=True)
class EpisodeStep:
    """One validated ``step`` (or ``reset``: reward 0.0, not done) reply. ``state_text`` is the
    state's canonical JSON, what the gate compares."""

    observation: str | None
    reward: float
    done: bool
    state: dict[str, Any]
    state_text: str

    def plain(self) -> dict[str, Any]:
        return {"observation": self.observation, "reward": self.reward, "done": self.done,
                "state": self.state}


def multi_turn_info(info: Any) -> tuple[int, list[str]] | None:
    """``(MAX_TURNS, ENGINES)`` of a multi-turn bootcamp's handshake, validated; None for a
    single-turn one. Raises :class:`EpisodeError` when the declaration is malformed."""
    if type(info) is not dict or info.get("multi_turn") is not True:
        return None
    turns, engines = info.get("max_turns"), info.get("engines")
    if type(turns) is not int or not 0 < turns <= 1000:
        raise EpisodeError(f"MAX_TURNS must be an int in 1..1000, not {str(turns)[:80]}")
    if type(engines) is not list or not all(type(e) is str and 0 < len(e) <= 64 for e in engines):
        raise EpisodeError(f"ENGINES must be a tuple of engine names, not {str(engines)[:80]}")
    return turns, list(engines)


def _state(value: Any, what: str) -> tuple[dict[str, Any], str]:
    if type(value) is not dict:
        raise EpisodeError(f"{what} has no state")
    if "state_problem" in value:
        raise EpisodeError(f"{what} returned a state that is not a plain JSON dict: "
                           f"{str(value['state_problem'])[:300]}",
                           state=str(value.get("state_repr", ""))[:2000])
    state = value.get("state")
    if type(state) is not dict:
        raise EpisodeError(f"{what} returned no state dict")
    try:
        text = canonical(state)
    except (TypeError, ValueError, RecursionError) as exc:
        raise EpisodeError(f"{what} returned a state that is not plain JSON: {exc}") from None
    if len(text) > MAX_STATE_CHARS:
        raise EpisodeError(f"{what} returned a state of {len(text)} characters of JSON (at most "
                           f"{MAX_STATE_CHARS}): keep the state small", state=text[:2000])
    return state, text


def parse_reset(value: Any) -> EpisodeStep:
    """A ``reset`` reply: the first observation (a non-empty str) and the initial state."""
    if type(value) is not dict:
        raise EpisodeError("reset's reply is not an object")
    if "problem" in value:
        raise EpisodeError(str(value["problem"])[:300], value=str(value.get("repr", ""))[:2000])
    observation = _text(value.get("observation"), "reset's observation")
    if not observation.strip():
        raise EpisodeError("reset returned an empty observation (the first prompt)")
    state, text = _state(value, "reset")
    return EpisodeStep(observation, 0.0, False, state, text)


def parse_reward(value: Any, what: str = "step") -> float:
    """A reward as the kit sends it: a finite float in [0, 1], else ``invalid_score``."""
    if type(value) is int and value in (0, 1):
        value = float(value)
    if type(value) is float and 0.0 <= value <= 1.0:
        return value
    if type(value) is dict and "__type__" in value:
        shown = f"a {str(value['__type__'])[:40]} ({str(value.get('repr', ''))[:100]})"
    else:
        shown = str(value)[:100]
    raise EpisodeError(f"{what} returned the reward {shown}, not a finite float in [0, 1]",
                       finding="invalid_score", value=shown)


def parse_step(value: Any) -> EpisodeStep:
    """A ``step`` reply: ``{"observation": str | None, "reward": float in [0, 1], "done":
    bool, "state": dict}`` (and an optional ``info`` object); a step that is not done must
    give the next observation."""
    if type(value) is not dict:
        raise EpisodeError("step's reply is not an object")
    if "problem" in value:
        raise EpisodeError(f"step returned a result that is not plain JSON: "
                           f"{str(value['problem'])[:300]}", value=str(value.get("repr", ""))[:2000])
    result = value.get("result")
    if type(result) is not dict:
        raise EpisodeError("step's reply has no result")
    keys = set(result) - {"info"}
    if keys != STEP_KEYS:
        missing, extra = sorted(STEP_KEYS - keys), sorted(keys - STEP_KEYS)
        raise EpisodeError("step must return a dict of observation, reward, done and state"
                           + (f"; missing {missing}" if missing else "")
                           + (f"; unknown keys {[k[:40] for k in extra[:5]]}" if extra else ""))
    if "info" in result and (type(result["info"]) is not dict
                             or len(canonical(result["info"])) > MAX_INFO_CHARS):
        raise EpisodeError(f"step's info must be a JSON object of at most {MAX_INFO_CHARS} chars")
    reward = parse_reward(value.get("reward"))
    done = result["done"]
    if type(done) is not bool:
        raise EpisodeError(f"step returned done={str(done)[:40]} (a {type(done).__name__}), not "
                           "a bool")
    observation = result["observation"]
    if observation is not None:
        observation = _text(observation, "step's observation")
    if not done and not (observation or "").strip():
        raise EpisodeError("step returned no observation for an episode that is not done (the "
                           "model needs the next prompt)")
    state, text = _state(result, "step")
    return EpisodeStep(observation, reward, done, state, text)


def parse_action(value: Any) -> str:
    """A ``reference_policy`` reply: the action, a str of at most :data:`MAX_ACTION_CHARS`."""
    if type(value) is dict and "__type__" in value:
        raise EpisodeError(f"reference_policy returned a {str(value['__type__'])[:40]}, not a "
                           f"str: {str(value.get('repr', ''))[:200]}")
    if type(value) is not str:
        raise EpisodeError(f"reference_policy returned a {type(value).__name__}, not a str")
    if len(value) > MAX_ACTION_CHARS:
        raise EpisodeError(f"reference_policy returned an action of {len(value)} characters "
                           f"(at most {MAX_ACTION_CHARS})")
    return value
