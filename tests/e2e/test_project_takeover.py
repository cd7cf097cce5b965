"""Which store folder a project folder gets when a folder of its name went away: a folder of the same name
takes a gone folder's memory only on evidence it is the same project (the graph's touched files are in it),
and is told; without evidence it gets its own store folder, and two existing folders never share one graph."""

from __future__ import annotations

import os

import pytest
from hook_helpers import Harness, mcp_call, recall_log

from kg_actors.testing import ServerProcess


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("takeover"))
    server.start("--no-editor")
    yield server
    server.kill()


def learn(srv: ServerProcess, cwd: str, node_id: str, touches: list[str] | None = None) -> Harness:
    h = Harness(srv, cwd)
    assert h.start().context and h.kg_sid
    h.mcp("kg_put_node", level="project", id=node_id, gist=f"A lesson of {node_id}.", touches=touches or [])
    return h


def files(root: str, *names: str) -> None:
    for name in names:
        os.makedirs(os.path.dirname(f"{root}/{name}"), exist_ok=True)
        with open(f"{root}/{name}", "w") as f:
            f.write("x\n")


def test_an_unrelated_folder_of_a_gone_folders_name_never_shares_its_memory(srv):
    work, hobby = srv.project("w/svc"), srv.project("p/svc")
    learn(srv, work, "work-svc-lesson")
    os.rename(work, work + ".away")  # an unmounted disk, a folder moved aside a moment
    run = Harness(srv, hobby).start()
    assert "work-svc-lesson" not in run.context
    assert f"the memory of {os.path.realpath(work)}, a folder of this name not on this machine" in run.context
    assert "starts a memory of its own" in run.context.splitlines()[0], run.context  # told, in one line
    assert "its lessons touch no file: nothing tells" in run.context.splitlines()[0], run.context
    learn(srv, hobby, "hobby-svc-lesson")
    os.rename(work + ".away", work)
    for _ in range(2):  # as served, and after a restart (what each graph records)
        mine, theirs = Harness(srv, work).start().context, Harness(srv, hobby).start().context
        assert "work-svc-lesson" in mine and "hobby-svc-lesson" not in mine, mine
        assert "hobby-svc-lesson" in theirs and "work-svc-lesson" not in theirs, theirs
        srv.stop()
        srv.start("--no-editor")


def test_a_moved_folder_whose_touched_files_are_there_takes_its_memory_and_is_told_and_the_old_one_back_gets_its_own(srv):
    old, new = srv.project("mv1/proj"), str(srv.home / "mv2" / "proj")
    files(old, "src/app.py", "src/db.py", "README.md")
    learn(srv, old, "proj-db-lesson", ["src/db.py:3-9 (pool)", "src/app.py", "README.md"])
    os.makedirs(os.path.dirname(new))
    os.rename(old, new)
    run = Harness(srv, new).start()
    assert "proj-db-lesson" in run.context
    told = [line for line in run.context.splitlines() if "took over the memory of" in line]
    assert told and os.path.realpath(old) in told[0] and "`kg doctor`" in told[0], run.context
    mine = learn(srv, new, "proj-moved-lesson")
    # A copy of the old folder comes back (a clone again, a disk remounted): it never shares the moved one's.
    files(old, "src/app.py", "src/db.py", "README.md")
    back = Harness(srv, old).start()
    assert "proj-db-lesson" not in back.context and "proj-moved-lesson" not in back.context, back.context
    assert f"was taken over by {os.path.realpath(new)}" in back.context.splitlines()[0], back.context
    assert "proj-moved-lesson" in mcp_call(srv, "kg_read", {"session_id": mine.kg_sid})
    srv.stop()
    srv.start("--no-editor")
    assert "proj-moved-lesson" in Harness(srv, new).start().context
    assert "proj-db-lesson" not in Harness(srv, old).start().context


def test_a_renamed_folder_whose_touched_files_are_there_keeps_its_memory_and_is_told(srv):
    old, new = srv.project("rn/shop"), str(srv.home / "rn" / "shop-v2")
    files(old, "src/m.py", "src/n.py")
    learn(srv, old, "shop-rename-lesson", ["src/m.py", "src/n.py"])
    os.rename(old, new)
    run = Harness(srv, new).start()
    assert "shop-rename-lesson" in run.context
    assert f"took over the memory of {os.path.realpath(old)}" in run.context.splitlines()[0], run.context
    srv.stop()  # saved: the graph records its new folder, under the old one's name
    srv.start("--no-editor")
    run = Harness(srv, new).start()
    assert "shop-rename-lesson" in run.context and "took over" not in run.context, run.context
    # Without evidence (no file its lessons touch is in it), a renamed folder starts its own memory.
    bare, renamed = srv.project("rn/cart"), str(srv.home / "rn" / "cart-v2")
    learn(srv, bare, "cart-rename-lesson")
    os.rename(bare, renamed)
    assert "cart-rename-lesson" not in Harness(srv, renamed).start().context



def _recalled(srv: ServerProcess, run: Harness, path: str) -> list[str]:
    """The lessons file recall found for a read of `path` (shown now, or already seen by the session)."""
    run.read(path)
    rows = [r for r in recall_log(srv) if r.get("reason") == "file_recall" and r.get("claude_session") == run.sid
            and r.get("files") == [path]]
    assert rows, f"no file recall logged for {path}"
    return rows[-1].get("nodes") or []


def test_file_recall_follows_a_folder_that_took_over_a_gone_folders_memory_at_once(srv):
    old, new = srv.project("fr/alpha"), os.path.realpath(srv.home) + "/fr/alpha2"
    files(old, "src/k.py", "src/l.py", "src/m.py")
    learn(srv, old, "alpha-lock-order", ["src/k.py", "src/l.py"])
    os.rename(old, new)
    run = Harness(srv, new)
    assert "took over the memory of" in run.start().context
    assert _recalled(srv, run, f"{new}/src/k.py") == ["alpha-lock-order"]  # served as it stands, no restart
    run.mcp("kg_put_node", level="project", id="alpha-m-after-move", gist="m.py is read after the move.",
            touches=["src/m.py"])
    assert _recalled(srv, run, f"{new}/src/m.py") == ["alpha-m-after-move"]


def test_files_every_project_has_are_no_evidence_an_unrelated_folder_of_that_name_is_the_project(srv):
    mine, theirs = srv.project("bp/web"), srv.project("clientB/web")
    files(mine, "README.md", "package.json", ".gitignore", ".github/workflows/ci.yml")
    learn(srv, mine, "web-deploy-steps", ["package.json", "README.md", ".gitignore", ".github/workflows/ci.yml"])
    os.rename(mine, mine + "-aside")  # moved aside a moment (a re-clone, a branch switch)
    files(theirs, "README.md", "package.json", ".gitignore", ".github/workflows/ci.yml", "index.js")
    run = Harness(srv, theirs).start()
    assert "web-deploy-steps" not in run.context and "took over" not in run.context, run.context
    told = run.context.splitlines()[0]
    assert f"holds the memory of {os.path.realpath(mine)}" in told and "any project may have" in told, told
    os.rename(mine + "-aside", mine)
    back = Harness(srv, mine).start()
    assert "web-deploy-steps" in back.context and "taken over" not in back.context, back.context


def test_a_moved_project_whose_name_another_project_here_has_takes_its_memory_back(srv):
    # ~/t1/svc and ~/t2/svc: graphs `svc` and `svc-<hash>`. ~/t2/svc moves to ~/t3/svc; ~/t1/svc stays, so its
    # graph is never the moved folder's, however alike the two paths end.
    one, two, moved = srv.project("tw1/svc"), srv.project("tw2/svc"), str(srv.home / "tw3" / "svc")
    files(one, "s/one.py", "s/two.py")
    files(two, "s/three.py", "s/four.py")
    learn(srv, one, "rule-of-tw1", ["s/one.py", "s/two.py"])
    learn(srv, two, "rule-of-tw2", ["s/three.py", "s/four.py"])
    srv.stop()
    os.makedirs(os.path.dirname(moved))
    os.rename(two, moved)
    srv.start("--no-editor")
    run = Harness(srv, moved).start()
    assert "rule-of-tw2" in run.context and "rule-of-tw1" not in run.context, run.context
    told = [line for line in run.context.splitlines() if "took over the memory of" in line]
    assert told and os.path.realpath(two) in told[0], run.context
    assert "rule-of-tw1" in Harness(srv, one).start().context
