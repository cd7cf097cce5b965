"""Values a client sends as free JSON (a task's progress state), checked before they are stored.

Python's JSON reads `NaN` and `1e999` (infinity), and writes them back as bare `NaN` /
`Infinity`: not JSON, so every reader of the stored file (the editor's progress view among
them) failed on one such number. Nesting is bounded too: a state is a record, not a tree,
and a value nested ~1,000 deep cannot be written by a recursive encoder at all. Its size is bounded
like a node's text.
"""

from __future__ import annotations

import json
import math

from .errors import InvalidInput
from .plain_text import check_text
from .schema_words import preview

DEPTH_MAX = 32
CHARS_MAX = 65_536  # a state is a task's notes to itself: 1 MB states made user.json 3 MB


def check_plain(value: object, field: str, depth: int = 0) -> None:
    """Refuse a non-finite number, a control character in a text (a key's or a value's) or nesting deeper
    than DEPTH_MAX, naming where (`state.eta`)."""
    if depth > DEPTH_MAX:
        raise InvalidInput(field, f"is nested deeper than {DEPTH_MAX} levels")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(field, "must be a finite number (not NaN or Infinity)")
    if isinstance(value, str):
        check_text(value, field)
    if isinstance(value, dict):
        for key, inner in value.items():
            check_text(str(key), f"{field} key {preview(str(key))}")
            check_plain(inner, f"{field}.{key}", depth + 1)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            check_plain(inner, f"{field}[{i}]", depth + 1)


def check_size(value: object, field: str) -> None:
    """Refuse a value whose JSON is over CHARS_MAX characters (after `check_plain`: it encodes)."""
    size = len(json.dumps(value, ensure_ascii=False))
    if size > CHARS_MAX:
        raise InvalidInput(field, f"is {size:,} characters as JSON; at most {CHARS_MAX:,}")
