"""Decision logs appended off the loop: in order, counted while pending, all written by shutdown."""

import json

import trio

from kg_actors.logbook import Logbook


async def test_lines_land_in_order_per_log_and_pending_counts_them(tmp_path):
    book = Logbook()
    recall, useful = tmp_path / "recall.jsonl", tmp_path / "useful.jsonl"
    book.append(recall, [{"n": 1}], 10_000)
    book.append(useful, [{"n": "a"}], 10_000)
    book.append(recall, [{"n": 2}, {"n": 3}], 10_000)
    assert book.pending == 4 and not recall.exists()  # queued: the reply did not wait for the disk
    async with trio.open_nursery() as nursery:
        await nursery.start(book.run)
        book.close()
    assert book.pending == 0
    assert [json.loads(x)["n"] for x in recall.read_text().splitlines()] == [1, 2, 3]
    assert [json.loads(x)["n"] for x in useful.read_text().splitlines()] == ["a"]


async def test_a_line_after_close_is_still_written(tmp_path):
    book = Logbook()
    book.close()
    book.append(tmp_path / "recall.jsonl", [{"late": True}], 10_000)
    assert json.loads((tmp_path / "recall.jsonl").read_text()) == {"late": True}


async def test_the_size_limit_rotates_the_log_once(tmp_path):
    book = Logbook()
    path = tmp_path / "recall.jsonl"
    path.write_text('{"old": 1}\n' * 10)
    book.append(path, [{"new": 1}], 50)
    async with trio.open_nursery() as nursery:
        await nursery.start(book.run)
        book.close()
    assert path.read_text() == '{"new":1}\n'
    assert (tmp_path / "recall.jsonl.prev").read_text().count("old") == 10


def test_a_torn_last_line_is_cut_before_the_next_append_and_readers_skip_only_bad_lines(tmp_path):
    from kg_actors.storage.logs import append_jsonl, read_jsonl

    path = tmp_path / "useful.jsonl"
    path.write_bytes(b'{"n":1}\n{"n":2, "gist": "half writ')  # a crash mid-append
    append_jsonl(path, [{"n": 3}], 10_000)
    assert path.read_bytes() == b'{"n":1}\n{"n":3}\n'  # the torn line is gone, not glued to the next record
    assert [r["n"] for r in read_jsonl(path)] == [1, 3]
    only_torn = tmp_path / "recall.jsonl"
    only_torn.write_bytes(b'{"n": "torn')
    append_jsonl(only_torn, [{"n": 4}], 10_000)
    assert read_jsonl(only_torn) == [{"n": 4}]


def test_a_line_cut_inside_a_multibyte_character_hides_only_that_line(tmp_path):
    from kg_actors.readings import read_readings, readings_path

    graph = tmp_path / "user.json"
    good = '{"ts": 1.0, "debt": 0.2, "factors": {"size": 0.1}, "note": "é"}\n'
    cut = '{"ts": 2.0, "note": "日本"}'.encode()[:-4]  # ends inside 本
    readings_path(graph).write_bytes(good.encode() + cut + b"\n" + good.replace("1.0", "3.0").encode())
    assert [r["ts"] for r in read_readings(graph)] == [1.0, 3.0]


def test_the_budget_chart_shows_the_readings_around_a_cut_line(tmp_path):
    import httpx

    from kg_actors.testing import ServerProcess

    srv = ServerProcess(tmp_path / "srv")
    srv.store.mkdir(parents=True)
    row = '{"ts": %s, "debt": 0.2, "factors": {"size": 0.1}}\n'
    cut = '{"ts": 2.0, "note": "日本"}'.encode()[:-4]
    (srv.store / "user.readings.jsonl").write_bytes((row % 1.0).encode() + cut + b"\n" + (row % 3.0).encode())
    srv.start("--no-editor")
    try:
        got = httpx.get(srv.url + "/api/readings", params={"level": "user"}, timeout=30)
        assert got.status_code == 200 and [r["ts"] for r in got.json()["readings"]] == [1.0, 3.0], got.text
    finally:
        srv.kill()
