"""The ``key`` check: is the answer key right beyond the task file's own tests?

A compiled bootcamp's answer key is its embedded reference program; a full-mode one's is the
model's ``reference_answer``. A task file can carry a "verified" program that is right only on
the file's own tests (by accident or on purpose), and its tests cannot tell. So a key is
verified only by another, independent source of answers that agrees with it on the bootcamp's
own **generated** inputs:

* **program voters** (:class:`Voter`): the task's other solutions (each verified on the public
  tests by its source, or by ``synth check --task``), a solver program the judge role wrote from
  the statement and examples alone, and -- for a full-mode bootcamp -- the task's reference
  program. Each runs in sandbox jobs of its own on ``render_stdin`` of up to
  ``CheckConfig.key_cases`` cases spread over every level, within ``key_budget_s`` per program:
  a program the contract's runner can run (as a compiled bootcamp runs its key) runs every
  input in one process (:func:`synth.gate.programs.run_in_process`), any other one process per
  input (:func:`synth.gate.programs.run_program`); a disagreement found in one process is run
  again as a process of its own before it counts;
* **the judge's independent checker**: a differential check that passed counts as a vote.

A voter that is the key's own code, or another voter's, with names, layout or comments changed
(:func:`synth.text.solutions.same_solution`) is not independent and does not vote.

Comparison is the bootcamp's own: an output equal to the key's (token by token) agrees; any
other output is scored by ``verify_score`` (so the ``check_output`` of a task with several right
answers decides), and agrees only with a score of 1.0. A timeout or a crash of a voter is *not
compared* (never a disagreement).

Verdicts:

* a disagreement on any input is the finding ``key_disagrees`` (hard): the stdin, both outputs,
  which voter. When one side has the majority -- two or more voters that agree with each other
  against the key and outnumber it and its supporters, or the key and its supporters against
  fewer -- the result names it (``majority``: the sha256 of that side's solutions, the
  embedded key's among them when it wins): the workflow then keeps only that side's solutions
  (embedding one of them) and checks again;
* agreement of at least one voter on enough inputs passes, and ``verified_by`` says how
  ("3 solutions agree on 100 generated inputs", "the judge's solver agrees with the reference
  program on 100 generated inputs");
* no voter, or none compared, is the finding ``key_unverified``: not a rejection by the gate
  (``hard=False``, severity ``cannot_judge``), but ``verified_by`` says "unverified: ..." and the
  workflow does not commit such a bootcamp unless the user allowed it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from synth import compiled
from synth.gate.calls import Failure, ask_many
from synth.gate.programs import UNSUPPORTED, ProgramRuns, run_in_process, run_program
from synth.gate.report import ARTIFACT_CAP
from synth.gate.results import failure_result, norm, result
from synth.gate.suite import Suite
from synth.tasks import TaskDescription
from synth.text.solutions import same_solution

__all__ = ["CHECKS", "Voter", "check_key", "task_voters"]

#: inputs per sandbox job (a voter's time budget is checked between jobs; the first job is
#: small, so that a program too slow for the inputs costs little)
FIRST_CHUNK = 4
CHUNK = 24
#: disagreements of an in-process run confirmed by a process run of their own, per voter
CONFIRM = 8
#: compared inputs a voter needs before its agreement verifies the key (all of them when fewer
#: were generated)
MIN_SUPPORT = 20
#: disagreements shown in the evidence
SHOWN = 3
_BATCH = 64


@dataclass(frozen=True)
class Voter:
    """A stdin -> stdout program that votes on the answer key."""

    code: str
    label: str  # how the report names it: "solution 2 of the task", "the judge's solver"
    kind: Literal["solution", "solver"] = "solution"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code.encode("utf-8")).hexdigest()


@dataclass
class _Tally:
    """One voter's comparison with the key, input by input."""

    voter: Voter
    in_process: bool = False  # run with the contract's runner, in one process
    agree: int = 0
    disagree: list[int] = field(default_factory=list)  # indices into the inputs
    outputs: dict[int, str] = field(default_factory=dict)  # index -> stdout (compared only)
    skipped: Counter[str] = field(default_factory=Counter)  # why not compared -> inputs
    crash: str = ""  # stderr of its first crash

    @property
    def compared(self) -> int:
        return self.agree + len(self.disagree)


def _outputs_of(s: Suite, voter: Voter, stdins: list[str], deadline: float
                ) -> tuple[list[dict[str, Any] | None], str | None, bool]:
    """The voter's runs on ``stdins`` (None where it was not run: its time ran out), the
    sandbox's failure (infrastructure) if any, and whether it ran in one process with the
    contract's runner (a program that runner can run: no interpreter start per input; an
    input it could not run is run again alone)."""
    cfg = s.cfg
    out: list[dict[str, Any] | None] = [None] * len(stdins)
    if voter.code == s.reference:  # the oracle already ran it on these inputs
        for k, stdin in enumerate(stdins):
            out[k] = s.reference_runs.get(stdin)
    in_process = not compiled.program_problems(voter.code)
    until = min(deadline, time.monotonic() + cfg.key_budget_s)
    todo = [k for k, o in enumerate(out) if o is None]
    for runner in ((run_in_process, run_program) if in_process else (run_program,)):
        if runner is run_program and in_process:  # what the contract's runner could not run
            todo = [k for k, o in enumerate(out) if o is not None and o["code"] == UNSUPPORTED]
        failed = _run_chunks(s, voter, runner, stdins, todo, out, until)
        if failed is not None:
            return out, failed, in_process
    return out, None, in_process


def _run_chunks(s: Suite, voter: Voter, runner: Callable[..., ProgramRuns], stdins: list[str],
                todo: list[int], out: list[dict[str, Any] | None], until: float) -> str | None:
    """Run ``todo`` (indices into ``stdins``) in jobs until ``until``; fill ``out``."""
    start, size = 0, FIRST_CHUNK  # a few inputs first: a slow program shows at once
    while start < len(todo):
        left = until - time.monotonic()
        if left <= 0.5:
            break
        chunk = todo[start:start + size]
        start, size = start + size, CHUNK
        runs = runner(s.backend, voter.code, [stdins[k] for k in chunk],
                      timeout_s=min(s.cfg.oracle_timeout_s, left),
                      memory_mb=s.cfg.limits.memory_mb, role="voter", wall_s=left)
        if runs.outputs is None:
            if runs.outcome == "sandbox_error":
                return runs.why(voter.label)
            timed_out = runs.outcome == "timeout"  # killed when its time budget ran out
            for k in chunk:
                out[k] = {"stdout": "", "stderr": runs.why(voter.label),
                          "code": None if timed_out else -1}
            if timed_out:
                break
            continue
        for k, o in zip(chunk, runs.outputs, strict=True):
            out[k] = o
        if all(o["code"] is None for o in runs.outputs):
            break  # it timed out on every input so far: not worth the rest of its budget
    return None


def _confirm(s: Suite, suspects: list[tuple[_Tally, int]], stdins: list[str], deadline: float
             ) -> dict[tuple[int, int], dict[str, Any] | None]:
    """Outputs that disagree with the key, found with the contract's in-process runner, run
    again as a process of their own (as the task's judge would run them): a difference of the
    runner is never a disagreement. The first :data:`CONFIRM` of each voter; all of them when
    one of those came out otherwise. Keyed by (id of the tally, input index)."""
    got: dict[tuple[int, int], dict[str, Any] | None] = {}
    by_voter: dict[int, tuple[_Tally, list[int]]] = {}
    for tally, k in suspects:
        by_voter.setdefault(id(tally), (tally, []))[1].append(k)
    until = max(deadline, time.monotonic() + 2 * s.cfg.oracle_timeout_s)
    for tally, ks in by_voter.values():
        out: list[dict[str, Any] | None] = [None] * len(stdins)
        first, rest = ks[:CONFIRM], ks[CONFIRM:]
        if _run_chunks(s, tally.voter, run_program, stdins, first, out, until) is not None:
            continue
        if rest and any(o is not None and o["code"] == 0 and
                        norm(o["stdout"]) != norm(tally.outputs[k])
                        for k in first for o in [out[k]]):
            if _run_chunks(s, tally.voter, run_program, stdins, rest, out, until) is not None:
                rest = []
        else:
            rest = []
        for k in first + rest:
            got[(id(tally), k)] = out[k]
    return got


def _scores(s: Suite, asks: list[tuple[_Tally, int, str]], cases: list[str]) -> list[float]:
    """verify_score of each voter output (wrapped in the answer tags) on its case."""
    scores: list[float] = []
    for start in range(0, len(asks), _BATCH):
        chunk = asks[start:start + _BATCH]
        calls = [("score", {"response": s.wrap(out.strip()), "case_text": cases[k],
                            "check_identity": True}) for _, k, out in chunk]
        replies, elapsed = ask_many(s.cand.server, calls, s.cfg.call_max_s)
        s.charge(elapsed)
        for value, failure in replies:
            if failure is not None:
                raise failure
            scores.append(s.cand.score_value(value))
        if len(replies) < len(chunk):
            raise Failure("error", "the batch of scoring calls was cut short")
    return scores


def _independent(s: Suite, key_program: str | None) -> tuple[list[Voter], list[str]]:
    """The voters that may vote (not the key's code, not another voter's), and notes on the
    ones that may not."""
    given: list[Voter] = []
    if s.reference is not None and (key_program is None or s.reference != key_program):
        given.append(Voter(s.reference, "the reference program" if key_program is None
                           else "the --reference program"))
    given += list(s.voters)
    kept: list[Voter] = []
    notes: list[str] = []
    for voter in given:
        if key_program is not None and same_solution(key_program, voter.code):
            notes.append(f"{voter.label} is the key's own program (up to names and layout): "
                         "not an independent voter")
            continue
        twin = next((v for v in kept if same_solution(v.code, voter.code)), None)
        if twin is not None:
            notes.append(f"{voter.label} is {twin.label} again (up to names and layout): one vote")
            continue
        kept.append(voter)
    return kept, notes


def _unverified(why: str, notes: list[str], **artifacts: Any) -> dict[str, Any]:
    return result("failed", f"answer key unverified: {why}", finding="key_unverified",
                  hard=False, severity="cannot_judge", verified_by=f"unverified: {why}",
                  notes="\n".join(notes) or None, **artifacts)


def check_key(s: Suite) -> dict[str, Any]:
    if s.intern:
        return result("skipped", "not applicable: InternBootcamp classes have no reference_answer")
    if s.statuses.get("oracle") not in (None, "passed", "skipped"):
        return result("skipped", "not run: the oracle check found the reference program and "
                      "reference_answer disagreeing (its finding says where)",
                      verified_by="unverified: the oracle check failed")
    if s.statuses.get("inputs") == "failed":
        return result("skipped", "not run: the inputs check found inputs the statement does not "
                      "allow (right solutions may differ there)",
                      verified_by="unverified: the inputs check failed")
    key_program = compiled.embedded_program(s.source)
    voters, notes = _independent(s, key_program)
    checker = s.statuses.get("differential") == "passed"
    renders = "render_stdin" in set(s.info.get("defines") or [])
    key_label = "the reference program" if key_program is not None else "reference_answer"
    if not voters or not renders:
        if checker:
            phrase = f"the judge's independent checker agrees with {key_label} (differential check)"
            return result("passed", f"answer key verified: {phrase}", verified_by=phrase,
                          notes="\n".join(notes) or None)
        if key_program is None and s.reference is None and not voters:
            return result("skipped", "not applicable: no reference program, no other solution and "
                          "no independent checker to compare reference_answer with",
                          verified_by="unverified: no second voter")
        if not renders:
            return _unverified("the bootcamp defines no render_stdin, so no program can vote",
                               notes)
        copies = sum("not an independent voter" in n or "one vote" in n for n in notes)
        return _unverified("one solution, no second voter" + (
            f" ({copies} other copy of it does not count)" if copies == 1 else
            f" ({copies} other copies of it do not count)" if copies else ""), notes)
    return _compare(s, voters, notes, checker, key_label)


def _compare(s: Suite, voters: list[Voter], notes: list[str], checker: bool,
             key_label: str) -> dict[str, Any]:
    cfg = s.cfg
    s.extend_cases(cfg.key_cases, cfg.differential_budget_s / 2)
    keys = s.evenly(cfg.key_cases)
    if len(keys) > cfg.key_cases:  # the same share of every level, rounded up: thin it evenly
        keys = [keys[j * len(keys) // cfg.key_cases] for j in range(cfg.key_cases)]
    texts = s.stdins(keys)
    keys = [k for k in keys if texts[k] is not None]
    stdins = [texts[k] or "" for k in keys]
    cases = [s.cases[li][i] for li, i in keys]
    try:
        answers = [s.answer(li, i) for li, i in keys]
    except Failure as f:
        return failure_result(f, "reference_answer:")
    if not keys:
        return _unverified("no generated case rendered a standard input", notes)
    deadline = min(s.deadline, time.monotonic() + 2 * cfg.key_budget_s)
    with ThreadPoolExecutor(max_workers=min(2, len(voters)),
                            thread_name_prefix="synth-gate-key") as pool:
        runs = list(pool.map(lambda v: _outputs_of(s, v, stdins, deadline), voters))
    broken = next((why for _, why, _ in runs if why is not None), None)
    if broken is not None:
        return result("sandbox_error", broken)
    tallies = [_Tally(v, in_process=in_process) for v, (_, _, in_process) in zip(voters, runs,
                                                                                 strict=True)]
    asks: list[tuple[_Tally, int, str]] = []
    for tally, (outs, _, _) in zip(tallies, runs, strict=True):
        for k, out in enumerate(outs):
            if _count(tally, k, out, answers[k]):
                asks.append((tally, k, tally.outputs[k]))
    try:
        scores = _scores(s, asks, cases) if asks else []
        suspects = [(tl, k) for (tl, k, _), score in zip(asks, scores, strict=True)
                    if score != 1.0 and tl.in_process]
        again = _confirm(s, suspects, stdins, deadline) if suspects else {}
        if again:  # disagreements of the in-process runs, run again as processes of their own
            asks = _reconsider(asks, suspects, again, answers)
            scores = _scores(s, asks, cases) if asks else []
    except Failure as f:
        return failure_result(f, "verify_score on another solution's output -- it must return a "
                              "score, not:")
    accepted_by_verifier = 0
    for (tally, k, _), score in zip(asks, scores, strict=True):
        if score == 1.0:
            tally.agree += 1
            accepted_by_verifier += 1
        else:
            tally.disagree.append(k)
    need = min(MIN_SUPPORT, len(keys))
    not_compared = _not_compared(tallies)
    if not_compared:
        notes.append(f"not compared: {not_compared} (a timeout or a crash is no disagreement)")
    if accepted_by_verifier:
        notes.append(f"{accepted_by_verifier} output(s) differ from the key's but verify_score "
                     "accepts them (several right answers)")
    dissent = [t for t in tallies if t.disagree]
    support = [t for t in tallies if not t.disagree and t.compared >= need]
    base: dict[str, Any] = {"notes": "\n".join(notes) or None,
                            "votes": _table(tallies, len(keys))}
    if dissent:
        return _disputed(s, keys, stdins, answers, cases, tallies, dissent, support, key_label,
                         base)
    if not support:
        thin = ", ".join(f"{t.voter.label}: {t.compared} of {len(keys)} compared"
                         for t in tallies)
        return _unverified(f"no voter was compared on enough inputs (need {need}; {thin})",
                           notes, votes=base["votes"])
    phrase = _phrase(support, key_label, max(t.compared for t in support), checker)
    return result("passed", f"answer key verified: {phrase}", verified_by=phrase, **base)


def _reconsider(asks: list[tuple[_Tally, int, str]], suspects: list[tuple[_Tally, int]],
                again: dict[tuple[int, int], dict[str, Any] | None], answers: list[str]
                ) -> list[tuple[_Tally, int, str]]:
    """The outputs to score once the process runs of :func:`_confirm` are in: a re-run input
    counts by its process run; a voter whose process runs gave other outputs than its
    in-process runs loses its unconfirmed disagreements (not compared)."""
    unfaithful = {key[0] for key, out in again.items() if out is not None and out["code"] == 0
                  and any(id(tl) == key[0] and norm(tl.outputs.get(key[1], "")) !=
                          norm(out["stdout"]) for tl, _ in suspects)}
    doubtful = {(id(tl), k) for tl, k in suspects}
    kept: list[tuple[_Tally, int, str]] = []
    for tl, k, out in asks:
        if (id(tl), k) in again:
            if _count(tl, k, again[(id(tl), k)], answers[k], retry=True):
                kept.append((tl, k, tl.outputs[k]))
        elif (id(tl), k) in doubtful and id(tl) in unfaithful:
            tl.outputs.pop(k, None)
            tl.skipped["not confirmed by a run of its own"] += 1
        else:
            kept.append((tl, k, out))
    return kept


def _count(tally: _Tally, k: int, out: dict[str, Any] | None, key: str,
           retry: bool = False) -> bool:
    """Count one run of the voter on input ``k``: not compared (not run, timed out, crashed),
    agreement (the key's tokens), or -- True -- an output to score. ``retry``: the input's
    in-process output is replaced by a process run's."""
    if retry:
        tally.outputs.pop(k, None)
    if out is None:
        tally.skipped["not run (its time budget ran out)"] += 1
    elif out["code"] is None:
        tally.skipped["timed out"] += 1
    elif out["code"] != 0:
        tally.skipped["crashed"] += 1
        tally.crash = tally.crash or str(out["stderr"])[-600:]
    else:
        tally.outputs[k] = out["stdout"]
        if norm(out["stdout"]) != norm(key):
            return True
        tally.agree += 1
    return False


def _not_compared(tallies: list[_Tally]) -> str:
    parts = []
    for t in tallies:
        if t.skipped:
            why = ", ".join(f"{why} on {n}" for why, n in t.skipped.most_common())
            parts.append(f"{t.voter.label}: {why}")
    return "; ".join(parts)


def _table(tallies: list[_Tally], n: int) -> str:
    return "\n".join(f"{t.voter.label} ({t.voter.kind}, sha256 {t.voter.sha256[:12]}): agrees "
                     f"on {t.agree}, disagrees on {len(t.disagree)}, not compared on "
                     f"{n - t.compared}" for t in tallies)


def _phrase(support: list[_Tally], key_label: str, inputs: int, checker: bool) -> str:
    solutions = sum(t.voter.kind == "solution" for t in support)
    solver = any(t.voter.kind == "solver" for t in support)
    on = f"on {inputs} generated inputs"
    if key_label == "reference_answer":
        who = " and ".join(x for x in (
            f"{solutions} reference program{'s' if solutions > 1 else ''}" if solutions else "",
            "the judge's solver" if solver else "") if x)
        phrase = f"reference_answer and {who} agree {on}"
    elif solutions:
        phrase = f"{solutions + 1} solutions" + (" and the judge's solver" if solver else "") + \
            f" agree {on}"
    else:
        phrase = f"the judge's solver agrees with the reference program {on}"
    return phrase + ("; the judge's independent checker agrees too" if checker else "")


def _agree(a: _Tally, b: _Tally) -> bool:
    """Two voters agree with each other: the same output wherever both were compared."""
    both = set(a.outputs) & set(b.outputs)
    return bool(both) and all(norm(a.outputs[k]) == norm(b.outputs[k]) for k in both)


def _fit(examples: list[dict[str, str]]) -> list[dict[str, str]]:
    """The first examples whose JSON stays whole within the report's artifact cap."""
    kept: list[dict[str, str]] = []
    for ex in examples:
        if len(json.dumps([*kept, ex], indent=1)) > ARTIFACT_CAP - 100:
            break
        kept.append(ex)
    return kept or [{k: v[:120] for k, v in examples[0].items()}]


def _sides(dissent: list[_Tally], support: list[_Tally]) -> tuple[str, list[_Tally]]:
    """Who has the majority: ("against", the largest group of dissenters that agree with each
    other) when it has two or more members and outnumbers the key and its supporters; ("key",
    the supporters) when the key and they number two or more and outnumber every such group;
    else ("tie", [])."""
    group: list[_Tally] = []
    for first in dissent:
        members = [first] + [t for t in dissent if t is not first and _agree(first, t)]
        if len(members) > len(group):
            group = members
    key_side = 1 + len(support)
    if len(group) >= 2 and len(group) > key_side:
        return "against", group
    if key_side >= 2 and key_side > len(group):
        return "key", support
    return "tie", []


def _disputed(s: Suite, keys: list[tuple[int, int]], stdins: list[str], answers: list[str],
              cases: list[str], tallies: list[_Tally], dissent: list[_Tally],
              support: list[_Tally], key_label: str, base: dict[str, Any]) -> dict[str, Any]:
    first = dissent[0]
    k = first.disagree[0]
    li, i = keys[k]
    side, members = _sides(dissent, support)
    examples = _fit([{"voter": t.voter.label, "where": s.where(*keys[j]),
                      "stdin": stdins[j][:500], "key_output": answers[j][:200],
                      "voter_output": t.outputs[j][:200]}
                     for t in dissent for j in t.disagree[:SHOWN]][:SHOWN * 2])
    counts = "; ".join(f"{t.voter.label} disagrees on {len(t.disagree)} of {t.compared} "
                       "compared" for t in dissent)
    why = (f"the answer key ({key_label}) and {first.voter.label} disagree on "
           f"{len(first.disagree)} of {first.compared} generated inputs (first: "
           f"{s.where(li, i)}), and verify_score does not accept {first.voter.label}'s output"
           + (f"; {len(dissent) - 1} more voter(s) disagree" if len(dissent) > 1 else ""))
    key_program = compiled.embedded_program(s.source)
    majority: list[str] = []
    if side == "against":
        names = ", ".join(t.voter.label for t in members)
        why += (f". The majority disagrees with the key ({len(members)} to {1 + len(support)}): "
                f"{names} agree with each other against it")
        majority = [t.voter.sha256 for t in members if t.voter.kind == "solution"]
    elif side == "key":
        names = ", ".join(t.voter.label for t in dissent)
        why += (f". The majority agrees with the key ({1 + len(support)} to at most "
                f"{max(1, len(members))}): {names} outvoted")
        if key_program is not None:
            majority = [hashlib.sha256(key_program.encode("utf-8")).hexdigest()] + \
                [t.voter.sha256 for t in support if t.voter.kind == "solution"]
    else:
        why += (". Either these inputs break the statement's rules or guarantees (then generate "
                "only inputs it allows), or one of the programs is wrong on them")
    extra: dict[str, Any] = {"majority": json.dumps(majority)} if majority and \
        key_program is not None else {}
    return result("failed", why, finding="key_disagrees", stdin=stdins[k], case=cases[k],
                  key_output=answers[k], voter=first.voter.label,
                  voter_output=first.outputs[k], disagreements=json.dumps(examples, indent=1),
                  verified_by=f"disputed: {counts}", **extra, **base)


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {"key": check_key}


def task_voters(task: TaskDescription, key: str | None, limit: int = 4
                ) -> tuple[list[Voter], list[str]]:
    """The task's verified Python 3 stdio solutions that may vote on the answer key ``key`` (at
    most ``limit``): not the key's own program, not a copy of an earlier one (up to names and
    layout). Also returns notes on the ones left out, for the report."""
    voters: list[Voter] = []
    notes: list[str] = []
    for n, ref in enumerate(task.references, 1):
        if ref.language != "python3" or ref.interface != "stdio":
            continue
        label = f"solution {n} of the task"
        if key is not None and ref.code == key:
            continue  # the key itself
        if key is not None and same_solution(key, ref.code):
            notes.append(f"{label} is the key's own program (up to names and layout): no vote")
        elif not ref.verified:
            notes.append(f"{label} is not verified on the task's tests: no vote")
        elif any(same_solution(v.code, ref.code) for v in voters):
            notes.append(f"{label} repeats an earlier solution (up to names and layout): one vote")
        elif len(voters) < limit:
            voters.append(Voter(ref.code, label))
    return voters, notes
