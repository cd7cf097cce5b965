"""Whether arguments surely fit a tool's input schema, without jsonschema.

jsonschema's import is a tenth of a second of CPU on a start's critical path (the
first kg_read(cwd) is validated like every call), and almost every call fits. This
checks the few keywords the tools' schemas use (http/schemas.py) and answers True
only when every one of them holds; anything else (a problem, a keyword or a value
it does not know) is None, and the caller asks jsonschema, which words the problem.
So a True here is a True of jsonschema's, and every problem is still found by jsonschema
(schema_words.py words it).
"""

from __future__ import annotations

import re
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "boolean": (bool,), "array": (list,), "object": (dict,)}
_KNOWN = frozenset({"type", "description", "enum", "minLength", "maxLength", "items", "minItems", "maxItems",
                    "minimum", "maximum", "properties", "required", "additionalProperties", "pattern"})


def surely_fits(schema: dict[str, Any], value: Any) -> bool | None:
    """True when `value` fits `schema` for certain; None when jsonschema must decide."""
    return True if _fits(schema, value) else None


def _fits(schema: dict[str, Any], value: Any) -> bool:
    if not _KNOWN.issuperset(schema):
        return False
    kind = schema.get("type")
    if kind == "integer":
        # 1.0 is an integer to JSON Schema and True is not: only a plain int is sure here.
        if type(value) is not int:
            return False
    elif kind is not None:
        types = _TYPES.get(kind)
        if types is None or type(value) not in types:
            return False
    if "enum" in schema and not any(type(value) is type(e) and value == e for e in schema["enum"]):
        return False
    if isinstance(value, str | list):
        if len(value) < schema.get("minLength" if isinstance(value, str) else "minItems", 0):
            return False
        limit = schema.get("maxLength" if isinstance(value, str) else "maxItems")
        if limit is not None and len(value) > limit:
            return False
    # jsonschema tests a pattern with re.search, as here: a note or an id that is not blank fits at once.
    if isinstance(value, str) and "pattern" in schema and re.search(schema["pattern"], value) is None:
        return False
    if type(value) is int and not (schema.get("minimum", value) <= value <= schema.get("maximum", value)):
        return False
    if isinstance(value, list) and "items" in schema:
        return all(_fits(schema["items"], item) for item in value)
    if isinstance(value, dict):
        return _object_fits(schema, value)
    return True


def _object_fits(schema: dict[str, Any], value: dict[str, Any]) -> bool:
    props = schema.get("properties", {})
    if any(name not in value for name in schema.get("required", ())):
        return False
    for name, item in value.items():
        sub = props.get(name)
        if sub is None:
            if schema.get("additionalProperties", True) is not True:
                return False
        elif not _fits(sub, item):
            return False
    return True
