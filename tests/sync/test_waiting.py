"""The wait on the server's answer: a server found stuck before or while the request is out is named; a slow
one that keeps answering /health is waited for; the request's own error reaches the caller."""

from __future__ import annotations

import threading

import pytest

from kg_actors.sync.waiting import ServerStuck, ask


def test_a_server_stuck_before_the_request_is_named_and_nothing_is_sent():
    sent = []
    with pytest.raises(ServerStuck) as caught:
        ask(lambda: sent.append(1), lambda: "stopped (SIGSTOP)", every=0.01)
    assert caught.value.why == "stopped (SIGSTOP)" and caught.value.sent is False and sent == []


def test_a_server_that_stops_while_the_answer_is_out_is_named():
    never = threading.Event()
    looks = iter([None, None, None, "stopped now"])  # fine at first, then stopped
    with pytest.raises(ServerStuck) as caught:
        ask(never.wait, lambda: next(looks), every=0.01)
    assert caught.value.why == "stopped now" and caught.value.sent is True


def test_a_slow_server_still_answering_is_waited_for():
    answer = threading.Event()
    looks = []

    def look():
        looks.append(1)
        if len(looks) == 5:  # it answers /health all along; the work ends after a few looks
            answer.set()
        return None

    assert ask(lambda: answer.wait() and "done", look, every=0.01) == "done"
    assert len(looks) >= 5


def test_the_requests_own_error_is_raised_to_the_caller():
    def refuse():
        raise ConnectionRefusedError("refused")

    with pytest.raises(ConnectionRefusedError):
        ask(refuse, lambda: None, every=0.01)
