"""Hand-written seed bootcamp of bootcamp-synth; task: play a short game of Go against the GNU Go
engine (multi-turn), scored by the engine's estimate of the result.

An episode starts from a 9x9 position reached by seeded, randomised self-play (two random
moves off the edge, then GNU Go's own moves, as in ``go_move``). The model plays the side to
move for ``turns`` moves; after each of its moves the engine answers at a fixed, low level. Each
step's observation shows the board, the moves so far and the engine's answer. The levels set
the number of moves and how far the opening has gone (easy: 2 moves after 4-5 plies, medium: 3
after 6-7, hard: 5 after 8-9).

Score: after every answered move the engine estimates the score (``estimate_score``, from the
model's side). The *reference line* is the same number of moves played by GNU Go itself at a
stronger level against the same opponent, from the same start; its estimates are computed when
the case is generated and kept in the case. The reward so far is ``1.0`` when the model's
estimate is no worse than the reference line's after as many moves, and falls linearly to 0 at
``POINTS_TO_ZERO`` points worse; the final score is the reward after the last move. Before the
last move, a game off the reference line earns at most ``PROVISIONAL_MAX`` (another move may
turn out as good, but only the end shows it), so the single-turn view -- an answer scored as the
first move -- gives 1.0 to the reference move only. An illegal move, a pass or anything that is
not a point of the board ends the game with score 0.

``reference_policy`` is GNU Go's move at the reference level: following it reproduces the
reference line exactly (a fresh engine with fixed settings for every position,
:mod:`synth.engines`), so it scores 1.0. Results are deterministic for a given engine version and
seed; a case made with another version is refused.
"""

from __future__ import annotations

import re
from typing import Any

from synth.bootcamp import MultiTurnBootcamp
from synth.engines import EngineError, engine

COLUMNS = "ABCDEFGHJKLMNOPQRST"
SIZE = 9
KOMI = 7.0
SELFPLAY_LEVEL = 0
#: GNU Go's level as the opponent, and as the reference player (stronger).
OPPONENT_LEVEL = 1
REFERENCE_LEVEL = 6
#: How many points worse than the reference line's estimate score 0.
POINTS_TO_ZERO = 5.0
#: The most a game still in progress earns off the reference line (full marks are decided by
#: the final estimate, or by following the reference line).
PROVISIONAL_MAX = 0.9
_POINT = re.compile(r"^([A-HJ-T])([1-9][0-9]?)$")


class GoGameBootcamp(MultiTurnBootcamp):
    """Play a few moves of a 9x9 game against GNU Go; scored by the engine's estimate."""

    ENGINES = ("gnugo",)
    MAX_TURNS = 5
    LEVELS = {
        "easy": {"turns": 2, "opening": 4},
        "medium": {"turns": 3, "opening": 6},
        "hard": {"turns": 5, "opening": 8},
    }

    def __init__(self, seed: int | None = None, turns: int = 3, opening: int = 6) -> None:
        """An episode of ``turns`` moves of the model (1..MAX_TURNS), from a position after
        ``opening`` or one more plies of self-play (2..12)."""
        super().__init__(seed=seed)
        if not 1 <= turns <= self.MAX_TURNS:
            raise ValueError(f"turns must be in 1..{self.MAX_TURNS}, got {turns}")
        if not 2 <= opening <= 12:
            raise ValueError(f"opening must be in 2..12, got {opening}")
        self.turns = turns
        self.opening = opening

    def case_generator(self) -> dict[str, Any]:
        gtp = engine("gnugo")
        gtp.new_game(SIZE, KOMI, level=SELFPLAY_LEVEL)
        moves: list[list[str]] = []
        for ply in range(self.rng.randint(self.opening, self.opening + 1)):
            color = "B" if ply % 2 == 0 else "W"
            if ply < 2:
                inner = [p for p in gtp.legal_moves(color) if not _on_edge(p)]
                move = self.rng.choice(sorted(inner))
            else:
                top = [m for m, _ in gtp.top_moves(color)[:3]] or ["PASS"]
                move = top[0] if self.rng.random() < 0.5 else self.rng.choice(top)
            gtp.play(color, move)
            moves.append([color, move])
        color = "B" if len(moves) % 2 == 0 else "W"
        identity: dict[str, Any] = {"start": moves, "color": color, "turns": self.turns,
                                    "komi": KOMI, "engine": gtp.version(), "reference": [],
                                    "line": []}
        # the reference line: GNU Go at REFERENCE_LEVEL against the same opponent
        _, state = self.reset(identity)
        for _ in range(self.turns):
            move = self.reference_policy(state)
            state, estimate = _advance(state, move)
            identity["reference"].append(estimate)
            identity["line"].append(move)
        return identity

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        _check_version(identity)
        gtp = engine("gnugo")
        moves = [list(m) for m in identity["start"]]
        gtp.new_game(SIZE, identity["komi"], moves)
        state = {"moves": moves, "color": identity["color"], "komi": identity["komi"],
                 "turn": 0, "turns": identity["turns"], "reference": list(identity["reference"]),
                 "line": list(identity["line"]), "played": [],
                 "engine": identity["engine"], "reward": 0.0, "done": False, "last": "",
                 "board": _board(gtp), "captured": _captured(gtp)}
        return _observation(state), state

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        _check_version(state)
        move = _parse_point(action)
        gtp = engine("gnugo")
        legal = False
        if move is not None:
            gtp.new_game(SIZE, state["komi"], state["moves"])
            legal = gtp.is_legal(state["color"], move)
        if not legal:
            ended = {**state, "done": True, "reward": 0.0,
                     "last": f"{action[:20]!r} is not a legal move: the game ends"}
            return {"observation": None, "reward": 0.0, "done": True, "state": ended}
        assert move is not None
        new, estimate = _advance(state, move)
        new["played"] = [*state["played"], move]
        turn = new["turn"]
        reference = new["reference"][turn - 1] if turn - 1 < len(new["reference"]) else estimate
        behind = max(0.0, reference - estimate)
        reward = round(max(0.0, 1.0 - behind / POINTS_TO_ZERO), 4)
        done = turn >= new["turns"]
        if not done and new["played"] != new["line"][:turn]:
            reward = min(reward, PROVISIONAL_MAX)  # off the reference line: the end decides
        new = {**new, "reward": reward, "done": done}
        return {"observation": None if done else _observation(new), "reward": reward,
                "done": done, "state": new}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        gtp = engine("gnugo")
        gtp.new_game(SIZE, state["komi"], state["moves"], level=REFERENCE_LEVEL)
        move = gtp.reg_genmove(state["color"])
        if move in ("PASS", "RESIGN"):  # (never at 9x9 after a few moves; a pass ends the game)
            legal = gtp.legal_moves(state["color"])
            move = legal[0] if legal else "PASS"
        return move


def _advance(state: dict[str, Any], move: str) -> tuple[dict[str, Any], float]:
    """``state`` after the model's (legal) ``move`` and the opponent's answer, and the engine's
    score estimate then, from the model's side."""
    color = state["color"]
    other = "W" if color == "B" else "B"
    gtp = engine("gnugo")
    moves = [*state["moves"], [color, move]]
    gtp.new_game(SIZE, state["komi"], moves, level=OPPONENT_LEVEL)
    answer = gtp.genmove(other)
    moves.append([other, answer])
    lead = gtp.estimate_score()
    estimate = lead if color == "B" else -lead
    new = {**state, "moves": moves, "turn": state["turn"] + 1, "last": answer,
           "board": _board(gtp), "captured": _captured(gtp)}
    return new, round(estimate, 2)


def _check_version(data: dict[str, Any]) -> None:
    running = engine("gnugo").version()
    if data.get("engine") != running:
        raise EngineError(f"the case was made with {data.get('engine')!r}; this engine is "
                          f"{running!r}: scores are reproducible only with the same version")


def _observation(state: dict[str, Any]) -> str:
    color = state["color"]
    side, mark = ("Black", "X") if color == "B" else ("White", "O")
    letters = COLUMNS[:SIZE]
    header = "    " + " ".join(letters)
    rows = [f"{SIZE - i:>3} " + " ".join(row) + f" {SIZE - i}"
            for i, row in enumerate(state["board"])]
    moves = state["moves"]
    recent = [f"{n + 1}. {'Black' if c == 'B' else 'White'} {v}" for n, (c, v) in
              enumerate(moves)][-6:]
    turn, turns = state["turn"], state["turns"]
    news = (f"GNU Go answered your last move with {state['last']}. " if state["last"] else "")
    return "\n".join([
        f"You play {side} ({mark}) in a game of Go on a {SIZE}x{SIZE} board against the GNU Go "
        f"engine (Japanese rules, komi {state['komi']:g} for White). Black stones are X, white "
        f"stones are O, empty points are '.'. Columns are {letters[0]} to {letters[-1]} from "
        f"left to right (there is no I), rows 1 to {SIZE} from the bottom.",
        "",
        header, *rows, header,
        "",
        f"Moves so far: {len(moves)}. The last ones: " + "; ".join(recent) + ".",
        f"Stones captured: Black has taken {state['captured']['B']}, White has taken "
        f"{state['captured']['W']}.",
        f"{news}This is your move {turn + 1} of {turns}. After each of your moves the engine "
        "answers; after your last move and its answer the game is scored by the engine's "
        "estimate of the score, against what the engine's own stronger play would have reached "
        "from the same start. An illegal move or a pass ends the game with score 0.",
        "",
        f"Answer with one empty point in GTP notation (column letter then row number, e.g. "
        f"{letters[2]}3) inside answer tags: <answer>{letters[2]}3</answer>.",
    ])


def _parse_point(text: str) -> str | None:
    found = _POINT.match(text.strip().upper().replace(" ", ""))
    if found is None:
        return None
    column, row = found.group(1), int(found.group(2))
    if COLUMNS.index(column) >= SIZE or not 1 <= row <= SIZE:
        return None
    return f"{column}{row}"


def _on_edge(point: str) -> bool:
    column, row = COLUMNS.index(point[0]), int(point[1:])
    return column in (0, SIZE - 1) or row in (1, SIZE)


def _board(gtp: Any) -> list[str]:
    taken = {p: "X" for p in gtp.stones("B")} | {p: "O" for p in gtp.stones("W")}
    return ["".join(taken.get(f"{c}{r}", ".") for c in COLUMNS[:SIZE])
            for r in range(SIZE, 0, -1)]


def _captured(gtp: Any) -> dict[str, int]:
    return {"B": gtp.captures("B"), "W": gtp.captures("W")}
