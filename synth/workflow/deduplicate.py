"""The commit node's duplicate check (:mod:`filters.dedup`): the candidate is compared with its
source family in the library, and committed only when it duplicates none of them.

A ``dedup`` event records every check (the verdict, the bootcamps compared, found by hash,
cross-scored and drawn again, the time); a duplicate's evidence is also kept in the run folder
(``dedup/<task>.json``). The Ray executor commits through its library writer actor, which runs
the same check before it commits.
"""

from __future__ import annotations

import asyncio
from typing import Any

from filters.dedup import DedupVerdict, commit_unless_duplicate
from filters.dedup_index import family_of, task_text_key
from synth.library import Library
from synth.runs import task_slug
from synth.tasks import TaskDescription
from synth.workflow.state import WorkflowContext

__all__ = ["commit_checked", "statement_key"]


def statement_key(task: TaskDescription) -> str:
    """The task text's key the record keeps: statement and input/output specifications."""
    return task_text_key("\n".join(filter(None, (task.statement, task.input_spec,
                                                  task.output_spec))))


async def commit_checked(ctx: WorkflowContext, task: TaskDescription, code: str,
                         class_name: str, record: dict[str, Any],
                         replacing: str | None) -> DedupVerdict:
    """Commit the record (``Library.commit``'s keyword arguments) unless the candidate
    duplicates a live bootcamp of its family (``replacing``: the record a ``--force`` commit
    replaces, not compared). Returns the verdict: ``duplicate_of`` set means nothing was
    written. The commit's LibraryError propagates. Under the Ray executor the check and the
    commit run in the library writer actor (one at a time, on the library's node)."""
    library = ctx.library
    how: dict[str, Any] = dict(
        family=family_of(task.source, "generated"), class_name=class_name,
        text_key=statement_key(task), exclude=[replacing] if replacing else [])
    if not ctx.config.dedup:
        verdict = DedupVerdict(skipped="--no-dedup")
        library.commit(**record)
    elif isinstance(library, Library):
        async with ctx.sandbox_slots:
            verdict, _ = await asyncio.to_thread(
                commit_unless_duplicate, library, code, lambda: library.commit(**record),
                backend=ctx.backend, **how)
    else:  # the Ray executor's library proxy: its writer actor draws with the run's backend
        verdict, _ = await asyncio.to_thread(
            library.commit_unless_duplicate, record, {**how, "backend": ctx.config.sandbox})
    ctx.run.events.emit(
        "dedup", task.id, duplicate_of=verdict.duplicate_of, by=verdict.by,
        candidate_agreed=verdict.candidate_agreed, candidate_probes=verdict.candidate_probes,
        existing_agreed=verdict.existing_agreed, existing_probes=verdict.existing_probes,
        compared=verdict.compared, found_by_hash=verdict.found_by_hash,
        cross_scored=verdict.cross_scored, redrawn=verdict.redrawn,
        unavailable=sorted(verdict.unavailable), skipped=verdict.skipped,
        elapsed_s=verdict.elapsed_s)
    if verdict.duplicate_of is not None:
        ctx.run.write_json(f"dedup/{task_slug(task.id)}.json", verdict.model_dump(mode="json"))
    return verdict
