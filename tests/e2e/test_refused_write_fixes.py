"""A write the store refuses gets a fix line (kg status, kg doctor) that works when followed, for each cause:
a project folder another account owns (its owner's `chmod u+w` changes nothing: `chown` does), a file standing
where a project's folder goes (moved away, named), an immutable graph file (EPERM: `chattr -i`, since the store
is writable and its chmod changes nothing). Each test follows the fix and sees the next write kept."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from e2e_helpers import Session, health_at, kg, wait_until
from mcp import Client
from other_user import NOBODY, ROOT, graph_json, needs_other_user, other_user_server, own
from other_user import Client as AsUser
from rpc_helpers import session_id


def _fix_of(out: str, key: str) -> str:
    """The fix line under the FAIL (doctor) or trouble (status) line of `key`."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if f"graph {key}:" in line)
    fix = lines[at + 1].strip()
    assert fix.startswith("fix: "), out
    return fix


@needs_other_user
def test_a_project_folder_another_account_owns_gets_the_chown_that_lets_the_server_write():
    if not ROOT:
        pytest.skip("only root can give the folder to another owner")
    with other_user_server() as srv:
        cwd = srv.project("app")
        folder = srv.store / "projects" / "app"
        folder.mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        (folder / "graph.json").write_text(graph_json(cwd, "app-first-lesson"))
        own(srv)
        os.chown(folder, 0, 0)  # left to root (mode 755) by one `sudo kg ...`
        srv.start("--no-editor")
        conn = AsUser(srv)
        text, err = conn.tool("kg_read", cwd=cwd)
        assert not err and "app-first-lesson" in text, text
        sid = session_id(text)
        text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="refused-one", gist="refused")
        assert err and "NOT WRITTEN" in text, text
        for out in (conn.run("status").stdout, conn.run("doctor").stdout):
            fix = _fix_of(out, "project:app")
            assert f"`chown nobody {folder}`" in fix and "it belongs to root" in fix, fix
            assert "as its owner" not in fix, fix
        os.chown(folder, NOBODY, NOBODY)  # the fix followed
        text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="after-the-fix", gist="kept")
        assert not err, text


async def test_a_file_where_a_project_folder_goes_is_named_and_moving_it_away_lets_writes_in(server_factory):
    srv = server_factory(start=False)
    cwd = srv.project("proj1")
    subprocess.run(["git", "init", "-q", cwd], check=True)
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=cwd)
        await s.ok("kg_put_node", level="project", id="first-project-lesson", gist="the first lesson")
    assert srv.stop() == 0
    folder = srv.store / "projects" / "proj1"
    shutil.rmtree(folder)
    folder.write_text("x\n")  # a file where the project's folder goes
    srv.start("--no-editor")
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=cwd)
        text, err = await s("kg_put_node", level="project", id="second-project-lesson", gist="refused")
        assert err and "stands in the way" in text, text
        for out in (kg(["status"], srv.env).stdout, kg(["doctor"], srv.env).stdout):
            fix = _fix_of(out, "project:proj1")
            assert f"{folder} is a file where the store keeps a folder" in fix, fix
            assert f"`mv {folder} {folder}.aside`" in fix and "free space" not in fix, fix
        os.rename(folder, f"{folder}.aside")  # the fix followed
        await s.ok("kg_put_node", level="project", id="third-project-lesson", gist="kept")


def _chattr(*args: str) -> bool:
    return shutil.which("chattr") is not None and subprocess.run(["chattr", *args], capture_output=True).returncode == 0


async def test_an_immutable_graph_file_gets_chattr_not_a_chmod_of_the_writable_store(server_factory):
    if not ROOT:
        pytest.skip("only root sets the immutable attribute")
    srv = server_factory(start=False, extra_env={"KG_SAVE_INTERVAL": "1"})
    srv.start("--no-editor")
    user = srv.store / "user.json"
    async with Client(srv.url + "/") as c:
        s = await Session.open(c)
        await s.ok("kg_put_node", level="user", id="first-user-lesson", gist="first")
        wait_until(lambda: user.exists(), what="the first save")
        if not _chattr("+i", str(user)):
            pytest.skip("this file system takes no immutable attribute")
        try:
            await s.ok("kg_put_node", level="user", id="second-user-lesson", gist="second, in the journal")
            wait_until(lambda: "user" in ((health_at(srv.env) or {}).get("graphs_in_trouble") or {}),
                       what="the refused save named")
            for out in (kg(["status"], srv.env).stdout, kg(["doctor"], srv.env).stdout):
                fix = _fix_of(out, "user")
                assert f"chattr -i -a {user}" in fix and "chmod u+w" not in fix, fix
        finally:
            _chattr("-i", str(user))
        wait_until(lambda: "user" not in ((health_at(srv.env) or {}).get("graphs_in_trouble") or {}),
                   what="the next save, the fix followed")
    assert "second-user-lesson" in user.read_text()
