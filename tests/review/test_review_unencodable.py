"""The review page on text UTF-8 cannot encode (lone surrogates in a bootcamp's prompt, its
exception, an episode's observation, a run folder's records): the page renders, the text shown
escaped; never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from synth.library import Library
from synth.web import create_app

REPO = Path(__file__).resolve().parents[2]
HOST = REPO / "tests" / "defects" / "host"
TOY = '''"""Toy bootcamp for the review tests: the sum of a list of integers."""

from synth.bootcamp import BaseBootcamp


class ToySumBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}

    def __init__(self, seed=None, n=4, hi=99):
        super().__init__(seed=seed)
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == str(sum(identity["numbers"]))
'''
PROMPT = '        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."'
VARIANTS = {
    "prompt": TOY.replace(PROMPT, PROMPT.replace("Add these", "Add \\ud800 these")),
    "low surrogate at the end": TOY.replace(PROMPT, PROMPT + ' + "\\udfff"'),
    "exception": TOY.replace(PROMPT, '        raise ValueError("cannot add \\udc00 " + nums)'),
    "multi-turn observation": (HOST / "surrogate_observation.py").read_text(encoding="utf-8"),
}


def commit(lib: Library, name: str, code: str, **fields: object) -> None:
    cls_name = code.split("\nclass ", 1)[1].split("(", 1)[0]
    lib.commit(name=name, code=code, class_name=cls_name, source="handwritten",
               task_id=f"handwritten/{name}", origin="handwritten", status="pending-review",
               **fields)


@pytest.fixture
def client(tmp_path: Path):
    lib = Library(tmp_path / "lib")
    (tmp_path / "lib").mkdir()
    for n, (_, code) in enumerate(sorted(VARIANTS.items())):
        commit(lib, f"odd_{n}", code)
    app = create_app(lib, tmp_path / "runs", sandbox="process", per_level=1)
    with TestClient(app, base_url="http://127.0.0.1", follow_redirects=False,
                    headers={"sec-fetch-site": "same-origin"}) as c:
        c.lib = lib  # type: ignore[attr-defined]
        yield c


def test_every_page_renders_with_the_text_escaped(client: TestClient):
    index = client.get("/?status=all")
    assert index.status_code == 200
    for n, name in enumerate(sorted(VARIANTS)):
        res = client.get(f"/b/odd_{n}")
        assert res.status_code == 200, (name, res.text[-500:])
        page = res.text
        page.encode("utf-8")
        assert "\\ud" in page or "U+D" in page, name  # shown, escaped
        if name != "exception":
            assert "UTF-8" in page, name  # the refusal says why


def test_a_run_folder_record_with_a_surrogate_escape_renders(client: TestClient, tmp_path: Path):
    """Run folders are files: a JSON "\\ud800" escape in a filter record is not a lone surrogate
    on the page, and the page still renders."""
    lib: Library = client.lib  # type: ignore[attr-defined]
    commit(lib, "from_run", TOY, run_id="r1")
    run = tmp_path / "runs" / "r1"
    (run / "filter").mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"config": {}}), encoding="utf-8")
    sample = {"index": 0, "level": "easy", "seed": 1, "prompt_head": "Add \udc00",
              "response": "<answer>\ud800 solver</answer>", "score": 0.0, "outcome": "passed"}
    record = {"verdict": "accepted", "reason": "why \udfff", "samples": [sample]}
    (run / "filter" / "handwritten_from_run.json").write_text(json.dumps(record), encoding="utf-8")
    res = client.get("/b/from_run")
    assert res.status_code == 200, res.text[-800:]
    res.text.encode("utf-8")
    # pydantic's JSON parser refuses the escape: the page says which record it could not read
    assert "unreadable filter record handwritten_from_run.json" in res.text


def test_render_escapes_whatever_it_is_given(client: TestClient):
    site = client.app.state.site  # type: ignore[attr-defined]
    res = site.error(500, "Title \ud800", "message \udfff end")
    body = res.body.decode("utf-8")
    assert res.status_code == 500 and "message \\udfff end" in body and "Title \\ud800" in body
