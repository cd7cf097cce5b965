"""What `kg setup` says of this store's running server: on another port than the one it would write into every
agent (refused before anything is written: each session there would run without memory, its hooks silent), or
running other code than the kg installed (said after: restart it)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from . import served_elsewhere


def refused(out: Callable[[str], None], env: dict[str, str], store: Path, plan_only: bool) -> bool:
    """Whether this store's server runs on another port than setup's (said, with the fix)."""
    from ..config import Config

    config = Config.from_env(env)
    problem = served_elsewhere.setup_problem(store, config.port, config.url)
    if problem is None:
        return False
    said, fix = problem
    if plan_only:
        out(f"kg server: PROBLEM: {said}\n  fix: {fix}\n(plan only: nothing was changed)")
    else:
        out(f"kg setup: nothing changed: {said}\n  fix: {fix}")
    return True


def say_restart(out: Callable[[str], None], env: dict[str, str], store: Path) -> None:
    """The agents now run the installed kg's hooks and shim; a server of this store started before an upgrade
    still runs the old code (its children load the new)."""
    from ..build import build_id, stale_said
    from ..config import Config
    from ..server_probe import probe_health

    answer = probe_health(Config.from_env(env).url)
    if isinstance(answer, dict) and os.path.realpath(str(answer.get("storage"))) == str(store):
        if (stale := stale_said(answer, build_id())) is not None:
            out(f"kg setup: {stale}; restart it to serve the installed kg: kg stop && kg start")
