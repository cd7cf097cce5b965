"""Budget notices (spec 000 "Chores"): tell a session once per window to plan its wrap-up, then to wrap up.

Pure: the reading, what this session was already told, and `now` are arguments.
Levels: 80% and 90% of the five-hour window, 90% and 95% of the week. A window
is told each level once; a new window (its reset time moved on) starts afresh.
"""

from __future__ import annotations

import datetime as dt

from .chores import Reading

THRESHOLDS = {"five_hour": (80.0, 90.0), "seven_day": (90.0, 95.0)}
NAMES = {"five_hour": "5-hour", "seven_day": "weekly"}
PLAN = "Plan the wrap-up: finish the current step, reach a commit point, keep the next steps small."
WRAP = "Wrap up now: commit or checkpoint, write the handover and memory updates, then stop or ask the user."

Told = dict[str, tuple[int, float | None]]  # window -> (highest level told, that window's reset time)


def _when(resets: float | None, window: str) -> str:
    if resets is None:
        return ""
    t = dt.datetime.fromtimestamp(resets, dt.UTC)
    return f", resets {t.strftime('%a %H:%M' if window == 'seven_day' else '%H:%M')} UTC"


def notice(reading: Reading, told: Told, now: float) -> tuple[str | None, Told]:
    """The notice due now (None: nothing new), and what the session has been told once it is given."""
    parts: list[str] = []
    advice = 0
    after = dict(told)
    for window, (plan_at, wrap_at) in THRESHOLDS.items():
        pct = reading.five_hour_pct if window == "five_hour" else reading.seven_day_pct
        resets = reading.five_hour_resets_at if window == "five_hour" else reading.seven_day_resets_at
        if pct is None:
            continue
        level = 2 if pct >= wrap_at else 1 if pct >= plan_at else 0
        done, done_resets = told.get(window, (0, None))
        if done_resets != resets:
            done = 0  # a new window
        if level > done:
            parts.append(f"{NAMES[window]} quota at {pct:.0f}%{_when(resets, window)}")
            advice = max(advice, level)
            after[window] = (level, resets)
    if not parts:
        return None, after
    # Both windows in one notice: the advice once, the stronger of the two.
    return f"Budget: {'; '.join(parts)}. {WRAP if advice == 2 else PLAN}", after


def told_to_json(told: dict[str, Told]) -> dict[str, dict[str, list[float | int | None]]]:
    return {sid: {w: [level, resets] for w, (level, resets) in windows.items()} for sid, windows in told.items()}


def told_from_json(data: object) -> dict[str, Told]:
    """What budget_told.json holds, every malformed entry left out (that session may be told once more)."""
    out: dict[str, Told] = {}
    for sid, windows in (data.items() if isinstance(data, dict) else ()):
        if not isinstance(sid, str) or not isinstance(windows, dict):
            continue
        entry: Told = {}
        for w, pair in windows.items():
            if w not in THRESHOLDS or not isinstance(pair, list) or len(pair) != 2:
                continue
            level, resets = pair
            if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 2 and (
                    resets is None or (isinstance(resets, int | float) and not isinstance(resets, bool))):
                entry[w] = (level, None if resets is None else float(resets))
        out[sid] = entry
    return out
