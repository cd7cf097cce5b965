"""Loopback-only: refuse a non-local Host (421) and any browser request but this server's own page's (403).

Non-browser clients (hooks, the shim, the MCP SDK) send no Origin and no
Sec-Fetch-Site, so they pass; a web page cannot hide either header. A page on
another port of this machine (any local dev server showing what someone else
wrote) is another origin: its requests are "same-site", its WebSocket's Origin
names its own port, and both are refused. Only the editor's page, served from
the port it calls, is same-origin.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


# A Host header is a name or a bracketed IPv6 address, then at most a numeric port (RFC 9110 7.2); anything
# else (`localhost:80@evil`) names no host of ours.
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^\s:@/\\\[\]]+)(?::[0-9]{1,5})?")


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host in LOCAL_HOSTS:  # a bare ::1 too, as some clients send it
        return host
    found = _HOST.fullmatch(host)
    return found.group(1) if found else ""


def refusal(headers: dict[str, str], extra_hosts: frozenset[str] = frozenset()) -> tuple[int, str] | None:
    allowed = LOCAL_HOSTS | extra_hosts
    host = headers.get("host")
    if host is None or _hostname(host) not in allowed:
        return 421, "non-local Host: this server answers only requests addressed to this machine"
    site = headers.get("sec-fetch-site", "").strip().lower()
    if site not in ("", "same-origin", "none"):
        return 403, f"{site} browser request refused: only this server's own page may call it"
    origin = headers.get("origin")
    # A browser's WebSocket handshake carries no Sec-Fetch-Site: its Origin must be this server's own,
    # port included (a page on localhost:3000 opening this port's feed is another origin).
    if origin is not None and (_origin(origin) or "no origin") != _origin("http://" + host.strip()):
        return 403, "browser request from another origin refused: only this server's own page may call it"
    return None


# GETs that change state (a session opened for any folder; every graph read again from disk). Fetch
# metadata keeps other pages' requests out (above), but a browser without it (Safari before 16.4) sends
# an <img>'s GET with neither Origin nor Sec-Fetch-Site. Hooks and scripts call these; no page does.
_STATE_GETS = {"/api/session_bootstrap": None, "/api/graph/read": "reload"}


def state_get_refusal(scope: Mapping[str, Any], headers: dict[str, str]) -> tuple[int, str] | None:
    """403 for a browser's GET that would change state: every browser's User-Agent opens with
    "Mozilla/", and a page cannot set it; this server's own page never sends such a GET."""
    path = scope.get("path")
    # HEAD too: the router serves it with the GET's handler, state change and all.
    if scope.get("method") not in ("GET", "HEAD") or path not in _STATE_GETS:
        return None
    needs = _STATE_GETS[path]
    # The parameter as the handler reads it, decoded: `%72eload=true` is `reload=true`.
    if needs is not None and needs not in parse_qs((scope.get("query_string") or b"").decode("latin-1"),
                                                   keep_blank_values=True):
        return None
    if not headers.get("user-agent", "").startswith("Mozilla/"):
        return None
    return 403, f"a browser's GET {path} refused: it changes state, and only hooks call it"


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL; None for one that is not http(s) with a host ("null")."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def scope_headers(scope: Mapping[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}


# Every reply of the memory server, on either port (the editor's hands its API paths to the same app): never
# sniffed as another type, never framed (JSON shown in a frame of a hostile page is a clickjacking aid).
REPLY_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                 (b"content-security-policy", b"frame-ancestors 'none'"))
_STARTS = frozenset({"http.response.start", "websocket.http.response.start"})
SendFn = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def with_reply_headers(send: SendFn) -> SendFn:
    """`send`, adding REPLY_HEADERS to a reply's start (those it sets itself stay as they are)."""
    async def hardened(message: MutableMapping[str, Any]) -> None:
        if message.get("type") in _STARTS:
            headers = list(message.get("headers") or [])
            have = {bytes(k).lower() for k, _ in headers}
            message = {**message, "headers": [*headers, *(h for h in REPLY_HEADERS if h[0] not in have)]}
        await send(message)
    return hardened
