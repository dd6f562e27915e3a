"""The checks run by the in-sandbox harness (standard library only; shipped next to it).

One :class:`Suite` per sandbox run: ``check_<name>`` methods run in :data:`CHECK_ORDER`, share
the generated cases, and return ``harness.result(...)`` dicts. Every case handed to the
bootcamp after generation is a fresh ``json.loads`` copy, as in training, where identities
come back from a dataset.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import random
import subprocess
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from synth.sandbox.harness import (
        HUGE,
        MUTATION_KINDS,
        SOFT_MUTATIONS,
        WORKER_FLAG,
        Candidate,
        Failure,
        cap,
        child_env,
        dumps,
        failure_result,
        garbage,
        invoke,
        json_problem,
        mean,
        mutate,
        norm,
        python_cmd,
        result,
        safe_repr,
        seed_globals,
    )
else:  # inside the sandbox: the running harness registered itself as "harness"
    from harness import (
        HUGE,
        MUTATION_KINDS,
        SOFT_MUTATIONS,
        WORKER_FLAG,
        Candidate,
        Failure,
        cap,
        child_env,
        dumps,
        failure_result,
        garbage,
        invoke,
        json_problem,
        mean,
        mutate,
        norm,
        python_cmd,
        result,
        safe_repr,
        seed_globals,
    )

CHECK_ORDER = (
    "load", "construct", "generate", "determinism", "diversity", "prompt", "self_consistency",
    "mutation", "garbage", "oracle", "levels", "timing",
)
#: Checks every later check needs: once one fails, the rest are skipped.
GATES = ("load", "construct", "generate")
NO_REFERENCE = "InternBootcamp classes have no reference_answer"


class Suite:
    def __init__(self, cfg: dict[str, Any], cand: Candidate) -> None:
        self.cfg = cfg
        self.cand = cand
        self.statuses: dict[str, str] = {}
        self.blocking: set[str] = set()
        self.levels_built = False
        self.levels: list[tuple[str, dict[str, Any], int]] = []
        self.instances: list[Any] = []
        self.cases: list[list[str]] = []  # per level: canonical JSON of each case
        self.gen_times: list[list[float]] = []
        self.answers: dict[tuple[int, int], str] = {}
        self.answer_times: list[float] = []
        self.prompts: dict[tuple[int, int], str] = {}
        self.prompt_times: list[float] = []
        self.verify_times: list[float] = []
        self.consistent: list[tuple[int, int]] = []
        self.worker: subprocess.Popen[bytes] | None = None
        self.rng = random.Random(cfg["seed"] * 31 + 7)
        self.current, self.spent = "", 0.0
        self.too_slow = ""  # the check that ran out of time, if any

    # -- orchestration ----------------------------------------------------------------------
    def skip_reason(self, name: str) -> str | None:
        for gate in GATES:
            if gate == name:
                break
            if gate in self.blocking:
                return f"not run: the {gate} check did not pass"
        if self.too_slow and name not in ("levels", "timing"):
            return f"not run: the bootcamp is too slow (the {self.too_slow} check ran out of time)"
        intern = self.cand.intern
        if name in ("self_consistency", "mutation") and intern:
            return f"not applicable: {NO_REFERENCE}"
        if name == "oracle":
            if not self.cfg.get("oracle"):
                return "not applicable: no reference program was given (--reference)"
            if intern:
                return f"not applicable: {NO_REFERENCE}"
        if name == "levels" and intern:
            return "not applicable: InternBootcamp classes have no LEVELS presets"
        if name == "mutation" and not self.consistent:
            return "not run: no case whose reference answer scored 1.0"
        return None

    def begin(self, name: str) -> None:
        self.current, self.spent = name, 0.0

    def charge(self, seconds: float) -> None:
        """Count time spent in the bootcamp; a check that runs past its budget is stopped."""
        self.spent += seconds
        budget = self.cfg["check_budget_s"]
        if self.spent > budget:
            self.too_slow = self.current
            raise Failure("timeout", f"used up the {budget:g}s time budget of the {self.current} "
                          "check: the bootcamp is too slow", "")

    def record(self, name: str, status: str) -> None:
        self.statuses[name] = status
        # An accepted typo is reported by construct but does not stop the checks after it.
        blocked = status != "passed" and not (name == "construct" and self.levels_built)
        if name in GATES and blocked:
            self.blocking.add(name)

    def close(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.kill()
            self.worker.wait()

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

    def where(self, li: int, i: int) -> str:
        return f"level {self.levels[li][0]!r}, case {i}"

    def answer(self, li: int, i: int) -> str:
        key = (li, i)
        if key not in self.answers:
            value, dt = invoke(self.cand.cls.reference_answer, json.loads(self.cases[li][i]))
            self.answer_times.append(dt)
            self.charge(dt)
            if type(value) is not str:
                raise Failure("failed", f"reference_answer returned a {type(value).__name__}, "
                              "not a str (the text inside the answer tags)", "")
            self.answers[key] = value
        return self.answers[key]

    # -- load / construct / generate --------------------------------------------------------
    def check_load(self) -> dict[str, Any]:
        return self.cand.load()

    def check_construct(self) -> dict[str, Any]:
        cls, seed = self.cand.cls, self.cfg["seed"]
        presets = getattr(cls, "LEVELS", {}) if not self.cand.intern else {}
        if not isinstance(presets, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) for k, v in presets.items()
        ):
            return result("failed", "LEVELS must be a dict of level name -> dict of parameters",
                          levels=repr(presets))
        for name, params in presets.items():
            problem = json_problem(params, f"LEVELS[{name!r}]")
            if problem is not None:
                return result("failed", f"{problem} (level presets must be plain JSON data)")
        try:
            self.cand.construct({}, seed)
        except Failure as f:
            return failure_result(f, "constructing with default parameters")
        for li, (name, params) in enumerate(self.cand.levels()):
            try:
                self.instances.append(self.cand.construct(params, seed + li))
            except Failure as f:
                return failure_result(f, f"constructing LEVELS[{name!r}] = {params!r}")
            self.levels.append((name, params, seed + li))
        typo = {"zz_not_a_parameter": 3}
        self.levels_built = True
        self.start_worker()
        try:
            self.cand.construct(typo, seed)
        except Failure as f:
            if "TypeError" not in f.what:
                return failure_result(f, "an unknown parameter must raise TypeError, but it")
        else:
            return result("failed", "an unknown parameter (zz_not_a_parameter=3) was accepted "
                          "silently: use explicit keyword arguments, no **kwargs that swallow typos")
        return result("passed", f"defaults and {len(self.levels)} level(s) construct; "
                      "an unknown parameter raises TypeError")

    def check_generate(self) -> dict[str, Any]:
        cfg = self.cfg
        for li, inst in enumerate(self.instances):
            if self.cand.intern:
                seed_globals(self.levels[li][2])
            cases: list[str] = []
            times: list[float] = []
            self.cases.append(cases)
            self.gen_times.append(times)
            spent = 0.0
            while len(cases) < cfg["cases_per_level"]:
                try:
                    case, dt = self.cand.generate(inst, cfg["case_limit_s"])
                except Failure as f:
                    return failure_result(f, f"case_generator ({self.where(li, len(cases))})")
                problem = (f"case_generator returned a {type(case).__name__}, not a dict"
                           if type(case) is not dict else json_problem(case))
                if problem is None:
                    text = dumps(case)
                    if json.loads(text) != case:
                        problem = "the case changes in a JSON round trip"
                    elif len(text) > cfg["case_max_chars"]:
                        problem = f"the case is {len(text)} chars of JSON (max {cfg['case_max_chars']})"
                if problem is not None:
                    return result("failed", f"{self.where(li, len(cases))}: {problem}",
                                  case=safe_repr(case))
                cases.append(text)
                times.append(dt)
                spent += dt
                if len(cases) >= cfg["min_cases"] and spent > cfg["level_budget_s"]:
                    break
                if len(cases) >= 3 and mean(times) > cfg["gen_mean_s"]:
                    break  # clearly too slow; the timing check reports it
        counts = ", ".join(f"{name}={len(c)}" for (name, _, _), c in zip(self.levels, self.cases, strict=True))
        return result("passed", f"cases generated per level: {counts}; all JSON round-trip exactly")

    # -- determinism --------------------------------------------------------------------------
    def start_worker(self) -> None:
        cfg = dict(self.cfg, levels=[list(lv) for lv in self.levels])
        try:
            self.worker = subprocess.Popen(
                python_cmd(os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py"),
                           WORKER_FLAG),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=child_env(PYTHONHASHSEED=str(self.cfg["child_hashseed"])),
            )
            assert self.worker.stdin is not None
            self.worker.stdin.write(json.dumps(cfg).encode())
            self.worker.stdin.close()
            self.worker.stdin = None  # written and closed: communicate() must not flush it
        except OSError:
            self.worker = None

    def check_determinism(self) -> dict[str, Any]:
        same = self.same_process()
        if same is not None:
            return same
        if self.worker is None:
            return result("sandbox_error", "could not start the second process")
        assert self.worker.stdout is not None
        try:
            raw, _ = self.worker.communicate(timeout=self.cfg["worker_timeout_s"])
        except subprocess.TimeoutExpired:
            self.worker.kill()
            self.worker.communicate()
            return result("timeout", "the second process did not finish generating within "
                          f"{self.cfg['worker_timeout_s']:g}s")
        try:
            other = json.loads(raw.decode())
        except ValueError:
            return result("error", "the second process died without a report "
                          f"(exit status {self.worker.returncode})")
        hint = ("all randomness must come from self.rng (no global random, time, id(), hash() "
                "of str or set order of strings)")
        if other.get("error"):
            return result("failed", "the same code raised in a second process (other hash seed "
                          f"and clock) but not in the first: {hint}", second_process=other["error"])
        for li, entry in enumerate(other["levels"]):
            for i, (digest, text) in enumerate(entry["cases"][: len(self.cases[li])]):
                mine = self.cases[li][i]
                if hashlib.sha256(mine.encode()).hexdigest() != digest:
                    return result("failed", f"{self.where(li, i)}: the same seed gave a different "
                                  f"case in a second process: {hint}",
                                  first_process=mine, second_process=text)
        probe = "yes" if other.get("hash_probe") != hash("synth-determinism-probe") else "no"
        return result("passed", "same seed, same cases in a second process (other "
                      "PYTHONHASHSEED, clock shifted) and in a fresh instance",
                      hash_seeds_differed=probe)

    def same_process(self) -> dict[str, Any] | None:
        """A fresh instance with the same seed, in this process, must repeat the cases."""
        _, params, seed = self.levels[0]
        want = self.cases[0][:3]
        try:
            inst = self.cand.construct(params, seed)
            if self.cand.intern:
                seed_globals(seed)
            got = [dumps(self.cand.generate(inst, self.cfg["case_limit_s"])[0]) for _ in want]
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
            other = self.cand.construct(params, seed + 7919)
            if self.cand.intern:
                seed_globals(seed + 7919)
            got = [dumps(self.cand.generate(other, self.cfg["case_limit_s"])[0])
                   for _ in self.cases[0][:3]]
        except Failure as f:
            return failure_result(f, "generating with another seed:")
        if got == self.cases[0][: len(got)]:
            return result("failed", "another seed gave exactly the same cases: the seed is ignored",
                          example=got[0])
        if self.cand.intern:
            return result("passed", f"{sum(len(set(c)) for c in self.cases)} distinct cases "
                          f"(answers not checked: {NO_REFERENCE})")
        total_distinct = 0
        for li, cases in enumerate(self.cases):
            counts: dict[str, int] = {}
            for i in range(len(cases)):
                try:
                    key = norm(self.answer(li, i))
                except Failure as f:
                    return failure_result(f, f"reference_answer ({self.where(li, i)})",
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
        return result("passed", f"{sum(len(set(c)) for c in self.cases)} distinct cases, "
                      f"{total_distinct} distinct answers over {len(self.cases)} level(s)")

    def check_prompt(self) -> dict[str, Any]:
        cls, limit = self.cand.cls, self.cfg["prompt_max_chars"]
        tag = ""
        if not self.cand.intern:
            tag = cls.wrap_answer("\x00").split("\x00")[0].strip()
        leaks: list[tuple[int, int]] = []
        long_answers = 0
        missing_tag: list[tuple[int, int]] = []
        for li, i, case in self.each_case():
            try:
                prompt, dt = invoke(cls.prompt_func, json.loads(case))
            except Failure as f:
                return failure_result(f, f"prompt_func ({self.where(li, i)})", case=case)
            self.prompt_times.append(dt)
            self.charge(dt)
            if type(prompt) is not str:
                return result("failed", f"{self.where(li, i)}: prompt_func returned a "
                              f"{type(prompt).__name__}, not a str", case=case)
            if not prompt.strip():
                return result("failed", f"{self.where(li, i)}: the prompt is empty", case=case)
            if len(prompt) > limit:
                return result("failed", f"{self.where(li, i)}: the prompt has {len(prompt)} "
                              f"chars (max {limit})", prompt=prompt)
            self.prompts[(li, i)] = prompt
            if tag and tag not in prompt:
                missing_tag.append((li, i))
            if not self.cand.intern:
                try:
                    answer = norm(self.answer(li, i))
                except Failure as f:
                    return failure_result(f, f"reference_answer ({self.where(li, i)})", case=case)
                if len(answer) >= 8:
                    long_answers += 1
                    if answer in norm(prompt):
                        leaks.append((li, i))
        if missing_tag:
            li, i = missing_tag[0]
            return result("failed", f"{len(missing_tag)} prompt(s) never show the answer format "
                          f"{tag!r} (first: {self.where(li, i)})", prompt=self.prompts[(li, i)])
        if leaks and len(leaks) >= max(1, math.ceil(0.25 * long_answers)):
            li, i = leaks[0]
            return result("failed", f"{len(leaks)} of {long_answers} prompts contain their own "
                          f"answer verbatim (first: {self.where(li, i)})",
                          answer=self.answers[(li, i)], prompt=self.prompts[(li, i)])
        first = json.loads(self.cases[0][0])
        try:
            again = invoke(cls.prompt_func, first)[0]
        except Failure as f:
            return failure_result(f, "prompt_func (second call)")
        if again != self.prompts[(0, 0)]:
            return result("failed", "prompt_func gave two different prompts for the same case",
                          first=self.prompts[(0, 0)], second=again)
        extra = (", state the answer format and leak no answer" if tag else
                 f" (answer format and leaks not checked: {NO_REFERENCE})")
        return result("passed", f"{len(self.prompts)} prompts are non-empty, at most "
                      f"{max(map(len, self.prompts.values()))} chars{extra}")

    # -- self-consistency / mutation -----------------------------------------------------------
    def check_self_consistency(self) -> dict[str, Any]:
        cls = self.cand.cls
        bad: list[tuple[int, int, Any]] = []
        for li, i, case in self.each_case():
            try:
                answer = self.answer(li, i)
            except Failure as f:
                return failure_result(f, f"reference_answer ({self.where(li, i)})", case=case)
            response = cls.wrap_answer(answer)
            try:
                score, dt = self.cand.score(response, case)
            except Failure as f:
                return failure_result(f, f"verify_score on the reference answer "
                                      f"({self.where(li, i)})", case=case, answer=answer)
            self.verify_times.append(dt)
            self.charge(dt)
            if score == 1.0:
                self.consistent.append((li, i))
            else:
                bad.append((li, i, score))
        if bad:
            li, i, score = bad[0]
            return result("failed", f"{len(bad)} of {len(bad) + len(self.consistent)} reference "
                          f"answers do not score 1.0 (first: {self.where(li, i)} scored {score!r})",
                          case=self.cases[li][i], reference_answer=self.answers[(li, i)],
                          response=cls.wrap_answer(self.answers[(li, i)]))
        return result("passed", f"all {len(self.consistent)} reference answers score 1.0")

    def check_mutation(self) -> dict[str, Any]:
        cls = self.cand.cls
        tried = {k: 0 for k in MUTATION_KINDS}
        survivors: dict[str, list[dict[str, str]]] = {k: [] for k in MUTATION_KINDS}
        for li, i in self.spread(self.cfg["mutation_cases"], self.consistent):
            answer, case = self.answers[(li, i)], self.cases[li][i]
            for kind in MUTATION_KINDS:
                mutant = mutate(kind, answer, self.rng)
                if mutant is None or norm(mutant) == norm(answer):
                    continue
                tried[kind] += 1
                try:
                    score, dt = self.cand.score(cls.wrap_answer(mutant), case)
                    self.charge(dt)
                except Failure as f:
                    return failure_result(f, f"verify_score on a corrupted answer ({kind}, "
                                          f"{self.where(li, i)}) — it must return a score, not",
                                          case=case, corrupted_answer=mutant)
                if score == 1.0:
                    survivors[kind].append({"where": self.where(li, i), "reference": answer,
                                            "accepted": mutant})
        weak = [k for k in MUTATION_KINDS if k not in SOFT_MUTATIONS
                and tried[k] >= 3 and len(survivors[k]) * 2 > tried[k]]
        table = ", ".join(f"{k} {len(survivors[k])}/{tried[k]}" for k in MUTATION_KINDS
                          if tried[k])
        if weak:
            shown = [s for k in weak for s in survivors[k][:2]]
            return result("failed", f"the verifier accepts corrupted answers ({', '.join(weak)}); "
                          f"accepted/tried: {table}", survivors=shown)
        notes = {k: survivors[k][:2] for k in MUTATION_KINDS if survivors[k]}
        return result("passed", f"corrupted answers rejected; accepted/tried: {table}",
                      accepted_mutants=notes or None)

    # -- garbage ------------------------------------------------------------------------------
    def check_garbage(self) -> dict[str, Any]:
        cfg = self.cfg
        tags = [("<answer>", "</answer>")]
        if self.cand.intern:
            tags.append(("[answer]", "[/answer]"))
        else:
            open_, found, close = self.cand.cls.wrap_answer("\x00").partition("\x00")
            if found:
                tags = [(open_, close)]
        inputs = [g for open_, close in tags for g in garbage(open_, close, self.rng)]
        slowest = (0.0, "")
        picks = [(li, 0) for li in range(len(self.cases))][: cfg["garbage_cases"]]
        for li, i in picks:
            case = self.cases[li][i]
            for name, text in inputs:
                try:
                    score, dt = self.cand.score(text, case, limit=cfg["garbage_limit_s"])
                except Failure as f:
                    return failure_result(f, f"verify_score on garbage '{name}' "
                                          f"({self.where(li, i)})", response=text, case=case)
                if self.cand.intern:
                    self.verify_times.append(dt)
                slowest = max(slowest, (dt, name))
                self.charge(dt)
                if type(score) not in (int, float, bool) or score != 0:
                    return result("failed", f"garbage '{name}' scored {score!r}, not 0 "
                                  f"({self.where(li, i)})", response=text, case=case)
                if dt > cfg["garbage_max_s"]:
                    return result("failed", f"verify_score took {dt:.2f}s on garbage '{name}' "
                                  f"(max {cfg['garbage_max_s']:g}s): bound the work on huge "
                                  "answers", response=text, case=case)
        return result("passed", f"{len(inputs)} garbage responses x {len(picks)} case(s) score 0 "
                      f"(slowest {slowest[0] * 1000:.1f} ms: {slowest[1]})")

    # -- oracle -------------------------------------------------------------------------------
    def check_oracle(self) -> dict[str, Any]:
        cls, cfg = self.cand.cls, self.cfg
        render = getattr(cls, "render_stdin", None)
        if render is None:
            return result("failed", "a reference program was given but the bootcamp defines no "
                          "render_stdin(identity)")
        jobs: list[tuple[int, int, str]] = []
        for li, i in self.spread(cfg["oracle_cases"]):
            try:
                stdin, _ = invoke(render, json.loads(self.cases[li][i]))
            except Failure as f:
                return failure_result(f, f"render_stdin ({self.where(li, i)})")
            if type(stdin) is not str:
                return result("failed", f"render_stdin returned a {type(stdin).__name__}, not str")
            jobs.append((li, i, stdin))
        how = {"matches reference_answer": 0, "accepted by verify_score": 0}
        for start in range(0, len(jobs), 4):
            batch = [(job, run_reference(job[2], cfg["oracle_timeout_s"]))
                     for job in jobs[start : start + 4]]
            for (li, i, stdin), proc in batch:
                out, err, code = finish_reference(proc, cfg["oracle_timeout_s"])
                case = self.cases[li][i]
                if code != 0:
                    what = "timed out" if code is None else f"exited with status {code}"
                    return result("failed", f"the reference program {what} on render_stdin of "
                                  f"{self.where(li, i)} (input outside the problem's limits?)",
                                  stdin=stdin, stderr=err)
                answer = self.answer(li, i)
                if norm(out) == norm(answer):
                    how["matches reference_answer"] += 1
                    continue
                score, _ = self.cand.score(cls.wrap_answer(out.strip()), case)
                if score == 1.0:
                    how["accepted by verify_score"] += 1
                    continue
                return result("failed", f"{self.where(li, i)}: the reference program disagrees "
                              f"with reference_answer and verify_score rejects its output "
                              f"(score {score!r})", stdin=stdin, expected=answer, got=out,
                              case=case)
        summary = ", ".join(f"{n} {k}" for k, n in how.items() if n)
        return result("passed", f"reference program agrees on {len(jobs)} cases ({summary})")

    # -- levels / timing ----------------------------------------------------------------------
    def check_levels(self) -> dict[str, Any]:
        if len(self.levels) < 2:
            return result("failed", "define at least two LEVELS presets (easiest first) whose "
                          "cases get measurably larger or harder")
        rows: list[dict[str, Any]] = []
        for li, (name, params, _) in enumerate(self.levels):
            idx = range(len(self.cases[li]))
            rows.append({
                "level": name,
                "case_chars": mean([len(c) for c in self.cases[li]]),
                "prompt_chars": mean([len(self.prompts[(li, i)]) for i in idx
                                      if (li, i) in self.prompts]),
                "answer_chars": mean([len(self.answers[(li, i)]) for i in idx
                                      if (li, i) in self.answers]),
                "gen_ms": 1000 * mean(self.gen_times[li]),
                "params": params,
            })
        table = "\n".join(
            f"{r['level']}: case {r['case_chars']:.0f} chars, prompt {r['prompt_chars']:.0f}, "
            f"answer {r['answer_chars']:.1f}, generation {r['gen_ms']:.2f} ms" for r in rows)
        for a, b in itertools.pairwise(rows):
            if a["params"] == b["params"]:
                return result("failed", f"levels {a['level']!r} and {b['level']!r} have identical "
                              "parameters", metrics=table)
            grew = [k for k in ("case_chars", "prompt_chars", "answer_chars")
                    if b[k] >= a[k] * 1.05 and b[k] - a[k] >= 1]
            slower = b["gen_ms"] >= 2 * a["gen_ms"] and b["gen_ms"] - a["gen_ms"] >= 2
            if not grew and not slower:
                return result("failed", f"level {b['level']!r} is not measurably larger or harder "
                              f"than {a['level']!r} (case, prompt and answer sizes and generation "
                              "time did not grow)", metrics=table)
        return result("passed", f"{len(rows)} levels, each larger or harder than the one before",
                      metrics=table)

    def check_timing(self) -> dict[str, Any]:
        cfg = self.cfg
        lines, problems = [], []
        for (name, _, _), times in zip(self.levels, self.gen_times, strict=True):
            avg, top = mean(times), max(times)
            lines.append(f"generate {name}: mean {avg * 1000:.1f} ms, max {top * 1000:.1f} ms "
                         f"over {len(times)} cases")
            if avg > cfg["gen_mean_s"]:
                problems.append(f"case generation at level {name!r} takes {avg:.3f}s per case "
                                f"on average (max {cfg['gen_mean_s']:g}s)")
            if top > cfg["gen_max_s"]:
                problems.append(f"one case at level {name!r} took {top:.2f}s "
                                f"(max {cfg['gen_max_s']:g}s)")
        for label, times in (("verify_score", self.verify_times),
                             ("reference_answer", self.answer_times),
                             ("prompt_func", self.prompt_times)):
            if not times:
                continue
            avg, top = mean(times), max(times)
            lines.append(f"{label}: mean {avg * 1000:.2f} ms, max {top * 1000:.1f} ms "
                         f"over {len(times)} calls")
            if avg > cfg["call_mean_s"] or top > cfg["call_max_s"]:
                problems.append(f"{label} takes {avg * 1000:.1f} ms on average, {top:.2f}s at "
                                f"most (budget {cfg['call_mean_s'] * 1000:g} ms / "
                                f"{cfg['call_max_s']:g}s)")
        if problems:
            return result("failed", "; ".join(problems), timings="\n".join(lines))
        return result("passed", "generation and verification within budget",
                      timings="\n".join(lines))


# ------------------------------------------------------------------------------------------
# The reference program (oracle)
# ------------------------------------------------------------------------------------------


def run_reference(stdin: str, timeout: float) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        python_cmd("reference.py"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=child_env(), cwd=os.path.dirname(os.path.abspath(__file__)),
    )
    proc._synth_stdin = stdin.encode()  # type: ignore[attr-defined]
    return proc


def finish_reference(proc: subprocess.Popen[bytes], timeout: float) -> tuple[str, str, int | None]:
    try:
        out, err = proc.communicate(proc._synth_stdin, timeout=timeout)  # type: ignore[attr-defined]
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return "", cap(err.decode("utf-8", "replace"), keep="tail"), None
    return (out.decode("utf-8", "replace")[:HUGE], cap(err.decode("utf-8", "replace"), keep="tail"),
            proc.returncode)


if __name__ == "__main__":  # pragma: no cover - only ever imported by the harness
    sys.exit("harness_checks.py is imported by harness.py")
