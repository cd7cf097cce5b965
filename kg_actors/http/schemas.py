"""The ten MCP tools' input schemas, and the check that names the field and the rule."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core import constants as C
from ..core import schema_words
from ..core.schema_fit import surely_fits

_LEVEL = {"type": "string", "enum": ["user", "project", "maintain"]}
# Where a tool writes: maintain is written only by a maintenance pass or chore (spec 003).
_WRITE_LEVEL = {**_LEVEL, "description": "Storage level; maintain only from a maintenance pass or chore"}
_SID = {"type": "string", "minLength": 1, "maxLength": 64, "description": "From kg_read or the preload"}
_STRINGS = {"type": "array", "items": {"type": "string"}, "maxItems": C.LIST_MAX_ITEMS}
# The limits the store holds a write to, advertised so a client can check before it sends.
# A note says something: an empty or blank one is refused (it was stored and read back as a bare bullet).
_NOTES = {**_STRINGS, "items": {"type": "string", "minLength": 1, "maxLength": C.NOTE_HARD_LIMIT,
                                "pattern": schema_words.NOT_BLANK}}
_NEW_ID = {"type": "string", "maxLength": C.NODE_ID_MAX_LEN}
_END = {"type": "string", "maxLength": C.ENDPOINT_MAX_LEN}
# A node id to look up: an empty or blank one names no node (a blank one was looked up and rendered blank).
_LOOKUP_ID = {"type": "string", "minLength": 1, "pattern": schema_words.NOT_BLANK}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


SCHEMAS: dict[str, dict[str, Any]] = {
    "kg_read": _obj({
        "cwd": {"type": "string", "description": "Project folder: an existing directory inside your home, absolute; "
                                          "inside a git work tree the session binds to the work tree's root "
                                          "(a linked worktree's: its repository's)"},
        "session_id": _SID,
        # Not empty: an empty id or list names no node, and was taken for a full read.
        "id": {**_LOOKUP_ID, "description": "Node id to read in full"},
        "ids": {**_STRINGS, "items": _LOOKUP_ID, "minItems": 1, "description": "Several node ids to read in one call"},
        "level": {**_LEVEL, "description": "Graph for node reads; maintain without id renders the maintenance memory"},
        "more": {"type": "boolean", "description": "true: the next part of a reply that said it continues"},
        "maintenance": {"type": "boolean", "description": "Only for a maintenance pass or chore"},
    }, []),
    "kg_search": _obj({
        "query": {"type": "string", "minLength": 1, "maxLength": C.QUERY_MAX_CHARS, "description": "One or more terms"},
        "session_id": _SID,
    }, ["query"]),
    "kg_put_node": _obj({
        "session_id": _SID, "level": _WRITE_LEVEL,
        "id": {**_NEW_ID, "description": "kebab-case, 3-5 words naming the subject, no date; letters, digits, "
                                         "'.', '_' and '-', starting with a letter or digit"},
        "gist": {"type": "string", "maxLength": C.GIST_HARD_LIMIT,
                 "description": "The one claim this node makes (soft target 300 chars)"},
        "notes": {**_NOTES, "description": "One case per note; replaces the stored list"},
        "touches": {**_STRINGS, "items": {"type": "string", "maxLength": C.ENDPOINT_MAX_LEN * 4},
                    "description": "Related file paths (path:lines (anchor)); replaces the stored list"},
    }, ["session_id", "level", "id", "gist"]),
    "kg_put_edge": _obj({
        "session_id": _SID, "level": _WRITE_LEVEL,
        "from": {**_END, "description": "Source node id or file path"},
        "to": {**_END, "description": "Target node id or file path"},
        "rel": {"type": "string", "maxLength": C.REL_MAX_LEN,
                "description": "kebab-case relationship (depends-on, instance-of, ...)"},
        "notes": {**_NOTES, "description": "Context about this relationship"},
    }, ["session_id", "level", "from", "to", "rel"]),
    "kg_rename_node": _obj({
        "session_id": _SID, "old_id": {"type": "string", "description": "The node's current id"},
        "new_id": {**_NEW_ID, "description": "The new id: the subject in 3-5 kebab-case words, no date"},
        "level": {**_WRITE_LEVEL, "description": "Found when omitted (the user graph first, then the project's); "
                                                 "maintain only from a maintenance pass or chore"},
    }, ["session_id", "old_id", "new_id"]),
    "kg_delete_node": _obj({
        "session_id": _SID,
        "id": {"type": "string", "description": "Node id to delete with its edges (the user graph is looked in first)"},
    }, ["session_id", "id"]),
    "kg_delete_edge": _obj({
        "session_id": _SID,
        "from": {"type": "string", "description": "Source node id or file path, exactly as the edge has it"},
        "to": {"type": "string", "description": "Target node id or file path, exactly as the edge has it"},
        "rel": {"type": "string", "description": "The edge's relationship, exactly as stored"},
    }, ["session_id", "from", "to", "rel"]),
    "kg_useful": _obj({
        "session_id": _SID,
        "ids": {**_STRINGS, "minItems": 1, "maxItems": 50,
                "description": "Node ids that helped, or that were needed and nothing surfaced"},
        "credits": {"type": "integer", "minimum": 1, "maximum": C.MAINTENANCE_CREDIT_MAX_PER_NODE,
                    "description": "Maintenance pass only: credits per node"},
    }, ["session_id", "ids"]),
    "kg_sync": _obj({"session_id": _SID}, ["session_id"]),
    "kg_progress": _obj({
        "session_id": _SID,
        "task_id": {"type": "string", "minLength": 1, "maxLength": 128,
                    "description": "The task's name (scout, extract, ...)"},
        "state": {"type": "object", "description": "Progress state to store. Omit to read"},
        "level": {**_WRITE_LEVEL, "description": "Default user; maintain only from a maintenance pass or chore"},
    }, ["session_id", "task_id"]),
}

@cache
def _validator(tool: str) -> Any:
    """jsonschema's validator, imported at the first call that does not surely fit (its import costs a start
    a tenth of a second)."""
    import jsonschema

    return jsonschema.Draft202012Validator(SCHEMAS[tool])


def validation_error(tool: str, arguments: Any) -> str | None:
    """None when the arguments fit; else `field: rule` for the first problem found."""
    if not isinstance(arguments, dict):
        return "arguments: must be an object"
    if surely_fits(SCHEMAS[tool], arguments):
        return None
    errors = sorted(_validator(tool).iter_errors(arguments), key=lambda e: (len(e.path), str(e.path)))
    if not errors:
        return None
    err = errors[0]
    if err.validator == "required":
        missing = [r for r in err.validator_value if r not in arguments]
        return f"{missing[0] if missing else 'arguments'}: is required"
    if err.validator == "additionalProperties":
        extra = sorted(set(arguments) - set(SCHEMAS[tool]["properties"]))
        return f"{extra[0] if extra else 'arguments'}: is not a parameter of {tool}"
    # notes[0], as the store names a list's item
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".") or "arguments"
    if tool == "kg_put_node" and field == "notes" and err.validator == "maxItems":
        return f"notes: {schema_words.notes_full(len(err.instance), err.validator_value)}"
    # Worded from the problem's parts: jsonschema's message puts the whole value before the rule, and a
    # long value cut to fit took the rule with it.
    rule = schema_words.rule_words(str(err.validator), err.validator_value, err.instance)
    return f"{field}: {rule if rule is not None else schema_words.cut_message(err.message)}"
