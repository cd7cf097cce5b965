"""Text a node holds, kept to plain text; a gist or a touch shown on one line.

A gist is one claim on one line (spec 000 charges an active node "its rendered id: gist line"): a line
break in one would let stored text forge lines of a read (a graph header, a node that is not there), and
a control character (NUL, BEL, an ANSI escape) would reach the agent's context raw. Writes fold a gist's
line breaks into spaces and refuse control characters; renders fold whatever a file holds anyway (written
by hand or by another implementation) with `one_line`, the one helper every one-line render uses.
"""

from __future__ import annotations

import re

from .errors import InvalidInput
from .schema_words import preview

# Line breaks and control characters: C0, DEL, C1, and the Unicode line and paragraph separators.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# Control characters no text of a node may hold: C0 but tab, line feed and carriage return, DEL, C1.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Bidirectional embeddings, overrides and isolates: stored, they reorder how a read displays (a gist that
# reads as another, "Trojan Source"). No field may hold one.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Invisible characters: refused where text names something (a touch, a task id), where one would make two
# names look the same. Gists and notes keep them: Thai and Khmer break words with U+200B, Persian and
# Indic scripts need U+200C and U+200D, and emoji sequences are joined by U+200D.
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
# A gist's line breaks and tabs, with the blanks around them: one space.
# Blanks before a break are tried from the start of their run only: tried at each space of a long run of
# spaces, each read to the run's end, they cost its square (20,000 spaces held the server 6-9 s).
_GIST_BREAKS = re.compile("(?:(?<![ \t])[ \t]+)?[\t\n\r\u2028\u2029][ \t\n\r\u2028\u2029]*")
_LINE_BREAK = re.compile("[\n\r\u2028\u2029]")
_LINE_BREAKS_SPLIT = re.compile("\r\n|[\n\r\u2028\u2029]")

# Claude Code hands a hook's context to the model inside <system-reminder> tags: stored text that closes one
# would let a lesson speak as if from outside the memory.
_REMINDER_TAG = re.compile(r"<(?=/?\s*system-reminder)", re.I)

GIST_FOLDED_NOTE = "note: gist: line breaks folded into spaces: a gist is one line."


def one_line(text: str) -> str:
    """`text` with each line break and control character replaced by a space, one for one.

    The length does not change, so a line's charge (render.line_cost) is the same before and after.
    """
    if text.isprintable():  # the common case, at C speed: every character folded is unprintable
        return text
    return _NOT_ONE_LINE.sub(" ", text)


CUT_MARK = "…"


def clipped(text: str, limit: int) -> tuple[str, bool]:
    """`text` in at most `limit` characters, and whether it was cut. A cut ends with "…": the reader (and
    the seen-tracking) must know there is more, or a rewrite built on the cut drops the end unseen."""
    if len(text) <= limit:
        return text, False
    return text[: max(limit - len(CUT_MARK), 0)] + CUT_MARK, True


def within_reminder(text: str) -> str:
    """`text` with each `<` that would open or close a system-reminder tag shown as `‹` (the length kept)."""
    if "<" not in text:
        return text
    return _REMINDER_TAG.sub("\u2039", text)


def note_item(note: str, indent: str = "    ") -> str:
    """A note as a read lists it: "    - " and its first line, each further line indented under it (a note may
    span lines, but none of them can start a line of the read's own)."""
    lines = _LINE_BREAKS_SPLIT.split(note)
    return f"{indent}- " + f"\n{indent}  ".join(one_line(line) for line in lines)


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def check_text(text: str, field: str) -> None:
    """Refuse a control character other than tab, line feed and carriage return, and a bidirectional control
    (a gist, notes, progress text)."""
    bad = _CONTROL.search(text)
    if bad is not None:
        raise InvalidInput(field, f"holds a control character ({_code(bad.group())}); write plain text")
    _check_bidi(text, field)


def _check_bidi(text: str, field: str) -> None:
    bidi = _BIDI.search(text)
    if bidi is not None:
        raise InvalidInput(field, f"holds a bidirectional control character ({_code(bidi.group())}), which "
                                  "reorders how the text displays; write plain text")


TOUCH_RULE = "a touch is one path:lines (anchor) on one line"


def check_line(text: str, field: str, rule: str = TOUCH_RULE) -> None:
    """Refuse a line break, any control character, a bidirectional control or an invisible character (a touch,
    a task id: one line that names something)."""
    br = _LINE_BREAK.search(text)
    if br is not None:
        raise InvalidInput(field, f"holds a line break ({_code(br.group())}); {rule}")
    bad = _NOT_ONE_LINE.search(text)
    if bad is not None:
        raise InvalidInput(field, f"holds a control character ({_code(bad.group())}); write plain text")
    _check_bidi(text, field)
    unseen = _INVISIBLE.search(text)
    if unseen is not None:
        raise InvalidInput(field, f"holds an invisible character ({_code(unseen.group())}); {rule}")


BLANK_TOUCH = "must not be blank; a touch names a file (path:lines (anchor))"


def check_touch(text: str, field: str) -> None:
    """A touch names a file: one line, not blank (a blank one names nothing: refused, not stored or dropped)."""
    if not text.strip():
        raise InvalidInput(field, BLANK_TOUCH)
    check_line(text, field)


def check_note(text: str, field: str) -> None:
    """A note says something: an empty or blank one is refused (it was stored, and read back as a bare bullet),
    worded as the tools' schema words an empty or blank id."""
    if not text:
        raise InvalidInput(field, "is empty; at least 1 character")
    if not text.strip():
        raise InvalidInput(field, f"{preview(text)} is blank; it needs a character other than a space")
    check_text(text, field)


TOUCHES_REPEATED_NOTE = "note: touches: repeated ones kept once."


def fold_gist(gist: str) -> tuple[str, bool]:
    """The gist with its line breaks and tabs folded into single spaces, and whether any were.

    Control characters are refused first (check_text): only what a person types across lines folds.
    """
    if _GIST_BREAKS.search(gist) is None:
        return gist, False
    return _GIST_BREAKS.sub(" ", gist).strip(), True
