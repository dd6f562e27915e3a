"""The documented rollout loop (synth.serving.rollout) plays full Mastermind episodes against a scripted
model behind the fake OpenAI server on 127.0.0.1; every score equals an independent replay, and
exported multi-turn rows carry what a rollout needs."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import openai
import pytest
from fakes.openai_server import FakeOpenAI, Reply, Request
from helpers import mastermind_feedback as _feedback
from helpers import mastermind_score as _expected

from synth.serving.rollout import EpisodeEnv, RolloutError, replay, rollout
from synth.training.export import ExportConfig, export

_SIZES = re.compile(r"secret code of (\d+) pegs; each peg is one of (\d+) colours")
_GUESS = re.compile(r"^\s+\d+\. ([\d ]+) -> (\d+) black, (\d+) white$", re.MULTILINE)


class Player:
    """A scripted model: reads the observation's rules and guesses so far, answers with a code
    consistent with them (picked at random: not the reference policy's order). Some replies are
    deliberately bad: no answer tags at all (turn 2 of odd games), or prose around the tags."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, request: Request) -> Reply:
        text = request.last_user
        sizes = _SIZES.search(text)
        assert sizes, text
        length, colours = int(sizes.group(1)), int(sizes.group(2))
        told = [(tuple(map(int, g.split())), (int(b), int(w))) for g, b, w in _GUESS.findall(text)]
        turn = text.count("\n  ") + 1
        if turn == 2 and self.rng.random() < 0.5:
            return Reply(text="I am not sure yet, let me think about it.")
        codes = list(itertools.product(range(1, colours + 1), repeat=length))
        self.rng.shuffle(codes)
        guess = next(c for c in codes if all(_feedback(c, g) == f for g, f in told))
        return Reply(text=f"Thinking...\n<answer>{' '.join(map(str, guess))}</answer>")


def _identities(level: str, count: int) -> list[dict[str, Any]]:
    rng = random.Random(level)
    spec = {"easy": (3, 4, 8, 6), "medium": (4, 6, 12, 9)}[level]
    return [{"game": f"{rng.randrange(16**8):08x}", "length": spec[0], "colours": spec[1],
             "max_guesses": spec[2], "par": spec[3],
             "secret": [rng.randint(1, spec[1]) for _ in range(spec[0])]} for _ in range(count)]


def test_rollout_scores_equal_an_independent_replay() -> None:
    async def play(env: EpisodeEnv, server: FakeOpenAI, ids: list[dict[str, Any]]) -> list[Any]:
        async with openai.AsyncOpenAI(base_url=server.base_url, api_key="sk-fake") as client:
            return [await rollout(env, identity, client, model="scripted", temperature=0.0)
                    for identity in ids]

    identities = _identities("easy", 6) + _identities("medium", 4)
    with FakeOpenAI(Player(seed=3)) as server, EpisodeEnv.from_library(
            "mastermind", backend="process") as env:
        results = asyncio.run(play(env, server, identities))
        assert len(server.history) == sum(len(r.turns) for r in results)
        with EpisodeEnv.from_library("mastermind", backend="process") as fresh:
            for identity, res in zip(identities, results, strict=True):
                assert res.done
                assert res.score == replay(fresh, identity, res.actions)
                assert res.score == pytest.approx(_expected(identity, res.actions))
                assert 0.0 <= res.score <= 1.0
    assert any(r.score == 1.0 for r in results)
    missing = [t for r in results for t in r.turns if t.action == ""]
    assert missing, "some scripted replies carried no answer: the loop passes them on as ''"
    first = results[0]
    # the conversation: the first prompt is reset's observation, one user turn per step
    assert first.messages[0]["role"] == "user" and "Mastermind" in first.messages[0]["content"]
    assert [m["role"] for m in first.messages] == ["user", "assistant"] * len(first.turns)
    assert "score:" in first.transcript()
    # history="full" sends the whole conversation each turn
    sent = [len(req.messages) for req in server.history[: len(first.turns)]]
    assert sent == [1 + 2 * k for k in range(len(first.turns))]


def test_rollout_with_the_last_observation_only_and_a_turn_cap() -> None:
    identity = _identities("medium", 1)[0]

    async def play(server: FakeOpenAI) -> Any:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="sk-fake")
        try:
            return await rollout("mastermind", json.dumps(identity), client, model="scripted",
                                 history="last", system="Play well.", max_turns=2,
                                 backend="process")
        finally:
            await client.close()

    with FakeOpenAI(lambda req: Reply(text="<answer>1 1 1 1</answer>")) as server:
        res = asyncio.run(play(server))
    assert len(res.turns) == 2 and not res.done and res.score == 0.0
    assert all(len(req.messages) == 2 for req in server.history)  # system + the observation
    assert server.history[1].messages[1]["content"] == res.turns[1].observation


def test_rollout_refuses_a_single_turn_bootcamp_and_a_bad_identity() -> None:
    with pytest.raises(RolloutError, match="not a multi-turn bootcamp"):
        EpisodeEnv.from_library("game24", backend="process").start()
    with EpisodeEnv.from_library("mastermind", backend="process") as env, \
            pytest.raises(RolloutError, match="not a case"):
        env.reset("[1, 2]")


def test_export_marks_multi_turn_rows(tmp_path: Path) -> None:
    cfg = ExportConfig(out=tmp_path / "out", bootcamps=["mastermind", "game24"],
                       per_bootcamp=12, test_per_bootcamp=4, seed=5, sandbox="process")
    export(cfg)
    rows = [json.loads(line) for split in ("train", "test")
            for line in (tmp_path / "out" / f"{split}.jsonl").read_text().splitlines()]
    multi = [r for r in rows if r["extra_info"]["bootcamp"] == "mastermind"]
    single = [r for r in rows if r["extra_info"]["bootcamp"] == "game24"]
    assert len(multi) == 16 and len(single) == 16
    for row in multi:
        info = row["extra_info"]
        assert info["multi_turn"] is True and info["max_turns"] == 14
        identity = json.loads(row["reward_model"]["ground_truth"])
        assert identity["game"] in row["prompt"][0]["content"]
    assert all(set(r["extra_info"]) == {"bootcamp", "level", "seed", "index", "split"}
               for r in single)
    # an exported row is enough to play its episode
    row = multi[0]
    with EpisodeEnv.from_library("mastermind", backend="process") as env:
        start = env.reset(row["reward_model"]["ground_truth"])
        assert start.observation == row["prompt"][0]["content"]
