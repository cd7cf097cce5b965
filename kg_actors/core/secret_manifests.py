"""A Kubernetes Secret manifest's values (core/secrecy.py asks): every value under a Secret's `data:` (base64)
or `stringData:` (plain) is a secret by what the manifest declares, whatever its key is named. A ConfigMap's
`data:` holds settings and is read as any text is.

A manifest is read document by document (`---`); a Secret's `kind:`, `data:` and `stringData:` stand at a
document's top level, so the blocks read are disjoint and the scan is linear in the text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

_DOCUMENT_BREAK = re.compile(r"(?m)^---")
_KIND = re.compile(r"(?m)^kind:[ \t]*[\"']?Secret[\"']?[ \t]*(?:#[^\n]*)?\r?$")
_BLOCK = re.compile(r"(?m)^(?:data|stringData):[ \t]*(?:#[^\n]*)?\r?$")
# An entry of a block: an indented key and its value, quoted or not (a `|` or `>` block's lines are not read).
_ENTRY = re.compile(r"[ \t]+[\"']?[\w.-]{1,253}[\"']?[ \t]*:[ \t]+[\"']?"
                    r"(?P<value>[^\s\"'#][^\s\"']{0,1023})[\"']?[ \t]*\r?$")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{12,}={0,2}")  # 12 characters: eight bytes, the shortest password refused
_CERTIFICATE = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS"  # base64 of `-----BEGIN CERTIFICATE`: published, no secret


def kube_secret(text: str, credential: Callable[[str], bool]) -> str | None:
    """The first value of a Kubernetes Secret in `text` that is a secret, or None. A `data:` value is one when
    it is base64 of eight bytes or more, a `stringData:` value when `credential` says so (both: not a
    placeholder or a template, which `credential` rules out)."""
    for document in _DOCUMENT_BREAK.split(text):
        if _KIND.search(document) is None:
            continue
        for block in _BLOCK.finditer(document):
            encoded = document.startswith("data", block.start())
            for line in _lines_under(document, block.end()):
                entry = _ENTRY.fullmatch(line)
                if entry is None:
                    continue
                value = entry.group("value")
                base64 = _BASE64.fullmatch(value) is not None and not value.startswith(_CERTIFICATE)
                if (base64 or not encoded) and credential(value):
                    return value
    return None


def _lines_under(document: str, at: int) -> Iterator[str]:
    """The indented lines after `at` (a block's header), up to the first one that is not (comments and blank
    lines inside are given too, read as no entry). Line by line from `at`: the rest is never copied whole."""
    start = document.find("\n", at) + 1
    while 0 < start < len(document):
        end = document.find("\n", start)
        line = document[start:] if end == -1 else document[start:end]
        if line.strip() and not line[:1].isspace() and not line.startswith("#"):
            return
        yield line
        start = end + 1
