"""Hand-written seed bootcamp of bootcamp-synth; task: Mastermind, a multi-turn guessing game.

A secret code of ``length`` pegs, each one of ``colours`` colours (written as the digits
``1``..``colours``; a colour may repeat), is drawn from the seed. Each turn the player guesses
a code and is told how many pegs are the right colour in the right place (black) and how many
more are the right colour in the wrong place (white). The episode ends when the code is found
or the ``max_guesses`` turns are used up.

Score: 1.0 for finding the code within ``par`` guesses, partial credit for each guess beyond it
(``(max_guesses + 1 - g) / (max_guesses + 1 - par)`` when found at guess ``g``), 0.0 when it is
never found. An illegal guess (wrong length, a digit outside the colours, any other text, no
answer at all) is answered with a note and uses up its turn: there is no credit for it.

The reference policy plays the first code, in the fixed order of all codes, that is consistent
with every feedback so far (the scan resumes after the last legal guess: every code before it
was already ruled out). Its worst case over every secret was counted exhaustively for each
level (``tests/bootcamps/test_mastermind.py`` counts it again): 6 guesses for 3 pegs of 4
colours, 9 for 4 pegs of 6 colours, 11 for 5 pegs of 6 colours -- each level's ``par``, so the
reference policy always scores 1.0.
"""

from __future__ import annotations

from typing import Any

from synth.bootcamp import MultiTurnBootcamp

#: Longer actions are illegal unread (a guess is a few digits).
MAX_ACTION_CHARS = 200
#: The reference policy's worst case, by (length, colours), counted over every secret.
REFERENCE_WORST_CASE = {(3, 4): 6, (4, 6): 9, (5, 6): 11}


def feedback(secret: list[int], guess: list[int]) -> tuple[int, int]:
    """(black, white): right colour in the right place, right colour in the wrong place."""
    black = 0
    left = [0] * 10  # colours of the secret's unmatched pegs
    right = [0] * 10  # and of the guess's
    for a, b in zip(secret, guess, strict=True):
        if a == b:
            black += 1
        else:
            left[a] += 1
            right[b] += 1
    return black, sum(map(min, left, right))


def parse_guess(action: str, length: int, colours: int) -> list[int] | None:
    """The guess in ``action`` (digits, optionally separated by spaces or commas), or None when
    it is not a legal code of this game."""
    if type(action) is not str or len(action) > MAX_ACTION_CHARS:
        return None
    text = action.replace(",", " ").split()
    digits = "".join(text)
    if len(digits) != length or not all(ch in "123456789"[:colours] for ch in digits):
        return None
    return [int(ch) for ch in digits]


def _code_text(code: list[int]) -> str:
    return " ".join(str(c) for c in code)


class MastermindBootcamp(MultiTurnBootcamp):
    """Find the secret code from black/white feedback within a limited number of guesses."""

    MAX_TURNS = 14
    LEVELS = {
        "easy": {"length": 3, "colours": 4, "max_guesses": 8},
        "medium": {"length": 4, "colours": 6, "max_guesses": 12},
        "hard": {"length": 5, "colours": 6, "max_guesses": 14},
    }

    def __init__(self, seed: int | None = None, length: int = 4, colours: int = 6,
                 max_guesses: int = 12) -> None:
        """``length`` pegs of ``colours`` colours; ``max_guesses`` turns, at least the reference
        policy's worst case for that size (which is the level's par)."""
        super().__init__(seed=seed)
        if (length, colours) not in REFERENCE_WORST_CASE:
            sizes = ", ".join(f"{n}x{k}" for n, k in REFERENCE_WORST_CASE)
            raise ValueError(f"(length, colours) must be one of {sizes} (the sizes whose "
                             f"reference worst case is counted), got {length}x{colours}")
        par = REFERENCE_WORST_CASE[(length, colours)]
        if not par <= max_guesses <= self.MAX_TURNS:
            raise ValueError(f"max_guesses must be in {par}..{self.MAX_TURNS}, got {max_guesses}")
        self.length = length
        self.colours = colours
        self.max_guesses = max_guesses

    def case_generator(self) -> dict[str, Any]:
        secret = [self.rng.randint(1, self.colours) for _ in range(self.length)]
        game = f"{self.rng.randrange(16**8):08x}"  # names the episode; the secret is hidden
        return {"game": game, "length": self.length, "colours": self.colours,
                "max_guesses": self.max_guesses,
                "par": REFERENCE_WORST_CASE[(self.length, self.colours)], "secret": secret}

    # -- the episode ---------------------------------------------------------------------------

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        state = {"game": identity["game"], "length": identity["length"], "colours": identity["colours"],
                 "max_guesses": identity["max_guesses"], "par": identity["par"],
                 "secret": list(identity["secret"]), "history": [], "done": False,
                 "reward": 0.0}
        return cls._observation(state, ""), state

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        new = dict(state, history=[list(h) for h in state["history"]])
        guess = parse_guess(action, state["length"], state["colours"])
        if guess is None:
            new["history"].append([None, 0, 0])
            note = (f"Your last answer was not a legal guess: write exactly {state['length']} "
                    f"digits from 1 to {state['colours']}. That turn is used up.")
        else:
            black, white = feedback(state["secret"], guess)
            new["history"].append([guess, black, white])
            note = ""
            if black == state["length"]:
                used = len(new["history"])
                new["done"] = True
                new["reward"] = cls._score(used, state["par"], state["max_guesses"])
                return {"observation": None, "reward": new["reward"], "done": True, "state": new}
        if len(new["history"]) >= state["max_guesses"]:
            new["done"] = True
            return {"observation": None, "reward": 0.0, "done": True, "state": new}
        return {"observation": cls._observation(new, note), "reward": 0.0, "done": False,
                "state": new}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        length, colours = state["length"], state["colours"]
        known = [(h[0], (h[1], h[2])) for h in state["history"] if h[0] is not None]
        start = cls._index(known[-1][0], colours) + 1 if known else 0
        for index in range(start, colours**length):
            code = cls._code(index, length, colours)
            if all(feedback(code, guess) == told for guess, told in known):
                return _code_text(code)
        return _code_text([1] * length)  # not reached: the secret is always consistent

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _score(used: int, par: int, max_guesses: int) -> float:
        if used <= par:
            return 1.0
        return (max_guesses + 1 - used) / (max_guesses + 1 - par)

    @staticmethod
    def _index(code: list[int], colours: int) -> int:
        index = 0
        for c in code:
            index = index * colours + (c - 1)
        return index

    @staticmethod
    def _code(index: int, length: int, colours: int) -> list[int]:
        code = []
        for _ in range(length):
            index, digit = divmod(index, colours)
            code.append(digit + 1)
        return code[::-1]

    @staticmethod
    def _observation(state: dict[str, Any], note: str) -> str:
        length, colours = state["length"], state["colours"]
        used = len(state["history"])
        lines = [
            f"We are playing Mastermind (game {state['game']}). I have chosen a secret code of {length} pegs; each peg "
            f"is one of {colours} colours, written as the digits 1 to {colours} (a colour may "
            "appear more than once).",
            "After each guess I say how many pegs are the right colour in the right place "
            "(black) and how many more are a right colour in the wrong place (white).",
            f"You have {state['max_guesses']} guesses in all. Finding the code within "
            f"{state['par']} guesses scores full marks; each later guess scores less, and an "
            "illegal guess uses up its turn.",
        ]
        if state["history"]:
            lines.append("Guesses so far:")
            for n, (guess, black, white) in enumerate(state["history"], 1):
                shown = _code_text(guess) if guess is not None else "(illegal guess)"
                lines.append(f"  {n}. {shown}" + (f" -> {black} black, {white} white"
                                                  if guess is not None else ""))
        if note:
            lines.append(note)
        lines.append(f"Guess {used + 1} of {state['max_guesses']}: give your guess as "
                     f"{length} digits separated by spaces inside <answer></answer>, e.g. "
                     f"<answer>{_code_text([1 + (i % colours) for i in range(length)])}</answer>.")
        return "\n".join(lines)
