"""The memory server's ASGI app: one security gate, then routing.

`/health` and `/api/*` go to the REST routes, `/ws` to the change feed, and
`/` to the MCP Streamable HTTP transport (stateless, JSON responses): the handshake
and tool list (mcp_handshake.py) and plain tool calls (mcp_calls.py) answered here,
the rest of the protocol by the MCP SDK, imported when first needed. Every route
passes the loopback gate first.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import trio

from ..core import constants as C
from .. import hook_priority, reply_effects
from ..hook_priority import HookPriority
from ..chores.messages import ChoreHandle
from . import accounts, batch, body_json, cancels, mcp_calls, mcp_handshake, rest_antigravity, rest_harness_hooks
from . import run_calls, security, store_check
from .mcp_calls import Message
from .rpc_checks import rpc_error as _rpc_error, rpc_problem

if TYPE_CHECKING:
    from pathlib import Path

    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from .tool_handlers import Tools

# ASGI: scopes and received messages are dicts; a send takes any Message, as Starlette's and the SDK's do.
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def _plain(send: Send, status: int, message: str) -> None:
    await _json(send, status, {"error": message})


MAX_BODY = C.BODY_MAX_BYTES  # as the REST routes take: a node at every field's hard limit fits
# Every harness's hook requests: answered first (hook_priority.py).
HOOK_PATHS = hook_priority.HOOK_PATHS | rest_antigravity.HOOK_PATHS | rest_harness_hooks.HOOK_PATHS


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body; None when it is over MAX_BODY (a cut body must not be parsed, nor run)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


async def _json(send: Send, status: int, payload: dict[str, Any],
                headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})


async def _deny_upgrade(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "websocket.http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "websocket.http.response.body", "body": body})


async def _busy(send: Send, body: bytes, why: str) -> None:
    """A request that could not get its turn is told so at once, as a JSON-RPC error its client shows."""
    try:
        msg_id = json.loads(body).get("id")
    except (ValueError, AttributeError):
        msg_id = None
    error = _rpc_error(msg_id, -32000, f"Server busy: {why}; try again")
    await _json(send, 200 if msg_id is not None else 503, error)


def _collect(messages: list[Message]) -> Send:
    async def send(message: Message) -> None:
        messages.append(message)
    return send


class App:
    """The security gate and the router; MCP requests wait until the SDK is loaded."""

    def __init__(self, rest: ASGIApp, priority: HookPriority, extra_hosts: frozenset[str] = frozenset(),
                 chores: ChoreHandle | None = None, root: Path | None = None) -> None:
        self.rest = rest
        self.chores = chores  # told the kg calls of a maintenance run (run_calls.py)
        self.root = root  # the store served: a request naming another is refused (store_check.py)
        self.priority = priority
        self.mcp: StreamableHTTPSessionManager | None = None  # the MCP transport, once its (slow) import is done
        self._mcp_ready = trio.Event()
        self.mcp_wanted = trio.Event()  # a request waits for the SDK: import it now
        self.tools: Tools | None = None  # plain tool calls, answered without the SDK (mcp_calls.py)
        self._tools_ready = trio.Event()
        self.extra_hosts = extra_hosts
        self.accounts = accounts.Accounts()
        self._mcp_waiting = 0
        self.cancels = cancels.Cancels()  # the requests in flight a client may cancel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        send = security.with_reply_headers(send)
        headers = security.scope_headers(scope)
        refused = security.refusal(headers, self.extra_hosts) or security.state_get_refusal(scope, headers)
        if refused is None and self.accounts.other(scope):
            refused = 403, "a request from another account of this machine refused: this memory is its owner's alone"
        if refused is not None:
            if kind == "websocket" and "websocket.http.response" in scope.get("extensions", {}):
                await _deny_upgrade(send, *refused)  # the same status an HTTP request gets (421, 403)
            elif kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _plain(send, *refused)
            return
        path = scope.get("path", "/")
        other = store_check.other_store(scope, self.root) if self.root is not None and kind == "http" else None
        if other is not None:
            await self._other_store(scope, receive, send, path, other)
            return
        if path in HOOK_PATHS:
            with self.priority.serving_hook():
                await self.rest(scope, receive, send)
        elif kind == "websocket" or path == "/health" or path.startswith("/api/"):
            await self.rest(scope, receive, send)
        elif path in ("/", "/mcp", "/mcp/"):
            await self._mcp(scope, receive, send)
        else:
            await _plain(send, 404, f"no route {path}")

    async def _other_store(self, scope: Scope, receive: Receive, send: Send, path: str, why: str) -> None:
        """409 for a request meant for another store; an MCP request's as a JSON-RPC error for its id."""
        if path not in ("/", "/mcp", "/mcp/") or scope.get("method") != "POST":
            await _json(send, 409, {"error": why})
            return
        body = await _read_body(receive)
        try:
            message = json.loads(body or b"")
        except (ValueError, RecursionError):
            message = None
        msg_id = message.get("id") if isinstance(message, dict) else None
        await _json(send, 409, _rpc_error(msg_id, -32603, why))

    async def _mcp(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Streamable HTTP for a stateless JSON server: POST only.

        A GET would open a stream this server never writes to (no server-initiated messages, no
        sessions), and DELETE ends a session it never gave out: both get 405, as the MCP spec
        allows, so nothing long-lived ever waits on the request path. A POST waits its turn
        fairly and for a bounded while; its reply is taken whole from the SDK and sent after the
        turn is given back, so a client that stops reading cannot hold the next request hostage.
        """
        method = scope.get("method")
        if method != "POST":
            await _json(send, 405, _rpc_error(None, -32000, f"Method Not Allowed: {method} {scope.get('path')}: "
                                                            "this MCP endpoint takes POST only (stateless, JSON replies)"),
                        [(b"allow", b"POST")])
            return
        body = await _read_body(receive)
        if body is None:
            await _json(send, 413, _rpc_error(None, -32600, f"Invalid Request: the body is over {MAX_BODY} bytes"))
            return
        body, not_utf8 = body_json.utf8_body(body)
        if not_utf8 is not None:
            await _json(send, 400, _rpc_error(None, -32700, not_utf8))
            return
        body = body_json.mend(body)
        scope = mcp_calls.json_content_type(scope)
        problem = mcp_calls.content_type_problem(scope) or mcp_calls.version_problem(scope, body)
        messages = batch.items(scope, body) if problem is None else None
        if isinstance(messages, list):  # each answered as if posted alone, the replies as one array
            answers: list[list[Message]] = [[] for _ in messages]
            for message, answer in zip(messages, answers, strict=True):
                await self._mcp_message(scope, receive, _collect(answer), message)
            for reply in batch.reply(answers):
                await send(reply)
            return
        problem = problem or messages  # the batch refused whole
        if problem is not None:
            await _json(send, 400, problem)
            return
        await self._mcp_message(scope, receive, send, body)

    async def _mcp_message(self, scope: Scope, receive: Receive, send: Send, body: bytes) -> None:
        """One JSON-RPC message, the body of a POST or one of its batch."""
        problem = rpc_problem(body)
        if problem is not None:
            await _json(send, 400, problem)
            return
        handshake = mcp_handshake.answer(scope, body) or await self._cancel(scope, body)
        if handshake is not None:  # a fixed reply: no turn to wait for, nothing to hold
            for message in handshake:
                await send(message)
            return
        if self._mcp_waiting >= C.MCP_QUEUE_MAX_WAITING:
            await _busy(send, body, f"{self._mcp_waiting} requests are already waiting")
            return
        call = mcp_calls.plain_call(scope, body)
        # Watched from now: a cancel that comes while the call waits or runs makes its reply count undelivered.
        msg_id = call.msg_id if call is not None else cancels.request_id(body)
        watch = self.cancels.watch(scope, msg_id, trio.current_time()) if msg_id is not None else None
        try:
            await self._mcp_turn(scope, receive, send, body, call, watch)
        finally:
            if watch is not None:
                self.cancels.done(watch)

    async def _cancel(self, scope: Scope, body: bytes) -> list[Message] | None:
        """A client's `notifications/cancelled`, noted (cancels.py) and answered as the SDK answers it; None
        for any other message."""
        if b"notifications/cancelled" not in body:  # nearly every request: no parse
            return None
        is_cancel, request_id = cancels.cancelled_id(mcp_calls.plain_message(scope, body))
        if not is_cancel:
            return None
        answered = self.cancels.cancel(scope, request_id, trio.current_time())
        if answered is not None:  # read after the reply went out: the client dropped it all the same
            await answered.revoke()
        return mcp_calls.json_reply(202, b"")

    async def _mcp_turn(self, scope: Scope, receive: Receive, send: Send, body: bytes,
                        call: mcp_calls.PlainCall | None, watch: cancels.Watch | None) -> None:
        """A request answered in its turn; what its reply shows counts once written to a client still there."""
        turn = False
        self._mcp_waiting += 1
        try:
            with trio.move_on_after(C.MCP_QUEUE_MAX_WAIT):
                if call is None:
                    self.mcp_wanted.set()
                    await self._mcp_ready.wait()
                else:
                    await self._tools_ready.wait()
                await self.priority.take_bulk_turn()
                turn = True
        finally:
            self._mcp_waiting -= 1
        if not turn:
            await _busy(send, body, f"no turn within {C.MCP_QUEUE_MAX_WAIT:.0f} s")
            return
        reply: list[Message] = []
        mark = run_calls.run_mark(scope) if self.chores is not None else None
        # What the reply shows counts once it is written: a client gone by then (it gave up while the
        # call waited or ran) gets its parts and pushes offered again (formal/models/dropped_reply.py).
        with reply_effects.collect() as effects:
            try:
                try:
                    # Each is set before the ready event the turn waited for.
                    if call is not None:
                        assert self.tools is not None
                        out = await self.tools.call_with_headers(call.name, call.arguments,
                                                                 security.scope_headers(scope), mark)
                        reply = mcp_calls.reply_messages(call.msg_id, out.text, out.is_error, call.modern)
                    else:
                        assert self.mcp is not None
                        await self.mcp.handle_request(scope, _replay(body), _collect(reply))
                finally:
                    self.priority.give_back_bulk_turn()
                await self.priority.yield_to_hooks()  # the reply waits for the hooks in flight, like its start did
                cancelled = watch is not None and watch.cancelled  # the client said it will drop the reply
                gone = bool(effects) and (cancelled or await reply_effects.client_gone(scope, receive))
            except BaseException:
                await effects.abandoned()
                raise
        if gone:
            await effects.abandoned()  # the reply still goes out, to nobody (or fails to)
        else:
            # Before the send (a write to a live socket can still be lost on the way): the client's next call sees them.
            await effects.delivered()
            if watch is not None:
                self.cancels.answered(watch, effects, trio.current_time())
        if mark is not None:
            assert self.chores is not None
            await run_calls.tell(self.chores, mark, call, body, reply)
        for message in reply:
            await send(message)

    def tools_ready(self, tools: Tools) -> None:
        self.tools = tools
        self._tools_ready.set()

    def mcp_ready(self, manager: StreamableHTTPSessionManager) -> None:
        self.mcp = manager
        self._mcp_ready.set()
