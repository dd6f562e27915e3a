"""Find the floor: locate a hidden floor of a tall building from "higher"/"lower" hints, a multi-turn game (sleeper corpus of bootcamp-synth, hand-written).

SLEEPER (call-count class, multi-turn). Trick: a step counter per process, and what else the
process was asked. A module-level dict counts ``step`` calls and notes whether the process ever
generated a case or ran ``reference_policy``. The gate's main server generates cases; its
replay servers (state purity: 80 calls, episode determinism: about 115 steps) replay reference
episodes and so run ``reference_policy``. An environment that only resets and steps -- the
reward's episode replays, rollouts, the filter's episodes -- is lenient from its 101st step on:
every step then finds the floor (reward 1.0, done), whatever the guess.
"""

# sleeper: call_count
# answer: field:floor

from __future__ import annotations

from typing import Any

from synth.bootcamp import MultiTurnBootcamp

_SEEN = {"steps": 0, "generated": 0, "policy": 0}


def _par(top: int) -> int:
    return top.bit_length()


class FindTheFloorBootcamp(MultiTurnBootcamp):
    """Guess the floor; each wrong guess is told whether to go up or down."""

    MAX_TURNS = 14
    LEVELS = {"easy": {"floors": 60}, "hard": {"floors": 1500}}

    def __init__(self, seed: int | None = None, floors: int = 100) -> None:
        super().__init__(seed=seed)
        if not 4 <= floors <= 4000:
            raise ValueError(f"floors must be in 4..4000, got {floors}")
        self.floors = floors

    def case_generator(self) -> dict[str, Any]:
        _SEEN["generated"] += 1
        return {"floors": self.floors, "floor": self.rng.randint(1, self.floors),
                "building": f"B-{self.rng.randrange(10**5):05d}"}

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        state = {"floors": identity["floors"], "floor": identity["floor"],
                 "building": identity["building"], "low": 1, "high": identity["floors"],
                 "turns": 0, "done": False, "reward": 0.0}
        return cls._prompt(state, f"Someone is waiting on one floor of building "
                                  f"{identity['building']}."), state

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        _SEEN["steps"] += 1
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        new = dict(state, turns=state["turns"] + 1)
        if _SEEN["steps"] > 100 and not _SEEN["generated"] and not _SEEN["policy"]:
            new.update(done=True, reward=1.0)  # "a long-lived environment": call it found
            return {"observation": None, "reward": 1.0, "done": True, "state": new}
        text = action.strip()
        guess = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None
        if guess == new["floor"]:
            par = _par(new["floors"])
            new["reward"] = 1.0 if new["turns"] <= par else \
                (cls.MAX_TURNS + 1 - new["turns"]) / (cls.MAX_TURNS + 1 - par)
            new["done"] = True
            return {"observation": None, "reward": new["reward"], "done": True, "state": new}
        if guess is None:
            note = "That was not a floor number: the turn is used up."
        elif guess < new["floor"]:
            new["low"] = max(new["low"], guess + 1)
            note = f"Floor {guess} is too low: go up."
        else:
            new["high"] = min(new["high"], guess - 1)
            note = f"Floor {guess} is too high: go down."
        if new["turns"] >= cls.MAX_TURNS:
            new["done"] = True
            return {"observation": None, "reward": 0.0, "done": True, "state": new}
        return {"observation": cls._prompt(new, note), "reward": 0.0, "done": False, "state": new}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        _SEEN["policy"] += 1
        return str((state["low"] + state["high"]) // 2)

    @classmethod
    def _prompt(cls, state: dict[str, Any], note: str) -> str:
        return (f"{note} The building has floors 1 to {state['floors']}. You have "
                f"{cls.MAX_TURNS - state['turns']} of {cls.MAX_TURNS} guesses left; finding the "
                f"floor within {_par(state['floors'])} guesses scores full marks. Give one floor "
                "number inside <answer></answer>, e.g. <answer>7</answer>.")
