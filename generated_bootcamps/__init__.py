"""The shipped bootcamp library: registry API for trainers.

    from generated_bootcamps import list_bootcamps, load_bootcamp
    Game24 = load_bootcamp("game24")
    bc = Game24.from_level("medium", seed=1)
    case = bc.case_generator()

Only accepted bootcamps are listed and loadable; each module's sha256 is checked against the
manifest before import.

:func:`load_bootcamp` imports the module into YOUR process: use it in a process that trusts this
library's code. ``synth`` itself never does (its CLI and the default reward run bootcamps in the
sandbox, see ``synth.training.reward``).
"""

from __future__ import annotations

from pathlib import Path

from synth.bootcamp import BaseBootcamp
from synth.library import Library

LIBRARY_DIR = Path(__file__).resolve().parent
_LIBRARY = Library(LIBRARY_DIR)

__all__ = ["LIBRARY_DIR", "list_bootcamps", "load_bootcamp"]


def list_bootcamps() -> list[str]:
    """Names of the accepted bootcamps in this library, sorted."""
    return _LIBRARY.list_bootcamps()


def load_bootcamp(name: str) -> type[BaseBootcamp]:
    """The bootcamp class registered under ``name``, imported into this process (hash-checked).

    The sha256 check proves the module is the one the manifest recorded, not that it is
    harmless. By calling this you trust the library's code: the module runs with this
    process's privileges, environment (API keys included), files and network, whatever it
    does at import time is done, and it can patch ``BaseBootcamp`` for every bootcamp of the
    process. To score without that trust, use ``synth.training.reward.compute_score`` (sandboxed)."""
    return _LIBRARY.load_bootcamp(name)
