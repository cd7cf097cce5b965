"""The pid file's two lines, and the ports /proc says a process listens on (server_process.py)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from kg_actors.server_process import listening_ports, parse, pid_text, port_holder


def test_the_pid_file_holds_the_pid_then_the_port_and_an_older_kgs_holds_the_pid_alone():
    assert parse(pid_text(4242, 18765)) == (4242, 18765)
    assert parse("4242") == (4242, None)  # written by an older kg
    assert parse("4242\n99999\n") == (4242, None)  # no port: looked up in /proc instead
    for text in ("", "pid", "-3", "\uff14\uff12"):
        with pytest.raises(ValueError):
            parse(text)


@pytest.mark.skipif(not Path("/proc/self/net/tcp").exists(), reason="no procfs")
def test_the_ports_a_process_listens_on_and_the_process_on_a_port_are_read_from_proc():
    with socket.socket() as listener, socket.socket() as bound:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        bound.bind(("127.0.0.1", 0))  # bound, not listening: no server on it
        port = listener.getsockname()[1]
        assert port in listening_ports(os.getpid())
        assert bound.getsockname()[1] not in listening_ports(os.getpid())
        assert port_holder(port) == os.getpid()
    assert port not in listening_ports(os.getpid())
    assert listening_ports(2 ** 31 - 1) == set()  # no such process


def test_a_pid_file_naming_another_stores_server_says_so_without_calling_this_store_a_copy(tmp_path, monkeypatch):
    from kg_actors import pid_file
    from kg_actors.storage import lock

    monkeypatch.setattr(pid_file, "is_server", lambda pid: True)  # a kg server runs as that pid...
    monkeypatch.setattr(lock, "holder_present", lambda root: False)  # ...holding no lock of this store
    path = tmp_path / "server.pid"
    path.write_text("4242")
    pid, port, why = pid_file.named(path)
    assert pid is None and "it named pid 4242, a kg server holding another store, not this one; removed" in why
    assert "copy" not in why and not path.exists()
