"""Cases drawn from a bootcamp in a sandboxed method server, validated on the host.

Export, ``synth library show``, review and the acceptance filter all need the same thing from a
bootcamp: for a list of ``(level, seed)`` specs, the case each one generates, its prompt and
(sometimes) its reference answer. :class:`CaseSampler` asks the kit's method server
(:mod:`synth.sandbox.kit`, method ``sample``) for them in batches, and trusts nothing it says:

* the handshake must name one class, and its ``LEVELS`` must be a JSON object of parameter
  objects (:func:`levels_from_info`), else :class:`SampleError`;
* each case must be the canonical JSON text of a JSON object, each prompt and answer a ``str``,
  all within :data:`MAX_CASE_CHARS` / :data:`MAX_TEXT_CHARS`;
* a bootcamp that raises, hangs, runs out of memory or breaks the protocol while drawing is a
  :class:`SampleError` naming the spec (its position, level and seed) and the exception with
  its traceback tail. A failed batch is replayed one spec at a time to find the one at fault.

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

__all__ = [
    "DEFAULT_LEVEL",
    "MAX_CASE_CHARS",
    "MAX_TEXT_CHARS",
    "CaseSampler",
    "Sample",
    "SampleError",
    "levels_from_info",
    "parse_case",
]

#: The level name that means "the class's default parameters" (no LEVELS preset).
DEFAULT_LEVEL = "default"
MAX_CASE_CHARS = 1_000_000
MAX_TEXT_CHARS = 200_000
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


def parse_case(text: Any) -> dict[str, Any]:
    """The case a ``case`` reply holds: canonical JSON text of an object, bounded."""
    if type(text) is not str:
        raise ValueError(f"the case is a {type(text).__name__}, not JSON text")
    if len(text) > MAX_CASE_CHARS:
        raise ValueError(f"the case is {len(text)} characters of JSON (at most {MAX_CASE_CHARS})")
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


def _text(value: Any, what: str) -> str:
    if type(value) is str:
        if len(value) > MAX_TEXT_CHARS:
            raise ValueError(f"{what} is {len(value)} characters (at most {MAX_TEXT_CHARS})")
        return value
    if type(value) is dict and "__type__" in value:
        shown = str(value.get("repr", ""))[:200]
        raise ValueError(f"{what} returned a {str(value['__type__'])[:40]}, not a str: {shown}")
    raise ValueError(f"{what} is a {type(value).__name__}, not a str")


def _row(raw: Any, level: str, seed: int, answers: bool) -> Sample:
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
    parse_case(text)
    assert type(text) is str
    prompt = _text(raw.get("prompt"), "prompt_func")
    answer = _text(raw.get("answer"), "reference_answer") if answers else None
    return Sample(level=level, seed=seed, case_text=text, prompt=prompt, answer=answer)


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
    ) -> None:
        self.name = name or "bootcamp"
        self.class_name = class_name
        self.call_limit_s = call_limit_s
        self.per_case_s = per_case_s
        self.server = MethodServer(code, backend=backend, class_name=class_name, label=label,
                                   limits=limits or server_limits(), max_reply_bytes=MAX_REPLY_BYTES)
        self.levels: list[str] = []
        self.class_found = ""

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
        except SampleError as exc:
            self.close()
            raise SampleError(f"{self.name}: {exc.message}") from None
        tampered = info.get("tampered")
        if tampered:
            self.close()
            shown = "; ".join(str(t)[:200] for t in tampered[:3]) if type(tampered) is list else "?"
            raise SampleError(f"{self.name} changes the bootcamp contract when imported: {shown}")
        self.class_found = found
        return self

    def close(self) -> None:
        self.server.close()

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
    def level_params(self, level: str) -> str:
        """``level`` checked against the handshake's levels (``default``: no preset)."""
        if level != DEFAULT_LEVEL and level not in self.levels:
            known = ", ".join(self.levels) or "(none)"
            raise KeyError(f"{self.class_found or self.name} has no level {level!r}; levels: {known}")
        return level

    def sample(self, specs: Sequence[tuple[str, int]], answers: bool = False) -> list[Sample]:
        """One validated :class:`Sample` per ``(level, seed)`` spec, in order."""
        if not specs:
            return []
        for level, _ in specs:
            self.level_params(level)
        reply = self._call(specs, answers)
        if reply.ok:
            return self._rows(reply.value, specs, answers, offset=0)
        if reply.outcome is Outcome.OUTPUT_OVERFLOW and len(specs) > 1:
            half = len(specs) // 2
            return self.sample(specs[:half], answers) + self._shifted(specs[half:], answers, half)
        if len(specs) > 1 and reply.outcome is not Outcome.SANDBOX_ERROR:
            self._locate(specs, answers, reply)
        raise self._error(reply, None, specs)

    def _shifted(self, specs: Sequence[tuple[str, int]], answers: bool, offset: int) -> list[Sample]:
        try:
            return self.sample(specs, answers)
        except SampleError as exc:
            if exc.position is not None:
                exc.position += offset
            raise

    def _call(self, specs: Sequence[tuple[str, int]], answers: bool) -> Reply:
        if not self.server.alive:
            self.start()
        params = {"specs": [[lvl, seed] for lvl, seed in specs], "answers": answers,
                  "limit": self.call_limit_s}
        budget = self.call_limit_s + self.per_case_s * len(specs)
        return self.server.call("sample", params, timeout_s=budget)

    def _rows(self, value: Any, specs: Sequence[tuple[str, int]], answers: bool,
              offset: int) -> list[Sample]:
        if type(value) is not list or len(value) != len(specs):
            raise SampleError(f"{self.name}: the method server returned "
                              f"{len(value) if type(value) is list else 'no'} rows for {len(specs)} specs")
        rows = []
        for i, (raw, (level, seed)) in enumerate(zip(value, specs, strict=True)):
            try:
                rows.append(_row(raw, level, seed, answers))
            except ValueError as exc:
                raise SampleError(str(exc), position=offset + i, level=level, seed=seed) from None
        return rows

    def _locate(self, specs: Sequence[tuple[str, int]], answers: bool, first: Reply) -> None:
        """Replay a failed batch one spec at a time and raise for the first spec that fails."""
        for i, spec in enumerate(specs):
            reply = self._call([spec], answers)
            if reply.outcome is Outcome.SANDBOX_ERROR:
                raise self._error(reply, None, specs)
            if not reply.ok:
                raise self._error(reply, i, specs)
            self._rows(reply.value, [spec], answers, offset=i)

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
