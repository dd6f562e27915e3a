"""The check suite, run by trusted code on the host against a sandboxed bootcamp.

One :class:`Suite` per candidate. It starts the candidate's method server (one sandbox session
for the whole suite), asks it questions through :class:`~synth.gate.calls.Candidate`, and makes
every judgement here: whether a case round-trips, whether two processes agree, how many cases
are distinct, whether a corrupted answer scored 1.0, how long each call took (measured on this
side of the pipe), and the verdict. Checks run in :data:`CHECK_ORDER` and share the generated
cases; each returns a result dict (:func:`result`). The checks about answers live in
:mod:`synth.gate.answers`.

Independent processes are independent sandbox sessions: the determinism check's second process
(another ``PYTHONHASHSEED``, every clock shifted) runs in a session of its own (its own
isolation unit), started in a background thread as soon as the levels are known, and the
reference program runs in a separate sandbox job -- neither can see or touch the candidate's.
"""

from __future__ import annotations

import json
import math
import random
import threading
import time
from typing import Any

from synth.gate import engines, severity
from synth.gate.calls import Candidate, Failure, ask_many
from synth.gate.report import CHECK_NAMES, resolve_seeds
from synth.sandbox.base import Backend, Limits
from synth.sandbox.kit import json_problem
from synth.sandbox.methods import MethodServer, ReplyBudget, server_limits

__all__ = ["CHECK_ORDER", "GATES", "Suite", "result"]

CHECK_ORDER = tuple(n for n in CHECK_NAMES if n != "static")
#: Checks every later check needs: once one fails, the rest are skipped (a convention finding
#: never stops them; in intern mode, neither does a generate failure that left some cases).
GATES = ("load", "construct", "generate")
NO_REFERENCE = "InternBootcamp classes have no reference_answer"
#: render_stdin calls per sandbox round trip (:meth:`Suite.stdins`)
STDIN_BATCH = 64



def result(status: str, reason: str, finding: str = "", hard: bool = True,
           severity: str = "reject", **artifacts: Any) -> dict[str, Any]:
    arts: dict[str, str] = {}
    for key, value in artifacts.items():
        if value is None:
            continue
        arts[key] = value if type(value) is str else _show(value)
    out: dict[str, Any] = {"status": status, "reason": reason, "artifacts": arts, "finding": finding}
    if not hard:
        out["hard"] = False
    if severity != "reject":
        out["severity"] = severity
    return out


def failure_result(f: Failure, context: str, **artifacts: Any) -> dict[str, Any]:
    return result(f.status, f"{context} {f.what}", finding=f.finding,
                  traceback=f.trace or None, **{**f.artifacts, **artifacts})


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)[:4000]


def _occurrences(text: str, part: str) -> list[int]:
    found: list[int] = []
    at = text.find(part)
    while at >= 0 and len(found) < 50:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def norm(text: str) -> str:
    return " ".join(text.split())


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


class Suite:
    """State shared by the checks of one candidate (see the module docstring)."""

    #: The checks of the report, in order (a multi-turn bootcamp's suite has its own).
    names: tuple[str, ...] = CHECK_NAMES
    #: other programs that vote on the answer key (the task's other solutions, a judge's
    #: solver: :class:`synth.gate.key.Voter`), set by ``run_checks``
    voters: tuple[Any, ...] = ()

    def __init__(self, cfg: Any, source: str, *, mode: str, relative: bool,
                 reference: str | None, backend: Backend, checker: str | None = None,
                 example_inputs: list[str] | None = None, task_text: str | None = None,
                 validator: str | None = None) -> None:
        self.cfg: Any = resolve_seeds(cfg)
        cfg = self.cfg
        self.source = source
        self.example_inputs = list(example_inputs or [])
        #: the task's problem text (a compiled module's TASK_TEXT, or --task) and the source
        #: of an input validator (the judge's, or --validator): the inputs check reads them
        self.task_text = task_text
        self.validator_source = validator
        #: the reference program's run on each stdin the oracle check gave it (the inputs
        #: check reads its "no solution" outputs)
        self.reference_runs: dict[str, dict[str, Any]] = {}
        self.checker_source = checker
        self.mode = mode
        self.relative = relative
        self.reference = reference
        self.backend = backend
        self.intern = mode == "intern"
        self.limits: Limits = server_limits(memory_mb=cfg.limits.memory_mb, pids=cfg.limits.pids)
        #: what the host takes from the candidate's replies, over all its sessions
        self.budget = ReplyBudget(cfg.reply_budget_mb * 1_000_000)
        self.cand = Candidate(self._server(cfg.main_hashseed), intern=self.intern)
        #: the run's random seeds (reported by the load check, so a finding can be replayed
        #: with ``CheckConfig(seed=..., main_hashseed=..., child_hashseed=...)``)
        self.seeds_used = (f"seed {cfg.seed}, PYTHONHASHSEED {cfg.main_hashseed} (second "
                           f"process {cfg.child_hashseed})")
        self.info: dict[str, Any] = {}
        #: the module's declared engines started (set by the load check): the determinism
        #: checks then compare the commands the engines were sent, not only the answers
        self.engine_backed = False
        self.statuses: dict[str, str] = {}
        self.blocking: set[str] = set()
        self.levels_built = False
        self.levels: list[tuple[str, dict[str, Any], int]] = []
        self.handles: list[int] = []
        self.cases: list[list[str]] = []  # per level: canonical JSON text of each case
        self.gen_times: list[list[float]] = []
        self.answers: dict[tuple[int, int], str] = {}
        self.answer_times: list[float] = []
        self.prompts: dict[tuple[int, int], str] = {}
        self.prompt_times: list[float] = []
        self.verify_times: list[float] = []
        self.consistent: list[tuple[int, int]] = []
        self._tags: tuple[str, str] | None = None
        self.scored: list[tuple[str, str, float]] = []
        #: the mutation check's (tried, accepted) per kind of corruption
        self.mutation_counts: dict[str, tuple[int, int]] = {}
        self.rng = random.Random(cfg.seed * 31 + 7)
        self.current, self.spent = "", 0.0
        self.notes: list[dict[str, Any]] = []  # the running check's conventions (severity.note)
        self.gen_failed: dict[int, int] = {}  # intern mode: level -> the case that failed
        self.too_slow = ""  # the check that ran out of time, if any
        #: intern mode: seconds per score call as the answer probes timed it, and why they
        #: stopped asking for scores (a verifier that takes seconds), for the later probes
        self.probe_call_s = 0.0
        self.probes_stopped = ""
        self.hung = ""  # the check during which the session was killed or died
        self.deadline = time.monotonic() + cfg.limits.wall_s
        self.second: dict[str, Any] = {}
        self._checker: Any = None
        self._validator: Any = None
        self._second_thread: threading.Thread | None = None
        #: render_stdin's text of each case asked so far (None: it failed on that case)
        self.stdin_texts: dict[tuple[int, int], str | None] = {}
        #: seconds to construct each level's instance (production builds one per case)
        self.construct_times: list[float] = []
        #: the judgements a check made that another check would repeat (e.g. "prompt_input")
        self.judged: set[str] = set()

    def _server(self, hashseed: int, *, shift_clock: bool = False, role: str = "") -> MethodServer:
        return MethodServer(self.source, backend=self.backend, limits=self.limits, mode=self.mode,
                            relative=self.relative, env={"PYTHONHASHSEED": str(hashseed)},
                            shift_clock=shift_clock, role=role, budget=self.budget)

    # -- orchestration ----------------------------------------------------------------------
    def run(self) -> dict[str, dict[str, Any]]:
        from synth.gate import answers, inputs, intern, intern_probes, key

        checks: dict[str, Any] = {n: getattr(Suite, "check_" + n) for n in CHECK_ORDER
                                  if hasattr(Suite, "check_" + n)}
        checks.update(answers.CHECKS)
        checks.update(inputs.CHECKS)
        checks.update(key.CHECKS)
        checks.update(intern_probes.CHECKS)
        out: dict[str, dict[str, Any]] = {}
        try:
            for name in CHECK_ORDER:
                skip = self.skip_reason(name)
                if skip is not None:
                    out[name] = {**result("skipped", skip), "elapsed_s": 0.0}
                    continue
                self.current, self.spent, self.notes = name, 0.0, []
                t0 = time.perf_counter()
                try:
                    res = checks[name](self)
                except Failure as f:
                    res = failure_result(f, "the bootcamp")
                if self.intern:
                    res = intern_probes.collect_events(self, name, res)
                    res = intern.judge(self, name, res)
                res["elapsed_s"] = round(time.perf_counter() - t0, 4)
                if not self.cand.server.alive and not self.hung:
                    self.hung = name  # the host killed it, or it died: nothing more to ask
                self.record(name, res)
                out[name] = res
        finally:
            self.close()
        return out

    def skip_reason(self, name: str) -> str | None:
        for gate in GATES:
            if gate == name:
                break
            if gate in self.blocking:
                return f"not run: the {gate} check did not pass"
        if name == "contract":
            return None
        if name in ("answer_probes", "case_fields") and not self.intern:
            return ("not applicable: a synthesized bootcamp's answers are judged against its "
                    "reference_answer (self_consistency, mutation)")
        if time.monotonic() > self.deadline:
            return (f"not run: the suite used up its {self.cfg.limits.wall_s:g}s wall-clock "
                    "budget")
        if self.too_slow and name not in ("levels", "timing"):
            return f"not run: the bootcamp is too slow (the {self.too_slow} check ran out of time)"
        if name == "consistency" and self.intern:
            return ("not applicable: InternBootcamp classes are audited, not served by the warm "
                    "pool")
        if name == "consistency" and self.statuses.get("timing") == "failed":
            # its call volume (production's worker life, twice over) is sized for a verifier
            # of production's speed; a slower one is already rejected by the timing check
            return "not run: the timing check failed (the verifier is too slow for production)"
        if name == "consistency" and (self.hung or self.too_slow):
            return self.hung_reason() if self.budget.exceeded is not None else \
                "not run: the bootcamp hung or was too slow earlier"
        if self.hung and name != "levels":
            return self.hung_reason()
        if name in ("self_consistency", "mutation", "purity") and self.intern:
            return f"not applicable: {NO_REFERENCE}"
        if name == "differential" and self.checker_source is None:
            return "not applicable: no independent checker was given (--checker)"
        if name == "differential" and self.intern:
            return f"not applicable: {NO_REFERENCE}"
        if name == "oracle":
            if self.reference is None:
                return "not applicable: no reference program was given (--reference)"
            if self.intern:
                return f"not applicable: {NO_REFERENCE}"
        if name == "inputs":
            if self.intern:
                return "not applicable: InternBootcamp classes have no render_stdin"
            if "render_stdin" not in set(self.info.get("defines") or []):
                return "not applicable: the bootcamp defines no render_stdin(identity)"
            if self.task_text is None and self.validator_source is None:
                return ("not applicable: no task text (a compiled module embeds one; else "
                        "--task) and no validator (--validator)")
        if name == "levels" and self.intern:
            return "not applicable: InternBootcamp classes have no LEVELS presets"
        if name in ("mutation", "purity") and not self.consistent:
            return "not run: no case whose reference answer scored 1.0"
        return None

    def hung_reason(self) -> str:
        """Why the checks after a killed or dead session do not run."""
        if self.budget.exceeded is not None:
            return (f"not run: the bootcamp's replies passed the {self.cfg.reply_budget_mb} MB "
                    f"the host keeps from one candidate during the {self.hung} check")
        return (f"not run: the sandboxed bootcamp hung or died during the {self.hung} check "
                "(its session was ended)")

    def charge(self, seconds: float) -> None:
        """Count time spent in the bootcamp; a check that runs past its budget is stopped."""
        self.spent += seconds
        budget = self.cfg.check_budget_s
        if self.spent > budget:
            self.too_slow = self.current
            raise Failure("timeout", f"used up the {budget:g}s time budget of the {self.current} "
                          "check: the bootcamp is too slow")

    def limit(self, wanted: float) -> float:
        """A call's time limit: ``wanted``, but never past the suite's deadline."""
        return max(0.05, min(wanted, self.deadline - time.monotonic()))

    def record(self, name: str, res: dict[str, Any]) -> None:
        status = res["status"]
        self.statuses[name] = status
        # An accepted typo is reported by construct but does not stop the checks after it,
        # nor does a convention; in intern mode the checks run on the cases that were made.
        blocked = status != "passed" and res.get("severity") != "convention" \
            and not (name == "construct" and self.levels_built) \
            and not (name == "generate" and self.intern and any(self.cases))
        if name in GATES and blocked:
            self.blocking.add(name)

    def checker(self) -> Any:
        """The independent checker's sandboxed server, started on first use (raises Failure
        when it does not load: the checker's fault, never the bootcamp's)."""
        from synth.gate.calls import Checker

        assert self.checker_source is not None
        if self._checker is None:
            self._checker = Checker(MethodServer(
                self.checker_source, backend=self.backend, limits=self.limits, mode="checker",
                role="checker"))
            self._checker.load()
        return self._checker

    def validator(self) -> Any:
        """The input validator's sandboxed server (``validate(stdin)``), started on first use
        in a session of its own (raises Failure ``validator_broken`` when it does not load:
        the validator's fault, never the bootcamp's)."""
        from synth.gate.calls import Validator

        assert self.validator_source is not None
        if self._validator is None:
            validator = Validator(MethodServer(
                self.validator_source, backend=self.backend, limits=self.limits,
                mode="validator", role="validator"))
            try:
                validator.load()
            except Failure:
                validator.server.close()
                raise
            self._validator = validator
        return self._validator

    def close(self) -> None:
        self.cand.server.close()
        if self._checker is not None:
            self._checker.server.close()
        if self._validator is not None:
            self._validator.server.close()
        if self._second_thread is not None:
            self._second_thread.join(timeout=self.cfg.worker_timeout_s + 5)

    def each_case(self) -> list[tuple[int, int, str]]:
        return [(li, i, c) for li, cases in enumerate(self.cases) for i, c in enumerate(cases)]

    def spread(self, limit: int, pool: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        """Up to ``limit`` (level, index) pairs, round-robin over the levels."""
        keys = pool if pool is not None else [(li, i) for li, i, _ in self.each_case()]
        by_level: dict[int, list[tuple[int, int]]] = {}
        for key in keys:
            by_level.setdefault(key[0], []).append(key)
        picked: list[tuple[int, int]] = []
        for rank in range(max((len(v) for v in by_level.values()), default=0)):
            for level in sorted(by_level):
                if rank < len(by_level[level]) and len(picked) < limit:
                    picked.append(by_level[level][rank])
        return picked

    def extend_cases(self, total: int, budget_s: float) -> None:
        """Continue each level's case stream (the same instances, so the cases come from
        the whole stream, not only its start) until the levels hold ``total`` cases between
        them, or ``budget_s`` of generation time is spent."""
        per_level = math.ceil(total / max(1, len(self.levels)))
        spent = 0.0
        for li, handle in enumerate(self.handles):
            while len(self.cases[li]) < per_level and spent < budget_s:
                text, dt = self.generate(handle)
                spent += dt
                self.cases[li].append(text)
                self.gen_times[li].append(dt)

    def where(self, li: int, i: int) -> str:
        return f"level {self.levels[li][0]!r}, case {i}"

    def stdins(self, keys: list[tuple[int, int]]) -> dict[tuple[int, int], str | None]:
        """``render_stdin`` of the cases ``keys`` (cached; asked in batches, one round trip
        per :data:`STDIN_BATCH`): the text, or None where the call failed or returned no str
        (the oracle and inputs checks report those)."""
        missing = [k for k in keys if k not in self.stdin_texts]
        for start in range(0, len(missing), STDIN_BATCH):
            chunk = missing[start:start + STDIN_BATCH]
            replies, _ = ask_many(self.cand.server, [("stdin", {"case_text": self.cases[li][i]})
                                                     for li, i in chunk],
                                  self.limit(2.0), total_s=self.limit(30.0))
            for k, key in enumerate(chunk):
                value, fail = replies[k] if k < len(replies) else (None, None)
                ok = fail is None and type(value) is str and len(value) <= 2_000_000
                self.stdin_texts[key] = value if ok else None
        return {k: self.stdin_texts[k] for k in keys}

    def answer(self, li: int, i: int) -> str:
        key = (li, i)
        if key not in self.answers:
            value, dt = self.cand.answer(self.cases[li][i], self.limit(self.cfg.call_max_s * 2))
            self.answer_times.append(dt)
            self.charge(dt)
            self.answers[key] = value
        return self.answers[key]

    def tags(self) -> tuple[str, str]:
        """The answer format, learned once from ``wrap_answer`` of a real reference answer and
        of a changed copy of it: both must be ``open + answer + close`` with the same tags.

        Every answer the gate scores (reference, mutants, the reference program's output) is
        then wrapped HERE with these tags, so that ``wrap_answer`` cannot treat answers
        differently (e.g. format the reference properly and mangle corrupted answers)."""
        if self._tags is None:
            sample = self.answer(0, 0) if self.cases and self.cases[0] else "42"
            probe = sample + " zq" + str(self.rng.randrange(10, 100))
            first = self.cand.wrap(sample, self.limit(2.0))
            second = self.cand.wrap(probe, self.limit(2.0))
            for at in _occurrences(first, sample):
                open_, close = first[:at], first[at + len(sample):]
                if second == open_ + probe + close:
                    self._tags = (open_, close)
                    break
            else:
                raise Failure("failed", "wrap_answer must put any answer, unchanged, between the "
                              "same opening and closing text (it formats answers inconsistently)",
                              answer=sample, wrapped=first, other_answer=probe,
                              other_wrapped=second)
        return self._tags

    def wrap(self, answer: str) -> str:
        open_, close = self.tags()
        return open_ + answer + close

    def score(self, response: str, case: str, limit: float = 2.0,
              check_identity: bool = False) -> tuple[float, float]:
        score, dt = self.cand.score(response, case, self.limit(limit), check_identity)
        if len(response) <= 4000 and len(self.scored) < 2000:
            self.scored.append((response, case, score))  # for the consistency check
        return score, dt

    def construct(self, params: dict[str, Any], seed: int) -> int:
        return self.cand.construct(params, seed, self.limit(10.0))

    def generate(self, handle: int, reseed: int | None = None) -> tuple[str, float]:
        return self.cand.generate(handle, self.limit(self.cfg.case_limit_s),
                                  reseed if self.intern else None)

    # -- load / construct / generate --------------------------------------------------------
    def check_load(self) -> dict[str, Any]:
        try:
            self.info = self.cand.load()
        except Failure as f:
            return failure_result(f, "importing the module:")
        name = self.info["class"]
        if self.info.get("multi_turn") is True and type(self).names == CHECK_NAMES:
            return result("failed", f"{name} is a MultiTurnBootcamp, but the module does not "
                          "derive its class from MultiTurnBootcamp by that name (the gate picks "
                          "the multi-turn checks from the source): subclass it directly")
        if self.cand.tampering:
            return result("failed", "the module changed the bootcamp contract at import: "
                          + "; ".join(self.cand.tampering[:3]), finding="contract_tampered")
        defined = set(self.info.get("defines") or [])
        needed = ["case_generator", "prompt_func", "_verify_correction"]
        if not self.intern:
            needed.append("reference_answer")
        missing = [m for m in needed if m not in defined]
        if missing:
            return result("failed", f"{name} does not implement {', '.join(missing)}")
        no_engine = engines.load_problem(self.source, self.info)
        if no_engine is not None:
            return no_engine
        versions = engines.engine_versions(self.info)
        self.engine_backed = bool(versions)
        if self.engine_backed:
            self.cand.gen_logs = {}
        return result("passed", f"imported {name}" + (f" (engines: {versions})" if versions else "")
                      + f"; {self.seeds_used}",
                      engines=versions or None)

    def presets(self) -> list[tuple[str, dict[str, Any]]]:
        levels = self.info.get("levels") if not self.intern else None
        if type(levels) is dict and levels:
            return [(str(k), v) for k, v in levels.items()]
        return [("default", {})]

    def check_construct(self) -> dict[str, Any]:
        seed = self.cfg.seed
        levels = self.info.get("levels") if not self.intern else {}
        if type(levels) is dict and "__not_plain__" in levels:
            return result("failed", f"{levels['__not_plain__']} (LEVELS must be a dict of level "
                          "name -> dict of plain JSON parameters)")
        if levels is None:
            levels = {}
        if type(levels) is not dict or not all(type(v) is dict for v in levels.values()):
            return result("failed", "LEVELS must be a dict of level name -> dict of parameters",
                          levels=_show(levels)[:500])
        for name, params in levels.items():
            problem = json_problem(params, f"LEVELS[{name!r}]")
            if problem is not None:
                return result("failed", f"{problem} (level presets must be plain JSON data)")
        try:
            self.construct({}, seed)
        except Failure as f:
            return failure_result(f, "constructing with default parameters:")
        for li, (name, params) in enumerate(self.presets()):
            t0 = time.perf_counter()
            try:
                self.handles.append(self.construct(params, seed + li))
            except Failure as f:
                return failure_result(f, f"constructing LEVELS[{name!r}] = {params!r}:")
            self.construct_times.append(time.perf_counter() - t0)
            self.levels.append((name, params, seed + li))
        self.levels_built = True
        self.start_second_process()
        try:
            self.construct({"zz_not_a_parameter": 3}, seed)
        except Failure as f:
            if self.intern and f.status in ("error", "failed"):
                return result("passed", f"the defaults construct; an unknown parameter raises "
                              f"({f.what[:120]})")
            if "TypeError" not in f.what:
                return failure_result(f, "an unknown parameter must raise TypeError, but it")
        else:
            if self.intern:
                self.notes.append(severity.note(
                    "convention", "accepts_unknown_parameter", "an unknown parameter "
                    "(zz_not_a_parameter=3) was accepted silently (**params, InternBootcamp's "
                    "convention: a typo in a parameter name goes unnoticed)"))
                return result("passed", "the defaults construct")
            return result("failed", "an unknown parameter (zz_not_a_parameter=3) was accepted "
                          "silently: use explicit keyword arguments, no **kwargs that swallow typos")
        return result("passed", f"defaults and {len(self.levels)} level(s) construct; "
                      "an unknown parameter raises TypeError")

    def check_generate(self) -> dict[str, Any]:
        from synth.gate import intern

        cfg = self.cfg
        first_failure: dict[str, Any] | None = None
        for li, handle in enumerate(self.handles):
            cases: list[str] = []
            times: list[float] = []
            self.cases.append(cases)
            self.gen_times.append(times)
            spent = 0.0
            reseed: int | None = self.levels[li][2]
            while len(cases) < cfg.cases_per_level:
                try:
                    text, dt = self.generate(handle, reseed)
                except Failure as f:
                    failed = failure_result(f, f"case_generator ({self.where(li, len(cases))}):")
                    if not self.intern:
                        return failed
                    first_failure = first_failure or failed
                    self.gen_failed[li] = len(cases)
                    break
                reseed = None
                if len(text) > cfg.case_max_chars:
                    too_big = result("failed", f"{self.where(li, len(cases))}: the case is "
                                     f"{len(text)} chars of JSON (max {cfg.case_max_chars})",
                                     case=text)
                    if not self.intern:
                        return too_big
                    first_failure = first_failure or too_big
                    self.gen_failed[li] = len(cases)
                    break
                cases.append(text)
                times.append(dt)
                spent += dt
                if len(cases) >= cfg.min_cases and spent > cfg.level_budget_s:
                    break
                if len(cases) >= 3 and mean(times) > cfg.gen_mean_s:
                    break  # clearly too slow; the timing check reports it
            if not self.cand.server.alive:
                break
        counts = ", ".join(f"{name}={len(c)}"
                           for (name, _, _), c in zip(self.levels, self.cases, strict=True))
        if first_failure is not None:
            made = sum(map(len, self.cases))
            if made:
                first_failure["reason"] += (f" (the later checks run on the {made} case(s) "
                                            "generated before it)")
            return first_failure
        if self.cand.converted:
            changed = intern.roundtrip(self)
            if changed is not None:
                return changed
        return result("passed", f"cases generated per level: {counts}; all JSON round-trip exactly"
                      if not self.cand.converted else f"cases generated per level: {counts}")

    # -- determinism --------------------------------------------------------------------------
    def start_second_process(self) -> None:
        """Regenerate the first cases of each level -- and their reference answers -- in
        another sandbox session (other hash seed, clocks shifted, the levels' instances
        created in the REVERSE order), in the background."""
        server = self._server(self.cfg.child_hashseed, shift_clock=True, role="determinism")
        self.second = {"levels": [[] for _ in self.levels], "answers": [[] for _ in self.levels],
                       "error": None, "failed_at": {}, "gen_logs": [[] for _ in self.levels]}
        logged = self.engine_backed

        def work() -> None:
            other = Candidate(server, intern=self.intern)
            deadline = time.monotonic() + self.cfg.worker_timeout_s
            try:
                other.load()
                if logged:
                    other.gen_logs = {}
                order = list(range(len(self.levels)))[::-1]
                answering = True
                handles = {li: other.construct(self.levels[li][1], self.levels[li][2], 10.0)
                           for li in order}
                if other.gen_logs is not None:
                    for li in order:
                        other.gen_logs[handles[li]] = self.second["gen_logs"][li]
                for li in order:
                    seed = self.levels[li][2]
                    entry, answers = self.second["levels"][li], self.second["answers"][li]
                    reseed: int | None = seed if self.intern else None
                    start = time.monotonic()
                    for _ in range(self.cfg.determinism_cases):
                        left = deadline - time.monotonic()
                        if left <= 0:
                            self.second["error"] = "timeout"
                            return
                        try:
                            text, _ = other.generate(handles[li],
                                                     min(self.cfg.case_limit_s, left), reseed)
                        except Failure:
                            if not (self.intern and other.server.alive):
                                raise
                            self.second["failed_at"][li] = len(entry)  # compared with the first
                            break
                        reseed = None
                        entry.append(text)
                        if not self.intern and answering:
                            try:
                                answers.append(other.answer(text, min(2.0, max(0.05, left)))[0])
                            except Failure as f:
                                if not other.server.alive:
                                    raise
                                answering = False  # the answer checks report it
                                del f
                        if len(entry) >= 2 and (time.monotonic() - start
                                                > self.cfg.level_budget_s * 4):
                            break
            except Failure as f:
                self.second["error"] = f"{f.what}\n{f.trace[-1500:]}"
            finally:
                server.close()

        self._second_thread = threading.Thread(target=work, name="synth-gate-determinism",
                                               daemon=True)
        self._second_thread.start()

    def check_determinism(self) -> dict[str, Any]:
        same = self.same_process()
        if same is not None:
            return same
        assert self._second_thread is not None
        self._second_thread.join(timeout=self.cfg.worker_timeout_s + 5)
        if self._second_thread.is_alive() or self.second.get("error") == "timeout":
            return result("timeout", "the second process did not finish generating within "
                          f"{self.cfg.worker_timeout_s:g}s")
        hint = ("all randomness must come from self.rng (no global random, time, id(), hash() "
                "of str or set order of strings, no state shared between instances)")
        if self.second.get("error"):
            return result("failed", "the same code raised in a second process (other hash seed "
                          f"and clock) but not in the first: {hint}",
                          second_process=self.second["error"])
        for li, entry in enumerate(self.second["levels"]):
            mine_failed, theirs_failed = self.gen_failed.get(li), self.second["failed_at"].get(li)
            if (theirs_failed is not None and theirs_failed < len(self.cases[li])) or \
                    (mine_failed is not None and len(entry) > mine_failed):
                first, second = ((f"raised at case {mine_failed}" if mine_failed is not None
                                  else f"made {len(self.cases[li])} cases"),
                                 (f"raised at case {theirs_failed}" if theirs_failed is not None
                                  else f"made {len(entry)} cases"))
                return result("failed", f"level {self.levels[li][0]!r}: case_generator {first} "
                              f"in the first process but {second} in a second one (other hash "
                              f"seed and clock): {hint}")
            for i, text in enumerate(entry[: len(self.cases[li])]):
                mine = self.cases[li][i]
                if text != mine:
                    return result("failed", f"{self.where(li, i)}: the same seed gave a different "
                                  f"case in a second process (levels built in the reverse "
                                  f"order): {hint}", first_process=mine, second_process=text)
        told = self._engine_commands_differ()
        if told is not None:
            return told
        checked, note = 0, ""
        for li, answers in enumerate(self.second["answers"]):
            for i, theirs in enumerate(answers[: len(self.cases[li])]):
                try:
                    mine = self.answer(li, i)
                except Failure as f:  # reported by the answer checks; not a determinism issue
                    note = f"; answers not compared: reference_answer {f.what}"
                    break
                checked += 1
                if mine != theirs:
                    return result("failed", f"{self.where(li, i)}: the same case got a different "
                                  "reference answer in a second process (other hash seed, other "
                                  f"instance order): {hint}", case=self.cases[li][i],
                                  first_process=mine, second_process=theirs)
        return result("passed", "same seed, same cases and same reference answers in a second "
                      "process (other PYTHONHASHSEED, clock shifted, instances built in the "
                      f"reverse order; {checked} answers compared) and in a fresh instance"
                      + note)

    def _engine_commands_differ(self) -> dict[str, Any] | None:
        """An engine-backed bootcamp: the cases the second process regenerated must have sent
        the engines the same commands as in the first (a seed or level from the clock or a
        string's hash is nondeterminism even where the engine's answers agreed)."""
        if self.cand.gen_logs is None:
            return None
        for li, theirs in enumerate(self.second.get("gen_logs") or []):
            if li >= len(self.handles):
                break
            n = min(len(theirs), len(self.cases[li]))
            mine = self.cand.gen_logs.get(self.handles[li], [])[:n]
            told = engines.log_difference(mine, theirs[:n])
            if told is not None:
                i = told.pop("call")
                return result("failed", f"{self.where(li, i)}: case_generator sent its engine "
                              "other commands in a second process (other PYTHONHASHSEED, clock "
                              "shifted) than in the first, though the cases agreed: an engine's "
                              "settings (seed, level, options) must come from self.rng, never "
                              "from the clock or hash()",
                              finding="nondeterministic_engine_settings",
                              case=self.cases[li][i], **told)
        return None

    def same_process(self) -> dict[str, Any] | None:
        """A fresh instance with the same seed, in this process, must repeat the cases."""
        _, params, seed = self.levels[0]
        want = self.cases[0][:3]
        try:
            handle = self.construct(params, seed)
            got = [self.generate(handle, seed if k == 0 else None)[0] for k in range(len(want))]
        except Failure as f:
            return failure_result(f, "regenerating with the same seed in the same process:")
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            if a != b:
                return result("failed", f"{self.where(0, i)}: a fresh instance with the same seed "
                              "gave a different case in the same process: draw only from "
                              "self.rng (not the global random module) and keep no state outside "
                              "the instance", first_instance=a, second_instance=b)
        return None

    # -- diversity / prompt -------------------------------------------------------------------
    def check_diversity(self) -> dict[str, Any]:
        for li, cases in enumerate(self.cases):
            n, distinct = len(cases), len(set(cases))
            need = max(2, math.ceil(0.25 * n)) if n >= 4 else 1
            if distinct < need:
                return result("failed", f"level {self.levels[li][0]!r}: only {distinct} distinct "
                              f"case(s) among {n} (need {need})", example=cases[0])
        _, params, seed = self.levels[0]
        try:
            other = self.construct(params, seed + 7919)
            got = [self.generate(other, seed + 7919 if k == 0 else None)[0]
                   for k in range(len(self.cases[0][:3]))]
        except Failure as f:
            return failure_result(f, "generating with another seed:")
        if got == self.cases[0][: len(got)]:
            return result("failed", "another seed gave exactly the same cases: the seed is ignored",
                          example=got[0])
        if self.intern:
            return result("passed", f"{sum(len(set(c)) for c in self.cases)} distinct cases "
                          f"(answers not checked: {NO_REFERENCE})")
        total_distinct = 0
        for li, cases in enumerate(self.cases):
            counts: dict[str, int] = {}
            for i in range(len(cases)):
                try:
                    key = norm(self.answer(li, i))
                except Failure as f:
                    return failure_result(f, f"reference_answer ({self.where(li, i)}):",
                                          case=cases[i])
                counts[key] = counts.get(key, 0) + 1
            n, level = len(cases), self.levels[li][0]
            top, top_n = max(counts.items(), key=lambda kv: kv[1])
            total_distinct += len(counts)
            if n >= 4 and len(counts) < 2:
                return result("failed", f"level {level!r}: every one of {n} cases has the same "
                              "answer", answer=top)
            if n >= 10 and top_n / n > 0.8:
                return result("failed", f"level {level!r}: {top_n} of {n} cases share one answer: "
                              "guessing it would score well", answer=top)
            two = sum(c for _, c in sorted(counts.items(), key=lambda kv: -kv[1])[:2])
            if n >= 20 and two / n >= 0.95 and not self.info.get("yes_no"):
                values = [k for k, _ in sorted(counts.items(), key=lambda kv: -kv[1])[:2]]
                return result("failed", f"level {level!r}: the answers take at most 2 values on "
                              f"{two} of {n} cases ({values[0]!r:.40}, {values[-1]!r:.40}): "
                              "guessing scores well; make the answers informative, or declare "
                              "YES_NO_TASK = True if the task is a yes/no question by nature",
                              finding="degenerate_answers", answers=values)
        return result("passed", f"{sum(len(set(c)) for c in self.cases)} distinct cases, "
                      f"{total_distinct} distinct answers over {len(self.cases)} level(s)")

    def answer_tag(self) -> str:
        if self.intern:
            return ""
        return self.tags()[0].strip()

    def check_prompt(self) -> dict[str, Any]:
        limit = self.cfg.prompt_max_chars
        try:
            tag = self.answer_tag()
        except Failure as f:
            return failure_result(f, "wrap_answer:")
        leaks: list[tuple[int, int]] = []
        long_answers = 0
        missing_tag: list[tuple[int, int]] = []
        for li, i, case in self.each_case():
            try:
                prompt, dt = self.cand.prompt(case, self.limit(self.cfg.call_max_s * 2))
            except Failure as f:
                return failure_result(f, f"prompt_func ({self.where(li, i)}):", case=case)
            self.prompt_times.append(dt)
            self.charge(dt)
            if not prompt.strip():
                return result("failed", f"{self.where(li, i)}: the prompt is empty", case=case)
            if len(prompt) > limit:
                return result("failed", f"{self.where(li, i)}: the prompt has {len(prompt)} "
                              f"chars (max {limit})", prompt=prompt)
            self.prompts[(li, i)] = prompt
            if tag and tag not in prompt:
                missing_tag.append((li, i))
            if not self.intern:
                try:
                    answer = norm(self.answer(li, i))
                except Failure as f:
                    return failure_result(f, f"reference_answer ({self.where(li, i)}):", case=case)
                if len(answer) >= 8:
                    long_answers += 1
                    if answer in norm(prompt):
                        leaks.append((li, i))
        if missing_tag:
            li, i = missing_tag[0]
            return result("failed", f"{len(missing_tag)} prompt(s) never show the answer format "
                          f"{tag!r} (first: {self.where(li, i)})", prompt=self.prompts[(li, i)])
        if not self.intern:  # what the prompt shows: the program's input, not an answer
            from synth.gate import prompt_input

            if prompt_input.applies(self):
                self.judged.add("prompt_input")
                hidden = prompt_input.hidden_input(self)
                if hidden is not None:
                    return hidden
        if leaks and len(leaks) >= max(1, math.ceil(0.25 * long_answers)):
            li, i = leaks[0]
            return result("failed", f"{len(leaks)} of {long_answers} prompts contain their own "
                          f"answer verbatim (first: {self.where(li, i)})",
                          answer=self.answers[(li, i)], prompt=self.prompts[(li, i)])
        try:
            again, _ = self.cand.prompt(self.cases[0][0], self.limit(self.cfg.call_max_s * 2))
        except Failure as f:
            return failure_result(f, "prompt_func (second call):")
        if again != self.prompts[(0, 0)]:
            return result("failed", "prompt_func gave two different prompts for the same case",
                          first=self.prompts[(0, 0)], second=again)
        extra = (", state the answer format and leak no answer" if tag else
                 f" (answer format and leaks not checked: {NO_REFERENCE})")
        if "prompt_input" in self.judged:
            extra += ", and show render_stdin's text"
        return result("passed", f"{len(self.prompts)} prompts are non-empty, at most "
                      f"{max(map(len, self.prompts.values()))} chars{extra}")
