"""One `kg doctor` check run so that whatever it runs into ends that check alone: the others still run and the
summary line still ends the report (a store folder doctor may not enter ended it mid-way, in cli.py's generic
error, with no later check and no summary)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from ..storage import read_refusals

T = TypeVar("T")


class Fails(Protocol):
    def bad(self, what: str, said: str, fix: str) -> None: ...


def guarded(r: Fails, what: str, check: Callable[[], T], otherwise: T) -> T:
    """`check()`'s result, or `otherwise` once a FAIL line names what stopped it."""
    try:
        return check()
    except OSError as exc:
        r.bad(what, *_os_said(exc))
    except Exception as exc:  # noqa: BLE001 - a bug of kg's in one check: said, and the others run
        r.bad(what, f"this check stopped on an error of kg's: {exc!r}; the checks after it ran",
              "run kg doctor again; if it says the same, report it with this line")
    return otherwise


def _os_said(exc: OSError) -> tuple[str, str]:
    name = errno.errorcode.get(exc.errno or 0, str(exc.errno))
    where = Path(os.fsdecode(exc.filename)) if exc.filename is not None else None
    stopped = f"this check stopped: {exc.strerror or exc} ({name})"
    if where is None:
        return f"{stopped}; the checks after it ran", "fix what it names, then run kg doctor again"
    if exc.errno in read_refusals.PERMISSION:
        refused, fix = read_refusals.access_fix(where)
        return (f"{stopped}: {refused} by this user (kg doctor's, and the server's when it runs as you); "
                "the checks after it ran", f"{fix}, then run kg doctor again")
    return (f"{stopped} at {where}; the checks after it ran",
            f"check that {where} exists and is what the store put there, then run kg doctor again")
