"""Every generated input of a suite judged as the gate judges a compiled bootcamp's inputs.

A compiled bootcamp's answer key is right only on inputs the statement allows; a suite whose
input breaks the statement fails a correct program for nothing. So each drawn input passes what
the gate's ``inputs`` check runs (:mod:`synth.gate.inputs`), or it is left out and counted:

* stdin tasks: the checker derived from the statement's Input section and validated on its
  example inputs (:func:`synth.gate.inputs.input_checker`: the layout, bounds, sums over test
  cases, alphabets, recognised guarantees), and the library's input validator when the record
  has one (``validator_path``: written by the judge role, run in its own sandboxed method server,
  :class:`synth.gate.calls.Validator`); after the reference has run, the statement's promise
  that an answer exists (checked by the build, :func:`promise`);
* function tasks: each argument has the type and nesting the task's own signature, docstring
  examples and tests use (:func:`synth.gate.functions.expected_arguments`).

A verdict is None (allowed) or the reason. An input too large for the statement's checker to
read (:data:`synth.statement.check.MAX_CHARS`) is kept, and counted as not checked by it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from synth.gate.calls import Failure, Validator
from synth.gate.functions import describe, expected_arguments, fits
from synth.gate.inputs import input_checker
from synth.sandbox.base import Backend
from synth.sandbox.methods import MethodServer, server_limits
from synth.statement import split_sections
from synth.statement.answers import answer_guaranteed, impossible_outputs, says_impossible
from synth.statement.check import MAX_CHARS
from synth.values import ValueProblem, decode, shape

__all__ = ["Verdicts", "arguments_of", "broken_promise", "function_verdicts", "promise",
           "stdin_verdicts"]

#: seconds one ``validate`` call may take, and a whole batch
CALL_LIMIT_S = 2.0
BATCH_LIMIT_S = 60.0


@dataclass
class Verdicts:
    """One verdict per input (None: allowed; else the reason), and what was checked."""

    reasons: list[str | None]
    checked: list[str] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)


def stdin_verdicts(text: str | None, example_inputs: list[str], stdins: list[str], *,
                   validator: str | None = None, backend: Backend | None = None,
                   label: str = "") -> Verdicts:
    """The statement's checker (and the library's validator, ``validator``: its source) on
    each of ``stdins``."""
    out = Verdicts([None] * len(stdins))
    if not text:
        out.not_checked.append("the statement: the module embeds no task text")
    else:
        try:
            checker = input_checker(text, example_inputs or None)
        except Exception as exc:  # the parser's own bug on this text: said, never a verdict
            checker = None
            out.not_checked.append(f"the statement: the parser failed on it "
                                   f"({type(exc).__name__}: {str(exc)[:200]})")
        if checker is not None:
            out.checked += [f"statement {c}" for c in checker.checked()]
            out.not_checked += checker.not_checked
            large = 0
            for k, stdin in enumerate(stdins):
                if len(stdin) > MAX_CHARS:
                    large += 1
                    continue
                bad = checker.check(stdin)
                if bad is not None:
                    out.reasons[k] = f"the statement ({bad.rule}): {bad.detail}"
            if large:
                out.not_checked.append(f"{large} input(s) over {MAX_CHARS} characters: too large "
                                       "for the statement's checker (kept)")
    if validator is not None and backend is not None:
        _validate(out, validator, stdins, backend, label)
    return out


def _validate(out: Verdicts, source: str, stdins: list[str], backend: Backend,
              label: str) -> None:
    server = MethodServer(source, backend=backend, limits=server_limits(), mode="validator",
                          role="validator", label=label or "suite-validator")
    validator = Validator(server)
    try:
        validator.load()
        reasons = validator.validate_many(stdins, CALL_LIMIT_S, total_s=BATCH_LIMIT_S)
    except Failure as f:
        out.not_checked.append(f"the library's input validator is broken ({f.what[:300]}): "
                               "no input was checked by it")
        return
    finally:
        server.close()
    out.checked.append(f"the library's input validator: {len(stdins)} inputs")
    for k, reason in enumerate(reasons):
        if reason is not None and out.reasons[k] is None:
            out.reasons[k] = f"the input validator: {reason}"


def promise(text: str | None) -> tuple[str, tuple[str, ...]] | None:
    """The statement's promise that an answer exists (its words, and the outputs that mean
    "none"), or None."""
    if not text:
        return None
    output_spec = split_sections(text).output_spec
    words = answer_guaranteed(text, output_spec)
    return None if words is None else (words, impossible_outputs(output_spec))


def broken_promise(stdout: str, kept: tuple[str, tuple[str, ...]] | None) -> str | None:
    """Why the reference's output on an input breaks the statement's promise, or None."""
    if kept is None:
        return None
    said = says_impossible(stdout, kept[1])
    if said is None:
        return None
    return (f"the statement promises an answer (\"{kept[0][:120]}\"), but the reference prints "
            f"{said!r} (no solution)")


def function_verdicts(reference: str, entry_point: str, calls: list[list[Any]]) -> Verdicts:
    """Each call's arguments against the types the task itself uses."""
    want = expected_arguments(reference, entry_point)
    out = Verdicts([None] * len(calls))
    if want is None:
        out.not_checked.append(f"the reference defines no function {entry_point}()")
        return out
    out.checked += [f"{n}: {describe(w)} (from {src})" for n, w, src in
                    zip(want.names, want.shapes, want.sources, strict=True)]
    for k, encoded in enumerate(calls):
        try:
            args = decode(encoded)
        except ValueProblem as exc:
            out.reasons[k] = f"the arguments are not values of a function task: {exc}"
            continue
        if type(args) is not list:
            out.reasons[k] = "the arguments are not a list"
            continue
        if len(args) < want.required or (len(args) > len(want.names) and not want.variadic):
            out.reasons[k] = (f"{len(args)} argument(s), but {entry_point}() takes "
                              f"{want.required}..{len(want.names)}")
            continue
        for j, (value, wanted) in enumerate(zip(args, want.shapes, strict=False)):
            if not fits(value, wanted):
                out.reasons[k] = (f"argument {j + 1} ({want.names[j]}) is a {shape(value)} where "
                                  f"{describe(wanted)} is expected (from {want.sources[j]})")
                break
    return out


def arguments_of(stdin: str) -> list[Any] | str:
    """A function case's ``render_stdin`` (its arguments in JSON) as the encoded list, or why
    it is not one."""
    try:
        data = json.loads(stdin)
    except (ValueError, RecursionError) as exc:
        return f"render_stdin is not JSON: {exc}"
    if type(data) is not list:
        return "render_stdin is not a JSON list of arguments"
    return data
