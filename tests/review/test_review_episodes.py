"""The review replays multi-turn episodes turn by turn (issue 15): the model (reference episodes
played in the sandbox, the solver's recorded episodes), the CLI, and the page (a step-through
without script, and a POST form that replays the reviewer's own actions in the sandbox).

Every reward shown is compared with an independent replay (a fresh sandboxed environment) and,
for Mastermind, with the score its stated rules give. A hostile module (markup in every
observation, a step that raises on one action) must be shown as text and as a finding."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import REVIEW, run_cli
from helpers import TOY_SUM
from helpers import mastermind_score as _rule_score
from markupsafe import escape
from starlette.testclient import TestClient
from typer.testing import CliRunner

from filters.self_consistency import FilterConfig, FilterResult, run_filter
from synth.commands.review import app as review_app
from synth.library import Library
from synth.reporting.review import (
    EPISODE_TEXT_CHARS,
    MAX_REPLAY_ACTION_CHARS,
    MAX_REPLAY_ACTIONS,
    MAX_SHOWN_TURNS,
    as_dict,
    gather,
    parse_actions,
)
from synth.runs import task_slug
from synth.serving.rollout import EpisodeEnv, reference_episode, replay
from synth.web import create_app
from synth.web.app import MAX_REPLAY_FORM_BYTES

BASE = "http://127.0.0.1"
RUN_ID = "run-episodes"

HOSTILE_GAME = '''"""Hostile multi-turn module of the review tests: markup in every observation (which
echoes the action), and a step that raises on the action "boom"."""

from synth.bootcamp import MultiTurnBootcamp


class HostileGame(MultiTurnBootcamp):
    MAX_TURNS = 4
    LEVELS = {"easy": {"top": 3}, "hard": {"top": 4}}

    def __init__(self, seed=None, top=4):
        super().__init__(seed=seed)
        self.top = top

    def case_generator(self):
        return {"secret": self.rng.randint(2, self.top), "top": self.top}

    @classmethod
    def reset(cls, identity):
        state = {"secret": identity["secret"], "t": 0, "done": False, "reward": 0.0}
        return ("<script>document.title='pwned-by-observation'</script>[bold red]rich[/] "
                "Guess a number as <answer>N</answer>."), state

    @classmethod
    def step(cls, state, action):
        if action == "boom":
            raise RuntimeError("<b>step exploded</b> on boom")
        if state["done"]:
            return {"observation": None, "reward": state["reward"], "done": True, "state": state}
        t = state["t"] + 1
        won = action.strip() == str(state["secret"])
        done = won or t >= cls.MAX_TURNS
        new = dict(state, t=t, done=done, reward=1.0 if won else 0.0)
        obs = None if done else ("<img src=x onerror=\\"document.title='pwned-by-step'\\">not "
                                 + action + "; turn " + str(t + 1))
        return {"observation": obs, "reward": new["reward"], "done": done, "state": new}

    @classmethod
    def reference_policy(cls, state):
        return str(state["t"] + 1)
'''
# the reference policy's second step raises: a contract break on the reference episode
BROKEN_GAME = HOSTILE_GAME.replace('if action == "boom":', 'if action == "boom" or state["t"] == 1:')
# the largest MAX_TURNS the contract allows, a policy that never wins, long observations: the review must stay bounded
ENDLESS_GAME = (HOSTILE_GAME.replace("MAX_TURNS = 4", "MAX_TURNS = 1000")
                .replace('return str(state["t"] + 1)', 'return "0"')
                .replace('+ "; turn " + str(t + 1))', '+ "; turn " + str(t + 1) + "x" * 50000)'))


@dataclass(frozen=True)
class Setup:
    library: Path
    runs_dir: Path
    mastermind: str  # its code
    filter: FilterResult  # the solver's episodes on it


# -- independent truth ------------------------------------------------------------------------


def _children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


@pytest.fixture(autouse=True)
def no_leftovers() -> Iterator[None]:
    """No sandbox process a test started survives it."""
    before = _children()
    yield
    deadline = time.monotonic() + 5.0
    while (left := _children() - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"sandbox processes left behind: {left}"


_RULES = re.compile(r"secret code of (\d+) pegs; each peg is one of (\d+) colours")


def _solver_filter(code: str) -> FilterResult:
    """The acceptance filter run on Mastermind with a scripted solver (random legal guesses,
    some illegal ones, some without an answer)."""
    rng = random.Random(5)

    async def chat(messages: list[dict[str, str]]) -> str:
        rules = _RULES.search(messages[0]["content"])
        assert rules
        length, colours = int(rules.group(1)), int(rules.group(2))
        roll = rng.random()
        if roll < 0.1:
            return "I give up"
        if roll < 0.2:
            return "<answer>9 9</answer>"
        guess = " ".join(str(rng.randint(1, colours)) for _ in range(length))
        return f"Let me try.<script>x</script> <answer>{guess}</answer>"

    async def solve(prompt: str) -> str:
        raise AssertionError("chat is given")

    cfg = FilterConfig(samples=6, seed=2, early_stop=False, pool_size=1, solver_concurrency=2)
    return asyncio.run(run_filter(code, solve, chat=chat, config=cfg, backend="process"))


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    tmp = tmp_path_factory.mktemp("review-episodes")
    code = Library().checked_code("mastermind")[1]
    lib = Library(tmp / "lib")
    lib.commit(name="mastermind", code=code, class_name="MastermindBootcamp", source="handwritten",
               task_id="handwritten/mastermind", origin="handwritten", status="pending-review",
               levels=["easy", "medium", "hard"], run_id=RUN_ID)
    for name, text in (("hostile_game", HOSTILE_GAME), ("broken_game", BROKEN_GAME),
                       ("endless_game", ENDLESS_GAME)):
        lib.commit(name=name, code=text, class_name="HostileGame", source="toys",
                   task_id=f"toys/{name}", origin="handwritten", status="pending-review",
                   levels=["easy", "hard"])
    lib.commit(name="toy_sum", code=TOY_SUM, class_name="ToySumBootcamp", source="toys",
               task_id="toys/toy_sum", origin="handwritten", status="pending-review",
               levels=["easy", "hard"])
    result = _solver_filter(code)
    assert len(result.samples) == 6 and all(s.episode for s in result.samples), result.reason
    folder = tmp / "runs" / RUN_ID / "filter"
    folder.mkdir(parents=True)
    (folder / f"{task_slug('handwritten/mastermind')}.json").write_text(result.model_dump_json())
    return Setup(tmp / "lib", tmp / "runs", code, result)


@pytest.fixture
def client(setup: Setup) -> Iterator[TestClient]:
    web = create_app(Library(setup.library), setup.runs_dir, sandbox="process", per_level=1)
    with TestClient(web, base_url=BASE, follow_redirects=False,
                    headers={"sec-fetch-site": "same-origin"}) as c:
        yield c


# -- reading the page -------------------------------------------------------------------------


def _token(page: str) -> str:
    m = re.search(r'name="token" value="([^"]+)"', page)
    assert m
    return m.group(1)


def _section(page: str) -> str:
    start = page.index('<section class="card" id="episodes">')
    return page[start: page.index("</section>", start)]


def _turn_rows(page: str) -> list[tuple[int, str, str, str]]:
    """(turn, action, reward, done) of the shown episode's turn table, unescaped."""
    rows = re.findall(
        r'<tr class="turn-row">\s*<td class="num"><a href="[^"]*">(?:<b>)?(\d+)(?:</b>)?</a></td>\s*'
        r'<td class="mono"><div class="clip">(.*?)</div></td>\s*<td class="num">(.*?)</td>\s*'
        r"<td>(.*?)</td>", page, re.S)
    return [(int(n), html.unescape(a), re.sub(r"<[^>]+>", "", r), d) for n, a, r, d in rows]


def _rewards(page: str) -> list[float | None]:
    return [None if r == "broke the contract" else float(r) for _, _, r, _ in _turn_rows(page)]


def _shown_observations(page: str) -> list[str]:
    return [html.unescape(o) for o in re.findall(r'<pre class="prompt observation">(.*?)</pre>', page, re.S)]


def _replay(client: TestClient, name: str, data: dict[str, str]) -> Any:
    return client.post(f"/b/{name}/replay", data=data)


# -- the model ----------------------------------------------------------------------------------


def test_reference_and_solver_episodes_equal_an_independent_replay(setup: Setup) -> None:
    r = gather(Library(setup.library), "mastermind", setup.runs_dir, backend="process", per_level=2)
    assert r.multi_turn and r.max_turns == 14 and r.episodes_error == ""
    firsts = [next(s for s in r.samples if s.level == lvl) for lvl in ("easy", "medium", "hard")]
    assert [(e.kind, e.level, e.seed, e.identity) for e in r.reference_episodes] == [
        ("reference", s.level, s.seed, s.identity) for s in firsts]
    with EpisodeEnv(setup.mastermind, class_name="MastermindBootcamp", backend="process") as env:
        for ep in r.reference_episodes:
            identity = json.loads(ep.identity)
            assert not ep.error and ep.done and ep.score == 1.0
            assert ep.turns[-1].done and ep.turns[-1].reward == 1.0
            assert not any(t.done for t in ep.turns[:-1]) and len(ep.turns) >= 2
            ref = reference_episode(env, ep.identity)
            assert ep.actions == ref.actions
            assert ep.rewards == [t.reward for t in ref.turns]
            assert [t.observation for t in ep.turns] == [t.observation for t in ref.turns]
            for k in range(1, len(ep.actions) + 1):  # every turn's reward, replayed from reset
                assert replay(env, identity, ep.actions[:k]) == ep.rewards[k - 1]
            assert _rule_score(identity, ep.actions) == 1.0
        # the solver's episodes, as the filter recorded them, replay to their scores
        assert [e.key for e in r.solver_episodes] == [f"solver-{s.index}" for s in setup.filter.samples]
        for ep, rec in zip(r.solver_episodes, setup.filter.samples, strict=True):
            assert rec.episode is not None
            assert ep.kind == "solver" and ep.identity == rec.identity and not ep.error
            assert ep.actions == [t.action for t in rec.episode]
            assert [t.response for t in ep.turns] == [t.response for t in rec.episode]
            assert ep.score == rec.score == replay(env, ep.identity, ep.actions)
            assert ep.score == pytest.approx(_rule_score(json.loads(ep.identity), ep.actions))
    data = json.loads(json.dumps(as_dict(r)))
    assert data["max_turns"] == 14
    assert [e["turns"][-1]["reward"] for e in data["reference_episodes"]] == [1.0, 1.0, 1.0]
    assert len(data["solver_episodes"]) == 6


def test_a_contract_break_is_a_finding_and_long_episodes_are_bounded(setup: Setup) -> None:
    lib = Library(setup.library)
    broken = gather(lib, "broken_game", None, backend="process", per_level=1)
    assert broken.samples_error == "" and [e.level for e in broken.reference_episodes] == ["easy", "hard"]
    for ep in broken.reference_episodes:
        assert ep.score is None and not ep.done
        assert ep.rewards == [0.0, None] and ep.actions == ["1", "2"]  # the turn before stays
        assert "step (turn 2)" in ep.error and "RuntimeError: <b>step exploded</b>" in ep.error
    t0 = time.monotonic()
    endless = gather(lib, "endless_game", None, backend="process", per_level=1)
    assert time.monotonic() - t0 < 60
    assert endless.samples_error == "" and len(endless.reference_episodes) == 2
    for ep in endless.reference_episodes:
        assert len(ep.turns) == MAX_SHOWN_TURNS and not ep.done and ep.error == ""
        assert f"stopped after {MAX_SHOWN_TURNS} of MAX_TURNS = 1000" in ep.note
        assert max(len(t.observation) for t in ep.turns) < EPISODE_TEXT_CHARS + 100
        assert "more characters]" in ep.turns[1].observation


# -- the CLI ------------------------------------------------------------------------------------


def test_cli_prints_reference_episodes_turn_by_turn(setup: Setup) -> None:
    res = run_cli([*REVIEW, "show", "mastermind", "--library", str(setup.library), "--runs-dir",
                   str(setup.runs_dir), "--sandbox", "process", "--per-level", "1"])
    assert res.returncode == 0, res.stderr
    out = res.stdout
    want = gather(Library(setup.library), "mastermind", setup.runs_dir, backend="process",
                  per_level=1).reference_episodes
    for ep in want:
        assert ep.title in out
    printed = re.findall(r"action: '([^']*)' -> reward ([\d.]+), done (True|False)", out)
    assert printed == [(t.action, f"{t.reward:g}", str(t.done)) for ep in want for t in ep.turns]
    assert out.count("--- turn ") == sum(len(ep.turns) for ep in want)
    assert out.count("score: 1 (done)") == 3
    assert "solver episodes (actions turn by turn)" in out
    # untrusted observations are text, not rich markup; a finding is printed with its message
    cli = CliRunner()
    hostile = cli.invoke(review_app, ["show", "broken_game", "--library", str(setup.library),
                                      "--sandbox", "process", "--per-level", "1"],
                         env={"COLUMNS": "200"})
    assert hostile.exit_code == 0, hostile.output
    assert "[bold red]rich[/]" in hostile.output and "<script>" in hostile.output
    assert "FINDING: broken_game: step (turn 2) failed" in hostile.output
    as_json = cli.invoke(review_app, ["show", "mastermind", "--json", "--library", str(setup.library),
                                      "--sandbox", "process", "--per-level", "1", "--episodes", "0"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output)["reference_episodes"] == []


# -- the page -----------------------------------------------------------------------------------


def test_page_steps_through_one_episode(client: TestClient, setup: Setup) -> None:
    want = gather(Library(setup.library), "mastermind", setup.runs_dir, backend="process",
                  per_level=1)
    page = client.get("/b/mastermind").text
    assert '<a href="#episodes">Episodes</a>' in page and 'id="replay-form"' in page
    assert 'data-episode="ref-0"' in page and 'id="at">turn 1 of' in page
    ep = want.reference_episodes[1]
    n = len(ep.turns)
    page = client.get("/b/mastermind?episode=ref-1&turn=2").text
    assert f'id="at">turn 2 of {n}</span>' in page
    assert _shown_observations(page) == [ep.turns[1].observation]
    assert re.search(r'<pre class="answer action">([^<]*)</pre>', page).group(1) == ep.actions[1]  # type: ignore[union-attr]
    assert 'href="/b/mastermind?episode=ref-1&amp;turn=1#episodes" id="prev"' in page
    assert 'href="/b/mastermind?episode=ref-1&amp;turn=3#episodes" id="next"' in page
    assert _rewards(page) == ep.rewards and [a for _, a, _, _ in _turn_rows(page)] == ep.actions
    assert [d for *_, d in _turn_rows(page)] == ["–"] * (n - 1) + ["done"]
    last = client.get(f"/b/mastermind?episode=ref-1&turn={n + 50}").text  # clamped to the end
    assert f'id="at">turn {n} of {n}</span>' in last and 'id="next"' not in last
    assert 'score <b id="episode-score">1</b> (done)' in last
    every = client.get("/b/mastermind?episode=ref-1&turn=all").text
    assert _shown_observations(every) == [t.observation for t in ep.turns]
    # a solver episode: its responses, linked from the solver table
    rec = setup.filter.samples[0]
    assert rec.episode is not None
    assert f'?episode=solver-{rec.index}&amp;turn=1#episodes">{len(rec.episode)} turn(s)' in page
    solver = client.get(f"/b/mastermind?episode=solver-{rec.index}&turn=1").text
    shown = re.search(r'<pre class="response">(.*?)</pre>', solver, re.S)
    assert shown and html.unescape(shown.group(1)) == rec.episode[0].response
    assert "<script>x</script>" not in solver and "&lt;script&gt;x&lt;/script&gt;" in solver
    assert _rewards(solver) == [t.reward for t in rec.episode]
    assert client.get("/b/mastermind?episode=nope").status_code == 404
    gone = client.get("/b/mastermind?episode=mine-0123")
    assert gone.status_code == 404 and "replay your actions again" in gone.text


def test_own_actions_replay_in_the_sandbox(client: TestClient, setup: Setup,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import synth.web.app as web

    calls: list[list[str]] = []
    real = web.replay_actions

    def counted(code: str, class_name: str, case: Any, actions: list[str], *a: Any, **k: Any) -> Any:
        calls.append(list(actions))
        return real(code, class_name, case, actions, *a, **k)

    monkeypatch.setattr(web, "replay_actions", counted)
    page = client.get("/b/mastermind").text
    token = _token(page)
    identity = json.loads(html.unescape(re.search(r'<pre class="identity">(.*?)</pre>', page, re.S).group(1)))  # type: ignore[union-attr]
    assert 'value="0" selected>drawn case 0: level easy' in page
    secret = " ".join(map(str, identity["secret"]))
    actions = ["1 2 3", "", "<script>alert('x')</script>", "4 4 1", secret, "2 2 2"]
    form = {"token": token, "case": "0", "actions": "\r\n".join(actions)}

    # refused: no token, a wrong token, too many actions, a too long one, too big a body,
    # an unknown case, a body that is not the page's form; none reaches the sandbox
    assert _replay(client, "mastermind", {**form, "token": ""}).status_code == 403
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")
    assert wrong != token
    assert _replay(client, "mastermind", {**form, "token": wrong}).status_code == 403
    many = _replay(client, "mastermind", {**form, "actions": "\n".join(["1 1 1"] * (MAX_REPLAY_ACTIONS + 1))})
    assert many.status_code == 400 and f"at most {MAX_REPLAY_ACTIONS}" in many.text
    long = _replay(client, "mastermind", {**form, "actions": "1" * (MAX_REPLAY_ACTION_CHARS + 1)})
    assert long.status_code == 400 and f"at most {MAX_REPLAY_ACTION_CHARS}" in long.text
    huge = _replay(client, "mastermind", {**form, "actions": "1" * (MAX_REPLAY_FORM_BYTES + 1)})
    assert huge.status_code == 413
    assert _replay(client, "mastermind", {**form, "case": "99"}).status_code == 400
    assert client.post("/b/mastermind/replay", json=form).status_code == 400
    assert _replay(client, "nope", form).status_code == 404
    assert calls == []

    res = _replay(client, "mastermind", form)
    assert res.status_code == 303 and res.headers["location"].startswith("/b/mastermind?episode=mine-")
    assert calls == [actions]
    shown = client.get(res.headers["location"]).text
    played = actions[:5]  # the secret ends the episode; the last action is not played
    with EpisodeEnv(setup.mastermind, class_name="MastermindBootcamp", backend="process") as env:
        want = [replay(env, identity, played[:k]) for k in range(1, 6)]
        assert replay(env, identity, actions) == _rule_score(identity, actions) == 1.0
    assert _rewards(shown) == want == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert [a for _, a, _, _ in _turn_rows(shown)] == played
    assert 'score <b id="episode-score">1</b> (done)' in shown
    assert "1 action(s) after the end were not played" in shown
    assert "<script>alert" not in shown and str(escape("<script>alert('x')</script>")) in shown
    # the form comes back filled in with the same case and actions (a leading newline kept)
    assert 'value="0" selected' in shown and "\n" + str(escape("\r\n".join(actions))) + "</textarea>" in shown

    # a replay that stops before the end: the score so far, not done
    short = client.get(_replay(client, "mastermind", {**form, "case": "1", "actions": "1 1 1 1"})
                       .headers["location"]).text
    assert _rewards(short) == [0.0] and "not done" in short and "the actions ran out" in short
    # the case of each solver episode, replayed with its own actions (as the page prefills
    # them: one line each, blank for a turn without an answer, one final line break)
    for rec in setup.filter.samples[:3]:
        assert rec.episode is not None and rec.identity is not None
        view = client.get(f"/b/mastermind?episode=solver-{rec.index}").text
        m = re.search(r'<textarea name="actions"[^>]*>\n(.*?)</textarea>', view, re.S)
        assert m and parse_actions(html.unescape(m.group(1))) == [t.action for t in rec.episode]
        assert f'value="solver-{rec.index}" selected' in view
        again = client.get(_replay(client, "mastermind", {
            **form, "case": f"solver-{rec.index}", "actions": html.unescape(m.group(1)),
        }).headers["location"]).text
        assert _rewards(again) == [t.reward for t in rec.episode]
        assert f'score <b id="episode-score">{rec.score:g}</b>' in again
    assert any(t.action == "" for rec in setup.filter.samples for t in rec.episode or [])
    assert parse_actions("a\r\n\r\nb\r\n") == ["a", "", "b"] and parse_actions("a\n\n") == ["a", ""]


def test_hostile_observations_are_escaped_and_a_raising_step_is_a_finding(client: TestClient) -> None:
    page = client.get("/b/hostile_game").text
    assert "<script>" not in page and "<img" not in page
    section = _section(page)
    assert str(escape("<script>document.title='pwned-by-observation'</script>")) in section
    step2 = client.get("/b/hostile_game?episode=ref-0&turn=2").text
    assert "<img" not in step2
    assert _shown_observations(step2) == [
        "<img src=x onerror=\"document.title='pwned-by-step'\">not 1; turn 2"]
    res = _replay(client, "hostile_game", {"token": _token(page), "case": "0",
                                           "actions": "<script>alert('mine')</script>\nboom\n1"})
    assert res.status_code == 303
    shown = client.get(res.headers["location"])
    assert shown.status_code == 200
    text = shown.text
    assert "<script>" not in text and "<b>step exploded" not in text
    assert 'id="finding">Finding: hostile_game: step (turn 2) failed' in text
    assert str(escape("RuntimeError: <b>step exploded</b> on boom")) in text
    assert _rewards(text) == [0.0, None]
    assert [a for _, a, _, _ in _turn_rows(text)] == ["<script>alert('mine')</script>", "boom"]
    # the observation echoes the reviewer's action: shown as text
    view = client.get(res.headers["location"].replace("turn=1", "turn=2")).text
    assert _shown_observations(view) == [
        "<img src=x onerror=\"document.title='pwned-by-step'\">not <script>alert('mine')</script>; turn 2"]
    assert "<script>alert" not in view
    # the same break on the reference episode: a finding on the page, not an error page
    broken = client.get("/b/broken_game")
    assert broken.status_code == 200
    assert 'id="finding">Finding: broken_game: step (turn 2) failed' in broken.text
    assert _rewards(broken.text) == [0.0, None]
    endless = client.get("/b/endless_game?episode=ref-0&turn=all")
    assert endless.status_code == 200 and len(endless.text) < 2_000_000
    assert len(_shown_observations(endless.text)) == MAX_SHOWN_TURNS


def test_single_turn_pages_are_unchanged(client: TestClient, setup: Setup) -> None:
    r = gather(Library(setup.library), "toy_sum", None, backend="process", per_level=1)
    assert not r.multi_turn and r.max_turns is None and r.reference_episodes == []
    data = as_dict(r)
    assert set(data) == {"record", "code_matches", "levels", "samples", "samples_error", "filter",
                         "band", "winner", "gate", "candidates", "diffs", "notes"}
    assert all(set(s) == {"level", "seed", "prompt", "answer", "identity"} for s in data["samples"])
    page = client.get("/b/toy_sum").text
    assert 'id="samples"' in page and page.count('class="case"') == 2
    for absent in ('id="episodes"', "#episodes", "replay-form", "episode=", "Episodes"):
        assert absent not in page
    refused = _replay(client, "toy_sum", {"token": _token(page), "case": "0", "actions": "5"})
    assert refused.status_code == 400 and "not a multi-turn bootcamp" in refused.text
    out = CliRunner().invoke(review_app, ["show", "toy_sum", "--library", str(setup.library),
                                          "--sandbox", "process", "--per-level", "1"],
                             env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "sample case: level easy" in out.output
    assert "episode" not in out.output
