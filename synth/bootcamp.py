"""The bootcamp contract: the one module that generated bootcamp code may import.

A *bootcamp* is a class that generates unlimited seeded instances ("cases") of one reasoning
task, renders each case as a prompt for a language model, and scores the model's answer with a
rule check. Every bootcamp in the library subclasses :class:`BaseBootcamp`.

The names follow InternBootcamp so that its users feel at home; the semantics are stricter:

* all randomness comes from ``self.rng`` (a ``random.Random(seed)``), so the same seed gives the
  same cases in every process, whatever ``PYTHONHASHSEED`` is;
* difficulty parameters are explicit keyword arguments with defaults; an unknown parameter raises
  ``TypeError`` (no ``**kwargs`` that swallow typos);
* :meth:`BaseBootcamp.verify_score` is defined here only and may not be overridden; it never
  swallows an exception raised by the bootcamp: a crashing verifier is a defect to be reported,
  not a score of 0.

This module must stay dependency-free (standard library only): it is imported inside the
sandbox by untrusted code.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

__all__ = ["ANSWER_CLOSE", "ANSWER_OPEN", "BaseBootcamp", "BootcampContractError"]

ANSWER_OPEN = "<answer>"
ANSWER_CLOSE = "</answer>"


class BootcampContractError(TypeError):
    """A bootcamp broke the contract (e.g. ``_verify_correction`` returned a non-score)."""


class BaseBootcamp:
    """Base class of every bootcamp.

    Subclasses define difficulty parameters as explicit keyword arguments and call
    ``super().__init__(seed=seed)``::

        class Example(BaseBootcamp):
            LEVELS = {"easy": {"n": 3}, "hard": {"n": 9}}

            def __init__(self, seed: int | None = None, n: int = 5) -> None:
                super().__init__(seed=seed)
                self.n = n
    """

    #: Named difficulty presets: level name -> keyword arguments for ``__init__``.
    #: Conventionally ``easy``, ``medium`` and ``hard``; harder presets must give measurably
    #: larger or harder cases.
    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {}

    #: True for tasks whose answer is one of two values by nature (yes/no, true/false, which
    #: of two options): the gate then accepts answers that take at most two values, which it
    #: otherwise rejects as guessable.
    YES_NO_TASK: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "verify_score" in cls.__dict__:
            raise TypeError(
                f"{cls.__name__} overrides verify_score; implement _verify_correction instead "
                "(verify_score is defined once, in BaseBootcamp)"
            )

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        """Store ``self.seed`` and ``self.rng = random.Random(seed)``.

        Any keyword argument the subclass did not consume is a typo or an unsupported
        parameter and raises ``TypeError`` naming it.
        """
        if params:
            names = ", ".join(sorted(params))
            raise TypeError(f"{type(self).__name__} got unexpected parameter(s): {names}")
        if seed is not None and not isinstance(seed, int):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        self.seed = seed
        self.rng = random.Random(seed)

    @classmethod
    def from_level(cls, level: str, seed: int | None = None) -> BaseBootcamp:
        """Construct the bootcamp with the parameters of the named LEVELS preset."""
        if level not in cls.LEVELS:
            known = ", ".join(cls.LEVELS) or "(none)"
            raise KeyError(f"{cls.__name__} has no level {level!r}; levels: {known}")
        return cls(seed=seed, **cls.LEVELS[level])

    # ----------------------------------------------------------------------------------
    # The methods a bootcamp implements
    # ----------------------------------------------------------------------------------

    def case_generator(self) -> dict[str, Any]:
        """Return one new case ("identity") as a JSON-serialisable dict.

        Must guarantee: all randomness comes from ``self.rng``; the dict survives a JSON round
        trip unchanged (str keys; str/int/float/bool/None/list/dict values); successive calls
        give diverse cases; every case has at least one correct answer.
        """
        raise NotImplementedError

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        """Render a case as a self-contained problem statement for a model.

        Must guarantee: non-empty, depends only on ``identity``, states the task completely and
        says exactly how to format the final answer (inside ``<answer>...</answer>``), and does
        not reveal the answer.
        """
        raise NotImplementedError

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        """Return one correct answer, as the text that goes inside the answer tags.

        Must guarantee: ``verify_score(wrap_answer(reference_answer(c)), c) == 1.0`` for every
        case ``c`` the generator can produce.
        """
        raise NotImplementedError

    @staticmethod
    def extract_output(response: str) -> str | None:
        """Return the stripped text of the LAST ``<answer>...</answer>`` in ``response``.

        Returns ``None`` when there is no complete answer block. Linear in the length of the
        response, whatever it contains.
        """
        if not isinstance(response, str):
            return None
        end = response.rfind(ANSWER_CLOSE)
        if end < 0:
            return None
        start = response.rfind(ANSWER_OPEN, 0, end)
        if start < 0:
            return None
        return response[start + len(ANSWER_OPEN) : end].strip()

    @classmethod
    def wrap_answer(cls, answer: str) -> str:
        """Format an answer as a model should write it; the inverse of :meth:`extract_output`."""
        return f"{ANSWER_OPEN}{answer}{ANSWER_CLOSE}"

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool | float:
        """Check an extracted answer against the case by the task's rules.

        Return ``True``/``False``, or a float in [0, 1] for partial credit. Must check the rules
        (any correct answer is accepted, not only the reference one), must treat ``solution`` as
        untrusted text (never ``eval``/``exec`` it), and must return ``False`` rather than raise
        on malformed answers.
        """
        raise NotImplementedError

    @classmethod
    def verify_score(
        cls, response: str, identity: dict[str, Any], format_score: float = 0.0
    ) -> float:
        """Score a full model response. Defined here only; subclasses may not override it.

        * ``0.0`` if no answer can be extracted;
        * ``1.0`` if ``_verify_correction`` returns ``True``, or its float when that is in
          (0, 1];
        * ``format_score`` if an answer was extracted but is wrong.

        Exceptions raised by the bootcamp propagate: they are findings, not scores.
        """
        solution = cls.extract_output(response)
        if solution is None:
            return 0.0
        verdict = cls._verify_correction(solution, identity)
        if isinstance(verdict, bool):
            return 1.0 if verdict else float(format_score)
        if isinstance(verdict, int | float) and math.isfinite(verdict) and 0.0 <= verdict <= 1.0:
            return float(verdict) if verdict > 0 else float(format_score)
        raise BootcampContractError(
            f"{cls.__name__}._verify_correction returned {verdict!r}; "
            "expected a bool or a float in [0, 1]"
        )

    # Optional, for tasks that come with a reference program (e.g. CodeContests):
    #
    #     @staticmethod
    #     def render_stdin(identity: dict) -> str:
    #         """The case as the original problem's standard input."""
    #
    # Its absence means "no oracle for this task"; it is deliberately not defined here so that
    # the gate can tell the two apart.
