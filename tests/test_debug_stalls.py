"""The soak's stall figures (kg_actors/debug_stalls.py): which loop steps and collections held the loop."""

import gc
import json

import trio

from kg_actors import debug_stalls


def test_a_window_keeps_the_longest_steps_and_counts_collections():
    w = debug_stalls.StallWindow(100.0)
    for i in range(20):
        w.step(0.001 * i, f"short-{i}")  # 0-19 ms: busy time, not stalls
    for i in range(10):
        w.step(0.030 + 0.01 * i, f"long-{i}")
    w.collection(2, 0.050)
    w.collection(2, 0.070)
    w.collection(0, 0.001)
    line = w.line(110.0, 1_700_000_000.0)
    assert line["steps"] == 30 and line["seconds"] == 10.0
    assert line["long_steps"] == 10
    assert abs(line["long_steps_s"] - sum(0.030 + 0.01 * i for i in range(10))) < 1e-3
    # The longest KEEP_LONGEST, longest first, by task name.
    assert [name for _, name in line["longest_ms"]] == [f"long-{i}" for i in range(9, 9 - debug_stalls.KEEP_LONGEST, -1)]
    assert line["longest_ms"][0][0] == 120.0
    assert line["gc"]["2"] == {"count": 2, "total_ms": 120.0, "longest_ms": 70.0}
    assert line["gc"]["0"]["count"] == 1
    busy = sum(0.001 * i for i in range(20)) + sum(0.030 + 0.01 * i for i in range(10))
    assert abs(line["loop_busy"] - busy / 10) < 1e-3


def test_a_server_loop_writes_a_line_per_window_naming_its_stall(tmp_path, monkeypatch):
    path = tmp_path / "stalls.jsonl"
    monkeypatch.setenv(debug_stalls.ENV, str(path))
    monkeypatch.setenv("KG_DEBUG_STALLS_EVERY", "0.15")
    now = [0.0]  # the instrument's clock: each step below moves it by what it "took"

    async def main():
        now[0] = 1000.0  # the step that installs it ends after this: it is not one to time
        stalls = debug_stalls.install(clock=lambda: now[0])
        assert stalls is not None
        try:
            async def blocker():
                now[0] += 0.060  # a step that holds the loop 60 ms: what the log is for
                gc.collect()  # a full collection inside a step: timed by the callback
                await trio.lowlevel.checkpoint()

            async with trio.open_nursery() as n:
                n.start_soon(blocker, name="the-blocker")
                for _ in range(100):  # short steps until the window is over
                    now[0] += 0.001
                    await trio.lowlevel.checkpoint()
                now[0] += 0.010
                await trio.lowlevel.checkpoint()  # the next window begins
        finally:
            trio.lowlevel.remove_instrument(stalls)
            gc.callbacks.remove(stalls.on_gc)

    trio.run(main)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines, "no window was written"
    first = lines[0]
    assert first["long_steps"] == 1  # the blocker alone: every other step took 1 ms
    assert first["longest_ms"] == [[60.0, "the-blocker"]]
    assert first["gc"]["2"]["count"] >= 1
    assert 0.1 < first["loop_busy"] <= 1


def test_nothing_is_installed_without_the_variable(monkeypatch):
    monkeypatch.delenv(debug_stalls.ENV, raising=False)

    async def main():
        return debug_stalls.install()

    assert trio.run(main) is None


def test_waits_with_nothing_to_run_count_as_idle(tmp_path):
    now = [0.0]
    log = debug_stalls.StallLog(tmp_path / "s.jsonl", 10.0, clock=lambda: now[0], wall=lambda: 0.0)
    log.before_io_wait(0.5)  # nothing runnable: the loop sleeps until I/O or a timer
    now[0] += 0.4
    log.after_io_wait(0.5)
    log.before_io_wait(0.0)  # tasks are runnable: a poll, not a wait
    now[0] += 0.1
    log.after_io_wait(0.0)
    now[0] = 10.0
    log.flush(now[0])
    line = json.loads((tmp_path / "s.jsonl").read_text())
    assert line["loop_idle"] == 0.04 and line["loop_busy"] == 0.0
