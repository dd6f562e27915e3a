"""``ast.parse`` and ``ast.literal_eval`` for host code that runs in several threads.

CPython 3.11 keeps the AST constructor's recursion counter per interpreter, not per call
(gh-106905, fixed in 3.12). When a garbage collection inside ``ast.parse`` runs a finalizer
that lets another thread parse too, both calls move the one counter and the first raises
``SystemError: AST constructor recursion depth mismatch`` for a source that is fine. The gate
runs in worker threads while the workflow and the repairs parse on the event loop's thread,
so every host-side parse goes through one re-entrant lock here (a finalizer that parses on
the thread holding the lock re-enters it). Sandboxed code never imports this module.
"""
from __future__ import annotations

import ast
import threading
from typing import Any

_LOCK = threading.RLock()


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """:func:`ast.parse` of a module, one thread at a time."""
    with _LOCK:
        return ast.parse(source, filename=filename)


def literal_eval(node_or_string: str | ast.AST) -> Any:
    """:func:`ast.literal_eval`, which parses a string with ``ast.parse``, under the same lock."""
    with _LOCK:
        return ast.literal_eval(node_or_string)
