"""Another account of this machine is refused: the owner of a request's socket, asked of the kernel."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess

import pytest

from kg_actors.http import accounts
from kg_actors.testing import ServerProcess

SERVER = ("127.0.0.1", 8765)
LINUX = hasattr(socket, "AF_NETLINK")


def scope(port: int) -> dict:
    return {"type": "http", "client": ("127.0.0.1", port), "server": SERVER}


@pytest.mark.skipif(not LINUX, reason="netlink's sock_diag is Linux's")
def test_the_kernel_names_the_owner_of_a_connections_client_end():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        with socket.create_connection(listener.getsockname()) as client:
            conn, _ = listener.accept()
            with conn:
                assert accounts.owner(client.getsockname(), listener.getsockname()) == os.getuid()
                # Gone, or never there: nothing is told (and nothing refused).
                assert accounts.owner(("127.0.0.1", 1), listener.getsockname()) is None
    assert accounts.owner(("::1", 5000), ("::1", 8765)) is None  # IPv6: not asked


def test_only_another_accounts_socket_is_refused_and_each_is_asked_once():
    owners = {51000: 1000, 51001: 0}
    asked = []

    def ask(client, server):
        asked.append(client)
        return owners.get(client[1])

    now = [0.0]
    checker = accounts.Accounts(me=0, ask=ask, clock=lambda: now[0])
    assert checker.other(scope(51000)) is True
    assert checker.other(scope(51001)) is False
    assert checker.other(scope(51002)) is False  # not found: not refused
    assert checker.other({"type": "http"}) is False  # not over a socket
    assert checker.other(scope(51000)) is True and len(asked) == 3  # remembered
    now[0] += accounts.REMEMBER_SECONDS + 1
    assert checker.other(scope(51000)) is True and len(asked) == 4

    def failing(client, server):
        raise OSError("no netlink here")

    assert accounts.Accounts(me=0, ask=failing).other(scope(51000)) is False


@pytest.mark.skipif(os.getuid() != 0 or not LINUX or not shutil.which("runuser"),
                    reason="needs root (to run a client as another account), Linux and runuser")
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
