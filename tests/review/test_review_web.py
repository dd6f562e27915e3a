"""The review web app in-process (Starlette's test client): filters, escaping, decisions, guards."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import HOSTILE, HOSTILE_TITLE, ReviewRun
from markupsafe import escape
from starlette.testclient import TestClient

from synth.library import Library
from synth.web import create_app

BASE = "http://127.0.0.1"


@pytest.fixture
def client(review_run: ReviewRun, library: Path, tmp_path: Path):
    runs = tmp_path / "runs"
    shutil.copytree(review_run.runs_dir, runs)
    app = create_app(Library(library), runs, sandbox="process", per_level=1)
    # a browser says where a request came from; the page draws cases only for its own site
    with TestClient(app, base_url=BASE, follow_redirects=False,
                    headers={"sec-fetch-site": "same-origin"}) as c:
        c.runs_dir = runs  # type: ignore[attr-defined]
        yield c


def _listed(page: str) -> list[str]:
    return re.findall(r'class="name" href="/b/([a-z0-9_]+)', page)


def _esc(text: str) -> str:
    return str(escape(text))


def _token(page: str) -> str:
    m = re.search(r'name="token" value="([^"]+)"', page)
    assert m
    return m.group(1)


def test_list_search_and_filters(client: TestClient, library: Path):
    lib = Library(library)
    lib.set_status("local_revise_b", "accepted")
    page = client.get("/").text  # default: pending review
    assert _listed(page) == ["local_accept_a", "local_accept_x", HOSTILE]
    assert _listed(client.get("/?status=all").text) == ["local_accept_a", "local_accept_x",
                                                          "local_revise_b", HOSTILE]
    assert _listed(client.get("/?status=accepted").text) == ["local_revise_b"]
    assert _listed(client.get("/?status=all&source=handwritten").text) == [HOSTILE]
    assert _listed(client.get("/?status=all&q=revise").text) == ["local_revise_b"]
    assert _listed(client.get("/?status=all&q=friends+sum").text) == ["local_accept_x"]  # title words
    rates = {r.name: r.pass_rate for r in lib.records(None)}
    lo = sorted(v for v in rates.values() if v is not None)[1]
    expected = sorted(n for n, v in rates.items() if v is not None and v >= lo)
    assert _listed(client.get(f"/?status=all&min={lo}").text) == expected
    assert _listed(client.get(f"/?status=all&max={lo - 1e-9}").text) == sorted(
        n for n, v in rates.items() if v is not None and v < lo)
    assert _listed(client.get("/?status=all&min=90").text) == []  # 90 means 90 %
    assert "No bootcamp matches" in client.get("/?status=all&min=0.9").text


def test_detail_shows_everything(client: TestClient, review_run: ReviewRun):
    filt = json.loads((review_run.run_dir / "filter" / "local_revise-b.json").read_text())
    res = client.get("/b/local_revise_b")
    assert res.status_code == 200
    page = res.text
    for anchor in ("calibration", "samples", "solver", "gate", "history", "code"):
        assert f'id="{anchor}"' in page
    assert "<svg class=\"chart\"" in page and page.count('class="bar"') == 3
    assert page.count('class="case"') == 3  # one per level
    assert re.findall(r'<div class="level-head"><span class="lvl-tag">(\w+)</span>', page) == [
        "easy", "medium", "hard"]
    rows = re.findall(r'<tr class="row-(right|wrong)">', page)
    assert rows == ["right" if s["score"] == 1.0 else "wrong" for s in filt["samples"]]
    assert "Round 1: round_0_0 → round_1_0" in page
    assert '<tr class="d-del"><td class="ln">3</td><td class="ln"></td>' in page
    assert "import os" in page
    assert 'class="hl"' in page  # highlighted code
    assert res.headers["content-security-policy"].startswith("default-src 'none'")
    assert "script-src" not in res.headers["content-security-policy"]
    assert client.get("/b/nope").status_code == 404


def test_untrusted_text_is_escaped(client: TestClient):
    # a solver response with markup, written into the run's filter record
    path = client.runs_dir / next(iter(p.name for p in client.runs_dir.iterdir())) / "filter"  # type: ignore[attr-defined]
    rec = json.loads((path / "local_accept-a.json").read_text())
    rec["samples"][0]["response"] = "<script>alert(1)</script><answer>7</answer>"
    (path / "local_accept-a.json").write_text(json.dumps(rec))
    page = client.get("/b/local_accept_a").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;answer&gt;7&lt;/answer&gt;" in page
    hostile = client.get(f"/b/{HOSTILE}").text
    assert "<script>" not in hostile and "<img" not in hostile
    assert _esc("<script>document.title='pwned-by-prompt'</script>") in hostile
    assert _esc("<img src=x onerror=\"document.title='pwned-by-answer'\">") in hostile
    assert _esc("<i>hand</i>-written markup") in hostile
    listing = client.get("/?status=all").text
    assert "<script>" not in listing and _esc(HOSTILE_TITLE) in listing


def test_decisions_through_forms(client: TestClient, library: Path):
    page = client.get("/b/local_accept_a").text
    token = _token(page)
    # no token / wrong token: refused, nothing changes
    assert client.post("/b/local_accept_a/reject", data={"reason": "x"}).status_code == 403
    assert client.post("/b/local_accept_a/reject", data={"reason": "x", "token": "t"}).status_code == 403
    res = client.post("/b/local_accept_a/reject", data={"reason": "  ", "token": token})
    assert res.status_code == 400 and "needs a reason" in res.text
    assert client.post("/b/local_accept_a/delete", data={"token": token}).status_code == 404
    assert Library(library).record("local_accept_a").status == "pending-review"
    res = client.post("/b/local_accept_a/reject", data={"reason": "sums <b>wrong</b>", "token": token})
    assert res.status_code == 303 and res.headers["location"].startswith("/b/local_accept_a?done=rejected")
    rec = Library(library).record("local_accept_a")
    assert (rec.status, rec.review_reason) == ("rejected-in-review", "sums <b>wrong</b>")
    after = client.get(res.headers["location"]).text
    assert "Rejected: “sums &lt;b&gt;wrong&lt;/b&gt;”" in after and 'id="reject"' not in after
    res = client.post("/b/local_accept_a/accept", data={"token": token})
    assert res.status_code == 303
    assert Library(library).list_bootcamps() == ["local_accept_a"]
    assert client.post("/b/nope/accept", data={"token": token}).status_code == 404


def test_only_loopback_host_names(client: TestClient):
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200
