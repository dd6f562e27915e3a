"""RL reward functions over the library, with verl's custom-reward signature.

In a verl config::

    custom_reward_function:
      path: <site-packages>/synth/reward.py
      name: compute_score

``data_source`` is ``"bootcamp/<name>"`` and ``ground_truth`` the JSON identity written by
``synth export``. Bootcamp classes are loaded from the library once per process and cached.

Model output can never make :func:`compute_score` raise: garbage scores 0.0. A bootcamp whose
verifier raises on some output is a defect of the library, not of the model, so it is not hidden
either: the exception is logged with its evidence and counted in :data:`FINDINGS`, and the row
scores 0.0. Broken *data* (an unknown data source, a ground truth that is not JSON) raises a
clear error naming it, because that is the trainer's pipeline being wrong.
"""

from __future__ import annotations

import json
import logging
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from synth.bootcamp import BaseBootcamp
from synth.library import Library, LibraryError

PREFIX = "bootcamp/"
log = logging.getLogger("synth.reward")

#: bootcamp name -> verifier failures (exceptions, timeouts) seen in this process
FINDINGS: Counter[str] = Counter()


class RewardDataError(ValueError):
    """The row's data source or ground truth does not match the library."""


class RewardFunction:
    """A ``compute_score`` bound to one library folder, with a per-process class cache."""

    def __init__(self, library: Path | str | None = None) -> None:
        self.library = Library(library) if library is not None else Library()
        self._classes: dict[str, type[BaseBootcamp]] = {}

    def bootcamp(self, data_source: str) -> type[BaseBootcamp]:
        if not isinstance(data_source, str) or not data_source.startswith(PREFIX):
            raise RewardDataError(
                f"data_source {data_source!r} is not a bootcamp data source "
                f"(expected '{PREFIX}<name>', as written by `synth export`)"
            )
        name = data_source[len(PREFIX) :]
        cls = self._classes.get(name)
        if cls is None:
            try:
                cls = self.library.load_bootcamp(name)
            except LibraryError as exc:
                raise RewardDataError(f"data_source {data_source!r}: {exc}") from exc
            self._classes[name] = cls
        return cls

    def _identity(self, data_source: str, ground_truth: str | dict[str, Any]) -> dict[str, Any]:
        if isinstance(ground_truth, str):
            try:
                identity = json.loads(ground_truth)
            except ValueError as exc:
                raise RewardDataError(
                    f"ground_truth for {data_source!r} is not JSON: {ground_truth[:80]!r}"
                ) from exc
        else:
            identity = ground_truth
        if not isinstance(identity, dict):
            raise RewardDataError(f"ground_truth for {data_source!r} is not a JSON object")
        return identity

    def __call__(
        self,
        data_source: str,
        solution_str: Any,
        ground_truth: str | dict[str, Any],
        extra_info: dict[str, Any] | None = None,
    ) -> float:
        cls = self.bootcamp(data_source)
        identity = self._identity(data_source, ground_truth)
        if not isinstance(solution_str, str):
            return 0.0
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


_DEFAULT: RewardFunction | None = None


def compute_score(
    data_source: str,
    solution_str: Any,
    ground_truth: str | dict[str, Any],
    extra_info: dict[str, Any] | None = None,
) -> float:
    """verl custom reward: the library bootcamp's ``verify_score`` of ``solution_str``."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = RewardFunction()
    return _DEFAULT(data_source, solution_str, ground_truth, extra_info)


def make_compute_score(
    library: Path | str | None = None, *, sandboxed: bool = False, **pool_options: Any
) -> RewardFunction:
    """A ``compute_score`` over a library folder (e.g. one grown by ``synth run``).

    ``sandboxed=True`` scores in the sandbox's warm worker pool instead of in this process:
    a verifier that hangs or explodes on some model output then costs a bounded time and is
    reported, never stalls or crashes the trainer (options: ``size``, ``backend``,
    ``call_timeout_s``).
    """
    if sandboxed:
        return SandboxedRewardFunction(library, **pool_options)
    return RewardFunction(library)


class SandboxedRewardFunction(RewardFunction):
    """``compute_score`` through one warm sandboxed worker pool per bootcamp."""

    def __init__(
        self,
        library: Path | str | None = None,
        *,
        size: int = 1,
        backend: str = "auto",
        call_timeout_s: float = 5.0,
    ) -> None:
        super().__init__(library)
        self.size = size
        self.backend = backend
        self.call_timeout_s = call_timeout_s
        self._pools: dict[str, Any] = {}

    def _pool(self, data_source: str) -> Any:
        from synth.sandbox.pool import WorkerPool

        pool = self._pools.get(data_source)
        if pool is None:
            cls = self.bootcamp(data_source)  # validates the name and the code hash
            code = self.library.code(data_source[len(PREFIX) :])
            pool = WorkerPool(code, size=self.size, backend=self.backend,
                              call_timeout_s=self.call_timeout_s, class_name=cls.__name__)
            self._pools[data_source] = pool
        return pool

    def __call__(
        self,
        data_source: str,
        solution_str: Any,
        ground_truth: str | dict[str, Any],
        extra_info: dict[str, Any] | None = None,
    ) -> float:
        identity = self._identity(data_source, ground_truth)
        if not isinstance(solution_str, str):
            return 0.0
        result = self._pool(data_source).verify(solution_str, identity)
        if result.score is not None and result.outcome.value == "passed":
            return float(result.score)
        name = data_source[len(PREFIX) :]
        FINDINGS[name] += 1
        log.error(
            "bootcamp %s: verify_score ended with %s on a model response (%d so far): %s\n"
            "response head: %r\n%s",
            data_source, result.outcome.value, FINDINGS[name], result.error, solution_str[:200],
            result.traceback[-1500:],
        )
        return 0.0

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()
        self._pools.clear()
