"""A key written as escapes of its characters: JSON's (or Python's) `\\u0073\\u006b_live_…`, or a hex dump of its
bytes (`736b5f6c6976655f…`, or byte by byte: `73:6b:5f…`, `73 6b 5f…`, `\\x73\\x6b…`, `0x73,0x6b…`). Each is the key, as its base64 is (core/secret_base64.py): core/secrecy.py reads the
text with the escapes undone, and each long hex run as the text its bytes spell when they are all printable
(a hash's or a commit id's bytes are not, and are left alone)."""

from __future__ import annotations

import re
from collections.abc import Iterator

_UNICODE = re.compile(r"\\u([0-9a-fA-F]{4})")
HEX_MIN_CHARS = 32  # 16 bytes: the shortest key a provider's shape holds with its prefix
_HEX_RUN = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){%d,}(?![0-9a-fA-F])" % (HEX_MIN_CHARS // 2))


def unescaped(text: str) -> str:
    """`text` with each `\\uXXXX` escape of a printable character undone."""
    return _UNICODE.sub(lambda m: chr(int(m.group(1), 16)) if 0x20 <= int(m.group(1), 16) < 0x7F else m.group(0),
                        text) if "\\u" in text else text


# Hex bytes one by one, as dumps and code write them: `73:6b:5f` (openssl, Wireshark), `73 6b 5f` (xxd, od),
# `\x73\x6b` (a bytes literal), `0x73,0x6b` or `0x73, 0x6b` (a C array). Each byte is two digits and one
# separator, so a run is read once from its start (linear); a MAC, an IPv6 address or a UUID holds fewer bytes
# or wider groups, and a digest's bytes are not all printable.
_BYTE = r"(?:\\x|0[xX])?[0-9a-fA-F]{2}"
_HEX_BYTES = re.compile(r"(?<![0-9A-Za-z\\])(?:%s(?:, ?|[:\t -]|(?=\\x))){%d,}%s(?![0-9A-Za-z])"
                        % (_BYTE, HEX_MIN_CHARS // 2 - 1, _BYTE))
_NOT_DIGITS = re.compile(r"\\x|0[xX]|[^0-9a-fA-F]")


def hex_spelled(text: str) -> Iterator[tuple[str, str]]:
    """Each hex run of `text` (unbroken, or bytes one by one as above) whose bytes are all printable ASCII,
    with the text they spell."""
    for m in _HEX_RUN.finditer(text):
        yield from _printable(m.group(0), m.group(0))
    for m in _HEX_BYTES.finditer(text) if _HAS_BYTES.search(text) else ():
        yield from _printable(m.group(0), _NOT_DIGITS.sub("", m.group(0)))


_HAS_BYTES = re.compile(r"[0-9a-fA-F]{2}[:, \t-]|\\x[0-9a-fA-F]")


def _printable(run: str, digits: str) -> Iterator[tuple[str, str]]:
    spelled = bytes.fromhex(digits)
    if all(0x21 <= b < 0x7F for b in spelled):
        yield run, spelled.decode("ascii")


_WORDS = re.compile(r"[A-Za-z]+(?:[ _.,:;!?'-]+[A-Za-z]+){2,}[.!?]?")


def hex_of_words(value: str) -> bool:
    """Whether a hex value spells words of text (`54686520717569636b…`: "The quick brown fox …"), a fixture's or
    a doc's, not a key: a key's random bytes are seldom all printable, and never three words."""
    if len(value) < HEX_MIN_CHARS or len(value) % 2 or not all(c in "0123456789abcdefABCDEF" for c in value):
        return False
    spelled = bytes.fromhex(value)
    return all(0x20 <= b < 0x7F for b in spelled) and _WORDS.fullmatch(spelled.decode("ascii")) is not None
