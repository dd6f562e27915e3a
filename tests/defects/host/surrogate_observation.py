"""Host-limit corpus of bootcamp-synth (a lone surrogate in an observation): the clean
guess-the-number game, except that from the third turn on the feedback ends in U+DC80, which no
UTF-8 writer takes."""

from __future__ import annotations

from typing import Any

from synth.bootcamp import MultiTurnBootcamp


def _par(top: int) -> int:
    """Guesses a halving search needs at most for 1..top."""
    return top.bit_length()


class GuessNumberBootcamp(MultiTurnBootcamp):
    """Guess the secret number; each wrong guess is told whether the secret is higher."""

    MAX_TURNS = 12
    LEVELS = {"easy": {"top": 100}, "hard": {"top": 1000}}

    def __init__(self, seed: int | None = None, top: int = 100) -> None:
        super().__init__(seed=seed)
        if not 2 <= top <= 2000:
            raise ValueError(f"top must be in 2..2000, got {top}")
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        return {"top": self.top, "secret": self.rng.randint(1, self.top)}

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        state = {"top": identity["top"], "secret": identity["secret"], "low": 1,
                 "high": identity["top"], "turns": 0, "done": False, "reward": 0.0}
        return cls._prompt(state, "I have chosen a secret number."), state

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        new = dict(state, turns=state["turns"] + 1)
        text = action.strip()
        guess = int(text) if text.isdigit() and len(text) <= 6 else None
        if guess == new["secret"]:
            par = _par(new["top"])
            new["reward"] = 1.0 if new["turns"] <= par else \
                (cls.MAX_TURNS + 1 - new["turns"]) / (cls.MAX_TURNS + 1 - par)
            new["done"] = True
            return {"observation": None, "reward": new["reward"], "done": True, "state": new}
        if guess is None:
            note = "That was not a whole number: the turn is used up."
        elif guess < new["secret"]:
            new["low"] = max(new["low"], guess + 1)
            note = f"{guess} is too low."
        else:
            new["high"] = min(new["high"], guess - 1)
            note = f"{guess} is too high."
        if new["turns"] >= 3:
            note += chr(0xDC80)
        if new["turns"] >= cls.MAX_TURNS:
            new["done"] = True
            return {"observation": None, "reward": 0.0, "done": True, "state": new}
        return {"observation": cls._prompt(new, note), "reward": 0.0, "done": False, "state": new}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        return str((state["low"] + state["high"]) // 2)

    @classmethod
    def _prompt(cls, state: dict[str, Any], note: str) -> str:
        return (f"{note} It is a whole number from 1 to {state['top']}. You have "
                f"{cls.MAX_TURNS - state['turns']} of {cls.MAX_TURNS} guesses left; finding it "
                f"within {_par(state['top'])} guesses scores full marks. Give one guess as a "
                "number inside <answer></answer>, e.g. <answer>7</answer>.")
