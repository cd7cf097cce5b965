"""Base64 runs of a text, decoded where they decode to text: base64 of a key is the key (`Z2hwX...` is a GitHub
token to whoever reads it), so core/secrecy.py reads the decoded text with its rules too.

Bounded: a field of 20,000 characters of base64 costs a few runs' reading, not one per word. Binary data (an
image's data URI, a gzip) decodes to no text and is not read further.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

import attrs

# A run of base64 (`+/`) or base64url (`-_`) of 12 bytes or more, with its padding, taken whole (possessive:
# a long run is read once) and standing alone: not the tail of a longer word. A value given with `=` is a run
# (`x=Z2hw...`: a progress state's entries are read as `key=value`), after a padding's `==` none.
_RUN = re.compile(r"(?<![A-Za-z0-9+/_-])(?<!==)[A-Za-z0-9+/_-]{16,}+={0,2}(?![A-Za-z0-9+/_=-])")
_HEX = re.compile(r"[0-9a-fA-F]+")
_BLANKS = re.compile(r"[\t\n\r]")  # printable text spans lines
BASE64_MAX_RUNS = 32  # runs decoded in one text
BASE64_MAX_CHARS = 16_384  # characters decoded in one text, all runs together
BASE64_RUN_MAX_CHARS = 4_096  # of one run, its first ones: a long blob's start says what it holds


BASE64_LAYERS = 2  # base64 of base64 of a key is read too; a third layer is no one's encoding by accident


@attrs.define
class Budget:
    """What is left to decode of one text, shared by its layers: base64 of base64 costs no more than base64."""
    runs: int = BASE64_MAX_RUNS
    chars: int = BASE64_MAX_CHARS


def decoded_runs(text: str, budget: Budget | None = None) -> Iterator[tuple[str, str]]:
    """Each base64 run of `text` (up to the bounds above, or what is left of `budget`) that decodes to
    printable text, with that text."""
    if len(text) < 16:
        return
    budget = budget if budget is not None else Budget()
    for m in _RUN.finditer(text):
        run = m.group(0)
        if _HEX.fullmatch(run) or run.isalpha() and (run.islower() or run.isupper()):
            continue  # a digest, a commit id, a word: no base64 of anything
        budget.runs -= 1
        if budget.runs < 0 or budget.chars <= 0:
            return
        limit = min(BASE64_RUN_MAX_CHARS, budget.chars)
        decoded = _decoded(run if len(run) <= limit else run[:limit - limit % 4])  # a cut: whole groups
        if decoded is not None:
            budget.chars -= len(decoded)
            yield run, decoded


def text_at(text: str, at: int) -> tuple[int, str] | None:
    """The base64 run starting at `at`, if it decodes to printable text: where it ends, and that text."""
    m = _RUN.match(text, at)
    if m is None or _HEX.fullmatch(m.group(0)) or len(m.group(0)) > BASE64_RUN_MAX_CHARS:
        return None
    decoded = _decoded(m.group(0))
    return None if decoded is None else (m.end(), decoded)


def in_place(text: str, runs: list[tuple[str, str]]) -> str:
    """`text` with each decoded run read as the text it encodes, where it stands (`token: <base64 of a key>`)."""
    for run, decoded in runs:
        text = text.replace(run, decoded, 1)
    return text


def _decoded(run: str) -> str | None:
    """The text `run` encodes (either alphabet, padded or not), or None: not base64, or not text."""
    urlsafe = "-" in run or "_" in run
    if urlsafe and ("+" in run or "/" in run):
        return None  # both alphabets: a name or a path, not base64
    core = run.rstrip("=")
    if len(core) % 4 == 1:
        return None  # no base64 ends so
    try:
        raw = (base64.urlsafe_b64decode if urlsafe else base64.b64decode)(core + "=" * (-len(core) % 4))
        decoded = raw.decode("utf-8")
    except ValueError:  # binascii.Error is one; a UnicodeDecodeError too
        return None
    return decoded if decoded.isprintable() or _BLANKS.sub("", decoded).isprintable() else None
