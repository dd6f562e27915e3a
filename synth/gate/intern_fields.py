"""Case-field probes of InternBootcamp-style classes: the answer a case stores, and what the
prompt shows of the case. The check ``case_fields`` (intern mode), judged on the host:

* ``constant_answer_field`` -- a field named as the answer (``answer``, ``solution``,
  ``expected``, ...) holds the same value on every one of at least 10 cases;
* ``answer_leak`` -- the prompt labels a case value with its field's name (or with "answer",
  "solution", ...) -- ``"answer": 42``, ``expected: 12``, ``[target=volcano]`` -- and that value
  is accepted as the answer, on :data:`LEAK_SHARE` of the cases. A ``target`` the prompt shows
  as part of the question (pick numbers that add up to it) is not accepted as the answer;
* ``prompt_missing_info`` -- the verifier's verdict depends on a field (or a table's column:
  the tolls of ``[[a, b, toll], ...]``) that the prompt does not show: other cases' values for
  it (other rows' values) leave the prompt identical, removing it changes what ``verify_score``
  does, and an answer it accepts (the case's own values, its mappings applied to its texts,
  small integers) is rejected under each of those values. A stored answer is no such
  field (named as the answer, or accepted as the answer: a hidden ``answer`` of a Caesar
  decoder is fine), nor a label with one or two values, nor a count, length or extreme of
  another field, nor a number that moves with the other fields across the cases (a tree's
  leaf count, computed from its edges).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

from synth.gate import intern_answers as ia
from synth.gate.calls import Failure, ask_many
from synth.gate.intern_probes import Prober, failure_findings, finding, prompts_for, report
from synth.gate.results import result
from synth.gate.suite import Suite
from synth.sandbox.kit import canonical

__all__ = ["LEAK_SHARE", "check_case_fields", "depends", "derived", "labelled"]

#: Share of the probed cases on which a labelled, accepted value is a leak.
LEAK_SHARE = 0.75
#: Names a stored answer goes by (exactly): one value on every case is a constant answer.
EXACT_ANSWER = frozenset({"answer", "answers", "solution", "expected", "expected_answer",
                          "expected_output", "correct_answer", "correct_output", "ground_truth",
                          "gold", "result", "ans", "target_answer", "label"})
#: Bookkeeping fields a verifier may read without the prompt showing them.
META = frozenset({"id", "uid", "idx", "index", "seed", "level", "difficulty", "version", "meta",
                  "metadata", "info", "tags", "category", "source_filename", "split"})
#: Words that label an answer in a prompt.
ANSWER_LABELS = ("answer", "solution", "expected", "result", "correct")
FIELD_CASES = 4
#: Other cases' values a hidden field is given, one at a time.
DONORS = 3
#: (case, the case with the field set to other cases' values, the case without the field)
Variant = tuple[tuple[int, int], list[str], str]
MIN_LEAK_CASES = 4


def labelled(prompt: str, name: str, text: str) -> bool:
    """Does the prompt show ``text`` labelled by ``name`` (``name: text``, ``"name": text``,
    ``name=text``, ``name is text``)?"""
    if not text.strip() or not name:
        return False
    pattern = (rf"(?<!\w){re.escape(name)}[\"']?\s*(?:[:=]|\bis\b)\s*[\"'\[(]?"
               rf"{re.escape(text)}(?!\w|\.\d)")
    return re.search(pattern, prompt, re.IGNORECASE) is not None


def _fields(case: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of a case's fields and of its dicts' fields (one level down)."""
    out = list(case.items())[:20]
    for _, value in list(case.items())[:20]:
        if isinstance(value, dict):
            out += list(value.items())[:10]
    return [(str(k), v) for k, v in out if not isinstance(v, dict)]


def derived(case: dict[str, Any], name: str) -> bool:
    """Is the field's value another field's value, or a count, length, sum or extreme of one
    (a stored ``n`` of a list the prompt shows)?"""
    value = case.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    seen: set[Any] = set()
    for other, v in case.items():
        if other == name:
            continue
        if isinstance(v, int | float | str) and not isinstance(v, bool):
            seen.add(v)
        if isinstance(v, list | str | dict):
            seen.add(len(v))
        if isinstance(v, list) and v and isinstance(v[0], list | str):
            seen.add(len(v[0]))
        if isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool)
                                             for x in v):
            seen |= {sum(v), max(v), min(v), max(v) + 1}
    return value in seen


def _ranks(xs: list[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    at = 0
    while at < len(order):
        end = at
        while end + 1 < len(order) and xs[order[end + 1]] == xs[order[at]]:
            end += 1
        for j in range(at, end + 1):
            ranks[order[j]] = (at + end) / 2
        at = end + 1
    return ranks


def _spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def _features(case: dict[str, Any], name: str) -> dict[str, float]:
    """Numbers that sum up the other fields of a case: values, lengths, sums, extremes."""
    out: dict[str, float] = {}
    for other, v in case.items():
        if other == name or isinstance(v, bool):
            continue
        if isinstance(v, int | float):
            out[other] = float(v)
        elif isinstance(v, list | str | dict):
            out[f"len({other})"] = float(len(v))
            numbers = [x for x in v if isinstance(x, int | float) and not isinstance(x, bool)] \
                if isinstance(v, list) else []
            if numbers and len(numbers) == len(v):
                out[f"sum({other})"] = float(sum(numbers))
                out[f"max({other})"] = float(max(numbers))
            if isinstance(v, list) and v and all(isinstance(x, list | str) for x in v):
                out[f"len({other}[*])"] = float(sum(len(x) for x in v))
    return out


def depends(dicts: list[dict[str, Any]], name: str, threshold: float = 0.4) -> str | None:
    """A number that sums up the other fields and moves with the field's value across the
    cases (a rank correlation of at least ``threshold``), or None: a number the generator
    computes from what the prompt shows (a tree's leaf count moves with its size) is no
    missing input; one drawn on its own (an exchange rate) moves with nothing."""
    ys = [float(v) for c in dicts if isinstance(v := c.get(name), int | float)
          and not isinstance(v, bool)]
    if len(dicts) < 12 or len(ys) != len(dicts):
        return None
    rows = [_features(c, name) for c in dicts]
    for feature in rows[0]:
        xs = [r[feature] for r in rows if feature in r]
        if len(xs) == len(ys) and abs(_spearman(xs, ys)) >= threshold:
            return feature
    return None


def check_case_fields(s: Suite) -> dict[str, Any]:
    keys = s.spread(24)
    prompts = prompts_for(s, keys)
    keys = [k for k in keys if k in prompts]
    if len(keys) < 2:
        return result("skipped", "not run: fewer than two cases with a prompt")
    formats = ia.answer_formats([prompts[k] for k in keys])
    cases = {k: json.loads(s.cases[k[0]][k[1]]) for k in keys}
    every = [json.loads(text) for _, _, text in s.each_case()]
    p = Prober(s, s.cfg.check_budget_s)  # stopped already if the verifier takes seconds
    findings = _constant_fields(every)
    findings += _leaks(s, p, keys, prompts, formats, cases)
    findings += _hidden(s, p, keys, prompts, formats, cases, every)
    findings += failure_findings(s, p.failures, p.events)
    names = sorted({n for c in cases.values() if isinstance(c, dict) for n in c})
    return report(findings, f"{len(names)} case field(s) over {len(keys)} case(s): no "
                  "constant stored answer, no labelled answer in the prompt, the verifier reads "
                  "nothing the prompt hides (but a stored answer)",
                  **({"not_probed": p.stopped} if p.stopped else {}))


def _constant_fields(every: list[Any]) -> list[dict[str, Any]]:
    dicts = [c for c in every if isinstance(c, dict)]
    if len(dicts) < 10:
        return []
    for name in dicts[0]:
        if name.lower() not in EXACT_ANSWER or not all(name in c for c in dicts):
            continue
        values = {canonical(c[name]) for c in dicts}
        if len(values) == 1:
            return [finding("constant_answer_field", f"the case field {name!r}, the stored "
                            f"answer, is {next(iter(values))[:60]} on every one of {len(dicts)} "
                            "cases", case=canonical(dicts[0]))]
    return []


def _leaks(s: Suite, p: Prober, keys: list[tuple[int, int]], prompts: dict[tuple[int, int], str],
           formats: list[tuple[str, str]],
           cases: dict[tuple[int, int], Any]) -> list[dict[str, Any]]:
    items: list[tuple[tuple[int, int], str, str]] = []  # case, field, response
    present: dict[str, int] = defaultdict(int)
    for k in keys:
        case, prompt = cases[k], prompts[k]
        if not isinstance(case, dict):
            continue
        for name, value in _fields(case):
            present[name] += 1
            for text in ia.render(value)[:3]:
                if labelled(prompt, name, text) or any(labelled(prompt, w, text)
                                                       for w in ANSWER_LABELS):
                    items += [(k, name, ia.wrap(text, fmt)) for fmt in formats]
    got = p.scores([(r, s.cases[k[0]][k[1]]) for k, _, r in items])
    hits: dict[str, dict[tuple[int, int], str]] = defaultdict(dict)
    for (k, name, response), scored in zip(items, got, strict=True):
        if scored.accepted:
            hits[name].setdefault(k, response)
    findings: list[dict[str, Any]] = []
    for name, where in hits.items():
        total = present[name]
        if total >= MIN_LEAK_CASES and len(where) >= LEAK_SHARE * total:
            k, response = next(iter(where.items()))
            findings.append(finding("answer_leak", f"the prompt shows the case's {name!r} "
                                    f"under its name, and that value is accepted as the answer "
                                    f"on {len(where)} of {total} cases: the prompt gives the "
                                    "answer away", case=s.cases[k[0]][k[1]], prompt=prompts[k],
                                    response=response))
    return findings[:1]


def _prompts(s: Suite, texts: list[str]) -> list[str | None]:
    """prompt_func on these case texts (None where it failed)."""
    calls = [("prompt", {"case_text": t}) for t in texts]
    try:
        answered, _ = ask_many(s.cand.server, calls, s.cfg.call_max_s * 2)
    except Failure:
        return [None] * len(texts)
    out: list[str | None] = [v if f is None and type(v) is str else None for v, f in answered]
    return out + [None] * (len(texts) - len(out))


def _hidden(s: Suite, p: Prober, keys: list[tuple[int, int]],
            prompts: dict[tuple[int, int], str], formats: list[tuple[str, str]],
            cases: dict[tuple[int, int], Any], every: list[Any]) -> list[dict[str, Any]]:
    """Fields, and columns of tables (a road's toll in ``[[a, b, toll], ...]``), that the
    prompt does not show and the verifier's verdict depends on."""
    dicts = [c for c in every if isinstance(c, dict)]
    probed = [k for k in keys if isinstance(cases[k], dict)]
    if len(dicts) < 4 or not probed:
        return []
    findings: list[dict[str, Any]] = []
    for label, variants, stored in _targets(cases, probed, dicts, formats):
        asked = [(k, c) for k, changed, _ in variants for c in changed]
        again = _prompts(s, [c for _, c in asked])
        if any(a is None or a != prompts[k] for (k, _), a in zip(asked, again, strict=True)):
            continue  # shown (or not to be judged this way)
        if stored and any(x.accepted for x in p.scores(
                [(r, s.cases[k[0]][k[1]]) for k, r in stored], record=False)):
            continue  # the stored answer itself
        if not _reads(s, p, variants, formats):
            continue  # the verifier never reads it
        evidence, solved = _depends_on(s, p, variants, prompts, formats)
        if len(evidence) >= 2 and 2 * len(evidence) >= solved:
            k, response, after = evidence[0]
            findings.append(finding("prompt_missing_info", f"the verifier uses the case's "
                                    f"{label}, which the prompt never shows: other values "
                                    f"leave the prompt identical on {len(variants)} cases, and "
                                    f"each turns an accepted answer into a score of {after} "
                                    f"on {len(evidence)} of the {solved} case(s) an accepted "
                                    "answer was found for: the task cannot be solved from the "
                                    "prompt", case=s.cases[k[0]][k[1]], prompt=prompts[k],
                                    response=response))
            break
    return findings


def _targets(cases: dict[tuple[int, int], Any], probed: list[tuple[int, int]],
             dicts: list[dict[str, Any]], formats: list[tuple[str, str]],
             ) -> list[tuple[str, list[Variant], list[tuple[tuple[int, int], str]]]]:
    """(what, its variants on the probed cases, responses of its stored value) for each field
    that may hide an input -- not named as the answer or as bookkeeping, with three values or
    more, not computed from the other fields -- and each column of a table field."""
    out: list[tuple[str, list[Variant], list[tuple[tuple[int, int], str]]]] = []
    for name in list(cases[probed[0]])[:12]:
        if ia.answer_like(name) or name.lower() in META or not all(name in c for c in dicts):
            continue
        out += _columns(cases, probed, name)
        if len({canonical(c[name]) for c in dicts}) < 3:
            continue  # a flag or a label with two values: a stored verdict, if anything
        if depends(dicts, name) is not None:
            continue  # computed from the other fields, as far as the cases tell
        picks = [k for k in probed if not derived(cases[k], name)][:FIELD_CASES]
        if len(picks) < 3:
            continue
        variants: list[Variant] = []
        for k in picks:
            case = cases[k]
            donors = list({canonical(c[name]): c[name] for c in dicts
                           if canonical(c[name]) != canonical(case[name])}.values())
            changed = [canonical({**case, name: d}) for d in donors[:DONORS]]
            removed = canonical({n: v for n, v in case.items() if n != name})
            variants.append((k, changed, removed))
        stored = [(k, ia.wrap(text, fmt)) for k in picks for text in ia.render(cases[k][name])[:3]
                  for fmt in formats]
        out.append((f"field {name!r}", variants, stored))
    return out


def _columns(cases: dict[tuple[int, int], Any], probed: list[tuple[int, int]],
             name: str) -> list[tuple[str, list[Variant], list[tuple[tuple[int, int], str]]]]:
    """Each column of a table field (rows of the same length, at least two columns), changed
    by moving its values between the rows (the same values, other rows)."""
    first = cases[probed[0]].get(name)
    if not isinstance(first, list) or len(first) < 2 or not all(
            isinstance(r, list) and len(r) == len(first[0]) >= 2 for r in first):
        return []
    out: list[tuple[str, list[Variant], list[tuple[tuple[int, int], str]]]] = []
    for j in range(min(len(first[0]), 4)):
        variants: list[Variant] = []
        for k in probed:
            case = cases[k]
            rows = case.get(name)
            if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > j
                                                     for r in rows):
                continue
            column = [r[j] for r in rows]
            if len({canonical(v) for v in column}) < 2:
                continue
            shifted = [column[n:] + column[:n] for n in range(1, len(column))]
            shifted = [c for c in shifted if c != column][:DONORS]
            changed = [canonical({**case, name: [[*r[:j], v, *r[j + 1:]] for r, v in
                                                 zip(rows, col, strict=True)]})
                       for col in shifted]
            removed = canonical({**case, name: [[*r[:j], *r[j + 1:]] for r in rows]})
            variants.append((k, changed, removed))
            if len(variants) >= FIELD_CASES:
                break
        if len(variants) >= 3:
            out.append((f"column {j} of {name!r}", variants, []))
    return out


#: Integers tried as answers where no other probe answer is accepted (two rounds).
INT_ROUNDS = (range(-10, 301), range(301, 3001))


def _depends_on(s: Suite, p: Prober, variants: list[Variant],
                prompts: dict[tuple[int, int], str], formats: list[tuple[str, str]],
                ) -> tuple[list[tuple[tuple[int, int], str, str]], int]:
    """For each case: an answer the verifier accepts (the case's own values, mappings of the
    case applied to its texts, small integers), and whether every changed case rejects it (a
    label computed from the shown values, such as a case's "type", changes a verdict only for
    some values). Returns ([(case, response, the changed cases' scores)], cases with an
    accepted answer)."""
    out: list[tuple[tuple[int, int], str, str]] = []
    solved = 0
    for k, changed, _ in variants:
        text = s.cases[k[0]][k[1]]
        case = json.loads(text)
        answers = [pr.answer for pr in ia.case_probes(case, prompts[k], formats)]
        answers += ia.mapping_probes(case) + list(ia.TRIVIAL[:12])
        rounds = [list(dict.fromkeys(answers))] + [[str(n) for n in r] for r in INT_ROUNDS]
        accepted = ""
        for candidates in rounds:
            responses = [ia.wrap(a, fmt) for a in candidates for fmt in formats]
            got = p.scores([(r, text) for r in responses], record=False)
            accepted = next((r for r, x in zip(responses, got, strict=True) if x.accepted), "")
            if accepted or p.stopped or p.left() <= 0:
                break
        if not accepted:
            continue
        solved += 1
        after = p.scores([(accepted, c) for c in changed], record=False)
        if all(x.score is not None and not x.accepted for x in after):
            out.append((k, accepted, "/".join(dict.fromkeys(f"{x.score!r}" for x in after))))
    return out, solved


def _reads(s: Suite, p: Prober, variants: list[Variant],
           formats: list[tuple[str, str]]) -> bool:
    """Does verify_score behave otherwise (its score, the exception it swallows) on a case
    without the field, for a few well-formed answers?"""
    responses = [ia.wrap(a, formats[0]) for a in ("0", "1", "yes", "a")]
    items = [(r, c) for k, _, removed in variants
             for c in (s.cases[k[0]][k[1]], removed) for r in responses]
    got = p.scores(items, record=False)
    for n in range(0, len(got), 2 * len(responses)):
        before, after = got[n:n + len(responses)], got[n + len(responses):n + 2 * len(responses)]
        if any(a.score is not None and b.score is not None
               and (a.score, a.swallowed) != (b.score, b.swallowed)
               for a, b in zip(before, after, strict=False)):
            return True
    return False
