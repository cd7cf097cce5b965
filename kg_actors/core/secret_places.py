"""Where a secret lives, which is no secret (core/secrecy.py asks): a refusal tells users to write exactly this.

A GitHub Actions secret's name (`secrets.AWS_DEPLOY_ROLE_ARN`, `${{ secrets.NPM_TOKEN }}`) and an AWS ARN (a
Secrets Manager secret's ends in `-` and six random characters that AWS adds to its name) say where a value is
kept, not what it is; their words (`secrets`, `password` in `prod/db-password-AbC1dE`) name the place.
"""

from __future__ import annotations

import re

# `secrets.NAME` glued to the word `secret`: the run after it is the rest of the context's name.
_MEMBER = re.compile(r"s?\.(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)")  # a name, one case: not a random run
_ARN = re.compile(r"(?i)arn:aws[\w-]*:[\w-]*:")
_BLANK = re.compile(r"\s")
_ARN_START = re.compile(r"(?i)arn:")
_TOKEN_START = re.compile(r"[^\s\"'`(\[{<,;]*$")


def names_member(run: str) -> bool:
    """Whether the run glued to the word `secret` is the rest of a context's member (`s.AWS_DEPLOY_ROLE_ARN`)."""
    return _MEMBER.fullmatch(run) is not None


def in_arn(text: str, at: int) -> bool:
    """Whether text[at] lies inside an AWS ARN (a word of the text holding `arn:aws…:` before it)."""
    if _ARN_START.search(text, max(0, at - 256), at + 4) is None:
        return False  # none starts near: asked at each of thousands of secret words, most texts hold no ARN
    word = _TOKEN_START.search(text, max(0, at - 256), at)
    start = word.start() if word is not None else at
    arn = _ARN.search(text, start, at + 256)  # searched: notes joined at a seam glue a word before an ARN
    return arn is not None and arn.start() <= at and _BLANK.search(text, arn.start(), at) is None
