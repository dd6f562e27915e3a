"""Hand-written seed bootcamp of bootcamp-synth; task: knights and knaves logic puzzles.

Every inhabitant of an island is a knight (always tells the truth) or a knave (always lies).
Each of ``num_people`` inhabitants makes one statement; exactly one assignment of roles is
consistent with all statements, and the task is to find it.

Generation: draw a hidden assignment, give every inhabitant a random statement that is true
if they are a knight and false if they are a knave, then keep replacing random statements
with new ones (again consistent with the hidden assignment) whenever that shrinks the set of
consistent assignments, until exactly one is left. The set of consistent assignments is kept
as a bitset over all ``2 ** num_people`` assignments, one bitset per statement, so the
uniqueness check is a single AND.

Statements are stored structurally (``speaker`` and ``targets`` are indices into ``names``):

=============  ===============================  ===========================================
kind           extra keys                       English
=============  ===============================  ===========================================
is             targets [x], role                "X is a knave."
same           targets [x]                      "X and I are the same kind."
different      targets [x]                      "X and I are different kinds."
both           targets [x, y], role             "X and Y are both knights."
either         targets [x, y], role             "At least one of X and Y is a knave."
exactly_one    targets [x, y(, z)], role        "Exactly one of X, Y and Z is a knight."
count          targets [everyone], role, count  "Exactly 2 of us are knaves."
implies        targets [x, y], roles [rx, ry]   "If X is a knight, then Y is a knave."
=============  ===============================  ===========================================

Answer format: ``Name: knight, Name: knave, ...`` naming every inhabitant once, in any order
(case, spacing and separators ``,`` ``;`` newline ``and`` are free; ``Name is a knight`` and
``Name = knave`` are accepted too). The answer is checked by the rules: every statement must
be true when its speaker is a knight and false when its speaker is a knave.
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Any, ClassVar

from synth.bootcamp import BaseBootcamp

NAMES = (
    "Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy",
    "Kevin", "Laura", "Mallory", "Nick", "Olivia", "Peggy", "Quentin", "Rupert", "Sybil", "Trent",
)  # fmt: skip

#: Statement kinds unlocked by each complexity level (each level adds to the previous one).
KINDS_BY_COMPLEXITY: dict[int, tuple[str, ...]] = {
    1: ("is", "same", "different"),
    2: ("is", "same", "different", "both", "either", "exactly_one"),
    3: ("is", "same", "different", "both", "either", "exactly_one", "count", "implies"),
}

_ROLES = ("knight", "knave")
#: Kinds that name two inhabitants other than the speaker (unavailable when num_people == 2).
_TWO_OTHERS_KINDS = frozenset({"both", "either", "exactly_one", "implies"})
#: One answer entry, e.g. "Alice: knight", "- bob is a knave", "CAROL = knight", "Dave knave."
_ENTRY = re.compile(
    r"""
    (?:[-*]\s*)?                                   # optional list bullet
    (?P<name>[a-z]+)
    (?:\s*[:=-]\s*|\s+is\s+an?\s+|\s+is\s+|\s+)    # separator between name and role
    (?P<role>knight|knave)\.?
    """,
    re.IGNORECASE | re.VERBOSE,
)
_ENTRY_SEPARATOR = re.compile(r"[,;\n]+|\s+and\s+", re.IGNORECASE)


def _is_knight(assignment: int, person: int) -> bool:
    """Assignments are ints: bit ``i`` is set iff inhabitant ``i`` is a knight."""
    return bool(assignment >> person & 1)


def _holds(statement: dict[str, Any], assignment: int) -> bool:
    """Whether ``statement`` is true under ``assignment``."""
    kind, targets = statement["kind"], statement["targets"]
    if kind == "implies":
        (x, y), (role_x, role_y) = targets, statement["roles"]
        antecedent = _is_knight(assignment, x) == (role_x == "knight")
        return not antecedent or _is_knight(assignment, y) == (role_y == "knight")
    if kind in ("same", "different"):
        same = _is_knight(assignment, statement["speaker"]) == _is_knight(assignment, targets[0])
        return same == (kind == "same")
    wanted = statement["role"] == "knight"
    matches = sum(_is_knight(assignment, t) == wanted for t in targets)
    if kind == "either":
        return matches >= 1
    if kind == "both":
        return matches == len(targets)
    if kind == "count":
        return matches == statement["count"]
    return matches == 1  # "is" (one target) and "exactly_one"


def _consistent(statement: dict[str, Any], assignment: int) -> bool:
    """A knight's statement must be true and a knave's false."""
    return _is_knight(assignment, statement["speaker"]) == _holds(statement, assignment)


def _consistency_bitset(statement: dict[str, Any], num_people: int) -> int:
    """Bitset over all assignments: bit ``a`` is set iff assignment ``a`` fits the statement."""
    bits = 0
    for assignment in range(1 << num_people):
        if _consistent(statement, assignment):
            bits |= 1 << assignment
    return bits


def _render(statement: dict[str, Any], names: list[str]) -> str:
    """The statement as an English sentence, in the speaker's voice."""
    kind, who = statement["kind"], [names[t] for t in statement["targets"]]
    if kind == "is":
        return f"{who[0]} is a {statement['role']}."
    if kind == "same":
        return f"{who[0]} and I are the same kind."
    if kind == "different":
        return f"{who[0]} and I are different kinds."
    if kind == "both":
        return f"{who[0]} and {who[1]} are both {statement['role']}s."
    if kind == "either":
        return f"At least one of {who[0]} and {who[1]} is a {statement['role']}."
    if kind == "exactly_one":
        listed = ", ".join(who[:-1]) + " and " + who[-1]
        return f"Exactly one of {listed} is a {statement['role']}."
    if kind == "count":
        count, role = statement["count"], statement["role"]
        if count == 0:
            return f"None of us is a {role}."
        return f"Exactly {count} of us {'is a' if count == 1 else 'are'} {role}{'s' * (count > 1)}."
    x, y = statement["targets"]
    role_x, role_y = statement["roles"]
    first = "I am" if x == statement["speaker"] else f"{names[x]} is"
    return f"If {first} a {role_x}, then {names[y]} is a {role_y}."


class KnightsKnavesBootcamp(BaseBootcamp):
    """Knights-and-knaves puzzles with exactly one consistent assignment.

    Parameters:
        num_people: number of inhabitants (2..10); each makes one statement.
        complexity: 1 = "X is a knight/knave" and "X and I are the same/different kind";
            2 adds "both", "at least one of" and "exactly one of"; 3 adds counting statements
            about everyone ("exactly 2 of us are knaves") and "if ... then ..." statements.
    """

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"num_people": 3, "complexity": 1},
        "medium": {"num_people": 5, "complexity": 2},
        "hard": {"num_people": 8, "complexity": 3},
    }

    def __init__(self, seed: int | None = None, num_people: int = 5, complexity: int = 2) -> None:
        super().__init__(seed=seed)
        if not 2 <= num_people <= 10:
            raise ValueError(f"num_people must be in [2, 10], got {num_people!r}")
        if complexity not in KINDS_BY_COMPLEXITY:
            raise ValueError(f"complexity must be one of 1, 2, 3, got {complexity!r}")
        self.num_people = num_people
        self.complexity = complexity

    def case_generator(self) -> dict[str, Any]:
        n = self.num_people
        while True:  # restarts are rare: almost every hidden assignment converges
            hidden = self.rng.getrandbits(n)
            statements = [self._statement_for(speaker, hidden) for speaker in range(n)]
            bitsets = [_consistency_bitset(s, n) for s in statements]
            for _ in range(20 * n):
                solutions = functools.reduce(operator.and_, bitsets)
                if solutions.bit_count() == 1:
                    return {
                        "names": self.rng.sample(NAMES, n),
                        "statements": statements,
                        "solution": [
                            "knight" if _is_knight(hidden, i) else "knave" for i in range(n)
                        ],
                    }
                speaker = self.rng.randrange(n)
                candidate = self._statement_for(speaker, hidden)
                candidate_bits = _consistency_bitset(candidate, n)
                others = bitsets[:speaker] + bitsets[speaker + 1 :]
                narrowed = functools.reduce(operator.and_, others, candidate_bits)
                if narrowed.bit_count() < solutions.bit_count():
                    statements[speaker], bitsets[speaker] = candidate, candidate_bits
            # not converged within the budget: start over with a new hidden assignment

    def _statement_for(self, speaker: int, hidden: int) -> dict[str, Any]:
        """A random statement the speaker can make under ``hidden`` (true iff a knight)."""
        n, rng = self.num_people, self.rng
        others = [i for i in range(n) if i != speaker]
        kinds = [
            kind
            for kind in KINDS_BY_COMPLEXITY[self.complexity]
            if len(others) >= 2 or kind not in _TWO_OTHERS_KINDS
        ]
        while True:  # ends: every speaker can make some "is" statement, with one of the roles
            kind = rng.choice(kinds)
            for _ in range(2 * n + 2):  # "count" needs a few draws to hit a fitting number
                statement: dict[str, Any] = {"speaker": speaker, "kind": kind}
                if kind in ("is", "same", "different"):
                    statement["targets"] = rng.sample(others, 1)
                elif kind in ("both", "either"):
                    statement["targets"] = sorted(rng.sample(others, 2))
                elif kind == "exactly_one":
                    size = rng.choice((2, 3)) if len(others) >= 3 else 2
                    statement["targets"] = sorted(rng.sample(others, size))
                elif kind == "count":
                    statement["targets"] = list(range(n))
                    statement["count"] = rng.randint(0, n)
                else:  # implies: the antecedent may be about the speaker ("If I am a knight")
                    consequent = rng.choice(others)
                    antecedent = rng.choice([i for i in range(n) if i != consequent])
                    statement["targets"] = [antecedent, consequent]
                    statement["roles"] = [rng.choice(_ROLES), rng.choice(_ROLES)]
                if kind not in ("same", "different", "implies"):
                    statement["role"] = rng.choice(_ROLES)
                if _consistent(statement, hidden):
                    return statement

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        names = identity["names"]
        said = "\n".join(
            f'{names[s["speaker"]]} says: "{_render(s, names)}"' for s in identity["statements"]
        )
        return (
            "On an island, every inhabitant is either a knight, who always tells the truth, or "
            "a knave, who always lies. You meet "
            f"{len(names)} inhabitants: {', '.join(names[:-1])} and {names[-1]}. "
            f"Each of them makes one statement:\n\n{said}\n\n"
            "A knight's statement is true and a knave's statement is false, taken as a whole. "
            '"The same kind" means both knights or both knaves; "at least one of X and Y" '
            'includes the case where both are; "If A, then B" is false only when A is true and '
            'B is false; "us" means all '
            f"{len(names)} inhabitants, including the speaker. Exactly one assignment of "
            "roles is consistent with all statements. Determine who is a knight and who is "
            "a knave.\n\n"
            'List every inhabitant exactly once as "Name: knight" or "Name: knave", separated '
            "by commas, and put your final answer inside <answer></answer> tags, e.g. "
            "<answer>Xavier: knight, Yvonne: knave, Zack: knave</answer>"
        )

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        return ", ".join(
            f"{name}: {role}"
            for name, role in zip(identity["names"], identity["solution"], strict=True)
        )

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        assignment = _parse_assignment(solution, identity["names"])
        if assignment is None:
            return False
        return all(_consistent(s, assignment) for s in identity["statements"])


def _parse_assignment(text: str, names: list[str]) -> int | None:
    """Parse ``Name: role`` entries into an assignment; None unless each name occurs once."""
    if len(text) > 64 * len(names) + 64:  # bounded work on huge garbage
        return None
    index = {name.lower(): i for i, name in enumerate(names)}
    seen: set[int] = set()
    assignment = 0
    for entry in _ENTRY_SEPARATOR.split(text):
        if not entry.strip():
            continue
        match = _ENTRY.fullmatch(entry.strip())
        if match is None:
            return None
        person = index.get(match["name"].lower())
        if person is None or person in seen:
            return None
        seen.add(person)
        if match["role"].lower() == "knight":
            assignment |= 1 << person
    return assignment if len(seen) == len(names) else None
