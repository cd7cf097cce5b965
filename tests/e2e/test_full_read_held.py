"""The full read renders the rest of the graph (spec 000): a gist the session already holds whole, shown by
file recall, prompt recall or a push, comes back as a short id anchor, as a preloaded one does. A gist
shown cut short is not held whole, and a compaction starts the context over. The real hook scripts
against a real `kg serve`."""

from __future__ import annotations

from pathlib import Path

import pytest
from hook_helpers import Harness, node, project_graph, user_graph

from kg_actors.testing import ServerProcess, write_store

FILLERS = 70  # with the long gists, more than the preload holds: some active ones reach the session only later
LONGS = 7
LONG = "multipart uploads expire mid-way when the session outlives its lease, " * 21 + "retry the whole upload"


def _gist(i: int) -> str:
    return f"filler lesson {i:03d}: the service keeps its settings in one file and reloads it on a signal"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("held"))
    root = server.project("held-proj")
    (Path(root) / "src").mkdir()
    for name in [f"f{i:03d}" for i in range(FILLERS)] + [f"long{i}" for i in range(LONGS)]:
        (Path(root) / "src" / f"{name}.py").write_text(f"# {name}\n")
    nodes = [node(f"filler-{i:03d}", _gist(i), touches=[f"src/f{i:03d}.py"]) for i in range(FILLERS)]
    # Old and low in score: the preload leaves these out, the full read shows them as active gists.
    nodes += [node(f"long-{i}", f"{LONG} ({i})", days_old=400, touches=[f"src/long{i}.py"]) for i in range(LONGS)]
    write_store(server.store, user_graph([]), {"held-proj": project_graph(root, nodes)})
    server.start()
    yield server
    server.kill()


def _unpreloaded(preload: str, ids: list[str]) -> str:
    left = [i for i in ids if f"{i}:" not in preload and f"{i} " not in preload]
    assert left, "every candidate was preloaded: the graph is too small for this test"
    return left[0]


def _line(text: str, node_id: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"  {node_id}:") or line.startswith(f"  {node_id} (")]


def test_a_gist_file_recall_showed_whole_is_an_anchor_in_the_full_read(srv):
    h = Harness(srv, srv.project("held-proj"))
    preload = h.start().context
    short = _unpreloaded(preload, [f"filler-{i:03d}" for i in range(FILLERS)])
    recalled = h.read(f"{h.cwd}/src/f{short[-3:]}.py").context
    assert f"{short}: {_gist(int(short[-3:]))}" in recalled
    full = h.full_read()
    assert _line(full, short) == [f"  {short} (in context)"]
    assert "already shown whole" in full
    # The rest is rendered as before: a gist this session has not been shown arrives whole.
    other = next(f"filler-{i:03d}" for i in range(FILLERS)
                 if f"filler-{i:03d}" not in preload and f"filler-{i:03d}" != short)
    assert _line(full, other) == [f"  {other}: {_gist(int(other[-3:]))}"]


def test_a_gist_shown_cut_short_and_a_compaction_leave_the_full_read_whole(srv):
    h = Harness(srv, srv.project("held-proj"))
    preload = h.start().context
    long_id = _unpreloaded(preload, [f"long-{i}" for i in range(LONGS)])
    short = _unpreloaded(preload, [f"filler-{i:03d}" for i in range(FILLERS)])
    cut = h.read(f"{h.cwd}/src/long{long_id[-1]}.py").context
    assert long_id in cut and "retry the whole upload" not in cut  # cut short: not held whole
    assert short in h.read(f"{h.cwd}/src/f{short[-3:]}.py").context
    full = h.full_read()
    assert _line(full, long_id) == [f"  {long_id}: {LONG} ({long_id[-1]})"]
    assert _line(full, short) == [f"  {short} (in context)"]
    # After a compaction the summary kept only part of it: the next full read shows the gist whole again
    # (unless the new preload holds it).
    again = h.start(source="compact").context
    full = h.full_read()
    if f"{short}:" not in again:
        assert _line(full, short) == [f"  {short}: {_gist(int(short[-3:]))}"]
    else:
        assert _line(full, short) == [f"  {short} (preloaded)"]


def test_a_gist_rewritten_since_the_session_saw_it_is_shown_whole_again(srv):
    h, other = Harness(srv, srv.project("held-proj")), Harness(srv, srv.project("held-proj"))
    preload = h.start().context
    other.start()
    seen, changed = [f"filler-{i:03d}" for i in range(FILLERS) if f"filler-{i:03d}:" not in preload][-2:]
    for node_id in (seen, changed):
        assert node_id in h.read(f"{h.cwd}/src/f{node_id[-3:]}.py").context
    gist = "filler lesson rewritten: the settings file is reloaded on SIGHUP only, not on any signal"
    assert "saved" in other.mcp("kg_put_node", level="project", id=changed, gist=gist)
    full = h.full_read()
    assert _line(full, seen) == [f"  {seen} (in context)"]
    assert _line(full, changed) == [f"  {changed}: {gist}"]  # what the session holds of it is stale
