"""A problem text cut into its parts: the Input section, the Output section, the example inputs.

Three layouts are read: CodeContests' own (``Input`` / ``Output`` / ``Examples`` headings on
lines of their own, each example as an ``Input`` block then an ``Output`` block), the layout
:func:`synth.compiled.task_text` writes (``Example 1`` / ``input:`` / ``output:``), and common
Markdown variants (``## Input format``, ``**Input**``, ``-----Input-----``, ``Sample Input 1``,
fenced example blocks). A ``Constraints`` section (where a setter puts the bounds) is read with
the Input section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Sections", "split_sections"]


@dataclass
class Sections:
    """The parts of a problem text; empty strings / lists where the text has none."""

    input_spec: str = ""
    output_spec: str = ""
    example_inputs: list[str] = field(default_factory=list)
    example_outputs: list[str] = field(default_factory=list)


_DECOR = re.compile(r"^[\s#*_=\-:>`|]*|[\s#*_=\-:`|]*$")
_KINDS = [
    ("input", re.compile(r"(?:the\s+)?input(?:\s+(?:format|specification|data|description))?"
                         r"|format\s+of\s+(?:the\s+)?input", re.I)),
    ("output", re.compile(r"(?:the\s+)?output(?:\s+(?:format|specification|data|description))?"
                          r"|format\s+of\s+(?:the\s+)?output", re.I)),
    ("constraints", re.compile(r"constraints?|limits", re.I)),
    ("examples", re.compile(r"(?:examples?|samples?|sample\s+tests?|test\s+examples?)"
                            r"(?:\s*\d+)?", re.I)),
    ("sample_in", re.compile(r"(?:sample|example)\s+input(?:\s*#?\s*\d+)?|input\s*#?\s*\d+", re.I)),
    ("sample_out", re.compile(r"(?:sample|example)\s+output(?:\s*#?\s*\d+)?|output\s*#?\s*\d+",
                              re.I)),
    ("note", re.compile(r"notes?|explanations?|hints?|interaction|scoring", re.I)),
]


def _heading(line: str) -> str | None:
    stripped = line.strip()
    if not stripped or len(stripped) > 40:
        return None
    core = _DECOR.sub("", stripped).rstrip(".").strip()
    if not core:
        return None
    low = core.lower()
    if low in ("input:", "output:"):
        return None
    for kind, pat in _KINDS:
        if pat.fullmatch(core):
            return kind
    return None


def _block(lines: list[str]) -> str:
    body = [ln for ln in lines if not ln.strip().startswith("```")]
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    return "\n".join(ln.rstrip() for ln in body) + "\n" if body else ""


def split_sections(text: str) -> Sections:
    """The Input and Output sections and the examples of a problem text."""
    lines = text.replace("\r", "").split("\n")
    marks: list[tuple[int, str]] = [(i, k) for i, ln in enumerate(lines)
                                    if (k := _heading(ln)) is not None]
    out = Sections()
    in_examples = False
    spec_in: list[str] = []
    for j, (i, kind) in enumerate(marks):
        end = marks[j + 1][0] if j + 1 < len(marks) else len(lines)
        body = lines[i + 1:end]
        if kind == "examples":
            in_examples = True
            _inline_examples(body, out)
            continue
        if kind == "note":
            in_examples = False
            continue
        if kind == "sample_in" or (kind == "input" and in_examples):
            in_examples = True
            out.example_inputs.append(_block(body))
        elif kind == "sample_out" or (kind == "output" and in_examples):
            out.example_outputs.append(_block(body))
        elif kind == "input" and not out.input_spec:
            out.input_spec = "\n".join(body).strip()
        elif kind == "output" and not out.output_spec:
            out.output_spec = "\n".join(body).strip()
        elif kind == "constraints":
            spec_in.append("\n".join(body).strip())
    if spec_in:
        out.input_spec = "\n\n".join([out.input_spec, *spec_in]).strip()
    return out


_INLINE = re.compile(r"^\s*(input|output)\s*:\s*$", re.I)


def _inline_examples(body: list[str], out: Sections) -> None:
    """``Example 1`` / ``input:`` / ``output:`` blocks (synth.compiled.task_text's layout)."""
    current: str | None = None
    buf: list[str] = []

    def flush() -> None:
        if current == "input":
            out.example_inputs.append(_block(buf))
        elif current == "output":
            out.example_outputs.append(_block(_until_blank_line(buf)))

    for ln in body:
        m = _INLINE.match(ln)
        if m is not None:
            flush()
            current, buf = m.group(1).lower(), []
        elif re.fullmatch(r"\s*example\s*\d*\s*:?\s*", ln, re.I):
            flush()
            current, buf = None, []
        elif current is not None:
            buf.append(ln)
    flush()


def _until_blank_line(lines: list[str]) -> list[str]:
    """An example's output block up to its first blank line (an explanation may follow)."""
    out: list[str] = []
    for ln in lines:
        if not ln.strip() and out:
            break
        out.append(ln)
    return out
