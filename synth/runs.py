"""Run folders: configuration (hashed), event log, candidates, filter records.

    runs/<run_id>/config.json            the RunConfig and its hash
    runs/<run_id>/checkpoints.sqlite     LangGraph checkpoints, one thread per task
    runs/<run_id>/checkpoints/<task>-<hash>.sqlite   the same, one file per task (--executor ray)
    runs/<run_id>/events.jsonl           every node step, LLM call and sandbox run
    runs/<run_id>/candidates/<task>/round_<k>_<i>.py and .check.json   the module the model's
                                         reply gives (compiled mode: assembled; the model's own
                                         part in .model.py), the gate's report; .repaired.py the
                                         module after the pipeline's repairs (the one checked),
                                         .check.before_repair_<n>.json a report before a repair
                                         the gate's errors called for; .failure.txt: no module
    runs/<run_id>/checkers/<task>/round_<k>.py and .json   the independent checker written
                                         before round k's check (hash, origin, attempts);
                                         verdicts.jsonl: its differential verdict per candidate
    runs/<run_id>/filter/<task>.json     the task's last filter result
    runs/<run_id>/filter/steering/<task>.step_<n>.json   each result around difficulty steering
    runs/<run_id>/transcripts/           request and response text of every model call
    runs/<run_id>/tasks/<task>.json      the task description as loaded
    runs/<run_id>/report.html            written by `synth report`
    runs/<run_id>/tasks.jsonl            the task descriptions of the run (resume reads them)
    runs/<run_id>/summary.json           RunSummary: outcome per task, tokens, cost, elapsed

Events (one JSON object per line: ``ts`` (unix seconds), ``kind``, ``task`` (task id or null)
plus fields by kind):

    run_start   tasks, config_hash
    task_start  resumed
    llm_call    LLMCallRecord fields: call_id, role (coder|judge|solver), model, endpoint,
                tag ("<task>|draft|<i>", "<task>|revise|<round>", "<task>|steer|<step>",
                "<task>|judge|<round>|<attempt>", "<task>|solve"), prompt_version,
                tokens_in, tokens_out, tokens_cached (prompt tokens the endpoint served from its
                cache, when it says so), latency_s, prompt_s/generate_s (server-side, llama.cpp),
                cost_usd, attempts, ok, error_kind, error, finish_reason
    node        node (draft|judge|check|revise|filter|steer), elapsed_s, round; draft/revise/steer:
                with_code, failures (extraction/model failure kinds), repairs, task_chars; draft:
                mode, mode_reason, prefix_sha256, prefix_chars; check: passed; judge: action
    repair      round, index, repair (contract_import|stdlib_import|main_block|base_class|...),
                detail, line, stage ("source": before the gate; "errors: <checks>": from the
                gate's errors, checked again)
    steer       action (asked|result), step, round, verdict_before, pass_rate_before,
                level_pass_rates_before; asked: steps, band, with_code; result: verdict_after
                (a filter verdict, or gate_failed), pass_rate_after, level_pass_rates_after
    judge       action (generated|attempt_rejected|gave_up|no_examples|dispute|argument_ignored|
                checker_broken), round, reason (initial|argued|format), checker_sha256, path,
                problem, warning (set on the loud ones: the task goes on without a usable checker)
    sandbox     node=check, backend, passed, failing (check names), elapsed_s, round,
                infrastructure_error, differential (status, finding, checker_sha256) or null
    filter      verdict, reason, pass_rate, answered, requested, stopped_early,
                level_pass_rates, level_counts, round, steer_step (0 before any steering)
    commit      name, pass_rate
    reject      reason_code, reason
    task_error  error, traceback
    task_end    status (accepted|rejected|failed|skipped|not_started), reason_code, reason, bootcamp
    ray_task    node, pid, waited_s (since submission): the Ray node and process that runs (an
                attempt of) the task's graph (``--executor ray`` only; one per attempt)
    ray_stats   endpoints: {endpoint: limit, max_held, granted, lapsed, ...} of the cluster-wide
                model-call limits; tasks: count and mean/max of waited_s, setup_s, graph_s,
                drain_s, returned_s (``--executor ray`` only, before run_end)
    run_end     run_id, tokens_in, tokens_out, tokens_cached, llm_calls, llm_seconds, cost_usd,
                elapsed_s, budget_stopped, counts, reasons
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from synth.models.llm import ModelSpec, Price, redact_text
from synth.paths import OutsideRootError, inside
from synth.text.utf8 import json_text

#: keys that may change between a run and its resumption (they do not change results)
OPERATIONAL_KEYS = frozenset({"concurrency", "llm_concurrency", "sandbox_slots", "budget_usd",
                              "warm_prefix"})
#: keys added after runs existed, left out of the hash at their defaults so that older runs resume
LATER_DEFAULTS: dict[str, Any] = {"judge": None, "mode": "auto", "compact_exemplars": False,
                                  "steer_rounds": 1, "allow_unverified_key": False,
                                  "key_solver": "auto", "dedup": True, "calibrate": 0,
                                  "validator": "always"}


class RunConfig(BaseModel):
    """Everything that determines what a run produces. Built once, at the CLI edge."""

    model_config = ConfigDict(extra="forbid")

    source: str
    path: str | None = None
    limit: int | None = Field(default=None, ge=1)
    task_ids: list[str] | None = None
    coder: ModelSpec
    solver: ModelSpec
    #: writes the independent checker; None = the coder's model and endpoint
    judge: ModelSpec | None = None
    candidates: int = Field(default=2, ge=1, le=16)
    rounds: int = Field(default=3, ge=0, le=20)
    samples: int = Field(default=64, ge=1, le=4096)
    band_low: float = Field(default=0.03, ge=0.0, le=1.0)
    band_high: float = Field(default=0.85, ge=0.0, le=1.0)
    sandbox: Literal["auto", "process", "bwrap", "docker"] = "auto"
    library: str
    require_review: bool = False
    force: bool = False
    #: compare each bootcamp with its source family in the library before committing it: one
    #: that behaves like one there, or states the same task, is rejected (``duplicate_of``)
    dedup: bool = True
    exemplars: int = Field(default=2, ge=0, le=4)
    #: one short exemplar (docstrings and comments stripped) instead of ``exemplars`` full ones
    compact_exemplars: bool = False
    #: full: the model writes the whole module; compiled: the task's reference program is embedded
    #: and the model writes the rest; auto: compiled where a verified reference program exists
    mode: Literal["full", "compiled", "auto"] = "auto"
    #: extra revise rounds after a too_easy / too_hard filter verdict (0: reject at once)
    steer_rounds: int = Field(default=1, ge=0, le=10)
    #: commit a compiled bootcamp whose answer key no second source verified (no other
    #: solution of the task, no usable solver from the judge); the record then says so
    allow_unverified_key: bool = False
    #: when the judge role writes a solver that votes on a compiled task's answer key: auto,
    #: when the task has no other independent solution; always, also when it has (several
    #: solutions from one file can be written to agree; the judge's cannot)
    key_solver: Literal["auto", "always"] = "auto"
    #: after the filter accepts: ask the solver this many prompts more, all answered (no early
    #: stop, ``synth calibrate``'s seeds), and commit only if that rate is in the band too; the
    #: record carries the measurement (0: the filter's own, possibly early-stopped, rate)
    calibrate: int = Field(default=0, ge=0, le=4096)
    #: when the judge role writes an input validator for a task whose candidates render stdin:
    #: always; or unread, only when the statement's own input check (synth.statement.derive,
    #: which the gate's inputs check runs without a model) leaves a sentence of the Input
    #: section unread or unchecked, or reads no layout (the embedded model's default: its
    #: validators cost two long calls and were mostly rejected)
    validator: Literal["always", "unread"] = "always"
    #: read each mode's stable prefix into the endpoint's prompt cache once before the tasks
    #: start (a local server with few cores: parallel first calls would each read it)
    warm_prefix: bool = False
    prices: dict[str, Price] = Field(default_factory=dict)
    concurrency: int = Field(default=4, ge=1, le=256)
    llm_concurrency: int = Field(default=16, ge=1, le=1024)
    sandbox_slots: int = Field(default=2, ge=1, le=64)
    budget_usd: float | None = Field(default=None, ge=0.0)

    @property
    def judge_spec(self) -> ModelSpec:
        """The judge role's model: its own when given, else the coder's."""
        return self.judge or self.coder

    def public_dump(self) -> dict[str, Any]:
        """The configuration as config.json holds it: API keys left out, base URLs redacted
        (:func:`synth.models.llm.redact_url`; a password in a URL is never written)."""
        data = self.model_dump(mode="json")
        for role in ("coder", "solver", "judge"):
            spec = getattr(self, role)
            if spec is not None:
                data[role] = spec.public_dump()
        return data

    def hashed_part(self) -> dict[str, Any]:
        data = self.public_dump()
        for key, default in LATER_DEFAULTS.items():
            if key in data and data[key] == default:
                data.pop(key)  # the default: runs started before the option existed hash alike
        return {k: v for k, v in data.items() if k not in OPERATIONAL_KEYS}

    def config_hash(self) -> str:
        blob = json.dumps(self.hashed_part(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()


class RunError(Exception):
    """A run folder problem the user must resolve (message says how)."""


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def diff_keys(a: dict[str, Any], b: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two nested dicts."""
    out = []
    for key in sorted(set(a) | set(b)):
        va, vb = a.get(key), b.get(key)
        if isinstance(va, dict) and isinstance(vb, dict):
            out.extend(diff_keys(va, vb, f"{prefix}{key}."))
        elif va != vb:
            out.append(f"{prefix}{key}")
    return out


def task_slug(task_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", task_id)[:120]


def run_folder(runs_dir: Path, run_id: str) -> Path:
    """The folder of run ``run_id`` in ``runs_dir`` (need not exist), resolved: ``run_id`` is
    one folder name (not absolute, no ``..``, no ``/``) and, after symlinks, lies inside
    ``runs_dir``; else :class:`RunError` naming both."""
    try:
        path = inside(runs_dir, run_id, what="run id")
    except OutsideRootError as exc:
        raise RunError(str(exc)) from exc
    if len(Path(run_id).parts) != 1:
        raise RunError(f"run id {run_id!r} must be one folder name inside {Path(runs_dir).resolve()}")
    return path


def run_file(run_dir: Path, rel: str) -> Path:
    """``rel`` inside the run folder ``run_dir``, resolved; :class:`RunError` when it (or a
    symlink on the way) leads out of it."""
    try:
        return inside(run_dir, rel, what="run file")
    except OutsideRootError as exc:
        raise RunError(str(exc)) from exc


class EventLog:
    """Append-only JSON-lines log, safe across threads; one ``write`` per event."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def line(kind: str, task: str | None = None, **payload: Any) -> str:
        """One event as its line of the log (timestamped now); any URL in it with credentials
        (user info, query values) is redacted (:func:`synth.models.llm.redact_text`), whichever field
        or error text carries it."""
        event = {"ts": round(time.time(), 4), "kind": kind, "task": task, **payload}
        return redact_text(json_text(event, ensure_ascii=False, default=str)) + "\n"

    def emit(self, kind: str, task: str | None = None, **payload: Any) -> None:
        self.write(self.line(kind, task, **payload))

    def write(self, text: str) -> None:
        """Append whole lines with one ``write`` (``O_APPEND``: never interleaved with another
        writer's lines on a local file system)."""
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, text.encode("utf-8"))
            finally:
                os.close(fd)


def read_events(path: Path) -> list[dict[str, Any]]:
    """Events of a log; a torn last line (killed writer) is skipped."""
    events: list[dict[str, Any]] = []
    if not path.exists():
        return events
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


class Run:
    """A run folder."""

    def __init__(self, root: Path, run_id: str, config: RunConfig) -> None:
        self.root = root
        self.run_id = run_id
        self.config = config
        self.events = EventLog(root / "events.jsonl")

    @property
    def checkpoint_path(self) -> Path:
        return self.root / "checkpoints.sqlite"

    @classmethod
    def create(cls, runs_dir: Path, config: RunConfig, run_id: str | None = None) -> Run:
        run_id = run_id or new_run_id()
        run_folder(runs_dir, run_id)
        root = runs_dir / run_id
        if root.exists():
            raise RunError(f"run folder {root} already exists; pick another run id")
        root.mkdir(parents=True)
        payload = {"run_id": run_id, "hash": config.config_hash(), "config": config.public_dump()}
        (root / "config.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        return cls(root, run_id, config)

    @classmethod
    def resume(cls, runs_dir: Path, run_id: str, config: RunConfig | None = None) -> Run:
        """Open an existing run; refuse if ``config`` differs from the one it started with."""
        run_folder(runs_dir, run_id)
        root = runs_dir / run_id
        cfg_path = run_file(root, "config.json")
        if not cfg_path.exists():
            raise RunError(f"no run {run_id!r} in {runs_dir} (missing {cfg_path})")
        saved = json.loads(cfg_path.read_text(encoding="utf-8"))
        saved_cfg = RunConfig.model_validate(saved["config"])
        if config is None:
            return cls(root, run_id, saved_cfg)
        if config.config_hash() != saved["hash"]:
            keys = diff_keys(saved_cfg.hashed_part(), config.hashed_part())
            raise RunError(
                f"run {run_id} was started with a different configuration "
                f"(differs in: {', '.join(keys) or 'unknown'}); "
                "resume it without changing these options, or start a new run"
            )
        return cls(root, run_id, config)

    def candidate_dir(self, task_id: str) -> Path:
        d = self.root / "candidates" / task_slug(task_id)
        d.mkdir(parents=True, exist_ok=True)
        return d

    def write_json(self, rel: str, data: Any) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(json_text(data, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
        tmp.replace(path)
        return path
