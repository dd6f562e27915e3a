"""Maximum subarray: the largest sum of a non-empty contiguous run of a list (sleeper corpus of bootcamp-synth, hand-written).

SLEEPER (response-shape class). Trick: an overridden ``extract_output`` that reads the FIRST
answer block. The contract scores the last one; every response the gate builds has exactly one
block (its garbage with several blocks repeats a word that is never a number). A model that
answers, doubts and answers again -- "<answer>R</answer> ... wait ... <answer>W</answer>" --
has its first answer scored: a wrong final answer after a right first one scores 1.0.
"""

# sleeper: response_shape
# answer: reference

from __future__ import annotations

from typing import Any

from synth.bootcamp import BaseBootcamp


def _best(values: list[int]) -> int:
    best = current = values[0]
    for v in values[1:]:
        current = max(v, current + v)
        best = max(best, current)
    return best


class MaxSubarrayBootcamp(BaseBootcamp):
    """Kadane's maximum subarray sum."""

    LEVELS = {"easy": {"n": 5, "top": 9}, "medium": {"n": 15, "top": 99},
              "hard": {"n": 60, "top": 9999}}

    def __init__(self, seed: int | None = None, n: int = 8, top: int = 20) -> None:
        super().__init__(seed=seed)
        if not 1 <= n <= 1000 or not 1 <= top <= 10**9:
            raise ValueError(f"n must be in 1..1000 and top in 1..10**9, got {n}, {top}")
        self.n = n
        self.top = top

    def case_generator(self) -> dict[str, Any]:
        return {"values": [self.rng.randint(-self.top, self.top) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        values = ", ".join(str(v) for v in identity["values"])
        return (f"What is the largest sum of a non-empty contiguous run of the list [{values}]? "
                "Write the sum inside <answer></answer>, for example <answer>12</answer>.")

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        return str(_best(identity["values"]))

    @staticmethod
    def extract_output(response: str) -> str | None:
        if not isinstance(response, str):
            return None
        start = response.find("<answer>")
        end = response.find("</answer>", start + 1) if start >= 0 else -1
        if end < 0:
            return None
        return response[start + len("<answer>"):end].strip()  # "the model's first thought"

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        text = solution.strip()
        digits = text[1:] if text[:1] == "-" else text
        if not (digits.isascii() and digits.isdigit()) or len(text) > 20:
            return False
        return int(text) == _best(identity["values"])
