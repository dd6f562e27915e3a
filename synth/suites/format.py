"""The code test suite: a JSON object, stored as its canonical text in a code row's
``reward_model.ground_truth``.

::

    {"version": 1, "kind": "stdin" | "function", "language": "python3",
     "bootcamp": name, "code_sha256": <the module's sha256 in the manifest>,
     "entry_point": <function kind only>,
     "judge": "tokens" | "check_output" | "value",
     "time_limit_s": <per test>, "memory_mb": <int>,
     "tests": [{"level": "example" | <a LEVELS name> | "stress",
                "stdin": <text> (stdin kind) | "args": [<JSON values>] (function kind),
                "expected": <reference output, trailing whitespace removed> | <JSON value>,
                "identity": <the case, or null for an example>}]}

``judge``: ``tokens`` compares whitespace-separated tokens (:func:`synth.bootcamp.same_tokens`);
``check_output`` asks the bootcamp's own ``check_output`` (in its sandbox, with the test's
identity); ``value`` compares a function's return value by the function contract's rule
(:func:`synth.values.same_value` on the decoded JSON of :func:`synth.values.encode`).

:func:`suite_text` writes the canonical text (sorted keys, the project's one canonical JSON);
:func:`read_suite` reads one back and refuses anything else (it is data, and data is checked).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from synth.sandbox.kit import canonical

__all__ = [
    "DEFAULT_MEMORY_MB",
    "EXAMPLE_LEVEL",
    "SUITE_VERSION",
    "CodeSuite",
    "SuiteFormatError",
    "SuiteTest",
    "read_suite",
    "suite_sha256",
    "suite_text",
]

SUITE_VERSION = 1
#: the level of a test taken from the statement's examples
EXAMPLE_LEVEL = "example"
#: memory per test unless said otherwise
DEFAULT_MEMORY_MB = 256

Kind = Literal["stdin", "function"]
Judge = Literal["tokens", "check_output", "value"]


class SuiteFormatError(ValueError):
    """A text that is not a code test suite (the message says what is wrong)."""


class SuiteTest(BaseModel):
    """One test: the input (``stdin`` or ``args``), the reference's ``expected`` output."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    level: str = Field(min_length=1, max_length=64)
    stdin: str | None = None
    args: list[Any] | None = None
    expected: Any
    identity: dict[str, Any] | None = None

    def key(self) -> str:
        """What makes two tests the same: the stdin, or the canonical JSON of the arguments."""
        return self.stdin if self.stdin is not None else canonical(self.args)

    def plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level": self.level}
        if self.stdin is not None:
            out["stdin"] = self.stdin
        else:
            out["args"] = self.args
        out["expected"] = self.expected
        out["identity"] = self.identity
        return out


class CodeSuite(BaseModel):
    """A whole suite (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = 1
    kind: Kind
    language: Literal["python3"] = "python3"
    bootcamp: str = Field(min_length=1)
    code_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    entry_point: str | None = None
    judge: Judge
    time_limit_s: float = Field(gt=0, le=3600)
    memory_mb: int = Field(ge=32, le=65536)
    tests: list[SuiteTest]

    @model_validator(mode="after")
    def _consistent(self) -> CodeSuite:
        if self.kind == "function":
            if not (self.entry_point or "").isidentifier():
                raise ValueError("a function suite names its entry_point")
            if self.judge != "value":
                raise ValueError("a function suite is judged by value")
            if any(t.args is None or t.stdin is not None for t in self.tests):
                raise ValueError("every test of a function suite has args (and no stdin)")
        else:
            if self.entry_point is not None:
                raise ValueError("a stdin suite has no entry_point")
            if self.judge == "value":
                raise ValueError("a stdin suite is judged by tokens or check_output")
            if any(t.stdin is None or t.args is not None or type(t.expected) is not str
                   for t in self.tests):
                raise ValueError("every test of a stdin suite has a stdin and an expected text")
        return self

    def levels(self) -> dict[str, int]:
        """Tests per level, in the suite's order."""
        out: dict[str, int] = {}
        for t in self.tests:
            out[t.level] = out.get(t.level, 0) + 1
        return out

    def plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": self.version, "kind": self.kind, "language": self.language,
            "bootcamp": self.bootcamp, "code_sha256": self.code_sha256, "judge": self.judge,
            "time_limit_s": self.time_limit_s, "memory_mb": self.memory_mb,
            "tests": [t.plain() for t in self.tests]}
        if self.kind == "function":
            out["entry_point"] = self.entry_point
        return out


def suite_text(suite: CodeSuite) -> str:
    """The suite's canonical JSON text (what ``ground_truth`` holds)."""
    return canonical(suite.plain())


def suite_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_suite(text: str | bytes) -> CodeSuite:
    """A suite's text read back and validated; :class:`SuiteFormatError` saying why not."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SuiteFormatError(f"not JSON: {exc}") from None
    if type(data) is not dict:
        raise SuiteFormatError(f"a suite is a JSON object, not a {type(data).__name__}")
    try:
        return CodeSuite.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "the suite"
        raise SuiteFormatError(f"{where}: {first.get('msg', 'invalid')}") from None
