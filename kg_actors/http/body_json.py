"""Request bodies as the handlers may take them: lone surrogates mended.

`"\\ud800"` alone is valid JSON but no character: Node's JSON.stringify writes it for a string
cut inside an emoji. Held in a str it cannot be encoded to UTF-8, so a gist or a session id
carrying one failed the write that stored it. Each lone surrogate becomes U+FFFD, as a decoder
replaces a broken byte; a body without a surrogate escape (nearly all) is only searched once.
"""

from __future__ import annotations

import json
import re
from typing import Any

_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # where a surrogate can come from: raw UTF-8 cannot hold one
_LONE = re.compile("[\ud800-\udfff]")  # json.loads joins every proper pair: what is left is alone


def mend(body: bytes) -> bytes:
    """The body with each lone surrogate read as U+FFFD (re-encoded only when it has a surrogate escape)."""
    if _ESCAPE.search(body) is None:
        return body
    try:
        return json.dumps(mended(json.loads(body))).encode()
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
