"""JSON from files a user or an agent wrote (chores.json, gauge files, rollout lines, agy's output).

Python's own parser lets through what later arithmetic or recursion trips
on: `1e999999` reads as infinity, a 400-digit integer raises OverflowError when
compared to a float, and `[[[...` deep raises RecursionError in the parser or
in whatever walks the value next. Here all of that is one ValueError, so a
caller treats such a file exactly as it treats a torn one.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64  # far deeper than any file these readers take; shallow enough for any recursive walk after
MAX_INT_DIGITS = 300  # beyond this an integer does not fit a float (1.8e308)


class NotJSON(ValueError):
    """The text is not JSON a reader can use; the message says why."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NotJSON(f"a number of {len(text)} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotJSON(f"the number {text[:40]} is too large")
    return value


def _constant(name: str) -> Any:
    raise NotJSON(f"{name} is not a JSON number")


def _too_deep(value: Any) -> bool:
    """Whether containers nest past MAX_DEPTH (a walk with its own stack: never recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def loads(raw: bytes | str) -> Any:
    """The value, or NotJSON: not JSON, not UTF-8, a number no float holds, or nested past MAX_DEPTH."""
    try:
        value = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except NotJSON:
        raise
    except RecursionError:
        raise NotJSON(f"nested more than {MAX_DEPTH} deep") from None
    except (ValueError, TypeError) as exc:  # UnicodeDecodeError is a ValueError
        raise NotJSON(str(exc)) from None
    if _too_deep(value):
        raise NotJSON(f"nested more than {MAX_DEPTH} deep")
    return value
