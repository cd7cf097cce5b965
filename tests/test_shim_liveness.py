"""shim/liveness.py: a reply is awaited while the server answers its health check, given up once it does not."""

from __future__ import annotations

import socket

import pytest

from shim import liveness


def test_a_reply_already_there_ends_the_wait_without_asking_whether_to_give_up():
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"HTTP/1.1 200 OK\r\n")
        liveness.await_reply(ours, 5.0, lambda waited: pytest.fail("asked to give up with a reply waiting"))


def test_a_reason_to_give_up_ends_the_wait_with_it():
    ours, theirs = socket.socketpair()
    with ours, theirs, pytest.raises(liveness.Unanswered) as raised:
        liveness.await_reply(ours, 5.0, lambda waited: "hung")
    assert raised.value.reason == "hung"


def test_a_reply_that_arrives_while_the_server_is_judged_wins_over_the_reason():
    ours, theirs = socket.socketpair()
    with ours, theirs:
        def judged_late(waited: float) -> str:
            theirs.sendall(b"HTTP/1.1 200 OK\r\n")  # came during the health check
            return "hung"
        liveness.await_reply(ours, 5.0, judged_late)


def test_no_budget_left_is_a_timeout():
    ours, theirs = socket.socketpair()
    with ours, theirs, pytest.raises(TimeoutError):
        liveness.await_reply(ours, 0.0, lambda waited: None)


def test_the_health_is_checked_after_a_second_then_every_two_and_silence_gives_the_reason(monkeypatch):
    checks: list[float] = []
    silent = {"now": False}

    def health_silent(host: str, port: int, timeout: float = liveness.HEALTH_WAIT) -> bool:
        checks.append(timeout)
        return silent["now"]
    monkeypatch.setattr(liveness, "health_silent", health_silent)
    give_up = liveness.health_watch("127.0.0.1", 9, lambda: "it is hung")
    assert [give_up(w) for w in (0.25, 0.75)] == [None, None] and checks == []  # a fast reply is never checked
    assert give_up(1.0) is None and len(checks) == 1  # alive: waited for
    assert give_up(2.5) is None and len(checks) == 1  # not again before PROBE_EVERY
    silent["now"] = True
    assert give_up(3.0) == "it is hung" and checks == [liveness.HEALTH_WAIT] * 2


def test_silence_is_only_a_connection_taken_and_not_answered():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(4)  # takes connections (the kernel's backlog), answers nothing
        assert liveness.health_silent("127.0.0.1", held.getsockname()[1], 0.2)
    with socket.socket() as gone:
        gone.bind(("127.0.0.1", 0))  # bound, not listening: refused
        assert not liveness.health_silent("127.0.0.1", gone.getsockname()[1], 0.2)


def test_what_holds_the_port_is_named_with_its_way_out():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        said = liveness.hung_said("127.0.0.1", port, sent=False)
    import os
    assert f"pid {os.getpid()}" in said and "not a kg server" in said and "was not sent" in said, said
    assert "may still be applied" in liveness.hung_said("127.0.0.1", port, sent=True)


def test_a_request_cut_off_after_it_reached_the_server_is_said_to_maybe_have_landed():
    said = liveness.cut_off_said("127.0.0.1", 9, ConnectionResetError(104, "Connection reset by peer"))
    assert "unreachable" not in said and "Connection reset by peer" in said
    assert "may or may not have been applied" in said and "kg_read" in said
