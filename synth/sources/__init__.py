"""Task-description sources and their registry.

``get_source(name).load(**options)`` yields :class:`~synth.tasks.TaskDescription` items and
:class:`~synth.tasks.SourceError` items (one per skipped record) in one stream. Built-in
sources: ``codecontests``, ``humaneval``, ``local``, ``jsonl``.
"""

from synth.sources.base import (
    DuplicateSourceError,
    Item,
    Source,
    SourceUnavailableError,
    UnknownSourceError,
    get_source,
    list_sources,
    register,
)
from synth.sources.codecontests import CodeContestsSource
from synth.sources.humaneval import HumanEvalSource
from synth.sources.jsonl import JsonlSource
from synth.sources.local import LocalSource

__all__ = [
    "CodeContestsSource",
    "DuplicateSourceError",
    "HumanEvalSource",
    "Item",
    "JsonlSource",
    "LocalSource",
    "Source",
    "SourceUnavailableError",
    "UnknownSourceError",
    "get_source",
    "list_sources",
    "register",
]

for _source in (CodeContestsSource(), HumanEvalSource(), LocalSource(), JsonlSource()):
    register(_source)
del _source
