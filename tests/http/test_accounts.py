"""Another account of this machine is refused: the owner of a request's socket, read from /proc/net/tcp."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from kg_actors.http import accounts
from kg_actors.testing import ServerProcess

# Two connections between 127.0.0.1:8765 (the server) and clients on ports 51000 (uid 1000) and 51001 (uid 0).
TABLE = b"""  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:223D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1250 1 0
   1: 0100007F:C738 0100007F:223D 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0
   2: 0100007F:223D 0100007F:C738 01 00000000:00000000 00:00000000 00000000     0        0 4243 1 0
   3: 0100007F:C739 0100007F:223D 01 00000000:00000000 00:00000000 00000000     0        0 4244 1 0
"""
SERVER = ("127.0.0.1", 8765)


def scope(port: int) -> dict:
    return {"type": "http", "client": ("127.0.0.1", port), "server": SERVER}


def test_the_owner_of_the_clients_end_is_read_from_the_table():
    assert accounts.owner(TABLE, ("127.0.0.1", 51000), SERVER) == 1000
    assert accounts.owner(TABLE, ("127.0.0.1", 51001), SERVER) == 0
    assert accounts.owner(TABLE, ("127.0.0.1", 51002), SERVER) is None  # gone: not refused
    assert accounts.owner(TABLE, ("::1", 51000), ("::1", 8765)) is None  # IPv6: not read


def test_only_another_accounts_socket_is_refused_and_each_is_asked_once():
    reads = []

    def read() -> bytes:
        reads.append(1)
        return TABLE

    now = [0.0]
    checker = accounts.Accounts(me=0, read=read, clock=lambda: now[0])
    assert checker.other(scope(51000)) is True
    assert checker.other(scope(51001)) is False
    assert checker.other(scope(51002)) is False
    assert checker.other({"type": "http"}) is False  # not over a socket
    assert checker.other(scope(51000)) is True and len(reads) == 3  # remembered
    now[0] += accounts.REMEMBER_SECONDS + 1
    assert checker.other(scope(51000)) is True and len(reads) == 4

    def unreadable() -> bytes:
        raise OSError("no /proc here")

    assert accounts.Accounts(me=0, read=unreadable).other(scope(51000)) is False


@pytest.mark.skipif(os.getuid() != 0 or not os.path.exists(accounts.TABLE) or not shutil.which("runuser"),
                    reason="needs root (to run a client as another account), Linux's /proc/net/tcp and runuser")
def test_a_request_from_another_account_is_refused_and_the_owners_served(tmp_path):
    srv = ServerProcess(tmp_path).start()
    try:
        url = f"{srv.url}/health"
        mine = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url],
                              capture_output=True, text=True, timeout=30)
        assert mine.stdout == "200"
        other = subprocess.run(["runuser", "-u", "nobody", "--", "curl", "-s", "-w", "\n%{http_code}", url],
                               capture_output=True, text=True, timeout=30)
        body, _, code = other.stdout.rpartition("\n")
        assert code == "403" and "another account of this machine" in body, other
        graph = subprocess.run(["runuser", "-u", "nobody", "--", "curl", "-s", "-w", "\n%{http_code}",
                                f"{srv.url}/api/graph?level=user"], capture_output=True, text=True, timeout=30)
        assert graph.stdout.endswith("\n403")
    finally:
        srv.stop()
