"""Loopback-only: refuse a non-local Host (421) and any cross-site browser request (403).

Non-browser clients (hooks, the shim, the MCP SDK) send no Origin and no
Sec-Fetch-Site, so they pass; a web page cannot hide either header.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def refusal(headers: dict[str, str], extra_hosts: frozenset[str] = frozenset()) -> tuple[int, str] | None:
    allowed = LOCAL_HOSTS | extra_hosts
    host = headers.get("host")
    if host is None or _hostname(host) not in allowed:
        return 421, "non-local Host: this server answers only requests addressed to this machine"
    if headers.get("sec-fetch-site", "").lower() == "cross-site":
        return 403, "cross-site browser request refused"
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        origin_host = (parts.hostname or "").lower()
        if parts.scheme not in ("http", "https") or origin_host not in allowed | {"::1"}:
            return 403, "cross-site browser request refused (non-local Origin)"
        # A browser's WebSocket handshake carries no Sec-Fetch-Site: tell the site from the Origin's host.
        # A page on localhost opening 127.0.0.1's feed is cross-site, as its POST there is.
        if "sec-fetch-site" not in headers and origin_host != _hostname(host).strip("[]"):
            return 403, "cross-site browser request refused (Origin and Host name other sites)"
    return None


def scope_headers(scope: Mapping[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
