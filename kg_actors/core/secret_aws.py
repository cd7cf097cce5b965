"""An AWS secret access key: 40 characters of base64 with no prefix, a secret only beside what names it, an
access key id (`AKIA…`, whole or elided) in the same field or in another field of the same entry.

A write refuses it (core/secrecy.py); every path that reads what a hand edit or another machine left (what
agents are shown, the load's scan, `kg doctor`, a sync) reads an entry's fields together by the same rule, so
that a key id in one note and its secret in the next is not shown, pushed or taken in for being two fields."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .secret_findings import Finding, mask
from .secret_lookalikes import placeholder
from .secret_names import OPAQUE_MIN_ENTROPY, classes, entropy, is_path
from .secret_plain import plain
from .secret_shapes import AWS_KEY_ID_SAID, AWS_SECRET_BARE

KIND = "an AWS secret access key (beside its key id)"
_HEX = re.compile(r"[0-9a-fA-F]+")


def key_id_said(text: str) -> bool:
    """Whether `text` names an access key id, whole or elided (`AKIA…W9BN`)."""
    return ("AKIA" in text or "ASIA" in text) and AWS_KEY_ID_SAID.search(text) is not None


def aws_secret(text: str) -> Finding | None:
    """A bare AWS secret access key in `text` (random, not hex, not a path, not AWS's documented example): only
    asked where an access key id stands in the same field or entry."""
    for m in AWS_SECRET_BARE.finditer(text):
        v = m.group(0)
        if (not _HEX.fullmatch(v) and not placeholder(v) and classes(v) >= 3 and not is_path(v)
                and entropy(v) >= OPAQUE_MIN_ENTROPY):
            return Finding(KIND, mask(v))
    return None


def beside(fields: Iterable[tuple[str, object]]) -> dict[str, Finding]:
    """Each named field holding a bare AWS secret access key where a field of the same entry (itself or another)
    names a key id; empty when none names one (most entries: two substring tests a field)."""
    texts = [(name, plain(text)) for name, text in fields if isinstance(text, str) and text]
    if not any(key_id_said(text) for _, text in texts):
        return {}
    return {name: found for name, text in texts if (found := aws_secret(text)) is not None}
