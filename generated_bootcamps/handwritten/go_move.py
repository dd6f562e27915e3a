"""Hand-written seed bootcamp of bootcamp-synth; task: choose the best move in a Go position,
judged by the GNU Go engine.

A case is a position on a 9x9 or 13x13 board reached by seeded, randomised self-play: the first
plies are random legal moves off the edge (drawn from ``self.rng``), the rest are GNU Go's own
moves at a low level, each drawn by ``self.rng`` among the engine's top three. The level sets the
board size and the game phase (easy: 9x9 opening, medium: 9x9 middle game, hard: 13x13 opening,
expert: 13x13 middle game; an opening has few plies, a middle game many). The model sees the board
as ASCII art with coordinates, the stones captured, the recent moves, whose turn it is and the
points where that side may not play (suicide, ko), and answers with one point in GTP notation
(``D4``; the column letters skip ``I``).

Scoring (``_verify_correction``) asks the engine, started fresh on the position at a fixed
analysis level: an illegal point, a pass or anything that is not a point of the board scores 0;
the engine's own choice (``reg_genmove``) scores 1.0; any other legal move scores the share of
the best move's value it keeps, ``value(move) / value(best)`` in [0, 1] (GNU Go's estimated
move values in points; a move it does not value at all keeps nothing). That is partial credit
by the estimated loss, ``1 - loss / value(best)``.

Results are deterministic for a given engine version and seed (fixed level and random seed, a
fresh engine per position: :mod:`synth.engines`); every case records the engine's version and
scoring refuses to judge a case made with another version.
"""

from __future__ import annotations

import re
from typing import Any

from synth.bootcamp import BaseBootcamp
from synth.engines import EngineError, engine

#: Column letters of a Go board (no I, as GTP and most diagrams write them).
COLUMNS = "ABCDEFGHJKLMNOPQRST"
KOMI = 7.0
#: GNU Go's level for the self-play moves (fast) and for judging (stronger, still quick).
SELFPLAY_LEVEL = 0
ANALYSIS_LEVEL = 1
#: Self-play plies per phase and board size: (fewest, most).
PLIES = {
    ("opening", 9): (4, 10),
    ("middle", 9): (16, 28),
    ("opening", 13): (8, 18),
    ("middle", 13): (30, 46),
}
#: Share of the plies (the first ones) played at random.
RANDOM_SHARE = 0.5
#: The least value (points) the best move must have for a position to be asked.
MIN_BEST_VALUE = 1.0
RECENT_MOVES = 6
MAX_ATTEMPTS = 20
_POINT = re.compile(r"^([A-HJ-T])([1-9][0-9]?)$")


class GoMoveBootcamp(BaseBootcamp):
    """Find the best move for the side to play in a Go position (GNU Go judges)."""

    ENGINES = ("gnugo",)
    LEVELS = {
        "easy": {"size": 9, "phase": "opening"},
        "medium": {"size": 9, "phase": "middle"},
        "hard": {"size": 13, "phase": "opening"},
        "expert": {"size": 13, "phase": "middle"},
    }

    def __init__(self, seed: int | None = None, size: int = 9, phase: str = "opening") -> None:
        """A ``size`` x ``size`` board (9 or 13) in the ``phase`` "opening" or "middle"."""
        super().__init__(seed=seed)
        if size not in (9, 13):
            raise ValueError(f"size must be 9 or 13, got {size}")
        if phase not in ("opening", "middle"):
            raise ValueError(f"phase must be 'opening' or 'middle', got {phase!r}")
        self.size = size
        self.phase = phase

    # -- generation -----------------------------------------------------------------------
    def case_generator(self) -> dict[str, Any]:
        gtp = engine("gnugo")
        lo, hi = PLIES[(self.phase, self.size)]
        for _ in range(MAX_ATTEMPTS):
            moves = self._self_play(gtp, self.rng.randint(lo, hi))
            if moves is None:
                continue
            to_play = "B" if len(moves) % 2 == 0 else "W"
            best, values = _analyse(gtp, self.size, moves, to_play)
            top = values.get(best, 0.0)
            if best == "PASS" or top < MIN_BEST_VALUE or top < max(values.values()):
                continue  # a position whose best move the engine does not value clearly
            black, white = gtp.stones("B"), gtp.stones("W")
            legal = set(gtp.legal_moves(to_play))
            empty = [p for p in _points(self.size) if p not in black and p not in white]
            return {
                "size": self.size,
                "phase": self.phase,
                "komi": KOMI,
                "moves": [[c, v] for c, v in moves],
                "to_play": to_play,
                "board": _board_rows(self.size, black, white),
                "captured": {"B": gtp.captures("B"), "W": gtp.captures("W")},
                "forbidden": sorted(p for p in empty if p not in legal),
                "engine": gtp.version(),
                "level": ANALYSIS_LEVEL,
            }
        raise RuntimeError(f"no usable position in {MAX_ATTEMPTS} self-play games")

    def _self_play(self, gtp: Any, plies: int) -> list[tuple[str, str]] | None:
        """``plies`` moves of randomised self-play (None when a side had to pass)."""
        gtp.new_game(self.size, KOMI, level=SELFPLAY_LEVEL)
        moves: list[tuple[str, str]] = []
        random_plies = round(plies * RANDOM_SHARE)
        for ply in range(plies):
            color = "B" if ply % 2 == 0 else "W"
            if ply < random_plies:
                inner = [p for p in gtp.legal_moves(color) if not _on_edge(p, self.size)]
                if not inner:
                    return None
                move = self.rng.choice(sorted(inner))
            else:
                top = [m for m, _ in gtp.top_moves(color)[:3]]
                if not top:
                    return None
                move = top[0] if self.rng.random() < 0.5 else self.rng.choice(top)
            gtp.play(color, move)
            moves.append((color, move))
        return moves

    # -- the prompt -----------------------------------------------------------------------
    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        size, to_play = identity["size"], identity["to_play"]
        side = "Black" if to_play == "B" else "White"
        mark = "X" if to_play == "B" else "O"
        letters = COLUMNS[:size]
        header = "    " + " ".join(letters)
        lines = [header]
        for i, row in enumerate(identity["board"]):
            number = size - i
            lines.append(f"{number:>3} " + " ".join(row) + f" {number}")
        lines.append(header)
        moves = identity["moves"]
        recent = [f"{n + 1}. {'Black' if c == 'B' else 'White'} {v}"
                  for n, (c, v) in enumerate(moves)][-RECENT_MOVES:]
        forbidden = identity["forbidden"]
        return "\n".join([
            f"A game of Go on a {size}x{size} board (Japanese rules, komi {identity['komi']:g} "
            "for White). Black stones are X, white stones are O, empty points are '.'. "
            f"Columns are the letters {letters[0]} to {letters[-1]} from left to right (there is "
            f"no I), rows are numbered 1 to {size} from the bottom.",
            "",
            *lines,
            "",
            f"Moves played so far: {len(moves)}. The last ones: " + "; ".join(recent) + ".",
            f"Stones captured: Black has taken {identity['captured']['B']}, White has taken "
            f"{identity['captured']['W']}.",
            f"It is {side}'s turn ({mark}). "
            + (f"{side} may not play at {', '.join(forbidden)} (suicide or ko). "
               if forbidden else "")
            + f"Which move is best for {side}?",
            "",
            "Answer with one empty point in GTP notation, the column letter then the row number "
            f"(for example {letters[3]}4), inside answer tags: <answer>{letters[3]}4</answer>. "
            "A pass is not an answer. A move scores 1 when it is the engine's choice and less "
            "the more of that move's value it gives away.",
        ])

    # -- the answer and the score ---------------------------------------------------------
    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        gtp = _engine_for(identity)
        best, _ = _analyse(gtp, identity["size"], _moves(identity), identity["to_play"],
                           komi=identity["komi"], level=identity["level"])
        return best

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        move = _parse_point(solution, identity["size"])
        if move is None:
            return False  # not a point of the board (a pass included)
        gtp = _engine_for(identity)
        color = identity["to_play"]
        best, values = _analyse(gtp, identity["size"], _moves(identity), color,
                                komi=identity["komi"], level=identity["level"])
        if not gtp.is_legal(color, move):
            return False
        if move == best:
            return True
        top = values.get(best, 0.0)
        if top <= 0:
            return False
        return round(max(0.0, min(1.0, values.get(move, 0.0) / top)), 4)


def _engine_for(identity: dict[str, Any]) -> Any:
    """The engine, when it is the version that made the case (else the score would differ)."""
    gtp = engine("gnugo")
    running = gtp.version()
    if identity.get("engine") != running:
        raise EngineError(f"the case was made with {identity.get('engine')!r}; this engine is "
                          f"{running!r}: scores are reproducible only with the same version")
    return gtp


def _analyse(gtp: Any, size: int, moves: list[tuple[str, str]], color: str,
             komi: float = KOMI, level: int = ANALYSIS_LEVEL) -> tuple[str, dict[str, float]]:
    """(the engine's move for ``color``, every valued move's value) on a fresh engine."""
    gtp.new_game(size, komi, moves, level=level)
    best = gtp.reg_genmove(color)
    return best, gtp.move_values()


def _moves(identity: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(c), str(v)) for c, v in identity["moves"]]


def _parse_point(text: str, size: int) -> str | None:
    """``text`` as a point of the board (``d4`` -> ``D4``), or None."""
    found = _POINT.match(text.strip().upper().replace(" ", ""))
    if found is None:
        return None
    column, row = found.group(1), int(found.group(2))
    if COLUMNS.index(column) >= size or not 1 <= row <= size:
        return None
    return f"{column}{row}"


def _points(size: int) -> list[str]:
    return [f"{c}{r}" for r in range(size, 0, -1) for c in COLUMNS[:size]]


def _on_edge(point: str, size: int) -> bool:
    column, row = COLUMNS.index(point[0]), int(point[1:])
    return column in (0, size - 1) or row in (1, size)


def _board_rows(size: int, black: list[str], white: list[str]) -> list[str]:
    """The board as text rows, top (row ``size``) first: X black, O white, . empty."""
    taken = {p: "X" for p in black} | {p: "O" for p in white}
    return ["".join(taken.get(f"{c}{r}", ".") for c in COLUMNS[:size])
            for r in range(size, 0, -1)]
