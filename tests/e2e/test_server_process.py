"""The test harness's own server (kg_actors.testing.ServerProcess): a port taken meanwhile is not a failure.

Ports are picked free and bound a moment later by the server: under xdist another test's server can take
the editor's port in between (CI saw "cannot serve on 127.0.0.1:45195 (Address already in use)" and the
harness waited for an editor that never came), or the server's own (a run saw `kg serve exited 1: KG
PREFLIGHT: cannot serve on 127.0.0.1:48903`)."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

from kg_actors.testing import ServerProcess


@contextlib.contextmanager
def _started_while_taken(srv: ServerProcess, port: int) -> Iterator[dict[str, Any] | None]:
    """Start `srv` while another socket listens on `port`; its /health once up."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        srv.start()
        try:
            yield srv.health()
        finally:
            srv.stop()


def test_an_editor_port_taken_before_the_server_binds_it_is_replaced(tmp_path):
    srv = ServerProcess(tmp_path)
    taken = srv.editor_port
    with _started_while_taken(srv, taken) as health:
        assert health is not None and health["editor"]["state"] == "up"
        assert srv.editor_port != taken and health["editor"]["port"] == srv.editor_port


def test_a_server_port_taken_before_the_server_binds_it_is_replaced(tmp_path):
    srv = ServerProcess(tmp_path)
    taken = srv.port
    with _started_while_taken(srv, taken) as health:
        assert srv.port != taken and health is not None
