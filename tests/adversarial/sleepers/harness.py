"""The sleeper harness: the gate's verdict on a program, and production's on the answers it lies about.

A *sleeper* (``corpus/*.py``) is a bootcamp that behaves when it is judged and lies when it is
used: it scores wrong answers 1.0 on export's seeds, after N calls of a worker, on responses
shaped like a model's, or under another hash seed. :func:`measure` runs, for one program on one
sandbox backend:

1. the gate, as ``synth check FILE`` runs it (:func:`synth.gate.run_checks`, default
   ``CheckConfig``, no checker);
2. when the gate accepts, the production paths, each fed WRONG answers (one per row, in the
   styles in turn, then the row's right answer as a control):

   * ``export``  -- ``synth export`` of a one-bootcamp library (:func:`synth.training.export.export`,
     default sizes: 200 train and 50 test rows); its rows feed ``reward`` and ``pool``;
   * ``reward``  -- every row's responses scored by the RL reward
     (:func:`synth.training.reward.make_compute_score` over that library: ``compute_score``'s code, one
     warm worker, its canaries at the default rate, waited for at the end) with the row's
     ``data_source``, ``ground_truth`` and ``extra_info``; a multi-turn row's response is
     scored as the episode it writes; a bootcamp its canaries quarantined is ``quarantined``;
   * ``pool``    -- the same responses through a :class:`~synth.sandbox.pool.WorkerPool` with
     the reward's production settings (one worker, ``recycle_after=5000``, 5 s per call), in
     batches of 256 (a trainer's batch);
   * ``filter``  -- the acceptance filter (:func:`filters.self_consistency.run_filter`, default
     ``FilterConfig``: 64 prompts, seed 0) with a solver that answers every prompt wrongly
     (every turn of an episode, for multi-turn programs);
   * ``rollout`` -- multi-turn programs only: :func:`synth.serving.rollout.rollout` of exported rows in
     one reused environment, with a scripted model that always guesses wrong.

A wrong answer is the right one changed (an integer plus one; a word list reversed; a numeral
with its last letter doubled; a game's winning move plus or minus one), written in one response
*style* (:data:`STYLES`) per row, the styles in turn: plain, after 5,000 characters of
reasoning, after a sentence of prose, after an earlier (right) answer block, as a sentence
inside the tags, as worked lines inside the tags (a game's moves: the first three). A wrong answer that scores 1.0 in a path is an *escape*. A path's verdict is
``agrees`` (no escape), ``ESCAPES``, ``quarantined`` (production refused or quarantined the
bootcamp: :func:`quarantine_signal`) or ``error`` (production broke for another reason: shown);
when the gate rejects the program every path is ``rejected by gate``.

Program headers (comment lines after the docstring): ``# sleeper: CLASS`` (seed, call_count,
response_shape, environment), ``# answer: reference`` (the right answer is the bootcamp's own
``reference_answer``, asked of a separate sandboxed server) or ``# answer: field:NAME`` (a game's
winning move is the identity's ``NAME``), and optionally ``# calls: N`` (the reward and pool paths
send at least N responses, cycling over the rows: for thresholds above one pass).
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from synth.gate import run_checks
from synth.gate.calls import ask_many
from synth.gate.episodes import declares_multi_turn
from synth.library import Library, find_bootcamp_class
from synth.sandbox.base import Backend

__all__ = [
    "CLASSES",
    "CORPUS",
    "PATHS",
    "STYLES",
    "Escape",
    "Measurement",
    "PathResult",
    "Program",
    "measure",
    "programs",
    "quarantine_signal",
    "wrong_answer",
]

CORPUS = Path(__file__).resolve().parent / "corpus"
CLASSES = ("seed", "call_count", "response_shape", "environment")
#: every production path, in the order they run and are shown
PATHS = ("export", "reward", "pool", "filter", "rollout")
#: the verdicts a path can get (see the module docstring)
REJECTED, AGREES, ESCAPES, QUARANTINED, ERROR, NOT_APPLICABLE = (
    "rejected by gate", "agrees", "ESCAPES", "quarantined", "error", "n/a")
#: a wrong answer scoring at least this is an escape
FULL = 1.0 - 1e-9
POOL_BATCH = 256
ROLLOUT_EPISODES = 40
LIBRARY_SOURCE = "sleepers"


# -- the corpus ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """One sleeper module and its headers (see the module docstring)."""

    path: Path
    sleeper: str
    answer: str
    calls: int = 0

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def multi_turn(self) -> bool:
        return declares_multi_turn(self.source)

    @property
    def trick(self) -> str:
        """The docstring's paragraph that says the trick (its first sentence)."""
        doc = self.source.split('"""')[1]
        para = next((p for p in doc.split("\n\n") if p.startswith("SLEEPER")), "")
        return " ".join(para.split())


def _header(src: str, key: str) -> str | None:
    match = re.search(rf"^# {re.escape(key)}: *(.*)$", src, re.M)
    return match.group(1).strip() if match else None


def programs(folder: Path = CORPUS) -> list[Program]:
    """Every sleeper of ``folder``, by name, headers checked."""
    out = []
    for path in sorted(folder.glob("*.py")):
        src = path.read_text(encoding="utf-8")
        sleeper, answer = _header(src, "sleeper"), _header(src, "answer")
        assert sleeper in CLASSES, f"{path.name}: '# sleeper:' must be one of {CLASSES}"
        assert answer == "reference" or (answer or "").startswith("field:"), (
            f"{path.name}: '# answer:' must be 'reference' or 'field:NAME'")
        out.append(Program(path, str(sleeper), str(answer), int(_header(src, "calls") or 0)))
    return out


# -- wrong answers and the shapes of responses -------------------------------------------------

_REASONING = (
    "Let me work through this carefully. First I restate the problem in my own words and list "
    "what is given. Then I check the small cases by hand, look for a pattern, and make sure the "
    "pattern holds before I use it. I keep track of every intermediate value so that an "
    "arithmetic slip can be found later. "
)
#: a model's reasoning before its answer: over 5,000 characters
REASONING = (_REASONING * (5200 // len(_REASONING) + 1))[:5200].rstrip() + "\n\n"
_WORKED = "\n".join(f"Step {k}: combine the partial results so far and carry the remainder."
                    for k in range(1, 9))

#: style -> response(wrong, right): every one ends with the wrong answer as its last answer block
STYLES: dict[str, Callable[[str, str], str]] = {
    "plain": lambda w, r: f"<answer>{w}</answer>",
    "reasoning": lambda w, r: f"{REASONING}<answer>{w}</answer>",
    "prose": lambda w, r: f"I worked it out step by step and checked it twice. <answer>{w}</answer>",
    "blocks": lambda w, r: (f"<answer>{r}</answer>\nWait, I made a slip there; let me correct "
                            f"it.\n<answer>{w}</answer>"),
    "sentence": lambda w, r: f"<answer>The answer is {w}.</answer>",
    "worked": lambda w, r: f"<answer>{_WORKED}\nSo the answer is {w}</answer>",
}
#: the styles of a game's moves (each response is one move)
MULTI_TURN_STYLES = ("plain", "reasoning", "prose")


def wrong_answer(right: str) -> str:
    """A wrong answer made from the right one: an integer plus one; several tokens reversed
    (or the last one doubled when reversing changes nothing); a word with its last character
    doubled."""
    text = right.strip()
    if re.fullmatch(r"-?\d+", text):
        return str(int(text) + 1)
    tokens = text.split()
    if len(tokens) >= 2:
        flipped = tokens[::-1]
        return " ".join(flipped if flipped != tokens else [*tokens, tokens[-1]])
    return text + text[-1:] if text else "0"


def _wrong_move(right: str, identity: dict[str, Any]) -> str:
    """A losing move for a game whose winning move is the integer ``right``: one more, or one
    less when one more is off the board."""
    value = int(right)
    tops = [v for k, v in identity.items() if k in ("floors", "top")]
    ranges = identity.get("range")
    top = max(ranges) if isinstance(ranges, list) and ranges else (tops[0] if tops else None)
    return str(value - 1 if top is not None and value + 1 > top else value + 1)


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Escape:
    """A wrong answer that scored 1.0 in production."""

    path: str
    where: str
    style: str
    answer: str
    score: float
    right: str = ""

    def __str__(self) -> str:
        right = f" (right: {self.right!r:.40})" if self.right else ""
        return (f"{self.path} {self.where} [{self.style}] wrong answer {self.answer!r:.60}{right} "
                f"-> {self.score:g}")


@dataclass
class PathResult:
    path: str
    verdict: str
    scored: int = 0
    escapes: list[Escape] = field(default_factory=list)
    detail: str = ""
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict in (AGREES, QUARANTINED, REJECTED, NOT_APPLICABLE)

    def line(self) -> str:
        styles = sorted({e.style for e in self.escapes})
        out = f"{self.path}: {self.verdict}"
        if self.escapes:
            out += f" ({len(self.escapes)} of {self.scored} wrong answers scored 1.0; styles {styles})"
        elif self.scored:
            out += f" ({self.scored} wrong answers scored)"
        if self.detail:
            out += f"; {self.detail}"
        return out


@dataclass
class Measurement:
    program: str
    backend: str
    gate_passed: bool
    gate_failed: list[str]
    gate_s: float
    paths: list[PathResult]
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        """The gate rejected the program, or every production path agrees with its acceptance
        (or quarantined the bootcamp)."""
        return all(p.ok for p in self.paths)

    def verdict(self, path: str) -> str:
        found = next((p for p in self.paths if p.path == path), None)
        return found.verdict if found is not None else NOT_APPLICABLE

    def summary(self, examples: int = 3) -> str:
        gate = ("accepted" if self.gate_passed else "rejected: " + "; ".join(self.gate_failed[:3]))
        lines = [f"{self.program} on {self.backend}: gate {gate} ({self.gate_s:.1f}s)"]
        for p in self.paths:
            lines.append("  " + p.line() + f" [{p.elapsed_s:.1f}s]")
            lines += [f"    {e}" for e in p.escapes[:examples]]
        return "\n".join(lines)


# -- quarantine -----------------------------------------------------------------------------------

_QUARANTINE_WORDS = re.compile(r"quarantin|canary|spot[- ]?check", re.I)


def quarantine_signal(name: str, library: Path | None = None, *objects: Any,
                      errors: Iterable[BaseException | str] = ()) -> str:
    """How production said it quarantined (or refused) the bootcamp ``name``, or "".

    Read generously, from whatever production exposes: the library record's status is no
    longer ``accepted``; an object (the reward function, the pool) has a truthy
    ``quarantined``/``quarantine`` attribute (a flag, or a collection holding names); an
    error's text speaks of a quarantine, a canary or a spot-check."""
    for err in errors:
        text = str(err)
        if _QUARANTINE_WORDS.search(text):
            return f"refused: {' '.join(text.split())[:200]}"
    for obj in objects:
        for attr in ("quarantined", "quarantine"):
            value = getattr(obj, attr, None)
            if callable(value):
                try:
                    value = value(name)
                except TypeError:
                    value = None
            if isinstance(value, dict | set | list | tuple | frozenset):
                hit = name in value or f"bootcamp/{name}" in value
            else:
                hit = bool(value)
            if hit:
                return f"{type(obj).__name__}.{attr} = {str(value)[:100]}"
    if library is not None:
        try:
            status = Library(library).record(name).status
        except Exception as exc:  # a record that cannot be read: say so, never pass silently
            return f"the library record cannot be read: {exc}"[:200]
        if status != "accepted":
            return f"library status {status!r}"
    return ""


# -- the measurement ------------------------------------------------------------------------------


@dataclass
class _Rows:
    """Exported rows with their right answers (None: the row was not answered)."""

    rows: list[dict[str, Any]]
    rights: list[str]


def measure(program: Program, backend: Backend, *, paths: Iterable[str] = PATHS,
            workdir: Path | None = None) -> Measurement:
    """The gate's verdict on ``program`` and, when it accepts, each production path's."""
    t0 = time.monotonic()
    source = program.source
    report = run_checks(source, backend=backend, name=program.path.name)
    gate_s = time.monotonic() - t0
    failed = [f"{c.name}: {c.status.value} {c.finding} {c.reason[:160]}".replace("  ", " ")
              for c in report.checks if not c.ok]
    wanted = [p for p in PATHS if p in set(paths)]
    if not report.passed:
        results = [PathResult(p, REJECTED) for p in wanted]
        return Measurement(program.name, backend.name, False, failed, gate_s, results,
                           time.monotonic() - t0)
    with tempfile.TemporaryDirectory(prefix="synth-sleeper-", dir=workdir) as tmp:
        runner = _Production(program, backend, Path(tmp))
        results = runner.run(wanted)
    return Measurement(program.name, backend.name, True, failed, gate_s, results,
                       time.monotonic() - t0)


class _Production:
    """The production paths of one accepted program (see the module docstring)."""

    def __init__(self, program: Program, backend: Backend, tmp: Path) -> None:
        self.program, self.backend, self.tmp = program, backend, tmp
        self.source = program.source
        self.class_name = find_bootcamp_class(self.source)
        self.library = tmp / "library"
        Library(self.library).commit(name=program.name, code=self.source,
                                     class_name=self.class_name, source=LIBRARY_SOURCE,
                                     task_id=f"{LIBRARY_SOURCE}/{program.name}",
                                     origin="handwritten")
        self.exported: _Rows | None = None
        self.export_error = ""

    def run(self, wanted: list[str]) -> list[PathResult]:
        from . import paths as p

        steps: dict[str, Callable[[_Production], PathResult]] = {
            "export": p.export_path, "reward": p.reward_path, "pool": p.pool_path,
            "filter": p.filter_path, "rollout": p.rollout_path}
        out = []
        for name in wanted:
            if name == "rollout" and not self.program.multi_turn:
                out.append(PathResult(name, NOT_APPLICABLE))
                continue
            t0 = time.monotonic()
            try:
                result = steps[name](self)
            except Exception as exc:  # production broke: a verdict of its own, with the reason
                said = quarantine_signal(self.program.name, self.library, errors=[exc])
                result = PathResult(name, QUARANTINED if said else ERROR,
                                    detail=said or f"{type(exc).__name__}: {exc}"[:400])
            result.elapsed_s = time.monotonic() - t0
            out.append(result)
        return out

    # -- shared by the paths --------------------------------------------------------------------
    def rights(self, cases: list[str]) -> list[str]:
        """The right answer (a game's winning move) of each case (canonical JSON text)."""
        if self.program.answer.startswith("field:"):
            key = self.program.answer.split(":", 1)[1]
            return [str(json.loads(text)[key]) for text in cases]
        from synth.sandbox.methods import MethodServer

        out: list[str] = []
        with MethodServer(self.source, backend=self.backend, class_name=self.class_name,
                          label="synth-sleeper-oracle") as server:
            hello = server.load_reply
            if hello is None or not hello.ok:
                raise RuntimeError(f"the answer server did not load: {hello}")
            for start in range(0, len(cases), 64):
                chunk = cases[start:start + 64]
                replies, _ = ask_many(server, [("answer", {"case_text": c}) for c in chunk], 5.0)
                for value, failure in replies:
                    if failure is not None or type(value) is not str:
                        raise RuntimeError(f"reference_answer failed: {failure and failure.what}")
                    out.append(value)
        return out

    def responses(self, right: str, identity: dict[str, Any], k: int) -> list[tuple[str, str]]:
        """(style, response) of case number ``k``: the wrong answer in the ``k``-th style (the
        styles in turn), then the right answer (``control``)."""
        if self.program.multi_turn:
            style = MULTI_TURN_STYLES[k % len(MULTI_TURN_STYLES)]
            wrong = _wrong_move(right, identity)
        else:
            style = list(STYLES)[k % len(STYLES)]
            wrong = wrong_answer(right)
        return [(style, STYLES[style](wrong, right)), ("control", f"<answer>{right}</answer>")]

    def exported_rows(self) -> _Rows:
        if self.exported is None:
            from . import paths as p

            p.export_path(self)
        if self.exported is None:
            raise RuntimeError(self.export_error or "export produced no rows")
        return self.exported


class ScriptedClient:
    """An ``openai.AsyncOpenAI`` stand-in for :func:`synth.serving.rollout.rollout`: each chat call
    returns ``reply(messages)``."""

    def __init__(self, reply: Callable[[list[dict[str, str]]], str]) -> None:
        self.reply = reply
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    async def _create(self, *, model: str, messages: list[dict[str, str]], **_: Any) -> Any:
        text = self.reply(messages)
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=text))])


def run_async(coro: Any) -> Any:
    return asyncio.run(coro)
