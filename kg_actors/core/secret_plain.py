"""A text as the secret rules read it: what hides a key from the patterns without changing it undone."""

from __future__ import annotations

import re
import unicodedata

# What hides a key from the patterns without changing what it is: zero-width and invisible characters.
_INVISIBLE = re.compile("[\u00ad\u034f\u115f\u1160\u180e\u200b-\u200f\u2060-\u2064\u3164\ufe00-\ufe0f\ufeff\uffa0"
                        "\U000e0000-\U000e007f]")
# Cyrillic and Greek letters drawn as Latin ones (`АKIA…` with a Cyrillic А): read as the Latin letter.
_LOOKALIKES = str.maketrans("АВЕКМНОРСТХаеорсухіІјЈѕЅԁΑΒΕΖΗΙΚΜΝΟΡΤΥΧοκνρτυχ",
                            "ABEKMHOPCTXaeopcyxiIjJsSdABEZHIKMNOPTYXokvptux")


def plain(text: str) -> str:
    """The text as the rules read it: invisible characters out, fullwidth and look-alike letters as Latin ones.
    Only read, never stored: Thai and Persian hold zero-width characters by right."""
    return text if text.isascii() else unicodedata.normalize("NFKC", _INVISIBLE.sub("", text)).translate(_LOOKALIKES)
