"""The console's pages: server-rendered HTML at ``/console`` over the service's Memory.

``install_console`` adds the routes, the static assets and the session signer to an app
built by ``services.api.app.create_app``. Every page checks the caller (``auth``) and that
its key may ``read`` the space in the path; the data comes from the same functions as the
JSON routes (``services.api.browse``) or from the public ``Memory`` calls the API uses.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Annotated, Any, Final, cast

from fastapi import APIRouter, Depends, FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.types import ASGIApp, Receive, Scope, Send

from eywa.errors import EywaError
from eywa.models import BeliefStatus
from eywa.values import parse_time
from services.api import browse
from services.api.deps import ServiceContext, context
from services.api.middleware import not_utf8
from services.problems import problem_of
from services.console.auth import LOGIN_CSRF_COOKIE, ConsoleSession, SessionSigner, new_token, same_token, session_of
from services.console.highlight import evidence_segments
from services.console.views import DimensionView, belief_view, dimension_view

__all__ = ["ConsoleState", "install_console", "router"]

router = APIRouter(prefix="/console", include_in_schema=False)
_PACKAGE = resources.files("services.console")
templates = Jinja2Templates(directory=str(_PACKAGE / "templates"))
ENTITIES_PER_PAGE = 20
"""Entities a page of the entities view shows (each with its dimensions' charts)."""


@dataclass(frozen=True)
class ConsoleState:
    """What the console adds to the app: the signer of its session cookies."""

    signer: SessionSigner


class _Refused(Exception):
    """A console request that cannot be served: ``status`` and a message for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def install_console(app: FastAPI, settings_secret: bytes | None) -> None:
    """Mount ``/console`` on ``app``: routes, ``/console/static`` and the session signer
    (``settings_secret``, else a random secret for this process). Call it after the API's
    error handlers are installed: a domain error on a console page (an unknown belief, a bad
    name) is answered as an HTML page with the same status, elsewhere as before."""
    app.state.eywa_console = ConsoleState(SessionSigner(settings_secret or secrets.token_bytes(32)))
    app.include_router(router)
    app.mount("/console/static", _whole_files(StaticFiles(directory=str(_PACKAGE / "static"))), name="console-static")
    api_handler = app.exception_handlers[EywaError]

    @app.exception_handler(EywaError)
    async def domain_error(request: Request, exc: EywaError) -> Response:
        if not request.url.path.startswith("/console/"):
            answered = api_handler(request, exc)
            return await answered if inspect.isawaitable(answered) else answered
        status, _, _ = problem_of(exc)
        return _page(request, "error.html", {"message": str(exc)}, None, status=status)

    @app.exception_handler(_Refused)
    async def refused(request: Request, exc: _Refused) -> Response:
        if exc.status == 401 and "authorization" not in request.headers:
            return RedirectResponse("/console/login", status_code=303)
        return _page(request, "error.html", {"message": exc.message}, None, status=exc.status)


_RANGE_HEADERS: Final = frozenset({b"range", b"if-range"})


def _whole_files(app: ASGIApp) -> ASGIApp:
    """``app`` (the assets) served without the request's ``Range`` and ``If-Range``.

    ``StaticFiles`` answered a malformed or unsatisfiable range itself, in ``text/plain``
    (400 "Range header: start must be less than end", an empty 416), outside the service's
    problem+json. The assets are a few kilobytes and no page asks for a part: the whole file
    is sent (RFC 9110 14.2: a server may ignore ``Range``).
    """

    async def whole(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = [(name, value) for name, value in scope["headers"] if name not in _RANGE_HEADERS]
            scope = {**scope, "headers": headers}
        await app(scope, receive, send)

    return whole


def _state(request: Request) -> ConsoleState:
    found: ConsoleState = request.app.state.eywa_console
    return found


def _caller(request: Request, space: str | None = None) -> tuple[ServiceContext, ConsoleSession]:
    """The service context and the live caller, allowed to read ``space``.

    Raises:
        _Refused: 401 without a live key, 403 when the key may not read ``space``, 422 when
            a path or query value's percent-escapes are not UTF-8: the URL decoding read
            them as U+FFFD (``/console/spaces/%FF`` was the space ``"\ufffd"``), a value
            converted on the way, which the API's gate refuses for ``/v1`` (``not_utf8``);
            422 when a query parameter is given twice (``_given_twice``).
    """
    ctx = context(request)
    session = session_of(request, _state(request).signer, ctx.keys)
    if session is None:
        raise _Refused(401, "sign in with an API key")
    route = request.scope.get("route")
    if (field := not_utf8(request.scope, getattr(route, "path", "unmatched"))) is not None:
        raise _Refused(422, f"{field.partition('.')[2]}: not valid UTF-8 once percent-decoded; text must be valid Unicode")
    if (name := _given_twice(request.query_params.multi_items())) is not None:
        raise _Refused(422, f"{name}: {GIVEN_TWICE}")
    if not session.key.allows(space, "read"):
        where = f"space {space!r}" if space is not None else "the console"
        raise _Refused(403, f"this key may not read {where}")
    return ctx, session


GIVEN_TWICE: Final = "given more than once; give each parameter once"
"""The message of a query parameter or form field given twice (``/v1`` says the same)."""


def _given_twice(items: Iterable[tuple[str, object]]) -> str | None:
    """The first name ``items`` holds twice, None when each is given once.

    Every parameter of a console page and field of its forms takes one value, and Starlette
    keeps the last of two: ``recall?q=Where does Bo live?&q=Where does Tom live?`` asked
    Tom's question, ``beliefs?status=retracted&status=any`` listed every belief, a sign-in
    posting ``key`` twice tried the second key. ``/v1`` refuses such a query
    (``services.api.deps.check_query_names``); the console refuses it with its 422 page.
    """
    seen: set[str] = set()
    for name, _ in items:
        if name in seen:
            return name
        seen.add(name)
    return None


async def _one_field_each(request: Request) -> None:
    """Refuse a form posting a field twice (``_given_twice``), before the form is acted on.

    Raises:
        _Refused: 422, naming the field.
    """
    if (name := _given_twice((await request.form()).multi_items())) is not None:
        raise _Refused(422, f"{name}: {GIVEN_TWICE}")


def _page(
    request: Request, name: str, values: dict[str, Any], session: ConsoleSession | None, status: int = 200
) -> HTMLResponse:
    values = {"session": session, "csrf": session.csrf if session else None, **values}
    response = templates.TemplateResponse(request, name, values, status_code=status)
    response.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response


def _time(text: str | None, field: str) -> datetime | None:
    """A date or date-time from a query string (empty: none).

    Raises:
        _Refused: 400 when it is not ISO-8601 or lies outside the supported range (a time
            that UTC carries past year 9999 overflowed: a 500).
    """
    if not text:
        return None
    try:
        return parse_time(text)
    except ValueError as exc:
        raise _Refused(400, f"{field} {exc}") from None


@router.get("/login")
def login_form(request: Request) -> HTMLResponse:
    """The sign-in form (an API key); sets the double-submit token for its CSRF check."""
    token = new_token()
    response = _page(request, "login.html", {"login_csrf": token, "failed": False}, None)
    response.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict", path="/console",
                        secure=request.url.scheme == "https")  # fmt: skip
    return response


@router.post("/login", dependencies=[Depends(_one_field_each)])
def login(request: Request, key: Annotated[str, Form(max_length=400)], csrf: Annotated[str, Form(max_length=100)]) -> Response:
    """Check the key and the form's token; on success start a session and go to the spaces."""
    if not same_token(csrf, request.cookies.get(LOGIN_CSRF_COOKIE)):
        raise _Refused(403, "the sign-in form expired or came from elsewhere; reload it and try again")
    found = context(request).keys.authenticate(key.strip())
    if found is None or not found.allows(None, "read"):
        token = new_token()
        again = _page(request, "login.html", {"login_csrf": token, "failed": True}, None, status=401)
        again.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict", path="/console",
                         secure=request.url.scheme == "https")  # fmt: skip
        return again
    response = RedirectResponse("/console", status_code=303)
    _state(request).signer.issue(response, request, found)
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/console")
    return response


@router.post("/logout", dependencies=[Depends(_one_field_each)])
def logout(request: Request, csrf: Annotated[str, Form(max_length=100)]) -> Response:
    """End the session (the form carries the session's CSRF token)."""
    _, session = _caller(request)
    if not same_token(csrf, session.csrf):
        raise _Refused(403, "this form did not come from your console session")
    response = RedirectResponse("/console/login", status_code=303)
    SessionSigner.clear(response)
    return response


@router.get("")
def spaces(request: Request) -> HTMLResponse:
    """The spaces the key can read, with their counts, and the Level 1 backlog."""
    ctx, session = _caller(request)
    summaries = browse.space_summaries(ctx.memory, browse.readable_spaces(ctx.memory, session.key))
    return _page(request, "spaces.html", {"spaces": summaries, "backlog": ctx.memory.backlog()}, session)


@router.get("/spaces/{space}")
def timeline(
    request: Request,
    space: str,
    speaker: str = "",  # a label: ``browse.timeline`` bounds it as the API's timeline does
    since: Annotated[str, Query(alias="from", max_length=40)] = "",
    until: Annotated[str, Query(alias="to", max_length=40)] = "",
    offset: Annotated[int, Query(ge=0)] = 0,
) -> HTMLResponse:
    """A space's turns by session, in event time, with their signals highlighted."""
    ctx, session = _caller(request, space)
    page = browse.timeline(
        ctx.memory, space, speaker=speaker or None, since=_time(since, "from"), until=_time(until, "to"), offset=offset
    )
    sessions: list[dict[str, Any]] = []
    for turn in page.items:
        if not sessions or sessions[-1]["name"] != turn.session:
            sessions.append({"name": turn.session, "date": turn.observed_at, "turns": []})
        sessions[-1]["turns"].append((turn, evidence_segments(turn)))
    filters = {"speaker": speaker, "from": since, "to": until}
    return _page(request, "timeline.html", {"space": space, "page": page, "sessions": sessions, "filters": filters}, session)


@router.get("/spaces/{space}/turns/{evidence_id}")
def turn(request: Request, space: str, evidence_id: str) -> HTMLResponse:
    """One turn with its signals, and the beliefs that cite it."""
    ctx, session = _caller(request, space)
    found = ctx.memory.evidence(space, evidence_id)
    citing = sorted(ctx.memory.beliefs_citing(space, evidence_id), key=lambda b: b.id)
    values = {"space": space, "turn": found, "segments": evidence_segments(found), "beliefs": citing}
    return _page(request, "turn.html", values, session)


@router.get("/spaces/{space}/entities")
def entities(
    request: Request,
    space: str,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = ENTITIES_PER_PAGE,
) -> HTMLResponse:
    """Each entity with its dimensions as small multiples, a page of entities at a time
    (each chart reads its dimension's deltas, so a page bounds the work, not the space)."""
    ctx, session = _caller(request, space)
    page = browse.page_of(browse.entities(ctx.memory, space), offset, limit)
    rows = []
    for index, summary in enumerate(page.items, start=offset):
        charts: list[tuple[str, DimensionView]] = []
        for attribute in summary.attributes:
            view = dimension_view(ctx.memory, space, summary.entity, attribute, samples_per_gap=2, size=(300, 130),
                                  ident=f"m{index}-{len(charts)}", href="")  # fmt: skip
            charts.append((attribute, view))
        rows.append((summary.entity, charts))
    return _page(request, "entities.html", {"space": space, "entities": rows, "page": page}, session)


@router.get("/spaces/{space}/entities/{entity}/dimensions/{attribute}")
def dimension(
    request: Request, space: str, entity: str, attribute: str, as_of: Annotated[str, Query(max_length=40)] = ""
) -> HTMLResponse:
    """One dimension: the probability of each value over time, surprises, the delta log."""
    ctx, session = _caller(request, space)
    when = _time(as_of, "as_of")
    everything = ctx.memory.deltas(space, entity, attribute)
    view = dimension_view(ctx.memory, space, entity, attribute, when)
    values = {"space": space, "entity": entity, "attribute": attribute, "view": view,
              "first": everything[0].at if everything else None, "last": everything[-1].at if everything else None}  # fmt: skip
    return _page(request, "dimension.html", values, session)


@router.get("/spaces/{space}/beliefs")
def beliefs(request: Request, space: str, status: Annotated[str, Query(max_length=20)] = "active") -> HTMLResponse:
    """The space's beliefs (``status``: active, superseded, retracted or any)."""
    ctx, session = _caller(request, space)
    chosen = cast("BeliefStatus", status) if status in ("active", "superseded", "retracted") else None
    found = ctx.memory.beliefs(space, status=chosen)
    return _page(request, "beliefs.html", {"space": space, "beliefs": found, "status": chosen or "any"}, session)


@router.get("/spaces/{space}/beliefs/{belief_id}")
def belief(request: Request, space: str, belief_id: str) -> HTMLResponse:
    """A belief: statement, validation report, cited spans in their turns, supersession chain."""
    ctx, session = _caller(request, space)
    return _page(request, "belief.html", {"space": space, "view": belief_view(ctx.memory, space, belief_id)}, session)


@router.get("/spaces/{space}/recall")
def recall(
    request: Request,
    space: str,
    q: Annotated[str, Query(max_length=4000)] = "",
    k: Annotated[int, Query(ge=1, le=100)] = 5,
    as_of: Annotated[str, Query(max_length=40)] = "",
) -> HTMLResponse:
    """The recall inspector: the plan, each route's hits, the fusion, what each post-filter
    changed, and the packed context of one ``Memory.recall`` (its trace, drawn)."""
    ctx, session = _caller(request, space)
    result = ctx.memory.recall(space, q, k=k, as_of=_time(as_of, "as_of")) if q.strip() else None
    values = {"space": space, "q": q, "k": k, "as_of": as_of, "result": result,
              "trace": result.trace if result is not None else {}}  # fmt: skip
    return _page(request, "recall.html", values, session)


@router.get("/spaces/{space}/refused")
def refused(request: Request, space: str) -> HTMLResponse:
    """Refused candidates with their reason codes and the repair queue; identity merges
    (proposed now, accepted, undone); erasure records."""
    ctx, session = _caller(request, space)
    values = {
        "space": space,
        "rejected": ctx.memory.candidates(space, "rejected"),
        "repair": ctx.memory.candidates(space, "repair"),
        "proposed": ctx.memory.propose_merges(space),
        "merges": ctx.memory.merges(space, include_removed=True),
        "erasures": ctx.memory.erasures(space),
    }
    return _page(request, "refused.html", values, session)

