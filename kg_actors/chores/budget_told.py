"""budget_told.json in the store: what each harness session was told, so a restart does not tell it again.

Read once (worker thread) on the first notice after start; written whole and
atomically after each new notice. An unreadable file is a fresh start (a
session may then be told a level once more), never a failure.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..core import budget
from ..storage import files, user_files

log = logging.getLogger(__name__)

FILE_NAME = "budget_told.json"


def load(root: Path) -> dict[str, budget.Told]:
    try:
        data = user_files.load_json(root / FILE_NAME)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("%s is unreadable (%s): sessions may be told a budget level again", root / FILE_NAME, exc)
        return {}
    return budget.told_from_json(data)


def save(root: Path, told: dict[str, budget.Told]) -> None:
    try:
        files.write_atomic(root / FILE_NAME, files.dump_json(budget.told_to_json(told), None), False)
    except OSError as exc:
        log.warning("could not save %s: %s", root / FILE_NAME, exc)
