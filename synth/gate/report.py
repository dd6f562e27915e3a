"""The gate's typed results: one :class:`CheckResult` per check, a :class:`CheckReport` per
candidate, and the :class:`CheckConfig` of sizes and budgets.

Every result carries its evidence (traceback tail, the failing case, expected vs got) sized for
the revise prompt, which shows exactly these artifacts to the code model. Results are built by
the trusted host (``synth.gate.suite``); nothing in them is parsed from the sandbox's output.

Every finding has a severity (:data:`Severity`): ``reject`` (unfit for training: the candidate
is rejected), ``convention`` (a convention of the audited library, e.g. InternBootcamp's
``**params``: reported, never rejecting) or ``cannot_judge`` (the audit could not run the code,
e.g. a third-party dependency is missing: neither accepted nor rejected). The verdict of a
report is decided by its first reject finding (:attr:`CheckReport.decisive`).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Collection
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from synth.sandbox.base import Limits
from synth.text.utf8 import ESCAPED_NOTE, encodable, escape_surrogates

__all__ = [
    "ARTIFACT_CAP",
    "CHECK_NAMES",
    "FINDINGS",
    "MULTI_TURN_CHECK_NAMES",
    "CheckConfig",
    "CheckReport",
    "CheckResult",
    "CheckStatus",
    "Severity",
    "Verdict",
    "differential_examples",
    "render_differential",
]

#: Every check of the suite, in the order it runs. "static" lints the source on the host; the
#: others ask the sandboxed method server questions and judge its answers on the host.
CHECK_NAMES: tuple[str, ...] = (
    "static", "load", "construct", "generate", "determinism", "diversity", "prompt",
    "self_consistency", "purity", "mutation", "garbage", "answer_probes", "case_fields",
    "differential", "oracle", "inputs", "key", "levels", "timing", "consistency", "instances",
    "contract",
)
#: The checks of a multi-turn bootcamp (``MultiTurnBootcamp``: reset/step episodes), in the
#: order they run (:mod:`synth.gate.episodes`); the single-turn answer checks do not apply.
MULTI_TURN_CHECK_NAMES: tuple[str, ...] = (
    "static", "load", "construct", "generate", "determinism", "diversity", "observation",
    "reference_policy", "unusual_actions", "degenerate_policies", "state_purity",
    "episode_determinism", "turn_limit", "terminal", "levels", "timing", "episode_consistency",
    "contract",
)
#: Largest artifact kept per entry (characters): sized for the revise prompt.
ARTIFACT_CAP = 2000
#: Named findings a check can carry (``CheckResult.finding``).
FINDINGS: tuple[str, ...] = (
    "invalid_score", "contract_tampered", "protocol", "impure_verifier", "reference_disagrees",
    "verifier_too_lenient", "verifier_too_strict", "checker_broken", "impure_reference",
    "inert_parameter", "degenerate_answers", "inconsistent_verifier", "few_instances",
    # what the host reads (synth.sandbox.methods): text UTF-8 cannot encode, too many bytes
    "unencodable_text", "reply_budget",
    # inputs the statement allows (synth.gate.inputs, synth.gate.validator)
    "input_violates_statement", "validator_rejects_input", "validator_broken",
    "prompt_hides_input", "no_solution_where_guaranteed", "check_output_lenient",
    # a compiled bootcamp's STRESS level (code test suites only; synth.gate.inputs)
    "stress_invalid",
    # cases whose answer the prompt shows (the statement's examples, a docstring's calls)
    "answer_in_prompt",
    # the answer key against the task's other solutions and a judge's solver (synth.gate.key)
    "key_disagrees", "key_unverified",
    # the audit of InternBootcamp-style classes
    "accepts_unknown_parameter", "tuples_in_case", "swallowed_exception", "global_random",
    "missing_dependency", "roundtrip_changes_verdict",
    # answer-side probes of classes without a reference answer (synth.gate.intern_probes)
    "slow_verifier", "constant_answer", "example_is_answer", "answer_is_input",
    "cross_case_answer", "order_ignored", "lenient_verifier", "nondeterministic_prompt",
    "nondeterministic_case",
    "verifier_crashes", "executes_response", "runs_subprocess", "reads_machine_file",
    "sandbox_refused",
    # case fields of such classes (synth.gate.intern_fields)
    "constant_answer_field", "answer_leak", "prompt_missing_info",
    # multi-turn bootcamps (synth.gate.episodes)
    "reference_loses", "step_crashes", "slow_step", "rewards_illegal_actions",
    "degenerate_policy_wins", "hidden_state", "nondeterministic_episode", "episode_never_ends",
    "terminal_changes", "malformed_step",
    # engine-backed bootcamps (synth.gate.engines)
    "nondeterministic_engine_settings",
    # function bootcamps' arguments (synth.gate.functions)
    "argument_type", "argument_relation", "reference_raises", "returns_an_argument",
)
#: What a finding means for the verdict (see the module docstring).
Severity = Literal["reject", "convention", "cannot_judge"]
#: A report's outcome: ``synth check`` exits 0, 1, 3 and 2 for them.
Verdict = Literal["accepted", "rejected", "cannot_judge", "infrastructure_error"]

class CheckStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    OOM = "oom"
    SANDBOX_ERROR = "sandbox_error"
    SKIPPED = "skipped"


def _cap(text: str, limit: int, keep_tail: bool = False) -> str:
    if len(text) <= limit:
        return text
    cut = f"...[{len(text) - limit + 20} chars cut]..."
    room = limit - len(cut)
    return cut + text[-room:] if keep_tail else text[:room] + cut


class CheckResult(BaseModel):
    """One check: status, a one-line reason and prompt-sized evidence."""

    model_config = ConfigDict(extra="forbid")

    name: str
    status: CheckStatus
    hard: bool = True
    reason: str
    artifacts: dict[str, str] = Field(default_factory=dict)
    elapsed_s: float = 0.0
    finding: str = Field(default="", max_length=64, description="a named finding, e.g. invalid_score")
    severity: Severity = Field(
        default="reject", description="what a status other than passed/skipped means: reject "
        "(blocks acceptance), convention (reported, never rejecting), cannot_judge (the code "
        "could not be judged, e.g. a missing third-party dependency)")

    @field_validator("reason")
    @classmethod
    def _one_line(cls, value: str) -> str:
        shown = escape_surrogates(value)  # a report is written as UTF-8: never fails on text
        note = f" ({ESCAPED_NOTE})" if shown is not value else ""
        return _cap(" ".join(shown.split()), 400 - len(note)) + note

    @field_validator("artifacts")
    @classmethod
    def _bounded(cls, value: dict[str, str]) -> dict[str, str]:
        out = {
            escape_surrogates(k[:64]): _cap(escape_surrogates(v), ARTIFACT_CAP,
                                            keep_tail=k in ("traceback", "stderr"))
            for k, v in list(value.items())[:12]
        }
        if any(not encodable(k) or not encodable(v) for k, v in list(value.items())[:12]):
            out["encoding"] = ESCAPED_NOTE
        return out

    @property
    def clean(self) -> bool:
        """True when the check passed (or did not run): no finding of any severity."""
        return self.status in (CheckStatus.PASSED, CheckStatus.SKIPPED)

    @property
    def ok(self) -> bool:
        """True when this check does not block acceptance (a convention finding never does)."""
        return not self.hard or self.clean or self.severity == "convention"

    @property
    def label(self) -> str:
        """The status as shown to a reader: ``failed``, or ``convention`` / ``cannot judge``
        for a finding of that severity."""
        if self.clean or self.severity == "reject":
            return self.status.value
        return "convention" if self.severity == "convention" else "cannot judge"


class CheckConfig(BaseModel):
    """Sizes and budgets of the suite. Defaults keep a normal bootcamp under ~1.5 s."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: the gate's seeds and hash seeds of its main and second processes; None: drawn at random
    #: for the run. Fixed by default: the gate's verdicts on the shipped library and the
    #: corpora vary with the seeds (a random default failed 19 tests); the consistency check's
    #: worker runs under a random hash seed and draws fresh cases at random seeds instead
    #: (issue 22). The values used are in the load check's reason.
    seed: int | None = Field(default=20240611, ge=0, lt=2**62)
    cases_per_level: int = Field(default=40, ge=4, le=1000)
    min_cases: int = Field(default=8, ge=4, le=1000)
    level_budget_s: float = Field(default=0.15, gt=0, le=60)
    case_limit_s: float = Field(default=2.0, gt=0, le=60)
    case_max_chars: int = Field(default=100_000, ge=100)
    determinism_cases: int = Field(default=6, ge=1, le=100)
    worker_timeout_s: float = Field(default=15.0, gt=0, le=600)
    mutation_cases: int = Field(default=30, ge=1, le=1000)
    garbage_cases: int = Field(default=3, ge=1, le=100)
    garbage_limit_s: float = Field(default=2.0, gt=0, le=60)
    garbage_max_s: float = Field(default=1.0, gt=0, le=60)
    oracle_cases: int = Field(default=100, ge=1, le=1000)
    purity_cases: int = Field(default=10, ge=1, le=1000)
    consistency_samples: int = Field(default=60, ge=1, le=2000)
    differential_cases: int = Field(default=200, ge=1, le=5000)
    differential_budget_s: float = Field(default=6.0, gt=0, le=600)
    probes_per_case: int = Field(default=8, ge=0, le=100)
    disagreement_min_cases: int = Field(default=2, ge=1, le=1000)
    disagreement_rate: float = Field(default=0.01, ge=0, le=1)
    oracle_timeout_s: float = Field(default=5.0, gt=0, le=120)
    #: generated inputs on which the task's other solutions and a judge's solver run against
    #: the answer key (synth.gate.key), and the seconds each such program may take in all
    key_cases: int = Field(default=100, ge=1, le=2000)
    key_budget_s: float = Field(default=12.0, gt=0, le=600)
    prompt_max_chars: int = Field(default=20_000, ge=100)
    check_budget_s: float = Field(default=5.0, gt=0, le=600)  # bootcamp time per check
    gen_mean_s: float = Field(default=0.25, gt=0, le=60)  # mean generation time per case
    gen_max_s: float = Field(default=2.0, gt=0, le=60)  # slowest single case
    call_mean_s: float = Field(default=0.05, gt=0, le=60)  # mean verify/answer/prompt call
    call_max_s: float = Field(default=1.0, gt=0, le=60)  # slowest such call
    #: the bytes of replies the host takes from one candidate, over all its sessions: past
    #: it, the finding reply_budget (each reply is also capped on its own)
    reply_budget_mb: int = Field(default=64, ge=1, le=4096)
    main_hashseed: int | None = Field(default=1, ge=0, le=4294967295)
    child_hashseed: int | None = Field(default=2, ge=0, le=4294967295)
    limits: Limits = Limits(wall_s=60, cpu_s=60, memory_mb=1024, pids=64)
    #: end the suite at the first check that rejects (the rest: skipped, saying why); for a
    #: verdict when the whole report is not wanted (``synth check --fail-fast``)
    fail_fast: bool = False
    #: the names the first LEVELS presets must have, in this order (the library's curriculum:
    #: ``synth run`` passes easy, medium, hard; empty: any names, as ``synth check`` takes them)
    level_names: tuple[str, ...] = ()
    # multi-turn bootcamps (synth.gate.episodes)
    episode_cases: int = Field(default=8, ge=1, le=200)  # reference episodes per level
    policy_cases: int = Field(default=4, ge=1, le=100)  # episodes per level per policy
    replay_steps: int = Field(default=80, ge=1, le=2000)  # steps replayed by state_purity
    #: reference episodes an engine-backed bootcamp replays in two processes to compare the
    #: commands it sends its engines (episode_determinism)
    engine_log_episodes: int = Field(default=4, ge=1, le=100)
    step_limit_s: float = Field(default=2.0, gt=0, le=60)  # one reset/step/policy call
    step_mean_s: float = Field(default=0.05, gt=0, le=60)
    step_max_s: float = Field(default=1.0, gt=0, le=60)
    episode_budget_s: float = Field(default=20.0, gt=0, le=600)  # bootcamp time per check
    degenerate_max_mean: float = Field(default=0.3, ge=0, le=1)  # constant/random policies
    illegal_max_score: float = Field(default=0.1, ge=0, le=1)  # empty/garbage/long actions


class CheckReport(BaseModel):
    """The gate's verdict on one candidate (saved as ``round_<k>.check.json``)."""

    model_config = ConfigDict(extra="forbid")

    candidate_sha256: str
    candidate_name: str = ""
    mode: Literal["native", "intern"] = "native"
    backend: str
    checks: list[CheckResult]
    passed: bool
    infrastructure_error: bool = False
    timings: dict[str, float] = Field(default_factory=dict)

    @field_validator("candidate_name")
    @classmethod
    def _encodable(cls, value: str) -> str:
        return escape_surrogates(value)

    def get(self, name: str) -> CheckResult | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def key_verified_by(self) -> str | None:
        """How the answer key was verified, in words (the key check's ``verified_by``: e.g. "3
        solutions agree on 100 generated inputs", "unverified: one solution, no second
        voter"); None when the key check did not say (not run)."""
        key = self.get("key")
        return key.artifacts.get("verified_by") if key is not None else None

    @property
    def key_verified(self) -> bool:
        """True when the key check passed with a second voter (see :attr:`key_verified_by`)."""
        key = self.get("key")
        return key is not None and key.status is CheckStatus.PASSED and \
            bool(key.artifacts.get("verified_by"))

    @property
    def few_instances(self) -> CheckResult | None:
        """The instances check's finding ``few_instances`` (not hard: ``synth check`` passes
        such a bootcamp; ``synth run`` commits none), else None."""
        found = self.get("instances")
        return found if found is not None and found.finding == "few_instances" else None

    @property
    def failing(self) -> list[CheckResult]:
        """Checks that block acceptance (reject or cannot_judge findings), in suite order."""
        return [c for c in self.checks if not c.ok]

    @property
    def conventions(self) -> list[CheckResult]:
        """Findings that are conventions of the audited library: reported, never rejecting."""
        return [c for c in self.checks if not c.clean and c.severity == "convention"]

    @property
    def decisive(self) -> CheckResult | None:
        """The finding that decides the verdict: the first reject finding, else the first
        cannot_judge one, else None (accepted)."""
        failing = self.failing
        return next((c for c in failing if c.severity == "reject"), failing[0] if failing else None)

    @property
    def cannot_judge(self) -> bool:
        """True when nothing rejects the candidate but some part of it could not be judged
        (e.g. a third-party module it imports is missing in the sandbox)."""
        decisive = self.decisive
        return (not self.passed and not self.infrastructure_error and decisive is not None
                and decisive.severity == "cannot_judge")

    @property
    def verdict(self) -> Verdict:
        if self.infrastructure_error:
            return "infrastructure_error"
        if self.passed:
            return "accepted"
        return "cannot_judge" if self.cannot_judge else "rejected"

    def feedback(self, max_chars: int = 6000, only: Collection[str] | None = None,
                 voice: Literal["coder", "judge"] = "coder") -> str:
        """The failing checks as compact text for the revise prompt (bounded). ``only`` keeps
        the named checks, ``voice`` names whom the differential evidence addresses
        (``only={"differential"}, voice="judge"``: the evidence shown to the checker's author).

        A differential finding is rendered case by case -- the case, the answer, the verifier's
        score, the independent checker's verdict, the reference and ``solve()`` answers, the
        reference program's verdict where the oracle ran -- so a code model can act on it."""
        conventions = [c for c in self.conventions if only is None or c.name in only]
        if self.passed and not conventions:
            return "All hard checks passed."
        parts: list[str] = ["All hard checks passed."] if self.passed else []
        shown = [*self.failing, *conventions]
        echoes: list[str] = []
        if any(c.finding in _FUNCTION_FINDINGS for c in shown):
            # a function bootcamp's arguments: its named findings first; the checks that only
            # met the same raising reference (reference_answer raised) in one line after them
            echoes = [c.name for c in shown if c.finding not in _FUNCTION_FINDINGS
                      and "the reference function raised" in c.reason]
            shown = sorted((c for c in shown if c.name not in echoes),
                           key=lambda c: c.finding not in _FUNCTION_FINDINGS)
        for check in shown:
            if only is not None and check.name not in only:
                continue
            kind = "" if check.severity == "reject" else f" [{check.severity}]"
            lines = [f"## {check.name}: {check.status.value}{kind} -- {check.reason}"]
            if check.name == "differential" and "evidence" in check.artifacts:
                lines.append(render_differential(check, self.get("oracle"), voice))
            else:
                for key, value in check.artifacts.items():
                    lines.append(f"{key}:\n```\n{_cap(value, 800, key in ('traceback', 'stderr'))}\n```")
            parts.append("\n".join(lines))
        if echoes and only is None:
            parts.append(f"Also failed, on the same raising call of the reference function: "
                         f"{', '.join(echoes)}")
        skipped = [c.name for c in self.checks if c.status is CheckStatus.SKIPPED and c.hard]
        if skipped and only is None:
            parts.append("Not run because of the failures above or not applicable: "
                         + ", ".join(skipped))
        return _cap("\n\n".join(parts), max_chars)


#: A function bootcamp's findings about its arguments (:mod:`synth.gate.functions`): the
#: revise prompt shows them first.
_FUNCTION_FINDINGS = frozenset({"argument_type", "argument_relation", "reference_raises",
                                "returns_an_argument"})

#: What each differential finding means, for the code model.
_FINDING_TEXT = {
    "reference_disagrees": "the independent checker rejects your reference_answer",
    "verifier_too_lenient": "your verifier accepts an answer the independent checker rejects",
    "verifier_too_strict": "your verifier rejects an answer the independent checker accepts",
}
_EXAMPLE_KEYS = frozenset({"answer", "case", "checker_says"})


def differential_examples(evidence: str) -> list[tuple[str, dict[str, Any]]]:
    """(finding, example) pairs of a differential ``evidence`` artifact. The artifact is JSON,
    but may have been cut to the artifact cap: every example that survived whole is kept."""
    try:
        data = json.loads(evidence)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return [(kind, ex) for kind, exs in data.items() if isinstance(exs, list)
                for ex in exs if isinstance(ex, dict) and set(ex) >= _EXAMPLE_KEYS]
    decoder = json.JSONDecoder()
    kinds = [(m.start(), m.group(1)) for m in re.finditer(r'"(\w+)": \[', evidence)]
    out: list[tuple[str, dict[str, Any]]] = []
    pos = evidence.find("{", 1)
    while pos >= 0:
        try:
            ex, end = decoder.raw_decode(evidence, pos)
        except ValueError:
            ex, end = None, pos + 1
        if isinstance(ex, dict) and set(ex) >= _EXAMPLE_KEYS:
            kind = next((k for at, k in reversed(kinds) if at < pos), "")
            out.append((kind, ex))
        pos = evidence.find("{", end)
    return out


def _said(value: Any) -> str:
    return {True: "accepts it", False: "rejects it"}.get(value, "gave no verdict")


#: How the evidence names each side: to the bootcamp's author, and to the checker's author.
_VOICES = {
    "coder": ("your verifier", "independent checker", "your reference_answer",
              "the checker's own solve()"),
    "judge": ("the bootcamp's verifier", "your checker", "the bootcamp's reference_answer",
              "your solve()"),
}


def render_differential(check: CheckResult, oracle: CheckResult | None = None,
                        voice: Literal["coder", "judge"] = "coder") -> str:
    """The differential check's evidence as text a code model can act on, addressed to the
    bootcamp's author (``coder``) or to the checker's author (``judge``)."""
    verifier, checker, reference, solver = _VOICES[voice]
    examples = differential_examples(check.artifacts.get("evidence", ""))
    lines: list[str] = []
    current = None
    for n, (kind, ex) in enumerate(examples, 1):
        if kind != current:
            current = kind
            lines.append(f"### {kind}: {_FINDING_TEXT.get(kind, kind)}" if voice == "coder"
                         else f"### {kind}")
        score = ex.get("verifier_score")
        verdict = ("accepted" if score == 1.0 else "rejected") if isinstance(score, int | float) else "?"
        lines += [
            f"Example {n} (level {ex.get('level', '?')}; the answer came from: {ex.get('origin', '?')})",
            f"  case (identity): {_cap(str(ex.get('case', '')), 600)}",
            f"  answer judged: {_cap(repr(str(ex.get('answer', ''))), 300)}",
        ]
        if ex.get("response"):
            lines.append(f"  full response scored: {_cap(repr(str(ex['response'])), 300)}")
        lines += [
            f"  {verifier}: score {score} ({verdict})",
            f"  {checker}: {_said(ex.get('checker_says'))}",
            f"  {reference}: {_cap(repr(str(ex.get('reference_answer', ''))), 300)}",
        ]
        if ex.get("solve_answer") is not None:
            lines.append(f"  {solver}: {_cap(repr(str(ex['solve_answer'])), 300)}")
    if not examples:
        lines.append(f"evidence:\n```\n{_cap(check.artifacts.get('evidence', ''), 800)}\n```")
    for key in ("checker_notes", "threshold"):
        if check.artifacts.get(key):
            lines.append(f"{key.replace('_', ' ')}: {check.artifacts[key]}")
    if oracle is not None and oracle.status is not CheckStatus.SKIPPED:
        lines.append(f"reference program (third voter), oracle check {oracle.status.value}: "
                     f"{oracle.reason}")
    return "\n".join(lines)


def resolve_seeds(cfg: CheckConfig) -> CheckConfig:
    """``cfg`` with its seeds drawn where they are None: the gate's level seeds from 62 random
    bits, and two different random hash seeds (the main and the second process). Production's
    processes run under random hash seeds and derive their case seeds from values the bootcamp
    cannot know, so the gate's must be as unpredictable."""
    main = cfg.main_hashseed if cfg.main_hashseed is not None else secrets.randbelow(2**32)
    child = cfg.child_hashseed
    while child is None or child == main:
        child = secrets.randbelow(2**32)
    seed = cfg.seed if cfg.seed is not None else secrets.randbits(62)
    return cfg.model_copy(update={"seed": seed, "main_hashseed": main, "child_hashseed": child})
