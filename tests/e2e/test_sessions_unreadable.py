"""An unreadable sessions.json (torn, or `[1,2,3]` beside a bad sessions.prev): the server starts with no
sessions and keeps the file aside, and its log says so in the words of sessions, which are this machine's alone
and never committed. It said "not the shape of a graph ... restore it from the store's git history (`kg
restore`) or move both aside to start this graph empty": kg restore holds no sessions, so that could not work.
kg doctor, which said all good, names the copy kept aside."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, kg
from mcp import Client


@pytest.mark.parametrize("file, prev", [("torn", None), ("[1, 2, 3]", "torn")])
async def test_an_unreadable_sessions_file_is_said_in_sessions_words(server_factory, file, prev):
    srv = server_factory()
    async with Client(srv.url + "/") as c:
        await Session.open(c)
    assert srv.stop() == 0
    sessions = srv.store / "sessions.json"
    whole = sessions.read_text()
    sessions.write_text(whole[: len(whole) // 2] if file == "torn" else file)
    (srv.store / "sessions.prev").unlink(missing_ok=True)
    if prev is not None:
        (srv.store / "sessions.prev").write_text('{"x": ')
    srv.start("--no-editor")
    line = next(x for x in srv.log.read_text().splitlines() if "sessions file unreadable" in x)
    assert "graph" not in line and "(`kg restore`)" not in line and "move both aside" not in line, line
    assert "starting with no sessions" in line and "kept as sessions.json.unreadable" in line, line
    if file != "torn":
        assert "holds a JSON list, not an object of sessions" in line, line
    async with Client(srv.url + "/") as c:
        await Session.open(c)  # the server serves on
    doctor = kg(["doctor"], srv.env).stdout
    assert f"WARN  sessions: {srv.store / 'sessions.json.unreadable'} did not read" in doctor, doctor
    assert "kg restore" not in doctor.split("WARN  sessions:", 1)[1].split("\n")[1], doctor
