"""What is wrong with a request's params that the MCP SDK would answer vaguely, named field by field.

The SDK validates params against its models and answers any misfit with "Invalid request parameters"
and empty `data`: a hand-written client that left out `clientInfo` could not tell what to fix. Each
rule here is one the SDK enforces (tests/http/test_rpc_params.py checks that it refuses each body named
here, and takes the ones passed), said as the field and the rule. Pure: the message in, the error out.
"""

from __future__ import annotations

from typing import Any

# The capabilities the SDK models (a value of another name is taken as it is), and the fields of each
# that the SDKs model as objects (None: every field, as an experimental capability's settings). Capabilities
# are no closed set (MCP): a member named nowhere here (`sampling.foo`, `elicitation.applyDefaults`) is
# taken as it is, as both SDKs take it.
_MODELLED = frozenset({"roots", "sampling", "elicitation", "experimental", "tasks"})
_OBJECT_FIELDS: dict[str, frozenset[str] | None] = {
    "sampling": frozenset({"context", "tools"}), "elicitation": frozenset({"form", "url"}), "experimental": None}
# A progress token of a number: the SDKs read it as an integer (zod's int(), pydantic's int, which takes a
# float with no fraction up to a 64-bit integer's size); JSON itself has one kind of number, so 1.0 is one.
_TOKEN_MAX = 2.0**63
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
    if "progressToken" in meta and not _token_fits(meta["progressToken"]):
        return "params._meta.progressToken: must be a string or a whole number"
    return None


def _token_fits(token: object) -> bool:
    if isinstance(token, float):
        return token.is_integer() and abs(token) < _TOKEN_MAX
    return isinstance(token, str | int)


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
            if _is_object_field(name, key) and not isinstance(inner, dict | None):
                return f"params.capabilities.{name}.{key}: must be an object"
    return None


def _is_object_field(capability: str, key: str) -> bool:
    if capability not in _OBJECT_FIELDS or key == "listChanged":
        return False
    fields = _OBJECT_FIELDS[capability]
    return fields is None or key in fields
