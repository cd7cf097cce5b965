"""The tick's readings per graph: written now and then unless a value moved, and bounded on disk."""

from __future__ import annotations

from kg_actors.core.debt import compute_debt
from kg_actors.core.model import GraphData
from kg_actors.readings import READING_EVERY_SECONDS, READINGS_MAX_BYTES, Readings, read_readings, readings_path
from kg_actors.storage.logs import append_jsonl

NOW = 1_780_000_000.0


class Book:
    """The logbook's contract, appended at once."""

    def __init__(self):
        self.lines = 0

    def append(self, path, records, max_bytes):
        self.lines += len(records)
        append_jsonl(path, records, max_bytes)


def test_an_unchanged_graph_is_written_down_only_every_ten_minutes_and_a_change_at_once(tmp_path):
    graph_file = tmp_path / "graph.json"
    debt = compute_debt(GraphData("project"), NOW)
    book, readings = Book(), Readings()
    assert readings.note("project:x", graph_file, NOW, debt, 100, book)
    assert not readings.note("project:x", graph_file, NOW + 30, debt, 100, book)
    assert readings.note("project:x", graph_file, NOW + 60, debt, 250, book)  # the render grew
    assert readings.note("project:x", graph_file, NOW + 60 + READING_EVERY_SECONDS, debt, 250, book)
    rows = read_readings(graph_file)
    assert [r["charge"] for r in rows] == [100, 250, 250] and book.lines == 3
    assert rows[0]["budget"] == 22_000 and rows[0]["debt"] == debt.score


def test_readings_stay_bounded_and_a_torn_line_is_skipped(tmp_path):
    graph_file = tmp_path / "graph.json"
    debt = compute_debt(GraphData("project"), NOW)
    readings, book = Readings(), Book()
    for i in range(5000):
        readings.note("project:x", graph_file, NOW + i, debt, i, book)
    path = readings_path(graph_file)
    kept = path.stat().st_size + path.with_name(path.name + ".prev").stat().st_size
    assert kept <= 2 * READINGS_MAX_BYTES
    with open(path, "a") as f:
        f.write('{"ts": 1, "torn')
    rows = read_readings(graph_file)
    assert rows[-1]["charge"] == 4999 and all(a["ts"] <= b["ts"] for a, b in zip(rows, rows[1:]))
