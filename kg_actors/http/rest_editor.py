"""REST endpoints for the editor."""

from __future__ import annotations

from starlette.routing import Route


def routes(runtime) -> list[Route]:
    return []
