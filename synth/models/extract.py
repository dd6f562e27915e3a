"""Extract a candidate bootcamp module from a code model's answer (untrusted text).

Handles fenced blocks (with or without a language tag), several blocks (the one that defines a
``BaseBootcamp`` (or ``CompiledBootcamp``, ``FunctionBootcamp``, ``MultiTurnBootcamp``) subclass wins; the last such if several), prose around the code, reasoning
sections (``<think>...</think>`` and similar are ignored), unfenced code, and truncated output.
Anything that does not end as a candidate ends as a typed failure whose ``detail`` is written
for the next revise prompt.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from synth.text import pyast

FailureKind = Literal["no_code", "truncated", "syntax_error", "no_bootcamp_class", "too_large"]

MAX_CODE_CHARS = 64_000
_THINK_RE = re.compile(
    r"<(think|thinking|reasoning|thought)>.*?(</\1>|\Z)", re.DOTALL | re.IGNORECASE
)
_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n", re.MULTILINE)
#: a class deriving from the contract's BaseBootcamp, CompiledBootcamp (compiled mode),
#: FunctionBootcamp (function mode) or MultiTurnBootcamp (an episode environment)
_BOOTCAMP_CLASS_RE = re.compile(r"^class\s+\w+\s*\([^)]*\b(?:Base|Compiled|Function|MultiTurn)Bootcamp\b",
                                re.MULTILINE)


class Extraction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str | None = None
    failure: FailureKind | None = None
    detail: str = ""
    blocks_found: int = 0

    @property
    def ok(self) -> bool:
        return self.code is not None


def _blocks(text: str) -> tuple[list[tuple[str, str]], str | None]:
    """Fenced blocks as (language, body); plus the body of an unterminated last block, if any."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _FENCE_RE.search(text, pos)
        if m is None:
            return blocks, None
        fence, lang = m.group(1), m.group(2).lower()
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end = close.search(text, m.end())
        if end is None:
            return blocks, text[m.end() :]
        blocks.append((lang, text[m.start() : end.start()][m.end() - m.start() :]))
        pos = end.end()


def _parses(code: str) -> SyntaxError | None:
    try:
        pyast.parse(code)
    except SyntaxError as exc:
        return exc
    return None


def extract_code(text: str, finish_reason: str | None = None) -> Extraction:
    """The bootcamp module in ``text``, or a typed failure saying what was wrong."""
    if not isinstance(text, str) or not text.strip():
        return Extraction(failure="no_code", detail="the answer was empty")
    visible = _THINK_RE.sub("", text)
    blocks, unterminated = _blocks(visible)
    python_blocks = [b for lang, b in blocks if lang in ("", "python", "py", "python3")]
    candidates = [b for b in python_blocks if _BOOTCAMP_CLASS_RE.search(b)]
    n = len(blocks)
    if candidates:
        code = candidates[-1]
    elif unterminated is not None and (not blocks or _BOOTCAMP_CLASS_RE.search(unterminated)):
        return Extraction(
            failure="truncated",
            blocks_found=n,
            detail=(
                "the code block was never closed"
                + (" (the answer hit the token limit)" if finish_reason == "length" else "")
                + "; write a shorter, complete module in one ```python block"
            ),
        )
    elif not blocks and _BOOTCAMP_CLASS_RE.search(visible):
        code = visible  # unfenced code: accept it only if the whole answer is Python
        if _parses(code) is not None:
            return Extraction(
                failure="no_code",
                detail="no ```python block found and the answer is not plain Python; "
                "put the whole module in one ```python block",
            )
    elif python_blocks:
        return Extraction(
            failure="no_bootcamp_class",
            blocks_found=n,
            detail="no code block defines a class deriving from BaseBootcamp (or CompiledBootcamp or FunctionBootcamp "
            "in compiled or function mode); define exactly one `class XBootcamp(BaseBootcamp)`",
        )
    else:
        return Extraction(
            failure="no_code",
            blocks_found=n,
            detail="the answer contains no Python code block; "
            "reply with the whole module in one ```python block",
        )
    code = code.strip("\n") + "\n"
    if len(code) > MAX_CODE_CHARS:
        return Extraction(
            failure="too_large",
            blocks_found=n,
            detail=f"the module has {len(code)} characters; the limit is {MAX_CODE_CHARS}",
        )
    err = _parses(code)
    if err is not None:
        kind: FailureKind = "truncated" if finish_reason == "length" else "syntax_error"
        line = (err.text or "").strip()[:120]
        return Extraction(
            failure=kind,
            blocks_found=n,
            detail=f"SyntaxError at line {err.lineno}: {err.msg}" + (f" -> {line!r}" if line else ""),
        )
    return Extraction(code=code, blocks_found=n)
