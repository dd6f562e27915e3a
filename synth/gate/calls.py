"""Typed questions to a sandboxed bootcamp, for the gate: every reply validated, timed here.

:class:`Candidate` wraps a :class:`~synth.sandbox.methods.MethodServer`. Each method asks one
question and returns a plain, validated value with the wall time the host measured, or raises
:class:`Failure` (status ``error`` / ``timeout`` / ``oom`` / ``failed``) carrying the evidence.
The host never trusts the sandbox about time, types or sizes: a prompt must be a ``str`` here, a
case must be canonical JSON text of an object *as parsed here*, a score must be a finite float
in [0, 1] (else the finding ``invalid_score``), and a run-time change of the contract that the
server reports is the finding ``contract_tampered``. A value holding text UTF-8 cannot encode
is the finding ``unencodable_text`` (refused by :mod:`synth.sandbox.methods`), and replies
past the candidate's total the finding ``reply_budget``.

Auditing an InternBootcamp-style class (``intern``), the library's own semantics apply: an
exception its ``verify_score`` swallows into a score is recorded in :attr:`Candidate.swallowed`
(the gate reports it), and a case that only the JSON round trip changes (tuples) is recorded in
:attr:`Candidate.converted` in its JSON form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from synth.sandbox.base import Outcome
from synth.sandbox.kit import canonical
from synth.sandbox.methods import OVER_BUDGET, UNENCODABLE, MethodServer, Reply, error_reply

__all__ = ["Candidate", "Checker", "Failure", "Validator"]

_STATUS = {Outcome.TIMEOUT: "timeout", Outcome.OOM: "oom", Outcome.SANDBOX_ERROR: "sandbox_error"}
MAX_TEXT = 2_000_000
#: How many swallowed exceptions and converted cases a candidate keeps as evidence.
KEPT = 50
#: How long the method server may take to answer its engine log (a round trip to the broker).
ENGINE_LOG_LIMIT_S = 15.0


class Failure(Exception):
    """A question the bootcamp did not answer acceptably (raised, hung, ran out of memory,
    or answered with a value of the wrong kind)."""

    def __init__(self, status: str, what: str, trace: str = "", finding: str = "",
                 **artifacts: Any) -> None:
        super().__init__(what)
        self.status, self.what, self.trace, self.finding = status, what, trace, finding
        self.artifacts = artifacts


def _fail(reply: Reply) -> Failure:
    status = _STATUS.get(reply.outcome, "error")
    if reply.kind == "protocol":
        return Failure("error", f"broke the method-call protocol: {reply.error}", reply.traceback,
                       finding="protocol")
    if reply.kind == "usage":
        return Failure("failed", reply.error, reply.traceback)
    if reply.kind == UNENCODABLE:  # a value no UTF-8 writer stores: refused at the boundary
        return Failure("failed", reply.error, finding="unencodable_text")
    if reply.kind == OVER_BUDGET:  # the candidate's replies passed the host's total
        return Failure("failed", reply.error, finding="reply_budget",
                       replies=str(reply.extra.get("replies", "")))
    what = {"timeout": f"did not return in time ({reply.error})",
            "oom": f"ran out of memory ({reply.error})"}.get(status, f"raised {reply.error}")
    return Failure(status, what, reply.traceback)


def _describe(value: Any) -> str:
    if type(value) is dict and "__type__" in value:
        return f"a {value['__type__']} ({str(value.get('repr', ''))[:200]})"
    return f"a {type(value).__name__}"


@dataclass
class Candidate:
    """The gate's view of one sandboxed bootcamp."""

    server: MethodServer
    intern: bool = False
    tampering: list[str] = field(default_factory=list)
    #: intern mode: the exceptions verify_score swallowed (where, type, message, traceback,
    #: the response's head), the first :data:`KEPT` of them
    swallowed: list[dict[str, str]] = field(default_factory=list)
    swallowed_count: int = 0
    #: intern mode: (canonical text, what the round trip changed) of converted cases
    converted: list[tuple[str, str]] = field(default_factory=list)
    converted_count: int = 0
    #: engine-backed bootcamps (set after the load): per instance handle, the commands each
    #: generated case sent the engines (``engine_log`` after each ``generate``), in order
    gen_logs: dict[int, list[Any]] | None = None
    #: the seconds of all the questions, on the host's clock
    asked_s: float = 0.0

    # -- load -----------------------------------------------------------------------------
    def load(self) -> dict[str, Any]:
        reply = self.server.start()
        if not reply.ok:
            raise _fail(reply)
        info = reply.value
        if type(info.get("class")) is not str:
            raise Failure("error", "broke the method-call protocol: no class name", finding="protocol")
        tampered = info.get("tampered") or []
        if tampered:
            self.tampering += [str(t)[:300] for t in tampered]
        return dict(info)

    # -- questions ------------------------------------------------------------------------
    def ask(self, method: str, params: dict[str, Any], limit: float) -> tuple[Any, float]:
        reply = self.server.call(method, params, timeout_s=limit)
        self.asked_s += reply.elapsed_s
        if not reply.ok:
            raise _fail(reply)
        return reply.value, reply.elapsed_s

    def construct(self, params: dict[str, Any], seed: int, limit: float = 10.0) -> int:
        handle, _ = self.ask("construct", {"params": params, "seed": seed}, limit)
        if type(handle) is not int:
            raise Failure("error", "broke the method-call protocol: no instance handle",
                          finding="protocol")
        return handle

    def generate(self, handle: int, limit: float, reseed: int | None = None,
                 cap: int = MAX_TEXT) -> tuple[str, float]:
        """The next case of an instance as canonical JSON text (at most ``cap`` characters),
        checked here."""
        params: dict[str, Any] = {"handle": handle}
        if reseed is not None:
            params["reseed"] = reseed
        if self.gen_logs is not None:  # what was sent before belongs to no case
            self.ask("engine_log", {}, ENGINE_LOG_LIMIT_S)
        value, dt = self.ask("generate", params, limit)
        if self.gen_logs is not None:
            self.gen_logs.setdefault(handle, []).append(
                self.ask("engine_log", {}, ENGINE_LOG_LIMIT_S)[0])
        if type(value) is not dict:
            raise Failure("error", "broke the method-call protocol: malformed case",
                          finding="protocol")
        if "problem" in value:
            raise Failure("failed", str(value["problem"])[:400], case=str(value.get("repr", "")))
        text = value.get("text")
        if self.intern and "converted" in value and type(text) is str:
            self.converted_count += 1
            if len(self.converted) < KEPT:
                self.converted.append((text, str(value["converted"])[:400]))
        if type(text) is not str or len(text) > cap:
            raise Failure("failed", "the case is not JSON text of a bounded size")
        try:
            case = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise Failure("failed", f"the case does not parse back from JSON: {exc}"[:400],
                          case=text[:2000]) from None
        if type(case) is not dict:
            raise Failure("failed", f"case_generator returned a {type(case).__name__}, not a dict")
        if canonical(case) != text:
            raise Failure("failed", "the case changes in a JSON round trip", case=text[:2000])
        return text, dt

    def text(self, method: str, case: str, limit: float, what: str,
             cap: int = MAX_TEXT) -> tuple[str, float]:
        value, dt = self.ask(method, {"case_text": case}, limit)
        if type(value) is not str:
            raise Failure("failed", f"{what} returned {_describe(value)}, not a str")
        if len(value) > cap:
            raise Failure("failed", f"{what} returned {len(value)} chars")
        return value, dt

    def prompt(self, case: str, limit: float = 2.0) -> tuple[str, float]:
        return self.text("prompt", case, limit, "prompt_func")

    def answer(self, case: str, limit: float = 2.0) -> tuple[str, float]:
        return self.text("answer", case, limit,
                         "reference_answer (the text inside the answer tags)")

    def stdin(self, case: str, limit: float = 2.0, cap: int = MAX_TEXT) -> tuple[str, float]:
        """``render_stdin(case)``; ``cap``: the most characters taken (a STRESS input at a
        statement's limits is larger than any prompt's)."""
        return self.text("stdin", case, limit, "render_stdin", cap)

    def wrap(self, answer: str, limit: float = 2.0) -> str:
        value, _ = self.ask("wrap", {"answer": answer}, limit)
        if type(value) is not str or len(value) > MAX_TEXT:
            raise Failure("failed", f"wrap_answer returned {_describe(value)}, not a str")
        return value

    def score(self, response: str, case: str, limit: float = 2.0,
              check_identity: bool = False) -> tuple[float, float]:
        """``verify_score(response, case)``: a finite float in [0, 1], or a Failure.
        ``check_identity``: the server also reports whether the call changed the identity."""
        params: dict[str, Any] = {"response": response, "case_text": case}
        if check_identity:
            params["check_identity"] = True
        value, dt = self.ask("score", params, limit)
        return self.score_value(value, response), dt

    def roundtrip(self, case: str, responses: list[str],
                  limit: float) -> tuple[list[tuple[Any, Any]], float]:
        """Intern mode: each response's (score, swallowed exception type) on a converted case
        as it was generated and after the JSON round trip (compared by the caller), and the
        seconds it took."""
        value, dt = self.ask("roundtrip", {"case_text": case, "responses": responses,
                                          "limit": limit}, limit * 2 * len(responses) + 1.0)
        if type(value) is not list or len(value) != len(responses) or not all(
                type(v) is list and len(v) == 2 and all(
                    type(x) is list and len(x) == 2 and type(x[1]) is str for x in v)
                for v in value):
            raise Failure("error", "broke the method-call protocol: malformed roundtrip reply",
                          finding="protocol")
        return [(tuple(a), tuple(b)) for a, b in value], dt

    def events(self, limit: float = 2.0) -> list[str]:
        """Intern mode: what the sandbox's guard refused since the last call (a subprocess, a
        read of the machine's own files, an executed response), then forgotten there."""
        value, _ = self.ask("events", {}, limit)
        if type(value) is not list or not all(type(e) is str for e in value):
            raise Failure("error", "broke the method-call protocol: malformed events reply",
                          finding="protocol")
        return [e[:300] for e in value[:50]]

    def score_value(self, value: Any, response: str = "") -> float:
        """Validate one reply to a ``score`` question (see the module docstring)."""
        if type(value) is not dict or "score" not in value:
            raise Failure("error", "broke the method-call protocol: malformed score reply",
                          finding="protocol")
        if value.get("tampered"):
            changes = [str(t)[:300] for t in value["tampered"]][:5]
            self.tampering += [c for c in changes if c not in self.tampering]
            raise Failure("failed", "the contract was changed at run time: " + "; ".join(changes),
                          finding="contract_tampered")
        if value.get("identity_changed"):
            raise Failure("failed", "verify_score changed the identity it was given (a scoring "
                          "call must not modify the case)", finding="impure_verifier")
        swallowed = value.get("swallowed")
        if self.intern and type(swallowed) is dict:
            self.swallowed_count += 1
            if len(self.swallowed) < KEPT:
                self.swallowed.append({
                    "where": str(swallowed.get("where", "?"))[:100],
                    "type": str(swallowed.get("type", "?"))[:100],
                    "message": str(swallowed.get("message", ""))[:300],
                    "traceback": str(swallowed.get("traceback", ""))[-3000:],
                    "response": response[:200]})
        score = value["score"]
        if self.intern and type(score) is dict and score.get("__type__") == "bool":
            score = 1.0 if score.get("repr") == "True" else 0.0
        if type(score) is int and (self.intern or score in (0, 1)):
            score = float(score)
        if type(score) is not float or not 0.0 <= score <= 1.0:
            shown = score if type(score) in (str, float, int) else _describe(score)
            raise Failure("failed", f"verify_score returned {str(shown)[:100]}, not a finite "
                          "float in [0, 1]", finding="invalid_score", value=str(shown)[:200])
        return score


@dataclass
class Checker:
    """The gate's view of one sandboxed independent checker (``check``, ``solve``, ``probes``),
    itself untrusted: its answers are validated like the bootcamp's."""

    server: MethodServer
    functions: list[str] = field(default_factory=list)

    def load(self) -> None:
        reply = self.server.start()
        if not reply.ok:
            raise _fail(reply)
        functions = reply.value.get("functions")
        if type(functions) is not list or "check" not in functions:
            raise Failure("error", "the checker defines no check()", finding="protocol")
        self.functions = [str(f) for f in functions]


#: the longest reason kept from an input validator's reply
REASON_CHARS = 300
#: inputs per round trip to an input validator (and at most this many characters of them)
VALIDATE_BATCH = 64
VALIDATE_BATCH_CHARS = 4_000_000


@dataclass
class Validator:
    """The gate's view of one sandboxed input validator (``validate(stdin) -> None | str``:
    None when the input is one the statement allows, else the reason it is not), itself
    untrusted: a reply that is neither None nor a str, a raise, a hang or a failed load is the
    validator's failure (finding ``validator_broken``), never the bootcamp's."""

    server: MethodServer

    def load(self) -> None:
        reply = self.server.start()
        if not reply.ok:
            f = _fail(reply)
            raise Failure(f.status, f"did not load: {f.what}", f.trace,
                          finding="validator_broken")
        functions = reply.value.get("functions")
        if type(functions) is not list or "validate" not in functions:
            raise Failure("error", "the validator defines no validate(stdin)",
                          finding="validator_broken")

    def validate_many(self, stdins: list[str], limit_each: float,
                      total_s: float | None = None) -> list[str | None]:
        """Each input's verdict, in order: None (allowed) or the reason (at most
        :data:`REASON_CHARS` characters). Raises :class:`Failure` (``validator_broken``) on
        the first input the validator does not answer acceptably."""
        out: list[str | None] = []
        start = 0
        while start < len(stdins):
            end, size = start, 0
            while end < len(stdins) and end - start < VALIDATE_BATCH and (
                    end == start or size + len(stdins[end]) <= VALIDATE_BATCH_CHARS):
                size += len(stdins[end])
                end += 1
            chunk = stdins[start:end]
            try:
                replies, _ = ask_many(self.server, [("validate", {"stdin": x}) for x in chunk],
                                      limit_each, total_s)
            except Failure as f:
                raise Failure(f.status, f"validate() {f.what}", f.trace,
                              finding="validator_broken") from None
            for k, (value, fail) in enumerate(replies):
                where = f"input {start + k}"
                if fail is not None:
                    raise Failure(fail.status, f"validate() on {where} {fail.what}", fail.trace,
                                  finding="validator_broken", stdin=chunk[k][:2000])
                if value is not None and type(value) is not str:
                    raise Failure("failed", f"validate() returned {_describe(value)} on {where}, "
                                  "not None (a legal input) or a str (the reason it is not)",
                                  finding="validator_broken", stdin=chunk[k][:2000])
                if value is None:
                    out.append(None)
                else:
                    reason = " ".join(value.split())
                    out.append(reason[:REASON_CHARS] or "(validate() gave an empty reason)")
            if len(replies) < len(chunk):
                raise Failure("error", "validate(): the batch was cut short",
                              finding="validator_broken")
            start = end
        return out


def ask_many(server: MethodServer, calls: list[tuple[str, dict[str, Any]]],
             limit_each: float, total_s: float | None = None,
             ) -> tuple[list[tuple[Any, Failure | None]], float]:
    """Several questions in one round trip: ([(value, None) | (None, failure)], seconds).

    A failure of the whole batch (the session hung past every limit -- ``total_s``, by default
    every call's limit -- died, or broke the protocol) raises it. A batch cut short by a
    timeout or an OOM inside it ends with that failure; the calls after it are not answered."""
    if not calls:
        return [], 0.0
    body = {"calls": [[m, {**p, "limit": limit_each}] for m, p in calls]}
    total = limit_each * len(calls) + 1.0
    reply = server.call("batch", body, timeout_s=total if total_s is None else min(total, total_s))
    if not reply.ok:
        raise _fail(reply)
    items = reply.value
    if type(items) is not list or len(items) > len(calls) or not items:
        raise Failure("error", "broke the method-call protocol: malformed batch reply",
                      finding="protocol")
    out: list[tuple[Any, Failure | None]] = []
    for item in items:
        if type(item) is dict and "ok" in item:
            out.append((item["ok"], None))
        elif type(item) is dict and type(item.get("err")) is dict:
            out.append((None, _fail(error_reply(item["err"]))))
        else:
            raise Failure("error", "broke the method-call protocol: malformed batch item",
                          finding="protocol")
    return out, reply.elapsed_s
