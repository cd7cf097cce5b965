"""A key cut in two with words around each part ("first half ghp_...", "second half ..."): joined, the parts make
no key, but the part holding the prefix is no word of prose either. Read after every other rule of a write
(core/secrecy.py), so a key split bare is still named as the whole it makes. Names too (a touch, an edge's end,
an id: `cfg/ghp_…` beside `cfg/…`): a path cut at the key reads the same as a note cut there."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .secret_cuts import cut_runs, worded_key

_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
FRAGMENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("part of a GitHub token", re.compile(_L + r"(?:gh[pousr]_[A-Za-z0-9]{12,35}|github_pat_[A-Za-z0-9_]{16,39})" + _R)),
)


_GITHUB = ("github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_")


def fragment_in(fields: Iterable[tuple[str, object]]) -> tuple[str, str, str] | None:
    """The first (field, kind, part) among text fields holding a part of a key, or None."""
    return next(fragments_in(fields), None)


def fragments_in(fields: Iterable[tuple[str, object]]) -> Iterator[tuple[str, str, str]]:
    """Each (field, kind, part) of the text fields holding a part of a key (the first part of each)."""
    for name, text in fields:
        if isinstance(text, str) and "g" in text:
            found = next(_parts(text), None)
            for run in cut_runs(text) if found is None else ():  # spaced or hyphenated apart (secret_cuts.py)
                found = next(_parts(run), None)
                if found is not None:
                    break
            if found is not None:
                yield name, *found


def _parts(text: str) -> Iterator[tuple[str, str]]:
    for kind, pattern in FRAGMENTS:
        for m in pattern.finditer(text):
            if not worded_key(m.group(), _GITHUB):  # `github_pat_scopes_and_permissions_guide`: a name
                yield kind, m.group()
                break
