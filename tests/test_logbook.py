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
