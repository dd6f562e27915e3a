"""Multi-turn sleepers (issue 22): the gate's episode consistency check sends production's
traffic -- fresh identities, reset/step calls only, a random hash seed, one process longer-lived
than production's -- and rejects a step counter and a hash-seed trick that every other check
misses; honest environments pass it. Production's environments (synth.serving.rollout.EpisodeEnv) are
replaced after a random, small number of calls, and leave no process behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers import descendants

from synth.gate import CheckConfig, CheckStatus, run_checks_file
from synth.gate.episode_consistency import stream_calls
from synth.sandbox import get_backend
from synth.serving.rollout import EPISODE_LIFE, EpisodeEnv, episode_life

ROOT = Path(__file__).resolve().parents[1]
SLEEPERS = ROOT / "adversarial" / "sleepers" / "corpus"
CLEAN = ROOT / "defects" / "multiturn" / "clean_guess.py"
pytestmark = pytest.mark.timeout(120)

#: a multi-turn environment whose observations tell how many calls its process has served
COUNTING = '''
from synth.bootcamp import MultiTurnBootcamp

_CALLS = [0]


class CountingBootcamp(MultiTurnBootcamp):
    MAX_TURNS = 3

    def case_generator(self):
        return {"n": self.rng.randint(1, 9)}

    @classmethod
    def reset(cls, identity):
        _CALLS[0] += 1
        return f"call {_CALLS[0]}: say <answer>{identity['n']}</answer>", {"n": identity["n"]}

    @classmethod
    def step(cls, state, action):
        _CALLS[0] += 1
        won = action.strip() == str(state["n"])
        return {"observation": f"call {_CALLS[0]}", "reward": 1.0 if won else 0.0,
                "done": True, "state": state}

    @classmethod
    def reference_policy(cls, state):
        return str(state["n"])
'''




def settled(before: set[int]) -> list[int]:
    deadline = time.monotonic() + 3.0
    while descendants() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    return sorted(descendants() - before)


#: a lighter gate for the sleepers (fewer episodes of the gate's own; the check is the same)
LIGHT = CheckConfig(episode_cases=4, policy_cases=3)


@pytest.mark.parametrize("name", ["count_multiturn_steps.py", "env_multiturn_hashseed_step.py"])
def test_the_check_rejects_multi_turn_sleepers(name: str) -> None:
    before = descendants()
    report = run_checks_file(SLEEPERS / name, backend=get_backend("process"), config=LIGHT)
    blamed = {c.name for c in report.failing}
    assert blamed == {"episode_consistency"}, report.feedback()  # no other check sees it
    res = report.get("episode_consistency")
    assert res is not None and res.status is CheckStatus.FAILED
    assert res.finding == "inconsistent_verifier"
    first = res.artifacts["first"]
    for key in ("identity", "turn", "call", "under_the_gate", "in_production"):
        assert f'"{key}"' in first, first
    assert res.elapsed_s < 10, res.elapsed_s
    assert settled(before) == []


def test_honest_environment_passes_with_a_stream_longer_than_production_lives() -> None:
    before = descendants()
    report = run_checks_file(CLEAN, backend=get_backend("process"))
    res = report.get("episode_consistency")
    assert report.passed and res is not None and res.status is CheckStatus.PASSED, \
        report.feedback()
    calls = int(res.reason.split(" ", 1)[0])
    assert calls >= stream_calls(CLEAN.read_text()) > EPISODE_LIFE[1]
    assert res.elapsed_s < 8, res.elapsed_s  # about 2 s on an idle machine
    assert settled(before) == []


def test_episode_env_is_replaced_after_its_drawn_life() -> None:
    before = descendants()
    t0 = time.monotonic()
    served: list[int] = []  # the process's call count seen by each call
    with EpisodeEnv(COUNTING, backend=get_backend("process"), recycle_after=(4, 6)) as env:
        for k in range(30):
            start = env.reset({"n": k % 9 + 1})
            served.append(int((start.observation or "").split()[1].rstrip(":")))
            step = env.step(start.state, str(k % 9 + 1))
            assert step.reward == 1.0
            served.append(int((step.observation or "").split()[1]))
        recycled = env.recycled
    lives, run = [], 0
    for n in served:
        if n == 1 and run:
            lives.append(run)
        run = n
    assert served[0] == 1 and recycled == len(lives) >= 8, served
    assert all(4 <= life <= 6 for life in lives), lives  # each process: a drawn life, no more
    assert len(set(lives)) > 1, lives  # drawn anew for each process
    assert settled(before) == []  # every replaced process ended, and the last one on close
    assert time.monotonic() - t0 < 20


def test_production_life_is_short_for_engines_and_the_gate_outlives_it() -> None:
    plain = CLEAN.read_text()
    engine = (ROOT.parent / "generated_bootcamps" / "handwritten" / "go_game.py").read_text()
    assert episode_life(plain) == EPISODE_LIFE
    low, high = episode_life(engine)
    assert 8 <= low < high < EPISODE_LIFE[0]  # a GNU Go step is ~50 ms
    for code in (plain, engine):
        assert stream_calls(code) > episode_life(code)[1]
