"""The review page bounds the sandboxes it starts (issue 22, part 5).

A GET of a bootcamp's page draws sample cases in a sandbox. Other sites may not make the server
do that (``Sec-Fetch-Site: cross-site``, or no header and no page token: nothing is drawn), at
most ``MAX_CONCURRENT_DRAWS`` draws run at once (a page waits briefly, then gets a 503 that says
so), a bootcamp is drawn once however many pages ask at the same time, and a failed draw is kept
for a while instead of being drawn again on every visit. The draw is instrumented: a spy around
``draw_samples`` counts the draws started and the most running at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import synth.web.app as web
from synth.library import Library
from synth.reporting.review import SampleCase
from synth.web import create_app

BASE = "http://127.0.0.1:8765"
CODE = '''"""Toy {n}: add two numbers (test of the review page's draws)."""

from synth.bootcamp import BaseBootcamp


class ToyBootcamp(BaseBootcamp):
    def case_generator(self):
        return {{"a": self.rng.randint(0, 9), "b": self.rng.randint(0, 9)}}

    @staticmethod
    def prompt_func(identity):
        return f"{{identity['a']}} + {{identity['b']}}? Answer as <answer>N</answer>"

    @classmethod
    def reference_answer(cls, identity):
        {answer}

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == str(identity["a"] + identity["b"])
'''
GOOD = 'return str(identity["a"] + identity["b"])'
BROKEN = 'raise RuntimeError("no answer today")'
NAMES = [f"toy_{n}" for n in range(6)]


class Spy:
    """Counts draws started and the most running at once; each draw takes ``seconds``."""

    def __init__(self, seconds: float, real: Callable[..., tuple[list[SampleCase], str]] | None = None):
        self.seconds, self.real = seconds, real
        self.started = self.live = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, code: str, per_level: int, backend: str, seed: int = 0) -> tuple[list[SampleCase], str]:
        with self.lock:
            self.started += 1
            self.live += 1
            self.most = max(self.most, self.live)
        try:
            time.sleep(self.seconds)
            if self.real is not None:
                return self.real(code, per_level, backend, seed)
            return [SampleCase("default", 0, "1 + 2?", "3", '{"a": 1, "b": 2}')], ""
        finally:
            with self.lock:
                self.live -= 1


def _library(root: Path, answer: str = GOOD) -> Library:
    lib = Library(root)
    for n, name in enumerate(NAMES):
        lib.commit(name=name, code=CODE.format(n=n, answer=answer), class_name="ToyBootcamp",
                   source="handwritten", task_id=f"handwritten/{name}", origin="handwritten",
                   status="pending-review", levels=["default"])
    return lib


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(_library(tmp_path / "lib"), tmp_path / "runs", sandbox="process", per_level=1)
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        yield c


def _spy(monkeypatch: pytest.MonkeyPatch, spy: Spy) -> Spy:
    monkeypatch.setattr(web, "draw_samples", spy)
    return spy


def _get_all(client: TestClient, paths: list[str], headers: dict[str, str]) -> list[tuple[int, str]]:
    def one(path: str) -> tuple[int, str]:
        res = client.get(path, headers=headers)
        return res.status_code, res.text

    with ThreadPoolExecutor(max_workers=len(paths)) as pool:
        return list(pool.map(one, paths))


@pytest.mark.parametrize("headers", [{"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                                     {}], ids=["cross-site", "same-site", "no-header"])
def test_other_sites_start_no_sandbox(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                      headers: dict[str, str]):
    spy = _spy(monkeypatch, Spy(0.05))
    paths = [f"/b/{NAMES[n % len(NAMES)]}" for n in range(30)]
    started = time.monotonic()
    results = _get_all(client, paths, headers)
    assert spy.started == 0
    assert time.monotonic() - started < 20
    for status, text in results:
        assert status == 200 and "sample cases were not drawn" in text
        assert "Draw sample cases" in text  # a link with the token: the reviewer's own click
    # a wrong token is no token
    assert "were not drawn" in client.get(f"/b/{NAMES[0]}?t=guess", headers=headers).text
    assert spy.started == 0
    site = client.app.state.site  # type: ignore[attr-defined]
    page = client.get(f"/b/{NAMES[0]}?t={site.token}", headers=headers)
    assert page.status_code == 200 and "1 + 2?" in page.text and spy.started == 1
    # what is kept is shown to anyone: showing starts nothing
    again = client.get(f"/b/{NAMES[0]}", headers=headers).text
    assert "1 + 2?" in again and "were not drawn" not in again and spy.started == 1


@pytest.mark.parametrize("fetch", ["same-origin", "none"])
def test_legit_pages_draw_at_most_the_bound_at_once(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                    fetch: str):
    spy = _spy(monkeypatch, Spy(0.3))
    paths = [f"/b/{NAMES[n % len(NAMES)]}" for n in range(30)]
    started = time.monotonic()
    results = _get_all(client, paths, {"sec-fetch-site": fetch})
    elapsed = time.monotonic() - started
    assert [s for s, _ in results] == [200] * 30
    assert all("1 + 2?" in text for _, text in results)
    assert spy.most <= web.MAX_CONCURRENT_DRAWS and spy.most >= 1
    assert spy.started == len(NAMES)  # one draw per bootcamp, however many pages asked at once
    assert elapsed < 15


def test_pages_past_the_wait_get_a_503(client: TestClient, monkeypatch: pytest.MonkeyPatch):
    spy = _spy(monkeypatch, Spy(1.5))
    site = client.app.state.site  # type: ignore[attr-defined]
    site.draw_wait_s = 0.3
    started = time.monotonic()
    results = _get_all(client, [f"/b/{name}" for name in NAMES], {"sec-fetch-site": "same-origin"})
    assert time.monotonic() - started < 10
    busy = [text for status, text in results if status == 503]
    assert spy.most <= web.MAX_CONCURRENT_DRAWS
    assert len(busy) == len(NAMES) - spy.started and busy
    assert all("the server is busy" in text and "reload this page" in text for text in busy)
    res = client.get(f"/b/{NAMES[-1]}", headers={"sec-fetch-site": "same-origin"})
    assert res.status_code in (200, 503)


def test_a_failing_bootcamp_is_drawn_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The real draw (process sandbox) of a bootcamp whose reference answer raises: drawn once
    for five visits, the failure shown each time; drawn again once the failure has expired."""
    spy = _spy(monkeypatch, Spy(0.0, real=web.draw_samples))
    app = create_app(_library(tmp_path / "lib", BROKEN), tmp_path / "runs", sandbox="process",
                     per_level=1)
    with TestClient(app, base_url=BASE, follow_redirects=False,
                    headers={"sec-fetch-site": "same-origin"}) as c:
        texts = [c.get(f"/b/{NAMES[0]}").text for _ in range(5)]
        assert spy.started == 1
        assert all("no answer today" in t for t in texts)
        assert all("this failure is kept" in t for t in texts[1:])
        concurrent = _get_all(c, [f"/b/{NAMES[1]}"] * 8, {})
        assert [s for s, _ in concurrent] == [200] * 8 and spy.started == 2
        app.state.site.failure_ttl_s = 0.0
        assert "no answer today" in c.get(f"/b/{NAMES[0]}").text
        assert spy.started == 3
