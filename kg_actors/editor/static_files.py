"""The page and its scripts, served from memory straight off the ASGI socket.

A fresh tab asks for about twenty files before it can ask for the graph; through
Quart each one opened and read its file on a worker thread, and on a busy
machine that queue, not the bytes, was most of the time to the first picture
(issue #19: 2,000 nodes painted within 1.2 s). The files ship with the package
and are read once; each answer carries an ETag so a reload revalidates them
(`no-cache`) rather than keeping an old script after an upgrade.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from .page_digest import digest_of, page_files

TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json"}


class StaticFiles:
    def __init__(self, root: Path, prefix: str = "/static/", index: str = "index.html") -> None:
        self.files: dict[str, tuple[bytes, bytes, bytes]] = {}  # path -> (body, content type, etag)
        read: list[tuple[str, bytes]] = []
        for path in page_files(root):
            body = path.read_bytes()
            read.append((path.relative_to(root).as_posix(), body))
            kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'.encode()
            entry = (body, kind.encode(), etag)
            self.files[prefix + path.relative_to(root).as_posix()] = entry
            if path.relative_to(root).as_posix() == index:
                self.files["/"] = entry
        self.digest = digest_of(read)  # compared with the page the server started with (page_digest.py)

    def handles(self, scope: dict[str, Any]) -> bool:
        return scope["type"] == "http" and scope.get("method") in ("GET", "HEAD") and scope.get("path") in self.files

    async def __call__(self, scope: dict[str, Any], send: Callable[[dict[str, Any]], Awaitable[None]],
                       extra_headers: Iterable[tuple[bytes, bytes]]) -> None:
        body, kind, etag = self.files[scope["path"]]
        headers = [(b"content-type", kind), (b"etag", etag), (b"cache-control", b"no-cache"), *extra_headers]
        asked = dict(scope.get("headers") or []).get(b"if-none-match")
        if asked is not None and etag in [t.strip() for t in asked.split(b",")]:
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
