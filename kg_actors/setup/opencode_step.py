"""OpenCode's setup step against this machine: what is there (the plugin file, mcp.kg in opencode.json) and
the writes. What the entries hold is opencode.py's; when to write them, plan.py's."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import SetupError, opencode
from .entry_refresh import recorded_entry, refreshed
from .files import Record, atomic_write, foreign_entry, missing_folders, read_bytes, unrecorded, writable_mode
from .found import OpenCodeFound
from .plugin import kg_command, passed_env

if TYPE_CHECKING:
    from .plugin import Rendered


def want(plugin: Rendered, env: dict[str, str]) -> tuple[bytes, dict[str, Any]]:
    """The plugin file's bytes and the mcp.kg entry, for this installation."""
    template = plugin.files.get(opencode.PLUGIN)
    if template is None:
        raise SetupError(f"the plugin lacks {opencode.PLUGIN}: reinstall kg-actors")
    passed = passed_env(env)
    return opencode.plugin(template[0], kg_command(), passed), opencode.server(kg_command(), passed)


def found(env: dict[str, str], home: Path, plugin: Rendered, record: Record) -> OpenCodeFound:
    path = opencode.config_path(env, home)
    cli = shutil.which("opencode", path=env.get("PATH"))
    try:
        raw = read_bytes(path)
        data, _commented = opencode.as_opencode_reads(raw, path)
        code, entry = want(plugin, env)
        theirs = data.get("mcp", {}).get(opencode.SERVER)
        current = read_bytes(opencode.plugin_path(env, home)) == code
        recorded = recorded_entry(record, "opencode", theirs, home)
        foreign = foreign_entry(theirs, entry, recorded, unrecorded(record.done("opencode")))
        target = None if theirs is None or foreign else refreshed(theirs, entry, recorded)
        kept = target is not None and theirs == target
        if not foreign and not (kept and current):
            opencode.merged(raw, target or entry, path)  # one setup cannot add mcp.kg to is a problem before any write
    except SetupError as exc:
        return OpenCodeFound(cli, path, True, str(exc))
    return OpenCodeFound(cli, path, cli is not None or path.parent.is_dir(), None, kept and current, foreign, current,
                         target is not None and target != entry, theirs, target, entry)


def by_hand(env: dict[str, str], home: Path, plugin: Rendered) -> str | None:
    """What to add by hand to an opencode.json OpenCode reads but setup cannot add mcp.kg to, with where;
    None for any other."""
    path = opencode.config_path(env, home)
    try:
        raw = read_bytes(path)
        data, _commented = opencode.as_opencode_reads(raw, path)
        _code, entry = want(plugin, env)
    except SetupError:
        return None
    if data.get("mcp", {}).get(opencode.SERVER) == entry:
        return None
    try:
        opencode.merged(raw, entry, path)
        return None
    except SetupError:
        where = 'its "mcp" object' if "mcp" in data else "its top object"
        return f"  (add this to {where} of {path} by hand)\n{opencode.by_hand(entry, data)}"


def _refuse_foreign(target: Path) -> bytes | None:
    before = read_bytes(target)
    if before is not None and not opencode.ours(before):
        raise SetupError(f"{target} exists and is not kg's; left untouched: move it away, then run kg setup again")
    return before


def write(env: dict[str, str], home: Path, record: Record, config: Path, plugin: Rendered) -> None:
    """The plugin and mcp.kg, or neither: OpenCode loads every file in its plugin folder whatever
    opencode.json says, so a config setup cannot change must not find the plugin written beside it."""
    code, entry = want(plugin, env)
    target = opencode.plugin_path(env, home)
    before = _refuse_foreign(target)
    raw = read_bytes(config)
    theirs = opencode.as_opencode_reads(raw, config)[0].get("mcp", {}).get(opencode.SERVER)
    # The user's changes to setup's last entry kept; unreadable or not JSON: fails before any write.
    merged = opencode.merged(raw, refreshed(theirs, entry, recorded_entry(record, "opencode", theirs, home)), config)
    writable_mode(config)  # read-only: the same
    made = missing_folders(target)
    record.note_made("opencode", target, config)
    record.mark("opencode", plugin=str(target))
    record.save()  # on record before it is written: uninstall finds it whatever happens next
    atomic_write(target, code)
    try:
        atomic_write(config, merged)
    except BaseException:
        if before is None:  # put the plugin folder back as it was: nothing of this step left to load
            target.unlink(missing_ok=True)
            for folder in made:
                with contextlib.suppress(OSError):
                    Path(folder).rmdir()
        else:
            atomic_write(target, before)
        raise
    record.mark("opencode", path=str(config), entry=entry)
