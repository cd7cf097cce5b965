"""A task's progress state holding a secret that no checked write put there (a hand edit, an older kg, a state
saved before kg_progress read states for secrets): found by the rule a write refuses it by
(core/secret_state.py), for the load's scan, `kg doctor`, a commit and a sync (core/held_secrets.py) to name,
and shown to agents with a marker in each field's place (core/withheld.py's), as a node's field is.

A task whose id holds one is a name: an agent asking for it is answered as for a task never saved, as a node
whose id holds one is answered as not found."""

from __future__ import annotations

import functools
import json
from typing import Any

from .secret_findings import Finding
from .secret_state import state_findings
from .secrecy import check_fields, find
from .withheld import marker

JOINT = " joined to "
TASK_ID = "task_id"


# A stored state is read again at each write (its trail carried over, entry by entry) and each read of the task:
# the same entries each time, ~0.5 ms a key for the rules, on the loop (a 56-key state with its 20-entry trail
# took 0.2-0.5 s a write and a read). Its findings are kept by its JSON; a state larger than this is read afresh
# (reads take a state apart, so what is kept is mostly one trail entry's: a few KB; at most ~8 MB in all).
_CACHED_MAX_CHARS = 32 * 1024


def progress_fields(task_id: str, state: Any) -> list[tuple[str, Finding]]:
    """Each field (`task_id`, `state.done[1]`, `state._trail[0].done[1]`) of a stored state holding a secret,
    once each, in the order a write checks them (a key split across items names its items as one)."""
    try:
        dumped = json.dumps(state, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        dumped = None
    if dumped is None or len(dumped) > _CACHED_MAX_CHARS:
        return _progress_fields(task_id, state)
    return list(_fields_of(task_id, dumped))


@functools.lru_cache(maxsize=256)
def _fields_of(task_id: str, dumped: str) -> tuple[tuple[str, Finding], ...]:
    return tuple(_progress_fields(task_id, json.loads(dumped)))


def _progress_fields(task_id: str, state: Any) -> list[tuple[str, Finding]]:
    out: dict[str, Finding] = {}
    for name, found in state_findings(task_id, state):
        # A key's shape runs on into the next item (`… ghp_…` and "revoked old key"): a text joined with an item
        # holding one by itself names no other item, as a node's notes are read (core/joined_held.py).
        if JOINT not in name or not any(part in out for part in name.split(JOINT)):
            out.setdefault(name, found)
    return list(out.items())


def state_shown(task_id: str, state: Any) -> Any:
    """`state` as an agent is shown it: each string holding a secret (or a part of a key split across items)
    replaced by the marker; None when the task id itself holds one (the task is not shown at all)."""
    if not isinstance(state, dict):
        return state
    held: dict[str, str] = {}
    for name, found in _fields_by_part(task_id, state):
        for field in name.split(JOINT):
            held.setdefault(field, found.kind)
    if TASK_ID in held:
        return None
    return _shown(state, "state", held) if held else state


def _fields_by_part(task_id: str, state: dict[str, Any]) -> list[tuple[str, Finding]]:
    """progress_fields of the state read as its parts: the state without its trail, then each trail entry (no
    rule joins items across them), each part's findings kept, so a read after a write reads only its new entry."""
    trail = state.get("_trail")
    if not isinstance(trail, list):
        return progress_fields(task_id, state)
    out = progress_fields(task_id, {k: v for k, v in state.items() if k != "_trail"})
    for i, entry in enumerate(trail):
        out += [(name.replace("state._trail[0]", f"state._trail[{i}]"), found)
                for name, found in progress_fields("", {"_trail": [entry]})]
    return out


def _shown(value: Any, name: str, held: dict[str, str]) -> Any:
    """The value with each string at a held path a marker, named as secrecy.strings_in names them."""
    if isinstance(value, str):
        return marker(held[name]) if name in held else value
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for i, (key, inner) in enumerate(value.items()):
            if find(str(key)) is not None:  # a key holding one: named by its place, as a write's refusal names it
                path = f"{name}.<key {i + 1}>"
                out[f"<key {i + 1}>"] = marker(held.get(path) or _kind(str(key)))
                continue
            path = f"{name}.{key}"
            out[key] = marker(held[path]) if path in held and isinstance(inner, str) else _shown(inner, path, held)
        return out
    if isinstance(value, list | tuple):
        return [_shown(inner, f"{name}[{i}]", held) for i, inner in enumerate(value)]
    return value


def _kind(text: str) -> str:
    found = check_fields([("", text)])
    return found[1].kind if found is not None else "a secret"


def trail_kept(trail: list[Any]) -> list[Any]:
    """A stored trail as a write carries it over: each entry holding a secret left out (the write's own state
    was checked whole; what a hand edit left in the trail must not stay with it)."""
    return [entry for entry in trail if not progress_fields("", {"_trail": [entry]})]
