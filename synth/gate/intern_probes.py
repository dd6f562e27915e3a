"""Answer-side probes of InternBootcamp-style classes, which have no reference answer.

The check ``answer_probes`` (intern mode only) offers the sandboxed verifier answers that need
no reference (:mod:`synth.gate.intern_answers`) and judges the scores here, on the host, by
rules a fine task cannot meet by chance:

* ``slow_verifier`` -- verifying a well-formed answer takes seconds (timed one call at a time,
  before anything else is asked);
* ``constant_answer`` -- one answer that does not depend on the case (``0``, ``-1``, ``yes``,
  ``0 0``, a word of the module's own lists, a word every prompt shares, a case field's most
  frequent value) scores 1.0 on at least :data:`MOST` of the cases; a balanced yes/no task
  accepts ``yes`` on about half of them;
* ``example_is_answer`` -- the prompt's own format example is accepted on :data:`MOST` of the
  cases (the same example everywhere, or one computed from the case);
* ``answer_is_input`` -- a case value the prompt shows (a list as given) is accepted as the
  answer on :data:`MOST` of the cases: the answer can be copied from the question;
* ``cross_case_answer`` -- an answer accepted on one case is accepted on :data:`MOST` of the
  others;
* ``order_ignored`` -- two different orders of the same shown elements are both accepted on
  :data:`ORDER_SHARE` of the cases;
* ``lenient_verifier`` -- corrupted forms of one-token answers the verifier accepted (a
  changed digit or letter, a dropped letter, half of it, +-1 both ways) are accepted too;
* ``executes_response`` / ``runs_subprocess`` / ``reads_machine_file`` -- the verifier ran the
  text of a response (it imported the kit's canary module), started a process, or read a file
  of the machine: the kit's guard refused it and the host asked for the refusals
  (``events``), during these probes and during every other check (:func:`collect_events`);
* ``impure_verifier`` -- a score call changed its case, or the same response scored twice
  scored differently; ``nondeterministic_prompt`` -- the same case gave different prompts when
  asked again; ``nondeterministic_case`` -- two more fresh instances with the same seed did
  not repeat the first cases.

Every finding carries its evidence and its severity (reject); none stops the others.
"""

from __future__ import annotations

import json
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from synth.gate import intern_answers as ia
from synth.gate import severity
from synth.gate.calls import Failure, ask_many
from synth.gate.probes import MUTATION_KINDS, mutate, near, semantic_mutants
from synth.gate.results import result
from synth.gate.suite import Suite
from synth.sandbox.kit import canonical

__all__ = ["CHECKS", "MOST", "ORDER_SHARE", "Prober", "check_answer_probes", "collect_events",
           "event_finding", "guarded", "prompts_for"]

#: Share of the probed cases an answer must be accepted on to be a finding: more than any
#: fine task's most frequent answer can take by chance (a balanced yes/no task: about 0.5).
MOST = 0.9
#: Share of the probed cases on which two orders of the same elements are both accepted.
ORDER_SHARE = 0.6
#: Fewest probed cases a share is judged on.
MIN_CASES = 5
PROBE_CASES = 24
OWN_CASES = 16
MAX_SURVIVORS = 10
#: Corruptions that make a wrong answer of a right one (reorderings, case flips, appended or
#: repeated tokens, a sign an extractor that reads the digits drops, and near numbers may be
#: right: a lenient format, a tolerance).
HARD_MUTATIONS = ("change_digit", "replace_char", "drop_token", "truncate")
HARD_SEMANTIC = ("plus_one", "minus_one", "offset", "nan", "inf", "empty")
ARRANGED = ("given", "reversed", "ascending", "descending", "count_up", "count_down")
#: The decisive finding is the first of these that was found.
PRIORITY = ("executes_response", "runs_subprocess", "reads_machine_file", "sandbox_refused",
            "impure_verifier", "invalid_score", "slow_verifier", "verifier_crashes",
            "answer_leak", "constant_answer", "example_is_answer", "answer_is_input",
            "cross_case_answer", "order_ignored", "lenient_verifier", "prompt_missing_info",
            "constant_answer_field", "nondeterministic_prompt", "nondeterministic_case")


def finding(name: str, reason: str, **artifacts: Any) -> dict[str, Any]:
    return {"finding": name, "reason": reason, "artifacts": artifacts}


def report(findings: list[dict[str, Any]], passed: str, **extra: Any) -> dict[str, Any]:
    """One result for a check's findings: the most important one decides, every one is listed."""
    if not findings:
        return result("passed", passed, **extra)
    ordered = sorted(findings, key=lambda f: PRIORITY.index(f["finding"])
                     if f["finding"] in PRIORITY else len(PRIORITY))
    first = ordered[0]
    more = f" (+{len(ordered) - 1} more finding(s), listed in 'findings')" if len(ordered) > 1 else ""
    listed = "\n".join(f"[reject] {f['finding']}: {f['reason']}" for f in ordered)
    arts = {k: v for k, v in list(first["artifacts"].items())[:8]}
    return result("failed", first["reason"] + more, finding=first["finding"], findings=listed,
                  **arts, **extra)


# -- scoring many responses ----------------------------------------------------------------------


@dataclass
class Scored:
    score: float | None  # None: not scored (the call failed, or no time was left)
    swallowed: str = ""  # the type of the exception verify_score swallowed, if any
    failure: Failure | None = None

    @property
    def accepted(self) -> bool:
        return self.score == 1.0


class Prober:
    """Scores many (response, case) pairs in few round trips, within a time budget of the
    bootcamp's time; keeps every failed call as evidence. Each call is checked for a change of
    its case (``check_identity``). Once a call times out or the session ends, no more
    verification is asked (:attr:`stopped` says why) and the session is started again for the
    checks after this one."""

    def __init__(self, s: Suite, budget_s: float) -> None:
        self.s = s
        self.budget = budget_s
        self.spent = 0.0
        self.per_call = max(0.0005, s.probe_call_s)
        self.limit = s.cfg.call_max_s * 2
        self.failures: list[tuple[str, str, Failure]] = []
        self.events: list[str] = []  # the guard's refusals drained during the probes
        self.stopped = s.probes_stopped
        self.cut = 0
        self.calls = 0
        self.batches = 0

    def left(self) -> float:
        return min(self.budget - self.spent, self.s.deadline - time.monotonic() - 1.0)

    def scores(self, items: list[tuple[str, str]], record: bool = True) -> list[Scored]:
        out: list[Scored] = []
        at = 0
        while at < len(items):
            if self.stopped or self.left() <= 0:
                self.cut += len(items) - at
                out += [Scored(None)] * (len(items) - at)
                break
            # small batches first, larger ones once the time per call is known
            grow = min(256, 16 * 2 ** (self.batches))
            size = max(1, min(grow, int(self.left() / max(self.per_call, 1e-4) / 2)))
            chunk = items[at:at + size]
            out += self._batch(chunk, record)
            at += len(chunk)
        return out

    def _batch(self, chunk: list[tuple[str, str]], record: bool) -> list[Scored]:
        s = self.s
        saved = (list(s.cand.swallowed), s.cand.swallowed_count)
        calls = [("score", {"response": r, "case_text": c, "check_identity": True})
                 for r, c in chunk]
        total = max(2.0, min(self.limit * len(chunk) + 1.0, self.left() * 2 + self.limit))
        try:
            answered, dt = ask_many(s.cand.server, calls, self.limit, total_s=total)
        except Failure as f:
            if f.status == "timeout":  # the batch as a whole ran past the budget: no finding
                self.spent = self.budget
                self.stop(f"scoring {len(chunk)} probe responses took more than {total:.1f}s "
                          "in all (the budget of the check)", slow=False)
            else:
                self.failures.append((chunk[0][0], chunk[0][1], f))
                self.stop(f"the session ended while scoring probes: {f.what}")
            return [Scored(None)] * len(chunk)
        self.spent += dt
        self.calls += len(answered)
        self.batches += 1
        self.per_call = dt / max(1, len(answered))
        out: list[Scored] = []
        for (response, case), (value, fail) in zip(chunk, answered, strict=False):
            if fail is None:
                try:
                    score = s.cand.score_value(value, response)
                except Failure as f:
                    fail = f
                else:
                    swallowed = value.get("swallowed") if type(value) is dict else None
                    kind = str(swallowed.get("type", "?")) if type(swallowed) is dict else ""
                    out.append(Scored(score, kind))
                    continue
            self.failures.append((response, case, fail))
            out.append(Scored(None, failure=fail))
            if fail.status in ("timeout", "oom"):
                self.stop(f"a probe call {fail.what}")
        out += [Scored(None)] * (len(chunk) - len(out))
        self._forget_swallowed(saved, record)
        return out

    def _forget_swallowed(self, saved: tuple[list[dict[str, str]], int], record: bool) -> None:
        """The exceptions a verifier swallows on probe responses are expected (the garbage
        check reports that convention); a missing dependency among them is kept (it makes the
        module one the audit cannot judge)."""
        s = self.s
        missing = [e for e in s.cand.swallowed[len(saved[0]):] if record
                   and severity.missing_dependency(e["traceback"], e["message"])]
        s.cand.swallowed = saved[0] + missing[:1]
        s.cand.swallowed_count = saved[1] + len(missing[:1])

    def stop(self, why: str, slow: bool = True) -> None:
        """No more verification: the verifier is slow (the later probe checks skip theirs
        too), or this check's budget is spent."""
        self.stopped = self.stopped or why
        if slow:
            self.s.probes_stopped = self.s.probes_stopped or self.stopped
        revive(self.s)

    def timed(self, response: str, case: str) -> tuple[float | None, float, Failure | None]:
        """One score call on its own, timed here: (score, seconds, failure)."""
        s = self.s
        saved = (list(s.cand.swallowed), s.cand.swallowed_count)
        try:
            score, dt = s.cand.score(response, case, s.limit(self.limit), check_identity=True)
        except Failure as f:
            self.failures.append((response, case, f))
            if f.status in ("timeout", "oom") or not s.cand.server.alive:
                self.stop(f"verify_score {f.what}")
            return None, self.limit if f.status == "timeout" else 0.0, f
        self._forget_swallowed(saved, True)
        self.spent += dt
        self.calls += 1
        return score, dt, None


def revive(s: Suite) -> None:
    """Start the bootcamp's session again when it ended (its instances are lost; the checks
    after the probes need only its classmethods)."""
    if not s.cand.server.alive and time.monotonic() < s.deadline - 2:
        s.cand.server.start()


def prompts_for(s: Suite, keys: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The prompts of these cases: those the prompt check made, the rest asked in one batch."""
    out = {k: s.prompts[k] for k in keys if k in s.prompts}
    missing = [k for k in keys if k not in out]
    if missing and s.cand.server.alive:
        calls = [("prompt", {"case_text": s.cases[li][i]}) for li, i in missing]
        try:
            answered, _ = ask_many(s.cand.server, calls, s.cfg.call_max_s * 2)
        except Failure:
            answered = []
        for key, (value, fail) in zip(missing, answered, strict=False):
            if fail is None and type(value) is str:
                out[key] = value
    return out


def _case(s: Suite, key: tuple[int, int]) -> str:
    return s.cases[key[0]][key[1]]


def _share(flags: list[bool]) -> tuple[int, int]:
    return sum(flags), len(flags)


# -- the check ---------------------------------------------------------------------------------


def check_answer_probes(s: Suite) -> dict[str, Any]:
    keys = s.spread(PROBE_CASES)
    prompts = prompts_for(s, keys)
    keys = [k for k in keys if k in prompts]
    if len(keys) < 2:
        return result("skipped", "not run: fewer than two cases with a prompt")
    formats = ia.answer_formats([prompts[k] for k in keys])
    p = Prober(s, s.cfg.check_budget_s)
    findings: list[dict[str, Any]] = []
    own = keys[:OWN_CASES]
    probes = {k: ia.case_probes(json.loads(_case(s, k)), prompts[k], formats) for k in own}
    findings += _timing(s, p, own, probes, formats)
    findings += _prompt_repeats(s, keys[:5], prompts)
    findings += _case_repeats(s)
    universal: set[str] = set()
    findings += _constants(s, p, keys, prompts, formats, universal)
    found: dict[tuple[int, int], list[tuple[ia.Probe, str]]] = {}
    findings += _own_case(s, p, own, prompts, probes, formats, found, universal)
    findings += _cross_case(s, p, keys, found, universal)
    findings += _mutations(s, p, found, universal)
    findings += _canary(s, p, own[:4], formats)
    findings += _repeat_scores(s, p, own[:4], found, formats)
    findings += failure_findings(s, p.failures, p.events)
    summary = (f"{p.calls} probe responses scored on {len(keys)} case(s) in "
               f"{p.spent:.2f}s (answer formats: "
               f"{', '.join(repr(f[0] + f[1]) for f in formats)}); no trivial, constant, "
               "copied or example answer is accepted on most cases")
    extra: dict[str, Any] = {}
    if p.stopped or p.cut:
        extra["not_probed"] = (p.stopped or f"{p.cut} probe response(s) not scored: the "
                               f"{p.budget:g}s budget of the check was spent")
    return report(findings, summary, **extra)


def _plausible(probes: list[ia.Probe]) -> list[str]:
    """Well-formed answers for timing: the format example, 0, the case's first values."""
    picks = [*[p.answer for p in probes if p.kind == "example"][:1], "0"]
    picks += [p.answer for p in probes if p.kind in ("value", "given") and p.answer][:2]
    return list(dict.fromkeys(picks))[:3]


def _timing(s: Suite, p: Prober, own: list[tuple[int, int]],
            probes: dict[tuple[int, int], list[ia.Probe]],
            formats: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Verification timed one call at a time on well-formed answers of the first case (before
    any batch: a verifier that takes seconds is found here, with the time)."""
    key = own[0]
    case = _case(s, key)
    times: list[tuple[float, str]] = []
    for answer in _plausible(probes[key]):
        response = ia.wrap(answer, formats[0])
        _, dt, fail = p.timed(response, case)
        times.append((dt, response))
        if fail is not None and fail.status == "timeout":
            return [finding("slow_verifier", f"verify_score did not return within "
                            f"{p.limit:g}s on the well-formed answer {answer!r:.60} "
                            f"({s.where(*key)}); garbage is not enough to time a verifier",
                            case=case, response=response, traceback=fail.trace or None)]
    slow = [(dt, r) for dt, r in times if dt > s.cfg.call_max_s]
    if len(slow) >= 2 or (slow and len(times) == 1):
        shown = ", ".join(f"{dt:.2f}s" for dt, _ in times)
        p.stop("verify_score takes seconds per well-formed answer")
        return [finding("slow_verifier", f"verify_score takes {shown} on well-formed answers "
                        f"({s.where(*key)}; max {s.cfg.call_max_s:g}s per call)",
                        case=case, response=slow[0][1])]
    if times:
        p.per_call = s.probe_call_s = max(p.per_call, max(dt for dt, _ in times))
    return []


def _prompt_repeats(s: Suite, keys: list[tuple[int, int]],
                    prompts: dict[tuple[int, int], str]) -> list[dict[str, Any]]:
    """prompt_func asked twice more on a few cases: always the same prompt."""
    calls = [("prompt", {"case_text": _case(s, k)}) for k in keys for _ in range(2)]
    try:
        answered, _ = ask_many(s.cand.server, calls, s.cfg.call_max_s * 2)
    except Failure:
        return []
    for n, (value, fail) in enumerate(answered):
        key = keys[n // 2]
        if fail is None and type(value) is str and value != prompts[key]:
            return [finding("nondeterministic_prompt", f"prompt_func gave another prompt for "
                            f"the same case when asked again ({s.where(*key)})",
                            case=_case(s, key), first=prompts[key], again=value)]
    return []


def _case_repeats(s: Suite, times: int = 2) -> list[dict[str, Any]]:
    """Fresh instances with the first level's seed, twice more: the same first cases (the
    determinism check compared one fresh instance and a second process)."""
    _, params, seed = s.levels[0]
    want = s.cases[0][:3]
    for attempt in range(times):
        try:
            handle = s.construct(params, seed)
            got = [s.generate(handle, seed if n == 0 else None)[0] for n in range(len(want))]
        except Failure:
            return []  # the generate and determinism checks report failures
        for n, (a, b) in enumerate(zip(want, got, strict=True)):
            if a != b:
                return [finding("nondeterministic_case", f"a fresh instance with the same seed "
                                f"gave another case {n} (instance {attempt + 3} of the level): "
                                "the cases do not repeat", first=a, again=b)]
    return []


def _constants(s: Suite, p: Prober, keys: list[tuple[int, int]],
               prompts: dict[tuple[int, int], str], formats: list[tuple[str, str]],
               universal: set[str]) -> list[dict[str, Any]]:
    """Answers that do not depend on the case: screened on 4 cases, then scored on every case."""
    texts = [prompts[k] for k in keys]
    examples = Counter(e for t in texts for fmt in formats for e in ia.examples(t, fmt))
    fixed = [e for e, n in examples.items() if n >= MOST * len(texts)]
    cases = [json.loads(_case(s, k)) for k in keys]
    origin: dict[str, str] = {}
    for label, answers in (("the prompts' own format example", fixed),
                           ("a trivial answer", list(ia.TRIVIAL)),
                           ("a case field's most frequent value", ia.frequent_values(cases)),
                           ("a word of the module's own lists", ia.vocabulary(s.source)),
                           ("a word every prompt shares", ia.template_tokens(texts)),
                           ("an order of the k things every prompt names",
                            ia.sequences(ia.template_tokens(texts)))):
        for answer in answers:
            origin.setdefault(answer, label)
    responses = [(a, ia.wrap(a, fmt)) for a in origin for fmt in formats]
    screen = keys[:4]
    width = len(screen)
    got = p.scores([(r, _case(s, k)) for _, r in responses for k in screen])
    survivors = [n for n in range(len(responses))
                 if sum(x.accepted for x in got[n * width:(n + 1) * width]) >= width - 1]
    rest = [(li, i) for li, i, _ in s.each_case() if (li, i) not in screen]
    findings: list[dict[str, Any]] = []
    for n in survivors[:MAX_SURVIVORS]:
        answer, response = responses[n]
        more = p.scores([(response, _case(s, k)) for k in rest])
        flags = [x.accepted for x in [*got[n * width:(n + 1) * width], *more]
                 if x.score is not None]
        accepted, total = _share(flags)
        if total >= MIN_CASES and accepted >= MOST * total:
            universal.add(response)
            name = "example_is_answer" if origin[answer].startswith("the prompts'") \
                else "constant_answer"
            findings.append(finding(name, f"the constant answer {answer!r:.60} "
                                    f"({origin[answer]}) scores 1.0 on {accepted} of {total} "
                                    "cases: it does not depend on the case",
                                    answer=answer, response=response,
                                    case=_case(s, screen[0])))
    return _one_per_name(findings)


def _one_per_name(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first finding of each name, the other answers named in its reason."""
    out: dict[str, dict[str, Any]] = {}
    others: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        if f["finding"] in out:
            others[f["finding"]].append(repr(str(f["artifacts"].get("answer", "")))[:40])
        else:
            out[f["finding"]] = f
    for name, f in out.items():
        if others[name]:
            f["reason"] += f"; so do {', '.join(others[name][:5])}"
    return list(out.values())


def _own_case(s: Suite, p: Prober, own: list[tuple[int, int]],
              prompts: dict[tuple[int, int], str],
              probes: dict[tuple[int, int], list[ia.Probe]], formats: list[tuple[str, str]],
              found: dict[tuple[int, int], list[tuple[ia.Probe, str]]],
              universal: set[str]) -> list[dict[str, Any]]:
    """Each case's own values, arrangements and format examples, scored on that case."""
    items: list[tuple[tuple[int, int], ia.Probe, str]] = [
        (k, probe, ia.wrap(probe.answer, fmt)) for k in own for probe in probes[k]
        for fmt in formats]
    got = p.scores([(r, _case(s, k)) for k, _, r in items])
    examples: dict[str, list[bool]] = defaultdict(list)
    copies: dict[str, list[bool]] = defaultdict(list)
    orders: dict[str, list[bool]] = defaultdict(list)
    by_case: dict[tuple[int, int], list[tuple[ia.Probe, str, Scored]]] = defaultdict(list)
    for (k, probe, response), scored in zip(items, got, strict=True):
        by_case[k].append((probe, response, scored))
        if scored.accepted:
            found.setdefault(k, []).append((probe, response))
    evidence: dict[str, tuple[tuple[int, int], str]] = {}
    for k, rows in by_case.items():
        case = json.loads(_case(s, k))
        seen: dict[tuple[str, str], bool] = {}  # (what, field) -> accepted on this case
        arranged: dict[str, set[tuple[str, ...]]] = defaultdict(set)
        for probe, response, scored in rows:
            if scored.score is None:
                continue
            tags = []
            if probe.kind == "example":
                tags.append(("example", probe.field))
            if probe.kind in ("value", "given") and probe.field in case \
                    and not ia.answer_like(probe.field) \
                    and ia.shown(case[probe.field], prompts[k]):
                tags.append(("copy", probe.field))
            if probe.kind in ARRANGED:
                arranged.setdefault(probe.field, set())
                if scored.accepted:
                    arranged[probe.field].add(ia.items_of(probe.answer))
            for tag in tags:
                seen[tag] = seen.get(tag, False) or scored.accepted
                if scored.accepted:
                    evidence.setdefault(" ".join(tag), (k, response))
        for (what, name), hit in seen.items():
            (examples if what == "example" else copies)[name].append(hit)
        for name, orders_seen in arranged.items():
            orders[name].append(len(orders_seen) >= 2)
            if len(orders_seen) >= 2:
                evidence.setdefault(f"order {name}", (k, " | ".join(
                    " ".join(o) for o in sorted(orders_seen))[:300]))
    findings: list[dict[str, Any]] = []
    for position, flags in examples.items():
        accepted, total = _share(flags)
        if total >= MIN_CASES and accepted >= MOST * total:
            k, response = evidence[f"example {position}"]
            findings.append(finding("example_is_answer", f"the prompt's own format example "
                                    f"({position}) is the right answer on {accepted} of "
                                    f"{total} cases: the prompt gives the answer away",
                                    case=_case(s, k), prompt=prompts[k], response=response))
    for name, flags in copies.items():
        accepted, total = _share(flags)
        if total >= MIN_CASES and accepted >= MOST * total and _prompt_shows(s, own, prompts,
                                                                             name):
            k, response = evidence[f"copy {name}"]
            universal.add(response)
            findings.append(finding("answer_is_input", f"the case's own {name!r}, which the "
                                    f"prompt shows, is accepted as the answer on {accepted} of "
                                    f"{total} cases: the answer is copied from the question",
                                    case=_case(s, k), prompt=prompts[k], response=response))
    for name, flags in orders.items():
        accepted, total = _share(flags)
        if total >= MIN_CASES and accepted >= ORDER_SHARE * total:
            k, shown = evidence[f"order {name}"]
            findings.append(finding("order_ignored", f"different orders of the same elements "
                                    f"of {name!r} (as given, reversed, sorted) are all accepted "
                                    f"on {accepted} of {total} cases: the verifier ignores the "
                                    "order the task asks for", case=_case(s, k),
                                    accepted_orders=shown))
    return _one_per_name(findings)


def _prompt_shows(s: Suite, keys: list[tuple[int, int]], prompts: dict[tuple[int, int], str],
                  name: str) -> bool:
    """Does the prompt show the field: does another case's value for it change the prompt?
    (A stored answer whose number happens to appear in the prompt does not.)"""
    cases = [json.loads(_case(s, k)) for k in keys]
    texts: list[str] = []
    asked: list[tuple[int, int]] = []
    for k, case in zip(keys, cases, strict=True):
        donor = next((c[name] for c in cases if isinstance(c, dict) and name in c
                      and c[name] != case.get(name)), None)
        if isinstance(case, dict) and name in case and donor is not None:
            texts.append(canonical({**case, name: donor}))
            asked.append(k)
        if len(asked) >= 3:
            break
    if not asked:
        return True  # one value everywhere: the constant answer probes judge it
    try:
        answered, _ = ask_many(s.cand.server, [("prompt", {"case_text": x}) for x in texts],
                               s.cfg.call_max_s * 2)
    except Failure:
        return False
    return any(fail is None and value != prompts[k]
               for k, (value, fail) in zip(asked, answered, strict=False))


def _cross_case(s: Suite, p: Prober, keys: list[tuple[int, int]],
                found: dict[tuple[int, int], list[tuple[ia.Probe, str]]],
                universal: set[str]) -> list[dict[str, Any]]:
    """Answers accepted on one case, offered on the others."""
    picks: list[tuple[tuple[int, int], str]] = []
    seen: set[str] = set(universal)
    for rank in range(4):
        for k, rows in found.items():
            if rank < len(rows) and rows[rank][1] not in seen and len(picks) < 8:
                seen.add(rows[rank][1])
                picks.append((k, rows[rank][1]))
    findings: list[dict[str, Any]] = []
    others = keys[:OWN_CASES]
    for k, response in picks:
        rest = [o for o in others if o != k]
        got = p.scores([(response, _case(s, o)) for o in rest])
        accepted, total = _share([x.accepted for x in got if x.score is not None])
        if total >= MIN_CASES - 1 and accepted >= MOST * total:
            universal.add(response)
            findings.append(finding("cross_case_answer", f"the response {response!r:.80}, "
                                    f"accepted on {s.where(*k)}, is accepted on {accepted} of "
                                    f"{total} other cases too: the verifier does not check it "
                                    "against the case", answer=response, case=_case(s, k),
                                    other_case=_case(s, rest[0])))
    return _one_per_name(findings)


def _mutations(s: Suite, p: Prober, found: dict[tuple[int, int], list[tuple[ia.Probe, str]]],
               universal: set[str]) -> list[dict[str, Any]]:
    """Corrupted forms of the answers each case accepted, scored on that case."""
    # (kind, case, answer, mutant, response)
    items: list[tuple[str, tuple[int, int], str, str, str]] = []
    for k, rows in found.items():
        for probe, response in rows[:2]:
            # one token only: of a longer answer the verifier may rightly read a part (the
            # first number), and corrupting the rest proves nothing
            if response in universal or len(ia.items_of(probe.answer)) != 1 \
                    or probe.answer.strip() != ia.items_of(probe.answer)[0] \
                    or probe.answer not in response:
                continue
            head, tail = response.rsplit(probe.answer, 1)
            mutants = [(kind, mutate(kind, probe.answer, s.rng)) for kind in MUTATION_KINDS
                       if kind in HARD_MUTATIONS]
            mutants += [(f"semantic:{kind}", m) for kind, m in
                        semantic_mutants(probe.answer, s.rng) if kind in HARD_SEMANTIC]
            for kind, mutant in mutants:
                if mutant is not None and mutant.split() != probe.answer.split():
                    items.append((kind, k, probe.answer, mutant, head + mutant + tail))
    got = p.scores([(r, _case(s, k)) for _, k, _, _, r in items])
    tried: Counter[str] = Counter()
    survived: dict[str, list[tuple[tuple[int, int], str, str]]] = defaultdict(list)
    for (kind, k, answer, mutant, _), scored in zip(items, got, strict=True):
        if scored.score is None:
            continue
        tried[kind] += 1
        if scored.accepted and not near(answer, mutant):
            survived[kind].append((k, answer, mutant))

    def mostly(kind: str) -> bool:
        cases = {k for k, _, _ in survived[kind]}
        return tried[kind] >= 3 and 2 * len(survived[kind]) > tried[kind] and len(cases) >= 3

    one_way = {"semantic:plus_one": "semantic:minus_one",
               "semantic:minus_one": "semantic:plus_one"}
    weak = [k for k in tried if mostly(k) and (k not in one_way or mostly(one_way[k]))]
    if not weak:
        return []
    table = ", ".join(f"{k} {len(survived[k])}/{tried[k]}" for k in weak)
    k, answer, mutant = survived[weak[0]][0]
    return [finding("lenient_verifier", f"corrupted forms of answers the verifier accepts are "
                    f"accepted too (accepted/tried: {table}): it does not read the whole answer",
                    case=_case(s, k), accepted_answer=answer, accepted_corruption=mutant)]


def _canary(s: Suite, p: Prober, keys: list[tuple[int, int]],
            formats: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Responses that import the kit's canary module if the verifier executes them."""
    p.events += drain(s)  # refused before: belongs to the earlier probes
    for k in keys:
        case = _case(s, k)
        payloads = [ia.wrap(x, fmt) for x in ia.canary_payloads(json.loads(case))
                    for fmt in formats]
        p.scores([(r, case) for r in payloads], record=False)
        events = drain(s)
        if any("canary" in e for e in events):
            return [finding("executes_response", "the verifier executes the text of a "
                            "response (eval/exec): a response that imports a module ran here "
                            "(the sandbox refused it)", case=case, responses="\n".join(payloads),
                            refused="\n".join(events[:5]))]
        p.events += events
    return []


def _repeat_scores(s: Suite, p: Prober, keys: list[tuple[int, int]],
                   found: dict[tuple[int, int], list[tuple[ia.Probe, str]]],
                   formats: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The same response scored twice on the same case (an accepted one where there is one)."""
    items = []
    for k in keys:
        rows = found.get(k)
        response = rows[0][1] if rows else ia.wrap("0", formats[0])
        items += [(response, _case(s, k))] * 2
    got = p.scores(items)
    for n in range(0, len(got) - 1, 2):
        one, two = got[n], got[n + 1]
        if one.score is not None and two.score is not None and one.score != two.score:
            return [finding("impure_verifier", f"the same response scored {one.score!r} then "
                            f"{two.score!r} on the same case: the verifier keeps state between "
                            "calls", response=items[n][0], case=items[n][1])]
    return []


# -- refusals and failed calls ---------------------------------------------------------------


def drain(s: Suite) -> list[str]:
    """The guard's refusals since the last drain (intern mode; [] when the session ended)."""
    if not s.intern or not s.cand.server.alive:
        return []
    try:
        return s.cand.events(s.limit(2.0))
    except Failure:
        return []


def event_finding(event: str, trace: str = "") -> str:
    """The finding a refusal of the guard stands for."""
    if "canary" in event:
        return "executes_response"
    if any(w in event for w in ("subprocess", "os.system", "os.exec", "os.spawn", "os.fork",
                                "posix_spawn")) or "/subprocess.py" in trace:
        return "runs_subprocess"
    if event.startswith("reading "):
        return "reads_machine_file"
    return "sandbox_refused"


_EVENT_TEXT = {
    "executes_response": "the verifier executes the text of a response",
    "runs_subprocess": "the audited code starts a process",
    "reads_machine_file": "the audited code reads a file of the machine it runs on",
    "sandbox_refused": "the audited code did something the sandbox refuses",
}


def failure_findings(s: Suite, failures: list[tuple[str, str, Failure]],
                     events: list[str]) -> list[dict[str, Any]]:
    """Findings of the calls that failed during the probes and of the guard's refusals."""
    events = [*events, *drain(s)]
    findings: list[dict[str, Any]] = []
    named: set[str] = set()
    for response, case, f in failures:
        if f.finding in ("impure_verifier", "invalid_score", "contract_tampered"):
            name = f.finding
        elif "SandboxViolation" in f.what:
            name = event_finding(f.what.split("bootcamp: ", 1)[-1], f.trace)
        elif f.status in ("timeout", "oom"):
            name = "slow_verifier" if f.status == "timeout" else "verifier_crashes"
        else:
            name = "verifier_crashes"
        if name in named:
            continue
        named.add(name)
        what = _EVENT_TEXT.get(name, "a probe response")
        said = f.what if f.what.startswith("verify_score") else f"verify_score {f.what}"
        findings.append(finding(name, f"{what}: {said[:240]}", response=response, case=case,
                                traceback=f.trace or None))
    for event in events:
        name = event_finding(event)
        if name not in named:
            named.add(name)
            findings.append(finding(name, f"{_EVENT_TEXT[name]}: the sandbox refused "
                                    f"{event[:200]}", refused="\n".join(events[:10])))
    return findings


def collect_events(s: Suite, name: str, res: dict[str, Any]) -> dict[str, Any]:
    """Intern mode, after every check: the guard's refusals during it are reject findings
    (merged as notes); a check that failed because of one gets its finding."""
    events = drain(s)
    if not events:
        return res
    kind = event_finding(events[0], str((res.get("artifacts") or {}).get("traceback", "")))
    refused = "\n".join(events[:10])
    if res.get("status") not in ("passed", "skipped") and not res.get("finding") \
            and "SandboxViolation" in str(res.get("reason", "")):
        return {**res, "finding": kind, "reason": f"{_EVENT_TEXT[kind]}: {res.get('reason', '')}",
                "artifacts": {**(res.get("artifacts") or {}), "refused": refused}}
    s.notes.append({"severity": "reject", "finding": kind,
                    "reason": f"{_EVENT_TEXT[kind]} during the {name} check: the sandbox "
                              f"refused {events[0][:160]}", "artifacts": {"refused": refused}})
    return res


def guarded(check: Callable[[Suite], dict[str, Any]]) -> Callable[[Suite], dict[str, Any]]:
    """A probe check whose own host code fails (a bug of the audit, never of the module)
    reports that and decides nothing: the module is judged by its other checks."""

    def run(s: Suite) -> dict[str, Any]:
        try:
            return check(s)
        except Failure:
            raise
        except Exception as exc:  # reported in the result, with the traceback
            return result("skipped", f"not run to the end: the audit's own probe code failed "
                          f"({type(exc).__name__}: {str(exc)[:200]}); a bug of the audit, not "
                          "a finding about the module", traceback=traceback.format_exc())

    return run


CHECKS = {"answer_probes": guarded(check_answer_probes)}
