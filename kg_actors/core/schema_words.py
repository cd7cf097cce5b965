"""How a schema problem is worded: the rule a value broke, with a short preview of the value.

jsonschema's own message puts the whole value first and the rule last (`['n0', 'n1', ... 'n200'] is too
long`), so a message cut to a readable length kept the value and lost the rule. The wording here is built
from the problem's parts instead: the keyword, its limit and the value, which is shown only as a cut preview.
"""

from __future__ import annotations

import json
from typing import Any

PREVIEW_MAX = 40  # characters of a value's JSON a message shows


def as_json(value: Any) -> str:
    """The value as JSON writes it: the call's own language (null, true, "text"), not Python's (None, True,
    'text'), which clients in other languages (the TypeScript SDK's) showed their users."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from a JSON body (a test's own value): as Python writes it
        return repr(value)


def preview(value: Any) -> str:
    """The value as JSON writes it, cut to PREVIEW_MAX characters."""
    shown = as_json(value)
    return shown if len(shown) <= PREVIEW_MAX else shown[:PREVIEW_MAX] + "…"


# A JSON type's name in a sentence: "is not a string", "is not a boolean (true or false)".
_KINDS = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
          "object": "an object", "array": "an array", "null": "null"}


def kind_of(value: Any) -> str:
    """What a JSON value is, in a sentence ("a number", "null"): never Python's type name (NoneType, dict)."""
    if value is None:
        return "null"
    for kind, name in ((bool, "boolean"), (int | float, "number"), (str, "string"), (list | tuple, "array"),
                       (dict, "object")):
        if isinstance(value, kind):
            return _KINDS[name]
    return type(value).__name__


def _kinds(limit: Any) -> str:
    names = [limit] if isinstance(limit, str) else list(limit)
    said = " or ".join(_KINDS.get(k, as_json(k)) for k in names)
    return said + (" (true or false)" if names == ["boolean"] else "")


_UNITS = ((str, "character", "characters"), (list, "item", "items"), (tuple, "item", "items"),
          (dict, "property", "properties"))


def _counted(value: Any, n: int) -> str | None:
    """`201 items`, `4,001 characters`: n of what a length rule counts in `value`; None for a value without one."""
    for kind, unit, units in _UNITS:
        if isinstance(value, kind):
            return f"{n:,} {unit if n == 1 else units}"
    return None


# The keywords whose rule is the value beside the schema's limit.
_SAID = {
    "enum": "{value} is not one of {limit}",
    "const": "{value} must be {limit}",
    "minimum": "{value} is less than the minimum of {limit}",
    "maximum": "{value} is more than the maximum of {limit}",
    "exclusiveMinimum": "{value} must be more than {limit}",
    "exclusiveMaximum": "{value} must be less than {limit}",
    "pattern": "{value} does not match the pattern {limit}",
}


NOT_BLANK = r"\S"  # the pattern of a string that must hold something other than spaces
_PATTERNS_SAID = {NOT_BLANK: "{value} is blank; it needs a character other than a space"}


def notes_full(count: int, limit: int) -> str:
    """A node's notes over the most it keeps (an append to a full node): what to do, for the list cannot grow."""
    return (f"has {count} items; at most {limit}, the most notes a node keeps: fold related notes into one (or "
            "what they share into the gist), or split the subject into linked nodes (kg_put_edge), then write again")


def rule_words(keyword: str, limit: Any, value: Any) -> str | None:
    """The rule `value` broke, for the keywords the tools' schemas use; None for another keyword.

    `limit` is the keyword's value in the schema (200 for maxItems: 200, the type name for type).
    """
    size = _counted(value, len(value)) if isinstance(value, str | list | tuple | dict) else None
    if keyword in ("maxLength", "maxItems", "maxProperties") and size is not None:
        return f"has {size}; at most {limit:,} (value {preview(value)})"
    if keyword in ("minLength", "minItems", "minProperties") and size is not None:
        if not value:
            return f"is empty; at least {_counted(value, limit)}"
        return f"has {size}; at least {limit:,} (value {preview(value)})"
    if keyword == "type":
        return f"{preview(value)} is not {_kinds(limit)}"
    said = _PATTERNS_SAID.get(limit) if keyword == "pattern" else None
    said = said or _SAID.get(keyword)
    if said is None:
        return None
    shown_limit = limit if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") else as_json(limit)
    return said.format(value=preview(value), limit=shown_limit)


def cut_message(message: str, keep: int = 200) -> str:
    """A message of another keyword, cut in its middle (its value) so that its end (the rule) stays."""
    if len(message) <= keep:
        return message
    half = (keep - 5) // 2
    return f"{message[:half]} … {message[-half:]}"
