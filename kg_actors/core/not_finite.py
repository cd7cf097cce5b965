"""Numbers no JSON holds (NaN, Infinity, -Infinity), found in a graph file and left out, named where each was.

Python's `json.dump` writes them by default and reads `1e999` as infinity, so a hand edit leaves them;
taken as numbers they were saved back as no JSON, and every JSON reply holding them failed (the editor's
node view, the graph read). Pure: the caller says the lines and keeps the file as it was.
"""

from __future__ import annotations

import math
from typing import Any

_NAMES = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _bad(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _where(path: tuple[str | int, ...]) -> str:
    def dotted(parts: tuple[str | int, ...]) -> str:
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")

    if len(path) > 2 and path[0] == "nodes":
        return f"node '{path[1]}': {dotted(path[2:])}"
    return f"'{dotted(path)}'"


def left_out(raw: Any) -> list[str]:
    """Each non-finite number in `raw` taken out of it in place (a list loses the item, an object the key),
    one line each naming where it was. A walk with its own stack: never recursion."""
    said: list[str] = []
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(raw, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key in [k for k, v in item.items() if _bad(v)]:
                said.append(f"{_where((*path, key))} held {_NAMES[repr(item.pop(key))]}, not a JSON number: left out")
            stack.extend((v, (*path, k)) for k, v in item.items() if isinstance(v, dict | list))
        elif isinstance(item, list):
            for i in [i for i, v in enumerate(item) if _bad(v)]:
                said.append(f"{_where((*path, i))} held {_NAMES[repr(item[i])]}, not a JSON number: left out")
            item[:] = [v for v in item if not _bad(v)]
            stack.extend((v, (*path, i)) for i, v in enumerate(item) if isinstance(v, dict | list))
    return sorted(said)
