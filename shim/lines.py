"""The JSON-RPC lines `kg mcp` reads from its client and writes back: pure, standard library only."""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from typing import Any


def utf8_line(message: object) -> bytes:
    """A message as one line of UTF-8."""
    return wire_text(message).encode("utf-8") + b"\n"


def wire_text(message: object) -> str:
    """A message as JSON text that encodes to UTF-8. A string holding half a character (a lone surrogate,
    as a client's id or argument can) has no UTF-8: such a message is written with every non-ASCII
    character escaped, which JSON reads back as the same text."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":"))
    return text


def mended_id(msg_id: object) -> object:
    """An id as the server reads it: each half character (a lone surrogate) U+FFFD (http/body_json.py)."""
    return re.sub("[\ud800-\udfff]", "\ufffd", msg_id) if isinstance(msg_id, str) else msg_id


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_ID_VALUE = re.compile(r'\s*:\s*(-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*"|null)')


def too_deep(line: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": top_level_id(line), "error": {
        "code": -32600, "message": "Invalid Request: the message nests too deep to read"}}


def top_level_id(line: str) -> Any:
    """The `"id"` of a JSON object too deep for json.loads, read by a scan of its outermost level;
    None when it has none there (or none that reads)."""
    depth, i = 0, 0
    while i < len(line):
        c = line[i]
        if c == '"':
            string = _STRING.match(line, i)
            if string is None:
                return None
            i = string.end()
            value = _ID_VALUE.match(line, i) if depth == 1 and string.group() == '"id"' else None
            if value is not None:  # a key (a ':' follows), not a value that reads "id"
                try:
                    return json.loads(value.group(1))
                except ValueError:
                    return None
            continue
        depth += c in "{["
        depth -= c in "}]"
        i += 1
    return None


def replies_in(ctype: str, payload: bytes) -> list[dict[str, Any]] | None:
    """The JSON-RPC messages in a reply body; None when the body holds anything else."""
    if not payload.strip():
        return []
    try:
        if "text/event-stream" in ctype:
            found = [json.loads(chunk[5:].strip()) for chunk in payload.decode("utf-8").split("\n")
                     if chunk.startswith("data:") and chunk[5:].strip()]
        else:
            data = json.loads(payload)
            found = data if isinstance(data, list) else [data]
    except ValueError:
        return None
    if not all(isinstance(m, dict) and m.get("jsonrpc") == "2.0" for m in found):
        return None
    return found
