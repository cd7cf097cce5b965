"""Waiting on the store's server for `kg commit`, `kg sync` and `kg restore`: a sync may take minutes and
is waited for, but a server stopped by a signal or hung answers never, so it is looked at before the
request and every few seconds while it is out, and named with the way out instead of a silent wait."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..server_probe import probe_health, stuck
from ..server_process import is_server, parse

if TYPE_CHECKING:
    from ..config import Config

LOOK_EVERY = 2.0  # seconds between looks at the server while its answer is out

R = TypeVar("R")


class ServerStuck(Exception):
    """The server will not answer: `why` names it and the way out; `sent`: the request was out already."""

    def __init__(self, why: str, sent: bool):
        super().__init__(why)
        self.why, self.sent = why, sent


def ask(send: Callable[[], R], stuck_now: Callable[[], str | None], every: float = LOOK_EVERY) -> R:
    """send()'s answer (or what it raised); ServerStuck once stuck_now() names the server stuck, before
    sending or while waiting. A server slow at its work still answers /health, so it is waited for."""
    why = stuck_now()
    if why is not None:
        raise ServerStuck(why, sent=False)
    box: queue.Queue[tuple[bool, object]] = queue.Queue(maxsize=1)

    def run() -> None:
        try:
            box.put((True, send()))
        except BaseException as exc:  # handed to the caller's thread, which raises it there
            box.put((False, exc))

    # A daemon: a request left with a stopped server must not keep this command from exiting.
    threading.Thread(target=run, daemon=True, name="kg-request").start()
    while True:
        try:
            ok, value = box.get(timeout=every)
        except queue.Empty:
            why = stuck_now()
            if why is not None:
                raise ServerStuck(why, sent=True) from None
            continue
        if ok:
            return value  # type: ignore[return-value]
        raise value  # type: ignore[misc]


def server_stuck(config: Config) -> str | None:
    """What is wrong with the store's server when it cannot answer (stopped by a signal, or silent on its
    port), with the way out; None when it answers or may (slow, starting, stopping)."""
    try:
        pid, port = parse((config.root / "server.pid").read_text())
    except (OSError, ValueError):
        pid, port = None, None
    if pid is not None and is_server(pid):
        why = stuck(config.host, pid, port or config.port)
        return None if why is None else f"the server holding {config.root} {why}"
    if probe_health(config.url) == "hung":
        return (f"the program on {config.url} takes connections but does not answer /health: if it is a kg "
                "server, it is hung (kg status names it)")
    return None
