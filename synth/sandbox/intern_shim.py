"""Stand-in for InternBootcamp's ``Basebootcamp``, used when the gate audits such a class.

Copied into the sandbox next to the trusted harness (standard library only) and exposed there
under the import paths InternBootcamp modules use (``bootcamp``, ``internbootcamp.bootcamp``,
``internbootcamp.bootcamp.base``). It reproduces the public behaviour of the original base class
-- abstract ``prompt_func``/``extract_output``/``_verify_correction`` and a ``verify_score``
that scores 0 without an extracted answer, 1 for ``True``, the number for a numeric verdict,
``format_score`` otherwise, and that *swallows* every exception -- with two deliberate
differences, both needed for an honest audit:

* every exception ``verify_score`` swallows is recorded in :data:`SWALLOWED` (the exception
  itself: the audit's server describes it), so the gate can report a verifier that crashes
  (the original turns it into a silent score, which the gate reports as a convention);
* no debug printing and no draw from the global ``random`` generator inside ``verify_score``
  (the original draws one number per call, which would make case generation depend on how
  often the verifier ran).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SWALLOWED", "Basebootcamp", "clear_swallowed"]

#: Exceptions swallowed by :meth:`Basebootcamp.verify_score`: (method, exception). Formatting
#: them here would read their frames, which the sandbox's guard refuses to the audited code.
SWALLOWED: list[tuple[str, BaseException]] = []
_MAX_RECORDED = 50


def clear_swallowed() -> None:
    """Forget the exceptions recorded so far."""
    del SWALLOWED[:]


def _record(where: str, exc: BaseException) -> None:
    if len(SWALLOWED) < _MAX_RECORDED:
        SWALLOWED.append((where, exc))


class Basebootcamp:
    """InternBootcamp's base class, reproduced for auditing (see the module docstring)."""

    @staticmethod
    def prompt_func(question_ori: Any) -> str:
        raise NotImplementedError

    @staticmethod
    def extract_output(output: Any) -> Any:
        raise NotImplementedError

    @classmethod
    def _verify_correction(cls, solution: Any, identity: Any) -> bool:
        raise NotImplementedError

    @classmethod
    def verify_score(
        cls,
        model_output: Any,
        identity: dict[str, Any],
        format_score: float = 0,
        short_penalty: bool = False,
        short_threshold: int = 256,
        ans_threshold: int = 128,
        format_penalty: bool = False,
    ) -> float:
        """Score a response the way InternBootcamp does, recording swallowed exceptions."""
        score = 0.0
        text = model_output if isinstance(model_output, str) else str(model_output)
        if format_penalty and not _think_format_ok(text):
            return score
        stage = "extract_output"
        try:
            solution = cls.extract_output(model_output)
            if solution is None:
                return score
            score = format_score
            stage = "_verify_correction"
            judge = cls._verify_correction(solution, identity)
            if type(judge) is bool:
                # the original reaches its assert (and keeps format_score) on False
                score = 1.0 if judge else format_score
            elif type(judge) in (int, float):
                score = float(judge)
            else:
                raise TypeError(f"_verify_correction returned {judge!r}; expected bool or float")
        except Exception as exc:  # the original swallows everything; we keep a record
            _record(stage, exc)
        tail = text.rsplit("</think>", 1)[1] if "</think>" in text else ""
        if short_penalty and (len(text) < short_threshold or len(tail) < ans_threshold):
            return min(score * len(text) / short_threshold, score * len(tail) / ans_threshold)
        return score


def _think_format_ok(text: str) -> bool:
    """The ``format_penalty`` rule of the original: exactly one leading think block."""
    opens, closes = text.count("<think>"), text.count("</think>")
    return (
        opens == 1
        and closes == 1
        and text.startswith("<think>")
        and not text.endswith("</think>")
    )
