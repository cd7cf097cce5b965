"""Whether a request means this server's store: the shim and the hooks name the store they were set up for
(X-KG-Home, the path percent-encoded by the shim, raw from a hook), and a server of another store (a second
install on the same port) refuses them, so an agent never writes lessons into, or is shown, another memory.
A request that names no store (the editor, a script, an older shim) is served as before.
"""

from __future__ import annotations

import os
import shlex
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HEADER = b"x-kg-home"


def named_store(scope: Mapping[str, Any]) -> str | None:
    """The store a request names, when it names one by an absolute path."""
    raw = next((v for k, v in scope.get("headers") or [] if k.lower() == HEADER), None)
    if not raw:
        return None
    said = os.fsdecode(urllib.parse.unquote_to_bytes(raw.strip()))
    return said if said.startswith("/") and "\x00" not in said else None


def other_store(scope: Mapping[str, Any], root: Path) -> str | None:
    """Why this server must not serve the request: it names another store than `root`. None: it is ours."""
    said = named_store(scope)
    # As said first, without a realpath call; realpath, unlike Path.resolve, never raises (a symlink loop).
    if said is None or said == str(root) or os.path.realpath(said) == str(root):
        return None
    return (f"the kg server on this port serves {root}, not {said} (KG_HOME): it is another kg's; stop it "
            f"there (KG_HOME={shlex.quote(str(root))} kg stop), or give this store another port (KG_HTTP_PORT), "
            "then restart this agent")
