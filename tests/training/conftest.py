"""The training tests need the ``train`` extra (torch, transformers, TRL, datasets, gguf, and
verl as scripts/setup.sh installs it): without it they skip, unless the run requires the extra
(scripts/test.sh), where they fail."""

from __future__ import annotations

import importlib

for _module in ("torch", "transformers", "trl", "datasets", "gguf"):
    try:
        importlib.import_module(_module)
    except ImportError as _exc:
        from helpers import missing_extra

        missing_extra("train", f"the training tests need the train extra: {_exc}; "
                      "pip install -e '.[train]'")
