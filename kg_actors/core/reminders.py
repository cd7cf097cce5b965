"""The rotating prompt reminders: which line a prompt hook gives when the server has nothing to say.

The pools are hooks/reminders.txt (read by hooks/prompt.sh itself, and for the other harnesses by
reminder_pools.py); this module parses that text and picks from it, with no I/O.
"""

from __future__ import annotations

Pool = tuple[int | None, tuple[str, ...]]  # (transcript bytes it serves below, None: any; its lines)
LINE_MAX = 300  # characters: a longer line is dropped (hooks/prompt.sh drops it too), a reminder is no page


def parse(text: str) -> tuple[Pool, ...]:
    """The pools in file order; a comment, a blank, a malformed or an overlong line is skipped."""
    pools: list[tuple[int | None, list[str]]] = []
    for raw in text.splitlines():
        bound, _, line = raw.strip().partition(" ")
        if not line or bound.startswith("#") or not (bound == "-" or bound.isdigit()) or len(line) > LINE_MAX:
            continue
        limit = None if bound == "-" else int(bound)
        if pools and pools[-1][0] == limit:
            pools[-1][1].append(line.strip())
        else:
            pools.append((limit, [line.strip()]))
    return tuple((limit, tuple(lines)) for limit, lines in pools)


def pick(pools: tuple[Pool, ...], transcript_bytes: int, turn: int) -> str | None:
    """The line for a session this deep: the first pool whose bound the transcript is under, `turn`
    rotating through it. None when no pool serves it (the file is missing or empty)."""
    for limit, lines in pools:
        if limit is None or transcript_bytes < limit:
            return lines[turn % len(lines)]
    return None
