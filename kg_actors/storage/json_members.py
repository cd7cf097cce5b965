"""A large JSON object read member by member, for a worker thread beside the event loop.

`json.loads` holds the interpreter for the whole text (0.4 s for a 14 MB graph): run in a worker thread, it
still kept the loop's thread, and so every hook, waiting that long. Decoding one member at a time hands the
interpreter back between members. What it accepts and refuses is `json.loads`'s (ValueError; RecursionError
for nesting past the interpreter's depth).
"""

from __future__ import annotations

import json
from collections.abc import Callable

_DECODER = json.JSONDecoder()
_WHITE = (" ", "\t", "\n", "\r")


def text_of(raw: bytes) -> str:
    """The text of a JSON file's bytes, in the encoding json.loads would read it in."""
    return raw.decode(json.detect_encoding(raw), "surrogatepass")


def walk_object(text: str, read_member: Callable[[str, int], int]) -> None:
    """Walk the JSON object that is the whole of `text`: `read_member(key, start)` reads each member's value
    from `start` (with `decode`, `skip` or `members`) and returns where it ends."""
    end = members(text, _space(text, 0), read_member)
    if _space(text, end) != len(text):
        raise ValueError(f"extra data after the JSON object at {end}")


def decode(text: str, i: int) -> tuple[object, int]:
    """The JSON value starting at `i`, decoded whole (a small one), and where it ends."""
    value, end = _DECODER.raw_decode(text, i)
    return value, end


def skip(text: str, i: int) -> int:
    """Where the JSON value starting at `i` ends, an object or array read member by member."""
    opening = text[i:i + 1]
    if opening == "{":
        return members(text, i, lambda key, start: skip(text, start))
    if opening == "[":
        return _items(text, i)
    return decode(text, i)[1]


def members(text: str, i: int, read_member: Callable[[str, int], int]) -> int:
    """Walk the JSON object starting at `i` (as `walk_object`); where it ends."""
    if text[i:i + 1] != "{":
        raise ValueError(f"expected an object at {i}")
    i = _space(text, i + 1)
    if text[i:i + 1] == "}":
        return i + 1
    while True:
        key, i = decode(text, i)
        if not isinstance(key, str):
            raise ValueError(f"expected a member's name at {i}")
        i = _space(text, i)
        if text[i:i + 1] != ":":
            raise ValueError(f"expected ':' at {i}")
        i = _space(text, read_member(key, _space(text, i + 1)))
        if text[i:i + 1] == "}":
            return i + 1
        if text[i:i + 1] != ",":
            raise ValueError(f"expected ',' or '}}' at {i}")
        i = _space(text, i + 1)


def _space(text: str, i: int) -> int:
    """Where the white space from `i` ends."""
    while text[i:i + 1] in _WHITE:
        i += 1
    return i


def _items(text: str, i: int) -> int:
    i = _space(text, i + 1)
    if text[i:i + 1] == "]":
        return i + 1
    while True:
        i = _space(text, skip(text, i))
        if text[i:i + 1] == "]":
            return i + 1
        if text[i:i + 1] != ",":
            raise ValueError(f"expected ',' or ']' at {i}")
        i = _space(text, i + 1)
