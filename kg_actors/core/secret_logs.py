"""What a log keeps of a word or a prompt's search words: none that looks like a key, is as random as one, or
that a prompt giving a secret a value may spell out (core/secrecy.py reads the shapes)."""

from __future__ import annotations

import re

from .constants import RECALL_PROMPT_MAX_CHARS
from .secrecy import _credential, find
from .secret_plain import plain as _plain
from .secret_names import scrambled as _scrambled

WITHHELD = "<withheld>"


def loggable(word: str) -> str:
    """A name or word as a log may keep it: WITHHELD when it is a key's shape or as random as one."""
    plain = _plain(word)
    return WITHHELD if (find(word, shapes_only=True) is not None or _credential(plain, assigned=False)
                        or _scrambled(plain, 8)) else word


# A prompt that gives a password, a token, a secret, a key or a pin a value, in words a write's rules take for
# prose ("my password is hunter2", "the passcode for the vault is 48213377"), or a login: its words may spell
# the secret out, so the log keeps none. Naming one without a value ("how do I rotate the staging database
# credentials", "reset the api key") gives none: its words are logged as any prompt's.
_SECRET_TALK = re.compile(
    r"(?i)\b(?:pass(?:word|wort|wd|phrase|code)|pwd?|contrase[ñn]a|mot\s+de\s+passe|cred(?:ential)?"
    r"|(?:api|private|access|secret)[\s_-]?key|client[\s_-]?secret|token|secret|key|pin)s?"
    r"(?:\s+(?:for|für|pour|para)\s+(?:the\s+|my\s+|our\s+)?[\w.@-]+)?\s*(?:\b(?:is|was|to|ist|est|es)\s+|[=:]\s*)\S"
    r"|\blog(?:-?in|on)\s+(?:is\s+)?[\w.@-]+\s*(?::|\s/\s)\s*\S")


def loggable_terms(text: str, terms: list[str], prompt: object = None) -> list[str]:
    """A prompt's search words as the recall log keeps them (the prompt itself is never logged): none
    when the prompt (`prompt`, whole, pasted parts too; else its typed `text`) holds a secret, gives one a
    value in words (they may spell it out: `password=Tr0ub4dor$3x` is two harmless-looking words, "my
    password is hunter2" a third), or when a word of them looks like a key. A `<private>` block's words are
    cut before the search (recall.human_text): none of them is a term; a secret in it withholds them all."""
    whole = prompt[:RECALL_PROMPT_MAX_CHARS] if isinstance(prompt, str) else text  # what recall read of it
    if find(text) is not None or _SECRET_TALK.search(_plain(whole)) or (whole is not text and find(whole) is not None):
        return [WITHHELD]
    kept = [loggable(t) for t in terms]
    return [WITHHELD] if WITHHELD in kept else kept
