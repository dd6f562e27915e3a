"""The hand-written Go move bootcamp (generated_bootcamps/handwritten/go_move.py) against the real
GNU Go: the acceptance numbers (the engine's own best move scores 1.0 on >= 99 % of 200
positions of every level, most of them 9x9 ones: POSITIONS; a random legal move below 0.5 on
average), determinism, the prompt, what scores 0, and sandboxed scores equal to in-process ones
(one position of each level). The positions are drawn once, for every test of the file."""

from __future__ import annotations

import importlib.util
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import cases_in_subprocess, once_per_run, one_at_a_time, worker_pool

from synth import engines
from synth.engines import EngineError
from synth.sandbox.methods import MethodServer

MODULE_PATH = Path(__file__).resolve().parents[2] / "generated_bootcamps/handwritten/go_move.py"
#: The 200 positions of the acceptance criterion, by level. The criterion is about the scoring
#: (GNU Go's own move scores 1.0, a random legal move low), which is the same on every board:
#: most positions are 9x9 ones, and the fewest the 13x13 middle games, whose self-play costs
#: some ten times a 9x9 opening's (measured: 1.4 s of CPU a position, against 0.13 s; 35 of
#: them were over half the CPU of drawing the 200). Every level keeps 20 positions or more.
POSITIONS = {"easy": 70, "medium": 65, "hard": 45, "expert": 20}
#: Positions drawn by one bootcamp instance (its own seed): a level's positions come in chunks
#: that the two engine processes share out, so the costly 13x13 middle games do not all fall
#: on one process.
CHUNK = 5
#: The processes that draw and score the positions: GNU Go's self-play and analysis use one
#: core each, and the machine has two.
WORKERS = 2


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handwritten_go_move", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


go_move = _load()
Bootcamp = go_move.GoMoveBootcamp


class Gtp:
    """The test's own GTP driver: GNU Go started with the registry's command line, fresh for
    every position (independent of synth.engines and of the bootcamp's code)."""

    def __init__(self) -> None:
        spec = engines.REGISTRY["gnugo"]
        program = engines.find_program("gnugo")
        assert program is not None
        self.proc = subprocess.Popen([program, *spec.args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def __call__(self, command: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "\n" and lines:
                break
            lines.append(line.strip())
        answer = " ".join(lines)
        assert answer.startswith("="), (command, answer)
        return answer[1:].strip()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _engine_view(case: dict[str, Any]) -> tuple[str, list[str]]:
    """(GNU Go's own move at the case's analysis level, the legal moves) for the side to play."""
    gtp = Gtp()
    try:
        for command in (f"boardsize {case['size']}", "clear_board", f"komi {case['komi']}",
                        f"level {case['level']}"):
            gtp(command)
        for color, vertex in case["moves"]:
            gtp(f"play {color} {vertex}")
        color = "black" if case["to_play"] == "B" else "white"
        best = gtp(f"reg_genmove {color}").upper()
        legal = gtp(f"all_legal {color}").upper().split()
        return best, legal
    finally:
        gtp.close()


def _score(answer: str, case: dict[str, Any]) -> float:
    return float(Bootcamp.verify_score(Bootcamp.wrap_answer(answer), case))


@contextmanager
def _one_analysis() -> Iterator[None]:
    """Within the block, the bootcamp analyses each position once: its engine move and move
    values are kept (``go_move._analyse``: a fresh engine at a fixed level, so its result
    depends only on the position), and a later score of the same position sets the position
    up on a fresh engine again (for the legality check that follows) without generating the
    move again -- most of the time of a score. Every score is still ``verify_score``'s, from
    the same values a fresh analysis gives."""
    analyse = go_move._analyse
    kept: dict[str, tuple[str, dict[str, float]]] = {}

    def once(gtp: Any, size: int, moves: list[tuple[str, str]], color: str,
             komi: float = go_move.KOMI,
             level: int = go_move.ANALYSIS_LEVEL) -> tuple[str, dict[str, float]]:
        key = repr((size, moves, color, komi, level))
        if key not in kept:
            kept[key] = analyse(gtp, size, moves, color, komi=komi, level=level)
        else:
            gtp.new_game(size, komi, moves, level=level)
        best, values = kept[key]
        return best, dict(values)

    go_move._analyse = once
    try:
        yield
    finally:
        go_move._analyse = analyse


def _pool() -> ProcessPoolExecutor:
    return worker_pool(WORKERS)


def _chunk_positions(chunk: tuple[str, int, int]) -> list[dict[str, Any]]:
    level, seed, count = chunk
    camp = Bootcamp.from_level(level, seed=seed)
    return [camp.case_generator() for _ in range(count)]


def _chunks() -> list[tuple[str, int, int]]:
    """(level, seed, count) of every chunk of the positions, in their order."""
    return [(level, 1000 + 100 * index + k, min(CHUNK, count - start))
            for index, (level, count) in enumerate(POSITIONS.items())
            for k, start in enumerate(range(0, count, CHUNK))]


def _first_chunks() -> dict[str, tuple[int, int]]:
    """Each level's first chunk: {level: (its seed, the index of its first position)}."""
    first: dict[str, tuple[int, int]] = {}
    start = 0
    for level, seed, count in _chunks():
        first.setdefault(level, (seed, start))
        start += count
    return first


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The 200 positions, level by level, each level's drawn in chunks of CHUNK by instances
    of their own seeds (a chunk's cases depend only on its seed), in WORKERS processes; the
    13x13 middle games' chunks are handed out first, so the processes finish together. Once
    per run (helpers.once_per_run): both workers drawing them would be four processes on two
    cores."""
    def draw() -> list[dict[str, Any]]:
        chunks = _chunks()
        start = time.monotonic()
        with one_at_a_time(tmp_path_factory, "gnugo"), _pool() as pool:
            drawn = dict(zip(chunks[::-1], pool.map(_chunk_positions, chunks[::-1]),
                             strict=True))
        out = [case for chunk in chunks for case in drawn[chunk]]
        print(f"\n{len(out)} positions generated in {time.monotonic() - start:.1f}s")
        return out

    return once_per_run(tmp_path_factory, "go-positions", draw)


def _judged(item: tuple[int, dict[str, Any]]) -> tuple[float, float]:
    """(the bootcamp's score of GNU Go's own move, its score of a random legal move -- drawn
    from a generator seeded by the position's index) on one position. GNU Go's own move comes
    from the test's own engine process; the two scores share the bootcamp's one analysis of
    the position (:func:`_one_analysis`)."""
    index, case = item
    best, legal = _engine_view(case)
    with _one_analysis():
        return _score(best, case), _score(random.Random(7_000 + index).choice(legal), case)


def test_acceptance_best_move_scores_one_and_random_moves_score_low(
        positions: list[dict[str, Any]]) -> None:
    start = time.monotonic()
    items = list(enumerate(positions))[::-1]  # the costly 13x13 positions first
    with _pool() as pool:  # each view and each score is a GNU Go process of its own
        judged = dict(zip((i for i, _ in items), pool.map(_judged, items), strict=True))
    best_scores = [judged[i][0] for i in range(len(positions))]
    random_scores = [judged[i][1] for i in range(len(positions))]
    per_level: dict[str, list[float]] = {}
    for case, score in zip(positions, random_scores, strict=True):
        per_level.setdefault(f"{case['size']}x{case['size']}_{case['phase']}", []).append(score)
    ones = sum(1 for s in best_scores if s == 1.0) / len(best_scores)
    random_mean = statistics.mean(random_scores)
    print(f"\nbest move scores 1.0 on {ones:.1%} of {len(best_scores)} positions; a random legal "
          f"move scores {random_mean:.3f} on average "
          f"({', '.join(f'{k} {statistics.mean(v):.3f}' for k, v in per_level.items())}); "
          f"scored in {time.monotonic() - start:.1f}s")
    assert len(best_scores) == 200
    assert ones >= 0.99
    assert random_mean < 0.5


def test_reference_answer_is_the_engines_move(positions: list[dict[str, Any]]) -> None:
    for case in positions[::25]:
        assert Bootcamp.reference_answer(case) == _engine_view(case)[0]


def test_what_scores_zero(positions: list[dict[str, Any]]) -> None:
    for case in positions[::20]:
        size = case["size"]
        occupied = [f"{go_move.COLUMNS[c]}{size - r}" for r, row in enumerate(case["board"])
                    for c, mark in enumerate(row) if mark != "."]
        with _one_analysis():  # the occupied and forbidden points: one analysis of the position
            for answer in ["PASS", "pass", "resign", "", "Z9", f"A{size + 1}", "I5", "D4 D5",
                           "<answer>D4</answer>", "d", "44", "D0", *occupied[:3],
                           *case["forbidden"][:2]]:
                assert _score(answer, case) == 0.0, answer
        assert Bootcamp.verify_score("no answer tags D4", case) == 0.0
        assert _score(Bootcamp.reference_answer(case).lower(), case) == 1.0


def test_cases_are_deterministic_in_another_process(positions: list[dict[str, Any]]) -> None:
    """The first two cases of the cheapest and of the costliest level, drawn again from their
    seed by a fresh interpreter under another PYTHONHASHSEED, are the positions the fixture
    drew (in a worker of this process); another seed draws another case."""
    first = _first_chunks()
    for level in ("easy", "expert"):
        seed, index = first[level]
        there = cases_in_subprocess(MODULE_PATH, "GoMoveBootcamp", seed=seed, count=2,
                                    hash_seed="4242", levels=[level])
        assert there == {level: positions[index:index + 2]}, level
    assert positions[CHUNK] != positions[0]  # the next chunk of "easy": another seed


def test_levels_set_board_size_and_phase(positions: list[dict[str, Any]]) -> None:
    by_level: dict[tuple[int, str], list[int]] = {}
    for case in positions:
        assert case["engine"].startswith("GNU Go 3.")
        by_level.setdefault((case["size"], case["phase"]), []).append(len(case["moves"]))
    assert set(by_level) == {(9, "opening"), (9, "middle"), (13, "opening"), (13, "middle")}
    for size in (9, 13):
        assert max(by_level[(size, "opening")]) < min(by_level[(size, "middle")])
    assert len({tuple(map(tuple, c["moves"])) for c in positions}) == len(positions)


def test_the_prompt_shows_the_position_and_the_answer_format(
        positions: list[dict[str, Any]]) -> None:
    case = positions[-1]
    prompt = Bootcamp.prompt_func(case)
    size = case["size"]
    letters = " ".join(go_move.COLUMNS[:size])
    assert letters in prompt and " I " not in letters
    for r, row in enumerate(case["board"]):
        assert f"{size - r:>3} " + " ".join(row) + f" {size - r}" in prompt
    last_color, last_vertex = case["moves"][-1]
    assert f"{len(case['moves'])}. {'Black' if last_color == 'B' else 'White'} {last_vertex}" \
        in prompt
    side = "Black" if case["to_play"] == "B" else "White"
    assert f"It is {side}'s turn" in prompt
    assert "<answer>" in prompt and "GTP" in prompt


def test_a_case_made_by_another_engine_version_is_refused(
        positions: list[dict[str, Any]]) -> None:
    case = {**positions[0], "engine": "GNU Go 9.9"}
    with pytest.raises(EngineError, match="same version"):
        _score("D4", case)


@pytest.mark.parametrize("backend", ["process", "bwrap"])
def test_sandboxed_scores_equal_in_process_scores(backend: str,
                                                  positions: list[dict[str, Any]]) -> None:
    import json

    code = MODULE_PATH.read_text(encoding="utf-8")
    sample = [positions[index] for _, index in _first_chunks().values()]  # one of each level
    with MethodServer(code, backend=backend) as server:
        assert server.info["engine_status"]["gnugo"]["ok"] is True
        for case in sample:
            text = json.dumps(case, sort_keys=True)
            answer = server.call("answer", {"case_text": text}, timeout_s=20)
            assert answer.ok, answer.error
            assert answer.value == Bootcamp.reference_answer(case)
            for move in (answer.value, *case["forbidden"][:1], "C3", "PASS"):
                reply = server.call("score", {"case_text": text,
                                              "response": Bootcamp.wrap_answer(move)},
                                    timeout_s=20)
                assert reply.ok, reply.error
                assert reply.value["score"] == _score(move, case), move
