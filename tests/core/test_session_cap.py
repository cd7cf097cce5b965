"""Which sessions the registry lets go (core/session_cap.py): a day idle, or past the count, least active first."""

from __future__ import annotations

from kg_actors.core.session_cap import to_let_go

NOW = 1.8e9
DAY = 86_400.0


def test_under_the_count_only_the_expired_go():
    stamps = {"a": NOW - DAY - 1, "b": NOW - DAY, "c": NOW - 5}
    assert to_let_go(stamps, NOW, ttl=DAY, kept=10, spared=600) == ["a"]  # exactly a day idle stays


def test_past_the_count_the_least_recently_active_go_first():
    stamps = {f"s{i}": NOW - 1000 * (i + 1) for i in range(6)}  # s5 idle longest
    assert sorted(to_let_go(stamps, NOW, ttl=DAY, kept=4, spared=600)) == ["s4", "s5"]


def test_the_expired_count_toward_the_sessions_let_go():
    stamps = {"old": NOW - 2 * DAY, "x": NOW - 5000, "y": NOW - 4000, "z": NOW - 3000}
    assert sorted(to_let_go(stamps, NOW, ttl=DAY, kept=2, spared=600)) == ["old", "x"]


def test_a_session_active_lately_is_never_let_go_for_the_count():
    stamps = {"busy1": NOW - 10, "busy2": NOW - 600, "busy3": NOW - 1, "idle": NOW - 601}
    assert to_let_go(stamps, NOW, ttl=DAY, kept=1, spared=600) == ["idle"]  # over the count still: all busy
