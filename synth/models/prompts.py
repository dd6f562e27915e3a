"""The jinja2 environment over ``prompts/``: the only place prompt text lives.

Every rendered prompt carries a version: a short sha256 over the template and everything it
includes, so a run records exactly which wording produced each call.

A coder prompt is two messages: the *stable prefix* (``_prefix.j2``: who the model is, the
contract's source, the rules, a fixed set of exemplars per mode) as the **system** message, and
the task-specific part (``draft.j2``, ``revise.j2``, ``steer.j2``, ...) as the user message. The
prefix is byte-identical for every task and round of a mode. It goes into its own (system)
message rather than the head of the user message because a chat template closes a message with
an end-of-turn special token: the token sequence of the prefix then ends at a fixed boundary,
whereas text joined into one user message is tokenized across the join (a BPE merge of the
prefix's last characters with the task's first ones would change the prefix's last tokens from
task to task). Templates that have no system role (Gemma's, for one) fold the system message
into the head of the first user turn, which keeps the same bytes first either way.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import tokenize
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from synth.text import pyast

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
_INCLUDE_RE = re.compile(r"""\{%-?\s*(?:include|import|extends|from)\s+["']([^"']+)["']""")


class Prompts:
    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or PROMPTS_DIR
        if not self.directory.is_dir():
            raise FileNotFoundError(f"prompt templates not found in {self.directory}")
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.directory)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=False,
        )
        self._versions: dict[str, str] = {}

    def version(self, name: str) -> str:
        """Hash of the template source and of every template it includes, recursively.

        Computed once per template and instance: templates do not change during a run."""
        cached = self._versions.get(name)
        if cached is None:
            cached = self._versions[name] = self._compute_version(name)
        return cached

    def _compute_version(self, name: str) -> str:
        seen: set[str] = set()
        digest = hashlib.sha256()

        def walk(n: str) -> None:
            if n in seen:
                return
            seen.add(n)
            path = self.directory / n
            if not path.exists():  # an include not rendered in this mode; rendering it would fail
                digest.update(n.encode() + b"\0missing\0")
                return
            source = path.read_text(encoding="utf-8")
            digest.update(n.encode() + b"\0" + source.encode() + b"\0")
            for inc in sorted(set(_INCLUDE_RE.findall(source))):
                walk(inc)

        walk(name)
        return f"{Path(name).stem}-{digest.hexdigest()[:12]}"

    def render(self, name: str, **context: Any) -> tuple[str, str]:
        """(text, version) of template ``name`` rendered with ``context``."""
        text = self.env.get_template(name).render(**context)
        return text.strip() + "\n", self.version(name)


def compact_source(code: str) -> str:
    """``code`` without comments and docstrings (the module docstring keeps its first line), with
    runs of blank lines collapsed: a deterministic, shorter exemplar for small context windows.
    Code that does not parse comes back unchanged."""
    try:
        tree = pyast.parse(code)
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (SyntaxError, tokenize.TokenError):
        return code
    lines = code.splitlines()
    drop: set[int] = set()  # 0-based line numbers
    first_line: dict[int, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            continue
        doc = body[0]
        end = doc.end_lineno or doc.lineno
        if isinstance(node, ast.Module):
            head = body[0].value.value.strip().splitlines()[0].strip() if body[0].value.value.strip() else ""
            first_line[doc.lineno - 1] = f'"""{head}"""'
            drop.update(range(doc.lineno, end))
        elif len(node.body) > 1:
            drop.update(range(doc.lineno - 1, end))
        else:  # a body that is only a docstring keeps a placeholder
            indent = re.match(r"\s*", lines[doc.lineno - 1]).group(0)  # type: ignore[union-attr]
            first_line[doc.lineno - 1] = f"{indent}..."
            drop.update(range(doc.lineno, end))
    comments: dict[int, int] = {}  # 0-based line -> column where a comment starts
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0] - 1] = tok.start[1]
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in first_line:
            out.append(first_line[i])
            continue
        if i in drop:
            continue
        if i in comments:
            line = line[: comments[i]].rstrip()
            if not line.strip():
                continue
        if not line.strip() and out and (not out[-1].strip() or out[-1].rstrip().endswith(":")):
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


@cache
def default_prompts() -> Prompts:
    return Prompts()
