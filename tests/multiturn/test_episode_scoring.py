"""Multi-turn rows are scored as whole episodes: the reward (``synth.training.reward``, sandboxed and
trusted) replays a trainer's decoded conversation turn by turn, and the acceptance filter plays
whole episodes with the solver. Every score is compared with one computed by the game's stated
rules, without the bootcamp."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import descendants, make_library, new_descendants
from helpers import mastermind_feedback as _pegs
from helpers import mastermind_score as _rule_score

from filters.self_consistency import FilterConfig, run_filter
from synth.bootcamp import BaseBootcamp
from synth.library import Library
from synth.serving.rollout import (
    EXTRA_REPLAY_STEPS,
    EpisodeEnv,
    replay,
    replay_transcript,
    score_transcript,
)
from synth.training import reward

DEFECTS = Path(__file__).resolve().parents[1] / "defects" / "multiturn"
_RULES = re.compile(r"secret code of (\d+) pegs; each peg is one of (\d+) colours")
_TOLD = re.compile(r"^\s+\d+\. ([\d ]+) -> (\d+) black, (\d+) white$", re.MULTILINE)


class Guesser:
    """A scripted player: a random code consistent with the feedback so far. Some turns are
    written badly on purpose: no answer at all, or a first answer it then corrects (the turn's
    last answer is the action)."""

    def __init__(self, seed: int, sloppy: bool = True, blind: bool = False) -> None:
        self.rng = random.Random(seed)
        self.sloppy = sloppy
        self.blind = blind  # ignores the feedback: loses most games

    def __call__(self, observation: str) -> str:
        rules = _RULES.search(observation)
        assert rules, observation[:200]
        length, colours = int(rules.group(1)), int(rules.group(2))
        told = [(tuple(map(int, g.split())), (int(b), int(w))) for g, b, w in _TOLD.findall(observation)]
        codes = list(itertools.product(range(1, colours + 1), repeat=length))
        self.rng.shuffle(codes)
        fits = codes if self.blind else [c for c in codes if all(_pegs(c, g) == f for g, f in told)]
        guess = " ".join(map(str, fits[0]))
        roll = self.rng.random() if self.sloppy else 1.0
        if roll < 0.12:
            return "Let me think about the feedback first."
        if roll < 0.3:
            first = " ".join("1" for _ in range(length))
            return f"Maybe <answer>{first}</answer>... no, better:\n<answer>{guess}</answer>"
        return f"The feedback allows it.\n<answer>{guess}</answer>"


def _play(env: EpisodeEnv, identity: dict[str, Any], player: Guesser) -> tuple[list[str], list[str], list[str]]:
    """(observations, responses, actions) of one episode played through the sandboxed env."""
    start = env.reset(identity)
    observation, state = start.observation or "", start.state
    observations, responses, actions = [], [], []
    for turn in range(1, env.max_turns + 1):
        response = player(observation)
        action = BaseBootcamp.extract_output(response) or ""
        observations.append(observation)
        responses.append(response)
        actions.append(action)
        step = env.step(state, action, turn)
        state = step.state
        if step.done:
            break
        observation = step.observation or ""
    return observations, responses, actions


def _chatml(observations: list[str], responses: list[str]) -> str:
    """What a trainer decodes after the prompt: assistant turns with the env's user turns between."""
    parts = []
    for i, response in enumerate(responses):
        parts.append(f"<|im_start|>assistant\n{response}<|im_end|>\n")
        if i + 1 < len(responses):
            parts.append(f"<|im_start|>user\n{observations[i + 1]}<|im_end|>\n")
    return "".join(parts)


def _plain(observations: list[str], responses: list[str]) -> str:
    return "\n\n".join(x for pair in itertools.zip_longest(responses, observations[1:]) for x in pair
                       if x is not None)


def _identities(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    specs = [(3, 4, 8, 6), (4, 6, 12, 9)]
    out = []
    for i in range(count):
        length, colours, top, par = specs[i % 2]
        out.append({"game": f"{rng.randrange(16**8):08x}", "length": length, "colours": colours,
                    "max_guesses": top, "par": par,
                    "secret": [rng.randint(1, colours) for _ in range(length)]})
    return out


def _no_new_children(before: set[int]) -> None:
    left = new_descendants(before)
    assert not left, f"sandbox processes left behind: {left}"


def test_decoded_conversations_score_as_whole_episodes() -> None:
    before = descendants()
    identities = _identities(7, 10)
    games = []
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        for n, identity in enumerate(identities):
            games.append((identity, *_play(env, identity, Guesser(n, blind=n % 3 == 2))))
    expected = [_rule_score(identity, actions) for identity, _, _, actions in games]
    assert 1.0 in expected and any(e < 1.0 for e in expected), expected
    assert any(a == "" for *_, actions in games for a in actions), "some turn gave no answer"
    assert any(r.count("<answer>") == 2 for _, _, responses, _ in games for r in responses)
    sandboxed = reward.make_compute_score(backend="process")
    trusted = reward.make_compute_score(trust_library_code=True)
    found = sum(reward.FINDINGS.values())
    try:
        for (identity, observations, responses, _actions), want in zip(games, expected, strict=True):
            for text in (_chatml(observations, responses), _plain(observations, responses),
                         observations[0] + "\n" + _chatml(observations, responses)):
                truth = json.dumps(identity)
                assert sandboxed("bootcamp/mastermind", text, truth) == pytest.approx(want)
                assert trusted("bootcamp/mastermind", text, identity) == pytest.approx(want)
        # a single response is the episode's first move, not a finished game
        identity = identities[0]
        secret = " ".join(map(str, identity["secret"]))
        wrong = " ".join("9" for _ in identity["secret"])
        for score_fn in (sandboxed, trusted):
            assert score_fn("bootcamp/mastermind", f"<answer>{secret}</answer>", identity) == 1.0
            assert score_fn("bootcamp/mastermind", f"<answer>{wrong}</answer>", identity) == 0.0
            assert score_fn("bootcamp/mastermind", "no answer at all", identity) == 0.0
            assert score_fn("bootcamp/mastermind", None, identity) == 0.0
        # the prompt's own example answer (inside an observation) is never taken as an action
        assert "e.g. <answer>" in games[0][1][0]
    finally:
        sandboxed.close()
    assert sum(reward.FINDINGS.values()) == found
    _no_new_children(before)


def test_the_replay_recovers_each_turn_and_stops_where_the_text_does() -> None:
    identity = _identities(11, 2)[1]  # 4 pegs, 6 colours: games last several turns
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        observations, responses, actions = _play(env, identity, Guesser(5, sloppy=False))
        assert len(actions) >= 3
        score, turns = score_transcript(env, identity, _chatml(observations, responses))
        assert [t.action for t in turns] == actions
        assert score == replay(env, identity, actions) == pytest.approx(_rule_score(identity, actions))
        assert [t.observation for t in turns] == observations
        # cut right after the second observation: the model never answered it
        cut = _chatml(observations, responses)
        cut = cut[: cut.index(observations[1]) + len(observations[1])]
        score, turns = score_transcript(env, identity, cut)
        assert [t.action for t in turns] == actions[:1] and score == 0.0
        # two turns in one response, no observation between them: one turn, its last answer
        merged = responses[0] + "\n" + responses[1]
        score, turns = score_transcript(env, identity, merged)
        assert [t.action for t in turns] == [actions[1]]


def test_a_response_full_of_answers_costs_a_bounded_number_of_steps() -> None:
    identity = _identities(2, 1)[0]
    calls = 0
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        def counted(state: dict[str, Any], action: str, turn: int) -> Any:
            nonlocal calls
            calls += 1
            return env.step(state, action, turn)

        flood = "".join(f"<answer>{i % 4 + 1} {i % 3 + 1} 1</answer> " for i in range(5000))
        t0 = time.monotonic()
        score, turns = replay_transcript(lambda: env.reset(identity), counted, env.max_turns, flood)
        elapsed = time.monotonic() - t0
    assert len(turns) == 1 and calls <= 2 * env.max_turns + EXTRA_REPLAY_STEPS
    assert score == _rule_score(identity, [turns[0].action])
    assert elapsed < 10


def test_a_step_that_breaks_on_a_replayed_action_is_a_finding(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    lib = make_library(tmp_path / "lib",
                       guess_raises=(DEFECTS / "step_raises_garbage.py").read_text())
    identity = {"top": 100, "secret": 37}
    score_fn = reward.make_compute_score(lib.root, backend="process")
    trusted = reward.make_compute_score(lib.root, trust_library_code=True)
    before = reward.FINDINGS["guess_raises"]
    text = "<answer>50</answer>\n\n50 is too high.\n\n<answer>twenty</answer>"
    try:
        with caplog.at_level(logging.ERROR, logger="synth.training.reward"):
            assert score_fn("bootcamp/guess_raises", "<answer>37</answer>", identity) == 1.0
            assert score_fn("bootcamp/guess_raises", text, identity) == 0.0
            assert trusted("bootcamp/guess_raises", text, identity) == 0.0
    finally:
        score_fn.close()
    assert reward.FINDINGS["guess_raises"] == before + 2
    logged = [r.getMessage() for r in caplog.records]
    assert any("broke the contract" in m and "twenty" in m for m in logged), logged
    assert any("ValueError" in m for m in logged), logged


def _mastermind_code() -> str:
    return Library().checked_code("mastermind")[1]


def test_the_filter_plays_whole_episodes_with_the_solver() -> None:
    before = descendants()
    players: dict[str, Guesser] = {}
    asked: list[int] = []

    async def chat(messages: list[dict[str, str]]) -> str:
        asked.append(len(messages))
        game = messages[0]["content"][:80]
        player = players.setdefault(game, Guesser(len(players)))
        return player(messages[-1]["content"])

    async def solve(prompt: str) -> str:  # never used when chat is given
        raise AssertionError("the filter asked solve() although chat() was given")

    cfg = FilterConfig(samples=9, seed=4, early_stop=False, pool_size=2, solver_concurrency=3)
    res = asyncio.run(run_filter(_mastermind_code(), solve, chat=chat, config=cfg, backend="process"))
    assert res.answered == 9 and len(res.samples) == 9, res.reason
    assert set(res.level_counts) == {"easy", "medium", "hard"}
    assert max(asked) > 1 and all(n % 2 == 1 for n in asked)  # the conversation so far, then the observation
    scores = []
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        for rec in res.samples:
            assert rec.episode and rec.identity and rec.outcome == "passed"
            identity = json.loads(rec.identity)
            actions = [t.action for t in rec.episode]
            assert rec.episode[-1].done or len(actions) == env.max_turns
            assert rec.score == pytest.approx(_rule_score(identity, actions))
            assert rec.score == replay(env, identity, actions)
            scores.append(rec.score)
    assert res.pass_rate == pytest.approx(sum(scores) / len(scores))
    assert sum(asked) > 0 and len(asked) == sum(len(r.episode or []) for r in res.samples)
    # without chat, solve() sees each observation alone (Mastermind's state it in full)
    alone: list[str] = []

    async def solve_alone(prompt: str) -> str:
        alone.append(prompt)
        return Guesser(len(alone))(prompt)

    res2 = asyncio.run(run_filter(_mastermind_code(), solve_alone, config=cfg, backend="process"))
    assert res2.answered == 9 and len(alone) == sum(len(r.episode or []) for r in res2.samples)
    _no_new_children(before)


def test_the_filter_reports_a_breaking_environment_and_failing_solver(tmp_path: Path) -> None:
    before = descendants()
    code = (DEFECTS / "step_raises_garbage.py").read_text()

    async def garbage(messages: list[dict[str, str]]) -> str:
        return "<answer>fifty</answer>" if len(messages) > 2 else "<answer>50</answer>"

    async def unused(prompt: str) -> str:
        raise AssertionError

    cfg = FilterConfig(samples=4, seed=1, pool_size=1)
    res = asyncio.run(run_filter(code, unused, chat=garbage, config=cfg, backend="process"))
    assert res.verdict == "verifier_error", res.reason
    assert "turn 2" in res.reason and "fifty" in res.reason, res.reason
    bad = [r for r in res.samples if r.outcome == "error"]
    assert bad and "ValueError" in bad[0].error

    calls = 0

    async def flaky(messages: list[dict[str, str]]) -> str:
        nonlocal calls
        calls += 1
        if len(messages) > 1:
            raise ConnectionError("the solver endpoint went away")
        return "<answer>1 1 1</answer>"

    res = asyncio.run(run_filter(_mastermind_code(), unused, chat=flaky, config=cfg, backend="process"))
    assert res.verdict == "solver_error" and "solver episodes failed" in res.reason
    assert all(r.outcome == "solver_error" and "turn 2" in r.error for r in res.samples)
    _no_new_children(before)
