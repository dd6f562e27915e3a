"""RL reward functions over the library, with verl's custom-reward signature.

In a verl 0.9.1 config (the whole recipe: ``docs/recipes/verl_reward.yaml``)::

    reward:
      custom_reward_function:
        path: pkg://synth.training.reward   # or this file's path
        name: compute_score

(verl 0.9.1's trainer reads ``reward.custom_reward_function``; a top-level
``custom_reward_function``, where older verl versions read it, is ignored.)

``data_source`` is ``"bootcamp/<name>"`` and ``ground_truth`` the JSON identity written by
``synth export``.

Where the bootcamp runs: :func:`compute_score` (and :func:`make_compute_score` by default)
scores in the sandbox's warm worker pool (:class:`synth.sandbox.pool.WorkerPool`, one pool per
bootcamp, started on first use and closed at exit). The trainer's process never imports the
library's code: a bootcamp cannot read the trainer's environment or API keys, patch the
contract for the other bootcamps, or stall the trainer (a verifier that hangs costs
``call_timeout_s``). Scoring in this process is an explicit opt-in,
``make_compute_score(library, trust_library_code=True)``: "I trust this library's code".

Model output can never make the reward raise: garbage scores 0.0. A bootcamp whose verifier
raises, hangs, runs out of memory or returns something that is not a score in [0, 1] on some
output is a defect of the library, not of the model, so it is not hidden either: the failure is
logged with its evidence and the response head, counted in :data:`FINDINGS`, and the row scores
0.0. A multi-turn bootcamp's row (``MultiTurnBootcamp``; ``extra_info.multi_turn`` in the export)
is scored as a whole episode: ``solution_str`` is the decoded conversation after the prompt --
the model's turns with the environment's observations between them, as a trainer's multi-turn
rollout writes it -- or a single turn. The episode is replayed from the identity in a sandboxed
method server (:func:`synth.serving.rollout.replay_transcript`: each turn's action is its last answer,
turns split where the observation the replayed step produced appears), and the score is the
reward of the last step replayed. A single response is therefore scored as the episode's first
move (the score so far, usually 0 for a game not yet won), never as if it had finished the game.
A step that breaks the contract on a replayed action is a finding, like a raising verifier.

The sandboxed reward audits itself: at random points it sends its own scoring workers a
row's reference answer and a corrupted one, shaped as model responses (an episode's reference
transcript and a corrupted one, for a multi-turn row), and a bootcamp that scores them wrongly
is quarantined: its later rows score 0.0 as findings and its library record is marked
(:mod:`synth.training.canary`, ``docs/production.md``).

Code rows (``data_source`` ``"code/<name>"``, ``synth export --format code``: the answer is a
program, the ground truth a test suite) are scored by :mod:`synth.training.code_reward`: the
program runs in a warm pool of sandboxed program runners against the suite's tests, and a suite
judged by the bootcamp's ``check_output`` asks the bootcamp's sandboxed worker pool here (its
canaries and quarantine included). All-or-nothing by default; ``fraction=True`` (an argument of
:func:`compute_score`, e.g. verl's ``reward_kwargs``, or of :func:`make_compute_score`) scores
the share of tests passed.

Broken *data* (an unknown data source, a ground truth that is not a JSON object, a module
that no longer matches the manifest) raises :class:`RewardDataError` naming it, because that is
the trainer's pipeline being wrong; a sandbox that cannot run at all raises
:class:`RewardSandboxError` (the machine, not the model or the library).
"""

from __future__ import annotations

import atexit
import json
import logging
import math
import queue
import re
import threading
import traceback
import weakref
from pathlib import Path
from typing import Any

from synth.bootcamp import BaseBootcamp, MultiTurnBootcamp
from synth.library import Library, LibraryError
from synth.sandbox.kit import json_problem
from synth.text.utf8 import describe, encodable, find_unencodable
from synth.training.canary import (
    CANARY_RATE,
    AnswerProbe,
    Auditor,
    EpisodeProbe,
    Quarantine,
    Scored,
)
from synth.training.reward_errors import FINDINGS, RewardDataError, RewardSandboxError

PREFIX = "bootcamp/"
CODE_PREFIX = "code/"  # code rows: synth.training.code_reward
log = logging.getLogger("synth.training.reward")

def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is not a finite number")
    return value


#: a JSON escape of a surrogate code point
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Reward:
    """What both reward functions share: one library folder, the checks of a row's data, and
    the code reward that code rows go to."""

    def __init__(self, library: Path | str | None = None, *, runners: int = 2,
                 fraction: bool = False, runner_backend: str = "auto") -> None:
        self.library = Library(library) if library is not None else Library()
        self.runners, self.fraction, self.runner_backend = runners, fraction, runner_backend
        self._code: Any = None
        self._code_lock = threading.Lock()

    def _code_reward(self) -> Any:
        """The :class:`synth.training.code_reward.CodeReward` of code rows (made on first use)."""
        if self._code is None:
            from synth.training.code_reward import CodeReward

            with self._code_lock:
                if self._code is None:
                    self._code = CodeReward(
                        self.library, judge=self._code_judge, refused=self._code_refused,
                        on_judged=self._code_judged, size=self.runners,
                        backend=self.runner_backend, fraction=self.fraction)
        return self._code

    def _code_score(self, data_source: str, solution_str: Any, ground_truth: Any,
                    extra_info: dict[str, Any] | None, fraction: bool | None) -> float:
        return float(self._code_reward()(data_source, solution_str, ground_truth, extra_info,
                                         fraction=fraction))

    def _code_judge(self, name: str, response: str, identity: dict[str, Any]) -> float:
        raise NotImplementedError

    def _code_refused(self, name: str) -> bool:
        return False

    def _code_judged(self, name: str, identity: dict[str, Any]) -> None:
        """A check_output call on ``identity`` was made for a code row (canaries may follow)."""

    def _close_code(self) -> None:
        with self._code_lock:
            code, self._code = self._code, None
        if code is not None:
            code.close()

    @staticmethod
    def _name(data_source: Any) -> str:
        if not isinstance(data_source, str) or not data_source.startswith(PREFIX):
            raise RewardDataError(
                f"data_source {data_source!r} is not a bootcamp data source "
                f"(expected '{PREFIX}<name>', as written by `synth export`)"
            )
        return data_source[len(PREFIX) :]

    @staticmethod
    def _identity(data_source: str, ground_truth: Any) -> dict[str, Any]:
        """The row's identity: a JSON object as ``synth export`` writes it (any nesting depth
        and NaN/Infinity, which export never writes, are :class:`RewardDataError`)."""
        if isinstance(ground_truth, str):
            try:
                identity = json.loads(ground_truth, parse_constant=_no_constant,
                                      parse_float=_finite)
            except (ValueError, RecursionError) as exc:
                why = "nested too deeply" if isinstance(exc, RecursionError) else exc
                raise RewardDataError(
                    f"ground_truth for {data_source!r} is not JSON ({why}): {ground_truth[:80]!r}"
                ) from None
        else:
            identity = ground_truth
        if not isinstance(identity, dict):
            raise RewardDataError(f"ground_truth for {data_source!r} is not a JSON object")
        problem: str | None = None
        if not isinstance(ground_truth, str):
            try:
                json.dumps(identity, allow_nan=False)
            except (TypeError, ValueError) as exc:
                problem = str(exc)
            except RecursionError:
                problem = "nested too deeply"
        elif ground_truth.count("[") + ground_truth.count("{") > 100 or len(ground_truth) > 3000:
            # exact JSON types: the kit's rule for a case (no deeper than it nests one, no
            # larger int); the walk is depth-capped: never a RecursionError
            problem = json_problem(identity, "ground_truth")
        if problem is None and (not isinstance(ground_truth, str) or not encodable(ground_truth)
                                or _SURROGATE_ESCAPE.search(ground_truth)):
            # text no UTF-8 writer takes (a JSON "\ud800" escape, a lone surrogate)
            problem = next((describe(p, "ground_truth") for p in find_unencodable(identity, 1)),
                           None)
        if problem is not None:
            raise RewardDataError(f"ground_truth for {data_source!r} is not plain JSON: "
                                  f"{problem[-300:]}")
        return identity


class RewardFunction(_Reward):
    """``compute_score`` over one library folder, scored in sandboxed warm worker pools.

    ``size`` workers per bootcamp, on ``backend`` (``auto``: the strongest available), each
    ``verify_score`` call bounded by ``call_timeout_s``. Code rows run on ``runners`` sandboxed
    program runners (same backend), all-or-nothing unless ``fraction``. Thread-safe.
    :meth:`close` stops the workers and runners (they are also stopped at interpreter exit).

    Canaries (:mod:`synth.training.canary`): ``canary_rate`` canaries per real call on average, at
    random points (0 turns them off). A bootcamp whose canary fails is quarantined:
    :attr:`quarantined` holds the evidence, its library record's status becomes
    ``quarantined`` (said in the log when the library cannot be written), and its later rows
    score 0.0 and count in :data:`FINDINGS`. :meth:`settle` waits for the canaries sent."""

    def __init__(
        self,
        library: Path | str | None = None,
        *,
        size: int = 1,
        backend: str = "auto",
        call_timeout_s: float = 5.0,
        canary_rate: float = CANARY_RATE,
        runners: int = 2,
        fraction: bool = False,
    ) -> None:
        super().__init__(library, runners=runners, fraction=fraction, runner_backend=backend)
        self.size = size
        self.backend = backend
        self.call_timeout_s = call_timeout_s
        self._pools: dict[str, Any] = {}
        self._episodes: dict[str, _EnvPool | None] = {}
        self._lock = threading.Lock()
        #: bootcamp name -> why its canaries quarantined it
        self.quarantined: dict[str, Quarantine] = {}
        self._auditor = Auditor(canary_rate, self._quarantine)

    def _pool(self, data_source: str) -> Any:
        pool = self._pools.get(data_source)
        if pool is not None:
            return pool
        from synth.sandbox.base import SandboxUnavailableError
        from synth.sandbox.pool import WorkerPool

        name = self._name(data_source)
        with self._lock:
            pool = self._pools.get(data_source)
            if pool is None:
                try:  # hash-checked against the manifest; never imported here
                    rec, code = self.library.checked_code(name)
                except LibraryError as exc:
                    raise RewardDataError(f"data_source {data_source!r}: {exc}") from exc
                try:
                    pool = WorkerPool(code, size=self.size, backend=self.backend,
                                      call_timeout_s=self.call_timeout_s, class_name=rec.class_name,
                                      label="synth-reward-worker")
                except (SandboxUnavailableError, ValueError) as exc:
                    raise RewardSandboxError(f"cannot score {data_source!r} in the sandbox: {exc}") from exc
                self._pools[data_source] = pool
                self._auditor.watch(data_source, name, lambda: AnswerProbe(
                    code, name=name, class_name=rec.class_name, backend=self.backend,
                    call_timeout_s=self.call_timeout_s, verify=lambda r, i: _scored(pool, r, i)))
        return pool

    def _episode_pool(self, data_source: str) -> _EnvPool | None:
        """The sandboxed environments of a multi-turn bootcamp (None for a single-turn one)."""
        if data_source in self._episodes:
            return self._episodes[data_source]
        from synth.gate.episodes import declares_multi_turn

        name = self._name(data_source)
        with self._lock:
            if data_source not in self._episodes:
                try:
                    rec, code = self.library.checked_code(name)
                except LibraryError as exc:
                    raise RewardDataError(f"data_source {data_source!r}: {exc}") from exc
                envs = _EnvPool(code, name, rec.class_name, self.size, self.backend,
                                self.call_timeout_s) if declares_multi_turn(code) else None
                self._episodes[data_source] = envs
                if envs is not None:
                    self._auditor.watch(data_source, name, lambda: EpisodeProbe(
                        code, name=name, class_name=rec.class_name, backend=self.backend,
                        step_limit_s=self.call_timeout_s, replay=envs.replay))
        return self._episodes[data_source]

    def __call__(
        self,
        data_source: str,
        solution_str: Any,
        ground_truth: str | dict[str, Any],
        extra_info: dict[str, Any] | None = None,
        *,
        fraction: bool | None = None,
    ) -> float:
        if isinstance(data_source, str) and data_source.startswith(CODE_PREFIX):
            return self._code_score(data_source, solution_str, ground_truth, extra_info, fraction)
        episodes = self._episode_pool(data_source)
        pool = self._pool(data_source) if episodes is None else None
        identity = self._identity(data_source, ground_truth)
        name = data_source[len(PREFIX) :]
        if name in self.quarantined:
            return self._refuse(name)
        if not isinstance(solution_str, str):
            return 0.0
        if episodes is not None:
            score = episodes.score(data_source, identity, solution_str)
        else:
            assert pool is not None
            score = self._verify(pool, data_source, name, solution_str, identity)
        self._auditor.offer(data_source, identity)  # after the real call: its score is its own
        return score

    def _verify(self, pool: Any, data_source: str, name: str, solution_str: str,
                identity: dict[str, Any]) -> float:
        result = pool.verify(solution_str, identity)
        if result.outcome.value == "passed" and result.score is not None:
            return float(result.score)
        if result.outcome.value == "sandbox_error":
            raise RewardSandboxError(f"cannot score {data_source!r} in the sandbox: {result.error}")
        FINDINGS[name] += 1
        log.error(
            "bootcamp %s: verify_score ended with %s%s on a model response (%d so far): %s\n"
            "response head: %r\n%s",
            data_source, result.outcome.value, f" ({result.kind})" if result.kind else "",
            FINDINGS[name], result.error, solution_str[:200], result.traceback[-1500:],
        )
        return 0.0

    def _code_judge(self, name: str, response: str, identity: dict[str, Any]) -> float:
        """A code row's check_output: the bootcamp's verify_score in its sandboxed pool."""
        from synth.training.code_reward import JudgeFailure

        data_source = PREFIX + name
        result = self._pool(data_source).verify(response, identity)
        if result.outcome.value == "passed" and result.score is not None:
            return float(result.score)
        if result.outcome.value == "sandbox_error":
            raise RewardSandboxError(f"cannot score {data_source!r} in the sandbox: {result.error}")
        raise JudgeFailure(f"verify_score ended with {result.outcome.value}"
                           f"{f' ({result.kind})' if result.kind else ''}: {result.error}\n"
                           f"response head: {response[:200]!r}\n{result.traceback[-1500:]}")

    def _code_refused(self, name: str) -> bool:
        if name not in self.quarantined:
            return False
        self._refuse(name)
        return True

    def _code_judged(self, name: str, identity: dict[str, Any]) -> None:
        self._auditor.offer(PREFIX + name, identity)

    def _quarantine(self, data_source: str, found: Quarantine) -> None:
        """A canary failed (in the canary thread): refuse the bootcamp from now on, mark its
        library record, and say so once."""
        name = found.bootcamp
        self.quarantined[name] = found
        FINDINGS[name] += 1
        try:
            self.library.set_status(name, "quarantined", found.reason[:2000])
            found.record = f"its library record in {self.library.root} now has status 'quarantined'"
        except Exception as exc:  # a read-only library: the quarantine holds in this process
            found.record = (f"its library record in {self.library.root} could NOT be marked "
                            f"quarantined ({type(exc).__name__}: {str(exc)[:200]}): the "
                            "quarantine holds in this process only")
        log.error("%s", found.message(), extra={"synth_quarantine": name})

    def _refuse(self, name: str) -> float:
        """A row of a quarantined bootcamp: 0.0 and a finding (logged at the first and then at
        every 1000th, so that the trainer's log is not flooded)."""
        found = self.quarantined[name]
        FINDINGS[name] += 1
        found.refused += 1
        if found.refused == 1 or found.refused % 1000 == 0:
            log.error("bootcamp %s is quarantined (%s; expected %s, got %s): %d of its rows "
                      "scored 0.0 so far", PREFIX + name, found.finding, found.expected,
                      found.got, found.refused, extra={"synth_quarantine": name})
        return 0.0

    def refuses(self, data_source: str) -> Quarantine | None:
        """The quarantine of ``data_source``'s bootcamp, if its canaries failed."""
        return self.quarantined.get(str(data_source)[len(PREFIX):])

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until the canaries sent so far are judged (False: ``timeout_s`` ran out)."""
        return self._auditor.settle(timeout_s)

    def close(self) -> None:
        self._close_code()
        self._auditor.close()
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
            envs, self._episodes = [e for e in self._episodes.values() if e], {}
        for pool in pools:
            pool.close()
        for env in envs:
            env.close()


def _scored(pool: Any, response: str, identity: dict[str, Any]) -> Scored:
    """A canary scored by the reward's own pool call."""
    result = pool.verify(response, identity)
    if result.outcome.value == "passed" and result.score is not None:
        return Scored(float(result.score))
    return Scored(None, result.outcome, result.error)


def _finding(data_source: str, what: str, solution_str: str) -> float:
    """Count and log a bootcamp's failure on a model response; the row scores 0.0."""
    name = data_source[len(PREFIX) :]
    FINDINGS[name] += 1
    log.error("bootcamp %s: %s (%d so far)\nresponse head: %r", data_source, what, FINDINGS[name],
              solution_str[:200])
    return 0.0


class _EnvPool:
    """Sandboxed environments of one multi-turn bootcamp (:class:`synth.serving.rollout.EpisodeEnv`,
    up to ``size``, started on first use; one episode replay at a time each)."""

    def __init__(self, code: str, name: str, class_name: str, size: int, backend: str,
                 call_timeout_s: float) -> None:
        self.code, self.name, self.class_name, self.backend = code, name, class_name, backend
        self.step_limit_s = call_timeout_s  # grown by a declared engine's factor in EpisodeEnv
        self.size = max(1, size)
        self.free: queue.Queue[Any] = queue.Queue()
        self.made: list[Any] = []
        self.lock = threading.Lock()
        _LIVE_ENV_POOLS.add(self)

    def _take(self) -> Any:
        try:
            return self.free.get_nowait()
        except queue.Empty:
            pass
        with self.lock:
            if len(self.made) < self.size:
                from synth.serving.rollout import EpisodeEnv

                env = EpisodeEnv(self.code, name=self.name, class_name=self.class_name,
                                 backend=self.backend, step_limit_s=self.step_limit_s)
                self.made.append(env)
                return env
        return self.free.get()

    def replay(self, identity: dict[str, Any], text: str) -> float:
        """The score of the episode ``text`` writes (raises as :func:`score_transcript`)."""
        from synth.serving.rollout import score_transcript

        env = self._take()
        try:
            score, _ = score_transcript(env, identity, text)
        finally:
            self.free.put(env)
        return score

    def score(self, data_source: str, identity: dict[str, Any], solution_str: str) -> float:
        from synth.sandbox.base import SandboxUnavailableError
        from synth.serving.rollout import RolloutError

        try:
            return self.replay(identity, solution_str)
        except SandboxUnavailableError as exc:
            raise RewardSandboxError(f"cannot score {data_source!r} in the sandbox: {exc}") from exc
        except RolloutError as exc:
            return _finding(data_source, f"the episode replay broke the contract: {exc}",
                            solution_str)

    def close(self) -> None:
        with self.lock:
            made, self.made = self.made, []
        for env in made:
            env.close()
        _LIVE_ENV_POOLS.discard(self)


_LIVE_ENV_POOLS: weakref.WeakSet[_EnvPool] = weakref.WeakSet()


@atexit.register
def _close_env_pools() -> None:
    for pool in list(_LIVE_ENV_POOLS):
        pool.close()


class TrustedRewardFunction(_Reward):
    """``compute_score`` that imports the library's bootcamps INTO THIS PROCESS.

    Only for a library whose code you trust (see :meth:`synth.library.Library.load_bootcamp`
    for what that means: the modules run with this process's privileges, environment and API
    keys, and one of them can change every bootcamp's scores). Classes are loaded once per
    process (hash-checked) and cached. A verifier that hangs hangs the caller."""

    def __init__(self, library: Path | str | None = None, *, runners: int = 2,
                 fraction: bool = False, runner_backend: str = "auto") -> None:
        super().__init__(library, runners=runners, fraction=fraction,
                         runner_backend=runner_backend)
        self._classes: dict[str, type[BaseBootcamp]] = {}

    def _code_judge(self, name: str, response: str, identity: dict[str, Any]) -> float:
        """A code row's check_output, in this process (the library is trusted; the program
        never runs here: it ran in the sandbox)."""
        from synth.training.code_reward import JudgeFailure

        cls = self.bootcamp(PREFIX + name)
        try:
            return float(cls.verify_score(response, identity))
        except Exception as exc:  # a library defect: a finding
            raise JudgeFailure(f"verify_score raised {type(exc).__name__}: {exc}\n"
                               f"response head: {response[:200]!r}") from exc

    def bootcamp(self, data_source: str) -> type[BaseBootcamp]:
        name = self._name(data_source)
        cls = self._classes.get(name)
        if cls is None:
            try:
                cls = self.library.load_bootcamp(name)
            except LibraryError as exc:
                raise RewardDataError(f"data_source {data_source!r}: {exc}") from exc
            self._classes[name] = cls
        return cls

    def __call__(
        self,
        data_source: str,
        solution_str: Any,
        ground_truth: str | dict[str, Any],
        extra_info: dict[str, Any] | None = None,
        *,
        fraction: bool | None = None,
    ) -> float:
        if isinstance(data_source, str) and data_source.startswith(CODE_PREFIX):
            return self._code_score(data_source, solution_str, ground_truth, extra_info, fraction)
        cls = self.bootcamp(data_source)
        identity = self._identity(data_source, ground_truth)
        if not isinstance(solution_str, str):
            return 0.0
        if issubclass(cls, MultiTurnBootcamp):
            return _trusted_episode(cls, data_source, identity, solution_str)
        try:
            score = float(cls.verify_score(solution_str, identity))
        except Exception as exc:  # a library defect: report it loudly, never crash training
            name = data_source[len(PREFIX) :]
            FINDINGS[name] += 1
            log.error(
                "bootcamp %s raised on a model response (%d so far): %s\nresponse head: %r\n%s",
                data_source,
                FINDINGS[name],
                exc,
                solution_str[:200],
                "".join(traceback.format_exception(exc)[-3:]),
            )
            return 0.0
        return score

    def settle(self, timeout_s: float = 60.0) -> bool:
        """No canaries here (the code is trusted): nothing to wait for."""
        return True

    def close(self) -> None:
        """Stops the program runners of code rows (same interface as :class:`RewardFunction`)."""
        self._close_code()


def _trusted_episode(cls: type[MultiTurnBootcamp], data_source: str, identity: dict[str, Any],
                     solution_str: str) -> float:
    """A multi-turn row replayed in this process (trusted code): every reply validated as the
    sandboxed path validates it; the state copied through JSON between steps."""
    from synth.sandbox.kit import canonical
    from synth.serving.rollout import RolloutError, replay_transcript
    from synth.serving.sampling import EpisodeStep, parse_step

    def plain(value: Any) -> Any:
        return json.loads(json.dumps(value, allow_nan=False))

    def reset() -> EpisodeStep:
        observation, state = cls.reset(plain(identity))
        if not isinstance(observation, str) or type(state) is not dict:
            raise RolloutError(f"{cls.__name__}.reset returned no (observation, state dict)")
        state = plain(state)
        return EpisodeStep(observation, 0.0, False, state, canonical(state))

    def step(state: dict[str, Any], action: str, turn: int) -> EpisodeStep:
        reply = cls.step(plain(state), action)
        if type(reply) is not dict:
            raise RolloutError(f"{cls.__name__}.step (turn {turn}) returned no dict")
        reward = reply.get("reward")
        if type(reward) not in (int, float):
            reward = {"__type__": type(reward).__name__ if "reward" in reply else "missing",
                      "repr": repr(reward)[:100]}
        try:
            rest = plain({k: v for k, v in reply.items() if k != "reward"})
            return parse_step({"result": rest, "reward": reward})
        except (TypeError, ValueError) as exc:
            raise RolloutError(f"{cls.__name__}.step (turn {turn}) broke the contract: {exc}") from None

    try:
        score, _ = replay_transcript(reset, step, cls.MAX_TURNS, solution_str)
    except Exception as exc:  # a library defect: report it loudly, never crash training
        return _finding(data_source, f"the episode replay raised: {type(exc).__name__}: {exc}\n"
                        + "".join(traceback.format_exception(exc)[-3:]), solution_str)
    return score


_DEFAULT: RewardFunction | None = None
_DEFAULT_LOCK = threading.Lock()


def compute_score(
    data_source: str,
    solution_str: Any,
    ground_truth: str | dict[str, Any],
    extra_info: dict[str, Any] | None = None,
    *,
    fraction: bool | None = None,
) -> float:
    """verl custom reward: the shipped library bootcamp's ``verify_score`` of ``solution_str``,
    computed in the sandbox's warm worker pool; for a code row (``code/<name>``), the program in
    ``solution_str`` run against the suite, all-or-nothing unless ``fraction`` (see the module
    docstring)."""
    global _DEFAULT
    if _DEFAULT is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = RewardFunction()
    if fraction is None:
        return _DEFAULT(data_source, solution_str, ground_truth, extra_info)
    return _DEFAULT(data_source, solution_str, ground_truth, extra_info, fraction=fraction)


def make_compute_score(
    library: Path | str | None = None, *, trust_library_code: bool = False, **pool_options: Any
) -> RewardFunction | TrustedRewardFunction:
    """A ``compute_score`` over a library folder (e.g. one grown by ``synth run``).

    By default it scores in the sandbox's warm worker pool (options: ``size`` workers per
    bootcamp, ``backend``, ``call_timeout_s``, ``canary_rate``; for code rows ``runners``
    program runners and ``fraction``): the library's code never runs
    in this process, a verifier that hangs or explodes on some model output costs a bounded
    time and is reported, never stalls or crashes the trainer, and canaries audit the stream
    (:class:`RewardFunction`).

    ``trust_library_code=True`` says "I trust this library's code": the bootcamps are imported
    into this process and scored there (faster, no sandbox; a code row's program still runs in
    the sandbox: ``runners``, ``fraction`` and ``runner_backend`` apply to it), with everything
    that :meth:`synth.library.Library.load_bootcamp` says the caller then trusts -- the modules run
    with this process's privileges, environment and API keys, and any one of them can patch
    ``BaseBootcamp`` for every bootcamp of the process.
    """
    if trust_library_code:
        # a code row's program is sandboxed whatever the trust: the runners' options still apply
        code = {k: pool_options.pop(k) for k in ("runners", "fraction", "runner_backend")
                if k in pool_options}
        if pool_options:
            raise TypeError(f"pool options {sorted(pool_options)} apply to sandboxed scoring only")
        return TrustedRewardFunction(library, **code)
    return RewardFunction(library, **pool_options)
