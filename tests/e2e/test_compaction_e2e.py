"""Compaction and maintenance debt end to end, against a real `kg serve` ticking every second.

The level budget is measured the way the server measures it: the rendered
charge of the graph as GET /api/graph/read returns it (render == charge).
Waits poll the server against a deadline; a fixpoint is a dump that stays the
same across several ticks.
"""

from __future__ import annotations

import re
import time

import pytest
from e2e_helpers import reference_graph, Session, get_json, graph, start_server, wait_until

from kg_actors.core import render
from kg_actors.core.constants import (COMPACTION_OVERSHOOT_RATIO, COMPACTION_TARGET_RATIO, GIST_SOFT_LIMIT,
                                     MAX_CHARS_PER_LEVEL)
from kg_actors.core.model import GraphData

NOW = time.time()
OLD = NOW - 60 * 86_400
BUDGET = MAX_CHARS_PER_LEVEL
CEILING = int(MAX_CHARS_PER_LEVEL * COMPACTION_TARGET_RATIO)
TICK = 1.0


def _node(node_id: str, gist: str, created: float = OLD, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": created, **extra}



def _gist(tag: str, n: int = 280) -> str:
    text = f"{tag} " + " ".join(f"{tag.replace('-', '')}w{j}" for j in range(80))
    return text[:n]


def charge_of(level: dict) -> int:
    """The level's rendered charge, from a GET /api/graph/read level."""
    raw = {"nodes": {n["id"]: n for n in level["nodes"]}, "edges": level["edges"]}
    return render.charge(GraphData.from_json(raw, "project"))


def _archived(level: dict) -> set[str]:
    return {n["id"] for n in level["nodes"] if n.get("_archived") and "_orphaned_ts" not in n}


def _active(level: dict) -> set[str]:
    return {n["id"] for n in level["nodes"] if not n.get("_archived") and "_orphaned_ts" not in n}


def _project(srv, path: str) -> dict:
    return graph(srv, project_path=path)["project"]


def _within_budget(srv, path: str, what: str) -> dict:
    """The project's dump once it renders within its budget (a write's compaction runs within a second)."""
    def within() -> dict | None:
        level = _project(srv, path)
        return level if charge_of(level) <= BUDGET else None

    return wait_until(within, 10, what)


def settled(srv, path: str, quiet: float = 3 * TICK, timeout: float = 25.0) -> dict:
    """Poll until the project's dump stays the same for `quiet` seconds (several ticks); return it."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while True:
        dump = _project(srv, path)
        key = sorted((n["id"], bool(n.get("_archived")), "_orphaned_ts" in n) for n in dump["nodes"])
        now = time.monotonic()
        if key != last:
            last, since = key, now
        elif now - since >= quiet:
            return dump
        if now > deadline:
            raise AssertionError(f"{path}: no fixpoint within {timeout:.0f} s")
        time.sleep(0.1)


# -- the store ---------------------------------------------------------------------------------

def _over_project(path: str) -> dict:
    """Over the budget on disk (written by something that never compacted)."""
    nodes = [_node(f"over-lesson-{i:03d}", _gist(f"over-{i:03d}"), created=OLD + i * 3600) for i in range(90)]
    nodes[5]["_useful_ts"] = [NOW - 3600, NOW - 7200]
    raw = reference_graph(nodes, [], path)
    assert _charge(raw) > BUDGET + 5_000
    return raw


def _refill_project(path: str) -> dict:
    """Below the ceiling, with more archived than fits: the tick promotes the best first."""
    active = [_node(f"refill-active-{i:02d}", _gist(f"ra-{i:02d}"), created=OLD + i) for i in range(25)]
    archived = [_node(f"refill-archived-{i:02d}", _gist(f"rb-{i:02d}"), created=OLD - 86_400 + i, _archived=True)
                for i in range(40)]
    for n in archived[30:]:  # endorsed: the highest scores among the archived
        n["_useful_ts"] = [NOW - 3600, NOW - 7200]
        n["_last_read_ts"] = NOW - 3600
    raw = reference_graph(active + archived, [], path)
    assert _charge(raw) < CEILING - 2_000
    return raw


def _whole_project(path: str) -> dict:
    """Everything fits with every node active: the whole archive comes back at once."""
    nodes = [_node(f"whole-{i:02d}", f"small lesson {i}", created=OLD + i, _archived=i % 2 == 0) for i in range(12)]
    return reference_graph(nodes, [(f"whole-{i:02d}", f"whole-{i + 1:02d}", "next") for i in range(11)], path)


def _edge_project(path: str) -> dict:
    """Between the ceiling and the budget, nothing archived: stable until edges are added."""
    nodes = [_node(f"edge-lesson-{i:02d}", _gist(f"edge-{i:02d}", 290), created=OLD + i * 3600) for i in range(66)]
    raw = reference_graph(nodes, [], path)
    assert CEILING < _charge(raw) < BUDGET - 400, _charge(raw)
    return raw


def _rebalance_project(path: str) -> dict:
    """Between the ceiling and the budget, archived nodes outscoring active ones: the tick swaps them."""
    active = [_node(f"rebal-active-{i:02d}", _gist(f"rba-{i:02d}", 290), created=OLD + i * 3600) for i in range(58)]
    archived = [_node(f"rebal-endorsed-{i:02d}", _gist(f"rbe-{i:02d}", 290), created=OLD - 86_400 + i,
                      _archived=True, _useful_ts=[NOW - 3600 * k for k in range(1, 4)], _last_read_ts=NOW - 600)
                for i in range(8)]
    # A pair linked both ways, one end archived: the shape the reference swaps back and forth forever.
    active.append(_node("rebal-loop-one", _gist("loop-one", 80), created=OLD))
    archived.append(_node("rebal-loop-two", _gist("loop-two", 80), created=OLD, _archived=True))
    raw = reference_graph(active + archived, [("rebal-loop-one", "rebal-loop-two", "pairs"),
                                     ("rebal-loop-two", "rebal-loop-one", "pairs")], path)
    assert CEILING < _charge(raw) < BUDGET - 400, _charge(raw)
    return raw


def _anchors_project(path: str) -> dict:
    """Archived anchors over 30% of the budget: the tick orphans the lowest-scored."""
    nodes = [_node(f"anchor-active-{i:02d}", f"active lesson {i}", created=OLD + i) for i in range(10)]
    # More than refill can bring back under the ceiling, so anchors stay: too many of them.
    nodes += [_node(f"anchored-archived-lesson-{i:03d}", f"archived quokka{i}word lesson " + "a" * 80,
                    created=OLD - i, _archived=True) for i in range(400)]
    raw = reference_graph(nodes, [], path)
    assert render.archived_anchor_chars(GraphData.from_json(raw, "project")) > 0.3 * BUDGET
    return raw


def _debt_project(path: str) -> dict:
    nodes = [_node(f"debt-lesson-{i}", "x" * (GIST_SOFT_LIMIT + 10 + i)) for i in range(3)]
    nodes += [_node("debt-small-one", "a small lesson"), _node("debt-small-two", "another small lesson")]
    return reference_graph(nodes, [("debt-lesson-0", "debt-lesson-1", "relates-to"),
                          ("debt-lesson-1", "debt-lesson-2", "relates-to"),
                          ("debt-small-one", "debt-small-two", "relates-to"),
                          ("debt-small-one", "debt-lesson-0", "relates-to")], path)


def _charge(raw: dict) -> int:
    return render.charge(GraphData.from_json(raw, "project"))


PROJECTS = ("over-proj", "refill-proj", "whole-proj", "edge-proj", "debt-proj", "unloaded-proj", "write-proj",
            "rebalance-proj", "anchors-proj", "burst-proj")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("compaction")
    home = base / "home"
    paths = {name: str(home / name) for name in PROJECTS}
    for name in PROJECTS:
        (home / name).mkdir(parents=True, exist_ok=True)
    projects = {
        "over-proj": _over_project(paths["over-proj"]),
        "refill-proj": _refill_project(paths["refill-proj"]),
        "whole-proj": _whole_project(paths["whole-proj"]),
        "edge-proj": _edge_project(paths["edge-proj"]),
        "debt-proj": _debt_project(paths["debt-proj"]),
        "rebalance-proj": _rebalance_project(paths["rebalance-proj"]),
        "anchors-proj": _anchors_project(paths["anchors-proj"]),
        "unloaded-proj": reference_graph([_node("unloaded-lesson-node", "a graph nothing loads before the survey")], [],
                                paths["unloaded-proj"]),
    }
    user = reference_graph([_node("user-lesson-node", "a small user graph")])
    server = start_server(base, user, projects, extra_env={"KG_SAVE_INTERVAL": str(TICK)})
    server.paths = paths
    yield server
    server.kill()




# -- after writes ------------------------------------------------------------------------------

async def test_writes_over_the_budget_archive_the_lowest_scored(srv, client):
    path = srv.paths["write-proj"]
    s = await Session.open(client, path)
    endorsed = ["write-lesson-000", "write-lesson-001"]
    peak = 0
    for i in range(80):
        node_id = f"write-lesson-{i:03d}"
        await s.ok("kg_put_node", level="project", id=node_id, gist=_gist(f"write-{i:03d}", 290))
        if i == 1:
            await s.ok("kg_useful", ids=endorsed)
        # Each write's compaction follows it once the server is quiet (it is owed, not run before the reply).
        size = charge_of(_within_budget(srv, path, f"the compaction after {node_id}"))
        peak = max(peak, size)
    level = _project(srv, path)
    archived, active = _archived(level), _active(level)
    assert len(archived) >= 15 and peak > CEILING
    assert set(endorsed) <= active
    # Score order here is write order (no edges, no other endorsement): the oldest went first.
    created = {n["id"]: n["_created_ts"] for n in level["nodes"]}
    kept = active - set(endorsed)
    assert max(created[i] for i in archived) < min(created[i] for i in kept)
    # The full read agrees: the level renders within its budget, its HEALTH line counts what is active.
    read = await s.ok("kg_read")
    project = read[read.index("=== PROJECT GRAPH"):]
    assert project.startswith(f"=== PROJECT GRAPH — {len(active)} active, {len(archived)} archived ===")
    assert f"HEALTH: {len(active)} nodes," in project


def _project_section(read: str) -> str:
    """The full read's project level as rendered: its header through the line before its HEALTH line."""
    project = read[read.index("=== PROJECT GRAPH"):]
    return project[:project.index("HEALTH:")]


async def test_a_burst_of_writes_stays_within_the_overshoot_bound_and_full_reads_within_the_budget(srv, client):
    """Back to back over MCP (the audit's burst): the level as stored never passes COMPACTION_OVERSHOOT_RATIO
    of its budget after any write, and a full read right after any of them renders it within the budget:
    the compaction the writes left owing is paid before the read renders, not after it."""
    path = srv.paths["burst-proj"]
    s = await Session.open(client, path)
    reader = await Session.open(client, path)  # the writer holds its gists: its full read shows them as anchors
    peak, sections = 0, []
    for i in range(120):
        await s.ok("kg_put_node", level="project", id=f"burst-lesson-{i:03d}", gist=_gist(f"burst-{i:03d}", 280))
        size = charge_of(_project(srv, path))  # a dump: a message to the graph, after the write's
        assert size <= BUDGET * COMPACTION_OVERSHOOT_RATIO, (i, size)
        peak = max(peak, size)
        if i % 10 == 9:
            read = await reader.ok("kg_read")
            assert "it continues" not in read
            sections.append(len(_project_section(read)))
            assert sections[-1] <= BUDGET, (i, sections)
    assert peak > BUDGET  # the burst did outrun the deferred compaction
    assert max(sections) > CEILING and len(_archived(_project(srv, path))) >= 20


async def test_put_edge_also_triggers_compaction(srv, client):
    path = srv.paths["edge-proj"]
    s = await Session.open(client, path)
    before = _project(srv, path)
    assert not _archived(before) and CEILING < charge_of(before) <= BUDGET
    linked = set()
    for i in range(12):
        # An edge to a file is live and cited under its node: each one adds a long citation line.
        src, dst = f"edge-lesson-{i:02d}", f"src/{'deep/' * 45}file_{i}.py"
        await s.ok("kg_put_edge", level="project", frm=src, to=dst, rel="documented-in")
        linked.add(src)
        level = _within_budget(srv, path, f"the compaction after {src}->{dst}")
        if _archived(level):
            break
    else:
        pytest.fail("adding edges never took the level over its budget")
    # Linked nodes gained connectedness: the unlinked ones went first, the linked ones stay.
    assert linked <= _active(level)
    assert charge_of(level) <= CEILING + 200


# -- on the tick -------------------------------------------------------------------------------

async def test_a_graph_over_budget_on_disk_is_within_budget_once_loaded_and_stays_settled(srv):
    path = srv.paths["over-proj"]
    assert _charge(_over_project(path)) > BUDGET  # as stored
    level = _project(srv, path)  # the load compacts it before anything can read it
    assert charge_of(level) <= CEILING
    assert "over-lesson-005" in _active(level)  # endorsed: kept
    assert len(_archived(level)) >= 20
    # The tick finds nothing left to do: no swap back and forth on an unchanged graph.
    settled_level = settled(srv, path)
    assert _archived(settled_level) == _archived(level) and charge_of(settled_level) <= BUDGET


async def test_the_tick_refills_best_first_and_reaches_a_fixpoint(srv):
    path = srv.paths["refill-proj"]
    before = _project(srv, path)
    assert len(_archived(before)) == 40
    wait_until(lambda: len(_archived(_project(srv, path))) < 40, 15, "the tick to refill refill-proj")
    level = settled(srv, path)
    size = charge_of(level)
    assert size <= CEILING
    # Not everything fit; the room left is smaller than one more node.
    assert _archived(level) and size + len(_gist("rb-00")) + 6 > CEILING
    promoted = {f"refill-archived-{i:02d}" for i in range(40)} - _archived(level)
    assert {f"refill-archived-{i:02d}" for i in range(30, 40)} <= promoted  # the endorsed came back first


async def test_the_whole_archive_comes_back_when_everything_fits(srv):
    path = srv.paths["whole-proj"]
    assert len(_archived(_project(srv, path))) == 6
    wait_until(lambda: not _archived(_project(srv, path)), 15, "the whole archive to come back")
    level = settled(srv, path)
    assert len(_active(level)) == 12 and charge_of(level) <= CEILING


async def test_the_tick_rebalances_within_budget_to_a_fixpoint(srv):
    path = srv.paths["rebalance-proj"]
    endorsed = {f"rebal-endorsed-{i:02d}" for i in range(8)}
    assert endorsed <= _archived(_project(srv, path))

    def swapped_in() -> bool:
        level = _project(srv, path)
        assert charge_of(level) <= BUDGET  # a swap that would cross the budget is reverted
        return endorsed <= _active(level)

    wait_until(swapped_in, 20, "the endorsed archived nodes to swap in")
    level = settled(srv, path)
    assert endorsed <= _active(level) and charge_of(level) <= BUDGET
    assert len(_archived(level)) == 9  # as many went out as came in: swaps, not refills


async def test_anchors_over_their_share_are_orphaned_and_search_still_finds_them(srv, client):
    path = srv.paths["anchors-proj"]
    _project(srv, path)

    def anchors_fit() -> bool:
        raw = _project(srv, path)
        return render.archived_anchor_chars(GraphData.from_json(
            {"nodes": {n["id"]: n for n in raw["nodes"]}, "edges": raw["edges"]}, "project")) <= 0.3 * BUDGET

    wait_until(anchors_fit, 15, "the orphan pass")
    level = settled(srv, path)
    orphaned = sorted(n["id"] for n in level["nodes"] if "_orphaned_ts" in n)
    assert orphaned and _archived(level) and charge_of(level) <= BUDGET
    # Orphans are invisible in the full read and still found, flagged, by search.
    s = await Session.open(client, path)
    assert all(f"\n  {i}\n" not in s.first_text for i in orphaned)
    assert any(f"\n  {i}\n" in s.first_text for i in _archived(level))
    target = orphaned[0]
    found = await s.ok("kg_search", query=f"quokka{int(target.rsplit('-', 1)[1])}word")
    assert f"▸ {target} (project, orphaned)" in found


# -- debt --------------------------------------------------------------------------------------

def _debt_line(text: str, level: str = "PROJECT") -> str:
    section = text[text.index(f"=== {level} GRAPH"):]
    return re.search(r"^DEBT: .*$", section, re.M)[0]


async def test_debt_counts_oversized_gists_and_resets_only_on_a_maintain_stamp(srv, client):
    path = srv.paths["debt-proj"]
    s = await Session.open(client, path)
    line = _debt_line(s.first_text)
    assert "3 oversized gist(s)" in line and "never maintained" in line, line
    await s.ok("kg_put_node", level="project", id="debt-lesson-new", gist="y" * (GIST_SOFT_LIMIT + 1))
    await s.ok("kg_put_edge", level="project", frm="debt-lesson-new", to="debt-small-one", rel="relates-to")
    line = _debt_line(await s.ok("kg_read"))
    assert "4 oversized gist(s)" in line and "0 unconnected" in line
    # Any other progress task leaves staleness alone.
    await s.ok("kg_progress", task_id="scout", level="project", state={"step": 1})
    assert "never maintained" in _debt_line(await s.ok("kg_read"))
    row = {r["graph"]: r for r in get_json(srv, "/api/maintenance_debt")["graphs"]}["project:debt-proj"]
    assert row["debt"]["never_maintained"] and row["debt"]["oversized"] == 4
    # A pass that saved its cursor and died is no completed pass: staleness stays (spec 003 kg_progress).
    m = await Session.open(client, path)
    await m.ok("kg_progress", task_id="maintain", level="project", state={"cursor": "b", "counts": {"a": 1}})
    assert "never maintained" in _debt_line(await s.ok("kg_read"))
    row = {r["graph"]: r for r in get_json(srv, "/api/maintenance_debt")["graphs"]}["project:debt-proj"]
    assert row["debt"]["never_maintained"] and row["debt"]["score"] > 0
    # The completed pass's stamp resets it: no staleness, no debt, though the wear is still there.
    await m.ok("kg_progress", task_id="maintain", level="project", state={"cursor": "done", "counts": {"a": 1}})
    line = _debt_line(await s.ok("kg_read"))
    assert line.startswith("DEBT: LOW (0.00) — 4 oversized gist(s)") and "untended 0d" in line, line
    row = {r["graph"]: r for r in get_json(srv, "/api/maintenance_debt")["graphs"]}["project:debt-proj"]
    assert not row["debt"]["never_maintained"] and row["debt"]["score"] == 0.0


async def test_maintenance_debt_surveys_every_graph_on_disk_neediest_first(srv, client):
    await Session.open(client, srv.paths["write-proj"])  # a project created at runtime is on disk too
    rows = get_json(srv, "/api/maintenance_debt")["graphs"]
    keys = [r["graph"] for r in rows]
    on_disk = {p.name for p in (srv.store / "projects").iterdir()}
    assert set(keys) == {"user"} | {f"project:{slug}" for slug in on_disk}
    assert len(keys) == len(set(keys))
    scores = [r["debt"]["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    for r in rows:
        if r["graph"] == "user":
            assert r["level"] == "user" and "project_path" not in r
        else:
            slug = r["graph"].removeprefix("project:")
            assert r["level"] == "project" and r["project_path"] == srv.paths[slug]
        assert r["debt"]["line"].startswith(f"DEBT: {r['debt']['level']} ({r['debt']['score']:.2f})")
    unloaded = next(r for r in rows if r["graph"] == "project:unloaded-proj")
    assert unloaded["debt"]["nodes"] == 1
