"""Review of library bootcamps: everything a person needs to judge one, and the decision.

:func:`gather` collects, for one bootcamp, its manifest record and code, sample cases per level
with prompt and reference answer (drawn by a sandboxed method server: a bootcamp awaiting review
is never imported into the reviewing process), the acceptance filter's solver responses with verdicts, the
quality-gate report of the winning candidate, and the unified diffs between the repair rounds of
its task (read from ``runs/<run_id>/``). For a multi-turn bootcamp it adds episodes turn by turn:
the reference episodes (the first drawn cases of each level played by the bootcamp's own
``reference_policy`` in a sandboxed :class:`synth.serving.rollout.EpisodeEnv`), the solver's episodes the
filter recorded, and a reviewer's own actions replayed on a drawn case (:func:`replay_actions`);
a contract break is a finding on the episode, never an exception. :func:`accept` and :func:`reject` write the decision
through :meth:`Library.set_status`; a rejected bootcamp leaves the registry (it is no longer
listed, loaded or exported) but its module stays on disk with the reason in the manifest.

Everything gathered here comes from bootcamps, models or task descriptions and is untrusted:
the CLI prints it as plain text and the web page escapes it.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from filters.self_consistency import FilterResult, sample_specs
from synth.bootcamp import BaseBootcamp
from synth.gate import CheckReport
from synth.library import BootcampRecord, Library, LibraryError, Status, sha256_text
from synth.paths import OutsideRootError, contained
from synth.runs import RunError, run_file, run_folder, task_slug
from synth.sandbox import SandboxUnavailableError
from synth.sandbox.base import Backend, Limits
from synth.serving.sampling import CaseSampler, SampleError

REVIEW_STATUSES: tuple[Status, ...] = ("pending-review", "accepted", "rejected-in-review")
DEFAULT_BAND = (0.03, 0.85)
SAMPLE_LIMITS = Limits(wall_s=30, cpu_s=30, memory_mb=1024)
_CANDIDATE_RE = re.compile(r"^round_(\d+)_(\d+)\.(py|repaired\.py|check\.json|failure\.txt)$")
MAX_REASON = 2000
#: Reference episodes played per level (on the first cases drawn of each level).
EPISODES_PER_LEVEL = 1
#: The most turns a review plays or shows of one episode (a MAX_TURNS may be far larger).
MAX_SHOWN_TURNS = 64
#: How much of an observation, response or action an episode view keeps.
EPISODE_TEXT_CHARS = 4000
#: Wall time one review spends playing episodes (all of them together).
EPISODE_BUDGET_S = 60.0
#: A reviewer's own replay: at most this many actions, each of at most this many characters.
MAX_REPLAY_ACTIONS = 64
MAX_REPLAY_ACTION_CHARS = 1000


class ReviewError(Exception):
    """A review request was refused; the message says why and what to do."""


@dataclass
class SampleCase:
    """One case drawn by the bootcamp in the sandbox."""

    level: str
    seed: int
    prompt: str
    answer: str
    identity: str  # JSON text
    #: a multi-turn bootcamp's MAX_TURNS (the prompt is the first observation); None otherwise
    max_turns: int | None = None


@dataclass(frozen=True)
class ShownTurn:
    """One turn of an episode as a reviewer sees it (texts cut to :data:`EPISODE_TEXT_CHARS`)."""

    observation: str
    response: str
    action: str
    reward: float | None  # after the step; None when the step broke the contract
    done: bool


@dataclass
class Episode:
    """One episode, turn by turn: a reference episode, a solver's (from the filter record) or a
    reviewer's own actions replayed."""

    kind: str  # reference | solver | replay
    key: str  # names it in the page's links: ref-<n>, solver-<index>, mine-<id>
    level: str
    seed: int | None
    identity: str  # JSON text
    turns: list[ShownTurn] = field(default_factory=list)
    score: float | None = None  # the last step's reward; None when it broke or was not scored
    done: bool = False
    error: str = ""  # a finding: the contract break (or why the episode could not be played)
    note: str = ""  # e.g. stopped at the review's turn cap

    @property
    def title(self) -> str:
        what = {"reference": "reference episode", "solver": "solver episode",
                "replay": "your actions"}.get(self.kind, self.kind)
        seed = "" if self.seed is None else f", seed {self.seed}"
        index = f" #{self.key.split('-', 1)[1]}" if self.kind == "solver" else ""
        return f"{what}{index}: level {self.level}{seed}"

    @property
    def rewards(self) -> list[float | None]:
        return [t.reward for t in self.turns]

    @property
    def actions(self) -> list[str]:
        return [t.action for t in self.turns]


@dataclass
class Candidate:
    """One candidate module of the task's run, with what the gate said about it."""

    round: int
    index: int
    code: str | None = None
    failure: str | None = None
    report: CheckReport | None = None
    report_error: str = ""
    #: the module after the workflow's static repairs (``round_<k>_<i>.repaired.py``): what
    #: the gate judged and the library committed when a repair was needed
    repaired: str | None = None

    @property
    def label(self) -> str:
        return f"round_{self.round}_{self.index}"

    @property
    def sha256(self) -> str | None:
        return sha256_text(self.code) if self.code is not None else None

    def is_code(self, sha256: str) -> bool:
        """Is ``sha256`` the hash of this candidate's module, as written or as repaired?"""
        return any(text is not None and sha256_text(text) == sha256
                   for text in (self.code, self.repaired))

    @property
    def hard_passed(self) -> int:
        if self.report is None:
            return 0
        return sum(1 for c in self.report.checks if c.hard and c.status.value == "passed")

    @property
    def passed(self) -> bool:
        return bool(self.report and self.report.passed)

    @property
    def failing(self) -> list[str]:
        return [c.name for c in self.report.failing] if self.report else []

    def score(self) -> tuple[int, int, int]:
        """The workflow's ranking of candidates (synth.workflow.nodes._score)."""
        return (int(self.passed), self.hard_passed, -self.index)


@dataclass
class RoundDiff:
    """What one repair round changed: the best candidate so far -> the revision."""

    round: int
    parent: str
    child: str
    diff: str  # unified diff text ("" when the revision produced no code)
    note: str = ""

    @property
    def added(self) -> int:
        return sum(1 for ln in self.diff.splitlines() if ln.startswith("+") and not ln.startswith("+++"))

    @property
    def removed(self) -> int:
        return sum(1 for ln in self.diff.splitlines() if ln.startswith("-") and not ln.startswith("---"))


@dataclass
class Review:
    """Everything about one bootcamp that a reviewer looks at."""

    record: BootcampRecord
    code: str
    code_matches: bool
    levels: list[str]
    samples: list[SampleCase] = field(default_factory=list)
    samples_error: str = ""
    filter: FilterResult | None = None
    band: tuple[float, float] = DEFAULT_BAND
    run_dir: Path | None = None
    candidates: list[Candidate] = field(default_factory=list)
    winner: Candidate | None = None
    diffs: list[RoundDiff] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reference_episodes: list[Episode] = field(default_factory=list)
    episodes_error: str = ""
    solver_episodes: list[Episode] = field(default_factory=list)

    @property
    def max_turns(self) -> int | None:
        """MAX_TURNS of a multi-turn bootcamp (from the drawn cases), else None."""
        return next((s.max_turns for s in self.samples if s.max_turns), None)

    @property
    def multi_turn(self) -> bool:
        return self.max_turns is not None or bool(self.solver_episodes)

    def episodes(self) -> list[Episode]:
        return self.reference_episodes + self.solver_episodes

    @property
    def gate(self) -> CheckReport | None:
        return self.winner.report if self.winner else None

    def set_samples(self, samples: list[SampleCase], error: str) -> None:
        """Attach drawn cases; their level order (the bootcamp's own LEVELS order) wins over the
        record's, which may be sorted."""
        self.samples, self.samples_error = samples, error
        drawn = list(dict.fromkeys(s.level for s in samples))
        self.levels = drawn + [lvl for lvl in self.levels if lvl not in drawn]

    def samples_by_level(self) -> dict[str, list[SampleCase]]:
        out: dict[str, list[SampleCase]] = {lvl: [] for lvl in self.levels}
        for s in self.samples:
            out.setdefault(s.level, []).append(s)
        return out

    def calibration(self) -> list[tuple[str, float, int]]:
        """(level, pass rate, answers) in level order, for the levels the record holds: the
        rates and their answers from the same measurement (the record's, which a calibration
        replaces; the run's filter counts only for a record without them)."""
        rates = self.record.level_pass_rates
        counts = dict(self.record.level_samples) or (self.filter.level_counts if self.filter
                                                     else {})
        order = [lvl for lvl in self.levels if lvl in rates] + [
            lvl for lvl in rates if lvl not in self.levels
        ]
        return [(lvl, rates[lvl], counts.get(lvl, 0)) for lvl in order]


# -- listing and decisions ---------------------------------------------------------------------


def statuses_for(status: str) -> set[str] | None:
    """The manifest statuses selected by a ``--status`` value (``all`` -> every status)."""
    if status == "all":
        return None
    if status not in REVIEW_STATUSES:
        raise ReviewError(f"unknown status {status!r}; use one of: {', '.join(REVIEW_STATUSES)}, all")
    return {status}


def list_records(library: Library, status: str = "pending-review") -> list[BootcampRecord]:
    return library.records(statuses_for(status))


def _check_code(library: Library, rec: BootcampRecord) -> None:
    try:
        code = library.code(rec.name)
    except (OSError, LibraryError) as exc:
        raise ReviewError(f"cannot read the module of {rec.name!r}: {exc}") from exc
    if sha256_text(code) != rec.code_sha256:
        raise ReviewError(
            f"{rec.name}: {rec.module_path} does not match the sha256 in the manifest (it was "
            "edited after commit); restore it or re-commit it before accepting"
        )


def accept(library: Library, name: str) -> BootcampRecord:
    """Make ``name`` live (listed, loadable, exported). Refuses a module edited after commit."""
    rec = library.record(name)
    if rec.status == "accepted":
        raise ReviewError(f"{name} is already accepted")
    _check_code(library, rec)
    return library.set_status(name, "accepted", None)


def reject(library: Library, name: str, reason: str) -> BootcampRecord:
    """Take ``name`` out of the registry; its module stays on disk with ``reason``."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ReviewError("a rejection needs a reason (--reason TEXT): say what is wrong")
    if len(reason) > MAX_REASON:
        raise ReviewError(f"the reason is {len(reason)} characters; keep it under {MAX_REASON}")
    library.record(name)  # a clear error for an unknown name
    return library.set_status(name, "rejected-in-review", reason)


# -- gathering -----------------------------------------------------------------------------------


def draw_samples(
    code: str, per_level: int, backend: str | Backend, seed: int = 0
) -> tuple[list[SampleCase], str]:
    """``per_level`` cases per level drawn by ``code`` in a sandboxed method server (levels
    round-robin in the bootcamp's own LEVELS order; the specs are the first ones the acceptance
    filter draws with the same seed, see :func:`filters.self_consistency.sample_specs`), with
    prompt and reference answer. ([], why) when it cannot."""
    try:
        with CaseSampler(code, backend=backend, limits=SAMPLE_LIMITS, name="the bootcamp",
                         label="synth-review-sampler") as sampler:
            specs = sample_specs(sampler.levels, max(1, per_level * max(1, len(sampler.levels))), seed)
            samples = sampler.sample(specs, answers=True)
    except SampleError as exc:
        where = "" if exc.position is None else f" (level {exc.level}, seed {exc.seed})"
        return [], f"drawing sample cases failed{where}: {exc.message}"
    except SandboxUnavailableError as exc:
        return [], f"no sandbox to draw sample cases: {exc}"
    out = []
    for s in samples:
        identity = json.dumps(s.case, ensure_ascii=False, indent=1)
        out.append(SampleCase(level=s.level, seed=s.seed, prompt=s.prompt, answer=s.answer or "",
                              identity=identity, max_turns=s.max_turns))
    return out, ""


# -- episodes (multi-turn bootcamps) -------------------------------------------------------------


def _cut(text: str, limit: int = EPISODE_TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} more characters]"


def _open_env(code: str, name: str, class_name: str, backend: str | Backend) -> Any:
    """A started :class:`synth.serving.rollout.EpisodeEnv` (raises RolloutError / SandboxUnavailableError)."""
    from synth.serving.rollout import EpisodeEnv

    env = EpisodeEnv(code, name=name, class_name=class_name, backend=backend)
    return env.start()


def play_episode(env: Any, episode: Episode, actions: list[str] | None,
                 deadline: float | None = None) -> Episode:
    """Play ``episode`` (its identity) in the sandboxed ``env`` turn by turn: the bootcamp's
    ``reference_policy`` chooses each action when ``actions`` is None, else ``actions`` in order.
    Stops when done, when the actions run out, after :data:`MAX_SHOWN_TURNS` turns or at
    ``deadline`` (``time.monotonic()``). A contract break is the episode's ``error`` (the turns
    before it stay); never raises."""
    from synth.serving.rollout import RolloutError

    try:
        current = env.reset(episode.identity)
    except (RolloutError, SandboxUnavailableError) as exc:
        episode.error = f"reset: {exc}"
        return episode
    observation, state = current.observation or "", current.state
    limit = min(env.max_turns, MAX_SHOWN_TURNS)
    if actions is not None:
        limit = min(limit, len(actions))
    score = 0.0
    for turn in range(1, limit + 1):
        if deadline is not None and time.monotonic() > deadline:
            episode.note = (f"stopped after {turn - 1} turns: the review's time for playing "
                            f"episodes ({EPISODE_BUDGET_S:g} s) is spent")
            break
        try:
            action = env.policy(state, turn) if actions is None else actions[turn - 1]
        except (RolloutError, SandboxUnavailableError) as exc:
            episode.error = str(exc)
            return episode
        response = BaseBootcamp.wrap_answer(action)
        try:
            step = env.step(state, action, turn)
        except (RolloutError, SandboxUnavailableError) as exc:
            episode.turns.append(ShownTurn(_cut(observation), _cut(response), _cut(action), None, False))
            episode.error = str(exc)
            return episode
        episode.turns.append(ShownTurn(_cut(observation), _cut(response), _cut(action),
                                       step.reward, step.done))
        score, state = step.reward, step.state
        if step.done:
            episode.done = True
            break
        observation = step.observation or ""
    episode.score = score if episode.turns else None
    if not episode.done and not episode.note:
        played = len(episode.turns)
        if actions is not None and played == len(actions) and played < env.max_turns:
            episode.note = "the actions ran out before the episode ended: the score so far"
        elif played >= env.max_turns:
            episode.error = (f"the episode is not done after MAX_TURNS = {env.max_turns} steps "
                             "(the contract ends every episode within MAX_TURNS)")
        else:
            episode.note = (f"stopped after {played} of MAX_TURNS = {env.max_turns} turns: a "
                            f"review plays at most {MAX_SHOWN_TURNS}")
    if actions is not None and len(actions) > len(episode.turns) and episode.done:
        episode.note = f"{len(actions) - len(episode.turns)} action(s) after the end were not played"
    return episode


def reference_episodes(
    code: str, class_name: str, samples: list[SampleCase], backend: str | Backend, *,
    per_level: int = EPISODES_PER_LEVEL, name: str = "the bootcamp",
) -> tuple[list[Episode], str]:
    """The first ``per_level`` drawn cases of each level played by the bootcamp's own
    ``reference_policy`` in one sandboxed environment, turn by turn (see :func:`play_episode`).
    ([], why) when the environment does not start; [] for a single-turn bootcamp."""
    from synth.serving.rollout import RolloutError

    chosen: list[SampleCase] = []
    for s in samples:
        if s.max_turns and sum(1 for c in chosen if c.level == s.level) < per_level:
            chosen.append(s)
    if not chosen:
        return [], ""
    try:
        env = _open_env(code, name, class_name, backend)
    except (RolloutError, SandboxUnavailableError) as exc:
        return [], f"no episode environment: {exc}"
    deadline = time.monotonic() + EPISODE_BUDGET_S
    try:
        return [play_episode(env, Episode("reference", f"ref-{n}", s.level, s.seed, s.identity),
                             None, deadline) for n, s in enumerate(chosen)], ""
    finally:
        env.close()


def solver_episodes(result: FilterResult | None) -> list[Episode]:
    """The solver's episodes the filter recorded (multi-turn candidates), turn by turn; the
    record is untrusted file data: texts and turn counts are bounded again."""
    out: list[Episode] = []
    for s in result.samples if result is not None else []:
        if s.episode is None:
            continue
        broke = s.outcome == "error"  # the environment broke the contract on its last turn
        ep = Episode("solver", f"solver-{s.index}", s.level, s.seed, _cut(s.identity or "", 100_000),
                     score=s.score, error=_cut(s.error) if broke else "")
        last = len(s.episode) - 1
        ep.turns = [ShownTurn(_cut(t.observation), _cut(t.response), _cut(t.action),
                              None if broke and n == last and not t.done else t.reward, t.done)
                    for n, t in enumerate(s.episode[:MAX_SHOWN_TURNS])]
        ep.done = bool(s.episode) and s.episode[-1].done
        notes = [f"the solver call failed: {_cut(s.error, 300)}"] if s.error and not broke else []
        if len(s.episode) > MAX_SHOWN_TURNS:
            notes.append(f"{len(s.episode)} turns recorded; the first {MAX_SHOWN_TURNS} are shown")
        ep.note = "; ".join(notes)
        out.append(ep)
    return out


def parse_actions(text: str) -> list[str]:
    """A reviewer's actions, one per line: a blank line is an empty action (what a model that
    gave no answer plays); one final line break only ends the last line. Refuses more than
    :data:`MAX_REPLAY_ACTIONS` actions or one longer than :data:`MAX_REPLAY_ACTION_CHARS`
    characters."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    if lines == [""]:
        raise ReviewError("enter at least one action, one per line")
    if len(lines) > MAX_REPLAY_ACTIONS:
        raise ReviewError(f"{len(lines)} actions; a replay takes at most {MAX_REPLAY_ACTIONS}")
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_REPLAY_ACTION_CHARS:
            raise ReviewError(f"action {n} is {len(line)} characters; at most "
                              f"{MAX_REPLAY_ACTION_CHARS} each")
    return lines


def replay_actions(code: str, class_name: str, case: SampleCase, actions: list[str],
                   backend: str | Backend, *, key: str = "mine", name: str = "the bootcamp") -> Episode:
    """A reviewer's ``actions`` (from :func:`parse_actions`) played from a drawn ``case`` in a
    fresh sandboxed environment, turn by turn. The actions go only to the sandboxed ``step``."""
    from synth.serving.rollout import RolloutError

    if len(actions) > MAX_REPLAY_ACTIONS or any(len(a) > MAX_REPLAY_ACTION_CHARS for a in actions):
        raise ReviewError("too many or too long actions (see parse_actions)")
    episode = Episode("replay", key, case.level, case.seed, case.identity)
    try:
        env = _open_env(code, name, class_name, backend)
    except (RolloutError, SandboxUnavailableError) as exc:
        episode.error = f"no episode environment: {exc}"
        return episode
    try:
        return play_episode(env, episode, actions, time.monotonic() + EPISODE_BUDGET_S)
    finally:
        env.close()


def episode_text(ep: Episode, *, title: bool = True) -> str:
    """An episode turn by turn as plain text (the CLI's view)."""
    lines = [ep.title] if title else []
    for n, t in enumerate(ep.turns, 1):
        reward = "broke the contract" if t.reward is None else f"reward {t.reward:g}"
        lines += [f"--- turn {n}", "observation:", t.observation,
                  f"action: {t.action!r} -> {reward}, done {t.done}"]
    if ep.error:
        lines.append(f"FINDING: {ep.error}")
    if ep.note:
        lines.append(f"note: {ep.note}")
    score = "-" if ep.score is None else f"{ep.score:g}"
    lines.append(f"score: {score} ({'done' if ep.done else 'not done'})")
    return "\n".join(lines)


def episode_dict(ep: Episode) -> dict[str, Any]:
    return {"kind": ep.kind, "key": ep.key, "level": ep.level, "seed": ep.seed,
            "identity": ep.identity, "score": ep.score, "done": ep.done, "error": ep.error,
            "note": ep.note, "turns": [t.__dict__ for t in ep.turns]}


def load_candidates(folder: Path) -> list[Candidate]:
    """The candidates of one task's run folder, in (round, index) order. A candidate file that
    is a symlink leading out of ``folder`` is refused (:class:`ReviewError`)."""
    found: dict[tuple[int, int], Candidate] = {}
    if not folder.is_dir():
        return []
    for path in sorted(folder.iterdir()):
        m = _CANDIDATE_RE.match(path.name)
        if m is None:
            continue
        try:
            contained(folder, path, what="candidate file")
        except OutsideRootError as exc:
            raise ReviewError(str(exc)) from exc
        key = (int(m.group(1)), int(m.group(2)))
        cand = found.setdefault(key, Candidate(round=key[0], index=key[1]))
        text = path.read_text(encoding="utf-8", errors="replace")
        if m.group(3) == "py":
            cand.code = text
        elif m.group(3) == "repaired.py":
            cand.repaired = text
        elif m.group(3) == "failure.txt":
            cand.failure = text.strip()
        else:
            try:
                cand.report = CheckReport.model_validate_json(text)
            except ValidationError as exc:
                cand.report_error = f"unreadable gate report {path.name}: {exc.errors()[0]['msg']}"
    return [found[k] for k in sorted(found)]


def round_diffs(candidates: Iterable[Candidate]) -> list[RoundDiff]:
    """Diffs of the repair rounds, replaying how the workflow picked what to revise: after each
    round the best candidate so far (passed, hard checks passed, lower index) is the parent of
    the next round's revision (``round_<k>_0``)."""
    by_round: dict[int, list[Candidate]] = {}
    for c in candidates:
        by_round.setdefault(c.round, []).append(c)
    best: Candidate | None = None
    diffs: list[RoundDiff] = []
    for rnd in sorted(by_round):
        if rnd > 0:
            child = next((c for c in by_round[rnd] if c.index == 0), by_round[rnd][0])
            if best is None or best.code is None:
                parent = best.label if best is not None else "(none)"
                diffs.append(RoundDiff(rnd, parent, child.label, "",
                                       "the best candidate so far had no code to revise"))
            elif child.code is None:
                diffs.append(RoundDiff(rnd, best.label, child.label, "",
                                       f"the revision produced no code: {child.failure or 'unknown'}"))
            else:
                text = "".join(difflib.unified_diff(
                    best.code.splitlines(keepends=True), child.code.splitlines(keepends=True),
                    fromfile=f"{best.label}.py", tofile=f"{child.label}.py", n=3,
                ))
                diffs.append(RoundDiff(rnd, best.label, child.label, text,
                                       "" if text else "the revision is identical"))
        pool = by_round[rnd] + ([best] if best is not None else [])
        best = max(pool, key=lambda c: c.score())
    return diffs


def _run_band(config_path: Path) -> tuple[float, float]:
    try:
        cfg = json.loads(config_path.read_text(encoding="utf-8"))["config"]
        return float(cfg["band_low"]), float(cfg["band_high"])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_BAND


def gather(
    library: Library,
    name: str,
    runs_dir: Path | None,
    *,
    backend: str | Backend = "auto",
    per_level: int = 2,
    samples: bool = True,
    episodes_per_level: int = EPISODES_PER_LEVEL,
) -> Review:
    """Everything about bootcamp ``name`` (see the module docstring). Never imports its code.
    A multi-turn bootcamp's reference episodes are played when samples are drawn."""
    rec = library.record(name)
    try:
        code = library.code(name)
    except (OSError, LibraryError) as exc:
        raise ReviewError(f"cannot read the module of {name!r}: {exc}") from exc
    review = Review(record=rec, code=code, code_matches=sha256_text(code) == rec.code_sha256,
                    levels=list(rec.levels))
    if not review.code_matches:
        review.notes.append("the module on disk does not match the sha256 in the manifest")
    if samples and per_level > 0:
        review.set_samples(*draw_samples(code, per_level, backend))
        if episodes_per_level > 0 and review.max_turns:
            review.reference_episodes, review.episodes_error = reference_episodes(
                code, rec.class_name, review.samples, backend, per_level=episodes_per_level,
                name=rec.name)
    add_run_history(review, runs_dir)
    return review


def add_run_history(review: Review, runs_dir: Path | None) -> None:
    """The filter record, candidates and repair diffs of the record's run, read from
    ``runs_dir/<run_id>/``. The run id and every file read resolve inside their folders (a run
    id that is absolute, climbs out or leads out through a symlink is refused with
    :class:`ReviewError`); a missing folder or file is a note."""
    rec = review.record
    if rec.run_id is None:
        review.notes.append(f"{rec.origin} bootcamp without a run: no filter record or repair history")
        return
    if runs_dir is None:
        review.notes.append(f"run folder {rec.run_id} not found (pass --runs-dir)")
        return
    try:
        run_dir = run_folder(runs_dir, rec.run_id)
        slug = task_slug(rec.task_id)
        filter_path = run_file(run_dir, f"filter/{slug}.json")
        candidates_dir = run_file(run_dir, f"candidates/{slug}")
        config_path = run_file(run_dir, "config.json")
    except RunError as exc:
        raise ReviewError(f"{rec.name}: {exc}") from exc
    if not run_dir.is_dir():
        review.notes.append(f"run folder {rec.run_id} not found in {runs_dir} (pass --runs-dir)")
        return
    review.run_dir = run_dir
    review.band = _run_band(config_path)
    if filter_path.exists():
        try:
            review.filter = FilterResult.model_validate_json(filter_path.read_text(encoding="utf-8"))
        except ValidationError as exc:
            review.notes.append(f"unreadable filter record {filter_path.name}: {exc.errors()[0]['msg']}")
    else:
        review.notes.append(f"no filter record for {rec.task_id} in run {rec.run_id}")
    review.solver_episodes = solver_episodes(review.filter)
    review.candidates = load_candidates(candidates_dir)
    review.winner = next((c for c in review.candidates if c.is_code(rec.code_sha256)), None)
    if review.winner is not None and review.winner.sha256 != rec.code_sha256:
        review.notes.append(f"the committed code is {review.winner.label} after the workflow's "
                            f"static repairs ({review.winner.label}.repaired.py)")
    if review.winner is None:
        review.notes.append(f"no candidate of run {rec.run_id} has the committed code's sha256")
    review.diffs = round_diffs(review.candidates)
    review.notes.extend(c.report_error for c in review.candidates if c.report_error)


def as_dict(review: Review) -> dict[str, Any]:
    """A JSON-friendly summary (for ``synth review show --json``); episodes for multi-turn
    bootcamps only."""
    out = {
        "record": review.record.model_dump(mode="json"),
        "code_matches": review.code_matches,
        "levels": review.levels,
        "samples": [{k: v for k, v in s.__dict__.items() if k != "max_turns" or v is not None}
                    for s in review.samples],
        "samples_error": review.samples_error,
        "filter": review.filter.model_dump(mode="json") if review.filter else None,
        "band": list(review.band),
        "winner": review.winner.label if review.winner else None,
        "gate": review.gate.model_dump(mode="json") if review.gate else None,
        "candidates": [{"label": c.label, "passed": c.passed, "failing": c.failing,
                        "failure": c.failure} for c in review.candidates],
        "diffs": [{"round": d.round, "parent": d.parent, "child": d.child, "diff": d.diff,
                   "note": d.note} for d in review.diffs],
        "notes": review.notes,
    }
    if review.multi_turn:
        out.update(max_turns=review.max_turns, episodes_error=review.episodes_error,
                   reference_episodes=[episode_dict(e) for e in review.reference_episodes],
                   solver_episodes=[episode_dict(e) for e in review.solver_episodes])
    return out
