"""The checks about answers and budgets: self-consistency, mutation, garbage, oracle, levels,
timing and contract. Each is a function of the :class:`~synth.gate.suite.Suite`; every
comparison and threshold is computed here, on the host, from the values the sandboxed bootcamp
returned (its scores, answers, rendered stdin) and from the reference program's output, which
runs in a sandbox job of its own.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

from synth.bootcamp import ANSWER_OPEN, BaseBootcamp
from synth.gate.calls import Failure
from synth.gate.fresh import (
    EXPORT_ATTEMPTS,
    FEW_INSTANCES,
    SPACE_MIN_DRAWS,
    FreshDraw,
    instance_space,
)
from synth.gate.probes import (
    MUTATION_KINDS,
    SOFT_MUTATIONS,
    SOFT_SEMANTIC,
    garbage,
    hard_mutants,
    mostly_accepted,
    mutate,
    near,
    semantic_mutants,
)
from synth.gate.results import (
    case_size,
    failure_result,
    level_names_result,
    mean,
    median,
    norm,
    result,
)
from synth.gate.suite import Suite
from synth.gate.timing import check_timing
from synth.sandbox.base import Outcome

__all__ = ["CHECKS"]


def check_self_consistency(s: Suite) -> dict[str, Any]:
    bad: list[tuple[int, int, float]] = []
    for li, i, case in s.each_case():
        try:
            answer = s.answer(li, i)
        except Failure as f:
            return failure_result(f, f"reference_answer ({s.where(li, i)}):", case=case)
        try:
            response = s.wrap(answer)
            score, dt = s.score(response, case, check_identity=True)
        except Failure as f:
            return failure_result(f, f"verify_score on the reference answer ({s.where(li, i)}):",
                                  case=case, answer=answer)
        s.verify_times.append(dt)
        s.charge(dt)
        if score == 1.0:
            s.consistent.append((li, i))
        else:
            bad.append((li, i, score))
    if bad:
        li, i, score = bad[0]
        return result("failed", f"{len(bad)} of {len(bad) + len(s.consistent)} reference "
                      f"answers do not score 1.0 (first: {s.where(li, i)} scored {score!r})",
                      case=s.cases[li][i], reference_answer=s.answers[(li, i)],
                      response=s.wrap(s.answers[(li, i)]))
    return result("passed", f"all {len(s.consistent)} reference answers score 1.0")


def check_purity(s: Suite) -> dict[str, Any]:
    """Answers and scores are pure functions of the case: ``reference_answer`` gives the same
    answer twice, scoring the same response twice gives the same score, and no call changes the
    identity it is given (the server compares the identity before and after each call)."""
    picks = s.spread(s.cfg.purity_cases, s.consistent or None)
    for li, i in picks:
        case = s.cases[li][i]
        try:
            again, _ = s.cand.answer(case, s.limit(s.cfg.call_max_s * 2))
        except Failure as f:
            return failure_result(f, f"reference_answer (second call, {s.where(li, i)}):")
        first = s.answer(li, i)
        if again != first:
            return result("failed", f"{s.where(li, i)}: reference_answer gave two different "
                          "answers for the same case", finding="impure_reference",
                          case=case, first=first, second=again)
        for response in (s.wrap(first), s.wrap(first + " zq"), s.wrap("")):
            try:
                one, _ = s.score(response, case, check_identity=True)
                two, _ = s.score(response, case, check_identity=True)
            except Failure as f:
                return failure_result(f, f"verify_score (purity, {s.where(li, i)}):", case=case,
                                      response=response)
            if one != two:
                return result("failed", f"{s.where(li, i)}: the same response scored {one!r} "
                              f"then {two!r}: the verifier keeps state between calls",
                              finding="impure_verifier", case=case, response=response)
    return result("passed", f"answers and scores repeat on {len(picks)} case(s); no call "
                  "changed its identity")


def check_mutation(s: Suite) -> dict[str, Any]:
    """Corrupted reference answers must not score 1.0. Two families: character-level
    corruptions (:func:`~synth.gate.probes.mutate`) and semantic mutants chosen by the answer's
    shape (:func:`~synth.gate.probes.semantic_mutants`). A kind fails when more than half of
    its (at least 3) tries survive. Survivors that may legitimately be correct -- reorderings,
    case flips, numbers within 0.1 % (a stated tolerance) -- count only when the independent
    checker, if there is one, rejects them; with a checker, every survivor it accepts is a
    correct answer and never counts. A compiled bootcamp's ``check_output`` is also asked
    about answers that must be wrong (:func:`synth.gate.multi_answer.lenient_check_output`)."""
    from synth.gate.multi_answer import lenient_check_output
    from synth.gate.prompt_input import copied_answers

    # the list the prompt shows, as the answer (an arrangement of the prompt's items): asked
    # here, after self_consistency has seen verify_score answer, so that a verifier that hangs
    # is reported by that check, not blamed on the prompt
    # (not when the prompt check already failed: a prompt that leaks its answer is its finding)
    copied = None if s.intern or s.statuses.get("prompt") != "passed" else copied_answers(s)
    if copied is not None:
        return copied
    lenient = lenient_check_output(s)
    if lenient is not None:
        return lenient
    tried: dict[str, int] = {}
    survivors: dict[str, list[dict[str, str]]] = {}
    spared: dict[str, int] = {}
    for li, i in s.spread(s.cfg.mutation_cases, s.consistent):
        answer, case = s.answers[(li, i)], s.cases[li][i]
        mutants = [(k, mutate(k, answer, s.rng)) for k in MUTATION_KINDS]
        mutants += [(f"semantic:{k}", m) for k, m in semantic_mutants(answer, s.rng)]
        seen: set[str] = set()
        for kind, mutant in mutants:
            if mutant is None or norm(mutant) == norm(answer) or mutant in seen:
                continue
            seen.add(mutant)
            tried[kind] = tried.get(kind, 0) + 1
            try:
                score, dt = s.score(s.wrap(mutant), case)
                s.charge(dt)
            except Failure as f:
                return failure_result(f, f"verify_score on a corrupted answer ({kind}, "
                                      f"{s.where(li, i)}) -- it must return a score, not:",
                                      case=case, corrupted_answer=mutant)
            if score != 1.0:
                continue
            says = _checker_says(s, case, mutant)
            if says is True:
                spared[kind] = spared.get(kind, 0) + 1
                continue  # a correct answer after all: the independent checker accepts it
            if says is False:
                kind = kind + "!"  # the checker confirms it is wrong: counts, soft or not
            survivors.setdefault(kind.rstrip("!"), []).append(
                {"where": s.where(li, i), "reference": answer, "accepted": mutant,
                 "confirmed_wrong_by_checker": "yes" if kind.endswith("!") else "no"})
    # per kind: (tried, scored 1.0 -- a checker's confirmation aside), for the consistency
    # check's production cases
    s.mutation_counts = {k: (n, len(survivors.get(k, [])) + spared.get(k, 0))
                         for k, n in tried.items()}

    def soft(kind: str, found: list[dict[str, str]]) -> bool:
        if any(x["confirmed_wrong_by_checker"] == "yes" for x in found):
            return False
        base = kind.split(":", 1)[-1]
        if base in SOFT_MUTATIONS or base in SOFT_SEMANTIC:
            return True
        return all(near(x["reference"], x["accepted"]) for x in found)

    def mostly(k: str) -> bool:
        return mostly_accepted(tried.get(k, 0), len(survivors.get(k, [])))

    # +1 and -1 on a number: a tolerance that accepts "off by one" accepts both directions; a
    # task with several right answers (move a point left and it may still be a right choice)
    # usually accepts one. Without a checker's word, one direction alone is reported only.
    one_way = {"semantic:plus_one": "semantic:minus_one", "semantic:minus_one": "semantic:plus_one"}
    weak = [k for k, found in survivors.items()
            if mostly(k) and not soft(k, found)
            and (k not in one_way or mostly(one_way[k])
                 or any(x["confirmed_wrong_by_checker"] == "yes" for x in found))]
    table = ", ".join(f"{k} {len(survivors.get(k, []))}/{n}" for k, n in tried.items())
    extra: dict[str, Any] = {"accepted_by_checker": spared or None}
    if weak:
        shown = [x for k in weak for x in survivors[k][:2]]
        return result("failed", f"the verifier accepts corrupted answers ({', '.join(weak)}); "
                      f"accepted/tried: {table}", survivors=shown, **extra)
    notes = {k: v[:2] for k, v in survivors.items()}
    return result("passed", f"corrupted answers rejected; accepted/tried: {table}",
                  accepted_mutants=notes or None, **extra)


def _checker_says(s: Suite, case: str, answer: str) -> bool | None:
    """The independent checker's verdict on one answer; None without a (working) checker."""
    if s.checker_source is None:
        return None
    try:
        reply = s.checker().server.call("check", {"case_text": case, "answer": answer},
                                        timeout_s=s.cfg.call_max_s)
    except Failure:
        return None  # a checker that does not load is reported by the differential check
    return reply.value if reply.ok and type(reply.value) is bool else None


def check_garbage(s: Suite) -> dict[str, Any]:
    cfg = s.cfg
    tags = [("<answer>", "</answer>")]
    if s.intern:
        tags.append(("[answer]", "[/answer]"))
    else:
        # a broken wrap_answer is the prompt check's finding; garbage is about the verifier
        with contextlib.suppress(Failure):
            tags = [s.tags()]
    inputs = [g for open_, close in tags for g in garbage(open_, close, s.rng)]
    slowest = (0.0, "")
    picks = [(li, 0) for li in range(len(s.cases))][: cfg.garbage_cases]
    for li, i in picks:
        case = s.cases[li][i]
        for name, text in inputs:
            try:
                score, dt = s.score(text, case, limit=cfg.garbage_limit_s)
            except Failure as f:
                return failure_result(f, f"verify_score on garbage '{name}' ({s.where(li, i)}):",
                                      response=text, case=case)
            if s.intern:
                s.verify_times.append(dt)
            slowest = max(slowest, (dt, name))
            s.charge(dt)
            if score != 0:
                return result("failed", f"garbage '{name}' scored {score!r}, not 0 "
                              f"({s.where(li, i)})", response=text, case=case)
            if dt > cfg.garbage_max_s:
                return result("failed", f"verify_score took {dt:.2f}s on garbage '{name}' "
                              f"(max {cfg.garbage_max_s:g}s): bound the work on huge answers",
                              response=text, case=case)
    return result("passed", f"{len(inputs)} garbage responses x {len(picks)} case(s) score 0 "
                  f"(slowest {slowest[0] * 1000:.1f} ms: {slowest[1]})")


def check_oracle(s: Suite) -> dict[str, Any]:
    if "render_stdin" not in set(s.info.get("defines") or []):
        return result("failed", "a reference program was given but the bootcamp defines no "
                      "render_stdin(identity)")
    jobs: list[tuple[int, int, str]] = []
    s.extend_cases(s.cfg.oracle_cases, s.cfg.differential_budget_s / 2)
    for li, i in s.evenly(s.cfg.oracle_cases):
        try:
            stdin, _ = s.cand.stdin(s.cases[li][i], s.limit(2.0))
        except Failure as f:
            return failure_result(f, f"render_stdin ({s.where(li, i)}):")
        jobs.append((li, i, stdin))
    shape = _first_line_shape(s, jobs)  # before the program runs: the clearer evidence
    if shape is not None:
        return shape
    picked, trials = _tail_trials(jobs)
    ran = s.run_reference([stdin for _, _, stdin in jobs] + [stdin for _, stdin in trials])
    if isinstance(ran, str):
        return result("sandbox_error", ran)
    outs, tail_outs = ran[:len(jobs)], ran[len(jobs):]  # one sandbox job for both
    s.reference_runs.update({stdin: out for (_, _, stdin), out in zip(jobs, outs, strict=True)})
    how = {"matches reference_answer": 0, "accepted by verify_score": 0}
    for (li, i, stdin), out in zip(jobs, outs, strict=True):
        case = s.cases[li][i]
        if out["code"] != 0:
            what = "timed out" if out["code"] is None else f"exited with status {out['code']}"
            return result("failed", f"the reference program {what} on render_stdin of "
                          f"{s.where(li, i)} (input outside the problem's limits?)",
                          stdin=stdin, stderr=out["stderr"])
        answer = s.answer(li, i)
        got = out["stdout"]
        if norm(got) == norm(answer):
            how["matches reference_answer"] += 1
            continue
        score, _ = s.score(s.wrap(got.strip()), case)
        if score == 1.0:
            how["accepted by verify_score"] += 1
            continue
        return result("failed", f"{s.where(li, i)}: the reference program disagrees with "
                      f"reference_answer and verify_score rejects its output (score {score!r})",
                      stdin=stdin, expected=answer, got=got, case=case)
    summary = ", ".join(f"{n} {k}" for k, n in how.items() if n)
    ignored = _ignored_tail(s, jobs, outs, picked, trials, tail_outs)
    if ignored is not None:
        return ignored
    return result("passed", f"reference program agrees on {len(jobs)} cases ({summary}); its "
                  "output depends on the last value of render_stdin")


def _first_line_shape(s: Suite, jobs: list[tuple[int, int, str]]) -> dict[str, Any] | None:
    """When every example input of the task has the same number of values on its first line
    (a count, "n m", a test-case number), every rendered input must have it too: a render_stdin
    that leaves out the count line or puts the whole case on one line fails here, with the
    example beside it. None when the examples disagree among themselves or are not given."""
    counts = {len(text.split("\n", 1)[0].split()) for text in s.example_inputs if text.strip()}
    if len(counts) != 1:
        return None
    (want,) = counts
    for li, i, stdin in jobs:
        got = len(stdin.lstrip("\n").split("\n", 1)[0].split())
        if got != want:
            example = next(t for t in s.example_inputs if t.strip())
            return result("failed", f"render_stdin's first line has {got} value(s) "
                          f"({s.where(li, i)}), but the first line of every example input of "
                          f"the task has {want}: write the input exactly in the problem's format",
                          stdin=stdin, example_input=example, case=s.cases[li][i])
    return None


#: cases (spread over the levels) whose last input value is changed to see the program notice
TAIL_CASES = 24
_LAST_TOKEN = re.compile(r"(\S+)(\s*)\Z")


def _variants(token: str) -> list[str]:
    """Two other values for an input's last token: a number moves (and jumps), text changes."""
    if re.fullmatch(r"-?\d+", token):
        n = int(token)
        return [str(n + 1), str(0 if n else 7)]
    if re.fullmatch(r"-?\d+\.\d*", token):
        return [f"{float(token) + 1.5:g}", "0"]
    return [token[::-1] if token[::-1] != token else token + "a",
            ("b" if token[0] != "b" else "a") * len(token)]


def _tail_trials(jobs: list[tuple[int, int, str]]) -> tuple[list[int], list[tuple[int, str]]]:
    """Up to :data:`TAIL_CASES` of the oracle's inputs, spread over them (their indices), and
    each one's last whitespace token changed two ways, as (index into ``jobs``, input); no
    trials when there are too few inputs to judge."""
    step = max(1, len(jobs) // TAIL_CASES)
    picked = list(range(0, len(jobs), step))[:TAIL_CASES]
    trials: list[tuple[int, str]] = []
    for k in picked:
        stdin = jobs[k][2]
        m = _LAST_TOKEN.search(stdin)
        if m is None:
            continue
        for other in _variants(m.group(1)):
            trials.append((k, stdin[:m.start(1)] + other + m.group(2)))
    return (picked, trials) if len(picked) >= 8 else (picked, [])


def _ignored_tail(s: Suite, jobs: list[tuple[int, int, str]], outs: list[dict[str, Any]],
                  picked: list[int], trials: list[tuple[int, str]],
                  tail_outs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A render_stdin that does not follow the problem's input format often writes values the
    program never reads (more queries than the count it announces, a second number where the
    format has one): the program then gives the same output whatever the last value is. When
    the program's output changes (or it fails) for none of the :func:`_tail_trials`, the input
    format is wrong. None when the tail matters (or there are no trials), else a failed result."""
    if not trials:
        return None  # too few cases to judge
    for (k, _), out in zip(trials, tail_outs, strict=True):
        if out["code"] != 0 or norm(out["stdout"]) != norm(outs[k]["stdout"]):
            return None
    li, i, stdin = jobs[picked[0]]
    return result("failed", f"the reference program's output never depends on the last value of "
                  f"render_stdin: changing it ({len(trials)} changed inputs from {len(picked)} "
                  "cases) left every output the same. render_stdin most likely does not write the "
                  "problem's input format (values the program never reads, a count that does not "
                  "match the lines after it); write exactly the format of the task's examples",
                  stdin=stdin, stdout=outs[picked[0]]["stdout"], case=s.cases[li][i])


def _inert_parameter(s: Suite, a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """A parameter by which level ``b`` differs from ``a`` that changes nothing in either
    level: ``a``'s instance with that parameter set to ``b``'s value gives exactly ``a``'s
    cases, AND ``b``'s instance with it set back to ``a``'s value gives exactly ``b``'s cases
    (e.g. a size silently capped, so "hard" is "medium" with other numbers). Checking both
    contexts spares parameters that only matter together with another one. None when every
    differing parameter has an effect."""
    ia = next(i for i, lv in enumerate(s.levels) if lv[0] == a["level"])
    ib = next(i for i, lv in enumerate(s.levels) if lv[0] == b["level"])
    (_, pa, sa), (_, pb, sb) = s.levels[ia], s.levels[ib]
    want_a, want_b = s.cases[ia][:4], s.cases[ib][:4]
    if len(want_a) < 2 or len(want_b) < 2:
        return None

    def same(params: dict[str, Any], seed: int, want: list[str]) -> bool:
        try:  # up to the first case that differs (an engine's case can take seconds)
            handle = s.construct(params, seed)
            return all(s.generate(handle, seed if k == 0 else None)[0] == case
                       for k, case in enumerate(want))
        except Failure:
            return False  # a combination the bootcamp refuses says nothing about the parameter

    for key in sorted(set(pa) | set(pb)):
        va, vb = pa.get(key, _UNSET), pb.get(key, _UNSET)
        if va == vb or va is _UNSET or vb is _UNSET:
            continue
        if same({**pa, key: vb}, sa, want_a) and same({**pb, key: va}, sb, want_b):
            return (f"level {b['level']!r} sets {key}={vb!r} (level {a['level']!r}: {va!r}), but "
                    "that changes nothing in either level: the cases are exactly the same with "
                    "either value. Is the parameter capped or ignored?")
    return None


_UNSET = object()


def check_levels(s: Suite) -> dict[str, Any]:
    """Harder presets give measurably harder cases, by a difficulty proxy measured on the
    cases themselves: the median structural case size (:func:`case_size`) and the median
    reference-answer length (not the prompt, which can grow with words alone), or a doubled
    generation time; the filter's per-level pass rates, when known, are reported by the
    filter."""
    if len(s.levels) < 2:
        return result("failed", "define at least two LEVELS presets (easiest first) whose "
                      "cases get measurably larger or harder")
    named = level_names_result([name for name, _, _ in s.levels], s.cfg.level_names)
    if named is not None:
        return named
    rows: list[dict[str, Any]] = []
    for li, (name, params, _) in enumerate(s.levels):
        idx = range(len(s.cases[li]))
        rows.append({
            "level": name,
            "case_chars": median([len(c) for c in s.cases[li]]),
            "case_size": median([case_size(json.loads(c)) for c in s.cases[li]]),
            "answer_chars": median([len(s.answers[(li, i)]) for i in idx if (li, i) in s.answers]),
            "distinct_cases": len(set(s.cases[li])),
            "gen_ms": 1000 * mean(s.gen_times[li]),
            "params": params,
        })
    table = "\n".join(
        f"{r['level']}: median case {r['case_chars']:.0f} chars / {r['case_size']:.0f} values, "
        f"median answer "
        f"{r['answer_chars']:.1f} chars, generation {r['gen_ms']:.2f} ms/case" for r in rows)
    for a, b in itertools.pairwise(rows):
        if a["params"] == b["params"]:
            return result("failed", f"levels {a['level']!r} and {b['level']!r} have identical "
                          "parameters", metrics=table)
        grew = [k for k in ("case_chars", "case_size", "answer_chars")
                if b[k] >= a[k] * 1.05 and b[k] - a[k] >= 1]
        slower = b["gen_ms"] >= 2 * a["gen_ms"] and b["gen_ms"] - a["gen_ms"] >= 2
        inert = _inert_parameter(s, a, b)
        if not grew and not slower:
            # the common cause, named when it is the cause: a parameter the generator ignores
            why = (f" {inert}" if inert is not None else
                   " Is a parameter capped, or ignored by case_generator?")
            return result("failed", f"level {b['level']!r} is not measurably larger or harder "
                          f"than {a['level']!r} (median case size, median answer length and "
                          f"generation time did not grow).{why}", metrics=table,
                          finding="inert_parameter" if inert is not None else "")
        if inert is not None:
            return result("failed", inert, finding="inert_parameter", metrics=table)
    return result("passed", f"{len(rows)} levels, each larger or harder than the one before",
                  metrics=table)


_REASONING = ("Let me restate the task in my own words before solving it.",
              "First I list what is given and what is asked.",
              "Checking the small cases by hand: the pattern holds for 1, 2 and 3.",
              "Wait, that step was wrong; let me redo the sum more carefully.",
              "So far the partial result is consistent with the constraints.",
              "Now I combine the two parts and double-check the edge cases.")
#: the reasoning a worded answer holds inside its tags: no digits
_WORDING = tuple(line for line in _REASONING if not any(ch.isdigit() for ch in line))


def production_shape(response: str, rng: random.Random, other: str) -> str:
    """``response`` as a model writes it in production, chosen at random: unchanged, after a
    long reasoning (over 5,000 characters), after one sentence of prose, or after an earlier
    answer block holding another answer (``other``). The contract's extraction reads the last
    block, so the score may not change; a verifier that scores these differently from the
    gate's short responses tells gate traffic from production's."""
    shape = rng.randrange(4)
    if shape == 0 or ANSWER_OPEN not in response:
        return response
    if shape == 1:
        lines, size = [], 0
        while size < 5200:
            line = f"{rng.choice(_REASONING)} ({rng.randint(2, 999)})"
            lines.append(line)
            size += len(line) + 1
        return "\n".join(lines) + "\n\n" + response
    if shape == 2:
        return f"After working through it, here is my final answer. {response}"
    return f"A first attempt gave <answer>{other}</answer>, but I made a mistake.\n{response}"


def worded_answer(answer: str, rng: random.Random) -> str:
    """A wrong answer as a model also writes it inside the tags: in a sentence, or after its
    working. Worded, a wrong answer may score less than bare (a strict format), never more; so
    the words hold no digit (a numbered step, "Step 1", can be the right answer to a verifier
    that reads the one number in the text)."""
    if rng.randrange(3) == 0:
        return f"The answer is {answer}."
    steps: list[str] = []
    size, target = 0, rng.choice((60, 300, 1200))  # a few lines to a page
    while size < target:
        steps.append(f"Then: {rng.choice(_WORDING)}")
        size += len(steps[-1]) + 1
    return "\n".join(steps) + f"\nResult: {answer}"


def check_consistency(s: Suite) -> dict[str, Any]:
    """The verifier behaves the same where it is used as under the gate. The (response, case)
    pairs the suite scored -- reference answers, corrupted answers, garbage -- are scored again
    by one fresh warm-pool worker that only ever scores, as in the filter and in RL rewards,
    as production's traffic looks: wrong and right answers alternate (a wrong one at every
    other call), responses are shaped as a model writes them (long reasoning, prose, an earlier
    answer block: :func:`production_shape`; every fourth wrong answer also worded inside its
    tags, which may then score less, never more: :func:`worded_answer`), in random order, and the worker serves more calls
    than any production worker lives (:func:`synth.sandbox.pool.scoring_life`), so "honest for
    the first N calls" (or N cases) shows here. A different score is the finding
    ``inconsistent_verifier``: the bootcamp tells the gate's questions from production use (or
    keeps hidden state)."""
    from synth.sandbox.pool import WorkerPool, scoring_life

    if not s.scored:
        return result("skipped", "not run: nothing was scored")
    rng = s.rng
    n = max(s.cfg.consistency_samples, scoring_life(s.source)[1] + 64)
    wrong = [x for x in s.scored if x[2] < 1.0]
    right = [x for x in s.scored if x[2] >= 1.0]
    rng.shuffle(wrong)
    rng.shuffle(right)
    pools = [p for p in (wrong, right) if p]
    sample = []
    for k in range(n):  # alternate, cycling through each kind (distinct cases first)
        kind = pools[k % len(pools)]
        sample.append(kind[(k // len(pools)) % len(kind)])
    answers = [BaseBootcamp.extract_output(r) or "0" for r, _, _ in right] or ["0"]
    shaped, at_most = [], []
    for k, (response, case, want) in enumerate(sample):
        inner = BaseBootcamp.extract_output(response)
        worded = want < 1.0 and inner and k % 4 == 0  # a wrong answer, in words
        if worded:
            response = response[: response.rindex(ANSWER_OPEN)] + BaseBootcamp.wrap_answer(
                worded_answer(str(inner), rng))
        model_like = production_shape(response, rng, rng.choice(answers))
        if BaseBootcamp.extract_output(model_like) != BaseBootcamp.extract_output(response):
            model_like = response  # e.g. an unclosed block: the earlier one would be read
        shaped.append((model_like, case, want))
        at_most.append(bool(worded))
    fresh, drawn, ended, raised = _fresh_traffic(s, rng)
    if raised:
        return result("failed", f"drawing cases as export draws them (one instance per case, in a "
                      f"process that is never asked for an answer) failed after {drawn} cases, "
                      f"where the gate's own drawing did not: {ended}")
    # the gate's own pairs and fresh production cases, alternating
    stream: list[tuple[str, str, float, str]] = []  # (response, case, want, kind)
    for k in range(max(len(shaped), len(fresh))):
        if k < len(shaped):
            response, case, want = shaped[k]
            stream.append((response, case, want, "worded" if at_most[k] else ""))
        if k < len(fresh):
            stream.append(fresh[k])
    items = [(response, json.loads(case)) for response, case, _, _ in stream]
    try:
        with WorkerPool(s.source, size=1, backend=s.backend, call_timeout_s=s.cfg.call_max_s * 2,
                        class_name=str(s.info.get("class") or ""), recycle_after=10**9) as pool:
            got = pool.verify_many(items)
    except Exception as exc:  # the pool could not start: the infrastructure, not the bootcamp
        return result("sandbox_error", f"could not start a scoring worker: {exc}")
    differ = []
    tried: dict[str, int] = {}
    survived: dict[str, list[dict[str, Any]]] = {}
    soft_seen: dict[str, list[int]] = {}  # kind -> [tried, accepted]
    soft_found: dict[str, list[dict[str, Any]]] = {}
    for call, ((response, case, want, tag), res) in enumerate(zip(stream, got, strict=True), 1):
        if tag.startswith("fresh-soft:"):
            if res.outcome is Outcome.PASSED and res.score is not None:
                seen = soft_seen.setdefault(tag, [0, 0])
                seen[0] += 1
                if res.score >= 1.0:
                    seen[1] += 1
                    soft_found.setdefault(tag, []).append(
                        {"call": call, "case": case[:400], "response": response[-300:],
                         "under_the_gate": "this kind of reordering was refused on the gate's "
                         "cases", "in_a_scoring_worker": res.score})
                continue
            tag = ""  # an error on it is judged as any other response's
        if tag.startswith("fresh:") and tag != "fresh:reference":
            if res.outcome is Outcome.PASSED and res.score is not None and res.score < 1.0:
                tried[tag] = tried.get(tag, 0) + 1
                continue
            if res.outcome is Outcome.PASSED:
                tried[tag] = tried.get(tag, 0) + 1
                survived.setdefault(tag, []).append(
                    {"call": call, "case": case[:400], "response": response[-300:],
                     "under_the_gate": "a corrupted answer (the mutation check's rule)",
                     "in_a_scoring_worker": res.score})
                continue
        worded = tag == "worded"
        if res.outcome is not Outcome.PASSED or res.score is None or (
                res.score > want + 1e-9 if worded else abs(res.score - want) > 1e-9):
            differ.append({"call": call, "case": case[:400], "response": response[-300:],
                           "under_the_gate": want, "in_a_scoring_worker":
                           res.score if res.score is not None else f"{res.outcome.value}: "
                           f"{res.error[:200]}"})
    for tag, found in survived.items():  # the mutation check's rule, on production's cases
        if mostly_accepted(tried[tag], len(found)):
            differ += found
    for tag, (n, accepted) in soft_seen.items():  # refused under the gate, accepted here
        if n >= SOFT_FLIP_MIN and mostly_accepted(n, accepted):
            gate_n, gate_acc = s.mutation_counts.get(tag.removeprefix("fresh-soft:"), (0, 0))
            for d in soft_found[tag]:
                d["under_the_gate"] = (f"{tag.removeprefix('fresh-soft:')} refused on "
                                       f"{gate_n - gate_acc} of {gate_n} of the gate's cases; "
                                       f"accepted on {accepted} of {n} production cases")
            differ += soft_found[tag]
    differ.sort(key=lambda d: int(str(d["call"])))
    if differ:
        return result("failed", f"{len(differ)} of {len(stream)} responses scored differently "
                      "in a fresh scoring worker (production's traffic: wrong and right answers "
                      "alternating, model-shaped responses, a long-lived worker) than under the "
                      f"gate, first at call {differ[0]['call']}", finding="inconsistent_verifier",
                      examples=differ[:3])
    return result("passed", f"{len(stream)} responses ({len(wrong)} wrong and {len(right)} right "
                  f"ones of the gate's, shaped as a model writes them, and {drawn} fresh cases "
                  "drawn as export draws them, each with its reference and a corrupted answer) "
                  "scored in one fresh long-lived scoring worker: same verdicts"
                  + (f" (the drawing stopped early: {ended[:200]})" if ended else ""))


def check_instances(s: Suite) -> dict[str, Any]:
    """How many different prompts export can get from the bootcamp, as the consistency check's
    fresh cases (drawn as export draws them: random seeds, every level in turn) put it
    (:func:`synth.gate.fresh.instance_space`): each level's instance space, estimated from its
    repeats, drawn as often as export draws it for its default 250 rows. Not a hard check: a
    bootcamp with few instances is not wrong, and ``synth check`` passes it; but the library
    wants a generator, not a fixed set, and ``synth run`` commits none expected to give fewer
    than :data:`~synth.gate.fresh.FEW_INSTANCES` (the finding ``few_instances``, fed back to the
    coder like a failure)."""
    space = s.space
    if space is None:
        return result("skipped", "not run: no fresh cases were drawn (the consistency check did "
                      "not run)", hard=False)
    if space["draws"] < SPACE_MIN_DRAWS:
        return result("skipped", f"not judged: only {space['draws']} fresh cases were drawn "
                      f"(it takes {SPACE_MIN_DRAWS})", hard=False)
    per = "; ".join(f"{level!r}: {v['distinct']} distinct of {v['draws']}, about {v['estimate']}"
                    for level, v in space["levels"].items())
    shared = (f" (the levels share prompts, {space['shared']:.0%} as much as nested ranges "
              "would: a shared prompt is counted once)" if space.get("shared") else "")
    if space["total"] < FEW_INSTANCES:
        small = [level for level, v in space["levels"].items()
                 if v["estimate"] != "unbounded" and v["estimate"] < FEW_INSTANCES]
        return result("failed", f"{space['draws']} cases drawn as export draws them (random "
                      f"seeds, every level in turn; per level: {per}) put export's yield at "
                      f"about {round(space['total'])} different prompts from the "
                      f"{EXPORT_ATTEMPTS} draws it allows itself for its default 250 rows"
                      f"{shared}; the library takes a bootcamp expected to give at least "
                      f"{FEW_INSTANCES}: widen the ranges that the levels "
                      f"{', '.join(map(repr, small)) or 'all'} draw from (larger values, longer "
                      "inputs, more choices), so that each level's seeds give different instances",
                      finding="few_instances", hard=False, levels=space["levels"])
    return result("passed", f"about {round(space['total'])} different prompts in export's "
                  f"{EXPORT_ATTEMPTS} draws{shared} ({per})", hard=False)


#: tries of a reordering kind on production's cases before its acceptance there counts
SOFT_FLIP_MIN = 6


def refused_soft_kinds(counts: dict[str, tuple[int, int]]) -> list[str]:
    """The reordering kinds (:data:`~synth.gate.probes.SOFT_MUTATIONS`, the semantic
    ``permute`` and ``reverse``) the mutation check tried at least 4 times on the gate's cases
    and saw refused at least 3 times in 4. A reordering may be another right answer (an
    order-free task accepts them all), so the gate cannot call its acceptance wrong; but a
    verifier that refuses it on the gate's cases and accepts it on production's tells the two
    apart."""
    out = []
    for kind in (*SOFT_MUTATIONS, "semantic:permute", "semantic:reverse"):
        n, accepted = counts.get(kind, (0, 0))
        if n >= 4 and accepted * 4 <= n:
            out.append(kind)
    return out


def soft_mutant(kind: str, answer: str, rng: random.Random) -> tuple[str, str] | None:
    """A mutant of ``kind`` (a name :func:`refused_soft_kinds` gives) of ``answer``, or None."""
    if kind.startswith("semantic:"):
        found = [m for k, m in semantic_mutants(answer, rng) if k == kind.removeprefix("semantic:")]
        bad = found[0] if found else None
    else:
        bad = mutate(kind, answer, rng)
    if bad is None or norm(bad) == norm(answer):
        return None
    return kind, bad


def _fresh_traffic(s: Suite, rng: random.Random) -> tuple[
        list[tuple[str, str, float, str]], int, str, bool]:
    """The fresh production cases (:class:`synth.gate.fresh.FreshDraw`, started after the
    generate check, or here), each giving its reference answer (1.0 expected) and one
    corrupted answer of the mutation check's hard kinds in turn, and a reordering the mutation
    check saw refused on every other case. (stream items, cases, why the drawing
    ended early or "", whether that was the bootcamp raising). What the cases say of the
    instance space (:func:`synth.gate.fresh.instance_space`) is kept on the suite for the
    instances check."""
    out: list[tuple[str, str, float, str]] = []
    if s.intern:  # an InternBootcamp-style class: drawn by its own conventions, not export's
        return out, 0, "", False
    draw = s.fresh if s.fresh is not None else FreshDraw(
        s.source, s.backend, str(s.info.get("class") or ""), rng)
    s.fresh = None
    samples = draw.take()
    s.space = instance_space(samples, draw.sample_levels)
    soft = refused_soft_kinds(s.mutation_counts)
    for drawn, (case_text, ref) in enumerate(samples):
        out.append((BaseBootcamp.wrap_answer(ref), case_text, 1.0, "fresh:reference"))
        mutants = hard_mutants(ref, rng)
        if mutants:  # one per case, the kinds in turn
            kind, bad = mutants[drawn % len(mutants)]
            out.append((BaseBootcamp.wrap_answer(bad), case_text, 0.0, "fresh:" + kind))
        if soft and drawn % 2 == 0:  # every other case, a reordering the gate saw refused
            got = soft_mutant(soft[(drawn // 2) % len(soft)], ref, rng)
            if got is not None:
                out.append((BaseBootcamp.wrap_answer(got[1]), case_text, 0.0,
                            "fresh-soft:" + got[0]))
    rng.shuffle(out)
    return out, len(samples), draw.ended, draw.raised


def check_contract(s: Suite) -> dict[str, Any]:
    """Did the bootcamp change the contract (``BaseBootcamp``, its own class) at any point?"""
    if s.cand.tampering:
        return result("failed", "the bootcamp changed the contract at run time: "
                      + "; ".join(s.cand.tampering[:3]), finding="contract_tampered",
                      changes="\n".join(s.cand.tampering[:20]))
    calls = s.cand.server.calls
    return result("passed", f"BaseBootcamp and the class were intact at load and at every "
                  f"scoring call ({calls} calls)")


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {
    "self_consistency": check_self_consistency,
    "purity": check_purity,
    "mutation": check_mutation,
    "garbage": check_garbage,
    "oracle": check_oracle,
    "levels": check_levels,
    "timing": check_timing,
    "consistency": check_consistency,
    "instances": check_instances,
    "contract": check_contract,
}
