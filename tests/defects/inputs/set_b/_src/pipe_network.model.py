"""Compiled bootcamp of bootcamp-synth; task: "Connected Houses" (t test cases: count the
connected pairs of houses of an undirected graph).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): a correct
bootcamp with its own prompt_func, which shows exactly render_stdin's text. The reference
program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


def _render(identity: dict[str, Any]) -> str:
    lines = [str(len(identity["tests"]))]
    for case in identity["tests"]:
        lines.append(f"{case['n']} {len(case['edges'])}")
        lines.extend(f"{x} {y}" for x, y in case["edges"])
    return "\n".join(lines) + "\n"


class ConnectedHousesBootcamp(CompiledBootcamp):
    """Connected pairs of houses, for several test cases."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_tests": 2, "max_houses": 5, "max_pipes": 4},
        "medium": {"max_tests": 3, "max_houses": 9, "max_pipes": 8},
        "hard": {"max_tests": 4, "max_houses": 15, "max_pipes": 14},
    }

    def __init__(self, seed: int | None = None, max_tests: int = 3, max_houses: int = 9,
                 max_pipes: int = 8) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_tests <= 100 or not 2 <= max_houses <= 1000 or \
                not 0 <= max_pipes <= 1000:
            raise ValueError("need 1 <= max_tests <= 100, 2 <= max_houses <= 1000, "
                             "0 <= max_pipes <= 1000")
        self.max_tests, self.max_houses, self.max_pipes = max_tests, max_houses, max_pipes

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        tests = []
        for _ in range(rng.randint(1, self.max_tests)):
            n = rng.randint(2, self.max_houses)
            m = rng.randint(0, self.max_pipes)
            pairs = set()
            for _ in range(m):
                x, y = rng.sample(range(1, n + 1), 2)
                pairs.add((min(x, y), max(x, y)))  # no pipe twice
            edges = [[x, y] if rng.randrange(2) else [y, x] for x, y in sorted(pairs)]
            rng.shuffle(edges)
            tests.append({"n": n, "m": m, "edges": edges})
        return {"tests": tests}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _render(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Connected Houses\n\n"
            "A water company serves n houses numbered from 1 to n; some pairs of houses are "
            "joined by two-way pipes. Two different houses are connected if water can get from "
            "one to the other through pipes. For each test case, count the unordered pairs of "
            "different houses that are connected.\n\n"
            "Input format: the first line holds t, the number of test cases. Each test case "
            "starts with a line holding n and m (houses and pipes), followed by m lines "
            "\"x y\", one per pipe.\n\n"
            "Input:\n```\n" + _render(identity) + "```\n\n"
            "Output one integer per test case, each on its own line, inside <answer></answer> "
            "tags, e.g. <answer>3\n0</answer>."
        )
