"""Whether the wall clock may be trusted by the time rules that destroy or demote (pure; `now` passed in).

Deleting an orphan past its grace, letting a session go after a day idle, and the tick's compaction all
read wall-clock stamps. A clock that moves (a dead RTC, a VM restored from a snapshot, NTP's first
correction of a board that booted without it) makes stamps written before the move look a year old, and
the next tick acted on them: 1,067 lessons were deleted for good a second after a correction.

So each tick compares how far the wall clock moved with how far the boot clock (monotonic, counting
suspend) did since the last tick, and at start the store's last tick stamp with now. A disagreement past
CLOCK_SLACK_S is a jump. Then:

- the rules wait (`held`): until the clock has agreed for CLOCK_STEADY_S (a correction often comes in
  steps, each one restarting the wait), and never longer than CLOCK_HOLD_MAX_S after the first jump of
  a series, so a clock that never settles does not turn them off for good;
- stamps from before the jump count from it (`since`): an orphan's grace and a session's day idle run
  from the jump at the earliest, on the clock as it now is. A jump thus gives each orphan at most one more
  grace period and each session one more day, never less than it had.
"""

from __future__ import annotations

import attrs

CLOCK_SLACK_S = 300.0  # wall and boot clocks may part by this much between ticks (NTP slews far less)
CLOCK_STEADY_S = 3600.0  # the rules wait until the clock has agreed this long since its last jump
CLOCK_HOLD_MAX_S = 86400.0  # ... and never longer than this after the first jump of a series
REPORTED_S = 7 * 86400.0  # kg status and kg doctor name a jump this long after it


@attrs.frozen
class Jump:
    """A move of the wall clock: when it was seen (on the clock as it then was) and by how much."""

    at: float  # wall time of the tick that saw it
    by: float  # seconds: > 0 the clock went ahead, < 0 back


@attrs.frozen
class ClockWatch:
    wall: float | None = None  # the last tick's wall and boot clock readings
    boot: float | None = None
    jump: Jump | None = None  # the latest jump seen (kept in the store: `since` outlives a restart)
    first_boot: float | None = None  # boot clock at the first and the latest jump of the current series
    last_boot: float | None = None

    def held(self, boot: float) -> bool:
        """Whether the rules that destroy or demote wait at this boot clock reading."""
        if self.first_boot is None or self.last_boot is None:
            return False
        return boot - self.last_boot < CLOCK_STEADY_S and boot - self.first_boot < CLOCK_HOLD_MAX_S

    @property
    def since(self) -> float | None:
        """The wall time stamps before which count from it (None: no jump known)."""
        return None if self.jump is None else self.jump.at


def observe(watch: ClockWatch, wall: float, boot: float) -> tuple[ClockWatch, Jump | None]:
    """The watch after a tick at (`wall`, `boot`), and the jump this tick saw, if any."""
    if watch.wall is None:
        return attrs.evolve(watch, wall=wall, boot=boot), None
    moved = (wall - watch.wall) - (boot - (watch.boot if watch.boot is not None else boot))
    if watch.boot is None:  # the store's last tick, read at start: no boot clock spans a restart
        moved = min(0.0, wall - watch.wall)  # only a clock behind the store's own newest stamp tells
    if abs(moved) <= CLOCK_SLACK_S:
        return attrs.evolve(watch, wall=wall, boot=boot), None
    jump = Jump(wall, moved)
    # One series while jumps come within CLOCK_STEADY_S of each other: past CLOCK_HOLD_MAX_S the rules act
    # even while it goes on (a clock that never settles does not turn them off for good).
    steady = watch.last_boot is None or boot - watch.last_boot >= CLOCK_STEADY_S
    first = boot if steady or watch.first_boot is None else watch.first_boot
    return ClockWatch(wall, boot, jump, first, boot), jump


def starting(last_tick: float | None, jump: Jump | None) -> ClockWatch:
    """The watch a server starts with: the store's last tick stamp (boot clock unknown) and its last jump."""
    return ClockWatch(wall=last_tick, jump=jump)


def counted_from(stamp: float | None, since: float | None) -> float | None:
    """A stamp as a time rule counts it: from the latest jump at the earliest."""
    if stamp is None or since is None:
        return stamp
    return max(stamp, since)


def jump_words(jump: Jump) -> str:
    """How the log, `kg status` and `kg doctor` name a jump."""
    days = abs(jump.by) / 86400.0
    size = f"{days:.1f} days" if days >= 1 else f"{abs(jump.by) / 60:.0f} min"
    way = "ahead" if jump.by > 0 else "back"
    return (f"the wall clock jumped {size} {way}: deleting orphans, letting sessions go and the tick's compaction "
            f"wait until it has kept time for {CLOCK_STEADY_S / 3600:g} h (at most {CLOCK_HOLD_MAX_S / 3600:g} h), "
            f"and stamps from before the jump count from it")
