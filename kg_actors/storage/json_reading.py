"""What a parse of a graph (or any store) file noticed beside its JSON: json's hooks, for the builder of what
the file holds to say what a hand edit left in it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


class Reading:
    """What a parse of a file noticed beside its JSON, for the builder of what it holds (a hand-written store):
    `twice` each object key the text held more than once, as (the object parsed, the key, its earlier values:
    JSON readers keep the last one), and `repairs` what was read other than as written (bytes that are not
    UTF-8), which the next save writes as read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.twice: list[tuple[dict[str, Any], str, list[Any]]] = []
        self.repairs: list[str] = []
        # A NaN or Infinity token (what Python's json.dump writes), or a number past a float's range (1e999,
        # read as infinity): no JSON, left out by the builder (core/not_finite.py).
        self.not_finite = False

    def constant(self, name: str) -> float:
        """json's parse_constant: called only for NaN, Infinity and -Infinity, so it costs nothing otherwise."""
        self.not_finite = True
        return float(name)

    def number(self, text: str) -> float:
        """json's parse_float: a number written with a point or an exponent, which json reads as infinity
        unsaid when it is past a float's range (parse_constant never sees it). About 0.15 µs a number."""
        value = float(text)
        if math.isinf(value):
            self.not_finite = True
        return value

    def pairs(self, items: list[tuple[str, Any]]) -> dict[str, Any]:
        """json's object_pairs_hook (costs next to nothing beside the C parser's own dicts)."""
        obj = dict(items)
        if len(obj) != len(items):
            held: dict[str, list[Any]] = {}
            for key, value in items:
                held.setdefault(key, []).append(value)
            self.twice.extend((obj, key, values[:-1]) for key, values in held.items() if len(values) > 1)
        return obj
