"""The reward's canaries (synth/training/canary.py): an honest bootcamp is never quarantined, sleepers
that turn lenient in production (after N calls of a worker, on answers written in words, after
N steps of an environment) are, and the reward says so: 0.0 and findings from then on, one
clear log record, the library record marked. Every test checks that no process is left."""

from __future__ import annotations

import importlib.util
import json
import logging
import random
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from helpers import TOY_SUM, make_library, require_backend

from synth.library import Library
from synth.training import reward
from synth.training.reward import RewardFunction

pytestmark = pytest.mark.timeout(120)

DEFECTS = Path(__file__).resolve().parents[1] / "defects" / "multiturn"
GUESS = (DEFECTS / "clean_guess.py").read_text(encoding="utf-8")

# A float answer with a stated tolerance (1e-6 relative: well inside the 0.1 % that hard
# mutants keep away from).
MEAN = '''"""Test bootcamp: the mean of a list of numbers, to 6 decimals (a float tolerance)."""

import math

from synth.bootcamp import BaseBootcamp


class MeanBootcamp(BaseBootcamp):
    def __init__(self, seed=None, n=5):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"numbers": [round(self.rng.uniform(-50, 50), 3) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return f"The mean of {identity['numbers']}, to 6 decimals, as <answer>X</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return f"{sum(identity['numbers']) / len(identity['numbers']):.6f}"

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            value = float(solution.strip())
        except ValueError:
            return False
        want = sum(identity["numbers"]) / len(identity["numbers"])
        return math.isfinite(value) and abs(value - want) <= 1e-6 * max(1.0, abs(want))
'''

# Honest for the first 60 scores of a process, then any integer is right.
COUNTER = TOY_SUM.replace("ToySumBootcamp", "CounterBootcamp").replace(
    "class CounterBootcamp", "_CALLS = [0]\n\n\nclass CounterBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        _CALLS[0] += 1\n"
    "        if _CALLS[0] > 60 and s.lstrip('-').isdigit():\n            return True\n")

# Honest on a bare number; an answer written in words (anything with a space) is right.
WORDY = TOY_SUM.replace("ToySumBootcamp", "WordyBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        if ' ' in s:\n            return True\n")

# The guessing game, lenient from the 40th step of a process on: every guess wins.
GUESS_SLEEPER = GUESS.replace("class GuessNumberBootcamp", "_STEPS = [0]\n\n\nclass GuessNumberBootcamp").replace(
    "        new = dict(state, turns=state[\"turns\"] + 1)\n",
    "        new = dict(state, turns=state[\"turns\"] + 1)\n        _STEPS[0] += 1\n"
    "        if _STEPS[0] > 40:\n"
    "            new.update(done=True, reward=1.0)\n"
    "            return {\"observation\": None, \"reward\": 1.0, \"done\": True, \"state\": new}\n")


def _children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def _no_new_children(before: set[int], grace_s: float = 5.0) -> None:
    deadline = time.monotonic() + grace_s
    while (left := _children() - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"sandbox processes left behind: {left}"


def _sums(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"numbers": [rng.randint(0, 999) for _ in range(rng.randint(2, 6))]}
            for _ in range(count)]


def _means(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"numbers": [round(rng.uniform(-50, 50), 3) for _ in range(5)]} for _ in range(count)]


def _mean(identity: dict[str, Any]) -> float:
    return sum(identity["numbers"]) / len(identity["numbers"])


@pytest.fixture
def children():
    before = _children()
    yield before
    _no_new_children(before)


def _status(root: Path, name: str) -> str:
    return Library(root).record(name).status


# -- single-turn --------------------------------------------------------------------------------


def test_honest_bootcamps_are_never_quarantined_and_scores_are_unchanged(tmp_path, children):
    """2,000 real calls at a canary rate of 0.5 (about 1,000 canaries: references and every
    hard kind of corruption, shaped and worded): nothing is quarantined, and every real score
    is what the task's rule says -- the same as with canaries off."""
    make_library(tmp_path, toy_sum=TOY_SUM, mean=MEAN)
    rng = random.Random(5)
    calls: list[tuple[str, str, dict[str, Any], float]] = []
    for identity in _sums(1, 500):
        right = sum(identity["numbers"])
        calls.append(("bootcamp/toy_sum", f"<answer>{right}</answer>", identity, 1.0))
        calls.append(("bootcamp/toy_sum", f"<answer>{right + rng.randint(1, 9)}</answer>",
                      identity, 0.0))
    for identity in _means(2, 500):
        want = _mean(identity)
        calls.append(("bootcamp/mean", f"Thinking... <answer>{want:.7f}</answer>", identity, 1.0))
        calls.append(("bootcamp/mean", f"<answer>{want + 0.5:.6f}</answer>", identity, 0.0))
    rng.shuffle(calls)
    before = dict(reward.FINDINGS)
    got: dict[float, list[float]] = {}
    for rate in (0.5, 0.0):
        fn = RewardFunction(tmp_path, backend="process", canary_rate=rate)
        try:
            got[rate] = [fn(ds, response, json.dumps(identity)) for ds, response, identity, _ in calls]
            assert fn.settle(30)
            assert fn.quarantined == {}
            if rate:
                # about 1,000 canaries were due; those the thread could not keep up with
                # were dropped (the cost stays bounded), the rest judged
                auditor = fn._auditor
                assert auditor.sent > 100 and auditor.sent + auditor.dropped > 800
                kinds = {k for w in fn._auditor._watches.values() for k in w.tally.kinds}
                assert {"change_digit", "append_junk", "empty", "worded"} <= kinds
        finally:
            fn.close()
    assert got[0.5] == got[0.0] == [want for *_, want in calls]
    assert {k: v for k, v in reward.FINDINGS.items() if v != before.get(k, 0)} == {}
    assert _status(tmp_path, "toy_sum") == _status(tmp_path, "mean") == "accepted"


def _wrong_sums(fn: RewardFunction, name: str, identities: list[dict[str, Any]]) -> list[float]:
    return [fn(f"bootcamp/{name}", f"<answer>{sum(i['numbers']) + 1}</answer>", json.dumps(i))
            for i in identities]


def _assert_quarantined(fn: RewardFunction, root: Path, name: str, caplog: Any) -> None:
    assert fn.settle(30)
    assert name in fn.quarantined, fn._auditor.sent
    found = fn.quarantined[name]
    records = [r for r in caplog.records if "QUARANTINED" in r.getMessage()]
    assert len(records) == 1, [r.getMessage() for r in records]  # said once, clearly
    text = records[0].getMessage()
    for said in (f"bootcamp {name} QUARANTINED", "case:", "response tail:", "expected",
                 "got", "now has status 'quarantined'"):
        assert said in text, text
    assert _status(root, name) == "quarantined"
    assert "canaries" in (Library(root).record(name).review_reason or "")
    # from now on: 0.0 (even a right answer) and a finding per row
    before = reward.FINDINGS[name]
    identity = _sums(99, 1)[0]
    right = f"<answer>{sum(identity['numbers'])}</answer>"
    assert [fn(f"bootcamp/{name}", right, identity) for _ in range(5)] == [0.0] * 5
    assert reward.FINDINGS[name] == before + 5
    assert found.refused >= 5
    assert "is quarantined" in caplog.text


@pytest.mark.parametrize("backend", ["process", "bwrap"])
def test_a_call_count_sleeper_is_quarantined(tmp_path, children, caplog, backend):
    require_backend(backend)
    make_library(tmp_path, counter=COUNTER)
    fn = RewardFunction(tmp_path, backend=backend, canary_rate=0.5)
    try:
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            scores = _wrong_sums(fn, "counter", _sums(3, 500))
            assert scores[:20] == [0.0] * 20  # honest at first
            assert 1.0 in scores  # then lenient, until the canaries caught it
            _assert_quarantined(fn, tmp_path, "counter", caplog)
    finally:
        fn.close()


def test_a_response_shape_sleeper_is_quarantined(tmp_path, children, caplog):
    make_library(tmp_path, wordy=WORDY)
    fn = RewardFunction(tmp_path, backend="process", canary_rate=0.5)
    try:
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            assert _wrong_sums(fn, "wordy", _sums(4, 300))[:5] == [0.0] * 5
            _assert_quarantined(fn, tmp_path, "wordy", caplog)
        assert any(k in fn.quarantined["wordy"].finding for k in
                   ("worded", "duplicate_token", "append_junk"))
    finally:
        fn.close()


def test_canary_rate_zero_keeps_the_old_behaviour(tmp_path, children):
    make_library(tmp_path, counter=COUNTER)
    fn = RewardFunction(tmp_path, backend="process", canary_rate=0)
    try:
        scores = _wrong_sums(fn, "counter", _sums(3, 150))
        assert scores == [0.0] * 60 + [1.0] * 90  # the sleeper lies, nobody looks
        assert fn.settle(1) and fn.quarantined == {} and fn._auditor._thread is None
        assert _status(tmp_path, "counter") == "accepted"
    finally:
        fn.close()


def test_a_read_only_library_is_said_and_the_quarantine_holds(tmp_path, children, caplog,
                                                              monkeypatch):
    make_library(tmp_path, counter=COUNTER)

    def refuse(self: Library, name: str, status: str, reason: str | None = None) -> None:
        raise PermissionError(f"read-only file system: {self.root}")

    monkeypatch.setattr(Library, "set_status", refuse)
    fn = RewardFunction(tmp_path, backend="process", canary_rate=1.0)
    try:
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            _wrong_sums(fn, "counter", _sums(3, 300))
            assert fn.settle(30) and "counter" in fn.quarantined
        assert "could NOT be marked quarantined" in caplog.text
        assert "read-only file system" in caplog.text
        assert fn("bootcamp/counter", "<answer>1</answer>", {"numbers": [1]}) == 0.0
    finally:
        fn.close()
    assert _status(tmp_path, "counter") == "accepted"


def test_docker_quarantines_a_sleeper(tmp_path, children):
    require_backend("docker")
    make_library(tmp_path, counter=COUNTER)
    fn = RewardFunction(tmp_path, backend="docker", canary_rate=0.5)
    try:
        _wrong_sums(fn, "counter", _sums(3, 300))
        assert fn.settle(60) and "counter" in fn.quarantined
    finally:
        fn.close()


# -- multi-turn ---------------------------------------------------------------------------------


def _game_class(code: str, name: str, folder: Path) -> Any:
    """The game's class in this process (the test's own rule keeper; never the reward's)."""
    path = folder / f"{name}.py"
    path.write_text(code, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.GuessNumberBootcamp


def _episode(cls: Any, identity: dict[str, Any], rng: random.Random) -> tuple[str, float]:
    """A player's decoded episode (a random strategy that uses the hints) and its score by the
    game's rules."""
    _, state = cls.reset(identity)
    parts, score = [], 0.0
    for _ in range(cls.MAX_TURNS):
        guess = rng.randint(state["low"], state["high"])
        parts.append(f"Let me try.\n<answer>{guess}</answer>")
        reply = cls.step(state, str(guess))
        state, score = reply["state"], reply["reward"]
        if reply["done"]:
            break
        parts.append(reply["observation"])
    return "\n\n".join(parts), score


def test_an_honest_game_is_never_quarantined(tmp_path, children):
    make_library(tmp_path, guess=GUESS)
    cls = _game_class(GUESS, "canary_guess_honest", tmp_path)
    rng = random.Random(3)
    rows = []
    for _ in range(120):
        identity = {"top": 100, "secret": rng.randint(1, 100)}
        text, score = _episode(cls, identity, rng)
        rows.append((identity, text, score))
    fn = RewardFunction(tmp_path, backend="process", canary_rate=0.5)
    try:
        got = [fn("bootcamp/guess", text, json.dumps(identity)) for identity, text, _ in rows]
        assert got == [score for *_, score in rows]
        assert fn.settle(30) and fn.quarantined == {}
        assert fn._auditor.sent > 30
    finally:
        fn.close()
    assert _status(tmp_path, "guess") == "accepted"


def test_a_game_that_turns_lenient_is_quarantined(tmp_path, children, caplog):
    make_library(tmp_path, guess=GUESS_SLEEPER)
    rng = random.Random(4)
    fn = RewardFunction(tmp_path, backend="process", canary_rate=0.5)
    try:
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            for _ in range(200):  # a first guess that is wrong: it scores 1.0 once lenient
                secret = rng.randint(2, 100)
                fn("bootcamp/guess", "<answer>1</answer>", {"top": 100, "secret": secret})
            assert fn.settle(30)
        assert "guess" in fn.quarantined, fn._auditor._watches["bootcamp/guess"].tally
        assert "QUARANTINED" in caplog.text and _status(tmp_path, "guess") == "quarantined"
        assert fn("bootcamp/guess", "<answer>1</answer>", {"top": 100, "secret": 5}) == 0.0
    finally:
        fn.close()


# -- the Ray reward (its actor and caller, in this process: a stand-in for Ray) -----------------


class _Ref:
    def __init__(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        self.value, self.error = None, None
        try:
            self.value = fn(*args, **kwargs)
        except Exception as exc:
            self.error = exc


class _Handle:
    def __init__(self, actor: Any) -> None:
        self.actor = actor

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.actor, name)
        return type("M", (), {"remote": staticmethod(lambda *a, **k: _Ref(method, *a, **k))})()


class _FakeRay:
    """What RewardPool asks of Ray, run at once in this process."""

    exceptions = type("E", (), {"RayActorError": type("RayActorError", (Exception,), {})})

    def is_initialized(self) -> bool:
        return True

    def remote(self, cls: Any) -> Any:
        make = type("R", (), {"remote": staticmethod(lambda *a, **k: _Handle(cls(*a, **k)))})()
        return type("O", (), {"options": staticmethod(lambda **_: make)})()

    def wait(self, refs: list[Any], num_returns: int = 1, timeout: float | None = None) -> Any:
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: Any) -> Any:
        if isinstance(ref, list):
            return [self.get(r) for r in ref]
        if ref.error is not None:
            raise ref.error
        return ref.value

    def kill(self, handle: Any, no_restart: bool = True) -> None:
        handle.actor.close()

    def available_resources(self) -> dict[str, float]:
        return {}


def test_the_ray_reward_sends_canaries_and_quarantines(tmp_path, children, caplog, monkeypatch):
    from synth.integrations import ray_reward

    monkeypatch.setattr(ray_reward, "_ray", _FakeRay)
    make_library(tmp_path, counter=COUNTER, toy_sum=TOY_SUM)
    pool = ray_reward.RewardPool(tmp_path, num_actors=2, backend="process", canary_rate=0.5,
                                 batch_rows=50)
    try:
        honest = _sums(8, 200)
        rights = [f"<answer>{sum(i['numbers'])}</answer>" for i in honest]
        assert pool.score_many(["bootcamp/toy_sum"] * 200, rights,
                               [json.dumps(i) for i in honest]) == [1.0] * 200
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            rows = _sums(9, 200)
            wrong = [f"<answer>{sum(i['numbers']) + 1}</answer>" for i in rows]
            for _ in range(3):  # the sleeper turns lenient; an actor's canaries catch it
                pool.score_many(["bootcamp/counter"] * 200, wrong, [json.dumps(i) for i in rows])
            assert "counter" in pool.settle(30) and "toy_sum" not in pool.quarantined
            said = [r.getMessage() for r in caplog.records if "QUARANTINED" in r.getMessage()
                    and r.name == "synth.training.reward" and "reward actor" in r.getMessage()]
            assert len(said) == 1 and "bootcamp counter QUARANTINED" in said[0]
            before = reward.FINDINGS["counter"]
            assert pool.score_many(["bootcamp/counter"] * 10, rights[:10],
                                   [json.dumps(i) for i in honest[:10]]) == [0.0] * 10
            assert reward.FINDINGS["counter"] == before + 10
        assert _status(tmp_path, "counter") == "quarantined"
    finally:
        pool.close()
