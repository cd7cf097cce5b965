"""REST endpoints for the hooks."""

from __future__ import annotations

from starlette.routing import Route


def routes(runtime) -> list[Route]:
    return []
