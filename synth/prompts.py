"""The jinja2 environment over ``prompts/``: the only place prompt text lives.

Every rendered prompt carries a version: a short sha256 over the template and everything it
includes, so a run records exactly which wording produced each call.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
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
            source = (self.directory / n).read_text(encoding="utf-8")
            digest.update(n.encode() + b"\0" + source.encode() + b"\0")
            for inc in sorted(set(_INCLUDE_RE.findall(source))):
                walk(inc)

        walk(name)
        return f"{Path(name).stem}-{digest.hexdigest()[:12]}"

    def render(self, name: str, **context: Any) -> tuple[str, str]:
        """(text, version) of template ``name`` rendered with ``context``."""
        text = self.env.get_template(name).render(**context)
        return text.strip() + "\n", self.version(name)


@cache
def default_prompts() -> Prompts:
    return Prompts()
