"""Replies too big to build on the event loop.

A whole-graph view of a big project (the editor's picture of 10,000 nodes is megabytes of JSON) takes tens of
milliseconds to build and encode. On the loop, every session's hooks would wait behind it; an open editor asks
for it again after recalls and outages. The graph it reads is a frozen snapshot, so a worker thread may read it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import trio
from starlette.responses import Response


def _encoded(head: dict[str, Any], build: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> bytes:
    # As starlette's JSONResponse encodes.
    return json.dumps({**head, **build(*args)}, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


async def json_off_loop(head: dict[str, Any], build: Callable[..., dict[str, Any]], *args: Any) -> Response:
    """`head` merged with `build(*args)`, built and encoded in a worker thread; `args` must be frozen."""
    body = await trio.to_thread.run_sync(_encoded, head, build, args)
    return Response(body, media_type="application/json")
