"""What every REST route shares: the domain-error -> status table, the error boundary, the JSON body,
and the runtime's parts the routes reach.

Domain errors map to statuses once, here: InvalidInput 400, NotFound and
SessionUnknown 404, WriteConflict and Conflict 409, ActorStopped and StorageRefused 503, a body
too large 413; bad JSON is 400. Anything else a route raises answers 500 and
the server goes on. Route modules import this, never each other or rest.py.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..build import python_gone
from ..core import constants as C
from ..core.errors import (ActorStopped, Conflict, InvalidInput, KGError, NotFound, SessionUnknown, StorageRefused,
                           WriteConflict)
from . import body_json

if TYPE_CHECKING:
    from ..chores.budget_notices import BudgetNotices
    from ..chores.messages import ChoreHandle
    from ..clock_keeper import ClockKeeper
    from ..conduct.antigravity import Antigravity
    from ..conduct.floor import Floor
    from ..config import Config
    from ..feed import ChangeFeed
    from ..sync.keeper import StoreKeeper

log = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[Response]]


class RuntimeParts(Protocol):
    """runtime.py's Runtime as the routes see it (http/ may not import runtime.py: it imports http/)."""

    config: Config
    floor: Floor
    feed: ChangeFeed
    clock: Callable[[], float]
    editor: str
    keeper: StoreKeeper
    clock_keeper: ClockKeeper | None
    chores: ChoreHandle
    antigravity: Antigravity
    budget: BudgetNotices
    # storage's Layout and the GraphDirectory: http/ may not name them (tests/test_layering.py)
    layout: Any
    directory: Any


BODY_MAX_BYTES = C.BODY_MAX_BYTES


class PayloadTooLarge(KGError):
    """A request body over BODY_MAX_BYTES."""


STATUS: dict[type[KGError], int] = {
    InvalidInput: 400, NotFound: 404, SessionUnknown: 404, WriteConflict: 409, Conflict: 409,
    ActorStopped: 503, StorageRefused: 503, PayloadTooLarge: 413,
}


def status_of(exc: KGError) -> int:
    """The REST status of a domain error: its nearest class in STATUS, else 400 (a refused request)."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return int(getattr(exc, "status", 400))


def error_response(exc: KGError) -> JSONResponse:
    body: dict[str, Any] = {"error": str(exc)}
    if isinstance(exc, InvalidInput):
        body.update(field=exc.field, rule=exc.rule)
    elif isinstance(exc, (NotFound, Conflict)) and exc.field is not None:  # what the field named: not there, taken
        body.update(field=exc.field, rule=str(exc).removeprefix(f"{exc.field}: "))
    if isinstance(exc, WriteConflict):
        body.update(reason=exc.reason, node=exc.node)
    return JSONResponse(body, status_code=status_of(exc))


def guarded(fn: Handler) -> Handler:
    async def wrapper(request: Request) -> Response:
        try:
            return await fn(request)
        except KGError as exc:
            return error_response(exc)
        except ClientDisconnect:  # gone before its body was whole (a hook's client gave up): nobody reads a reply
            log.info("%s %s: the client left before its body was sent", request.method, request.url.path)
            return JSONResponse({"error": "the client disconnected before its request was whole"}, status_code=400)
        except Exception as exc:  # the boundary: one bad request answers 500, the server goes on
            if (gone := python_gone(exc)) is not None:
                log.error("%s %s failed: %s", request.method, request.url.path, gone)
                return JSONResponse({"error": gone}, status_code=500)
            log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": f"internal error: {exc!r}"}, status_code=500)
    return wrapper


async def json_body(request: Request, whole: bool = False) -> dict[str, Any]:
    """The request's JSON object; with `whole` (a body whose text is stored) a lone surrogate is refused,
    naming its field, where other bodies have it mended (body_json.py)."""
    declared = request.headers.get("content-length")
    if declared is not None and ascii_digits(declared) and int(declared) > BODY_MAX_BYTES:
        raise PayloadTooLarge(f"body is {declared} bytes; at most {BODY_MAX_BYTES}")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_MAX_BYTES:
            raise PayloadTooLarge(f"body is over {BODY_MAX_BYTES} bytes")
    if raw and (request.headers.get("content-type") or "").split(";")[0].strip().lower() != "application/json":
        # Behind the origin gate: a page of another origin can send a body of any other type (text/plain, a
        # form, a beacon) without the browser asking this server first, which it would refuse.
        raise InvalidInput("content-type", "must be application/json")
    try:
        body = json.loads((bytes(raw) if whole else body_json.mend(bytes(raw))) or b"{}")
    except ValueError as exc:
        raise InvalidInput("body", f"is not valid JSON ({exc})") from None
    except RecursionError:
        raise InvalidInput("body", "is nested too deeply to read") from None
    if not isinstance(body, dict):
        raise InvalidInput("body", "must be a JSON object")
    half = body_json.half_character(body) if whole and body_json.may_hold_half(bytes(raw)) else None
    if half is not None:
        raise half
    return body


def ascii_digits(raw: str) -> bool:
    """0-9 only: str.isdigit() takes a superscript two, which int() refuses, and an Arabic-Indic three, which
    int() reads as 3."""
    return raw.isascii() and raw.isdigit()


def whole_number(raw: str, field: str, rule: str) -> int:
    """A query parameter written in 0-9, else InvalidInput(field, rule)."""
    if not ascii_digits(raw):
        raise InvalidInput(field, rule)
    return int(raw)


def flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes")
