"""An unreadable sessions.json (torn, or `[1,2,3]` beside a bad sessions.prev): the server starts with no
sessions and keeps the file aside, and its log says so in the words of sessions, which are this machine's alone
and never committed. It said "not the shape of a graph ... restore it from the store's git history (`kg
restore`) or move both aside to start this graph empty": kg restore holds no sessions, so that could not work.
kg doctor, which said all good, names the copy kept aside."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, call, kg
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
    assert "starting with no sessions" in line and "kept as sessions.json.unreadable-started-empty" in line, line
    if file != "torn":
        assert "holds a JSON list, not an object of sessions" in line, line
    async with Client(srv.url + "/") as c:
        await Session.open(c)  # the server serves on
    doctor = kg(["doctor"], srv.env).stdout
    said = f"WARN  sessions: {srv.store / 'sessions.json.unreadable-started-empty'} did not read"
    assert said in doctor and "began with no sessions" in doctor.split(said, 1)[1].split("\n")[0], doctor
    assert "kg restore" not in doctor.split("WARN  sessions:", 1)[1].split("\n")[1], doctor


async def test_doctor_says_a_start_took_the_sessions_from_the_save_before_when_it_did(server_factory):
    # The start fell back to sessions.prev and kept its sessions, but doctor said it "began with no sessions
    # (each started afresh)": a user reading it believed every session was reset.
    srv = server_factory()
    async with Client(srv.url + "/") as c:
        kept = await Session.open(c)
    assert srv.stop() == 0
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        await Session.open(c)
    assert srv.stop() == 0  # sessions.prev now holds the first session's save
    (srv.store / "sessions.json").write_text('{"broken": ')
    (srv.store / "sessions.json.journal").unlink(missing_ok=True)
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        text, _ = await call(c, "kg_read", {"session_id": kept.sid})
    assert "is unknown" not in text and kept.sid in text, text  # taken from sessions.prev, as the log says
    doctor = kg(["doctor"], srv.env).stdout
    said = doctor.split("WARN  sessions:", 1)[1].split("\n")[0]
    assert "sessions.json.unreadable did not read" in said and "sessions.prev" in said, said
    assert "began with no sessions" not in said, said
