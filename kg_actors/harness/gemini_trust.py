"""Whether Gemini CLI trusts a folder, decided as Gemini 0.61 decides it (it runs no MCP server in one it
does not: the kg tools are absent there while kg's user-level hooks still run).

Read from the same places, cheaply and never over the network: the environment overrides
(GEMINI_RESTRICTED_MODE, GEMINI_CLI_TRUST_WORKSPACE, as the hook saw them), the setting
`security.folderTrust.enabled` (on unless set false) in ~/.gemini/settings.json, and the rules of
~/.gemini/trustedFolders.json (TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST; the longest matching rule wins;
no rule: not trusted). Anything that cannot be read counts as trusted: a hook says nothing it is not sure of.
That includes a file that is not a regular file (a FIFO would hold a server thread in open() for ever) and
one over READ_LIMIT (its rules are not all known: a part read would drop the ones after the cut).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ..setup import jsonc
from ..storage import user_files

HOW = ("Gemini CLI runs kg's tools (its MCP server) only in a folder you trust: answer its trust prompt, "
       "run /permissions in Gemini, or add the folder to ~/.gemini/trustedFolders.json as "
       '{"/path/to/folder": "TRUST_FOLDER"}.')
# The preload's lead in an untrusted folder, in place of its kg_read instruction.
UNTRUSTED = ("KG tools are OFF in this folder: Gemini CLI does not trust it, so it runs no MCP server here and "
             "kg_read, kg_put_node and the other kg tools cannot be called. Tell the user: " + HOW)
# The environment a hook forwards (its payload's field): Gemini's overrides, as Gemini saw them.
ENV_FIELD = "kg_gemini_env"
READ_LIMIT = 1_000_000  # bytes; Gemini's own files are a few KB
ENV_NAMES = ("GEMINI_RESTRICTED_MODE", "GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_CLI_HOME",
             "GEMINI_CLI_TRUSTED_FOLDERS_PATH")


def trusted(folder: str, rules: Mapping[str, object], enabled: bool, env: Mapping[str, str],
            real: Any = os.path.realpath) -> bool:
    """Gemini's decision for `folder`, from its rules (path -> level) and setting; `real` resolves links."""
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return False
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true" or not enabled:
        return True
    where = os.path.normpath(real(folder))
    best, level = -1, None
    for path, rule in rules.items():
        base = os.path.dirname(path) if rule == "TRUST_PARENT" else path
        if not isinstance(path, str) or not os.path.isabs(base):
            continue
        base = os.path.normpath(real(base))
        inside = where == base or where.startswith(base.rstrip(os.sep) + os.sep)
        if inside and len(path) > best:
            best, level = len(path), rule
    return level in ("TRUST_FOLDER", "TRUST_PARENT")


def folder_trusted(folder: object, env: Mapping[str, str], home: str) -> bool:
    """Read the settings and rules; True when unsure (unreadable, not a folder path)."""
    if not isinstance(folder, str) or not os.path.isabs(folder):
        return True
    gemini = os.path.join(env.get("GEMINI_CLI_HOME") or home, ".gemini")
    try:
        settings = _read(os.path.join(gemini, "settings.json"), {})
        rules = _read(env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(gemini, "trustedFolders.json"), {})
        security = settings.get("security") if isinstance(settings, dict) else None
        trust = security.get("folderTrust") if isinstance(security, dict) else None
        enabled = not (isinstance(trust, dict) and trust.get("enabled") is False)
        if not isinstance(rules, dict):
            return True  # Gemini itself stops on a file like this
        return trusted(folder, rules, enabled, env)
    except (OSError, ValueError):
        return True


def forwarded(payload: Mapping[str, Any]) -> dict[str, str]:
    """The Gemini environment the hook forwarded: only its known names, only strings."""
    env = payload.get(ENV_FIELD)
    if not isinstance(env, dict):
        return {}
    return {k: v for k, v in env.items() if k in ENV_NAMES and isinstance(v, str) and v}


def _read(path: str, missing: Any) -> Any:
    """The file's JSON; OSError when it is no regular file or is unreadable, ValueError when over the limit."""
    try:
        with user_files.open_regular(path) as f:
            raw = f.read(READ_LIMIT + 1)
    except FileNotFoundError:
        return missing
    if len(raw) > READ_LIMIT:
        raise ValueError(f"{path}: over {READ_LIMIT} bytes")
    text = raw.decode("utf-8")  # a UnicodeDecodeError is a ValueError: unsure
    try:
        return json.loads(text)
    except ValueError:
        return jsonc.loads(text)  # Gemini strips comments from both files
