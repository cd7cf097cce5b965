"""Hypercorn's HTTP/1.1 server over hook_priority's listeners (hypercorn internals: pinned <0.19).

The app learns that a request is a hook only after hypercorn has accepted,
read and parsed it: several scheduling rounds. The listeners count a hook in
flight from its request's first bytes instead (hook_priority.py).
"""

from __future__ import annotations

from functools import partial

import trio
from hypercorn.config import Config
from hypercorn.trio.statsd import StatsdLogger
from hypercorn.trio.tcp_server import TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import repr_socket_addr, wrap_app

from ..hook_priority import HookAwareListener, HookPriority, hook_request_starts

async def serve(app, config: Config, priority: HookPriority, hook_paths: frozenset[str], *,
                task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """Plain-HTTP hypercorn on `config.bind`, with hook-aware listeners; runs until cancelled.

    The app gets no lifespan events (ours needs none); TLS and QUIC binds are refused.
    """
    config.set_statsd_logger_class(StatsdLogger)
    sockets = config.create_sockets()
    if sockets.secure_sockets or sockets.quic_sockets:
        raise ValueError("bind: the memory server serves plain HTTP on loopback only")
    starts = hook_request_starts(hook_paths)
    listeners, binds = [], []
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
        listeners.append(HookAwareListener(sock, priority, starts))
        binds.append(f"http://{repr_socket_addr(sock.family, sock.getsockname())}")
    context = WorkerContext(None)
    handler = partial(TCPServer, wrap_app(app, config.wsgi_max_body_size, "asgi"), config, context, ConnectionState({}))
    async with trio.open_nursery() as nursery:
        await nursery.start(partial(trio.serve_listeners, handler, listeners, handler_nursery=nursery))
        task_status.started(binds)
