"""Notes (or a gist) that join into a key only where each is a placeholder or prose (core/secrecy.py asks).

A key cut across two notes has a random piece on one side at least. An .env.example's lines
(`STRIPE_SECRET_KEY=sk_test_xxxx…` then `JWT_SECRET=changeme`; `xoxb-your-bot-token` then `ghp_your_token_here`)
and prose naming prefixes (`glpat- personal access tokens …` then `glrt- runner tokens …`) have none: every word
of both is a word, a short number, a bare prefix or a placeholder, so their seam makes no key, whatever shape
the glued text takes.
"""

from __future__ import annotations

import re

from .secret_lookalikes import placeholder

_WORD = re.compile(r"[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.]?|\d{1,6}")
_URL_PARTS = re.compile(r"[/:@?&#]+")
_TRIM = "\"'`.,;:!?()[]{}<>"


def plain_join(parts: tuple[str, ...]) -> bool:
    """Whether texts glued into one (notes, a field's lines, a state's items) are each all words or placeholders."""
    return len(parts) >= 2 and all(_plain(text) for text in parts)


def _plain(text: str) -> bool:
    return all(_plain_word(word) for word in text.split())


def _plain_word(word: str) -> bool:
    value = word.strip(_TRIM).rpartition("=")[2].strip(_TRIM)  # `JWT_SECRET=changeme`: its value
    # A URL's parts each (`postgres://user:password@localhost:5432/app_dev`): words, no random piece.
    return not value or placeholder(value) or all(not part or _WORD.fullmatch(part) is not None
                                                  for part in _URL_PARTS.split(value))
