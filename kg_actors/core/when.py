"""The moment a person names for `kg restore --at`: a date, a date and time, or a time ago.

Git reads any text it cannot parse as a date as "now" (`--before=yesterdya` is the newest
commit), and a restore to "now" drops what was written since that commit: a typo must be an
error instead. So the forms are ours and closed; git gets the moment as a UTC date.

A bare date means the end of that day ("as it was on the 30th"); dates and times without a zone
are local time, as git reads them.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from . import constants as C

FORMS = "a date (2026-11-30), a date and time ('2026-11-30 14:00'), 'now', 'yesterday' or 'N days ago'"

_DAY = C.DAY_SECONDS
_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": _DAY, "week": 7 * _DAY, "month": 30 * _DAY, "year": 365 * _DAY}
_AGO = re.compile(r"(\d{1,6})[ .]+(second|minute|hour|day|week|month|year)s?[ .]+ago")
_STAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?")


def moment(text: str, now: float) -> float | None:
    """Seconds since the epoch that `text` names, or None when it is none of the FORMS."""
    said = " ".join(text.lower().split())
    if said == "now":
        return now
    if said == "yesterday":
        return now - _DAY
    if (ago := _AGO.fullmatch(said)) is not None:
        return now - int(ago.group(1)) * _UNITS[ago.group(2)]
    if (stamp := _STAMP.fullmatch(text.strip())) is not None:
        return _stamp(stamp)
    return None


def _stamp(m: re.Match[str]) -> float | None:
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    whole_day = m.group(4) is None
    hour, minute, second = (23, 59, 59) if whole_day else (int(m.group(4)), int(m.group(5)), int(m.group(6) or 0))
    try:
        naive = datetime(year, month, day, hour, minute, second)
    except ValueError:  # 2026-02-30, 25:00
        return None
    zone = m.group(7)
    if zone is None:
        return naive.timestamp()  # a naive datetime is local time
    if zone == "Z":
        return naive.replace(tzinfo=timezone.utc).timestamp()
    sign = 1 if zone[0] == "+" else -1
    digits = zone[1:].replace(":", "")
    offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return naive.replace(tzinfo=timezone(sign * offset)).timestamp()
