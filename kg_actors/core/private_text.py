"""`<private>...</private>`: text the writer marks as never to be stored, cut out of every field before a
write is checked for secrets (core/secrecy.py) and stored."""

from __future__ import annotations

import re
from typing import Any

# A `<private>` tag as markup writes one: `<private>` or `<private name=value ...>`, with spaces or line breaks
# inside and in fullwidth brackets too (＜private＞). Not `<private key file>`, `<private hidden>` (bare words),
# `< private>`, nor `public < protected < private > internal`: text, whose rest such a "tag" used to hide.
# Possessive, and no value holds a bracket: a text of `<private a=1 ` repeated is read once.
_ATTRIBUTE = r"""\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<>＜＞]*"|'[^'<>＜＞]*'|[^\s"'=<>`＜＞]+)"""
_PRIVATE_TAG = re.compile(r"[<＜](?:([/／])\s*private\s*|private(?:" + _ATTRIBUTE + r")*+\s*)[>＞]", re.IGNORECASE)


def strip_private(text: str) -> str:
    """The text without its `<private>` parts. Tags nest: `<private>a <private>b</private> c</private>` hides
    `c` too. An unclosed tag hides the rest. A stray closing tag stays as written: it hid nothing, and the
    text before it may be what an opening tag the rules do not read (`<private hidden>`) meant to hide, so
    dropping it would claim a cut that was not made."""
    if "<" not in text and "＜" not in text:
        return text
    kept: list[str] = []
    depth, at = 0, 0
    for tag in _PRIVATE_TAG.finditer(text):
        closing = bool(tag.group(1))
        if depth == 0:
            if closing:
                continue
            kept.append(text[at:tag.start()])
        depth += -1 if closing else 1
        at = tag.end()
    if depth == 0:
        kept.append(text[at:])
    return "".join(kept)


def holds_private(text: str) -> bool:
    """Whether `text` holds a `<private>` tag the rules read as markup (a stray closing tag hides nothing)."""
    return strip_private(text) != text


def items_without_private(items: list[Any] | None, name: str = "", cut: list[str] | None = None) -> list[Any] | None:
    """Each string's `<private>` parts cut out; one left empty is dropped. Each field cut is named in `cut`."""
    if not items:
        return items
    kept = []
    for i, item in enumerate(items):
        plain = strip_private(item) if isinstance(item, str) else item
        if plain != item:
            if cut is not None:
                cut.append(f"{name}[{i}]")
            item = plain.strip()
        if item:
            kept.append(item)
    return kept


def without_private(value: Any, name: str = "state", cut: list[str] | None = None) -> Any:
    """A JSON value with the `<private>` parts of every string inside it cut out (keys too); each string cut
    is named in `cut` by its path (`state.env[2]`, a key by the path it leads to)."""
    if isinstance(value, str):
        plain = strip_private(value)
        if plain != value and cut is not None:
            cut.append(name)
        return plain
    if isinstance(value, dict):
        out = {}
        for key, inner in value.items():
            plain = strip_private(key) if isinstance(key, str) else key
            if plain != key and cut is not None:
                cut.append(f"{name}.{plain}")
            out[plain] = without_private(inner, f"{name}.{plain}", cut)
        return out
    if isinstance(value, list | tuple):
        return [without_private(v, f"{name}[{i}]", cut) for i, v in enumerate(value)]
    return value
