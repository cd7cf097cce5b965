"""core/when.py: the moments `kg restore --at` takes, and the typos it refuses (git reads those as "now")."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from kg_actors.core.when import moment

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize(("text", "back"), [
    ("now", 0), ("NOW", 0), ("yesterday", 86_400), (" Yesterday ", 86_400),
    ("3 days ago", 3 * 86_400), ("2.weeks.ago", 14 * 86_400), ("1 hour ago", 3600), ("90 minutes ago", 5400),
    ("1 month ago", 30 * 86_400),
])
def test_named_and_relative_moments(text, back):
    assert moment(text, NOW) == NOW - back


def test_dates_with_a_zone_are_exact_and_a_bare_date_is_the_end_of_that_day():
    assert moment("2026-11-30 14:00Z", NOW) == datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc).timestamp()
    assert moment("2026-11-30T14:00:05+02:00", NOW) == datetime(2026, 11, 30, 12, 0, 5,
                                                               tzinfo=timezone.utc).timestamp()
    assert moment("2026-11-30 14:00 -0130", NOW) == datetime(2026, 11, 30, 15, 30, tzinfo=timezone.utc).timestamp()
    # Local time without a zone, as git reads it; the whole day when no time is given.
    assert moment("2026-11-30", NOW) == datetime(2026, 11, 30, 23, 59, 59).timestamp()
    assert moment("2026-11-30 08:15", NOW) == datetime(2026, 11, 30, 8, 15).timestamp()


@pytest.mark.parametrize("text", [
    "yesterdya", "deadbeef", "not a date", "last tuesdy", "", "2026-02-30", "2026-11-30 25:00", "2026-13-01",
    "3 days", "days ago", "ago", "2026/11/30", "tomorrow", "1e9 days ago",
])
def test_anything_else_is_no_moment(text):
    assert moment(text, NOW) is None
