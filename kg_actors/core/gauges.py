"""Quota gauges: pure parsers over what each harness leaves on disk, each giving a Reading or a refusal.

Claude Code pipes its plan's `rate_limits` only to the status-line command, so
`kg gauge` records each frame (`claude_record`) and `claude_reading` reads the
record back. Codex writes `token_count` events with `rate_limits` into its
rollout files (`codex_reading`). Antigravity answers `agy -p /usage
--output-format json` (`agy_reading`, from its documented shape only).

A reading's age is that of its oldest window. A number that is not finite or
is negative, a time in the future, or a reset further ahead than its window's
own length (5 hours, 7 days) makes the reading inconsistent: the
answer is a string saying why, and a run is refused on it. A use over 100%
(past the plan's limit, or a harness's odd number) reads as 100%: the quota
used up, which refuses every run and replaces a lower reading, without a
"quota at 150%" in every prompt's notice.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from . import strict_json
from .chores import Reading

WINDOWS = ("five_hour", "seven_day")
CODEX_WINDOWS = {300: "five_hour", 10080: "seven_day"}  # window_minutes -> ours
FUTURE_SLACK = 1.0  # seconds a harness clock may run ahead of ours
WINDOW_SECONDS = {"five_hour": 5 * 3600.0, "seven_day": 7 * 86_400.0}
# A window resets at most its own length after it was read; the slack covers a harness rounding its reset
# time and clocks that disagree a little. Further ahead, the reading is inconsistent.
RESET_SLACK = 900.0


def _number(v: object) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return float(v)


def _pct(v: object, where: str) -> float | str:
    # Over 100 is the quota used up: dropped, it would leave an older, lower reading standing. It is kept as
    # read (the log says it), and a Reading holds it as 100 (_windows).
    n = _number(v)
    if n is None or not math.isfinite(n) or n < 0:
        return f"{where}: {v!r} is not a percentage (a number from 0)"
    return n


def over_limit(frame: object) -> list[str]:
    """The windows of a status-line frame whose use is over 100 (read as 100), named with their value."""
    limits = frame.get("rate_limits") if isinstance(frame, dict) else None
    out = []
    for w in WINDOWS:
        window = limits.get(w) if isinstance(limits, dict) else None
        if not isinstance(window, dict) or isinstance(_reset(window.get("resets_at"), w), str):
            continue  # not a window the reading records
        used = _number(window.get("used_percentage"))
        if used is not None and math.isfinite(used) and used > 100:
            out.append(f"{w} used_percentage {window['used_percentage']!r}")
    return out


def not_read(frame: object) -> list[str]:
    """Why each window a status-line frame holds is not taken as a reading (the earlier one stands)."""
    limits = frame.get("rate_limits") if isinstance(frame, dict) else None
    out = []
    for w in WINDOWS:
        window = limits.get(w) if isinstance(limits, dict) else None
        if isinstance(window, dict):
            out += [why for why in (_pct(window.get("used_percentage"), w), _reset(window.get("resets_at"), w))
                    if isinstance(why, str)]
    return out


def _reset(v: object, where: str) -> float | None | str:
    if v is None:
        return None
    n = _number(v)
    if n is None or not math.isfinite(n) or n <= 0:
        return f"{where}: {v!r} is not a positive time"
    return n


def _span(seconds: float) -> str:
    return f"{seconds / 86_400:.1f} days" if seconds >= 2 * 86_400 else f"{seconds / 3600:.1f} hours"


def _windows(values: Mapping[str, tuple[float, float | None, float]], source: str, now: float) -> Reading | str:
    """(pct, resets_at, seen_at) per window -> a Reading; a window whose reset has passed reads 0."""
    if not values:
        return "no quota window in the reading"
    out: dict[str, Any] = {}
    for w in WINDOWS:
        if w in values:
            pct, resets, seen = values[w]
            if seen > now + FUTURE_SLACK:
                return f"{w} reading is from the future"
            if resets is not None and resets > seen + WINDOW_SECONDS[w] + RESET_SLACK:
                return (f"{w} resets {_span(resets - seen)} after it was read, further ahead than the window's "
                        f"own {_span(WINDOW_SECONDS[w])}")
            passed = resets is not None and resets <= now
            out[f"{w}_pct"] = 0.0 if passed else min(pct, 100.0)
            out[f"{w}_resets_at"] = resets
            out[f"{w}_raw"] = pct if pct > 100 and not passed else None
    seen_at = min(v[2] for v in values.values())
    return Reading(source, out.get("five_hour_pct"), out.get("seven_day_pct"), out.get("five_hour_resets_at"),
                   out.get("seven_day_resets_at"), seen_at, out.get("five_hour_raw"), out.get("seven_day_raw"))


# Claude Code ---------------------------------------------------------------------------

def claude_record(frame: object, previous: object, now: float) -> dict[str, Any] | None:
    """The gauge file's next content for one status-line frame; None: keep the file as it is.

    A window the frame lacks keeps its earlier value and its earlier `seen_at`, so
    the reading ages; a frame with no usable window never overwrites.
    """
    if not isinstance(frame, dict) or not isinstance(frame.get("rate_limits"), dict):
        return None
    limits = frame["rate_limits"]
    record = {k: v for k, v in previous.items()} if isinstance(previous, dict) else {}
    fresh = False
    for w in WINDOWS:
        window = limits.get(w)
        if not isinstance(window, dict):
            continue
        pct = _pct(window.get("used_percentage"), w)
        resets = _reset(window.get("resets_at"), w)
        if isinstance(pct, str) or isinstance(resets, str):
            continue  # a malformed window is not a reading: the earlier one stands (and ages)
        record.update({f"{w}_pct": pct, f"{w}_resets_at": resets, f"{w}_seen_at": now})
        fresh = True
    if not fresh:
        return None
    record["updated_at"] = now
    return record


def claude_reading(record: object, now: float) -> Reading | str:
    if not isinstance(record, dict):
        return "gauge file is not a JSON object"
    values: dict[str, tuple[float, float | None, float]] = {}
    for w in WINDOWS:
        if f"{w}_pct" not in record:
            continue
        pct = _pct(record.get(f"{w}_pct"), f"{w}_pct")
        resets = _reset(record.get(f"{w}_resets_at"), f"{w}_resets_at")
        seen = _number(record.get(f"{w}_seen_at"))
        if isinstance(pct, str):
            return pct
        if isinstance(resets, str):
            return resets
        if seen is None or not math.isfinite(seen) or seen <= 0:
            return f"{w}_seen_at: {record.get(f'{w}_seen_at')!r} is not a time"
        values[w] = (pct, resets, seen)
    return _windows(values, "claude", now)


# Codex ---------------------------------------------------------------------------------

def _iso_ts(v: object) -> float | None:
    """An ISO timestamp that names its zone (Codex writes `...Z`); a naive one is no evidence."""
    if not isinstance(v, str):
        return None
    try:
        when = dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.timestamp() if when.tzinfo is not None else None


def codex_event(line: str, now: float) -> Reading | str | None:
    """One rollout line: a Reading when it is a `rate_limits` event, a refusal when it is a broken one."""
    if '"rate_limits"' not in line:
        return None
    try:
        record = strict_json.loads(line)
    except ValueError:
        # A whole line (codex_tail drops one still being written): an event no reader can take refuses.
        return "rate_limits event is not readable JSON"
    payload = record.get("payload") if isinstance(record, dict) else None
    limits = payload.get("rate_limits") if isinstance(payload, dict) else None
    if not isinstance(limits, dict):
        return None
    ts = _iso_ts(record.get("timestamp"))
    if ts is None:
        return "rate_limits event without a zoned timestamp"
    values: dict[str, tuple[float, float | None, float]] = {}
    for slot in ("primary", "secondary"):
        window = limits.get(slot)
        if not isinstance(window, dict):
            continue
        name = CODEX_WINDOWS.get(window.get("window_minutes"))  # type: ignore[arg-type]
        if name is None:
            continue
        pct = _pct(window.get("used_percent"), f"{slot}.used_percent")
        resets = _reset(window.get("resets_at"), f"{slot}.resets_at")
        if isinstance(pct, str):
            return pct
        if isinstance(resets, str):
            return resets
        values[name] = (pct, resets, ts)
    return _windows(values, "codex", now)


_TIMESTAMP = re.compile(r'"timestamp"\s*:\s*"([^"]{1,64})"')


def codex_tail_at(text: str, now: float, cut: bool) -> tuple[Reading | str | None, float | None]:
    """The newest rate_limits event in one rollout's tail, and when it was written (None: it does not say).
    `cut`: the tail starts mid-file (its first line is dropped)."""
    lines = text.split("\n")[:-1]  # after the last newline: a line still being written (or nothing)
    if cut:
        lines = lines[1:]
    for line in reversed(lines):
        found = codex_event(line, now)
        if found is not None:
            if isinstance(found, Reading):
                return found, found.seen_at
            stamp = _TIMESTAMP.search(line)  # a broken event's time, read without parsing it
            return found, _iso_ts(stamp.group(1)) if stamp else None
    return None, None


def codex_tail(text: str, now: float, cut: bool) -> Reading | str | None:
    return codex_tail_at(text, now, cut)[0]


def newest(events: Iterable[tuple[Reading | str | None, float]]) -> Reading | str:
    """Across rollout files, (each file's newest event, when it was written): the newest event decides. A broken
    one refuses even when an older file holds a good one (a stale reading must not permit spending), and so
    do events of one moment that disagree."""
    found = [(r, at) for r, at in events if r is not None]
    if not found:
        return "no recent Codex rollout with a rate_limits event"
    latest = max(at for _, at in found)
    top = {r for r, at in found if at == latest}
    best = next(r for r, at in found if at == latest)
    if len(top) > 1:
        return "two rollouts disagree at the same moment"
    return best


# Antigravity ---------------------------------------------------------------------------

_AGY_WINDOWS = {"weekly": "seven_day", "five_hour": "five_hour", "5h": "five_hour"}


def agy_reading(data: object, now: float, model: str | None = None) -> Reading | str:
    """`agy -p /usage --output-format json`: `command.data.groups[].buckets[]` with `window` and
    `remaining_fraction` (and `reset_time`, epoch seconds). The run's model picks the group
    (Gemini's unless a Claude or GPT model is set). Read now: its age is zero."""
    command = data.get("command") if isinstance(data, dict) else None
    body = command.get("data") if isinstance(command, dict) else None
    groups = body.get("groups") if isinstance(body, dict) else None
    if not isinstance(groups, list) or not groups:
        return "no usage groups: an API key, or not signed in"
    want = "gemini"
    if model and any(k in model.lower() for k in ("claude", "gpt")):
        want = "other"
    chosen = None
    for g in groups:
        name = str(g.get("name", "")).lower() if isinstance(g, dict) else ""
        if (want == "gemini") == ("gemini" in name):
            chosen = g
            break
    if chosen is None:
        return f"no usage group for the {want} models"
    values: dict[str, tuple[float, float | None, float]] = {}
    for bucket in chosen.get("buckets") or []:
        if not isinstance(bucket, dict) or bucket.get("window") not in _AGY_WINDOWS:
            continue
        left = _number(bucket.get("remaining_fraction"))
        if left is None or not math.isfinite(left) or not 0 <= left <= 1:
            return f"remaining_fraction: {bucket.get('remaining_fraction')!r} is not a fraction"
        resets = _reset(bucket.get("reset_time"), "reset_time")
        if isinstance(resets, str):
            return resets
        values[_AGY_WINDOWS[bucket["window"]]] = (round((1 - left) * 100, 1), resets, now)
    return _windows(values, "antigravity", now)
