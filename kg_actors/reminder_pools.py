"""Where the prompt reminders' pools are (hooks/reminders.txt, the file hooks/prompt.sh reads), read once."""

from __future__ import annotations

import functools
from pathlib import Path

from .core import reminders

FILE = Path("hooks") / "reminders.txt"


@functools.cache
def pools() -> tuple[reminders.Pool, ...]:
    """The pools as shipped in the package (kg_actors/plugin/) or in the checkout an editable install runs
    from; none when the file is missing or does not read (the harness then gets no reminder)."""
    package = Path(__file__).resolve().parent
    for root in (package / "plugin", package.parent):
        try:
            return reminders.parse((root / FILE).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return ()
