"""The job's command line: ``_synth_kit.py serve ...`` (the method server) and
``_synth_kit.py run-many PROGRAM`` (a standalone program run on many inputs).

:data:`LAUNCHER` is the text of :data:`KIT_NAME`, the job's ``argv[0]``: it imports this module
from the kit's package folder (:data:`KIT_PACKAGE`) and runs :func:`main`, and holds nothing
else.
"""

from __future__ import annotations

import sys

from .forkrun import run_many
from .setup import serve
from .wire import KIT_NAME, KIT_PACKAGE

#: The text of :data:`KIT_NAME` in every job.
LAUNCHER = f'''"""The sandbox kit's entry point: the kit is the package {KIT_PACKAGE} next to this file."""
if __name__ == "__main__":
    import sys

    from {KIT_PACKAGE}.cli import main

    sys.exit(main(sys.argv[1:]))
'''


def main(argv: list[str]) -> int:
    """``serve MODULE CLASS MODE [--shift-clock] [label...]`` (never returns) or ``run-many
    PROGRAM``; anything else exits with the usage."""
    if len(argv) >= 4 and argv[0] == "serve":  # MODE: native|intern|checker|validator
        return serve(argv[1:])
    if len(argv) >= 2 and argv[0] == "run-many":
        return run_many(argv[1:])
    sys.exit(f"usage: {KIT_NAME} serve MODULE CLASS MODE [--shift-clock] | run-many PROGRAM")
