"""Differential verification: the bootcamp's verifier against an independent checker.

The checker (``check(identity, answer) -> bool``, optionally ``solve`` and ``probes``) is written
from the task statement only, by someone other than the bootcamp's author; it runs in a sandbox
session of its own. Over a stream of at least ``CheckConfig.differential_cases`` cases spread over
every level, each case gets a pool of candidate answers -- the reference answer, ``solve()``'s
answer, ``probes()``, semantic mutants of the reference (by shape: sign flips, +-1, small
offsets, case flips, elements added / dropped / duplicated / permuted, NaN, inf, empty), other
cases' reference answers, the prompt's own example answer, the most common answer, and responses
with several answer blocks -- and both sides judge every one. Disagreements become findings:

* ``reference_disagrees``  ``check`` rejects the bootcamp's own reference answer;
* ``verifier_too_lenient`` the verifier gives 1.0 where ``check`` says no;
* ``verifier_too_strict``  ``check`` says yes where the verifier gives less than 1.0.

Thresholds. A kind of disagreement fails the check when it occurs on at least
``max(disagreement_min_cases, ceil(disagreement_rate * cases))`` distinct cases (defaults: 2 cases,
or 1 % of the cases compared). One stray case is reported but does not fail: the checker is
untrusted too, and a single edge case where two independent authors differ is as likely to be
the checker's mistake as the bootcamp's. A defect that matters for training is systematic: a
verifier wrong on 5 % of 200 cases disagrees on about 10, far above the threshold; the chance
that a rare (0.5 %) defect is seen at most once in 200 cases is ~74 %, so it is reported
rather than silently missed.

Where the task has a reference program it is a third voter on ``reference_disagrees``: on those
cases it runs on ``render_stdin(case)``; when its output agrees with the bootcamp's reference
answer the case is the checker's mistake (``checker_outvoted``) and does not count against the
bootcamp -- unless the bootcamp is compiled and the reference program is its own embedded
key (a program cannot vote for itself: :mod:`synth.gate.key`). A checker that rejects its own
``solve()`` answer or raises is reported as the checker's problem (``checker_broken``), never
blamed on the bootcamp.

An InternBootcamp-style class (audited by ``synth audit --checkers``) has no reference answer
and no ``wrap_answer``: its pool is built from the checker's ``solve()`` and ``probes()``
instead, plus the trivial answers such verifiers are known to accept, in the answer tags
where ``solve()``'s answers score 1.0 (:func:`_compare_intern`); ``reference_disagrees``
does not apply.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from synth import compiled
from synth.gate.calls import Checker, Failure, ask_many
from synth.gate.probes import CASE_TAGS, prompt_examples, semantic_mutants
from synth.gate.results import norm, result
from synth.gate.suite import Suite
from synth.text.solutions import same_solution

__all__ = ["FINDING_KINDS", "TRIVIAL_ANSWERS", "check_differential", "threshold"]

FINDING_KINDS = ("reference_disagrees", "verifier_too_lenient", "verifier_too_strict")
_BATCH = 64


def threshold(cfg: Any, cases: int) -> int:
    """Distinct cases a kind of disagreement needs to fail the check (see the module docs)."""
    return max(cfg.disagreement_min_cases, math.ceil(cfg.disagreement_rate * cases))


@dataclass
class Item:
    """One candidate answer for one case, and both sides' verdicts."""

    case: int
    answer: str  # the text inside the (last) answer block: what check() judges
    origin: str
    response: str = ""  # the full response the verifier scores ("" = wrap(answer))
    score: float | None = None
    verdict: bool | None = None


@dataclass
class Stream:
    cases: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    keys: list[tuple[int, int]] = field(default_factory=list)  # (level, index) in the suite
    refs: list[str | None] = field(default_factory=list)


def _stream(s: Suite) -> Stream:
    """At least ``differential_cases`` cases over every level: each level's stream continued
    (:meth:`Suite.extend_cases`) until the target or the generation budget is reached."""
    s.extend_cases(s.cfg.differential_cases, s.cfg.differential_budget_s / 2)
    st = Stream()
    for li, cases in enumerate(s.cases):
        st.cases += cases
        st.levels += [s.levels[li][0]] * len(cases)
        st.keys += [(li, i) for i in range(len(cases))]
    return st


def _verdicts(checker: Checker, items: list[Item], cases: list[str], limit: float) -> list[str]:
    """Fill ``item.verdict`` by the checker; returns the checker's failures (as text)."""
    problems: list[str] = []
    for start in range(0, len(items), _BATCH):
        chunk = items[start : start + _BATCH]
        calls = [("check", {"case_text": cases[it.case], "answer": it.answer}) for it in chunk]
        replies, _ = ask_many(checker.server, calls, limit)
        for it, (value, failure) in zip(chunk, replies, strict=False):
            if failure is not None:
                problems.append(f"check() on case {it.case} {failure.what}")
            elif type(value) is bool:
                it.verdict = value
            else:
                problems.append(f"check() returned a non-bool on case {it.case}")
    return problems


def _scores(s: Suite, items: list[Item], cases: list[str]) -> None:
    """Fill ``item.score`` by the bootcamp's verify_score (with identity-purity checks)."""
    limit = s.cfg.call_max_s
    for start in range(0, len(items), _BATCH):
        chunk = items[start : start + _BATCH]
        calls = [("score", {"response": it.response or s.wrap(it.answer),
                            "case_text": cases[it.case], "check_identity": True})
                 for it in chunk]
        replies, elapsed = ask_many(s.cand.server, calls, limit)
        s.charge(elapsed)
        for it, (value, failure) in zip(chunk, replies, strict=False):
            if failure is not None:
                raise failure
            it.score = s.cand.score_value(value)
        if len(replies) < len(chunk):
            raise Failure("error", "the batch of scoring calls was cut short")


def check_differential(s: Suite) -> dict[str, Any]:
    try:
        checker = s.checker()
    except Failure as f:
        return result("error", f"the independent checker did not load: {f.what}",
                      finding="checker_broken", hard=False, traceback=f.trace or None)
    return _compare(s, checker)


def _checker_answers(s: Suite, checker: Checker, st: Stream
                     ) -> tuple[list[str | None], list[list[str]], list[str]]:
    """The checker's ``solve()`` answer and ``probes()`` of every case (batched), and its
    failures (as text: the checker's problem, never the bootcamp's)."""
    n = len(st.cases)
    solved: list[str | None] = [None] * n
    probed: list[list[str]] = [[] for _ in range(n)]
    problems: list[str] = []
    for fn, sink in (("solve", solved), ("probes", probed)):
        if fn not in checker.functions:
            continue
        for start in range(0, n, _BATCH):
            idx = list(range(start, min(n, start + _BATCH)))
            replies, _ = ask_many(checker.server, [(fn, {"case_text": st.cases[i]}) for i in idx],
                                  s.cfg.call_max_s)
            for i, (value, failure) in zip(idx, replies, strict=False):
                if failure is not None:
                    problems.append(f"{fn}() on case {i} {failure.what}")
                elif fn == "solve" and type(value) is str:
                    sink[i] = value  # type: ignore[call-overload]
                elif fn == "probes" and type(value) is list:
                    sink[i] = [str(x) for x in value[: s.cfg.probes_per_case]]  # type: ignore[call-overload]
    return solved, probed, problems


def _compare(s: Suite, checker: Checker) -> dict[str, Any]:
    if s.intern:
        return _compare_intern(s, checker)
    cfg = s.cfg
    st = _stream(s)
    n = len(st.cases)
    limit = cfg.call_max_s
    # reference answers (the bootcamp) and solve() / probes() (the checker), batched
    st.refs = [s.answers.get(key) for key in st.keys]
    missing = [i for i in range(n) if st.refs[i] is None]
    for start in range(0, len(missing), _BATCH):
        idx = missing[start : start + _BATCH]
        replies, elapsed = ask_many(s.cand.server, [("answer", {"case_text": st.cases[i]})
                                                    for i in idx], limit)
        s.charge(elapsed)
        for i, (value, failure) in zip(idx, replies, strict=False):
            if failure is not None:
                raise failure
            if type(value) is not str:
                raise Failure("failed", "reference_answer returned a non-str")
            st.refs[i] = value
            s.answers[st.keys[i]] = value
    solved, probed, checker_problems = _checker_answers(s, checker, st)
    open_, close = s.tags()
    common = Counter(norm(r) for r in st.refs if r is not None).most_common(1)
    modal = common[0][0] if common else ""
    examples = [a for li in range(len(s.levels)) if (li, 0) in s.prompts
                for a in prompt_examples(s.prompts[(li, 0)], open_, close)]
    items: list[Item] = []
    for i in range(n):
        ref = st.refs[i]
        assert ref is not None
        pool: list[Item] = [Item(i, ref, "reference")]
        if solved[i] is not None:
            pool.append(Item(i, str(solved[i]), "solve"))
        pool += [Item(i, p, "probe") for p in probed[i]]
        pool += [Item(i, m, f"mutant:{k}") for k, m in semantic_mutants(ref, s.rng)[:8]]
        for j in (i + 1, i + 7):
            other = st.refs[j % n]
            if n > 1 and other is not None:
                pool.append(Item(i, other, "other_case"))
        pool += [Item(i, e, "prompt_example") for e in examples[:2]]
        if modal:
            pool.append(Item(i, modal, "most_common"))
        wrong = next((it.answer for it in pool if it.origin.startswith("mutant")), None)
        if wrong is not None:  # several blocks: only the last one counts
            pool.append(Item(i, wrong, "blocks:right_first",
                             response=open_ + ref + close + "\n" + open_ + wrong + close))
            pool.append(Item(i, ref, "blocks:right_last",
                             response=open_ + wrong + close + "\n" + open_ + ref + close))
        seen: set[tuple[str, str]] = set()
        for it in pool:
            key = (it.answer, it.response)
            if key not in seen:
                seen.add(key)
                items.append(it)
    checker_problems += _verdicts(checker, items, st.cases, limit)
    _scores(s, items, st.cases)
    return _judge(s, st, items, solved, checker_problems)


#: Answers every verifier must judge like the checker: the trivial and constant ones an
#: InternBootcamp-style verifier is known to let through ("0 0" scoring 1.0 on every case).
TRIVIAL_ANSWERS = ("", "0", "1", "-1", "0 0", "yes", "no", "True", "None")


def _intern_tags(s: Suite, st: Stream, solved: list[str | None]) -> tuple[str, str]:
    """The answer format of an InternBootcamp-style class (it has no ``wrap_answer``): of the
    library's usual tags (those the prompts show first), the one in which the checker's own
    ``solve()`` answers score 1.0 most often on a few cases; without ``solve()``, the first
    one a prompt shows."""
    shown = [t for t in CASE_TAGS if any(t[0] in p and t[1] in p for p in s.prompts.values())]
    order = list(dict.fromkeys([*shown, *CASE_TAGS]))
    sample = [i for i in range(len(st.cases)) if solved[i] is not None][:5]
    if not sample:
        return order[0]
    calls = [("score", {"response": o + str(solved[i]) + c, "case_text": st.cases[i]})
             for o, c in order for i in sample]
    replies, elapsed = ask_many(s.cand.server, calls, s.cfg.call_max_s)
    s.charge(elapsed)
    wins = [0] * len(order)
    for k, ((value, failure), (_, params)) in enumerate(zip(replies, calls, strict=False)):
        if failure is None:
            if s.cand.score_value(value, params["response"]) >= 1.0:
                wins[k // len(sample)] += 1
        elif failure.status in ("timeout", "oom"):
            raise failure
    return order[max(range(len(order)), key=lambda k: (wins[k], -k))]


def _compare_intern(s: Suite, checker: Checker) -> dict[str, Any]:
    """The differential check of an InternBootcamp-style class, which has no reference answer
    and no ``wrap_answer``: each case's pool is the checker's ``solve()`` answer and
    ``probes()``, semantic mutants of them, other cases' ``solve()`` answers, the prompts'
    format examples, the most common ``solve()`` answer and the trivial answers
    (:data:`TRIVIAL_ANSWERS`), in the answer format learned by :func:`_intern_tags`. Findings:
    ``verifier_too_lenient`` and ``verifier_too_strict`` (``reference_disagrees`` needs a
    reference answer)."""
    st = _stream(s)
    n = len(st.cases)
    st.refs = [None] * n
    solved, probed, checker_problems = _checker_answers(s, checker, st)
    open_, close = _intern_tags(s, st, solved)
    common = Counter(norm(a) for a in solved if a is not None).most_common(1)
    modal = common[0][0] if common else ""
    examples = [a for li in range(len(s.levels)) if (li, 0) in s.prompts
                for a in prompt_examples(s.prompts[(li, 0)], open_, close)]
    items: list[Item] = []
    for i in range(n):
        right = solved[i]
        pool = [Item(i, right, "solve")] if right is not None else []
        pool += [Item(i, p, "probe") for p in probed[i]]
        seed = right if right is not None else (probed[i][0] if probed[i] else None)
        if seed is not None:
            pool += [Item(i, m, f"mutant:{k}") for k, m in semantic_mutants(seed, s.rng)[:8]]
        for j in (i + 1, i + 7):
            other = solved[j % n]
            if n > 1 and other is not None:
                pool.append(Item(i, other, "other_case"))
        pool += [Item(i, e, "prompt_example") for e in examples[:2]]
        if modal:
            pool.append(Item(i, modal, "most_common"))
        pool += [Item(i, t, "trivial") for t in TRIVIAL_ANSWERS]
        wrong = next((it.answer for it in pool if it.origin.startswith("mutant")), None)
        if right is not None and wrong is not None:  # several blocks: only the last counts
            pool.append(Item(i, wrong, "blocks:right_first",
                             response=open_ + right + close + "\n" + open_ + wrong + close))
            pool.append(Item(i, right, "blocks:right_last",
                             response=open_ + wrong + close + "\n" + open_ + right + close))
        seen: set[tuple[str, str]] = set()
        for it in pool:
            it.response = it.response or open_ + it.answer + close
            if (it.answer, it.response) not in seen:
                seen.add((it.answer, it.response))
                items.append(it)
    checker_problems += _verdicts(checker, items, st.cases, s.cfg.call_max_s)
    _scores(s, items, st.cases)
    return _judge(s, st, items, solved, checker_problems)


def _judge(s: Suite, st: Stream, items: list[Item], solved: list[str | None],
           checker_problems: list[str]) -> dict[str, Any]:
    cfg = s.cfg
    n = len(st.cases)
    broken_solve = sum(1 for it in items if it.origin == "solve" and it.verdict is False)
    found: dict[str, list[Item]] = {k: [] for k in FINDING_KINDS}
    for it in items:
        if it.verdict is None or it.score is None:
            continue
        if it.origin == "reference" and not it.verdict:
            found["reference_disagrees"].append(it)
        elif it.score >= 1.0 and not it.verdict and it.origin != "reference":
            found["verifier_too_lenient"].append(it)
        elif it.verdict and it.score < 1.0:
            found["verifier_too_strict"].append(it)
    outvoted = _third_voter(s, st, found["reference_disagrees"])
    if outvoted:  # the checker is wrong about these cases: none of its verdicts there count
        found = {k: [it for it in v if it.case not in outvoted] for k, v in found.items()}
    judged = sum(1 for it in items if it.verdict is not None)
    if judged < max(1, len(items) // 2):
        return result("error", f"the independent checker judged only {judged} of {len(items)} "
                      "answers (it raised or returned non-bools on the rest): no comparison",
                      finding="checker_broken", hard=False,
                      checker_notes="; ".join(checker_problems[:3]) or None)
    need = threshold(cfg, n)
    cases_of = {k: sorted({it.case for it in v}) for k, v in found.items()}
    failing = [k for k in FINDING_KINDS if len(cases_of[k]) >= need]
    kinds = FINDING_KINDS[1:] if s.intern else FINDING_KINDS  # intern: no reference answer
    table = ", ".join(f"{k} on {len(cases_of[k])} case(s)" for k in kinds)
    compared = f"{len(items)} answers to {n} cases over {len(s.levels)} level(s)"
    evidence = _evidence(st, found, solved)
    notes = []
    if broken_solve:
        notes.append(f"the checker rejects its own solve() answer on {broken_solve} case(s)")
    if checker_problems:
        notes.append(f"the checker failed {len(checker_problems)} time(s): {checker_problems[0]}")
    if outvoted:
        notes.append(f"the reference program sided with the bootcamp on {len(outvoted)} case(s) "
                     "where the checker rejected the reference answer (checker_outvoted)")
    extra: dict[str, Any] = {"evidence": evidence or None, "checker_notes": "; ".join(notes) or None,
             "threshold": f"a kind fails at >= {need} distinct cases of {n}"}
    if failing:
        first = failing[0]
        why = {"reference_disagrees": "the independent checker rejects the bootcamp's own "
               "reference answer", "verifier_too_lenient": "the verifier accepts answers the "
               "independent checker rejects", "verifier_too_strict": "the verifier rejects "
               "answers the independent checker accepts"}[first]
        return result("failed", f"{why} ({table}; {compared})", finding=first, **extra)
    stray = [k for k in FINDING_KINDS if cases_of[k]]
    if stray:
        return result("passed", f"no systematic disagreement; stray: {table} ({compared})",
                      **extra)
    return result("passed", f"verifier and independent checker agree on {compared}", **extra)


def _evidence(st: Stream, found: dict[str, list[Item]],
              solved: list[str | None]) -> dict[str, Any]:
    """Up to 3 examples per finding, trimmed so that the JSON stays whole within the report's
    artifact cap (the revise prompt parses it back)."""
    from synth.gate.report import ARTIFACT_CAP

    for width in (400, 200, 100, 50, 25):
        evidence: dict[str, Any] = {}
        for k in FINDING_KINDS:
            for it in found[k][: 3 if width >= 100 else 1]:
                row = {"case": st.cases[it.case][:width], "level": st.levels[it.case],
                       "answer": it.answer[:width], "origin": it.origin,
                       "verifier_score": it.score, "checker_says": it.verdict,
                       "reference_answer": (st.refs[it.case] or "")[:width]}
                if it.response:
                    row["response"] = it.response[:width]
                if solved[it.case]:
                    row["solve_answer"] = str(solved[it.case])[:width]
                evidence.setdefault(k, []).append(row)
        if len(json.dumps(evidence, ensure_ascii=False, sort_keys=True)) <= ARTIFACT_CAP:
            return evidence
    return {k: len(v) for k, v in found.items() if v}


def _third_voter(s: Suite, st: Stream, disputed: list[Item]) -> set[int]:
    """Cases where the reference program sides with the bootcamp's reference answer. A
    compiled bootcamp's reference answer IS its embedded program's output: that program (or a
    copy of it) siding with itself is no vote (a wrong embedded program would always outvote
    the checker)."""
    if s.reference is None or not disputed or "render_stdin" not in set(s.info.get("defines") or []):
        return set()
    key = compiled.embedded_program(s.source)
    if key is not None and same_solution(key, s.reference):
        return set()
    picked = sorted({it.case for it in disputed})[:60]
    stdins: list[str] = []
    for i in picked:
        try:
            stdins.append(s.cand.stdin(st.cases[i], s.limit(2.0))[0])
        except Failure:
            return set()
    outs = s.run_reference(stdins)
    if isinstance(outs, str):
        return set()
    return {i for i, out in zip(picked, outs, strict=True)
            if out["code"] == 0 and norm(out["stdout"]) == norm(st.refs[i] or "")}
