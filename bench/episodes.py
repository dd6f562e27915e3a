"""Benchmark multi-turn bootcamps: what playing and scoring whole episodes in the sandbox costs.

    .venv/bin/python bench/episodes.py [--episodes N] [--sandbox process|bwrap|docker] [--go N]

Side by side in one run, on the shipped Mastermind (engine-free):

* reference episodes played step by step in this process (the class imported: trusted) and
  through a sandboxed method server (:class:`synth.serving.rollout.EpisodeEnv`): steps per second and
  the ratio;
* ``compute_score`` of whole-episode transcripts (the decoded conversation a trainer scores)
  trusted in this process and sandboxed (:func:`synth.training.reward.make_compute_score`), against
  ``compute_score`` of single answers of a single-turn bootcamp (game24) in the sandbox: rows
  per second and what one episode costs in steps;
* with ``--go N``: N reference episodes of go_game, where every step asks GNU Go in the
  sandbox -- the step time an engine bootcamp costs (needs gnugo).

Every sandboxed score is checked against the trusted one.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import setup
from synth.library import Library
from synth.serving.rollout import EpisodeEnv, reference_episode
from synth.training.reward import make_compute_score


def _identities(cls: Any, count: int) -> list[dict[str, Any]]:
    levels = list(cls.LEVELS)
    return [cls.from_level(levels[i % len(levels)], seed=1000 + i).case_generator()
            for i in range(count)]


def _trusted_episode(cls: Any, identity: dict[str, Any]) -> tuple[float, list[str], list[str]]:
    observation, state = cls.reset(identity)
    observations, responses, score = [observation], [], 0.0
    for _ in range(cls.MAX_TURNS):
        action = cls.reference_policy(state)
        reply = cls.step(state, action)
        responses.append(cls.wrap_answer(action))
        state, score = reply["state"], reply["reward"]
        if reply["done"]:
            break
        observations.append(reply["observation"])
    return score, observations, responses


def _transcript(observations: list[str], responses: list[str]) -> str:
    parts = []
    for i, response in enumerate(responses):
        parts.append(f"<|im_start|>assistant\n{response}<|im_end|>\n")
        if i + 1 < len(responses):
            parts.append(f"<|im_start|>user\n{observations[i + 1]}<|im_end|>\n")
    return "".join(parts)


def main() -> None:
    setup()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=60)
    ap.add_argument("--sandbox", default="bwrap", choices=["process", "bwrap", "docker"])
    ap.add_argument("--go", type=int, default=0, help="go_game reference episodes (needs gnugo)")
    args = ap.parse_args()
    lib = Library()
    cls = lib.load_bootcamp("mastermind")
    ids = _identities(cls, args.episodes)

    t0 = time.perf_counter()
    trusted = [_trusted_episode(cls, i) for i in ids]
    trusted_s = time.perf_counter() - t0
    steps = sum(len(r) for _, _, r in trusted)

    with EpisodeEnv.from_library("mastermind", backend=args.sandbox) as env:
        reference_episode(env, ids[0])  # warm
        t0 = time.perf_counter()
        sandboxed = [reference_episode(env, i) for i in ids]
        sandbox_s = time.perf_counter() - t0
    assert [e.score for e in sandboxed] == [s for s, _, _ in trusted]
    sandbox_steps = sum(len(e.turns) for e in sandboxed) + len(ids)  # + a policy call each turn
    print(f"mastermind, {len(ids)} reference episodes, {steps} steps ({args.sandbox}):")
    print(f"  in process (trusted) {steps / trusted_s:9.0f} steps/s")
    print(f"  sandboxed            {steps / sandbox_s:9.0f} steps/s  ({sandbox_s / trusted_s:.2f}x the "
          f"time; {1000 * sandbox_s / (steps + sandbox_steps):.2f} ms per server call)")

    rows = [("bootcamp/mastermind", _transcript(o, r), json.dumps(i))
            for i, (_, o, r) in zip(ids, trusted, strict=True)]
    want = [s for s, _, _ in trusted]
    trusted_fn = make_compute_score(trust_library_code=True)
    sandbox_fn = make_compute_score(backend=args.sandbox)
    try:
        sandbox_fn(*rows[0])  # warm: the servers start
        t0 = time.perf_counter()
        got_trusted = [trusted_fn(*row) for row in rows]
        t_trusted = time.perf_counter() - t0
        t0 = time.perf_counter()
        got_sandbox = [sandbox_fn(*row) for row in rows]
        t_sandbox = time.perf_counter() - t0
        assert got_trusted == got_sandbox == want, "sandboxed and trusted scores differ"
        g24 = lib.load_bootcamp("game24")
        rng = random.Random(3)
        singles = []
        for i in range(len(rows)):
            case = g24.from_level(list(g24.LEVELS)[i % len(g24.LEVELS)], seed=rng.randrange(10**6)).case_generator()
            singles.append(("bootcamp/game24", g24.wrap_answer(g24.reference_answer(case)), json.dumps(case)))
        sandbox_fn(*singles[0])
        t0 = time.perf_counter()
        single_scores = [sandbox_fn(*row) for row in singles]
        t_single = time.perf_counter() - t0
        assert all(s == 1.0 for s in single_scores)
    finally:
        sandbox_fn.close()
    print(f"compute_score, {len(rows)} rows:")
    print(f"  mastermind transcripts, trusted   {len(rows) / t_trusted:8.0f} rows/s")
    print(f"  mastermind transcripts, sandboxed {len(rows) / t_sandbox:8.0f} rows/s  "
          f"({t_sandbox / t_trusted:.1f}x the time of trusted; {steps / len(rows):.1f} steps per episode)")
    print(f"  game24 single answers, sandboxed  {len(rows) / t_single:8.0f} rows/s  "
          f"(an episode costs {t_sandbox / t_single:.1f}x a single answer)")

    if args.go:
        go = lib.load_bootcamp("go_game")
        with EpisodeEnv.from_library("go_game", backend=args.sandbox, step_limit_s=60) as env:
            go_ids = [go.from_level(list(go.LEVELS)[i % len(go.LEVELS)], seed=50 + i).case_generator()
                      for i in range(args.go)]
            times = []
            for identity in go_ids:
                t0 = time.perf_counter()
                ep = reference_episode(env, identity)
                times.append((time.perf_counter() - t0) / max(1, len(ep.turns)))
                assert ep.score == 1.0
        print(f"go_game, {args.go} reference episodes: {statistics.mean(times):.2f} s per turn "
              f"(step + reference_policy, GNU Go in the sandbox; max {max(times):.2f} s)")


if __name__ == "__main__":
    main()
