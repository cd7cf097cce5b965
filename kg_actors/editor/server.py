"""The visual editor's process part: a quart-trio app on 127.0.0.1:<editor_port>, inside `kg serve`.

It serves the static page and hands `/api/*`, `/health` and `/ws` to the
memory server's own ASGI app in-process, so the editor's requests pass the
same security gate, the same routes and the same actors as everyone else's;
there is no second copy of any rule and no proxy hop. Its own routes (the
page) get the same 421/403 refusal, and headers that keep the page from being
framed or talking to anything but this origin.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import trio
from hypercorn.config import Config as HyperConfig
from hypercorn.trio import serve as hyper_serve
from quart import Response, request, send_from_directory
from quart_trio import QuartTrio

from ..http import security, websocket
from .page_digest import STALE_PAGE, STATIC
from .stalled_body import bounded_bodies
from .static_files import StaticFiles

if TYPE_CHECKING:
    from starlette.types import Message

    from ..http.app import ASGIApp, Receive, Scope, Send
    from ..runtime import Runtime

# The memory server's paths; everything else is the page's.
API_PREFIXES = ("/api/", "/ws", "/health")

CSP = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
    "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'",
))


def page_refusal(method: str, headers: dict[str, str], extra_hosts: frozenset[str]) -> tuple[int, str] | None:
    """The memory server's refusal, except that following a link to the page from elsewhere is allowed.

    A top-level GET navigation only shows our own static page (no memory in it),
    the page cannot be framed, and every request it then makes is same-origin,
    so the memory stays behind the API's own gate.
    """
    refused = security.refusal(headers, extra_hosts)
    if refused is None or refused[0] != 403 or method not in ("GET", "HEAD"):
        return refused
    navigating = headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") == "document"
    return None if navigating and "origin" not in headers else refused


HARDENING = {
    "Content-Security-Policy": CSP, "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def build_app(api: ASGIApp, extra_hosts: frozenset[str] = frozenset(), page_at_start: str | None = None) -> QuartTrio:
    """The editor's app; `page_at_start`: the digest of the page the server started with (page_digest.py),
    None to serve whatever page is on disk."""
    app = QuartTrio(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 0  # the page and its scripts change with the package

    @app.before_request
    async def gate() -> tuple[dict[str, str], int] | None:
        headers = {k.lower(): v for k, v in request.headers.items()}
        refused = page_refusal(request.method, headers, extra_hosts)
        if refused is not None:
            return {"error": refused[1]}, refused[0]
        return None

    @app.after_request
    async def harden(response: Response) -> Response:
        response.headers.update(HARDENING)
        return response

    @app.get("/")
    async def index() -> Response:
        return await send_from_directory(STATIC, "index.html")

    quart_asgi = app.asgi_app
    static = _page_files(page_at_start)
    hardening = [(k.lower().encode(), v.encode()) for k, v in HARDENING.items()]

    @bounded_bodies
    async def dispatch(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] in ("http", "websocket") and path.startswith(API_PREFIXES):
            await api(scope, receive, send)
        elif static is None and scope["type"] == "http" and page_refusal(scope["method"], _headers(scope), extra_hosts) is None:
            await _send_stale_page(scope, send, hardening)
        elif static is not None and static.handles(scope) and page_refusal(scope["method"], _headers(scope), extra_hosts) is None:
            await static(scope, send, hardening)
        else:  # refusals, and what is not a file of the page
            await quart_asgi(scope, receive, _ends_shielded(send))  # type: ignore[arg-type]  # quart types ASGI as TypedDicts

    app.asgi_app = dispatch  # type: ignore[method-assign,assignment]  # ours: http/app.py's ASGI types
    return app


def _page_files(page_at_start: str | None) -> StaticFiles | None:
    """The page's files, or None when they are not the page the server started with (an upgrade installed
    another since: its scripts call an API this server may not have)."""
    try:
        static = StaticFiles(STATIC)
    except OSError:  # a file going mid-upgrade
        static = None
    if static is None or (page_at_start is not None and static.digest != page_at_start):
        log.warning("editor: its page on disk is not the one this server started with (kg was upgraded or "
                    "reinstalled since); it says to restart the server: kg stop && kg start")
        return None
    return static


async def _send_stale_page(scope: Scope, send: Send, hardening: list[tuple[bytes, bytes]]) -> None:
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
               (b"content-length", str(len(STALE_PAGE)).encode()), *hardening]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else STALE_PAGE})


async def serve_editor(rt: Runtime, fd: int) -> None:
    """Serve on the listening socket `fd` (editor/listener.py bound it; hypercorn takes it over) until
    cancelled."""
    app = build_app(rt.asgi, frozenset({rt.config.host.lower()}), rt.editor_page)
    await hyper_serve(app, hyper_config(fd))


def hyper_config(fd: int) -> HyperConfig:
    """Hypercorn's settings for the editor port. Its idle and unfinished-header bound (5 s) is its own;
    a stalled body is bounded as on the main port (stalled_body.py). A WebSocket is pinged as on the
    main port (a browser answers by itself); a client that answers nothing is closed after READ_SECONDS,
    hypercorn's one bound on a silent peer, which also cuts a reply the app takes longer than that to
    give: so it is longer than any (a sync's git commands take up to 120 s each)."""
    hc = HyperConfig()
    hc.bind = [f"fd://{fd}"]
    hc.accesslog = None
    hc.errorlog = logging.getLogger("hypercorn.error")
    hc.graceful_timeout = 1
    hc.websocket_ping_interval = websocket.PING_SECONDS
    hc.read_timeout = READ_SECONDS
    return hc


READ_SECONDS = 900
log = logging.getLogger(__name__)


def _ends_shielded(send: Send) -> Send:
    """`send`, with a response's last (empty) message shielded from cancellation for a moment.

    quart-trio cancels its request task as soon as the server says the client is gone, and hypercorn says
    so from inside that very send, on its way to closing a `Connection: close` exchange: the close was
    cancelled and the socket stayed open for good (a client reading to the end waited for ever). The
    message holds no body, so the shield waits on nothing a slow reader controls; the deadline bounds it."""
    async def ending(message: Message) -> None:
        if message.get("type") != "http.response.body" or message.get("more_body") or message.get("body"):
            await send(message)
            return
        with trio.CancelScope(shield=True, deadline=trio.current_time() + _END_SECONDS):
            await send(message)

    return ending


_END_SECONDS = 5.0


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
