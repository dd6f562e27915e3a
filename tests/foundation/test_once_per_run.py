"""helpers.once_per_run: a heavy fixture asked for by two workers at once is computed once;
the other waits and reads the same result; a failure stores nothing."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers import once_per_run


def test_two_askers_at_once_compute_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    calls: list[int] = []
    lock = threading.Lock()

    def compute() -> dict[str, list[int]]:
        with lock:
            calls.append(threading.get_ident())
        time.sleep(0.3)  # the second asker arrives while the first computes
        return {"value": [1, 2, 3]}

    tmp_path_factory.getbasetemp()  # made once, before the threads (as each worker does)
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda _: once_per_run(tmp_path_factory, "probe", compute), range(2)))
    assert len(calls) == 1
    assert got == [{"value": [1, 2, 3]}] * 2


def test_a_failure_stores_nothing(tmp_path_factory: pytest.TempPathFactory) -> None:
    def boom() -> int:
        raise RuntimeError("the fixture failed")

    with pytest.raises(RuntimeError):
        once_per_run(tmp_path_factory, "fails", boom)
    assert once_per_run(tmp_path_factory, "fails", lambda: 7) == 7
