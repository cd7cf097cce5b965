"""The chores step: setup offers to switch background chores on, as `"enabled": true` in the store's chores.json
(its other keys kept). Only when asked: a run spends the user's plan quota, so `--yes` leaves them off and says how
to switch them on. Uninstall puts the file back (whole when unchanged since, else only "enabled")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..chores.config import FILE_NAME
from ..core import strict_json
from ..core.chores import parse_config
from . import SetupError
from .files import UNTOUCHED, json_like, read_bytes
from .found import ChoresFound

STAY_OFF = ("stay off (they spend your plan's quota, so --yes never switches them on); `kg setup --only chores` "
            "asks to switch them on")


def path_of(store: Path) -> Path:
    return store / FILE_NAME


def found(store: Path) -> ChoresFound:
    path = path_of(store)
    try:
        raw = read_bytes(path)
    except SetupError as exc:
        return ChoresFound(path, error=str(exc))
    config = parse_config(raw)  # as the server reads it, KG_CHORES aside (the server's environment, not setup's)
    if config.warning:
        return ChoresFound(path, error=f"{path}: {config.warning.removeprefix('chores.json: ')}; {UNTOUCHED}")
    return ChoresFound(path, config.enabled)


def _data(raw: bytes | None, path: Path) -> dict[str, Any]:
    try:
        data = strict_json.loads(raw) if raw else {}
    except ValueError as exc:
        raise SetupError(f"{path}: not valid JSON ({exc}); {UNTOUCHED}") from None
    if not isinstance(data, dict):
        raise SetupError(f"{path}: it must hold a JSON object; {UNTOUCHED}")
    return data


def switched_on(raw: bytes | None, path: Path) -> bytes:
    return json_like({**_data(raw, path), "enabled": True}, raw)


def switched_back(raw: bytes, path: Path, before: bytes | None) -> bytes | None:
    """The file with "enabled" as it was before setup (absent: taken out), the rest as it is now; None when it
    already is (the user switched chores off since)."""
    data, had = _data(raw, path), _data(before, path)
    out = {k: v for k, v in data.items() if k != "enabled"}
    if "enabled" in had:
        out["enabled"] = had["enabled"]
    return None if out == data else json_like(out, raw)
