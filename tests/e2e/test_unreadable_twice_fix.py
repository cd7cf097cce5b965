"""A graph whose file and previous save both do not read: the fix kg status and kg doctor give moves aside
each of the two that is there (it moved the file alone, and after that, followed, the graph was still served
empty refusing writes, and the fix named the file no longer there). Followed as printed, the graph starts empty
and takes writes."""

from __future__ import annotations

import re
import subprocess

from e2e_helpers import Session, kg
from mcp import Client

TORN = '{"nodes": {'


def _follow(fix_line: str) -> None:
    """Run the fix's `mv ...` command as printed."""
    command = next(c for c in re.findall(r"`([^`]*)`", fix_line) if c.startswith("mv "))
    subprocess.run(["sh", "-c", command], check=True)


def _fix_of(out: str, key: str) -> str:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if f"graph {key}:" in line)
    return lines[at + 1]


async def test_the_fix_for_a_file_and_its_previous_save_both_unreadable_starts_the_graph_empty(server_factory):
    srv = server_factory()
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="some-user-lesson", gist="A lesson")
    assert srv.stop() == 0
    user, prev = srv.store / "user.json", srv.store / "user.prev"
    user.write_text(TORN)
    prev.write_text(TORN)
    doctor = _fix_of(kg(["doctor"], srv.env).stdout, "user")  # server down: read as the next start reads it
    assert f"mv {user} {user}.aside && mv {prev} {prev}.aside" in doctor, doctor
    srv.start("--no-editor")
    status = _fix_of(kg(["status"], srv.env).stdout, "user")
    assert f"mv {user} {user}.aside && mv {prev} {prev}.aside" in status, status
    _follow(status)
    assert srv.stop() == 0
    srv.start("--no-editor")
    assert "graph user" not in kg(["status"], srv.env).stdout
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="after-the-fix", gist="kept")


async def test_with_the_file_moved_aside_alone_the_fix_names_the_previous_save_left(server_factory):
    srv = server_factory()
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="some-user-lesson", gist="A lesson")
    assert srv.stop() == 0
    user, prev = srv.store / "user.json", srv.store / "user.prev"
    user.write_text(TORN)
    prev.write_text(TORN)
    user.rename(srv.store / "user.json.aside")  # what the old fix said, alone
    srv.start("--no-editor")
    out = kg(["status"], srv.env).stdout
    assert "or move user.prev aside to start this graph empty" in out and "move both aside" not in out, out
    status = _fix_of(out, "user")
    assert f"`mv {prev} {prev}.aside`" in status and f"mv {user} " not in status, status
    _follow(status)
    assert srv.stop() == 0
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="after-the-fix", gist="kept")
