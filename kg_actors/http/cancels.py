"""Requests a client cancelled over HTTP: what their replies show counts as not delivered.

Over Streamable HTTP a client cancels a request with `notifications/cancelled` naming its id, in a POST
of its own; the SDKs keep the request's connection open and drop its reply when it comes. So a hang-up
check cannot see it: the server must take the client's word. A request in flight is watched by its
client and id from when its body is read; a cancel naming it marks it, and its reply's effects are
then abandoned (a `kg_read` part offered again, its nodes not counted seen) though the reply still goes.
The two POSTs race on two connections, so a cancel can be read before its request: one naming nothing
in flight is kept a few seconds (EARLY_KEEP) for a request that comes after it. It can also be read
after the reply went out (the call came on a kept-alive connection, the cancel on a new one the server
had yet to accept): a request answered in the last few seconds keeps what its reply handed out, and a
late cancel offers that again (reply_effects.Effects.revoke: the part comes back; its nodes stay seen).

A client is told apart by the headers it sends on every request (a stateless server gives out no
session): two clients sending the same headers and reusing an id within seconds could take each
other's cancel, and then a reply only counts as not delivered (a part is offered twice, never lost).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from ..reply_effects import Effects
from .security import scope_headers

EARLY_KEEP = 5.0  # seconds a cancel naming no request in flight waits for it, or may still revoke its reply
EARLY_MAX = 256  # cancels kept so at most: a client cancelling in a loop cannot grow the table
_IDENTITY = ("user-agent", "x-kg-client", "mcp-session-id", "x-kg-home")

Key = tuple[str, ...]


class Watch:
    """One request in flight: whether its client has cancelled it."""

    def __init__(self, key: Key, cancelled: bool) -> None:
        self.key = key
        self.cancelled = cancelled


class Cancels:
    def __init__(self) -> None:
        self._running: dict[Key, list[Watch]] = {}
        self._early: OrderedDict[Key, float] = OrderedDict()  # key -> when its cancel came
        self._answered: OrderedDict[Key, tuple[float, Effects]] = OrderedDict()  # key -> when, what it handed out

    def watch(self, scope: dict[str, Any], msg_id: object, now: float) -> Watch:
        """Watch a request from now on (`done` when its reply is settled); cancelled already when its
        cancel overtook it."""
        key = _key(scope, msg_id)
        self._forget_old(now)
        watch = Watch(key, self._early.pop(key, None) is not None)
        self._running.setdefault(key, []).append(watch)
        return watch

    def done(self, watch: Watch) -> None:
        watches = self._running.get(watch.key, [])
        if watch in watches:
            watches.remove(watch)
        if not watches:
            self._running.pop(watch.key, None)

    def answered(self, watch: Watch, effects: Effects, now: float) -> None:
        """The request's reply went out, its effects delivered: a cancel read soon after revokes them."""
        self._forget_old(now)
        if effects.revocable:
            _keep(self._answered, watch.key, (now, effects))

    def cancel(self, scope: dict[str, Any], request_id: object, now: float) -> Effects | None:
        """Mark the request the cancel names; the effects to revoke when it was answered just before."""
        key = _key(scope, request_id)
        watches = self._running.get(key)
        if watches:
            for watch in watches:
                watch.cancelled = True
            return None
        self._forget_old(now)
        answered = self._answered.pop(key, None)
        if answered is not None:
            return answered[1]
        _keep(self._early, key, now)
        return None

    def _forget_old(self, now: float) -> None:
        while self._early and next(iter(self._early.values())) < now - EARLY_KEEP:
            self._early.popitem(last=False)
        while self._answered and next(iter(self._answered.values()))[0] < now - EARLY_KEEP:
            self._answered.popitem(last=False)


def _keep(table: OrderedDict[Key, Any], key: Key, value: Any) -> None:
    """Kept newest last, EARLY_MAX at most: a client cancelling (or calling) in a loop cannot grow it."""
    table[key] = value
    table.move_to_end(key)
    while len(table) > EARLY_MAX:
        table.popitem(last=False)


def _key(scope: dict[str, Any], msg_id: object) -> Key:
    headers = scope_headers(scope)
    return (*(headers.get(name, "") for name in _IDENTITY), str(scope.get("query_string") or b""),
            json.dumps(msg_id, sort_keys=True))


def cancelled_id(message: object) -> tuple[bool, object]:
    """(True, the request id) for a `notifications/cancelled` as the protocol words it, else (False, None)."""
    if not isinstance(message, dict) or message.get("method") != "notifications/cancelled" or "id" in message:
        return False, None
    params = message.get("params")
    if not isinstance(params, dict) or "requestId" not in params:
        return False, None
    request_id = params["requestId"]
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return False, None
    if "reason" in params and not isinstance(params["reason"], str | None):
        return False, None
    return True, request_id


def request_id(body: bytes) -> object:
    """The id of the request a body carries (None for a notification, a response, or no JSON-RPC)."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return message.get("id") if isinstance(message, dict) and "method" in message else None
