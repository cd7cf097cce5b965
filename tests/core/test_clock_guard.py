"""The wall clock's guard (core/clock_guard.py), `now` and the boot clock passed in: a jump is seen between two
ticks or against the store's last tick, the rules that destroy or demote wait a bounded time, and stamps from
before the jump count from it (an orphan's grace, a session's day idle)."""

from __future__ import annotations

from kg_actors.core import clock_guard as G
from kg_actors.core import compaction
from kg_actors.core.model import GraphData, Node
from kg_actors.core.session_cap import to_let_go

T = 1_800_000_000.0
DAY = 86_400.0


def ticks(watch: G.ClockWatch, *readings: tuple[float, float]) -> tuple[G.ClockWatch, list[G.Jump]]:
    seen = []
    for wall, boot in readings:
        watch, jump = G.observe(watch, wall, boot)
        if jump is not None:
            seen.append(jump)
    return watch, seen


def test_a_clock_that_keeps_time_is_no_jump_and_holds_nothing():
    watch, seen = ticks(G.ClockWatch(), (T, 100.0), (T + 30, 130.0), (T + 60 + 200, 160.0))  # 200 s of slew
    assert seen == [] and not watch.held(160.0) and watch.since is None


def test_a_correction_of_400_days_is_a_jump_the_rules_wait_then_act_again():
    watch, seen = ticks(G.ClockWatch(), (T - 400 * DAY, 100.0), (T, 102.0))
    assert len(seen) == 1 and abs(seen[0].by - (400 * DAY - 2)) < 1e-6 and seen[0].at == T
    assert watch.held(102.0) and watch.held(102.0 + G.CLOCK_STEADY_S - 1)
    assert not watch.held(102.0 + G.CLOCK_STEADY_S)  # bounded: an hour of a steady clock
    assert watch.since == T
    assert "jumped 400.0 days ahead" in G.jump_words(seen[0])


def test_a_clock_that_never_settles_holds_the_rules_a_day_at_most():
    watch, boot, wall = G.ClockWatch(), 0.0, T
    watch, _ = G.observe(watch, wall, boot)
    for _ in range(40):  # a jump every 50 min: each restarts the hour, the series ends a day after its first
        boot += 3000.0
        wall += 3000.0 + 3600.0
        watch, jump = G.observe(watch, wall, boot)
        assert jump is not None
    assert watch.first_boot == 3000.0 and not watch.held(boot) and boot - watch.first_boot >= G.CLOCK_HOLD_MAX_S


def test_at_start_a_clock_behind_the_stores_last_tick_is_a_jump_a_long_stop_is_not():
    watch, jump = G.observe(G.starting(T, None), T - 400 * DAY, 5.0)  # set back while the server was down
    assert jump is not None and jump.by < 0 and watch.held(5.0) and watch.since == T - 400 * DAY
    watch, jump = G.observe(G.starting(T - 200 * DAY, None), T, 5.0)  # a store left 200 days: no sign of a jump
    assert jump is None and not watch.held(5.0)
    kept = G.Jump(T - DAY, 400 * DAY)
    watch, jump = G.observe(G.starting(T - 60, kept), T, 5.0)  # a restart keeps the last jump's `since`
    assert jump is None and watch.since == T - DAY and not watch.held(5.0)


def _orphans(stamp: float) -> GraphData:
    g = GraphData("project", "/p")
    for k in range(3):
        g.set_node(Node(f"orphan-{k}", "an orphaned lesson", archived=True, orphaned_ts=stamp))
    g.commit()
    return g


def test_orphans_stamped_before_a_jump_count_their_grace_from_it():
    """Audit: orphaned on a clock 400 days behind, then corrected: the next tick deleted all of them."""
    g = _orphans(T - 400 * DAY)
    assert len(compaction.prune_due(g, T + 60, 365)) == 3  # no jump known: what the tick did
    assert compaction.prune_due(g, T + 60, 365, since=T) == []
    assert compaction.prune_due(g, T + 364 * DAY, 365, since=T) == []
    assert len(compaction.prune_due(g, T + 366 * DAY, 365, since=T)) == 3  # bounded: one grace after the jump
    assert compaction.prune_orphans(g, T + 60, 365, since=T) == [] and len(g.nodes) == 3
    ahead = _orphans(T + 400 * DAY)  # stamped on a clock since set back: not due for 765 days
    assert compaction.prune_due(ahead, T + 366 * DAY, 365, since=T) == []


def test_a_session_active_before_a_jump_counts_its_day_idle_from_it():
    stamps = {"live": T - 2 * DAY - 1, "idle": T - 4 * DAY}  # the live one was active a second before
    assert sorted(to_let_go(stamps, T, DAY, 10, 600)) == ["idle", "live"]  # no jump known: both went
    assert to_let_go(stamps, T, DAY, 10, 600, since=T - 1) == []
    assert sorted(to_let_go(stamps, T + DAY + 1, DAY, 10, 600, since=T - 1)) == ["idle", "live"]
    assert to_let_go(stamps, T, DAY, 1, 600, since=T - 1) == []  # both spared as active at the jump


def test_the_boot_clock_is_one_that_counts_a_suspend_on_linux_and_macos(monkeypatch):
    """Audit: on macOS time.monotonic stops while the lid is shut, so every sleep read as a forward jump."""
    import time

    from kg_actors.clock_keeper import suspend_counting_clock

    monkeypatch.setattr(time, "CLOCK_BOOTTIME", 7, raising=False)
    assert suspend_counting_clock("linux") == 7
    monkeypatch.delattr(time, "CLOCK_BOOTTIME")  # as on macOS, where Python has no CLOCK_BOOTTIME
    monkeypatch.setattr(time, "CLOCK_MONOTONIC", 6, raising=False)
    assert suspend_counting_clock("darwin") == 6  # Darwin's CLOCK_MONOTONIC goes on through a sleep
    assert suspend_counting_clock("win32") is None  # time.monotonic, the best there is
