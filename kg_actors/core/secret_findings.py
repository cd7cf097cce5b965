"""What a secret rule found, as it may be said: its kind and a masked preview, never the secret."""

from __future__ import annotations

import re

import attrs

MASK_SHOWN_MIN_CHARS = 24  # a secret shorter shows none of its characters in a refusal


_PEM_HEADER = re.compile(r"-----BEGIN [A-Z0-9 ]{1,60}-----")


@attrs.frozen
class Finding:
    kind: str
    preview: str  # masked: enough to recognise it, never the secret


def mask(secret: str, prefixes: tuple[str, ...] = ()) -> str:
    """What a refusal shows of a secret: a PEM header line as it is (a value glued to `-----BEGIN` is none); a
    long one's first four characters and its length; a short one's length alone (four characters of a
    13-character password are a third of it), after the fixed prefix that names its kind (`AKIA`), if it has one."""
    if _PEM_HEADER.fullmatch(secret):  # a header line names the key's format, none of the key
        return secret
    if len(secret) >= MASK_SHOWN_MIN_CHARS:
        shown = secret[:4]
    else:
        shown = next((prefix for prefix in prefixes if secret.startswith(prefix)), "")
    return f"{shown}… ({len(secret)} characters)"
