"""How a schema problem is worded: the rule a value broke, with a short preview of the value.

jsonschema's own message puts the whole value first and the rule last (`['n0', 'n1', ... 'n200'] is too
long`), so a message cut to a readable length kept the value and lost the rule. The wording here is built
from the problem's parts instead: the keyword, its limit and the value, which is shown only as a cut preview.
"""

from __future__ import annotations

from typing import Any

PREVIEW_MAX = 40  # characters of a value's repr a message shows


def preview(value: Any) -> str:
    """The value as Python writes it (as jsonschema's messages did), cut to PREVIEW_MAX characters."""
    shown = repr(value)
    return shown if len(shown) <= PREVIEW_MAX else shown[:PREVIEW_MAX] + "…"


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
    "enum": "{value} is not one of {limit!r}",
    "const": "{value} must be {limit!r}",
    "minimum": "{value} is less than the minimum of {limit}",
    "maximum": "{value} is more than the maximum of {limit}",
    "exclusiveMinimum": "{value} must be more than {limit}",
    "exclusiveMaximum": "{value} must be less than {limit}",
    "pattern": "{value} does not match the pattern {limit!r}",
}


NOT_BLANK = r"\S"  # the pattern of a string that must hold something other than spaces
_PATTERNS_SAID = {NOT_BLANK: "{value} is blank; it needs a character other than a space"}


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
        kinds = " or ".join(f"'{k}'" for k in ([limit] if isinstance(limit, str) else limit))
        return f"{preview(value)} is not of type {kinds}"
    said = _PATTERNS_SAID.get(limit) if keyword == "pattern" else None
    said = said or _SAID.get(keyword)
    return said.format(value=preview(value), limit=limit) if said is not None else None


def cut_message(message: str, keep: int = 200) -> str:
    """A message of another keyword, cut in its middle (its value) so that its end (the rule) stays."""
    if len(message) <= keep:
        return message
    half = (keep - 5) // 2
    return f"{message[:half]} … {message[-half:]}"
