"""Request bodies as the handlers may take them: UTF-8 without a BOM, lone surrogates mended, or refused where stored.

`"\\ud800"` alone is valid JSON but no character: Node's JSON.stringify writes it for a string
cut inside an emoji. Held in a str it cannot be encoded to UTF-8, so a gist or a session id
carrying one failed the write that stored it. Each lone surrogate becomes U+FFFD, as a decoder
replaces a broken byte; a body without a surrogate escape (nearly all) is only searched once.
A tool call's arguments and an editor write's body are not mended but refused, naming the field
(`half_character`): mended, a gist would be stored with a character it never held, unsaid.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.errors import InvalidInput

_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # where a surrogate can come from: raw UTF-8 cannot hold one
_LONE = re.compile("[\ud800-\udfff]")  # json.loads joins every proper pair: what is left is alone


_BOM = b"\xef\xbb\xbf"


def utf8_body(body: bytes) -> tuple[bytes, str | None]:
    """The body as every parser here reads it (the SDK's too): UTF-8 without a byte-order mark, which JSON
    lets a reader ignore (RFC 8259 8.1). A body in UTF-16 or 32, which json.loads alone guessed and the SDK
    did not, is refused, naming the rule: (body, None) or (body, why)."""
    if body.startswith(_BOM):
        return body[len(_BOM):], None
    encoding = json.detect_encoding(body)
    if encoding != "utf-8":
        return body, (f"Parse error: the body is not UTF-8 (it reads as {encoding.upper()}); "
                      "send JSON-RPC as UTF-8")
    return body, None


def may_hold_half(body: bytes) -> bool:
    """Whether the raw body has a surrogate escape: without one no string of it holds a lone surrogate."""
    return _ESCAPE.search(body) is not None


def mend(body: bytes) -> bytes:
    """The body with each lone surrogate read as U+FFFD (re-encoded only when it has a surrogate escape)."""
    if not may_hold_half(body):
        return body
    try:
        value = json.loads(body)
        params = value.get("params") if isinstance(value, dict) and value.get("method") == "tools/call" else None
        if isinstance(params, dict) and "arguments" in params:
            # Left for the tool boundary to refuse, naming the field (Tools.call): json.dumps escapes them.
            value = {**mended({**value, "params": None}), "params": {**mended({**params, "arguments": None}),
                                                                     "arguments": params["arguments"]}}
            return json.dumps(value).encode()
        return json.dumps(mended(value)).encode()
    except (ValueError, RecursionError):
        return body  # not JSON, or nested too deep: its parser says so


def mended(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {mended(k): mended(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mended(v) for v in value]
    return value


def half_character(value: Any, path: str = "") -> InvalidInput | None:
    """The refusal of the first lone surrogate in a JSON value, named by its path (`notes[2]`, `state.log`;
    a key by the path it leads to), or None."""
    if isinstance(value, str):
        half = _LONE.search(value)
        return None if half is None else InvalidInput(
            path or "body", f"holds half of a character (U+{ord(half.group()):04X}, a lone surrogate: a string "
                            "cut inside an emoji?); send whole characters")
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        name = mended(k)  # a key's own half, shown as U+FFFD: the refusal must encode
        inner = f"{path}[{k}]" if isinstance(k, int) else f"{path}.{name}" if path else str(name)
        found = half_character(k, inner) if isinstance(k, str) else None
        found = found or half_character(v, inner)
        if found is not None:
            return found
    return None
