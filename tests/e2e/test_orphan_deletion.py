"""Orphans deleted for good, as a user meets it: a grace of 0 days is refused at start, and every deletion is
written in the server's log (which graph, how many, which ids, the grace used)."""

from __future__ import annotations

import os
import time

from e2e_helpers import graph, kg, nodes_by_id, reference_graph, wait_until

from kg_actors.core.constants import DAY_SECONDS
from kg_actors.testing import free_port, write_store

RULE = "is not a grace period: a whole number of days, at least 1"


def test_a_grace_of_zero_days_is_refused_at_start_naming_the_variable_and_the_rule(tmp_path):
    """0 read as "keep forever" was taken, and the next tick deleted every orphan of every graph."""
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()))
    for raw in ("0", "-1", "0.5"):
        try:
            out = kg(["start"], dict(env, KG_ORPHAN_GRACE_DAYS=raw))
        finally:
            kg(["stop"], env)  # a server the refusal missed must not outlive the test
        assert out.returncode == 2, out
        assert f"kg: KG_ORPHAN_GRACE_DAYS={raw!r} {RULE}" in out.stderr, out.stderr
    assert not (tmp_path / "store" / "server.pid").exists()


def test_orphans_past_their_grace_are_deleted_and_the_log_says_which(server_factory):
    now = time.time()
    nodes = [{"id": "kept-lesson", "gist": "an active lesson stays"},
             {"id": "recent-orphan", "gist": "orphaned yesterday", "_archived": True,
              "_orphaned_ts": now - DAY_SECONDS}]
    nodes += [{"id": f"old-orphan-{k}", "gist": f"orphaned long ago {k}", "_archived": True,
               "_orphaned_ts": now - 40 * DAY_SECONDS} for k in range(7)]
    srv = server_factory(start=False, extra_env={"KG_ORPHAN_GRACE_DAYS": "30", "KG_SAVE_INTERVAL": "0.2"})
    write_store(srv.store, reference_graph(nodes))
    srv.start("--no-editor")
    line = wait_until(lambda: next((s for s in srv.log.read_text().splitlines() if "orphaned node" in s), None),
                      what="the log line of the deletion")
    assert ("user: deleted 7 orphaned nodes for good (not read back within KG_ORPHAN_GRACE_DAYS=30 days): "
            "old-orphan-0, old-orphan-1, old-orphan-2, old-orphan-3, old-orphan-4 and 2 more") in line, line
    assert set(nodes_by_id(graph(srv)["user"])) == {"kept-lesson", "recent-orphan"}
