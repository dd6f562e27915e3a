"""The ``inputs`` check: every generated case's standard input is one the statement allows.

Filled in below (issue 21).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from synth.gate.suite import Suite, result

__all__ = ["CHECKS", "check_inputs"]


def check_inputs(s: Suite) -> dict[str, Any]:
    return result("skipped", "not yet built")


CHECKS: dict[str, Callable[[Suite], dict[str, Any]]] = {"inputs": check_inputs}
