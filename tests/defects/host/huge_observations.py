"""Host-limit corpus of bootcamp-synth (huge observations): count aloud for 200 turns; the
first observation is short, every later one carries 190 kB of padding (38 MB an episode)."""

from __future__ import annotations

from typing import Any

from synth.bootcamp import MultiTurnBootcamp

PAD = 190_000


class CountAloudBootcamp(MultiTurnBootcamp):
    """Say the next number; the episode ends after MAX_TURNS turns."""

    MAX_TURNS = 200
    LEVELS = {"easy": {"start": 1}, "hard": {"start": 1000}}

    def __init__(self, seed: int | None = None, start: int = 1) -> None:
        super().__init__(seed=seed)
        self.start = start

    def case_generator(self) -> dict[str, Any]:
        return {"first": self.start + self.rng.randint(0, 50)}

    @classmethod
    def reset(cls, identity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        state = {"next": identity["first"], "turns": 0, "done": False, "reward": 0.0, "miss": 0}
        return cls._prompt(state), state

    @classmethod
    def step(cls, state: dict[str, Any], action: str) -> dict[str, Any]:
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        new = dict(state, turns=state["turns"] + 1)
        if action.strip() == str(new["next"]):
            new["next"] += 1
        else:
            new["miss"] += 1
        if new["turns"] >= cls.MAX_TURNS:
            new["done"] = True
            new["reward"] = 1.0 if new["miss"] == 0 else 0.0
            return {"observation": None, "reward": new["reward"], "done": True, "state": new}
        return {"observation": cls._prompt(new), "reward": 0.0, "done": False, "state": new}

    @classmethod
    def reference_policy(cls, state: dict[str, Any]) -> str:
        return str(state["next"])

    @classmethod
    def _prompt(cls, state: dict[str, Any]) -> str:
        pad = "." * (PAD if state["turns"] else 0)
        return (f"{pad}\nSay the number {state['next']} inside <answer></answer>, "
                f"e.g. <answer>7</answer>. Turn {state['turns'] + 1} of {cls.MAX_TURNS}.")
