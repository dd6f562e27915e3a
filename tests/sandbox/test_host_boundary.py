"""What the host takes from a sandboxed bootcamp (synth.sandbox.methods): text UTF-8 cannot
encode is refused in values and escaped in errors, and a candidate's replies have a total cap.

The echo bootcamp below says back what the host sends it (the case's ``say``), so lone
surrogates can be put in every place a reply carries text: prompts, answers, cases, level names,
exception messages, batch items, score replies.
"""

from __future__ import annotations

import json
import threading
import tracemalloc

import pytest
from helpers import ALL_BACKENDS, TOY_SUM, require_backend

from synth.sandbox.base import Outcome
from synth.sandbox.methods import (
    OVER_BUDGET,
    UNENCODABLE,
    MethodServer,
    ReplyBudget,
    decode_reply,
    reply_weight,
)
from synth.sandbox.pool import WorkerPool
from synth.text.utf8 import ESCAPED_NOTE

ECHO = '''"""Echo bootcamp for tests: prompts, answers and errors say what the case says."""

from synth.bootcamp import BaseBootcamp


class EchoBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"say": "a"}, "hard": {"say": "b"}}

    def __init__(self, seed=None, say="a"):
        super().__init__(seed=seed)
        self.say = say

    def case_generator(self):
        return {"say": self.say + str(self.rng.randint(0, 9))}

    @staticmethod
    def prompt_func(identity):
        if "boom" in identity:
            raise ValueError("cannot say " + identity["boom"])
        return "Say <answer>" + identity["say"] + "</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return identity["say"]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["say"]
'''

#: high and low surrogates, at the start, in the middle and at the end of a text
BAD = ["\ud800", "x\udbffy", "tail \udc00", "\udfff" * 3, "pair \ud83d\ude00 as two"]


def case(**fields: str) -> str:
    """A case text with lone surrogates in it (json.dumps escapes them; the kit reads them)."""
    return json.dumps(fields, sort_keys=True, ensure_ascii=False)


def encodes(*texts: str) -> None:
    for text in texts:
        text.encode("utf-8")


# -- decode_reply: the boundary itself --------------------------------------------------------


def raw(obj: object) -> bytes:
    """A reply line as the kit writes it: strings as they are (surrogatepass)."""
    return json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("line", [raw, lambda o: json.dumps(o).encode()],
                         ids=["raw-bytes", "json-escape"])
def test_a_value_with_a_surrogate_is_refused_naming_the_place(bad, line):
    if line is not raw and "\ud83d\ude00" in bad:  # as a JSON escape the pair is one emoji
        assert decode_reply(line({"id": 7, "ok": bad}), "prompt")[1].value == "pair 😀 as two"
        return
    for value, where in ((bad, "the returned value"),
                         ({"text": "ok", "deep": [1, {"p": bad}]}, "['deep'][1]['p']"),
                         ({bad: 1}, "a key of the returned value")):
        rid, reply = decode_reply(line({"id": 7, "ok": value}), "prompt")
        assert rid == 7
        assert reply.outcome is Outcome.ERROR and reply.kind == UNENCODABLE
        assert "UTF-8" in reply.error and where in reply.error and "U+D" in reply.error
        encodes(reply.error)


def test_valid_text_and_big_ints_pass_untouched():
    for value in ("é中🙂", {"big": 7 ** 200, "t": "é"}, ["\\ud800 is an escape, not a surrogate"],
                  [-(2 ** 63) - 1, 2 ** 64, -(2 ** 63), 2 ** 64 - 1]):  # exact, never floats
        _, reply = decode_reply(raw({"id": 1, "ok": value}), "prompt")
        assert reply.ok and reply.value == value


@pytest.mark.parametrize("bad", BAD)
def test_an_error_s_surrogates_are_escaped_and_the_error_says_so(bad):
    err = {"kind": "error", "type": "ValueError", "message": f"ValueError: {bad}",
           "traceback": f"Traceback ...\n  {bad}\nValueError: {bad}"}
    _, reply = decode_reply(raw({"id": 3, "err": err}), "prompt")
    assert reply.outcome is Outcome.ERROR and reply.kind == "error"
    assert ESCAPED_NOTE in reply.error and "\\ud" in reply.error
    assert "\\ud" in reply.traceback
    encodes(reply.error, reply.traceback)


def test_a_batch_refuses_only_its_bad_items():
    items = [{"ok": "fine"}, {"ok": {"p": "x\ud800"}}, {"err": {"kind": "error", "message": "\udc00",
                                                               "traceback": ""}},
             {"ok": ["\udfff"]}, {"ok": 5}]
    _, reply = decode_reply(raw({"id": 2, "ok": items}), "batch")
    assert reply.ok
    got = reply.value
    assert got[0] == {"ok": "fine"} and got[4] == {"ok": 5}
    for k in (1, 3):
        assert got[k]["err"]["kind"] == UNENCODABLE
        encodes(got[k]["err"]["message"])
    assert got[2]["err"]["message"] == "\udc00"  # parsed later by error_reply, which escapes it


def test_a_score_reply_is_screened_too():
    _, reply = decode_reply(raw({"id": 9, "ok": {"score": 1.0, "tampered": ["pat\ud800ched"]}}),
                            "score")
    assert reply.kind == UNENCODABLE


# -- a live method server ---------------------------------------------------------------------


def server(code: str = ECHO, **kw) -> MethodServer:
    return MethodServer(code, backend="process", **kw)


@pytest.mark.parametrize("bad", BAD)
def test_the_server_refuses_each_text_and_the_session_goes_on(bad):
    with server() as s:
        assert s.info["class"] == "EchoBootcamp"
        for method in ("prompt", "answer"):
            reply = s.call(method, {"case_text": case(say=bad)})
            assert reply.kind == UNENCODABLE, (method, reply)
            assert "U+D" in reply.error
            encodes(reply.error)
            assert s.alive  # refused, not killed: the next question is answered
            again = s.call(method, {"case_text": case(say="fine")})
            assert again.ok and "fine" in again.value
        handle = s.call("construct", {"params": {"say": bad}, "seed": 1}).value
        generated = s.call("generate", {"handle": handle})
        assert generated.kind == UNENCODABLE and "['text']" in generated.error
        raised = s.call("prompt", {"case_text": case(say="x", boom=bad)})
        assert raised.kind == "error" and ESCAPED_NOTE in raised.error
        encodes(raised.error, raised.traceback)
        batch = s.call("batch", {"calls": [["prompt", {"case_text": case(say="ok")}],
                                           ["prompt", {"case_text": case(say=bad)}],
                                           ["answer", {"case_text": case(say="ok")}]]})
        assert batch.ok
        assert batch.value[0]["ok"] == "Say <answer>ok</answer>."
        assert batch.value[1]["err"]["kind"] == UNENCODABLE
        assert batch.value[2]["ok"] == "ok"


@pytest.mark.parametrize("bad", ["\ud800", "lvl\udfff"])
def test_a_handshake_with_a_surrogate_does_not_load(bad):
    code = ECHO.replace('LEVELS = {"easy"', f'LEVELS = {{{json.dumps(bad)}: {{"say": "c"}}, "easy"')
    with server(code) as s:
        assert s.load_reply is not None and s.load_reply.kind == UNENCODABLE
        assert "a key of the returned value['levels']" in s.load_reply.error


def test_the_warm_pool_escapes_a_verifier_s_surrogate_error():
    crashy = TOY_SUM.replace("        s = solution.strip()\n",
                             "        s = solution.strip()\n"
                             "        if s == 'boom':\n"
                             "            raise RuntimeError('bad \\ud800 \\udfff')\n")
    with WorkerPool(crashy, size=1, backend="process") as pool:
        bad, good = pool.verify_many([("<answer>boom</answer>", {"numbers": [1, 2]}),
                                      ("<answer>3</answer>", {"numbers": [1, 2]})])
    assert bad.outcome is Outcome.ERROR and ESCAPED_NOTE in bad.error
    encodes(bad.error, bad.traceback)
    assert good.outcome is Outcome.PASSED and good.score == 1.0


# -- the total cap --------------------------------------------------------------------------


SHAPES = {
    "text": json.dumps("x" * 200_000),
    "empty dicts": "[" + ",".join(["{}"] * 50_000) + "]",
    "empty lists": "[" + ",".join(["[]"] * 50_000) + "]",
    "small dicts": "[" + ",".join(['{"a":1}'] * 20_000) + "]",
    "numbers": "[" + ",".join(["1.5", "123456789"] * 20_000) + "]",
    "short strings": "[" + ",".join(['"ab"'] * 50_000) + "]",
    "keys": json.dumps({f"k{i}": [i] for i in range(20_000)}),
    "case text": json.dumps({"text": json.dumps({"edges": [[i, i + 1] for i in range(5000)]})}),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_reply_s_weight_is_at_least_the_memory_it_takes(shape):
    line = SHAPES[shape].encode()
    tracemalloc.start()
    value = json.loads(line)
    used, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    weight = reply_weight(len(line), value)
    assert used <= weight <= max(10 * used, 2 * len(line)), (used, weight)


def test_the_budget_counts_every_sharing_session_from_several_threads():
    budget = ReplyBudget(1_000_000)

    def work() -> None:
        for _ in range(200):
            budget.charge(1000, 1000, "step")

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert budget.exceeded is not None
    assert budget.used == 1_001_000 and budget.replies == 1001  # counting stops at the cap
    refusal = budget.refusal()
    assert refusal is not None and refusal.kind == OVER_BUDGET
    assert refusal.extra["call"] == 1001 and refusal.extra["method"] == "step"
    assert "1,001,000" in refusal.error and "step: 1,001 replies" in refusal.extra["replies"]
    assert budget.refusal() is not refusal  # a fresh copy for each caller


def test_a_candidate_past_its_budget_is_refused_with_the_call_and_the_totals():
    budget = ReplyBudget(300_000)
    long = case(say="y" * 60_000)
    with server(budget=budget) as s:
        replies = [s.call("prompt", {"case_text": long}) for _ in range(8)]
        over = [r for r in replies if not r.ok]
        assert [r.ok for r in replies[:4]] == [True] * 4
        first = over[0]
        assert first.kind == OVER_BUDGET and first.extra["method"] == "prompt"
        assert first.extra["call"] == 6 and first.extra["total"] > 300_000
        assert "reply 6 (to prompt: 60,0" in first.error
        assert not s.alive  # its session was killed
        assert all(r.kind == OVER_BUDGET for r in over)
    other = server(budget=budget, role="second")  # another session of the same candidate
    refused = other.start()
    assert refused.kind == OVER_BUDGET and other.started == 0  # nothing was even started
    assert other.call("prompt", {"case_text": long}).kind == OVER_BUDGET


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_the_boundary_holds_on_every_backend(backend: str):
    runner = require_backend(backend)
    budget = ReplyBudget(250_000)
    with MethodServer(ECHO, backend=runner, budget=budget) as s:
        refused = s.call("prompt", {"case_text": case(say="x\ud800")})
        assert refused.kind == UNENCODABLE and "U+D800" in refused.error
        raised = s.call("prompt", {"case_text": case(say="x", boom="\udfff")})
        assert raised.kind == "error" and ESCAPED_NOTE in raised.error
        encodes(raised.error, raised.traceback)
        replies = [s.call("prompt", {"case_text": case(say="y" * 60_000)}) for _ in range(6)]
        assert replies[0].ok and replies[-1].kind == OVER_BUDGET
        assert replies[-1].extra["method"] == "prompt"
