"""The state one candidate's checks share, held by trusted code on the host.

One :class:`Suite` per candidate. It starts the candidate's method server (one sandbox session
for the whole suite) and asks it questions through :class:`~synth.gate.calls.Candidate`; the
checks make every judgement from the plain values it returns: whether a case round-trips,
whether two processes agree, how many cases are distinct, whether a corrupted answer scored
1.0, how long each call took (measured on this side of the pipe), and the verdict. The suite
also holds the rules of which check runs (:meth:`Suite.skip_reason`), the time budgets, and
the other sandbox sessions (checker, validator, reference program).

The checks are functions of a suite, in modules that import this one and nothing that imports
them back: :mod:`synth.gate.basics` (load .. prompt), :mod:`synth.gate.answers`,
:mod:`synth.gate.differential`, :mod:`synth.gate.key`, :mod:`synth.gate.inputs` and the
InternBootcamp probes. :func:`synth.gate.run.run_suite` runs them in :data:`CHECK_ORDER`.

Independent processes are independent sandbox sessions: the determinism check's second process
(another ``PYTHONHASHSEED``, every clock shifted) runs in a session of its own (its own
isolation unit), started in a background thread as soon as the levels are known, and the
reference program runs in a separate sandbox job -- neither can see or touch the candidate's.
"""

from __future__ import annotations

import math
import random
import threading
import time
from typing import Any

from synth.gate.calls import Candidate, Checker, Failure, Validator, ask_many
from synth.gate.programs import run_program
from synth.gate.report import CHECK_NAMES, resolve_seeds
from synth.sandbox.base import Backend, Limits
from synth.sandbox.methods import MethodServer, ReplyBudget, server_limits

__all__ = ["CHECK_ORDER", "GATES", "NO_REFERENCE", "Suite"]

CHECK_ORDER = tuple(n for n in CHECK_NAMES if n != "static")
#: Checks every later check needs: once one fails, the rest are skipped (a convention finding
#: never stops them; in intern mode, neither does a generate failure that left some cases).
GATES = ("load", "construct", "generate")
NO_REFERENCE = "InternBootcamp classes have no reference_answer"
#: render_stdin calls per sandbox round trip (:meth:`Suite.stdins`)
STDIN_BATCH = 64


def _occurrences(text: str, part: str) -> list[int]:
    found: list[int] = []
    at = text.find(part)
    while at >= 0 and len(found) < 50:
        found.append(at)
        at = text.find(part, at + 1)
    return found


class Suite:
    """State shared by the checks of one candidate (see the module docstring)."""

    #: The checks of the report, in order (a multi-turn bootcamp's suite has its own).
    names: tuple[str, ...] = CHECK_NAMES
    #: other programs that vote on the answer key (the task's other solutions, a judge's
    #: solver: :class:`synth.gate.key.Voter`), set by ``run_checks``
    voters: tuple[Any, ...] = ()
    #: a function bootcamp's reference function name (its module embeds it; the reference is
    #: then that function's source) and the task's test code (HumanEval's ``check``), read by
    #: the function checks (:mod:`synth.gate.functions`)
    entry_point: str | None = None
    function_tests: str | None = None

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
        self.cand = Candidate(self.new_server(cfg.main_hashseed), intern=self.intern)
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
        #: what the consistency check's fresh cases say of the instance space (the instances
        #: check reads it; :func:`synth.gate.fresh.instance_space`), None until then
        self.space: dict[str, Any] | None = None
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
        self.second_thread: threading.Thread | None = None
        #: render_stdin's text of each case asked so far (None: it failed on that case)
        self.stdin_texts: dict[tuple[int, int], str | None] = {}
        #: seconds to construct each level's instance (production builds one per case)
        self.construct_times: list[float] = []
        #: the judgements a check made that another check would repeat (e.g. "prompt_input")
        self.judged: set[str] = set()
        #: production's cases for the consistency check, drawn in the background from the
        #: end of the generate check (:mod:`synth.gate.fresh`)
        self.fresh: Any = None

    def start_fresh_draw(self) -> None:
        """Start drawing the consistency check's fresh cases (once; single-turn, native)."""
        from synth.gate.fresh import FreshDraw

        cfg = self.cfg
        for li, times in enumerate(self.gen_times):  # the timing check's budgets, per level
            built = self.construct_times[li] if li < len(self.construct_times) else 0.0
            if times and (built + times[0] > cfg.gen_max_s / 2 or max(times) > cfg.gen_max_s
                          or sum(times) / len(times) > cfg.gen_mean_s):
                # the timing check is likely to fail (a fresh case is slow: export draws each
                # case from a new instance); the consistency check then draws if it runs at all
                return
        if self.fresh is None and not self.intern and "consistency" in self.names:
            self.fresh = FreshDraw(self.source, self.backend, str(self.info.get("class") or ""),
                                   self.rng)

    def new_server(self, hashseed: int, *, shift_clock: bool = False, role: str = "") -> MethodServer:
        return MethodServer(self.source, backend=self.backend, limits=self.limits, mode=self.mode,
                            relative=self.relative, env={"PYTHONHASHSEED": str(hashseed)},
                            shift_clock=shift_clock, role=role, budget=self.budget)

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
        if name == "instances" and self.intern:
            return "not applicable: InternBootcamp classes are drawn by their own conventions"
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
        if name == "inputs" and self.entry_point is not None and self.reference is not None:
            return None  # a function's arguments: checked against its signature and examples
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

    def run_reference(self, stdins: list[str]) -> list[dict[str, Any]] | str:
        """The reference program's outputs on ``stdins``, from a sandbox job of its own
        (validated here), or why it could not be run."""
        assert self.reference is not None
        runs = run_program(self.backend, self.reference, stdins,
                           timeout_s=self.cfg.oracle_timeout_s,
                           memory_mb=self.cfg.limits.memory_mb, role="reference",
                           filename="reference.py")
        return runs.outputs if runs.outputs is not None else runs.why("the reference program")

    def close(self) -> None:
        if self.fresh is not None:
            self.fresh.stop()
            self.fresh = None
        self.cand.server.close()
        if self._checker is not None:
            self._checker.server.close()
        if self._validator is not None:
            self._validator.server.close()
        if self.second_thread is not None:
            self.second_thread.join(timeout=self.cfg.worker_timeout_s + 5)

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

    def evenly(self, total: int) -> list[tuple[int, int]]:
        """Up to ``total`` (level, index) pairs: the same share of every level, evenly spaced
        over each level's whole case stream (not only its first cases)."""
        per_level = math.ceil(total / max(1, len(self.cases)))
        picks: list[tuple[int, int]] = []
        for li, cases in enumerate(self.cases):
            n = len(cases)
            k = min(n, per_level)
            if k == 0:
                continue
            step = (n - 1) / (k - 1) if k > 1 else 0.0
            picks += sorted({(li, round(j * step)) for j in range(k)})
        return picks

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

    # -- determinism --------------------------------------------------------------------------

    # -- diversity / prompt -------------------------------------------------------------------


