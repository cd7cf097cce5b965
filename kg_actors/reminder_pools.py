"""Where the prompt reminders' pools are (hooks/reminders.txt, the file hooks/prompt.sh reads), read once."""

from __future__ import annotations

import functools
from pathlib import Path

from .core import reminders
from .storage import user_files

FILE = Path("hooks") / "reminders.txt"


@functools.cache
def pools() -> tuple[reminders.Pool, ...]:
    """The pools as shipped in the package (kg_actors/plugin/) or in the checkout an editable install runs
    from; none when the file is missing or does not read (the harness then gets no reminder)."""
    package = Path(__file__).resolve().parent
    for root in (package / "plugin", package.parent):
        try:
            return reminders.parse(user_files.read_bytes(root / FILE).decode("utf-8"))  # a FIFO: OSError
        except (OSError, UnicodeDecodeError):
            continue
    return ()
