"""Where the store lives, which ports, how often the tick runs: read once from the environment.

A malformed value is an error that names the variable, not a silent default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .core.constants import ORPHAN_GRACE_DAYS
from .env_rules import DEFAULT_PORT, ConfigError, env_host, env_number, env_port, store_path

__all__ = ["Config", "ConfigError", "DEFAULT_PORT"]

DEFAULT_EDITOR_PORT = 8766
DEFAULT_SAVE_INTERVAL = 30.0
DEFAULT_AUTOCOMMIT_INTERVAL = 900.0  # seconds between git commits of a store that is a repository; 0: off
DEFAULT_ORPHAN_GRACE_DAYS = ORPHAN_GRACE_DAYS


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _orphan_grace_days(env: Mapping[str, str]) -> int:
    """Whole days, at least 1: 0, read by many as "keep forever", deleted every orphan of every graph within a
    tick; a part of a day is no grace a user would mean."""
    raw = env.get("KG_ORPHAN_GRACE_DAYS")
    if raw is None or raw.strip() == "":
        return DEFAULT_ORPHAN_GRACE_DAYS
    days = raw.strip()
    if not (days.isascii() and days.isdigit()) or int(days) < 1:
        raise ConfigError(f"KG_ORPHAN_GRACE_DAYS={raw!r} is not a grace period: a whole number of days, at least 1 "
                          f"(default {DEFAULT_ORPHAN_GRACE_DAYS}; an orphaned node is deleted once it has been "
                          "orphaned that long)")
    return int(days)


def _log_level(env: Mapping[str, str]) -> str:
    raw = env.get("KG_LOG_LEVEL") or "INFO"
    if raw.strip().upper() not in LOG_LEVELS:
        raise ConfigError(f"KG_LOG_LEVEL={raw!r} is not a log level: one of {', '.join(LOG_LEVELS)}")
    return raw.strip().upper()


@attrs.frozen
class Config:
    root: Path
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    editor_port: int = DEFAULT_EDITOR_PORT
    editor: bool = True
    save_interval: float = DEFAULT_SAVE_INTERVAL
    autocommit_interval: float = DEFAULT_AUTOCOMMIT_INTERVAL
    orphan_grace_days: int = DEFAULT_ORPHAN_GRACE_DAYS
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Config:
        env = dict(os.environ if env is None else env)
        root = Path(store_path(env))
        values: dict[str, Any] = dict(  # Config's fields, of their several types
            root=root.resolve(),
            host=env_host(env),
            port=env_port(env, "KG_HTTP_PORT", DEFAULT_PORT),
            editor_port=env_port(env, "KG_EDITOR_PORT", DEFAULT_EDITOR_PORT),
            save_interval=env_number(env, "KG_SAVE_INTERVAL", DEFAULT_SAVE_INTERVAL, float, 0.01),
            autocommit_interval=env_number(env, "KG_AUTOCOMMIT_INTERVAL", DEFAULT_AUTOCOMMIT_INTERVAL, float, 0),
            orphan_grace_days=_orphan_grace_days(env),
            log_level=_log_level(env),
        )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"
