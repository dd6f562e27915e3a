"""Input validators: ``validate(stdin) -> None | str``, run in the sandbox, judged here.

An input validator says whether one standard input is one the task statement allows: None when
it is, else the reason it is not (a short text naming the rule). The workflow's judge role
writes one from the statement and its example inputs alone (never from the generator); a user
gives their own with ``synth check --validator FILE``. Either way it is untrusted code: it runs
in a sandboxed method server of its own (mode ``validator``, :class:`~synth.gate.calls.Validator`)
and only answers; a reply that is neither None nor a str, a raise, a hang or a failed load is
the validator's failure (finding ``validator_broken``), never the bootcamp's.

* :func:`validate_all`: the verdicts on a suite's inputs (the ``inputs`` check turns a
  rejection into the finding ``validator_rejects_input``);
* :func:`examples_rejected`: outside a suite, the example inputs a fresh validator rejects
  (the workflow requires none);
* :func:`static_problems`: the static gate's verdict on a validator's source (the checker
  rules: the import allowlist, no dunders, no eval/open; plus a top-level ``validate``).
"""

from __future__ import annotations

import ast

from synth.gate.calls import Failure, Validator
from synth.gate.suite import Suite
from synth.sandbox.base import Backend
from synth.sandbox.methods import MethodServer, server_limits
from synth.sandbox.static import check_source, format_violations
from synth.text import pyast

__all__ = ["CALL_LIMIT_S", "examples_rejected", "static_problems", "validate_all"]

#: seconds one ``validate`` call may take (the inputs are the bootcamp's, at most a few MB)
CALL_LIMIT_S = 2.0
#: seconds one batch of calls may take in a suite
BATCH_LIMIT_S = 30.0


def validate_all(s: Suite, stdins: list[str]) -> list[str | None]:
    """The validator's verdict on each of ``stdins`` (None: allowed; else the reason), in the
    suite's validator session (:meth:`Suite.validator`). Raises :class:`Failure` with the
    finding ``validator_broken`` when the validator does not load or answer acceptably."""
    validator = s.validator()
    return validator.validate_many(stdins, s.limit(CALL_LIMIT_S), total_s=s.limit(BATCH_LIMIT_S))


def examples_rejected(source: str, examples: list[str],
                      backend: str | Backend) -> list[tuple[str, str]]:
    """(example input, reason) of every example the validator ``source`` rejects, run in a
    fresh sandboxed session that is closed before returning. Raises :class:`Failure`
    (``validator_broken``) when it does not load or answer acceptably."""
    validator = Validator(MethodServer(source, backend=backend, limits=server_limits(),
                                       mode="validator", role="validator", label="validator"))
    try:
        validator.load()
        reasons = validator.validate_many(list(examples), CALL_LIMIT_S)
    finally:
        validator.server.close()
    return [(ex, r) for ex, r in zip(examples, reasons, strict=True) if r is not None]


def static_problems(source: str) -> str | None:
    """What the static gate refuses in a validator's source (the independent checker's rules,
    and a top-level ``validate`` function), or None."""
    violations = [v for v in check_source(source, "checker") if v.rule != "methods"]
    if violations:
        return (f"the static gate refused the validator ({len(violations)} violation(s)):\n"
                f"{format_violations(violations)}")
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError) as exc:  # check_source reports it; kept for safety
        return f"the validator does not parse: {exc}"
    if not any(isinstance(n, ast.FunctionDef) and n.name == "validate" for n in tree.body):
        return "the validator must define a top-level function validate(stdin) -> None | str"
    return None


def broken(f: Failure) -> str:
    """One line about a validator's failure, for a prompt or an event."""
    tail = (f.trace or "").strip()[-1200:]
    return f"the validator {f.what}" + (f"\n{tail}" if tail else "")
