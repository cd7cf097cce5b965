"""Which project a session's folder is, through the real hooks against a real `kg serve`: a gone project's
graph taken over only by a folder of its very name, git worktrees sharing their repository's memory, and
folders that cannot be a project (gone, relative, a symlink out of home) still getting the user's memory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from e2e_helpers import kg
from hook_helpers import Harness, mcp_call, node, project_graph, recall_log

from kg_actors.storage import layout as L
from kg_actors.testing import ServerProcess


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("folders"))
    server.start("--no-editor")
    yield server
    server.kill()


def git(*args: str, cwd: str | None = None) -> None:
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=cwd, check=True,
                   capture_output=True)


def learn(srv: ServerProcess, cwd: str, node_id: str, gist: str, level: str = "project") -> Harness:
    h = Harness(srv, cwd)
    assert h.start().context and h.kg_sid
    h.mcp("kg_put_node", level=level, id=node_id, gist=gist)
    return h


@pytest.mark.parametrize("gone, stranger, node_id", [
    ("ünï/日本語プロジェクト", "work/project", "japanese-build-lesson"),
    ("clients/My App", "oss/My-App", "client-a-blue-cluster"),
])
def test_a_gone_projects_lessons_never_reach_a_folder_that_only_shares_its_slug(srv, gone, stranger, node_id):
    h = learn(srv, srv.project(gone), node_id, "Deploys of this client go to the blue cluster only.")
    h.mcp("kg_put_node", level="project", id=node_id, gist="Deploys go to the blue cluster only.",
          touches=["deploy.sh:1-5 (cluster)", "ops/blue.env"])
    shutil.rmtree(srv.home / gone.split("/")[0])
    other = srv.project(stranger)
    git("init", "-q", other)
    run = Harness(srv, other).start()
    assert "session_id:" in run.context and node_id not in run.context
    # The project itself, moved to another parent folder (the files its lesson touches in it), keeps its memory.
    moved = srv.project("moved/" + gone.split("/")[-1])
    os.makedirs(f"{moved}/ops")
    for name in ("deploy.sh", "ops/blue.env"):
        with open(f"{moved}/{name}", "w") as f:
            f.write("#!/bin/sh\n")
    assert node_id in Harness(srv, moved).start().context


def test_a_git_worktree_shares_its_repositorys_memory_and_leaves_none_behind(srv):
    main = srv.project("repos/r01")
    git("init", "-q", main)
    os.makedirs(f"{main}/src")
    with open(f"{main}/src/auth.py", "w") as f:
        f.write("# auth\n")
    git("add", "src/auth.py", cwd=main)
    git("commit", "-q", "-m", "first", cwd=main)
    writer = learn(srv, main, "r01-release-steps", "Releases of r01 are tagged before the changelog is cut.")
    writer.mcp("kg_put_node", level="project", id="r01-auth-refresh", gist="r01 refreshes tokens on a 401.",
          touches=["src/auth.py"])
    claude_wt = f"{main}/.claude/worktrees/fix-bug"
    plain_wt = str(srv.home / "wt" / "r01-feature")
    for wt in (claude_wt, plain_wt):
        git("worktree", "add", "-q", wt, cwd=main)
    h = Harness(srv, claude_wt)
    assert "r01-release-steps" in h.start().context
    h.mcp("kg_put_node", level="project", id="r01-flaky-port", gist="The r01 test server needs a free port 8080.")
    assert "r01-flaky-port" in Harness(srv, main).start().context  # learned in a worktree, known in the repo
    assert "r01-flaky-port" in Harness(srv, plain_wt).start().context
    # An agent's own kg_read(cwd=<worktree>) opens the same project, and says which folder that is.
    for wt in (claude_wt, plain_wt):  # inside the repository's folder (Claude Code's) or beside it
        text = mcp_call(srv, "kg_read", {"cwd": wt})
        assert f"Project folder: {os.path.realpath(main)}, the git repository whose linked worktree holds cwd " \
               f"{os.path.realpath(wt)}." in text, text
    text = mcp_call(srv, "kg_read", {"cwd": plain_wt})
    assert "r01-flaky-port" in text
    assert f"Project folder: {os.path.realpath(main)}, the git repository whose linked worktree holds cwd " \
           f"{os.path.realpath(plain_wt)}." in text
    # A worktree's file is its repository's: the lesson touching it is found when the worktree's copy is read.
    h.read(f"{claude_wt}/src/auth.py")
    found = [e for e in recall_log(srv) if e.get("reason") == "file_recall" and e.get("kg_session") == h.kg_sid]
    assert found and found[-1]["files"] == [os.path.realpath(f"{main}/src/auth.py")], found
    assert found[-1]["outcome"] != "no_nodes" and "r01-auth-refresh" in found[-1].get("nodes", []), found
    assert not [d.name for d in (srv.store / "projects").iterdir() if d.name.startswith(("fix-bug", "r01-feature"))]
    # Once the worktree is gone, an unrelated repository of its name has nothing of r01's.
    git("worktree", "remove", "--force", claude_wt, cwd=main)
    stranger = srv.project("other-client/fix-bug")
    git("init", "-q", stranger)
    text = Harness(srv, stranger).start().context
    assert "session_id:" in text and "r01-" not in text


def test_a_lesson_written_in_a_linked_worktree_touching_its_absolute_path_is_recalled_there(srv):
    main = srv.project("apps/app")
    os.makedirs(f"{main}/src")
    with open(f"{main}/src/token.py", "w") as f:
        f.write("# token\n")
    git("init", "-q", main)
    git("add", "src/token.py", cwd=main)
    git("commit", "-q", "-m", "first", cwd=main)
    wt = str(srv.home / "apps" / "app-wt2")
    git("worktree", "add", "-q", wt, cwd=main)
    h = Harness(srv, wt)
    assert h.start().context and h.kg_sid
    # As Claude Code's Read names it: the worktree's absolute path, with a line range.
    h.mcp("kg_put_node", level="project", id="token-cache-ttl-rule", gist="The token cache keeps entries 5 min.",
          touches=[f"{wt}/src/token.py:3-9", f"{srv.home}/elsewhere/notes.md"])
    srv.stop()  # its graphs written whole
    stored = [json.loads(f.read_text())["nodes"].get("token-cache-ttl-rule") for f in srv.store.glob("projects/*/graph.json")]
    touches = [n for n in stored if n][0]["touches"]
    srv.start("--no-editor")
    # The repository's file; a path in no worktree of it kept as sent.
    assert touches == ["src/token.py:3-9", f"{srv.home}/elsewhere/notes.md"], touches
    h.read(f"{wt}/src/token.py")
    found = [e for e in recall_log(srv) if e.get("reason") == "file_recall" and e.get("kg_session") == h.kg_sid]
    assert found and "token-cache-ttl-rule" in found[-1].get("nodes", []), found
    git("worktree", "remove", "--force", wt, cwd=main)  # the lesson names the repository's file: still there
    assert "token-cache-ttl-rule" in Harness(srv, main).start().context


@pytest.mark.parametrize("cwd, why", [("gone/proj-del", "does not exist"), ("..", "is a relative path"),
                                      ("repos/r05", "is a relative path"),
                                      ("loop/proj", "is a symlink loop (a link on its way leads back to itself)")])
def test_a_session_in_a_folder_gone_or_named_relatively_keeps_the_users_memory(srv, cwd, why):
    learn(srv, str(srv.home), "user-prefers-small-commits", "The user wants one fix per commit.", "user")
    if cwd.startswith("gone/"):
        folder = srv.project(cwd)
        shutil.rmtree(folder)
        cwd = folder
    if cwd.startswith("loop/"):  # there, but no folder can be reached through it
        (srv.home / "loop").symlink_to("loop")
        cwd = str(srv.home / cwd)
    h = Harness(srv, cwd)
    run = h.start()
    assert run.context.startswith(f"kg memory: {cwd} {why}") and "user memory only" in run.context.splitlines()[0]
    assert "user-prefers-small-commits" in run.context and "PROJECT GRAPH" not in run.context and h.kg_sid
    assert h.prompt("how should I commit this fix").context  # the session is known: its prompt hook answers
    # An agent's own tool argument stays bad input, named.
    with pytest.raises(AssertionError, match="cwd"):
        mcp_call(srv, "kg_read", {"cwd": cwd})


def test_a_repository_behind_a_symlink_in_home_gets_project_memory(srv, tmp_path):
    data = tmp_path / "data" / "code"
    (data / "app").mkdir(parents=True)
    git("init", "-q", str(data / "app"))
    (srv.home / "code").symlink_to(data)
    cwd = str(srv.home / "code" / "app")
    h = learn(srv, cwd, "app-build-needs-make", "The app builds with make, never with the IDE.")
    run = Harness(srv, cwd + "/").start()
    assert "is outside your home" not in run.context and "app-build-needs-make" in run.context
    assert mcp_call(srv, "kg_read", {"session_id": h.kg_sid}).count("app-build-needs-make") >= 1
    # Named by its resolved path (what Claude Code and Codex send, and os.getcwd() gives), it is the same project.
    real = os.path.realpath(data / "app")
    run = Harness(srv, real).start()
    assert "is outside your home" not in run.context and "app-build-needs-make" in run.context, run.context
    assert "app-build-needs-make" in mcp_call(srv, "kg_read", {"cwd": real + "/"})
    # A folder outside home that no link in home leads to is still no project folder.
    (tmp_path / "data" / "other").mkdir()
    run = Harness(srv, str(tmp_path / "data" / "other")).start()
    assert run.context.startswith(f"kg memory: {tmp_path / 'data' / 'other'} is outside your home"), run.context
    with pytest.raises(AssertionError, match="outside the user's home"):
        mcp_call(srv, "kg_read", {"cwd": str(tmp_path / "data" / "other")})


def test_a_home_link_whose_target_appears_later_or_is_re_pointed_leads_to_the_project_without_a_restart(srv,
                                                                                                      tmp_path):
    data = os.path.realpath(tmp_path / "mnt")
    os.makedirs(f"{data}/ok/proj")
    os.makedirs(f"{data}/v1/proj")
    os.symlink(f"{data}/disk", srv.home / "disk")  # an unmounted disk when the server first looks
    os.symlink(f"{data}/v1", f"{data}/cur")
    os.symlink(f"{data}/cur", srv.home / "cur")
    os.symlink(f"{data}/ok", srv.home / "ok")
    run = Harness(srv, f"{data}/ok/proj").start()  # home's links are read now: ~/disk dangles
    assert "session_id" in run.context and "outside your home" not in run.context, run.context
    os.makedirs(f"{data}/disk/proj")  # mounted; home's own entries do not change
    os.rename(f"{data}/v1", f"{data}/v2")
    os.unlink(f"{data}/cur")
    os.symlink(f"{data}/v2", f"{data}/cur")  # `ln -sfn v2 cur`: ~/cur now leads to v2
    for cwd in (f"{data}/disk/proj", f"{data}/v2/proj"):
        for _ in range(2000):  # looked up again within a second or so: many hooks' worth
            run = Harness(srv, cwd).start()
            if "outside your home" not in run.context:
                break
        assert "session_id" in run.context and "outside your home" not in run.context, run.context


def test_doctor_names_a_renamed_repositorys_graph_and_its_way_back_works(server_factory):
    srv = server_factory(args=("--no-editor",))
    repo = srv.project("repos/r07")
    git("init", "-q", repo)
    learn(srv, repo, "r07-zebra-lesson", "The r07 zebra job runs nightly at two.")
    renamed = str(srv.home / "repos" / "r07-renamed")
    os.rename(repo, renamed)
    run = Harness(srv, renamed).start()
    assert "r07-zebra-lesson" not in run.context  # it starts empty, as before, and is told where that memory is
    graphs = srv.store / "projects"
    told = run.context.splitlines()[0]
    assert f"{graphs / 'r07'} holds the memory of {os.path.realpath(repo)}, a folder beside this one" in told, told
    assert "its lessons touch no file" in told and f"`mv {graphs / 'r07'} {graphs / 'r07-renamed'}`" in told, told
    srv.stop()
    doctor = kg(["doctor"], srv.env).stdout
    assert "takes its graph back only on evidence" in doctor and "README" in doctor, doctor
    assert f"--    project r07: its folder {repo} is not on this machine" in doctor, doctor
    assert f"its memory is in {graphs / 'r07'}" in doctor and f"mv {graphs}/OLD {graphs}/NEW" in doctor
    assert f"if {renamed} is this project moved or renamed: `kg stop`, move {graphs / 'r07-renamed'} aside" in doctor
    assert "project r07-renamed" not in doctor and "FAIL  project" not in doctor
    # As it says: the empty graph the renamed folder made goes aside, the old one takes its name.
    os.rename(graphs / "r07-renamed", srv.store / "r07-renamed-aside")
    os.rename(graphs / "r07", graphs / "r07-renamed")
    srv.start("--no-editor")
    assert "r07-zebra-lesson" in Harness(srv, renamed).start().context
    srv.stop()  # saved: the graph now records its new folder
    assert "project r07" not in kg(["doctor"], srv.env).stdout


def test_a_renamed_projects_note_reaches_the_renamed_folder_not_a_sibling_with_memory_of_its_own(server_factory):
    """A sibling beside a renamed folder that already keeps its own graph was told "this folder starts a
    memory of its own" and the moves that would swap its memory for the gone project's."""
    srv = server_factory(args=("--no-editor",))
    shop, blog = srv.project("p/shop"), srv.project("p/blog")
    for repo, lesson in ((shop, "shop-cart-rounding"), (blog, "blog-feed-cache")):
        git("init", "-q", repo)
        learn(srv, repo, lesson, f"The {lesson} rule holds.")
    srv.stop()
    renamed = str(srv.home / "p" / "shop-v2")
    os.rename(shop, renamed)
    srv.start("--no-editor")
    sibling = Harness(srv, blog).start().context
    assert "blog-feed-cache" in sibling and "holds the memory of" not in sibling, sibling
    told = Harness(srv, renamed).start().context
    assert f"holds the memory of {os.path.realpath(shop)}, a folder beside this one" in told, told


def test_a_project_moved_under_its_own_name_is_told_the_moves_that_give_it_its_memory_and_they_work(server_factory):
    """A repository moved from ~/old/widget to ~/new/widget, its touched files renamed since: no evidence, so it
    starts a memory of its own, `widget-<hash>` (`widget` is the gone folder's). What it is told to run, and
    what `kg doctor` says, names that folder: `mv projects/widget projects/widget` (the folder's name) cannot be
    done. Once done, it is told the memory came by the graph folder's rename, not that the files are here."""
    srv = server_factory(args=("--no-editor",))
    old = srv.project("old/widget")
    for name in ("w/a.py", "w/b.py"):
        os.makedirs(os.path.dirname(f"{old}/{name}"), exist_ok=True)
        with open(f"{old}/{name}", "w") as f:
            f.write("x\n")
    git("init", "-q", old)
    git("add", "-A", cwd=old)
    git("commit", "-q", "-m", "first", cwd=old)
    h = Harness(srv, old)
    assert h.start().context and h.kg_sid
    h.mcp("kg_put_node", level="project", id="widget-rule", gist="Widgets are built twice.", touches=["w/a.py", "w/b.py"])
    srv.stop()
    new = str(srv.home / "new" / "widget")
    os.makedirs(os.path.dirname(new))
    os.rename(old, new)
    git("mv", "w/a.py", "w/a2.py", cwd=new)
    git("mv", "w/b.py", "w/b2.py", cwd=new)
    os.rmdir(srv.home / "old")
    srv.start("--no-editor")
    run = Harness(srv, new).start()
    graphs, real = srv.store / "projects", os.path.realpath
    gone, own = graphs / "widget", graphs / L.hashed_slug(real(new))
    told = run.context.splitlines()[0]
    assert "widget-rule" not in run.context and f"{gone} holds the memory of {real(old)}" in told, told
    assert f"`kg stop`, move {own} aside" in told and f"`mv {gone} {own}`, `kg start`" in told, told
    srv.stop()
    doctor = kg(["doctor"], srv.env).stdout
    assert f"mv {gone} {own}`" in doctor and f"if {real(new)} is this project" in doctor, doctor
    assert f"mv {graphs}/OLD {graphs}/NEW` (NEW: the new folder's name)" not in doctor, doctor
    os.rename(own, srv.store / "widget-aside")  # as told
    os.rename(gone, own)
    srv.start("--no-editor")
    run = Harness(srv, new).start()
    told = run.context.splitlines()[0]
    assert "widget-rule" in run.context, run.context
    assert f"this folder took over the memory of {real(old)}" in told and "renamed for it" in told, told
    assert "the files its lessons touch are here" not in run.context, run.context


def test_a_user_only_preload_speaks_of_the_user_graph_alone_and_status_names_project_folders(srv):
    for cwd in (str(srv.home), "/"):
        run = Harness(srv, cwd).start()
        first = run.context.split("KG MEMORY PRELOADED", 1)[1].split("\n", 1)[0]
        assert "of the user graph" in first and "both graphs" not in first, first
        assert "of your user memory" in run.message and "project 0" not in run.message, run.message
    run = Harness(srv, srv.project("t1/svc")).start()
    assert "both graphs" in run.context and "(user " in run.message  # a project session: both, as before
    Harness(srv, srv.project("t2/svc")).start()
    status = kg(["status"], srv.env).stdout
    real = os.path.realpath
    assert f"project:svc ({real(srv.home / 't1' / 'svc')})" in status, status
    assert f"({real(srv.home / 't2' / 'svc')})" in status, status


def test_a_worktrees_own_graph_from_an_earlier_kg_is_merged_into_its_repositorys(srv):
    main = srv.project("repos/r02")
    git("init", "-q", main)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=main)
    learn(srv, main, "r02-deploy-order", "r02 deploys the schema before the code.")
    wt = f"{main}/.claude/worktrees/old-fix"
    git("worktree", "add", "-q", wt, cwd=main)
    legacy = srv.store / "projects" / "old-fix"
    legacy.mkdir(parents=True)
    (legacy / "graph.json").write_text(json.dumps(project_graph(os.path.realpath(wt), [
        node("r02-cache-warmup", "r02's cache must be warmed before the load test.")])))
    text = Harness(srv, wt).start().context
    assert "r02-cache-warmup" in text and "r02-deploy-order" in text
    assert not legacy.exists() and list((srv.store / "trash").glob("old-fix-*"))
    assert "r02-cache-warmup" in Harness(srv, main).start().context
    # The same when an agent's kg_read(cwd=<worktree>) opens the first session there.
    wt2 = str(srv.home / "wt" / "r02-two")
    git("worktree", "add", "-q", wt2, cwd=main)
    (srv.store / "projects" / "r02-two").mkdir()
    (srv.store / "projects" / "r02-two" / "graph.json").write_text(json.dumps(project_graph(os.path.realpath(wt2), [
        node("r02-flag-cleanup", "r02 drops a feature flag one release after it is on for all.")])))
    assert "r02-flag-cleanup" in mcp_call(srv, "kg_read", {"cwd": wt2})
    assert not (srv.store / "projects" / "r02-two").exists()
    git("worktree", "remove", "--force", wt, cwd=main)
    stranger = srv.project("elsewhere/old-fix")
    git("init", "-q", stranger)
    assert "r02-" not in Harness(srv, stranger).start().context


def test_a_merged_worktree_graph_labels_each_set_aside_version_by_the_graph_it_came_from(srv):
    import time

    main = srv.project("repos/r03")
    os.makedirs(f"{main}/src")
    with open(f"{main}/src/a.py", "w") as f:
        f.write("# a\n")
    git("init", "-q", main)
    git("add", "src/a.py", cwd=main)
    git("commit", "-q", "-m", "first", cwd=main)
    h = learn(srv, main, "r03-older-here", "The repository's older version.")
    h.mcp("kg_put_node", level="project", id="r03-newer-here", gist="The repository's newer version.")
    wt = f"{main}/.claude/worktrees/old-wt3"
    git("worktree", "add", "-q", wt, cwd=main)
    legacy = srv.store / "projects" / "old-wt3"
    legacy.mkdir(parents=True)
    now = time.time()
    (legacy / "graph.json").write_text(json.dumps(project_graph(os.path.realpath(wt), [
        node("r03-older-here", "The worktree's newer version.", _written={"ts": now + 60, "by": "abcd1234"}),
        node("r03-newer-here", "The worktree's older version.", _written={"ts": now - 86_400, "by": "abcd1234"}),
        node("r03-wt-touch", "A lesson of the worktree on a.py.", touches=[f"{os.path.realpath(wt)}/src/a.py:1"])])))
    assert "r03-wt-touch" in Harness(srv, wt).start().context
    theirs = f"projects/old-wt3 (the graph kept for linked worktree {os.path.realpath(wt)})"
    ours = "this repository's own graph"
    read = mcp_call(srv, "kg_read", {"cwd": main, "id": "r03-older-here"})
    assert "The worktree's newer version." in read and "two graph folders" in read and "kg-memory" not in read, read
    assert f"in {ours}" in read and theirs not in read, read  # the set-aside one is the repository's
    read = mcp_call(srv, "kg_read", {"cwd": main, "id": "r03-newer-here"})
    assert "The repository's newer version." in read and f"in {theirs}" in read and ours not in read, read
    read = mcp_call(srv, "kg_read", {"cwd": main, "id": "r03-wt-touch"})
    assert "src/a.py:1" in read and "old-wt3/src" not in read, read  # the repository's file, as a write's


def test_a_linked_worktree_of_a_submodule_shares_the_submodules_memory(srv):
    lib = srv.project("subs/libsrc")
    git("init", "-q", lib)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=lib)
    sup = srv.project("subs/super")
    git("init", "-q", sup)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=sup)
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub", cwd=sup)
    sub = f"{sup}/sub"
    learn(srv, sub, "sub-build-flags", "The submodule builds with -O2 only.")
    wt = str(srv.home / "subs" / "subwt")
    git("-C", sub, "worktree", "add", "-q", wt, "-b", "sw")
    text = mcp_call(srv, "kg_read", {"cwd": wt})
    real = os.path.realpath
    assert f"Project folder: {real(sub)}, the git repository whose linked worktree holds cwd {real(wt)}." in text, text
    assert "sub-build-flags" in text and ".git/modules" not in text, text
    h = Harness(srv, wt)
    assert "sub-build-flags" in h.start().context
    h.mcp("kg_put_node", level="project", id="sub-wt-lesson", gist="Learnt in the submodule's worktree.")
    assert "sub-wt-lesson" in Harness(srv, sub).start().context
    assert "modules" not in kg(["status"], srv.env).stdout


def test_a_session_bound_to_a_repository_is_told_it_stays_bound_when_cwd_is_a_repository_nested_in_it(srv):
    """Spec 003: a cwd outside the bound project is ignored, with a note. A repository nested in it, or a
    submodule, is a project of its own (README), though its folder is inside: the session's writes still go
    to the outer one, and it is told so. A plain folder of the repository draws no note."""
    lib = srv.project("nest/libsrc")
    git("init", "-q", lib)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=lib)
    app = srv.project("nest/app")
    git("init", "-q", app)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=app)
    inner = srv.project("nest/app/vendor/inner")
    git("init", "-q", inner)
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub", cwd=app)
    h = Harness(srv, app)
    assert h.start().context and h.kg_sid
    for cwd in (inner, f"{app}/sub", f"{inner}/"):
        text = mcp_call(srv, "kg_read", {"session_id": h.kg_sid, "cwd": cwd})
        assert f"This session stays bound to {app}; cwd {cwd} is ignored" in text, text
    assert "stays bound" not in mcp_call(srv, "kg_read", {"session_id": h.kg_sid, "cwd": srv.project("nest/app/src")})
    h.mcp("kg_put_node", level="project", id="outer-app-lesson", gist="Written by the session bound to the app.")
    assert "outer-app-lesson" in Harness(srv, app).start().context
    assert "outer-app-lesson" not in Harness(srv, inner).start().context


@pytest.mark.parametrize("opened_by", ["hook", "kg_read"])
def test_a_folder_made_a_linked_worktree_while_the_server_runs_binds_to_its_repository_at_its_next_session(
        srv, opened_by):
    main = srv.project(f"repos/r06-{opened_by}")
    git("init", "-q", main)
    git("commit", "-q", "--allow-empty", "-m", "first", cwd=main)
    learn(srv, main, "r06-deploy-rule", "r06 deploys on Tuesdays only.")
    wt = str(srv.home / "wt" / f"r06-reused-{opened_by}")
    git("worktree", "add", "-q", wt, "-b", "first-use", cwd=main)
    git("worktree", "remove", wt, cwd=main)
    os.makedirs(wt)  # a plain folder for a while: its session learns into a graph of its own
    plain = learn(srv, wt, "r06-plain-folder-note", "Learnt while the folder was a plain one.")
    assert "r06-deploy-rule" not in plain.start().context
    shutil.rmtree(wt)
    git("worktree", "prune", cwd=main)
    git("worktree", "add", "-q", wt, "-b", "second-use", cwd=main)  # the name reused, as Claude Code does
    # The next session there (a harness's SessionStart, or an agent's kg_read) is the repository's at once.
    if opened_by == "hook":
        text = Harness(srv, wt).start().context
    else:
        text = mcp_call(srv, "kg_read", {"cwd": wt})
        real = os.path.realpath
        assert f"Project folder: {real(main)}, the git repository whose linked worktree holds cwd {real(wt)}." \
            in text, text
    assert "r06-deploy-rule" in text and "r06-plain-folder-note" in text, text  # its own graph folded in
    assert "r06-plain-folder-note" in Harness(srv, main).start().context
    assert not (srv.store / "projects" / f"r06-reused-{opened_by}").exists()


def test_touches_naming_one_file_of_the_project_in_several_spellings_are_stored_as_one(srv):
    proj = srv.project("fr2")
    os.makedirs(f"{proj}/src")
    with open(f"{proj}/src/auth.py", "w") as f:
        f.write("# auth\n")
    (srv.home / "fr2link").symlink_to(proj)
    h = learn(srv, proj, "touch-forms-lesson", "Auth keeps its tokens in one module.")
    forms = ["./src/auth.py:3 (login)", "src/../src/auth.py", "src//auth.py", f"~/fr2/src/auth.py", f"{srv.home}/fr2link/src/auth.py",
             "../outside.py", f"{srv.home}/elsewhere/notes.md", "C:\\Users\\x\\fr2\\src\\auth.py", "src\\auth.py"]
    h.mcp("kg_put_node", level="project", id="touch-forms-lesson", touches=forms,
          gist="Auth keeps its tokens in one module.")
    text = mcp_call(srv, "kg_read", {"session_id": h.kg_sid, "ids": ["touch-forms-lesson"]})
    line = [ln for ln in text.splitlines() if "auth.py" in ln][0]
    kept = ["src/auth.py:3 (login)", "src/auth.py", "../outside.py", f"{srv.home}/elsewhere/notes.md",
            "C:\\Users\\x\\fr2\\src\\auth.py", "src\\auth.py"]
    for touch in kept:
        assert touch in line, line
    assert "./src" not in line and "src/../" not in line and "src//" not in line and "~/fr2" not in line and "fr2link" not in line, line
    assert line.count("src/auth.py") == 2, line  # the plain one and the one with a line: one touch each


def test_a_file_end_of_a_project_edge_written_three_ways_is_one_edge(srv):
    root = srv.project("edges/m")
    os.makedirs(f"{root}/src")
    open(f"{root}/src/y.py", "w").close()
    h = learn(srv, root, "y-parser", "y.py holds the parser.")
    for end in ("src/y.py", "./src/y.py", "src//y.py", f"{root}/src/y.py", f"{os.path.realpath(root)}/src/y.py"):
        reply = h.mcp("kg_put_edge", level="project", **{"from": end, "to": "y-parser", "rel": "documented-by"})
        assert reply.startswith("Edge src/y.py->y-parser:documented-by saved"), reply  # named as stored
    h.mcp("kg_put_edge", level="project", **{"from": "/etc/hosts", "to": "y-parser", "rel": "documented-by"})
    h.mcp("kg_put_node", level="user", id="y-user-habit", gist="Parsers get a fuzz test first.")
    h.mcp("kg_put_edge", level="user", **{"from": "./notes/x.md", "to": "y-user-habit", "rel": "documented-by"})
    assert "./notes/x.md --documented-by--> y-user-habit" in h.mcp("kg_read", id="y-user-habit")  # as written
    read = h.mcp("kg_read", id="y-parser")
    assert read.count("documented-by") == 2 and "src/y.py" in read and "/etc/hosts" in read, read
    assert "./src/y.py" not in read and f"{root}/src" not in read, read
    # Deleted by any of its spellings.
    gone = h.mcp("kg_delete_edge", **{"from": "./src/y.py", "to": "y-parser", "rel": "documented-by"})
    assert gone.startswith("Edge deleted: src/y.py->y-parser:documented-by"), gone  # named as it was stored
    assert "src/y.py" not in h.mcp("kg_read", id="y-parser")


def test_a_file_at_the_top_of_the_project_stays_a_file_end_of_an_edge(srv):
    """README.md alone would read as a node id (removed at the next load as naming no node): it keeps `./`."""
    root = srv.project("edges/top")
    open(f"{root}/README.md", "w").close()
    h = learn(srv, root, "top-readme-lesson", "The README says how to run it.")
    for end in ("./README.md", f"{root}/README.md"):
        reply = h.mcp("kg_put_edge", level="project", **{"from": "top-readme-lesson", "to": end, "rel": "cites"})
        assert "names no node" not in reply, reply
    read = h.mcp("kg_read", id="top-readme-lesson")
    assert read.count("--cites--> ./README.md") == 1, read


def test_a_project_folder_whose_name_ends_with_a_space_is_its_own_project(srv):
    plain, spaced, solo = srv.project("sp/app"), srv.project("sp/app "), srv.project("sp/solo ")
    assert spaced.endswith("app ") and os.path.isdir(spaced) and solo.endswith("solo ")
    learn(srv, plain, "app-private-rule", "Only the app without a space knows this.")
    run = Harness(srv, spaced).start()
    assert "app-private-rule" not in run.context and "both graphs" in run.context, run.context
    h = learn(srv, spaced, "spaced-app-rule", "The spaced folder's own lesson.")
    read = mcp_call(srv, "kg_read", {"session_id": h.kg_sid})
    assert "spaced-app-rule" in read and "app-private-rule" not in read, read
    assert "spaced-app-rule" not in Harness(srv, plain).start().context
    assert "app-private-rule" not in mcp_call(srv, "kg_read", {"cwd": spaced})
    # Alone (no `solo` beside it), it is a project too, never "does not exist".
    run = Harness(srv, solo).start()
    assert "does not exist" not in run.context and "both graphs" in run.context, run.context


def test_a_project_behind_a_symlink_in_a_folder_of_home_is_a_project_by_its_resolved_path(srv, tmp_path):
    # ~/linked/proj4link -> /data2/proj4: Claude Code started there sends the resolved path as its cwd.
    data = os.path.realpath(tmp_path / "data2" / "proj4")
    os.makedirs(f"{data}/src")
    git("init", "-q", data)
    (srv.home / "linked").mkdir()
    (srv.home / "linked" / "proj4link").symlink_to(data)
    run = Harness(srv, data).start()
    assert "outside your home" not in run.context and "both graphs" in run.context, run.context
    learn(srv, data, "proj4-lesson", "proj4 is reached through ~/linked.")
    assert "proj4-lesson" in Harness(srv, str(srv.home / "linked" / "proj4link")).start().context
    assert "proj4-lesson" in mcp_call(srv, "kg_read", {"cwd": data})
    assert (srv.store / "projects" / "proj4link").is_dir()  # named by its path in home, as the README says


def test_one_folder_reached_through_two_symlinks_in_home_has_one_memory(srv, tmp_path):
    data = os.path.realpath(tmp_path / "shared" / "code")
    os.makedirs(f"{data}/app2/src")
    git("init", "-q", f"{data}/app2")
    (srv.home / "two-a").symlink_to(data)
    (srv.home / "two-b").symlink_to(data)
    learn(srv, str(srv.home / "two-b" / "app2"), "lesson-via-two-b", "Learnt through ~/two-b.")
    for cwd in (srv.home / "two-a" / "app2", srv.home / "two-b" / "app2", f"{data}/app2"):
        run = Harness(srv, str(cwd)).start()
        assert "lesson-via-two-b" in run.context, (cwd, run.context)
    graphs = [p.name for p in (srv.store / "projects").iterdir() if p.name.startswith("app2")]
    assert graphs == ["app2"], graphs


def test_a_file_of_a_linked_project_named_by_its_resolved_path_is_stored_as_its_relative_path(srv, tmp_path):
    data = os.path.realpath(tmp_path / "tl")
    os.makedirs(f"{data}/app")
    with open(f"{data}/app/main.py", "w") as f:
        f.write("import logging\n")
    (srv.home / "tl").symlink_to(data)
    real = f"{data}/app"
    h = learn(srv, real, "app-main", "main.py sets up logging first.")  # the resolved cwd Claude Code sends
    reply = h.mcp("kg_put_node", level="project", id="app-main", gist="main.py sets up logging first.",
                  touches=[f"{real}/main.py", f"{srv.home}/tl/app/main.py", "~/tl/app/main.py", "main.py"])
    assert "repeated ones kept once" in reply, reply
    for end in (f"{real}/main.py", f"{srv.home}/tl/app/main.py"):
        reply = h.mcp("kg_put_edge", level="project", **{"from": "app-main", "to": end, "rel": "about"})
        assert reply.startswith("Edge app-main->./main.py:about saved"), reply
    read = h.mcp("kg_read", id="app-main")
    assert read.count("--about-->") == 1 and str(data) not in read, read
    touches = [ln for ln in read.splitlines() if ln.strip().startswith("touches:")]
    assert touches and touches[0].split("touches:")[1].strip() == "main.py", read
    # A read of it by its resolved path (what the harness sends) recalls the lesson.
    other = Harness(srv, real)
    other.start()
    other.read(f"{real}/main.py")
    rows = [r for r in recall_log(srv) if r.get("reason") == "file_recall" and r.get("claude_session") == other.sid]
    assert rows and "app-main" in (rows[-1].get("nodes") or []), rows


def test_a_session_inside_the_store_after_init_git_holds_user_memory_and_makes_no_project_of_it(server_factory):
    srv = server_factory(start=False)
    srv.store = srv.home / ".knowledge-graph"  # the default place, inside home
    srv.env["KG_HOME"] = str(srv.store)
    srv.start("--no-editor")
    learn(srv, srv.project("code/app"), "app-rule", "The app's own lesson.")
    done = kg(["init-git"], srv.env)
    assert done.returncode == 0 and (srv.store / ".git").exists(), done.stdout + done.stderr
    inside = str(srv.store / "projects" / "app")
    run = Harness(srv, inside).start()
    assert "app-rule" not in run.context and "user graph" in run.context, run.context
    assert run.context.startswith(f"kg memory: {inside} is inside kg's store"), run.context
    # kg_read given that folder says why its session is user-only, as the hook does (it said only "User-only
    # session ... kg_read(cwd='<project root>') attaches its memory", though that very cwd had been passed).
    read = mcp_call(srv, "kg_read", {"cwd": inside})
    assert "Project folder" not in read and f"kg memory: {inside} is inside kg's store" in read, read
    sid = read.split("Session: ")[1].split()[0]
    again = mcp_call(srv, "kg_read", {"session_id": sid, "cwd": inside + "/"})  # asked to attach it: no project
    assert "is inside kg's store" in again and "Project memory attached" not in again, again
    assert sorted(p.name for p in (srv.store / "projects").iterdir()) == ["app"]
    status = kg(["status"], srv.env).stdout
    assert "knowledge-graph" not in status.replace(str(srv.store), ""), status


def test_a_graph_an_earlier_kg_kept_for_a_folder_under_its_second_links_name_is_merged_into_its_own(srv, tmp_path):
    data = os.path.realpath(tmp_path / "split" / "code")
    os.makedirs(f"{data}/app3/src")
    git("init", "-q", f"{data}/app3")
    (srv.home / "sp-code").symlink_to(data)
    (srv.home / "sp-work").symlink_to(data)
    learn(srv, str(srv.home / "sp-code" / "app3"), "lesson-via-sp-code", "Learnt through ~/sp-code.")
    # What an earlier kg made of a session in ~/sp-work/app3: a graph of its own, named by that path.
    second = str(srv.home / "sp-work" / "app3")
    split = srv.store / "projects" / L.hashed_slug(second)
    split.mkdir(parents=True)
    (split / "graph.json").write_text(json.dumps(project_graph(second, [node("lesson-via-sp-work", "Learnt through ~/sp-work.")])))
    srv.stop()
    srv.start("--no-editor")
    for cwd in (second, f"{data}/app3"):
        run = Harness(srv, cwd).start()
        assert "lesson-via-sp-code" in run.context and "lesson-via-sp-work" in run.context, run.context
    assert not split.exists() and any(p.name.startswith(split.name) for p in (srv.store / "trash").iterdir())
