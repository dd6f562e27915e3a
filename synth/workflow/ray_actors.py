"""The Ray executor's actors, pinned to the driver's node (see :mod:`synth.workflow.ray_executor`):
the one library writer (which also runs the duplicate check before a commit), the one event-log writer, and a cluster-wide limit per model endpoint.

Kept apart from the executor, and light to import (the library only where it is written), so
that their processes start fast: a task's first model call waits for its endpoint's limiter.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from synth.library import BootcampRecord

#: seconds after which a lease of a holder that stopped renewing it lapses
LEASE_TTL_S = 60.0


class LibraryWriter:
    """The one writer of the library: each call runs alone (a sync actor), so a record, its
    module and its checker file are written by one process, in the order the calls arrive."""

    def __init__(self, root: str) -> None:
        from synth.library import Library

        self.library = Library(root)
        self.library.root.mkdir(parents=True, exist_ok=True)
        self._reserved: dict[str, str] = {}  # name -> task id that was given it, until commit

    def has_task(self, source: str, task_id: str) -> BootcampRecord | None:
        return self.library.has_task(source, task_id)

    def ping(self) -> bool:
        return True

    def curriculum(self) -> tuple[str, ...]:
        """The level names the library requires first (its manifest's ``curriculum``)."""
        return self.library.curriculum

    def unique_name(self, base: str, holder: str) -> str:
        """A free name, also kept from other tasks until ``holder`` commits (two workers may
        ask for the same base name between their commits)."""
        name = self.library.unique_name(base)
        others = {n for n, h in self._reserved.items() if h != holder}
        if name in others:
            taken = set(self.library.read_manifest().by_name()) | others
            i = 2
            while f"{name}_{i}" in taken:
                i += 1
            name = f"{name}_{i}"
        self._reserved[name] = holder
        return name

    def commit(self, kwargs: dict[str, Any]) -> tuple[BootcampRecord | None, str]:
        """``Library.commit(**kwargs)``: (record, "") or (None, the refusal's message)."""
        from synth.library import LibraryError

        try:
            record = self.library.commit(**kwargs)
        except LibraryError as exc:
            return None, str(exc)
        self._reserved.pop(record.name, None)
        return record, ""

    def commit_unless_duplicate(self, kwargs: dict[str, Any], how: dict[str, Any]
                                ) -> tuple[dict[str, Any], BootcampRecord | None, str]:
        """``Library.commit(**kwargs)`` unless the module duplicates a live bootcamp of its
        family (:func:`filters.dedup.commit_unless_duplicate`; ``how``: its keyword arguments):
        (the verdict as JSON, the record or None, the commit's refusal or ""). The check and
        the commit run here, one call at a time, so two workers never both commit the same
        task under two names."""
        from filters.dedup import commit_unless_duplicate
        from synth.library import LibraryError

        try:
            verdict, record = commit_unless_duplicate(
                self.library, kwargs["code"], lambda: self.library.commit(**kwargs), **how)
        except LibraryError as exc:
            return {}, None, str(exc)
        if record is not None:
            self._reserved.pop(record.name, None)
        return verdict.model_dump(mode="json"), record, ""

    def write_file(self, rel: str, text: str) -> None:
        self.library.write_file(rel, text)

    def remove_file(self, rel: str) -> None:
        self.library.remove_file(rel)


class EventSink:
    """The one writer of ``events.jsonl``; keeps the model calls' totals for the live view."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.totals = {"tokens_in": 0, "tokens_out": 0, "tokens_cached": 0, "cost_usd": 0.0,
                       "llm_calls": 0, "events": 0}

    def append(self, text: str, usage: tuple[int, int, int, float] | None) -> None:
        # one write with O_APPEND, as synth.runs.EventLog does (not imported: it pulls in the
        # model client, and this process should start fast)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        self.totals["events"] += text.count("\n")
        if usage is not None:
            tin, tout, cached, cost = usage
            self.totals["tokens_in"] += tin
            self.totals["tokens_out"] += tout
            self.totals["tokens_cached"] += cached
            self.totals["cost_usd"] += cost
            self.totals["llm_calls"] += 1

    def read_totals(self) -> dict[str, float]:
        return dict(self.totals)


class EndpointLimiter:
    """An async semaphore of ``limit`` leases for one endpoint, shared by the whole cluster.
    Leases are granted first come, first served; ``stats`` says the most ever held at once."""

    def __init__(self, limit: int, ttl_s: float = LEASE_TTL_S) -> None:
        self.limit = limit
        self.ttl_s = ttl_s
        self.leases: dict[str, tuple[str, float]] = {}  # lease id -> (holder's node, renewed)
        self.waiters: OrderedDict[str, tuple[asyncio.Future[bool], str]] = OrderedDict()
        self.max_held = 0
        self.granted = 0
        self.lapsed = 0
        self._janitor: asyncio.Task[None] | None = None

    async def acquire(self, lease: str, node: str) -> bool:
        if self._janitor is None:
            self._janitor = asyncio.get_running_loop().create_task(self._sweep())
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.waiters[lease] = (fut, node)
        self._grant()
        return await fut

    def renew(self, lease: str) -> None:
        if lease in self.leases:
            self.leases[lease] = (self.leases[lease][0], time.monotonic())

    def release(self, lease: str) -> None:
        """Give a lease back (or give up waiting for it)."""
        self.leases.pop(lease, None)
        waiting = self.waiters.pop(lease, None)
        if waiting is not None and not waiting[0].done():
            waiting[0].set_result(False)
        self._grant()

    def stats(self) -> dict[str, int]:
        return {"limit": self.limit, "held": len(self.leases), "max_held": self.max_held,
                "waiting": len(self.waiters), "granted": self.granted, "lapsed": self.lapsed}

    def _grant(self) -> None:
        while self.waiters and len(self.leases) < self.limit:
            lease, (fut, node) = self.waiters.popitem(last=False)
            if fut.done():
                continue
            self.leases[lease] = (node, time.monotonic())
            self.granted += 1
            self.max_held = max(self.max_held, len(self.leases))
            fut.set_result(True)

    async def _sweep(self) -> None:
        """Take back the leases of dead holders: lapsed ones at once, and, while requests
        wait, those of nodes the cluster has declared dead (checked every 2 s at most)."""
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            gone = {k for k, (_, t) in self.leases.items() if now - t > self.ttl_s}
            if self.waiters and self.leases:
                import ray

                alive = {n["NodeID"] for n in ray.nodes() if n.get("Alive")}
                gone |= {k for k, (node, _) in self.leases.items() if node not in alive}
                await asyncio.sleep(1.0)
            for k in gone:
                if self.leases.pop(k, None) is not None:
                    self.lapsed += 1
            self._grant()
