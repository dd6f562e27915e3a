"""Trusted in-sandbox runner of the check suite (standard library only).

The host (``synth.checks``) copies this file, ``harness_checks.py`` (the checks themselves),
``synth/bootcamp.py``, the candidate module and, for InternBootcamp-style modules,
``intern_shim.py`` into a fresh sandbox work dir and runs ``python harness.py`` with a JSON
config on stdin. The harness imports the candidate once and runs every check in order
(``harness_checks.CHECK_ORDER``), writing one JSON line per event to its *private* copy of stdout:
``{"event": "start", "check": name}`` before a check and ``{"event": "result", ...}`` after it,
each line prefixed with the nonce from the config. The candidate's own prints go to /dev/null
(fd 1 and 2 are redirected), so it can neither flood nor forge the protocol by printing. If the
sandbox kills the run, the host still knows which checks finished and which one was running.

Two helper processes are started inside the same sandbox: a second copy of this harness
(``--determinism-worker``) that regenerates the first cases under another ``PYTHONHASHSEED`` and
a shifted clock, and -- only with a reference program -- that program on ``render_stdin(case)``.
Calls into the bootcamp are bounded by an interval timer (``CallTimeout`` is a
``BaseException``, so ``except Exception`` in the bootcamp does not swallow it).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import random
import signal
import string
import sys
import time
import traceback
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))

_perf = time.perf_counter
_PROTO_FD = 1
_NONCE = ""
ART_CAP = 2000
WORKER_FLAG = "--determinism-worker"


# ------------------------------------------------------------------------------------------
# Small utilities
# ------------------------------------------------------------------------------------------


def cap(text: Any, limit: int = ART_CAP, keep: str = "head") -> str:
    """Bound an artifact for a prompt; ``keep`` = "head" or "tail"."""
    s = text if type(text) is str else safe_repr(text)
    s = s.replace(HERE + os.sep, "")
    if len(s) <= limit:
        return s
    cut = f"...[{len(s) - limit + 20} chars cut]..."
    return s[: limit - len(cut)] + cut if keep == "head" else cut + s[-(limit - len(cut)) :]


def emit(obj: dict[str, Any]) -> None:
    data = (_NONCE + json.dumps(obj, ensure_ascii=True) + "\n").encode()
    while data:
        data = data[os.write(_PROTO_FD, data) :]


def norm(text: str) -> str:
    return " ".join(text.split())


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False)


class CallTimeout(BaseException):
    """Raised by the interval timer inside a bootcamp call that ran too long."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise CallTimeout()


class Failure(Exception):
    """A bootcamp call that raised, ran out of time or of memory."""

    def __init__(self, status: str, what: str, trace: str) -> None:
        super().__init__(what)
        self.status, self.what, self.trace = status, what, trace


def _trace(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def invoke(fn: Any, *args: Any, limit: float = 2.0) -> tuple[Any, float]:
    """Call ``fn(*args)`` under a wall-clock limit; returns (value, seconds) or raises Failure."""
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = _perf()
    try:
        value = fn(*args)
    except CallTimeout:
        raise Failure("timeout", f"did not return within {limit:g}s", "") from None
    except MemoryError as exc:
        raise Failure("oom", "ran out of memory (MemoryError)", _trace(exc)) from None
    except BaseException as exc:
        raise Failure("error", f"raised {type(exc).__name__}: {exc}"[:300], _trace(exc)) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return value, _perf() - t0


def result(status: str, reason: str, **artifacts: Any) -> dict[str, Any]:
    arts = {}
    for key, value in artifacts.items():
        if value is None:
            continue
        keep = "tail" if key in ("traceback", "stderr") else "head"
        arts[key] = cap(value if type(value) is str else _show(value), keep=keep)
    return {"status": status, "reason": cap(reason, 400), "artifacts": arts}


def failure_result(f: Failure, context: str, **artifacts: Any) -> dict[str, Any]:
    return result(f.status, f"{context} {f.what}", traceback=f.trace or None, **artifacts)


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except Exception:
        return safe_repr(value)


def safe_repr(value: Any) -> str:
    """repr() of a value the bootcamp made (its __repr__ may raise or loop: bounded)."""
    try:
        return invoke(repr, value, limit=1.0)[0][:ART_CAP * 2]
    except Failure as f:
        return f"<{type(value).__name__} whose repr {f.what}>"


def json_problem(obj: Any, path: str = "case") -> str | None:
    """Why ``obj`` does not survive a JSON round trip unchanged, or None."""
    kind = type(obj)  # exact types: a subclass could change what JSON or == sees
    if obj is None or kind in (bool, str, int):
        return None
    if kind is float:
        return None if math.isfinite(obj) else f"{path} is {obj!r} (not valid JSON)"
    if kind is list:
        for i, item in enumerate(obj):
            problem = json_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if kind is dict:
        for key, item in obj.items():
            if type(key) is not str:
                return f"{path} has a {type(key).__name__} key {key!r} (JSON keys are strings)"
            problem = json_problem(item, f"{path}[{key!r}]")
            if problem:
                return problem
        return None
    name = type(obj).__name__
    hint = " (JSON has lists only: it would come back as a list)" if name == "tuple" else ""
    return f"{path} is a {name}{hint}; use only dict/list/str/int/float/bool/None"


# ------------------------------------------------------------------------------------------
# Loading the candidate
# ------------------------------------------------------------------------------------------


class Candidate:
    """The imported candidate class and what the checks need to call it."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.intern = cfg["mode"] == "intern"
        self.cls: Any = None
        self.base_verify: Any = None
        self.shim: Any = None

    def load(self) -> dict[str, Any]:
        if self.intern:
            import intern_shim

            self.shim = intern_shim
            base: Any = intern_shim.Basebootcamp
        else:
            from synth import bootcamp as contract

            base = contract.BaseBootcamp
            self.base_verify = base.__dict__["verify_score"]
        try:
            module, _ = invoke(importlib.import_module, self.cfg["module"], limit=10.0)
        except Failure as f:
            return failure_result(f, "importing the module")
        found = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type)
            and issubclass(obj, base)
            and obj is not base
            and obj.__module__ == module.__name__
        ]
        if self.intern and len(found) > 1:
            found = [c for c in found if "case_generator" in c.__dict__] or found
        names = ", ".join(c.__name__ for c in found)
        if len(found) != 1:
            kind = "Basebootcamp" if self.intern else "BaseBootcamp"
            return result("failed", f"expected exactly one {kind} subclass, found {len(found)}",
                          classes=names or "(none)")
        self.cls = found[0]
        if not self.intern:
            if base.__dict__.get("verify_score") is not self.base_verify:
                return result("failed", "the module replaced BaseBootcamp.verify_score")
            if any("verify_score" in k.__dict__ for k in self.cls.__mro__ if k is not base):
                return result("failed", f"{self.cls.__name__} overrides verify_score")
        missing = [m for m in ("case_generator", "prompt_func", "_verify_correction")
                   if not any(m in k.__dict__ for k in self.cls.__mro__ if k is not base)]
        if not self.intern and "reference_answer" not in _defined(self.cls, base):
            missing.append("reference_answer")
        if missing:
            return result("failed", f"{self.cls.__name__} does not implement {', '.join(missing)}")
        return result("passed", f"imported {self.cls.__name__}")

    def levels(self) -> list[tuple[str, dict[str, Any]]]:
        presets = getattr(self.cls, "LEVELS", None) if not self.intern else None
        if isinstance(presets, dict) and presets:
            return [(str(k), v) for k, v in presets.items()]
        return [("default", {})]

    def construct(self, params: dict[str, Any], seed: int) -> Any:
        if self.intern:
            seed_globals(seed)
            return invoke(lambda: self.cls(**params), limit=10.0)[0]
        return invoke(lambda: self.cls(seed=seed, **params), limit=10.0)[0]

    def generate(self, inst: Any, limit: float) -> tuple[Any, float]:
        return invoke(inst.case_generator, limit=limit)

    def score(self, response: str, case_json: str, limit: float = 2.0) -> tuple[Any, float]:
        case = json.loads(case_json)
        if self.intern:
            self.shim.clear_swallowed()
            value, dt = invoke(self.cls.verify_score, response, case, limit=limit)
            if self.shim.SWALLOWED:
                where, summary, trace = self.shim.SWALLOWED[0]
                raise Failure("error", f"{where} raised {summary} (swallowed by verify_score)",
                              trace)
            return value, dt
        return invoke(self.base_verify.__func__, self.cls, response, case, limit=limit)


def _defined(cls: type, base: type) -> set[str]:
    return {name for k in cls.__mro__ if k is not base and k is not object for name in k.__dict__}


def seed_globals(seed: int) -> None:
    """InternBootcamp classes draw from the global generators: seed them (audit mode only)."""
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed % 2**32)
    except Exception:
        pass


# ------------------------------------------------------------------------------------------
# The determinism worker: a second process, other hash seed, shifted clock
# ------------------------------------------------------------------------------------------

CLOCK_SHIFT_S = 86_400.0 * 400 + 3_723.5


def _shift_clock() -> None:
    for name in ("time", "monotonic", "perf_counter", "process_time"):
        real = getattr(time, name)
        setattr(time, name, lambda real=real: real() + CLOCK_SHIFT_S)
    for name in ("time_ns", "monotonic_ns", "perf_counter_ns"):
        real = getattr(time, name)
        setattr(time, name, lambda real=real: real() + int(CLOCK_SHIFT_S * 1e9))


def determinism_worker() -> None:
    cfg = json.loads(sys.stdin.read())
    out = os.dup(1)
    _silence()
    signal.signal(signal.SIGALRM, _on_alarm)
    _shift_clock()
    cand = Candidate(cfg)
    report: dict[str, Any] = {"hash_probe": hash("synth-determinism-probe"), "levels": []}
    try:
        loaded = cand.load()
        if loaded["status"] != "passed":
            report["error"] = loaded["reason"]
        else:
            for name, params, seed in cfg["levels"]:
                entry: dict[str, Any] = {"level": name, "cases": []}
                report["levels"].append(entry)
                inst = cand.construct(params, seed)
                if cand.intern:
                    seed_globals(seed)
                start = _perf()
                for _ in range(cfg["determinism_cases"]):
                    case, _dt = cand.generate(inst, cfg["case_limit_s"])
                    text = dumps(case)
                    entry["cases"].append([hashlib.sha256(text.encode()).hexdigest(), cap(text)])
                    if len(entry["cases"]) >= 2 and _perf() - start > cfg["level_budget_s"] * 4:
                        break
    except Failure as f:
        report["error"] = f"{f.what}\n{cap(f.trace, keep='tail')}"
    except Exception as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
    data = json.dumps(report).encode()
    while data:
        data = data[os.write(out, data) :]


def _silence() -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        null = os.dup(2)
    os.dup2(null, 1)
    os.dup2(null, 2)


def python_cmd(script: str, *args: str) -> list[str]:
    return [sys.executable, "-s", "-S", "-B", script, *args]


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONIOENCODING="utf-8", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


# ------------------------------------------------------------------------------------------
# Corrupted answers and garbage responses
# ------------------------------------------------------------------------------------------

#: Mutation kinds; ``swap_tokens`` only reorders, which order-free answers legitimately allow,
#: so its survivors are reported but do not fail the check.
MUTATION_KINDS = (
    "change_digit", "replace_char", "drop_token", "duplicate_token", "truncate",
    "append_junk", "empty", "swap_tokens",
)
SOFT_MUTATIONS = ("swap_tokens",)
HUGE = 1_000_000


def _tokens(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for pos, ch in enumerate(text + " "):
        if ch.isspace():
            if start is not None:
                spans.append((start, pos))
                start = None
        elif start is None:
            start = pos
    return spans


def _distinct_pair(items: list[str], rng: random.Random) -> tuple[int, int] | None:
    """Two positions holding different items (random tries; None if none found)."""
    if len(set(items)) < 2:
        return None
    for _ in range(100):
        a, b = sorted(rng.sample(range(len(items)), 2))
        if items[a] != items[b]:
            return a, b
    return None


def mutate(kind: str, answer: str, rng: random.Random) -> str | None:
    """One corruption of ``answer`` of the given kind, or None when it does not apply."""
    toks = _tokens(answer)
    if kind == "change_digit":
        spots = [i for i, ch in enumerate(answer) if ch in string.digits]
        if not spots:
            return None
        i = rng.choice(spots)
        return answer[:i] + rng.choice(string.digits.replace(answer[i], "")) + answer[i + 1 :]
    if kind == "replace_char":
        spots = [i for i, ch in enumerate(answer) if ch in string.ascii_letters]
        if not spots:
            return None
        i = rng.choice(spots)
        pool = string.ascii_lowercase if answer[i].islower() else string.ascii_uppercase
        return answer[:i] + rng.choice(pool.replace(answer[i], "")) + answer[i + 1 :]
    if kind == "drop_token":
        if len(toks) >= 2:
            s, e = rng.choice(toks)
            return answer[:s] + answer[e:]
        word = answer.strip()
        if len(word) < 2:
            return None
        i = rng.randrange(len(word))
        return word[:i] + word[i + 1 :]
    if kind == "duplicate_token":
        if not toks:
            return None
        s, e = rng.choice(toks)
        return answer[:e] + " " + answer[s:e] + answer[e:]
    if kind == "swap_tokens":
        pair = _distinct_pair([answer[s:e] for s, e in toks], rng)
        if pair is not None:
            (s1, e1), (s2, e2) = toks[pair[0]], toks[pair[1]]
            return answer[:s1] + answer[s2:e2] + answer[e1:s2] + answer[s1:e1] + answer[e2:]
        chars = list(answer.strip())
        pair = _distinct_pair(chars, rng) if len(toks) == 1 else None
        if pair is None:
            return None
        a, b = pair
        chars[a], chars[b] = chars[b], chars[a]
        return "".join(chars)
    if kind == "truncate":
        word = answer.strip()
        return word[: len(word) // 2] if len(word) >= 2 else None
    if kind == "append_junk":
        return answer + f" zq{rng.randrange(10)}"
    if kind == "empty":
        return ""
    raise ValueError(f"unknown mutation kind {kind!r}")


def garbage(open_: str, close: str, rng: random.Random) -> list[tuple[str, str]]:
    """Responses that must score 0 for every case: (name, text)."""
    # No decimal digit anywhere (except the 1 MB number): a lenient verifier that finds "the
    # one number in the answer" could otherwise meet a real answer by chance.
    printable = string.ascii_letters + string.punctuation + " "
    noise = "".join(rng.choice(printable) for _ in range(300))
    ranges = [(0x00A1, 0x024F), (0x0370, 0x03FF), (0x0600, 0x06FF), (0x4E00, 0x4FFF),
              (0x1F300, 0x1F64F)]
    uni = "".join(ch for ch in (chr(rng.randint(*rng.choice(ranges))) for _ in range(240))
                  if not ch.isdecimal())[:200]
    return [
        ("empty", ""),
        ("whitespace", " \n\t "),
        ("no_tags", "I think the answer is probably qz, but I am not sure."),
        ("unclosed_tag", open_ + "qz zq"),
        ("empty_tags", open_ + close),
        ("blank_tags", open_ + " \n " + close),
        ("nested_tags", open_ + open_ + "qz" + close + "zq" + close),
        ("reversed_tags", close + "qz" + open_),
        ("random_ascii", open_ + noise + close),
        ("random_unicode", open_ + uni + close),
        ("non_ascii", open_ + "答案：四十二 ½ Ⅻ 🙂\u200b\u202e ñ" + close),
        ("control_chars", open_ + "\x00\x01\x1b[H\x7f\ufeff" + close),
        ("nan_inf", open_ + "NaN -inf inf" + close),
        ("deep_brackets", open_ + "[" * 20000 + "(" * 20000 + close),
        ("many_tags", (open_ + "qz" + close) * 20000),
        ("huge_digits", open_ + "9" * HUGE + close),
        ("huge_text", open_ + "lorem ipsum " * (HUGE // 12) + close),
        ("huge_no_tags", "x" * HUGE),
    ]


# ------------------------------------------------------------------------------------------
# Main
# ------------------------------------------------------------------------------------------


def main() -> None:
    global _PROTO_FD, _NONCE
    if HERE not in sys.path:  # the work dir holds the candidate and synth/bootcamp.py
        sys.path.insert(0, HERE)
    if WORKER_FLAG in sys.argv[1:]:
        determinism_worker()
        return
    cfg = json.loads(sys.stdin.read())
    _NONCE = cfg["nonce"]
    _PROTO_FD = os.dup(1)
    _silence()
    signal.signal(signal.SIGALRM, _on_alarm)

    sys.modules.setdefault("harness", sys.modules[__name__])  # one copy for harness_checks
    from harness_checks import CHECK_ORDER, Suite  # shipped next to this file

    suite = Suite(cfg, Candidate(cfg))
    for name in CHECK_ORDER:
        skip = suite.skip_reason(name)
        if skip is not None:
            emit({"event": "result", "check": name, **result("skipped", skip), "elapsed_s": 0.0})
            continue
        emit({"event": "start", "check": name})
        suite.begin(name)
        t0 = _perf()
        try:
            res = getattr(suite, "check_" + name)()
        except Failure as f:
            res = failure_result(f, "the bootcamp")
        except Exception as exc:  # a harness bug must not look like the candidate's fault
            res = result("sandbox_error", f"harness error in {name}: {type(exc).__name__}: {exc}",
                         traceback=traceback.format_exc())
        suite.record(name, res["status"])
        emit({"event": "result", "check": name, **res, "elapsed_s": round(_perf() - t0, 4)})
    suite.close()
    emit({"event": "done"})


if __name__ == "__main__":
    main()
