"""Touches checked against the code: a node read marks a gone file, and says where it went when the server knows."""

import re
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp import Client

from kg_actors.core import touch_marks as T
from kg_actors.testing import session_of


def test_git_renames_followed_newest_first_within_three_hops():
    log = "R100\tsrc/b.py\tsrc/c.py\n\nR090\tsrc/a.py\tsrc/b.py\nM\tREADME.md\nR100\tsrc/a.py\told/a.py\n"
    moves = T.renames(log)
    assert moves == {"src/b.py": "src/c.py", "src/a.py": "src/b.py"}  # the newest rename of a.py wins
    assert T.follow("src/a.py", moves) == "src/c.py"
    assert T.follow("src/z.py", moves) is None
    assert T.follow("x", {"x": "y", "y": "x"}) == "y"  # a cycle stops


def test_same_named_only_when_unique_and_the_mark():
    assert T.same_named("cfg.py", ["a/cfg.py", "b/other.py"]) == "a/cfg.py"
    assert T.same_named("cfg.py", ["a/cfg.py", "b/cfg.py"]) is None
    assert T.mark("src/a.py:10 (x)", True, "src/c.py") == "src/a.py:10 (x) (gone; now at src/c.py)"
    assert T.mark("src/a.py", True, None) == "src/a.py (gone)"
    assert T.mark("src/a.py", False, None) == "src/a.py"


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(root)})


async def _read(srv, project):
    async with Client(srv.url + "/") as c:
        got = await c.call_tool("kg_read", {"cwd": project})
        sid = session_of(got.content[0].text)
        await c.call_tool("kg_put_node", {
            "session_id": sid, "level": "project", "id": "billing-retry-rule",
            "gist": "Retries back off exponentially.",
            "touches": ["src/billing.py:10-20 (retry)", "docs/gone.md", "lib/settings.toml", "src/here.py"]})
        got = await c.call_tool("kg_read", {"session_id": sid, "ids": ["billing-retry-rule"]})
        return got.content[0].text


def test_a_node_read_marks_gone_touches_and_where_they_went(server_factory):
    srv = server_factory(start=False)
    project = Path(srv.project("app"))
    (project / "src").mkdir()
    (project / "src" / "billing.py").write_text("def retry(): pass\n" * 20)
    (project / "src" / "here.py").write_text("x = 1\n")
    (project / "config").mkdir()
    (project / "config" / "settings.toml").write_text("a = 1\n")  # the one file of that name
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "start")
    (project / "payments").mkdir()
    _git(project, "mv", "src/billing.py", "payments/billing.py")
    _git(project, "commit", "-qm", "move")
    srv.start("--no-editor")
    text = anyio.run(_read, srv, str(project))
    touches = re.search(r"touches: (.*)", text).group(1).split(" · ")
    assert touches == ["src/billing.py:10-20 (retry) (gone; now at payments/billing.py)", "docs/gone.md (gone)",
                       "lib/settings.toml (gone; now at config/settings.toml)", "src/here.py"]


def test_where_gone_feeds_an_anchor_chore(tmp_path):
    from kg_actors.core.chore_pick import chore_prompt, pick_chore
    from kg_actors.core.model import Edge, GraphData, Node
    from kg_actors.touch_check import where_gone

    root = tmp_path / "app"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "settings.toml").write_text("a = 1\n")
    found = where_gone(["lib/settings.toml", "docs/gone.md", "pkg/settings.toml"], str(root))
    assert found == {"lib/settings.toml": "pkg/settings.toml"}
    g = GraphData("project", str(root))
    g.set_node(Node("config-loading", "Settings load once at start.", touches=("lib/settings.toml",)))
    g.set_node(Node("config-reload", "Reload needs a restart."))
    g.set_edge(Edge("config-loading", "config-reload", "explains"))
    g.commit()
    chore = pick_chore(g, {"lib/settings.toml"}, 1.8e9, anchors={"config-loading": ("lib/settings.toml",
                                                                                      "pkg/settings.toml")})
    assert chore.kind == "anchor" and chore.targets == ("config-loading",)
    assert "config-loading: lib/settings.toml -> pkg/settings.toml" in chore_prompt(chore, str(root), "DEBT: LOW")


async def test_a_touch_checked_this_tick_is_answered_without_a_worker_thread(tmp_path, monkeypatch):
    """A node read asks the file system once per touch and tick: later reads of it take the tick's answers
    on the loop (a worker thread's round trip per node read was a third of a read of five ids)."""
    from kg_actors import touch_check
    from kg_actors.core.model import Node

    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "here.py").write_text("")
    (root / "pkg").mkdir()
    (root / "pkg" / "settings.toml").write_text("a = 1\n")
    node = Node("config-loading", "Settings load once.", touches=("src/here.py", "lib/settings.toml"))
    check = touch_check.TouchCheck(home=str(tmp_path))
    threads: list[object] = []
    real = touch_check.trio.to_thread.run_sync

    async def counted(fn, *args, **kw):  # type: ignore[no-untyped-def]
        threads.append(fn)
        return await real(fn, *args, **kw)

    monkeypatch.setattr(touch_check.trio.to_thread, "run_sync", counted)
    first = await check.marked(node, str(root))
    again = await check.marked(node, str(root))
    assert first == again and first.touches == ("src/here.py", "lib/settings.toml (gone; now at pkg/settings.toml)")
    assert len(threads) == 1
    (root / "src" / "here.py").unlink()  # seen at the next tick, not before
    assert (await check.marked(node, str(root))).touches[0] == "src/here.py"
    check.new_tick()
    assert (await check.marked(node, str(root))).touches[0] == "src/here.py (gone)"
    assert len(threads) == 2


@pytest.mark.parametrize("shown,written", [
    ("src/a.py (gone)", "src/a.py"),
    ("src/a.py:10-20 (entry) (gone)", "src/a.py:10-20 (entry)"),
    ("lib/util.py (gone; now at src/util.py)", "lib/util.py"),
    ("docs/a (draft).md (gone; now at docs/b (final).md)", "docs/a (draft).md"),
    ("src/a.py (gone) (gone)", "src/a.py"),  # copied back twice
    ("src/a.py (gone-ish)", "src/a.py (gone-ish)"),  # an anchor of its own
    ("(gone)", "(gone)"),  # no touch before it: nothing to cut down to
])
def test_a_touch_copied_back_from_a_read_loses_the_marks_the_read_added(shown, written):
    assert T.unmarked(shown) == written
    assert T.unmarked(T.mark(written, True, None)) == written
    assert T.cut_marks([shown, 3]) == ([written, 3], ("touches[0]",) if shown != written else ())
