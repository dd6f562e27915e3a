"""The review web app (Starlette): a list with search and filters, a detail page, decisions.

Served by ``synth review --serve`` on 127.0.0.1 only. The page runs no JavaScript; forms do the
work. Untrusted text (bootcamp code, prompts, answers, model responses, titles) is escaped by the
templates, and a Content-Security-Policy without any script source backs that up. Decisions are
POST forms carrying a per-server token (a page on another site cannot forge them) and go through
the same functions as the CLI (:func:`synth.review.accept` / :func:`synth.review.reject`).
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

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
from synth.review import (
    REVIEW_STATUSES,
    ReviewError,
    SampleCase,
    accept,
    draw_samples,
    gather,
    reject,
)
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
        return HTMLResponse(html, status_code=status_code)

    def error(self, status_code: int, title: str, message: str) -> HTMLResponse:
        return self.render("error.html", status_code, title=title, message=message)

    def samples_for(self, rec: BootcampRecord, code: str) -> tuple[list[SampleCase], str]:
        key = (rec.name, rec.code_sha256)
        with self._lock:
            cached = self._samples.get(key)
        if cached is not None:
            return cached
        result = draw_samples(code, self.per_level, self.sandbox)
        if not result[1]:  # keep good draws only: a failure is retried on the next visit
            with self._lock:
                self._samples[key] = result
        return result

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
        review.set_samples(*self.samples_for(review.record, review.code))
        calib = review.calibration()
        chart = calibration_chart(calib, review.band, review.record.pass_rate) if calib else None
        return self.render(
            "detail.html", r=review, rec=review.record, calib_chart=chart,
            code_html=highlight_python(review.code),
            diffs=[(d, diff_rows(d.diff)) for d in review.diffs],
            done=request.query_params.get("done", ""), back=request.query_params.get("back", ""),
        )

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
