"""The test harness's own server (kg_actors.testing.ServerProcess): a port taken meanwhile is not a failure.

Ports are picked free and bound a moment later by the server: under xdist another test's server can take
the editor's port in between (CI saw "cannot serve on 127.0.0.1:45195 (Address already in use)" and the
harness waited for an editor that never came), or the server's own (a run saw `kg serve exited 1: KG
PREFLIGHT: cannot serve on 127.0.0.1:48903`)."""

from __future__ import annotations

import socket

from kg_actors.testing import ServerProcess


def test_an_editor_port_taken_before_the_server_binds_it_is_replaced(tmp_path):
    srv = ServerProcess(tmp_path)
    taken = srv.editor_port
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        srv.start()
        try:
            health = srv.health()
            assert health is not None and health["editor"]["state"] == "up"
            assert srv.editor_port != taken and health["editor"]["port"] == srv.editor_port
        finally:
            srv.stop()


def test_a_server_port_taken_before_the_server_binds_it_is_replaced(tmp_path):
    srv = ServerProcess(tmp_path)
    taken = srv.port
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        srv.start()
        try:
            assert srv.port != taken and srv.health() is not None
        finally:
            srv.stop()
