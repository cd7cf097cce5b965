"""JSON with comments, as Gemini CLI reads its settings (and OpenCode its config, trailing commas too): comments
are blanked to read it, and an entry is cut out or added by its place in the text, so the user's comments and
layout stay as they were."""

from __future__ import annotations

import json
from typing import Any

Path_ = tuple[str | int, ...]  # keys and indices from the top object to one entry


def blank_comments(text: str) -> str:
    """`text` with each // and /* */ comment outside strings turned to spaces (newlines kept): same offsets."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for j in range(i, end):
                out[j] = out[j] if text[j] == "\n" else " "
            i = end
            continue
        i += 1
    return "".join(out)


def loads(text: str) -> Any:
    """The value, read as Gemini reads it (comments allowed); ValueError when it is not JSON even so."""
    return json.loads(blank_comments(text))


def without_trailing_commas(text: str) -> str:
    """Comment-blanked `text` with each comma that closes nothing (before a `]` or `}`) turned to a space."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text[i] == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif text[i] == ",":
            after = _skip(text, i + 1)
            if text[after:after + 1] in ("]", "}"):
                out[i] = " "
        i += 1
    return "".join(out)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _value_end(text: str, i: int) -> int:
    """Where the JSON value starting at `i` ends (in comment-blanked text)."""
    _, end = json.JSONDecoder().raw_decode(text, i)
    return int(end)


def _entries(text: str, start: int) -> list[tuple[str | int, int, int, int]]:
    """The container at `start`: each entry's key (or index), where the entry starts (its key, for a
    member), where its value starts and where it ends."""
    out: list[tuple[str | int, int, int, int]] = []
    i = _skip(text, start + 1)
    index = 0
    while i < len(text) and text[i] not in "]}":
        begin = i
        key: str | int = index
        if text[start] == "{":
            key_end = _value_end(text, i)
            key = json.loads(text[i:key_end])
            i = _skip(text, _skip(text, key_end) + 1)  # past the colon
        end = _value_end(text, i)
        out.append((key, begin, i, end))
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
        index += 1
    return out


def _line_cut(text: str, begin: int, end: int) -> tuple[int, int]:
    """Widen a cut to its whole line(s) when nothing else stands on them."""
    line = text.rfind("\n", 0, begin) + 1
    after = end
    while after < len(text) and text[after] in " \t":
        after += 1
    if text[line:begin].strip() == "" and (after == len(text) or text[after] in "\r\n"):
        return line, after + (2 if text[after:after + 2] == "\r\n" else 1 if text[after:after + 1] == "\n" else 0)
    # A comment left on the line takes the entry's place, not a space more.
    return begin, after if text[line:begin].strip() == "" else end


def remove(text: str, where: Path_) -> str:
    """`text` without the entry at `where` (a member or an array element), its comma with it."""
    blank = blank_comments(text)
    clean = without_trailing_commas(blank)  # OpenCode's trailing commas: read past them, cut with them
    start = _skip(clean, 0)
    for step in where[:-1]:
        start = next(v for k, _, v, _ in _entries(clean, start) if k == step)
    entries = _entries(clean, start)
    at = next(n for n, (k, _, _, _) in enumerate(entries) if k == where[-1])
    _, begin, _, end = entries[at]
    if text[text.rfind("\n", 0, begin) + 1:begin].strip():  # an entry inline with others: its separator goes
        if at and text[entries[at - 1][3]:begin] == blank[entries[at - 1][3]:begin]:  # no comment between
            return text[:entries[at - 1][3]] + text[end:]
        if not at and len(entries) > 1 and text[end:entries[1][1]] == blank[end:entries[1][1]]:
            return text[:begin] + text[entries[1][1]:]
    after = _skip(blank, end)
    if after < len(blank) and blank[after] == ",":  # not the last: its comma goes with it
        begin, cut_end = _line_cut(text, begin, after + 1)
        return text[:begin] + text[cut_end:]
    begin, cut_end = _line_cut(text, begin, end)
    text = text[:begin] + text[cut_end:]
    if at:  # the last of several: the comma before it goes
        comma = blank.rfind(",", 0, entries[at][1])
        text = text[:comma] + text[comma + 1:]
    return text


def _unit(text: str) -> str:
    """The file's indent unit: a tab, or its shallowest indented line's spaces (two when none is)."""
    leads = [line[:len(line) - len(line.lstrip(" \t"))] for line in text.splitlines() if line.strip()]
    leads = [lead for lead in leads if lead]
    if any("\t" in lead for lead in leads):
        return "\t"
    return min(leads, key=len) if leads else "  "


def _lead(text: str, at: int) -> str:
    """The whitespace that starts the line holding `at`."""
    line = text[text.rfind("\n", 0, at) + 1:]
    return line[:len(line) - len(line.lstrip(" \t"))]


def insert(text: str, where: Path_, key: str, value: Any) -> str:
    """`text` with the member `key: value` added last to the object at `where`, laid out as its neighbours
    (one per line, or inline), in the file's indent and line endings; every other byte stays."""
    blank = blank_comments(text)
    clean = without_trailing_commas(blank)  # same offsets: read with them, look for commas in `blank`
    start = _skip(clean, 0)
    for step in where:
        start = next(v for k, _, v, _ in _entries(clean, start) if k == step)
    newline = "\r\n" if "\r\n" in text else "\n"
    entries = _entries(clean, start)
    if not entries:
        close = _value_end(clean, start) - 1
        if "\n" not in text.strip():  # a file on one line stays on one line
            return text[:start + 1] + _inline(key, value) + text[start + 1:]
        indent = _lead(text, start) + _unit(text)
        if not text[start + 1:close].strip():  # `{}`: opened onto lines of their own, as the file's others
            member = _member(key, value, indent, _unit(text), newline)
            return text[:start + 1] + newline + indent + member + newline + _lead(text, start) + text[close:]
        member = _member(key, value, indent, _unit(text), newline)
        return text[:start + 1] + newline + indent + member + text[start + 1:]
    _, begin, _, end = entries[-1]
    after = _skip_line(blank, end)
    comma = after < len(blank) and blank[after] == ","  # theirs closes each member, the last too: ours as well
    anchor = after + 1 if comma else end
    rest = _skip_line(blank, anchor)  # ours goes after the line's own comment, before its line end
    own_line = not text[text.rfind("\n", 0, begin) + 1:begin].strip() and blank[rest:rest + 1] in ("\r", "\n")
    if not own_line:
        member = _inline(key, value)
        return text[:anchor] + ("" if comma else ",") + f" {member}" + ("," if comma else "") + text[anchor:]
    indent = _lead(text, begin)
    member = newline + indent + _member(key, value, indent, _unit(text), newline) + ("," if comma else "")
    return text[:anchor] + ("" if comma else ",") + text[anchor:rest] + member + text[rest:]


def _skip_line(text: str, i: int) -> int:
    """Past spaces and tabs (and blanked comments) on the same line."""
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _inline(key: str, value: Any) -> str:
    return f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"


def _member(key: str, value: Any, indent: str, unit: str, newline: str) -> str:
    body = json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", newline + indent)
    return f"{json.dumps(key, ensure_ascii=False)}: {body}"


def replace(text: str, where: Path_, value: Any) -> str:
    """`text` with the value at `where` (a member or an array element) written anew: on one line where it was
    on one line (a scalar becoming an object or array: laid out as the file's other lines), the rest kept."""
    clean = without_trailing_commas(blank_comments(text))
    start = _skip(clean, 0)
    for step in where[:-1]:
        start = next(v for k, _, v, _ in _entries(clean, start) if k == step)
    _, begin, value_start, end = next(e for e in _entries(clean, start) if e[0] == where[-1])
    was = text[value_start:end]
    if "\n" in was or (was[:1] not in "{[" and "\n" in text.strip() and isinstance(value, dict | list) and value):
        newline = "\r\n" if "\r\n" in text else "\n"
        body = json.dumps(value, indent=_unit(text), ensure_ascii=False).replace("\n", newline + _lead(text, begin))
    else:
        body = json.dumps(value, ensure_ascii=False)
    return text[:value_start] + body + text[end:]


def edited(text: str, old: dict[str, Any], new: dict[str, Any], where: Path_ = ()) -> str:
    """`text`, which holds the object `old` at `where`, changed to hold `new` by the fewest edits: members
    gone cut out, new ones added last, changed ones rewritten (an object changed within, member by member)."""
    for key, value in new.items():
        if key not in old:
            text = insert(text, where, key, value)
        elif isinstance(value, dict) and isinstance(old[key], dict):
            text = edited(text, old[key], value, (*where, key))
        elif value != old[key] or type(value) is not type(old[key]):
            text = replace(text, (*where, key), value)
    for key in [k for k in old if k not in new]:  # last: the neighbours they leave show the layout
        text = remove(text, (*where, key))
    return text
