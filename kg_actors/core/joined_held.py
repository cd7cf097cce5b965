"""The stored fields that take part in a key split across them (a token in two notes, a private key's block
note by note): what a write refuses whole (secrecy.refuse_joined), found in what a hand edit left, so the
load's scan names it and every agent-facing reply withholds each part (withheld.py), not one piece of it."""

from __future__ import annotations

from .secrecy import joined_findings

JOINT = " joined to "  # how a refusal names the fields a joined text spans


def joined_held(gist: object, notes: list[object] | tuple[object, ...] | None, name: str = "notes",
                alone: frozenset[str] = frozenset()) -> dict[str, str]:
    """Each field (`gist`, `notes[2]`) of a key made whole across fields, with the key's kind (never the key);
    a private key's block whole, from its BEGIN line to its END line, when a note of it takes part.

    `alone`: the fields holding one by themselves. A key's shape runs on into the next field's first word
    (`ghp_…` and a gist "capybara" read as one longer token), so a text joined with such a field names no
    other field: a part is one of a key the other fields make without it."""
    items = list(notes or ())
    out: dict[str, str] = {}
    whole: dict[str, str] = {}  # fields holding one alone found in a joined text: a block's lines go with them
    starts: set[str] = set()  # the field each key found begins in
    for joined, found in joined_findings(gist, items, name):
        names = joined.field.split(JOINT)
        if starts & set(names):
            # The key and a field after it, or its start glued past its rest to the next field's words (`ghp_…`,
            # its rest, then "deploy pipeline"): that field is no part of it (texts come fewest fields first).
            continue
        starts.add(names[0])
        for field in names:
            if not set(names) & alone:
                out.setdefault(field, found.kind)
            elif field in alone:
                whole.setdefault(field, found.kind)
    for begin, end, kind in _blocks(items, name, {**whole, **out}):
        for i in range(begin, end + 1):
            out.setdefault(f"{name}[{i}]", kind)
    return out


def _blocks(items: list[object], name: str, held: dict[str, str]) -> list[tuple[int, int, str]]:
    """BEGIN..END runs of notes of which one is held (the lines around a key's body are part of it)."""
    out, begin = [], None
    for i, item in enumerate(items):
        text = item.strip() if isinstance(item, str) else ""
        if text.startswith("-----BEGIN"):
            begin = i
        elif text.startswith("-----END") and begin is not None:
            kinds = [held[f"{name}[{k}]"] for k in range(begin, i + 1) if f"{name}[{k}]" in held]
            if kinds:
                out.append((begin, i, kinds[0]))
            begin = None
    return out
