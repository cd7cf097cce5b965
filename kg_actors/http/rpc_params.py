"""What is wrong with a request's params that the MCP SDK would answer vaguely, named field by field.

The SDK validates params against its models and answers any misfit with "Invalid request parameters"
and empty `data`: a hand-written client that left out `clientInfo` could not tell what to fix. Each
rule here is one the SDK enforces (tests/http/test_rpc_params.py checks that it refuses each body named
here, and takes the ones passed), said as the field and the rule. Pure: the message in, the error out.
"""

from __future__ import annotations

from typing import Any

# The capabilities the SDK models (a value of another name is taken as it is), and those whose own
# fields are each an object (sampling's `tools`, an experimental capability's settings).
_MODELLED = frozenset({"roots", "sampling", "elicitation", "experimental", "tasks"})
_OF_OBJECTS = frozenset({"sampling", "elicitation", "experimental"})
_INFO_TEXTS = ("title", "websiteUrl", "description")  # optional strings of clientInfo


def params_problem(message: dict[str, Any]) -> str | None:
    """What is wrong with a request's (or notification's) params, as "params.<field>: <rule>"; None when
    nothing is said here (other faults the SDK names, or none)."""
    method, params = message["method"], message.get("params")
    if method == "initialize":
        if not isinstance(params, dict) or not isinstance(params.get("protocolVersion"), str):
            return "params.protocolVersion: must be a string naming an MCP protocol version (e.g. 2025-11-25)"
    if method == "tools/call":
        if not isinstance(params, dict):
            return "params: must be an object with name and arguments"
        if "name" not in params:
            return "params.name: is required (the tool's name)"
        if not isinstance(params["name"], str):
            return "params.name: must be a string (the tool's name)"
        if "arguments" in params and not isinstance(params["arguments"], dict | type(None)):
            return "params.arguments: must be an object"
    if not isinstance(params, dict):
        return "params: must be an object" if "params" in message else None
    return _meta_problem(params) or (_init_problem(params) if method == "initialize" else None) or (
        "params.cursor: must be a string (the nextCursor of the page before)"
        if method.endswith("/list") and not isinstance(params.get("cursor"), str | None) else None)


def _meta_problem(params: dict[str, Any]) -> str | None:
    if "_meta" not in params or params["_meta"] is None:
        return None
    meta = params["_meta"]
    if not isinstance(meta, dict):
        return "params._meta: must be an object"
    token = meta.get("progressToken")
    if "progressToken" in meta and not isinstance(token, str | int):
        return "params._meta.progressToken: must be a string or an integer"
    return None


def _init_problem(params: dict[str, Any]) -> str | None:
    info, capabilities = params.get("clientInfo"), params.get("capabilities")
    if "clientInfo" not in params:
        return "params.clientInfo: is required (an object naming the client: name and version)"
    if not isinstance(info, dict):
        return "params.clientInfo: must be an object with name and version"
    for field in ("name", "version"):
        if field not in info:
            return f"params.clientInfo.{field}: is required (a string)"
        if not isinstance(info[field], str):
            return f"params.clientInfo.{field}: must be a string"
    for field in _INFO_TEXTS:
        if info.get(field) is not None and not isinstance(info[field], str):
            return f"params.clientInfo.{field}: must be a string"
    if info.get("icons") is not None and not isinstance(info["icons"], list):
        return "params.clientInfo.icons: must be an array"
    if "capabilities" not in params:
        return "params.capabilities: is required (an object; {} for none)"
    if not isinstance(capabilities, dict):
        return "params.capabilities: must be an object ({} for none)"
    return _capability_problem(capabilities)


def _capability_problem(capabilities: dict[str, Any]) -> str | None:
    for name in sorted(_MODELLED & set(capabilities)):
        value = capabilities[name]
        if value is None:
            continue
        if not isinstance(value, dict):
            return f"params.capabilities.{name}: must be an object"
        for key, inner in value.items():
            if key == "listChanged" and isinstance(inner, list | dict):
                return f"params.capabilities.{name}.listChanged: must be true or false"
            if name in _OF_OBJECTS and key != "listChanged" and not isinstance(inner, dict | None):
                return f"params.capabilities.{name}.{key}: must be an object"
    return None
