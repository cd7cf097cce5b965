"""`kg sync` with a node deleted on one machine: what the other machine did to it decides.

Two machines (two stores, two real servers) and a bare remote, as in test_git_sync.py. A delete wins
against what leaves the node's content as it was (an edge to or from it: the edge goes with the node);
against a rewrite or a rename the changed node is kept, and the user is told on both machines: the
sync's output, the next read's notice, the editor's list of conflicts.
"""

from __future__ import annotations

import shutil

from e2e_helpers import Session, get_json, graph, nodes_by_id
from git_helpers import bare_repo, git_env
from mcp import Client
from test_git_sync import _machine, _sync, _sync_in_turn, _two_machines, _user


async def test_a_delete_wins_against_an_edge_written_to_or_from_the_node_on_the_other_machine(tmp_path):
    # The edge brought the deleted node back on the deleting machine, said only as "1 node(s) added". Then the
    # edges went with the node, said only as "2 edge(s) removed": which ones, why, and their notes were lost.
    remote, a, b = _two_machines(tmp_path, _user("deleted-linked-to", "deleted-linked-from", "linking-node"))
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            for node_id in ("deleted-linked-to", "deleted-linked-from"):
                await sa.ok("kg_read", id=node_id)
                await sa.ok("kg_delete_node", id=node_id)
            await sb.ok("kg_put_edge", level="user", frm="linking-node", to="deleted-linked-to", rel="relates-to")
            await sb.ok("kg_put_edge", level="user", frm="deleted-linked-from", to="linking-node", rel="depends-on",
                        notes=["written on b"])
            assert _sync(a, remote).returncode == 0
            out_b = _sync(b, remote)
            out_a = _sync(a, remote)
            assert out_b.returncode == 0 and out_a.returncode == 0, out_b.stderr + out_a.stderr
            assert "added" not in out_a.stdout and "deleted on one machine" not in out_b.stdout + out_a.stdout
            [line] = [ln for ln in out_b.stdout.splitlines() if "edge(s) dropped" in ln]
            assert "linking-node->deleted-linked-to:relates-to" in line, out_b.stdout
            assert "deleted-linked-from->linking-node:depends-on" in line and "deleted on" in line, out_b.stdout
            for srv in (a, b):
                g = graph(srv)["user"]
                assert {"deleted-linked-to", "deleted-linked-from"}.isdisjoint(nodes_by_id(g)), srv.env["KG_MACHINE"]
                assert "linking-node" in nodes_by_id(g)
                assert not any("deleted-linked" in e["from"] + e["to"] for e in g["edges"]), g["edges"]
                [row] = get_json(srv, "/api/store/conflicts")["conflicts"]
                assert row["id"] == "linking-node", row
                aside = {o["dropped_edge"]: o for o in row["others"]}
                assert set(aside) == {"linking-node->deleted-linked-to:relates-to",
                                      "deleted-linked-from->linking-node:depends-on"}, row
                assert aside["deleted-linked-from->linking-node:depends-on"]["notes"] == ["written on b"], row
            for s in (sa, sb):
                text = await s.ok("kg_read", id="linking-node")
                assert "EDGE DROPPED" in text and "deleted-linked-from->linking-node:depends-on" in text, text
                assert "written on b" in text and "kg_put_edge" in text, text
            # Any write of the node clears the notice, as for other versions set aside.
            await sb.ok("kg_put_node", level="user", id="linking-node", gist="linking node, seen the notice")
            _sync_in_turn(remote, b, a)
            for srv in (a, b):
                assert get_json(srv, "/api/store/conflicts")["conflicts"] == []
    finally:
        a.stop()
        b.stop()


async def test_a_node_deleted_on_one_machine_and_rewritten_on_the_other_is_kept_and_both_are_told(tmp_path):
    remote, a, b = _two_machines(tmp_path, _user("deleted-then-rewritten", "deleted-then-renamed"))
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            for node_id in ("deleted-then-rewritten", "deleted-then-renamed"):
                await sa.ok("kg_read", id=node_id)
                await sa.ok("kg_delete_node", id=node_id)
                await sb.ok("kg_read", id=node_id)
            await sb.ok("kg_put_node", level="user", id="deleted-then-rewritten", gist="rewritten on machine b")
            await sb.ok("kg_rename_node", old_id="deleted-then-renamed", new_id="renamed-on-machine-b")
            assert _sync(a, remote).returncode == 0
            out_b = _sync(b, remote)
            out_a = _sync(a, remote)
            assert out_b.returncode == 0 and out_a.returncode == 0, out_b.stderr + out_a.stderr
            for out in (out_a, out_b):
                [line] = [ln for ln in out.stdout.splitlines() if "deleted on one machine" in ln]
                assert "deleted-then-rewritten" in line and "renamed-on-machine-b" in line, out.stdout
                assert "changed on both machines" not in out.stdout, out.stdout
            for srv in (a, b):
                nodes = nodes_by_id(graph(srv)["user"])
                assert nodes["deleted-then-rewritten"]["gist"] == "rewritten on machine b", srv.env["KG_MACHINE"]
                assert "renamed-on-machine-b" in nodes and "deleted-then-renamed" not in nodes
                listed = get_json(srv, "/api/store/conflicts")["conflicts"]
                assert sorted(c["id"] for c in listed) == ["deleted-then-rewritten", "renamed-on-machine-b"]
                assert all(c["others"][0]["deleted_on"] == "machine-a" for c in listed), listed
            for s in (sa, sb):
                text = await s.ok("kg_read", ids=["deleted-then-rewritten", "renamed-on-machine-b"])
                assert "rewritten on machine b" in text
                assert "DELETED ON ONE MACHINE, CHANGED ON ANOTHER: 'deleted-then-rewritten'" in text, text
                assert "deleted on machine-a" in text and "kept because machine-b changed it" in text, text
                assert "deleted there as 'deleted-then-renamed'" in text, text
                assert "kg_delete_node" in text and "CHANGED ON ANOTHER MACHINE" not in text, text
            # Deleted again, knowing: it stays deleted on both machines.
            await sa.ok("kg_delete_node", id="deleted-then-rewritten")
            # Kept by a write: the notice goes.
            await sb.ok("kg_put_node", level="user", id="renamed-on-machine-b", gist="kept on purpose")
            _sync_in_turn(remote, a, b, a)
            text = await sb.ok("kg_read", id="renamed-on-machine-b")
            assert "DELETED ON ONE MACHINE" not in text
        for srv in (a, b):
            nodes = nodes_by_id(graph(srv)["user"])
            assert "deleted-then-rewritten" not in nodes and nodes["renamed-on-machine-b"]["gist"] == "kept on purpose"
            assert get_json(srv, "/api/store/conflicts")["conflicts"] == []
    finally:
        a.stop()
        b.stop()


async def test_a_rewrite_that_arrives_by_sync_is_pushed_as_updated_to_a_session_that_had_read_the_node(tmp_path):
    # It was pushed as "(new)": the sync took the session's view of the node away, and with it that it had one.
    remote, a, b = _two_machines(tmp_path)
    try:
        async with Client(b.url + "/") as cb:
            writer = await Session.open(cb, cwd=b.project("proj"))
            await writer.ok("kg_put_node", level="project", id="synced-build-steps", gist="written on b")
            reader = await Session.open(cb, cwd=b.project("proj"))
            assert "written on b" in await reader.ok("kg_read", id="synced-build-steps")
            assert _sync(b, remote).returncode == 0
            shutil.rmtree(b.project("proj"))  # both machines are this one here: b's folder is not on "a"
            assert _sync(a, remote).returncode == 0
            async with Client(a.url + "/") as ca:
                sa = await Session.open(ca, cwd=a.project("proj"))
                await sa.ok("kg_read", id="synced-build-steps")
                await sa.ok("kg_put_node", level="project", id="synced-build-steps", gist="rewritten on machine a")
            assert _sync(a, remote).returncode == 0
            shutil.rmtree(a.project("proj"))
            b.project("proj")
            assert _sync(b, remote).returncode == 0
            reply = await reader.ok("kg_put_node", level="project", id="reader-own-lesson", gist="written by the reader")
        assert "- synced-build-steps (updated): rewritten on machine a" in reply, reply
    finally:
        a.stop()
        b.stop()


async def test_an_edge_dropped_with_a_node_deleted_here_says_this_machine_and_writing_it_again_clears_it(tmp_path):
    # On the machine that deleted the node (two machines named vm) the sync said "deleted on the other machine ...
    # deleted on vm [its own id]" and the read "went with a node deleted on another machine ... deleted on this
    # machine"; and re-creating the node and the edge, as the notice says, left the notice standing.
    remote = bare_repo(tmp_path / "remote.git", git_env(tmp_path, "x"))
    a, b = (_machine(tmp_path, name, _user("gone-node", "linking-node") if name == "machine-a" else None)
            for name in ("machine-a", "machine-b"))
    for srv in (a, b):
        srv.env["KG_MACHINE"] = "vm"
        srv.start()
    edge = "linking-node->gone-node:relates-to"
    try:
        _sync_in_turn(remote, a, b)
        async with Client(a.url + "/") as ca, Client(b.url + "/") as cb:
            sa, sb = await Session.open(ca), await Session.open(cb)
            await sa.ok("kg_read", id="gone-node")
            await sa.ok("kg_delete_node", id="gone-node")
            await sb.ok("kg_put_edge", level="user", frm="linking-node", to="gone-node", rel="relates-to",
                        notes=["written on b"])
            _sync_in_turn(remote, b)
            out_a = _sync(a, remote)
            assert out_a.returncode == 0, out_a.stderr
            [line] = [ln for ln in out_a.stdout.splitlines() if "edge(s) dropped" in ln]
            assert "deleted on this machine" in line and "other machine" not in line, line
            assert f"{edge} (gone-node deleted on this machine)" in line, line
            text = await sa.ok("kg_read", id="linking-node")
            assert "EDGE DROPPED" in text and "another machine" not in text, text
            assert "went with a node deleted on this machine" in text, text
            assert [r["id"] for r in get_json(a, "/api/store/conflicts")["conflicts"]] == ["linking-node"]
            # As the notice says: the node and the edge written again. Its notice is done, on both machines.
            await sa.ok("kg_put_node", level="user", id="gone-node", gist="written again")
            await sa.ok("kg_put_edge", level="user", frm="linking-node", to="gone-node", rel="relates-to",
                        notes=["written on b"])
            assert get_json(a, "/api/store/conflicts")["conflicts"] == []
            assert "EDGE DROPPED" not in await sa.ok("kg_read", id="linking-node")
            _sync_in_turn(remote, a, b)
            assert get_json(b, "/api/store/conflicts")["conflicts"] == []
    finally:
        a.stop()
        b.stop()
