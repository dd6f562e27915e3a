"""The review web app (Starlette): a list with search and filters, a detail page, decisions.

Served by ``synth review --serve`` on 127.0.0.1 only. The page runs no JavaScript; forms do the
work. Untrusted text (bootcamp code, prompts, answers, model responses, titles) is escaped by the
templates, and a Content-Security-Policy without any script source backs that up. Decisions are
POST forms carrying a per-server token (a page on another site cannot forge them) and go through
the same functions as the CLI (:func:`synth.reporting.review.accept` / :func:`synth.reporting.review.reject`).

A multi-turn bootcamp's page steps through its episodes (``?episode=KEY&turn=K``, or
``turn=all``): the reference episodes, the solver's, and the reviewer's own actions, which a POST
form with the same token replays in the sandbox (:func:`synth.reporting.review.replay_actions`; the
body, the action count and each action's length are bounded; the replay is kept in a small
in-memory cache and shown by a redirect to its step-through).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from synth.library import BootcampRecord, Library, LibraryError
from synth.reporting.review import (
    MAX_REPLAY_ACTION_CHARS,
    MAX_REPLAY_ACTIONS,
    REVIEW_STATUSES,
    Episode,
    Review,
    ReviewError,
    SampleCase,
    accept,
    draw_samples,
    gather,
    parse_actions,
    reference_episodes,
    reject,
    replay_actions,
)
from synth.text.utf8 import escape_surrogates
from synth.web.render import (
    PYGMENTS_CSS,
    calibration_chart,
    diff_rows,
    highlight_python,
    rate_bar_width,
)

HERE = Path(__file__).resolve().parent
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]

#: The replay form's body: its actions percent-encoded, with room for the other fields.
MAX_REPLAY_FORM_BYTES = MAX_REPLAY_ACTIONS * MAX_REPLAY_ACTION_CHARS * 3 + 8192
#: Replays kept for their step-through pages (the oldest goes first).
MAX_KEPT_REPLAYS = 32
#: Replays running at once (each starts a sandboxed environment).
MAX_CONCURRENT_REPLAYS = 2
#: Sample draws and reference-episode plays running at once (each starts a sandboxed server).
MAX_CONCURRENT_DRAWS = 2
#: How long a page waits for a draw slot (or for the same bootcamp's draw in flight) before 503.
DRAW_WAIT_S = 10.0
#: How long a failed draw is kept: the page shows the failure instead of drawing again.
FAILURE_TTL_S = 120.0
#: The Sec-Fetch-Site values of requests a browser made from this page or the address bar.
SAME_ORIGIN_FETCH = ("same-origin", "none")


class DrawBusy(Exception):
    """Every draw slot stayed taken for the whole wait; the message says what to do."""


@dataclass
class KeptReplay:
    name: str
    sha256: str
    episode: Episode
    case: str  # the form's case value
    actions: str  # the form's actions text


class SecurityHeaders:
    """Adds the CSP and friends to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ReviewSite:
    """State of one review server: the library, the run folders, a cache of sample cases."""

    def __init__(self, library: Library, runs_dir: Path, sandbox: str = "auto", per_level: int = 2) -> None:
        self.library = library
        self.runs_dir = runs_dir
        self.sandbox = sandbox
        self.per_level = per_level
        self.token = secrets.token_urlsafe(24)
        self._samples: dict[tuple[str, str], tuple[list[SampleCase], str]] = {}
        self._episodes: dict[tuple[str, str], tuple[list[Episode], str]] = {}
        self._replays: OrderedDict[str, KeptReplay] = OrderedDict()
        self._replay_slots = threading.BoundedSemaphore(MAX_CONCURRENT_REPLAYS)
        self._draw_slots = threading.BoundedSemaphore(MAX_CONCURRENT_DRAWS)
        #: one lock per (kind, bootcamp, sha256): a second page of the same bootcamp waits for
        #: the draw in flight instead of starting its own
        self._in_flight: dict[tuple[str, str, str], threading.Lock] = {}
        #: failed draws: (kind, bootcamp, sha256) -> (time.monotonic() of the failure, message)
        self._failures: dict[tuple[str, str, str], tuple[float, str]] = {}
        self.draw_wait_s = DRAW_WAIT_S
        self.failure_ttl_s = FAILURE_TTL_S
        self._lock = threading.Lock()
        self.env = Environment(
            loader=FileSystemLoader(str(HERE / "templates")),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(rate_bar_width=rate_bar_width, statuses=REVIEW_STATUSES, quote=quote)

    def render(self, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(template).render(token=self.token, **context)
        # the page is UTF-8: text no UTF-8 writer takes (lone surrogates) is shown escaped
        return HTMLResponse(escape_surrogates(html), status_code=status_code)

    def error(self, status_code: int, title: str, message: str) -> HTMLResponse:
        return self.render("error.html", status_code, title=title, message=message)

    def busy(self, message: str) -> HTMLResponse:
        page = self.error(503, "Busy", message)
        page.headers["retry-after"] = str(max(1, int(self.draw_wait_s)))
        return page

    def samples_for(self, rec: BootcampRecord, code: str, *,
                    start: bool = True) -> tuple[list[SampleCase], str]:
        """The sample cases of ``rec``, drawn once per server in a sandbox (see
        :meth:`_sandboxed`); with ``start`` False only what is kept (never a sandbox)."""
        return self._sandboxed(
            "samples", rec, lambda: draw_samples(code, self.per_level, self.sandbox), start=start)

    def episodes_for(self, rec: BootcampRecord, code: str, samples: list[SampleCase], *,
                     start: bool = True) -> tuple[list[Episode], str]:
        """The reference episodes of a multi-turn bootcamp, played once per server (a finding
        on an episode is the bootcamp's doing and is kept like any result)."""
        return self._sandboxed(
            "episodes", rec,
            lambda: reference_episodes(code, rec.class_name, samples, self.sandbox, name=rec.name),
            start=start)

    def _kept(self, key: tuple[str, str, str]) -> tuple[list[Any], str] | None:
        cache: dict[tuple[str, str], Any] = self._samples if key[0] == "samples" else self._episodes
        with self._lock:
            hit = cache.get(key[1:])
            if hit is not None:
                return hit
            failed = self._failures.get(key)
            if failed is None:
                return None
            age = time.monotonic() - failed[0]
            if age >= self.failure_ttl_s:
                del self._failures[key]
                return None
        return [], (f"{failed[1]} (this failure is kept: it is drawn again "
                    f"{self.failure_ttl_s - age:.0f} s from now)")

    def _sandboxed(self, kind: str, rec: BootcampRecord, compute: Callable[[], tuple[list[Any], str]],
                   *, start: bool) -> tuple[list[Any], str]:
        """What ``compute`` returns for ``rec``, computed at most once per server: a result is
        kept for good, a failure for :attr:`failure_ttl_s` seconds. At most
        :data:`MAX_CONCURRENT_DRAWS` computations run at once; a page waits
        :attr:`draw_wait_s` for a slot (or for the same bootcamp's computation in flight), then
        :class:`DrawBusy`. ``start`` False: what is kept, else ``([], "")``."""
        key = (kind, rec.name, rec.code_sha256)
        kept = self._kept(key)
        if kept is not None or not start:
            return kept if kept is not None else ([], "")
        deadline = time.monotonic() + self.draw_wait_s
        with self._lock:
            flight = self._in_flight.setdefault(key, threading.Lock())
        if not flight.acquire(timeout=self.draw_wait_s):
            raise DrawBusy(self._busy(kind))
        try:
            kept = self._kept(key)
            if kept is not None:
                return kept
            if not self._draw_slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise DrawBusy(self._busy(kind))
            try:
                result = compute()
            finally:
                self._draw_slots.release()
            with self._lock:
                if result[1]:
                    self._failures[key] = (time.monotonic(), result[1])
                else:
                    (self._samples if kind == "samples" else self._episodes)[key[1:]] = result
            return result
        finally:
            flight.release()

    def _busy(self, kind: str) -> str:
        what = "draw sample cases" if kind == "samples" else "play reference episodes"
        return (f"the server is busy: {MAX_CONCURRENT_DRAWS} sandboxes already {what} for other "
                f"pages and none came free in {self.draw_wait_s:g} s; reload this page in a moment")

    def may_start_sandboxes(self, request: Request) -> str:
        """"" when this GET may start sandboxes: it carries the page token (``t``) or the
        browser says it came from this site or the address bar (``Sec-Fetch-Site``
        same-origin or none). Otherwise why not: a page on another site must not make this
        server start sandboxes."""
        if secrets.compare_digest(request.query_params.get("t", "").encode(), self.token.encode()):
            return ""
        fetch = request.headers.get("sec-fetch-site")
        if fetch in SAME_ORIGIN_FETCH:
            return ""
        if fetch is None:
            return ("sample cases were not drawn: the request says neither where it came from "
                    "(no Sec-Fetch-Site header) nor carries this page's token")
        return (f"sample cases were not drawn: the request came from another site "
                f"(Sec-Fetch-Site: {fetch[:40]}), and a page elsewhere may not start sandboxes here")

    def replays_of(self, rec: BootcampRecord) -> list[KeptReplay]:
        with self._lock:
            return [k for k in self._replays.values()
                    if (k.name, k.sha256) == (rec.name, rec.code_sha256)]

    def _keep(self, kept: KeptReplay) -> None:
        with self._lock:
            self._replays[kept.episode.key] = kept
            while len(self._replays) > MAX_KEPT_REPLAYS:
                self._replays.popitem(last=False)

    def _replay_now(self, code: str, rec: BootcampRecord, case: SampleCase, actions: list[str],
                    key: str) -> Episode:
        with self._replay_slots:
            return replay_actions(code, rec.class_name, case, actions, self.sandbox, key=key,
                                  name=rec.name)

    # -- pages ----------------------------------------------------------------------------

    def index(self, request: Request) -> Response:
        q = request.query_params
        query = q.get("q", "").strip()
        source = q.get("source", "")
        status = q.get("status", "pending-review")
        lo, hi = _rate(q.get("min")), _rate(q.get("max"))
        try:
            every = self.library.records(None)
        except LibraryError as exc:
            return self.error(500, "Library unreadable", str(exc))
        counts = {s: sum(1 for r in every if r.status == s) for s in REVIEW_STATUSES}
        rows = [r for r in every if _matches(r, query, source, status, lo, hi)]
        return self.render(
            "list.html", rows=rows, counts=counts, total=len(every), query=query, source=source,
            status=status, lo=q.get("min", ""), hi=q.get("max", ""),
            sources=sorted({r.source for r in every}), library=str(self.library.root),
            filters=urlencode({k: v for k, v in q.items() if k in ("q", "source", "status", "min", "max")}),
        )

    def detail(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            review = gather(self.library, name, self.runs_dir, samples=False)
        except LibraryError:
            return self.error(404, "Not found", f"no bootcamp named {name!r} in {self.library.root}")
        except ReviewError as exc:
            return self.error(500, "Cannot review", str(exc))
        refused = self.may_start_sandboxes(request)
        try:
            review.set_samples(*self.samples_for(review.record, review.code, start=not refused))
            if review.max_turns:
                review.reference_episodes, review.episodes_error = self.episodes_for(
                    review.record, review.code, review.samples, start=not refused)
        except DrawBusy as exc:
            return self.busy(str(exc))
        draw_link = ""
        if refused and not review.samples:
            review.samples_error = refused
            query = {k: v for k, v in request.query_params.items() if k != "t"}
            draw_link = f"/b/{quote(name)}?{urlencode({**query, 't': self.token})}"
        episodes: dict[str, Any] = {}
        if review.multi_turn:
            view = self._episode_view(request, review)
            if isinstance(view, Response):
                return view
            episodes = view
        calib = review.calibration()
        chart = calibration_chart(calib, review.band, review.record.pass_rate) if calib else None
        return self.render(
            "detail.html", r=review, rec=review.record, calib_chart=chart,
            code_html=highlight_python(review.code),
            diffs=[(d, diff_rows(d.diff)) for d in review.diffs],
            done=request.query_params.get("done", ""), back=request.query_params.get("back", ""),
            draw_link=draw_link, **episodes,
        )

    def _episode_view(self, request: Request, review: Review) -> dict[str, Any] | Response:
        """The episode section's context: the episodes, the selected one and its turn, and the
        replay form (a 404 for an episode that does not exist or a replay no longer kept)."""
        q = request.query_params
        kept = self.replays_of(review.record)
        episodes = review.episodes() + [k.episode for k in kept]
        key = q.get("episode", "")
        ep = next((e for e in episodes if e.key == key), None) if key else \
            (episodes[0] if episodes else None)
        if key and ep is None:
            if key.startswith("mine-"):
                return self.error(404, "Replay gone", f"this server keeps the last {MAX_KEPT_REPLAYS} "
                                  "replays; replay your actions again")
            return self.error(404, "Not found", f"no episode {key[:80]!r} of {review.record.name}")
        turn: int | None = 1
        if q.get("turn") == "all":
            turn = None
        elif ep is not None and ep.turns:
            try:
                turn = max(1, min(int(q.get("turn", "1")), len(ep.turns)))
            except ValueError:
                turn = 1
        cases = [(str(i), s) for i, s in enumerate(review.samples) if s.max_turns]
        form_case, form_actions = (cases[0][0] if cases else ""), ""
        mine = next((k for k in kept if ep is not None and k.episode.key == ep.key), None)
        if mine is not None:
            form_case, form_actions = mine.case, mine.actions
        elif ep is not None:
            form_actions = "".join(a + "\n" for a in ep.actions)  # parse_actions' inverse
            match = next((i for i, s in cases if s.identity == ep.identity), None)
            if match is not None:
                form_case = match
            elif ep.kind == "solver":
                form_case = ep.key
        extra = ep if ep is not None and ep.kind == "solver" else None
        return {"episodes": episodes, "ep": ep, "turn": turn, "cases": cases,
                "solver_case": extra, "form_case": form_case, "form_actions": form_actions,
                "max_actions": MAX_REPLAY_ACTIONS, "max_action_chars": MAX_REPLAY_ACTION_CHARS}

    async def replay(self, request: Request) -> Response:
        """POST: the reviewer's actions replayed from a drawn case (or a solver episode's case)
        in the sandbox; redirects to the replay's step-through."""
        name = request.path_params["name"]
        form = await _bounded_form(request, MAX_REPLAY_FORM_BYTES)
        if isinstance(form, Response):
            return form
        if not secrets.compare_digest(form.get("token", "").encode(), self.token.encode()):
            return self.error(403, "Forbidden", "the form token is missing or stale; reload the page")
        try:
            actions = parse_actions(form.get("actions", ""))
            review = await run_in_threadpool(gather, self.library, name, self.runs_dir, samples=False)
        except LibraryError:
            return self.error(404, "Not found", f"no bootcamp named {name!r} in {self.library.root}")
        except ReviewError as exc:
            return self.error(400, "Not replayed", str(exc))
        try:
            samples, why = await run_in_threadpool(self.samples_for, review.record, review.code)
        except DrawBusy as exc:
            return self.busy(str(exc))
        choice = form.get("case", "")
        case = None
        if choice.isdigit() and int(choice) < len(samples) and samples[int(choice)].max_turns:
            case = samples[int(choice)]
        elif choice.startswith("solver-"):
            ep = next((e for e in review.solver_episodes if e.key == choice), None)
            if ep is not None and ep.identity:
                case = SampleCase(ep.level, ep.seed or 0, "", "", ep.identity, max_turns=1)
        if case is None:
            if not any(s.max_turns for s in samples) and not review.solver_episodes:
                return self.error(400, "Not replayed", why or f"{name} is not a multi-turn "
                                  "bootcamp: it has no episodes to replay")
            return self.error(400, "Not replayed", f"no case {choice[:40]!r}; pick one of the "
                              "drawn cases")
        key = f"mine-{secrets.token_hex(6)}"
        episode = await run_in_threadpool(self._replay_now, review.code, review.record, case,
                                          actions, key)
        self._keep(KeptReplay(name, review.record.code_sha256, episode, choice,
                              form.get("actions", "")[:MAX_REPLAY_FORM_BYTES]))
        query = {"episode": key, "turn": "1"}
        if form.get("back"):
            query["back"] = form["back"]
        return RedirectResponse(f"/b/{quote(name)}?{urlencode(query)}#episodes", status_code=303)

    async def decide(self, request: Request) -> Response:
        name = request.path_params["name"]
        action = request.path_params["action"]
        if action not in ("accept", "reject"):
            return self.error(404, "Not found", f"no action {action!r}; use accept or reject")
        form = await request.form()
        token = str(form.get("token", ""))
        if not secrets.compare_digest(token.encode(), self.token.encode()):
            return self.error(403, "Forbidden", "the form token is missing or stale; reload the page")
        try:
            if action == "accept":
                await run_in_threadpool(accept, self.library, name)
            else:
                await run_in_threadpool(reject, self.library, name, str(form.get("reason", "")))
        except LibraryError as exc:
            return self.error(404, "Not found", str(exc))
        except ReviewError as exc:
            return self.error(400, "Not done", str(exc))
        done = "accepted" if action == "accept" else "rejected"
        back = str(form.get("back", ""))
        target = f"/b/{quote(name)}?{urlencode({'done': done, 'back': back} if back else {'done': done})}"
        return RedirectResponse(target, status_code=303)

    def pygments_css(self, request: Request) -> Response:
        return Response(PYGMENTS_CSS, media_type="text/css")


async def _bounded_form(request: Request, limit: int) -> dict[str, str] | Response:
    """The fields of a url-encoded form body of at most ``limit`` bytes (first value of each),
    read without ever holding more; an error page otherwise."""
    def refuse(code: int, title: str, message: str) -> Response:
        site: ReviewSite = request.app.state.site
        return site.error(code, title, message)

    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/x-www-form-urlencoded":
        return refuse(400, "Not replayed", "send the form as the page does (url-encoded)")
    def too_large() -> Response:
        return refuse(413, "Too large", f"the form is over {limit} bytes; a replay takes at "
                      f"most {MAX_REPLAY_ACTIONS} actions of {MAX_REPLAY_ACTION_CHARS} characters")

    try:
        declared = int(request.headers.get("content-length", "0"))
    except ValueError:
        declared = 0
    if declared > limit:
        return too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return too_large()
    try:
        fields = parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True,
                          max_num_fields=16)
    except ValueError:
        return refuse(400, "Not replayed", "the form has too many fields")
    return {k: v[0] for k, v in fields.items() if v}


def _rate(text: str | None) -> float | None:
    try:
        value = float(text) if text not in (None, "") else None
    except ValueError:
        return None
    if value is None:
        return None
    return value / 100.0 if value > 1.0 else value  # "30" means 30 %


def _matches(rec: BootcampRecord, query: str, source: str, status: str,
             lo: float | None, hi: float | None) -> bool:
    if status and status != "all" and rec.status != status:
        return False
    if source and rec.source != source:
        return False
    if lo is not None and (rec.pass_rate is None or rec.pass_rate < lo):
        return False
    if hi is not None and (rec.pass_rate is None or rec.pass_rate > hi):
        return False
    if query:
        hay = " ".join([rec.name, rec.title, rec.task_id, rec.source, rec.class_name,
                        rec.run_id or "", rec.review_reason or ""]).lower()
        return all(word in hay for word in query.lower().split())
    return True


def create_app(library: Library, runs_dir: Path, *, sandbox: str = "auto", per_level: int = 2) -> Starlette:
    """The review app for ``library``; serve it on 127.0.0.1 only (``synth review --serve``)."""
    site = ReviewSite(library, runs_dir, sandbox=sandbox, per_level=per_level)
    routes = [
        Route("/", site.index, methods=["GET"]),
        Route("/b/{name}", site.detail, methods=["GET"]),
        Route("/b/{name}/replay", site.replay, methods=["POST"]),
        Route("/b/{name}/{action:str}", site.decide, methods=["POST"]),
        Route("/static/pygments.css", site.pygments_css, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost"]),
        ],
    )
    app.state.site = site
    return app
