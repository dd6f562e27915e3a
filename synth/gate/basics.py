"""The first checks of every bootcamp: load, construct, generate, determinism, diversity, prompt.

Each takes the candidate's :class:`~synth.gate.suite.Suite` and returns a result dict
(:func:`~synth.gate.results.result`). They make the cases every later check reads; the
checks about answers live in :mod:`synth.gate.answers`.

The determinism check's second process (another ``PYTHONHASHSEED``, every clock shifted) is
an independent sandbox session, started in a background thread as soon as the levels are
built (:func:`start_second_process`), so it runs while the other checks do.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from synth.gate import engines, intern, prompt_input, severity
from synth.gate.calls import Candidate, Failure
from synth.gate.functions import copied_answers
from synth.gate.report import CHECK_NAMES
from synth.gate.results import failure_result, mean, norm, result, show
from synth.gate.suite import NO_REFERENCE, Suite
from synth.sandbox.kit import json_problem

__all__ = ["CHECKS", "check_construct", "check_determinism", "check_generate", "check_load"]


def check_load(s: Suite) -> dict[str, Any]:
    try:
        s.info = s.cand.load()
    except Failure as f:
        return failure_result(f, "importing the module:")
    name = s.info["class"]
    if s.info.get("multi_turn") is True and type(s).names == CHECK_NAMES:
        return result("failed", f"{name} is a MultiTurnBootcamp, but the module does not "
                      "derive its class from MultiTurnBootcamp by that name (the gate picks "
                      "the multi-turn checks from the source): subclass it directly")
    if s.cand.tampering:
        return result("failed", "the module changed the bootcamp contract at import: "
                      + "; ".join(s.cand.tampering[:3]), finding="contract_tampered")
    defined = set(s.info.get("defines") or [])
    needed = ["case_generator", "prompt_func", "_verify_correction"]
    if not s.intern:
        needed.append("reference_answer")
    missing = [m for m in needed if m not in defined]
    if missing:
        return result("failed", f"{name} does not implement {', '.join(missing)}")
    no_engine = engines.load_problem(s.source, s.info)
    if no_engine is not None:
        return no_engine
    versions = engines.engine_versions(s.info)
    s.engine_backed = bool(versions)
    if s.engine_backed:
        s.cand.gen_logs = {}
    return result("passed", f"imported {name}" + (f" (engines: {versions})" if versions else "")
                  + f"; {s.seeds_used}",
                  engines=versions or None)


def presets(s: Suite) -> list[tuple[str, dict[str, Any]]]:
    levels = s.info.get("levels") if not s.intern else None
    if type(levels) is dict and levels:
        return [(str(k), v) for k, v in levels.items()]
    return [("default", {})]


def check_construct(s: Suite) -> dict[str, Any]:
    seed = s.cfg.seed
    levels = s.info.get("levels") if not s.intern else {}
    if type(levels) is dict and "__not_plain__" in levels:
        return result("failed", f"{levels['__not_plain__']} (LEVELS must be a dict of level "
                      "name -> dict of plain JSON parameters)")
    if levels is None:
        levels = {}
    if type(levels) is not dict or not all(type(v) is dict for v in levels.values()):
        return result("failed", "LEVELS must be a dict of level name -> dict of parameters",
                      levels=show(levels)[:500])
    for name, params in levels.items():
        problem = json_problem(params, f"LEVELS[{name!r}]")
        if problem is not None:
            return result("failed", f"{problem} (level presets must be plain JSON data)")
    try:
        s.construct({}, seed)
    except Failure as f:
        return failure_result(f, "constructing with default parameters:")
    for li, (name, params) in enumerate(presets(s)):
        t0 = time.perf_counter()
        try:
            s.handles.append(s.construct(params, seed + li))
        except Failure as f:
            return failure_result(f, f"constructing LEVELS[{name!r}] = {params!r}:")
        s.construct_times.append(time.perf_counter() - t0)
        s.levels.append((name, params, seed + li))
    s.levels_built = True
    start_second_process(s)
    try:
        s.construct({"zz_not_a_parameter": 3}, seed)
    except Failure as f:
        if s.intern and f.status in ("error", "failed"):
            return result("passed", f"the defaults construct; an unknown parameter raises "
                          f"({f.what[:120]})")
        if "TypeError" not in f.what:
            return failure_result(f, "an unknown parameter must raise TypeError, but it")
    else:
        if s.intern:
            s.notes.append(severity.note(
                "convention", "accepts_unknown_parameter", "an unknown parameter "
                "(zz_not_a_parameter=3) was accepted silently (**params, InternBootcamp's "
                "convention: a typo in a parameter name goes unnoticed)"))
            return result("passed", "the defaults construct")
        return result("failed", "an unknown parameter (zz_not_a_parameter=3) was accepted "
                      "silently: use explicit keyword arguments, no **kwargs that swallow typos")
    return result("passed", f"defaults and {len(s.levels)} level(s) construct; "
                  "an unknown parameter raises TypeError")


def check_generate(s: Suite) -> dict[str, Any]:
    cfg = s.cfg
    first_failure: dict[str, Any] | None = None
    for li, handle in enumerate(s.handles):
        cases: list[str] = []
        times: list[float] = []
        s.cases.append(cases)
        s.gen_times.append(times)
        spent = 0.0
        reseed: int | None = s.levels[li][2]
        while len(cases) < cfg.cases_per_level:
            try:
                text, dt = s.generate(handle, reseed)
            except Failure as f:
                failed = failure_result(f, f"case_generator ({s.where(li, len(cases))}):")
                if not s.intern:
                    return failed
                first_failure = first_failure or failed
                s.gen_failed[li] = len(cases)
                break
            reseed = None
            if len(text) > cfg.case_max_chars:
                too_big = result("failed", f"{s.where(li, len(cases))}: the case is "
                                 f"{len(text)} chars of JSON (max {cfg.case_max_chars})",
                                 case=text)
                if not s.intern:
                    return too_big
                first_failure = first_failure or too_big
                s.gen_failed[li] = len(cases)
                break
            cases.append(text)
            times.append(dt)
            spent += dt
            if len(cases) >= cfg.min_cases and spent > cfg.level_budget_s:
                break
            if len(cases) >= 3 and mean(times) > cfg.gen_mean_s:
                break  # clearly too slow; the timing check reports it
        if not s.cand.server.alive:
            break
    counts = ", ".join(f"{name}={len(c)}"
                       for (name, _, _), c in zip(s.levels, s.cases, strict=True))
    if first_failure is not None:
        made = sum(map(len, s.cases))
        if made:
            first_failure["reason"] += (f" (the later checks run on the {made} case(s) "
                                        "generated before it)")
        return first_failure
    if s.cand.converted:
        changed = intern.roundtrip(s)
        if changed is not None:
            return changed
    return result("passed", f"cases generated per level: {counts}; all JSON round-trip exactly"
                  if not s.cand.converted else f"cases generated per level: {counts}")


def start_second_process(s: Suite) -> None:
    """Regenerate the first cases of each level -- and their reference answers -- in
    another sandbox session (other hash seed, clocks shifted, the levels' instances
    created in the REVERSE order), in the background."""
    server = s.new_server(s.cfg.child_hashseed, shift_clock=True, role="determinism")
    s.second = {"levels": [[] for _ in s.levels], "answers": [[] for _ in s.levels],
                   "error": None, "failed_at": {}, "gen_logs": [[] for _ in s.levels]}
    logged = s.engine_backed

    def work() -> None:
        other = Candidate(server, intern=s.intern)
        deadline = time.monotonic() + s.cfg.worker_timeout_s
        try:
            other.load()
            if logged:
                other.gen_logs = {}
            order = list(range(len(s.levels)))[::-1]
            answering = True
            handles = {li: other.construct(s.levels[li][1], s.levels[li][2], 10.0)
                       for li in order}
            if other.gen_logs is not None:
                for li in order:
                    other.gen_logs[handles[li]] = s.second["gen_logs"][li]
            for li in order:
                seed = s.levels[li][2]
                entry, answers = s.second["levels"][li], s.second["answers"][li]
                reseed: int | None = seed if s.intern else None
                start = time.monotonic()
                for _ in range(s.cfg.determinism_cases):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        s.second["error"] = "timeout"
                        return
                    try:
                        text, _ = other.generate(handles[li],
                                                 min(s.cfg.case_limit_s, left), reseed)
                    except Failure:
                        if not (s.intern and other.server.alive):
                            raise
                        s.second["failed_at"][li] = len(entry)  # compared with the first
                        break
                    reseed = None
                    entry.append(text)
                    if not s.intern and answering:  # its own per-call budget (engines: 20x)
                        try:
                            answers.append(other.answer(
                                text, min(max(2.0, s.cfg.call_max_s), max(0.05, left)))[0])
                        except Failure as f:
                            if not other.server.alive:
                                raise
                            answering = False  # the answer checks report it
                            del f
                    if len(entry) >= 2 and (time.monotonic() - start
                                            > s.cfg.level_budget_s * 4):
                        break
        except Failure as f:
            s.second["error"] = f"{f.what}\n{f.trace[-1500:]}"
        finally:
            server.close()

    s.second_thread = threading.Thread(target=work, name="synth-gate-determinism",
                                           daemon=True)
    s.second_thread.start()


def check_determinism(s: Suite) -> dict[str, Any]:
    same = same_process(s)
    if same is not None:
        return same
    assert s.second_thread is not None
    s.second_thread.join(timeout=s.cfg.worker_timeout_s + 5)
    if s.second_thread.is_alive() or s.second.get("error") == "timeout":
        return result("timeout", "the second process did not finish generating within "
                      f"{s.cfg.worker_timeout_s:g}s")
    hint = ("all randomness must come from s.rng (no global random, time, id(), hash() "
            "of str or set order of strings, no state shared between instances)")
    if s.second.get("error"):
        return result("failed", "the same code raised in a second process (other hash seed "
                      f"and clock) but not in the first: {hint}",
                      second_process=s.second["error"])
    for li, entry in enumerate(s.second["levels"]):
        mine_failed, theirs_failed = s.gen_failed.get(li), s.second["failed_at"].get(li)
        if (theirs_failed is not None and theirs_failed < len(s.cases[li])) or \
                (mine_failed is not None and len(entry) > mine_failed):
            first, second = ((f"raised at case {mine_failed}" if mine_failed is not None
                              else f"made {len(s.cases[li])} cases"),
                             (f"raised at case {theirs_failed}" if theirs_failed is not None
                              else f"made {len(entry)} cases"))
            return result("failed", f"level {s.levels[li][0]!r}: case_generator {first} "
                          f"in the first process but {second} in a second one (other hash "
                          f"seed and clock): {hint}")
        for i, text in enumerate(entry[: len(s.cases[li])]):
            mine = s.cases[li][i]
            if text != mine:
                return result("failed", f"{s.where(li, i)}: the same seed gave a different "
                              f"case in a second process (levels built in the reverse "
                              f"order): {hint}", first_process=mine, second_process=text)
    told = engine_commands_differ(s)
    if told is not None:
        return told
    checked, note = 0, ""
    for li, answers in enumerate(s.second["answers"]):
        for i, theirs in enumerate(answers[: len(s.cases[li])]):
            try:
                mine = s.answer(li, i)
            except Failure as f:  # reported by the answer checks; not a determinism issue
                note = f"; answers not compared: reference_answer {f.what}"
                break
            checked += 1
            if mine != theirs:
                return result("failed", f"{s.where(li, i)}: the same case got a different "
                              "reference answer in a second process (other hash seed, other "
                              f"instance order): {hint}", case=s.cases[li][i],
                              first_process=mine, second_process=theirs)
    return result("passed", "same seed, same cases and same reference answers in a second "
                  "process (other PYTHONHASHSEED, clock shifted, instances built in the "
                  f"reverse order; {checked} answers compared) and in a fresh instance"
                  + note)


def engine_commands_differ(s: Suite) -> dict[str, Any] | None:
    """An engine-backed bootcamp: the cases the second process regenerated must have sent
    the engines the same commands as in the first (a seed or level from the clock or a
    string's hash is nondeterminism even where the engine's answers agreed)."""
    if s.cand.gen_logs is None:
        return None
    for li, theirs in enumerate(s.second.get("gen_logs") or []):
        if li >= len(s.handles):
            break
        n = min(len(theirs), len(s.cases[li]))
        mine = s.cand.gen_logs.get(s.handles[li], [])[:n]
        told = engines.log_difference(mine, theirs[:n])
        if told is not None:
            i = told.pop("call")
            return result("failed", f"{s.where(li, i)}: case_generator sent its engine "
                          "other commands in a second process (other PYTHONHASHSEED, clock "
                          "shifted) than in the first, though the cases agreed: an engine's "
                          "settings (seed, level, options) must come from s.rng, never "
                          "from the clock or hash()",
                          finding="nondeterministic_engine_settings",
                          case=s.cases[li][i], **told)
    return None


def same_process(s: Suite) -> dict[str, Any] | None:
    """A fresh instance with the same seed, in this process, must repeat the cases."""
    _, params, seed = s.levels[0]
    want = s.cases[0][:3]
    try:
        handle = s.construct(params, seed)
        got = [s.generate(handle, seed if k == 0 else None)[0] for k in range(len(want))]
    except Failure as f:
        return failure_result(f, "regenerating with the same seed in the same process:")
    for i, (a, b) in enumerate(zip(want, got, strict=True)):
        if a != b:
            return result("failed", f"{s.where(0, i)}: a fresh instance with the same seed "
                          "gave a different case in the same process: draw only from "
                          "s.rng (not the global random module) and keep no state outside "
                          "the instance", first_instance=a, second_instance=b)
    return None


def check_diversity(s: Suite) -> dict[str, Any]:
    for li, cases in enumerate(s.cases):
        n, distinct = len(cases), len(set(cases))
        need = max(2, math.ceil(0.25 * n)) if n >= 4 else 1
        if distinct < need:
            return result("failed", f"level {s.levels[li][0]!r}: only {distinct} distinct "
                          f"case(s) among {n} (need {need})", example=cases[0])
    _, params, seed = s.levels[0]
    try:
        other = s.construct(params, seed + 7919)
        got = [s.generate(other, seed + 7919 if k == 0 else None)[0]
               for k in range(len(s.cases[0][:3]))]
    except Failure as f:
        return failure_result(f, "generating with another seed:")
    if got == s.cases[0][: len(got)]:
        return result("failed", "another seed gave exactly the same cases: the seed is ignored",
                      example=got[0])
    if s.intern:
        return result("passed", f"{sum(len(set(c)) for c in s.cases)} distinct cases "
                      f"(answers not checked: {NO_REFERENCE})")
    total_distinct = 0
    for li, cases in enumerate(s.cases):
        counts: dict[str, int] = {}
        for i in range(len(cases)):
            try:
                key = norm(s.answer(li, i))
            except Failure as f:
                return failure_result(f, f"reference_answer ({s.where(li, i)}):",
                                      case=cases[i])
            counts[key] = counts.get(key, 0) + 1
        n, level = len(cases), s.levels[li][0]
        top, top_n = max(counts.items(), key=lambda kv: kv[1])
        total_distinct += len(counts)
        if n >= 4 and len(counts) < 2:
            return result("failed", f"level {level!r}: every one of {n} cases has the same "
                          "answer", answer=top)
        if n >= 10 and top_n / n > 0.8:
            return result("failed", f"level {level!r}: {top_n} of {n} cases share one answer: "
                          "guessing it would score well", answer=top)
        two = sum(c for _, c in sorted(counts.items(), key=lambda kv: -kv[1])[:2])
        if n >= 20 and two / n >= 0.95 and not s.info.get("yes_no"):
            values = [k for k, _ in sorted(counts.items(), key=lambda kv: -kv[1])[:2]]
            return result("failed", f"level {level!r}: the answers take at most 2 values on "
                          f"{two} of {n} cases ({values[0]!r:.40}, {values[-1]!r:.40}): "
                          "guessing scores well; make the answers informative, or declare "
                          "YES_NO_TASK = True if the task is a yes/no question by nature",
                          finding="degenerate_answers", answers=values)
    return result("passed", f"{sum(len(set(c)) for c in s.cases)} distinct cases, "
                  f"{total_distinct} distinct answers over {len(s.cases)} level(s)")


def answer_tag(s: Suite) -> str:
    if s.intern:
        return ""
    return s.tags()[0].strip()


def check_prompt(s: Suite) -> dict[str, Any]:
    limit = s.cfg.prompt_max_chars
    try:
        tag = answer_tag(s)
    except Failure as f:
        return failure_result(f, "wrap_answer:")
    leaks: list[tuple[int, int]] = []
    long_answers = 0
    missing_tag: list[tuple[int, int]] = []
    for li, i, case in s.each_case():
        try:
            prompt, dt = s.cand.prompt(case, s.limit(s.cfg.call_max_s * 2))
        except Failure as f:
            return failure_result(f, f"prompt_func ({s.where(li, i)}):", case=case)
        s.prompt_times.append(dt)
        s.charge(dt)
        if not prompt.strip():
            return result("failed", f"{s.where(li, i)}: the prompt is empty", case=case)
        if len(prompt) > limit:
            return result("failed", f"{s.where(li, i)}: the prompt has {len(prompt)} "
                          f"chars (max {limit})", prompt=prompt)
        s.prompts[(li, i)] = prompt
        if tag and tag not in prompt:
            missing_tag.append((li, i))
        if not s.intern:
            try:
                answer = norm(s.answer(li, i))
            except Failure as f:
                return failure_result(f, f"reference_answer ({s.where(li, i)}):", case=case)
            if len(answer) >= 8:
                long_answers += 1
                if answer in norm(prompt):
                    leaks.append((li, i))
    if missing_tag:
        li, i = missing_tag[0]
        return result("failed", f"{len(missing_tag)} prompt(s) never show the answer format "
                      f"{tag!r} (first: {s.where(li, i)})", prompt=s.prompts[(li, i)])
    if not s.intern and prompt_input.applies(s):  # the prompt shows the input, not an answer
        s.judged.add("prompt_input")
        hidden = prompt_input.hidden_input(s)
        if hidden is not None:
            return hidden
    copies: list[tuple[int, int, str]] = []
    if leaks and s.entry_point is not None:
        leaks, copies = copied_answers(s, leaks)
    if leaks and len(leaks) >= max(1, math.ceil(0.25 * long_answers)):
        if copies and len(copies) * 2 >= len(leaks):
            li, i, call = copies[0]
            return result("failed", f"{len(copies)} of {long_answers} calls return one of their "
                          f"own arguments unchanged, so the prompt shows the answer (first: "
                          f"{s.where(li, i)}): generate arguments that the function changes, "
                          "so that the answer must be worked out", finding="returns_an_argument",
                          call=call, answer=s.answers[(li, i)])
        li, i = leaks[0]
        return result("failed", f"{len(leaks)} of {long_answers} prompts contain their own "
                      f"answer verbatim (first: {s.where(li, i)})",
                      answer=s.answers[(li, i)], prompt=s.prompts[(li, i)])
    try:
        again, _ = s.cand.prompt(s.cases[0][0], s.limit(s.cfg.call_max_s * 2))
    except Failure as f:
        return failure_result(f, "prompt_func (second call):")
    if again != s.prompts[(0, 0)]:
        return result("failed", "prompt_func gave two different prompts for the same case",
                      first=s.prompts[(0, 0)], second=again)
    extra = (", state the answer format and leak no answer" if tag else
             f" (answer format and leaks not checked: {NO_REFERENCE})")
    if "prompt_input" in s.judged:
        extra += ", and show render_stdin's text"
    return result("passed", f"{len(s.prompts)} prompts are non-empty, at most "
                  f"{max(map(len, s.prompts.values()))} chars{extra}")


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {
    "load": check_load,
    "construct": check_construct,
    "generate": check_generate,
    "determinism": check_determinism,
    "diversity": check_diversity,
    "prompt": check_prompt,
}
