"""A graph file's text as the server writes it (`json.dumps(indent=2)`), its entries found without parsing it.

A sync changes a few hundred entries of a graph of ten thousand; parsing the
10 MB file and writing it indented again costs more than everything git does.
In that format every raw newline is formatting (JSON escapes those in strings),
so an entry of `nodes`, `edges`, `_meta` or `_meta.versions` starts at a line
holding its key at that section's exact indentation. `index` finds them with
one regular-expression pass per section; `splice` replaces, drops and appends
entries by concatenating slices of the old text; `changed_keys` compares two
versions entry by entry as strings. Anything not in that shape (a compact file,
an edge list, a file of another writer) gives None, and the caller parses.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from .files import dumps_indent2

MISSING = object()
SECTIONS = (("nodes", 2), ("edges", 2), ("_meta", 2), ("_meta.versions", 4))


@attrs.frozen
class Section:
    start: int  # the body's first character (after "{")
    end: int  # the closing line's newline
    entries: dict[str, tuple[int, int]]  # key -> (start at its newline, end before its comma)


@attrs.frozen
class Indexed:
    text: str
    sections: dict[str, Section]


def _find(text: str, key: str, indent: int, lo: int, hi: int) -> tuple[int, int] | None:
    """The body span of the dict entry `key` at `indent` within text[lo:hi]."""
    pad = " " * indent
    head = f"\n{pad}{json.dumps(key)}: {{\n"
    start = text.find(head, lo, hi)
    if start < 0:
        return None
    body = start + len(head) - 1  # at the newline that opens the first entry
    end = text.find(f"\n{pad}}}", body, hi)
    return None if end < 0 else (body, end)


def _entries(text: str, lo: int, hi: int, indent: int) -> dict[str, tuple[int, int]] | None:
    """Each entry's span; str.find only (a regular expression walks every character: 5x slower)."""
    marker = "\n" + " " * (indent + 2) + '"'
    find = text.find
    out: dict[str, tuple[int, int]] = {}
    pos = find(marker, lo, hi)
    while pos >= 0:
        k0 = pos + len(marker)
        k1 = find('": ', k0, hi)
        if k1 < 0:
            return None
        raw = text[k0:k1]
        nxt = find(marker, k1, hi)
        end = hi if nxt < 0 else nxt - 1
        if nxt >= 0 and text[end] != ",":
            return None
        if "\\" in raw or '"' in raw:  # an escaped character: decode (a quote cut the key short: refuse)
            try:
                raw = json.loads(f'"{raw}"')
            except ValueError:
                return None
        if raw in out:
            return None
        out[raw] = (pos, end)
        pos = nxt
    return out


def index(text: str) -> Indexed | None:
    if not text.startswith("{\n  \"") or not text.rstrip().endswith("\n}"):
        return None
    sections: dict[str, Section] = {}
    for name, indent in SECTIONS:
        if "." in name:
            parent = sections.get("_meta")
            if parent is None:
                return None
            span = _find(text, name.split(".")[1], indent, parent.start - 1, parent.end + 1)
        else:
            span = _find(text, name, indent, 0, len(text))
        if span is None:
            return None
        entries = _entries(text, span[0], span[1], indent)
        if entries is None:
            return None
        sections[name] = Section(span[0], span[1], entries)
    return Indexed(text, sections)


def chunk(ix: Indexed, section: str, key: str) -> str:
    s, e = ix.sections[section].entries[key]
    return ix.text[s:e]


def value(ix: Indexed, section: str, key: str) -> Any:
    text = chunk(ix, section, key)
    return json.loads(text[text.index('": ') + 3:])


def changed_keys(old: Indexed, new: Indexed, section: str) -> list[str]:
    """Keys whose entry text differs (added, removed or changed) between two versions of a section."""
    a, b = old.sections[section].entries, new.sections[section].entries
    ta, tb = old.text, new.text
    out = [k for k, (s, e) in b.items() if k not in a or ta[a[k][0]:a[k][1]] != tb[s:e]]
    return out + [k for k in a if k not in b]


def skeleton(ix: Indexed) -> str:
    """The file without the entries of nodes, edges and versions (a valid JSON text: empty dicts)."""
    cuts = sorted((sec.start, sec.end) for name, sec in ix.sections.items() if name != "_meta")
    out, pos = [], 0
    for s, e in cuts:
        out.append(ix.text[pos:s])
        pos = e
    out.append(ix.text[pos:])
    return "".join(out)


def _entry(key: str, val: Any, indent: int) -> str:
    pad = " " * (indent + 2)
    return f"\n{pad}{json.dumps(key, ensure_ascii=False)}: " + dumps_indent2(val).replace("\n", "\n" + pad)


def _body(ix: Indexed, name: str, indent: int, changes: dict[str, Any], inner: dict[str, str]) -> str | None:
    sec = ix.sections[name]
    parts: list[str] = []
    for key, (s, e) in sec.entries.items():
        if key in inner:
            parts.append(inner[key])
        elif key in changes:
            if changes[key] is not MISSING:
                parts.append(_entry(key, changes[key], indent))
        else:
            parts.append(ix.text[s:e])
    parts += [_entry(k, v, indent) for k, v in changes.items() if k not in sec.entries and v is not MISSING]
    if not parts or not sec.entries:
        return None
    return ",".join(parts)


def splice(ix: Indexed, updates: dict[str, dict[str, Any]]) -> str | None:
    """The text with each section's entries set (`MISSING`: dropped); new keys go last. None when a
    section would become empty or was empty (its `{}` has no line to splice into)."""
    edits: list[tuple[int, int, str]] = []
    inner: dict[str, str] = {}
    versions = updates.get("_meta.versions")
    if versions:
        body = _body(ix, "_meta.versions", 4, versions, {})
        if body is None:
            return None
        sec, (s, e) = ix.sections["_meta.versions"], ix.sections["_meta"].entries["versions"]
        if updates.get("_meta"):  # the versions entry is inside _meta: rebuilt as a part of it
            inner["versions"] = ix.text[s:sec.start] + body + ix.text[sec.end:e]
        else:
            edits.append((sec.start, sec.end, body))
    for name, indent in SECTIONS[:3]:
        changes = updates.get(name)
        if not changes:
            continue
        if "versions" in changes:
            return None
        body = _body(ix, name, indent, changes, inner if name == "_meta" else {})
        if body is None:
            return None
        edits.append((ix.sections[name].start, ix.sections[name].end, body))
    out, pos = [], 0
    for s, e, body in sorted(edits):
        out.append(ix.text[pos:s])
        out.append(body)
        pos = e
    out.append(ix.text[pos:])
    return "".join(out)
