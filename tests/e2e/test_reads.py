"""Reading memory end to end: kg_read (full and node reads), paging, kg_search, over MCP.

One real `kg serve` for the module, on a store written before it starts. Each
test reads its own project graph, and the user graph is never written, so no
test sees another's changes. Project graphs that a test changes by reading
(promotion, chain rescue, paging) carry ballast that keeps them between the
fill ceiling and the budget, so the compaction that follows a promotion
neither refills nor archives anything the test looks at.
"""

from __future__ import annotations

import re
import time
from contextlib import asynccontextmanager

import pytest
from e2e_helpers import reference_graph, Session, call, get_json, graph, nodes_by_id, start_server
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from kg_actors.core import compaction, render
from kg_actors.core.constants import COMPACTION_TARGET_RATIO, MAX_CHARS_PER_LEVEL
from kg_actors.core.model import GraphData
from kg_actors.core.paging import NOTHING_PENDING
from kg_actors.core.reads import ANNOUNCE
from kg_actors.harness.profiles import utf8_bytes, utf16_units
from kg_actors.core.replies import user_only_notice

NOW = time.time()
OLD = NOW - 30 * 86_400
CLAUDE_PART = 45_000
CODEX_PART = 36_000
FOOTER = re.compile(r"\n\n\[KG reply part (\d+) of (\d+) — it continues\. Call kg_read\(session_id='([0-9a-f]+)', "
                    r"more=true\) for part (\d+); the reply is complete only after part (\d+)\.\]$")


def _node(node_id: str, gist: str, created: float = OLD, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": created, **extra}



def _charge(raw: dict, kind: str = "project") -> int:
    return render.charge(GraphData.from_json(raw, kind))


# Between the fill ceiling and the budget, with room for what a test promotes.
BALLAST_LOW, BALLAST_HIGH = 18_400, 19_400


def _with_ballast(raw: dict, prefix: str) -> dict:
    assert BALLAST_LOW > COMPACTION_TARGET_RATIO * MAX_CHARS_PER_LEVEL and BALLAST_HIGH < MAX_CHARS_PER_LEVEL
    k = 0
    while _charge(raw) < BALLAST_LOW:
        node_id = f"{prefix}-ballast-{k:03d}"
        raw["nodes"][node_id] = _node(node_id, " ".join(f"{prefix[:2]}{k}q{j}" for j in range(60)),
                                      created=NOW - 3 * 86_400, _useful_ts=[NOW - 86_400 + i for i in range(3)],
                                      _last_read_ts=NOW - 3600)
        if k:
            prev = f"{prefix}-ballast-{k - 1:03d}"
            raw["edges"][f"{node_id}->{prev}:relates-to"] = {"from": node_id, "to": prev, "rel": "relates-to"}
        k += 1
    g = GraphData.from_json(raw, "project")
    assert BALLAST_LOW <= render.charge(g) <= BALLAST_HIGH
    assert not compaction.compact(g, NOW).acted, f"{prefix}: the seeded graph must be stable under compaction"
    return raw


# -- the store ---------------------------------------------------------------------------------

USER_NODES = [
    _node("u-hub-principle", "user hub principle"),
    _node("u-leaf-one", "first leaf of the user hub"),
    _node("u-leaf-two", "second leaf of the user hub"),
    _node("u-solo-pref", "a preference with no edge"),
]
USER_EDGES = [("u-leaf-one", "u-hub-principle", "refines"), ("u-hub-principle", "u-leaf-two", "supports")]

ORDER_NODES = [
    _node("p-solo", "a lone project fact"),
    _node("p-pair-two", "second of a pair"),
    _node("p-pair-one", "first of a pair"),
    _node("p-z", "zed part"),
    _node("p-y", "why part"),
    _node("p-x", "ex part"),
    _node("p-hub", "hub of the order project"),
    _node("p-arch-b", "archived b", _archived=True),
    _node("p-arch-a", "archived a", _archived=True),
]
ORDER_EDGES = [
    ("p-hub", "p-x", "has-part"), ("p-y", "p-hub", "depends-on"), ("p-hub", "p-z", "has-part"),
    ("p-arch-b", "p-hub", "informs"), ("p-arch-a", "p-arch-b", "relates-to"),
    ("p-x", "u-hub-principle", "applies"), ("p-pair-one", "p-pair-two", "pairs-with"),
    ("p-arch-a", "src/legacy.py", "documents"),
]
ORDER_PROJECT_BODY = """\
=== PROJECT GRAPH — 7 active, 2 archived ===
ACTIVE:
  p-hub: hub of the order project
    → has-part → p-x
    → has-part → p-z
    ← depends-on ← p-y
    ← informs ← p-arch-b
  p-x: ex part
    → applies → u-hub-principle
  p-y: why part
  p-z: zed part
  p-pair-one: first of a pair
    → pairs-with → p-pair-two
  p-pair-two: second of a pair
  p-solo: a lone project fact
ARCHIVED (use kg_read with id to view full content):
  p-arch-a
  p-arch-b
HEALTH: 7 nodes, 6 edges, 1 with no edge shown (14%), avg 1.4 edges/node
DEBT: """


LONG_NOTE = "paging note " + "é" * 40 + " 𝄞 " + "n" * 1_100  # multi-byte and non-BMP characters
PAGE_IDS = [f"page-node-{i:02d}" for i in range(60)]


def _page_project(path: str) -> dict:
    nodes = [
        _node(node_id, f"page lesson {node_id} " + "g" * 250, notes=[f"{node_id} unique{i}zq " + LONG_NOTE],
              touches=[f"src/page_{i}.py"])
        for i, node_id in enumerate(PAGE_IDS)
    ]
    nodes.append(_node("page-archived-tail", "an archived node read at the end of a batch", _archived=True))
    raw = reference_graph(nodes, [(PAGE_IDS[i], PAGE_IDS[i + 1], "next") for i in range(len(PAGE_IDS) - 1)], path)
    assert BALLAST_LOW <= _charge(raw) <= BALLAST_HIGH, _charge(raw)
    # Writes compact without rebalancing (the tick rebalances; it does not run in this module).
    assert not compaction.compact(GraphData.from_json(raw, "project"), NOW, rebalance=False).acted
    return raw


def _node_project(path: str) -> dict:
    nodes = [
        _node("n-alpha", "alpha lesson", notes=["first alpha note", "second alpha note"],
              touches=["src/alpha.py:10-20 (entry)", "docs/alpha.md"]),
        _node("n-beta", "beta lesson"),
        _node("n-arch-peer", "archived peer of alpha", _archived=True),
        _node("n-orph-peer", "orphaned peer of alpha", _archived=True, _orphaned_ts=NOW - 86_400),
        _node("n-arch-hub", "archived hub with orphaned satellites", _archived=True),
        _node("n-orph-sat-one", "orphaned satellite one", _archived=True, _orphaned_ts=NOW - 86_400),
        _node("n-orph-sat-two", "orphaned satellite two", _archived=True, _orphaned_ts=NOW - 86_400),
        _node("n-orph-far", "orphaned, two hops from the hub", _archived=True, _orphaned_ts=NOW - 86_400),
        _node("n-orph-direct", "an orphan read directly", _archived=True, _orphaned_ts=NOW - 86_400),
        _node("n-arch-maint", "archived, read by a maintenance session", _archived=True),
        _node("n-orph-maint", "orphaned, read by a maintenance session", _archived=True, _orphaned_ts=NOW - 86_400),
    ]
    edges = [
        ("n-alpha", "n-beta", "calls"), ("n-beta", "n-alpha", "configures"),
        ("n-alpha", "src/alpha.py", "implemented-in"), ("n-alpha", "u-hub-principle", "applies"),
        ("n-arch-peer", "n-alpha", "informs"), ("n-alpha", "n-orph-peer", "superseded"),
        ("n-orph-sat-one", "n-arch-hub", "instance-of"), ("n-arch-hub", "n-orph-sat-two", "has-part"),
        ("n-orph-far", "n-orph-sat-one", "relates-to"),
        ("n-orph-maint", "n-arch-maint", "relates-to"),
    ]
    return _with_ballast(reference_graph(nodes, edges, path), "node")


SEARCH_NODES = [
    _node("restore-backup-procedure", "how to restore backups from the archive tapes"),
    _node("session-store-layout", "the session store keeps one file per session"),
    _node("cron-scheduling-rules", "scheduling of nightly cron jobs happens in UTC"),
    _node("nebula-archived-lesson", "nebula lesson that sits in the archive", _archived=True),
    _node("nebula-orphaned-lesson", "nebula lesson nobody reads any more", _archived=True,
          _orphaned_ts=NOW - 86_400),
    _node("zephyr-relay-config", "zephyr relays forward events", notes=["zephyr note kept for unseen readers"]),
    _node("quasar-cache-tuning", "quasar cache sizes are tuned per host"),
    _node("middle-bridge-node", "the bridge both hits pass through"),
    *(_node(f"gadget-case-{i:02d}", f"gadget case number {i}" + " and more gadget" * (12 - i)) for i in range(12)),
    *(_node(f"colossal-note-{i}", f"colossal lesson {i}", notes=[f"colossal note {i}.{k} " + "c" * 1_500
                                                                 for k in range(4)]) for i in range(6)),
]
SEARCH_EDGES = [("zephyr-relay-config", "middle-bridge-node", "feeds"),
                ("middle-bridge-node", "quasar-cache-tuning", "feeds")]


# 80 gists of ~600 bytes: ~50,000 bytes, two parts of 36,000 (three, with `ACTIVE:` moved whole, at this length)
CJK_NODES = [_node(f"cjk-lesson-{i:02d}", f"教訓{i} " + "漢字" * 98) for i in range(80)]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("reads")
    home = base / "home"
    paths = {name: str(home / name) for name in (
        "order-proj", "node-proj", "page-proj", "search-proj", "cjk-proj")}
    for p in paths.values():
        (home / p.rsplit("/", 1)[1]).mkdir(parents=True, exist_ok=True)
    projects = {
        "order-proj": reference_graph(ORDER_NODES, ORDER_EDGES, paths["order-proj"]),
        "node-proj": _node_project(paths["node-proj"]),
        "page-proj": _page_project(paths["page-proj"]),
        "search-proj": reference_graph(SEARCH_NODES, SEARCH_EDGES, paths["search-proj"]),
        "cjk-proj": reference_graph(CJK_NODES, [], paths["cjk-proj"]),
    }
    server = start_server(base, reference_graph(USER_NODES, USER_EDGES), projects)
    server.paths = paths
    yield server
    server.kill()




@asynccontextmanager
async def codex_client(srv):
    async with create_mcp_http_client(headers={"User-Agent": "codex_cli_rs/0.50"}) as http:
        async with Client(streamable_http_client(srv.url + "/", http_client=http)) as c:
            yield c


async def _unread_session(client: Client, cwd: str) -> Session:
    """A session opened by a node read: it has seen nothing yet (a full read shows every active gist)."""
    s = await Session.open(client, cwd, id="no-such-node-here")
    assert s.first_text.startswith("▸ no-such-node-here: NOT FOUND")
    return s


def _project(srv, sid: str) -> dict[str, dict]:
    return nodes_by_id(graph(srv, session_id=sid)["project"])


async def _all_parts(s: Session, first: str) -> list[str]:
    """`first` and every part after it, through more=true; checks each footer on the way."""
    parts = [first]
    while (m := FOOTER.search(parts[-1])) is not None:
        i, n, sid, nxt, last = int(m[1]), int(m[2]), m[3], int(m[4]), int(m[5])
        assert (sid, nxt, last) == (s.sid, i + 1, n)
        assert i == len(parts)
        parts.append(await s.ok("kg_read", more=True))
    return parts


def _body(part: str) -> str:
    return FOOTER.sub("", part)


# -- full read ---------------------------------------------------------------------------------

async def test_full_read_renders_user_then_project_in_cluster_order(srv, client):
    s = await Session.open(client, srv.paths["order-proj"])
    text = s.first_text
    assert FOOTER.search(text) is None
    user_at, project_at = text.index("=== USER GRAPH — 4 active, 0 archived ==="), text.index("=== PROJECT GRAPH")
    assert user_at < project_at
    user = text[user_at:project_at]
    assert user.splitlines()[1:5] == ["ACTIVE:", "  u-hub-principle: user hub principle",
                                      "    → supports → u-leaf-two", "    ← refines ← u-leaf-one"]
    assert "HEALTH: 4 nodes, 2 edges, 1 with no edge shown (25%), avg 1.0 edges/node" in user
    assert re.search(r"^DEBT: (LOW|MED|HIGH) \(\d\.\d\d\) — ", user, re.M)
    # The project level exactly: hub first, its neighbours by degree, each edge cited once under the
    # endpoint rendered first, the archived-archived edge hidden, an archived node's edge to a file hidden
    # until it is promoted (as kg-memory shows it), anchors alphabetical.
    project = text[project_at:]
    assert project.startswith(ORDER_PROJECT_BODY), project
    debt = project[len(ORDER_PROJECT_BODY) - len("DEBT: "):].splitlines()[0]
    assert "1 unconnected" in debt and "never maintained" in debt
    assert "relates-to" not in text
    assert text.count("HEALTH: ") == 2 and text.count("\nDEBT: ") == 2
    assert text.rstrip().endswith(f"Session: {s.sid}\n{ANNOUNCE}")
    assert "(preloaded)" not in text and "User-only session" not in text
    # The announcement belongs to the first full read only.
    again = await s.ok("kg_read")
    assert ANNOUNCE not in again
    assert again.rstrip().endswith(f"Session: {s.sid}")
    assert again[again.index("=== PROJECT GRAPH"):].startswith(ORDER_PROJECT_BODY)


async def test_preloaded_gists_render_as_anchors_after_session_start(srv, client):
    boot = get_json(srv, "/api/session_bootstrap", project_path=srv.paths["order-proj"],
                    claude_session_id="claude-preload-1")
    sid = boot["session_id"]
    assert f"session_id: {sid}" in boot["context"]
    shown = re.findall(r"^  ([\w.-]+): ", boot["context"], re.M)
    assert {"p-hub", "p-x", "u-hub-principle"} <= set(shown)
    text, err = await call(client, "kg_read", {"session_id": sid})
    assert not err, text
    assert text.startswith(f"{len(shown)} gist(s) already shown by the session-start preload render as id-only "
                           "'(preloaded)' anchors below — kg_read(session_id, ids=[...]) re-reads any in full.\n\n")
    for node_id in shown:
        assert f"\n  {node_id} (preloaded)\n" in text
        assert f"\n  {node_id}: " not in text
    # Their edges are still cited, once, and the announcement still comes with this first full read.
    assert "    → has-part → p-x" in text and text.count("→ has-part → p-x") == 1
    assert ANNOUNCE in text


async def test_user_only_session_says_so_and_can_attach_a_project(srv, client):
    s = await Session.open(client)
    text = s.first_text
    assert "=== USER GRAPH" in text and "=== PROJECT GRAPH" not in text
    assert text.count("HEALTH: ") == 1 and text.count("\nDEBT: ") == 1
    assert user_only_notice(s.sid) in text
    assert text.index(f"Session: {s.sid}") < text.index(ANNOUNCE) < text.index("User-only session")
    attached = await s.ok("kg_read", cwd=srv.paths["order-proj"])
    assert f"Project memory attached: {srv.paths['order-proj']}." in attached
    assert "=== PROJECT GRAPH — 7 active, 2 archived ===" in attached
    assert "User-only session" not in attached


async def test_node_read_shows_everything_and_all_edges(srv, client):
    s = await Session.open(client, srv.paths["node-proj"])
    text = await s.ok("kg_read", id="n-alpha")
    assert text == (
        "▸ n-alpha (project, active)\n"
        "  gist: alpha lesson\n"
        "  notes:\n"
        "    - first alpha note\n"
        "    - second alpha note\n"
        "  touches: src/alpha.py:10-20 (entry) (gone) · docs/alpha.md (gone)\n"  # neither file exists in the project
        "  edges:\n"
        "    n-alpha --applies--> u-hub-principle\n"
        "    n-alpha --calls--> n-beta\n"
        "    n-alpha --implemented-in--> src/alpha.py\n"
        "    n-alpha --superseded--> n-orph-peer\n"
        "    n-arch-peer --informs--> n-alpha\n"
        "    n-beta --configures--> n-alpha\n"
        "\n"
        f"Session: {s.sid}"
    )
    batch = await s.ok("kg_read", ids=["n-beta", "no-such-node-here", "u-leaf-one"])
    blocks = batch.split("\n\n")
    assert blocks[0].startswith("▸ n-beta (project, active)\n  gist: beta lesson\n  edges:\n")
    assert blocks[1] == "▸ no-such-node-here: NOT FOUND (try kg_search — it reaches all tiers)"
    assert blocks[2].startswith("▸ u-leaf-one (user, active)\n  gist: first leaf of the user hub")
    assert blocks[3] == f"Session: {s.sid}"
    missing = await s.ok("kg_read", id="no-such-node-here")
    assert missing.startswith("▸ no-such-node-here: NOT FOUND (try kg_search")
    # An id asked twice (or as `id` and in `ids`) is shown once, where it was first asked.
    again = await s.ok("kg_read", id="n-beta", ids=["no-such-node-here", "n-beta", "no-such-node-here", "u-leaf-one",
                                                     "no-such-node-here"])
    blocks = again.split("\n\n")
    assert [b.split("\n")[0].split(" ")[1] for b in blocks[:-1]] == ["n-beta", "no-such-node-here:", "u-leaf-one"]
    assert blocks[-1] == f"Session: {s.sid}"
    # A level that names no graph is a clear refusal.
    assert "level" in await s.err("kg_read", id="n-alpha", level="nowhere")


async def test_reading_an_archived_node_promotes_it_and_rescues_orphaned_neighbours(srv, client):
    s = await Session.open(client, srv.paths["node-proj"])
    before = _project(srv, s.sid)
    assert before["n-arch-hub"]["_archived"] and "_orphaned_ts" in before["n-orph-sat-one"]
    text = await s.ok("kg_read", id="n-arch-hub")
    assert text.startswith("▸ n-arch-hub (project, promoted from archive)\n")
    assert "    n-orph-sat-one --instance-of--> n-arch-hub" in text
    after = _project(srv, s.sid)
    hub = after["n-arch-hub"]
    assert not hub.get("_archived") and "_orphaned_ts" not in hub and hub["_last_read_ts"] >= NOW
    for sat in ("n-orph-sat-one", "n-orph-sat-two"):
        assert after[sat].get("_archived") is True and "_orphaned_ts" not in after[sat], sat
    # Only neighbours come back: an orphan two hops away stays orphaned.
    assert "_orphaned_ts" in after["n-orph-far"]
    # The rescued satellites are anchors again in the full read, their edges to the hub live.
    full = await s.ok("kg_read")
    assert "\n  n-orph-sat-one\n" in full and "\n  n-orph-far\n" not in full
    # Reading an orphan directly makes it active.
    text = await s.ok("kg_read", ids=["n-orph-direct"])
    assert text.startswith("▸ n-orph-direct (project, promoted from orphaned)\n")  # it was never archived
    direct = _project(srv, s.sid)["n-orph-direct"]
    assert not direct.get("_archived") and "_orphaned_ts" not in direct


async def test_a_maintenance_sessions_reads_change_nothing(srv, client):
    s = await Session.open(client, srv.paths["node-proj"])
    text = await s.ok("kg_read", ids=["n-arch-maint", "n-orph-maint"], maintenance=True)
    assert "▸ n-arch-maint (project, archived)" in text
    assert "▸ n-orph-maint (project, orphaned)" in text
    assert "promoted" not in text
    nodes = _project(srv, s.sid)
    assert nodes["n-arch-maint"]["_archived"] is True and "_last_read_ts" not in nodes["n-arch-maint"]
    assert "_orphaned_ts" in nodes["n-orph-maint"] and "_last_read_ts" not in nodes["n-orph-maint"]
    # The flag sticks to the session: a later read without it still changes nothing.
    await s.ok("kg_read", id="n-arch-maint")
    assert _project(srv, s.sid)["n-arch-maint"]["_archived"] is True


# -- paging ------------------------------------------------------------------------------------

def _blocks_in(text: str) -> list[str]:
    return re.findall(r"^▸ ([\w.-]+) \(", text, re.M)


async def test_a_long_node_batch_arrives_in_parts_with_deferred_effects(srv, client):
    s = await _unread_session(client, srv.paths["page-proj"])
    ids = [*PAGE_IDS, "page-archived-tail"]
    first = await s.ok("kg_read", ids=ids)
    m = FOOTER.search(first)
    assert m and int(m[1]) == 1 and int(m[2]) >= 2, first[-400:]
    assert utf16_units(first) <= CLAUDE_PART
    in_first = _blocks_in(first)
    assert in_first and "page-archived-tail" not in in_first
    later = [i for i in PAGE_IDS if i not in in_first]
    # Only what the delivered part shows counts as read: the rest is not stamped, not promoted, not seen.
    nodes = _project(srv, s.sid)
    fully_delivered = in_first[:-1]  # the last block may go on in the next part
    assert all("_last_read_ts" in nodes[i] for i in fully_delivered)
    assert all("_last_read_ts" not in nodes[i] for i in later)
    assert nodes["page-archived-tail"]["_archived"] is True
    # A node from a later part: kg_search does not flag it seen, and a notes write is refused as unread.
    found = await s.ok("kg_search", query=f"unique{PAGE_IDS.index(later[-1])}zq")
    assert f"▸ {later[-1]} (project)" in found
    seen_found = await s.ok("kg_search", query=f"unique{PAGE_IDS.index(PAGE_IDS[0])}zq")
    assert f"▸ {PAGE_IDS[0]} (project, seen)" in seen_found
    refused = await s.err("kg_put_node", level="project", id=later[0], gist="page lesson rewritten",
                          notes=["a note from a session that never read this node"])
    assert refused.startswith("NOT WRITTEN") and "has not read" in refused
    parts = await _all_parts(s, first)
    assert all(utf16_units(p) <= CLAUDE_PART for p in parts)
    assert parts[-1].rstrip().endswith(f"Session: {s.sid}")
    shown = [b for p in parts for b in _blocks_in(p)]
    assert shown == ids
    assert "▸ page-archived-tail (project, promoted from archive)" in parts[-1]
    nodes = _project(srv, s.sid)
    assert all("_last_read_ts" in nodes[i] for i in ids)
    assert not nodes["page-archived-tail"].get("_archived")
    # Delivered: the same kind of write now goes through (its notes were read).
    target = later[1]
    await s.ok("kg_put_node", level="project", id=target, gist=nodes[target]["gist"],
               notes=[*nodes[target]["notes"], "added after reading every part"])
    # Nothing pending any more: a clear answer, not an error.
    assert await s.ok("kg_read", more=True) == NOTHING_PENDING


async def test_a_new_read_drops_undelivered_parts(srv, client):
    s = await _unread_session(client, srv.paths["page-proj"])
    first = await s.ok("kg_read", ids=PAGE_IDS)
    assert FOOTER.search(first)
    dropped = [i for i in PAGE_IDS if i not in _blocks_in(first)]
    small = await s.ok("kg_read", id=PAGE_IDS[0])
    assert FOOTER.search(small) is None
    assert await s.ok("kg_read", more=True) == NOTHING_PENDING
    # The dropped parts' effects never happened: their nodes were never read by this session.
    refused = await s.err("kg_put_node", level="project", id=dropped[-1], gist="rewritten",
                          notes=["replacing notes never read"])
    assert "has not read" in refused


async def test_a_compaction_drops_undelivered_parts(srv, client):
    """Spec 003: a new read or a compaction drops undelivered parts (they show tiers as they were)."""
    cwd = srv.project("compact-pages-proj")
    writer = await Session.open(client, cwd)
    names = [f"long-notes-lesson-{i}" for i in range(8)]
    for name in names:
        await writer.ok("kg_put_node", level="project", id=name, gist=f"{name} gist",
                        notes=[f"note {k} " + "n" * 1_500 for k in range(10)])
    reader = await Session.open(client, cwd)
    first = await reader.ok("kg_read", ids=names)
    assert FOOTER.search(first), "a read long enough for parts"
    for i in range(2):  # two gists of 20,000 characters: the level far over its budget, compacted at once
        await writer.ok("kg_put_node", level="project", id=f"huge-gist-lesson-{i}", gist=f"huge {i} " + "g" * 19_990)
    await writer.ok("kg_read")  # a full read renders after the compaction the writes left owing
    text = await reader.ok("kg_read", more=True)
    assert text.startswith("Nothing more to read: the memory was compacted since that kg_read"), text[:300]
    assert await reader.ok("kg_read", more=True) == NOTHING_PENDING


async def test_a_part_delivered_late_shows_the_node_as_it_was_rendered(srv, client):
    # Session A holds part 2 of a batch while session B rewrites a node in it. Part 2 still shows the
    # node as it was when the batch was rendered, so A's view of it is stale: A's write must be refused.
    a = await _unread_session(client, srv.paths["page-proj"])
    first = await a.ok("kg_read", ids=PAGE_IDS)
    target = [i for i in PAGE_IDS if i not in _blocks_in(first)][-2]
    async with Client(srv.url + "/") as other:
        b = await _unread_session(other, srv.paths["page-proj"])
        await b.ok("kg_put_node", level="project", id=target, gist="rewritten by session B")
    parts = await _all_parts(a, first)
    assert "gist: rewritten by session B" not in "".join(parts)
    old = [p for p in parts if f"▸ {target} (" in p][0]
    notes = re.findall(rf"^    - ({target} unique.*)$", old, re.M)
    refused = await a.err("kg_put_node", level="project", id=target, gist="page lesson from A's stale view",
                          notes=[*notes, "A adds a note"])
    assert refused.startswith("NOT WRITTEN") and "changed by another session" in refused
    assert _project(srv, a.sid)[target]["gist"] == "rewritten by session B"


async def test_a_context_compaction_drops_undelivered_parts(srv, client):
    boot = get_json(srv, "/api/session_bootstrap", project_path=srv.paths["page-proj"], claude_session_id="cs-page")
    s = Session(client, boot["session_id"])
    assert FOOTER.search(await s.ok("kg_read", ids=PAGE_IDS))
    again = get_json(srv, "/api/session_bootstrap", project_path=srv.paths["page-proj"], claude_session_id="cs-page",
                     source="compact")
    assert again["session_id"] == s.sid
    assert await s.ok("kg_read", more=True) == NOTHING_PENDING


async def test_more_with_nothing_pending_and_without_a_session(srv, client):
    s = await Session.open(client, srv.paths["order-proj"])
    assert await s.ok("kg_read", more=True) == NOTHING_PENDING
    text, err = await call(client, "kg_read", {"more": True})
    assert err and "session_id" in text and "Traceback" not in text


async def test_a_codex_client_gets_parts_of_at_most_36000_bytes(srv):
    async with codex_client(srv) as codex:
        s = await Session.open(codex, srv.paths["page-proj"])
        first = await s.ok("kg_read", ids=PAGE_IDS)
        parts = await _all_parts(s, first)
    assert len(parts) >= 3
    assert all(utf8_bytes(p) <= CODEX_PART for p in parts)
    # Cut at line ends: rejoined, the parts are the whole reply.
    assert [b for p in parts for b in _blocks_in(p)] == PAGE_IDS
    whole = "\n".join(_body(p) for p in parts)
    assert whole.count(LONG_NOTE) == len(PAGE_IDS)


async def test_a_codex_full_read_fills_each_part_up_to_its_limit_at_line_ends(srv):
    # Part 1 held only the graphs' headers (607 bytes): `ACTIVE:` and every node under it went whole into
    # part 2, and what two parts hold took three.
    async with codex_client(srv) as codex:
        s = await Session.open(codex, srv.paths["cjk-proj"])
        parts = await _all_parts(s, s.first_text)
    bodies = [_body(p) for p in parts]
    assert len(parts) == 2 and utf8_bytes("\n".join(bodies)) < 2 * (CODEX_PART - 300), [utf8_bytes(p) for p in parts]
    assert utf8_bytes(bodies[0]) + utf8_bytes(bodies[1].split("\n")[0]) > CODEX_PART - 300  # the next line did not fit
    assert all(utf8_bytes(p) <= CODEX_PART for p in parts)
    assert sorted(re.findall(r"cjk-lesson-\d\d", "\n".join(bodies))) == [f"cjk-lesson-{i:02d}" for i in range(80)]


async def test_a_claude_code_client_counts_utf16_units(srv, client):
    # The same batch in Claude Code's unit: fewer, larger parts than Codex's bytes allow.
    s = await Session.open(client, srv.paths["page-proj"])
    parts = await _all_parts(s, await s.ok("kg_read", ids=PAGE_IDS))
    assert all(utf16_units(p) <= CLAUDE_PART for p in parts)
    assert max(utf8_bytes(p) for p in parts) > CODEX_PART
    assert "\n".join(_body(p) for p in parts).count(LONG_NOTE) == len(PAGE_IDS)


# -- kg_search ---------------------------------------------------------------------------------

async def test_search_matches_tokens_and_stems(srv, client):
    s = await _unread_session(client, srv.paths["search-proj"])
    store = await s.ok("kg_search", query="store")
    assert store.startswith("Found 1 match(es) for 'store' — top 1:")
    assert "▸ session-store-layout (project)" in store
    assert "restore" not in store
    schedule = await s.ok("kg_search", query="schedule")
    assert "▸ cron-scheduling-rules (project)" in schedule
    flagged = await s.ok("kg_search", query="nebula")
    assert "▸ nebula-archived-lesson (project, archived)" in flagged
    assert "▸ nebula-orphaned-lesson (project, orphaned)" in flagged


async def test_search_shows_notes_only_until_seen_and_connects_the_hits(srv, client):
    s = await _unread_session(client, srv.paths["search-proj"])
    first = await s.ok("kg_search", query="zephyr quasar")
    assert "▸ zephyr-relay-config (project)\n  gist: zephyr relays forward events\n  notes:\n" \
           "    - zephyr note kept for unseen readers" in first
    assert "CONNECTIONS between hits:\n  middle-bridge-node: the bridge both hits pass through\n" in first
    assert "  zephyr-relay-config --feeds--> middle-bridge-node" in first
    assert "  middle-bridge-node --feeds--> quasar-cache-tuning" in first
    again = await s.ok("kg_search", query="zephyr")
    assert "▸ zephyr-relay-config (project, seen)\n  gist: zephyr relays forward events" in again
    assert "zephyr note kept" not in again
    # The connector was shown, so it counts as seen too.
    assert "▸ middle-bridge-node (project, seen)" in await s.ok("kg_search", query="bridge")


async def test_search_lists_more_matches_and_stays_within_the_cap(srv, client):
    s = await _unread_session(client, srv.paths["search-proj"])
    text = await s.ok("kg_search", query="gadget")
    assert text.startswith("Found 12 match(es) for 'gadget' — top 5:")
    assert text.count("\n▸ gadget-case-") == 5
    more = text.split("MORE MATCHES:\n", 1)[1].splitlines()
    assert len(more) == 7 and all(re.match(r"  gadget-case-\d\d: gadget case", line) for line in more)
    big = await s.ok("kg_search", query="colossal")
    assert len(big) <= 10_000
    assert big.count("\n▸ colossal-note-") == 5
    assert "more note(s) — kg_read it" in big or "not shown — kg_read it" in big
    assert "MORE MATCHES:\n  colossal-note-" not in big  # one-liners go first


async def test_search_bad_and_huge_queries_get_clear_answers(srv, client):
    s = await Session.open(client, srv.paths["search-proj"])
    # The empty string does not fit the schema; blanks are refused past it (spec 003's two prefixes).
    for query, prefix in (("", "Input validation error: query"), ("   \n\t ", "Error: query")):
        text = await s.err("kg_search", query=query)
        assert text.startswith(prefix) and "Traceback" not in text
    huge = " ".join(f"t{i}" for i in range(5_000))
    text = await s.err("kg_search", query=huge)
    assert text.startswith("Input validation error: query") and "Traceback" not in text
    # Up to the length cap, a query of hundreds of terms is answered (its leading terms count).
    many = "gadget " + " ".join(f"w{i:03d}" for i in range(780))
    answer = await s.ok("kg_search", query=many)
    assert answer.startswith("Found 12 match(es) for 'gadget w000 w001")


async def test_search_without_a_session_is_best_effort(srv, client):
    await Session.open(client, srv.paths["search-proj"])  # loads the project graph
    text, err = await call(client, "kg_search", {"query": "zephyr"})
    assert not err, text
    assert text.startswith("Found 1 match(es) for 'zephyr' — top 1: "
                           "[no session_id — project results best-effort across all loaded graphs]")
    assert "▸ zephyr-relay-config (project:search-proj)" in text  # which loaded project it came from
    none, err = await call(client, "kg_search", {"query": "nonexistentwordzz"})
    assert not err and none.startswith("No nodes found matching 'nonexistentwordzz' [no session_id")
