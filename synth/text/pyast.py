"""``ast.parse`` and ``ast.literal_eval`` for host code that runs in several threads.

CPython 3.11 keeps the AST constructor's recursion counter per interpreter, not per call
(gh-106905, fixed in 3.12). When a garbage collection inside ``ast.parse`` runs a finalizer
that lets another thread parse too, both calls move the one counter and the first raises
``SystemError: AST constructor recursion depth mismatch`` for a source that is fine. The gate
runs in worker threads while the workflow and the repairs parse on the event loop's thread,
so every host-side parse goes through one re-entrant lock here (a finalizer that parses on
the thread holding the lock re-enters it). A library that parses in a thread of its own
(outside this lock) can still move the counter: that SystemError is retried a few times, since
the source itself parsed fine. Sandboxed code never imports this module.
"""
from __future__ import annotations

import ast
import threading
from typing import Any

_LOCK = threading.RLock()
#: tries of a call that another thread's parse disturbed (gh-106905's SystemError)
TRIES = 4
#: how many calls were disturbed so and tried again (in this process)
retried = 0


def _raced(exc: SystemError) -> bool:
    global retried
    if "recursion depth mismatch" not in str(exc):
        return False
    retried += 1
    return True


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """:func:`ast.parse` of a module, one thread at a time."""
    with _LOCK:
        for k in range(TRIES):
            try:
                return ast.parse(source, filename=filename)
            except SystemError as exc:
                if not _raced(exc) or k == TRIES - 1:
                    raise
    raise AssertionError("unreachable")


def literal_eval(node_or_string: str | ast.AST) -> Any:
    """:func:`ast.literal_eval`, which parses a string with ``ast.parse``, under the same lock."""
    with _LOCK:
        for k in range(TRIES):
            try:
                return ast.literal_eval(node_or_string)
            except SystemError as exc:
                if not _raced(exc) or k == TRIES - 1:
                    raise
    raise AssertionError("unreachable")
