"""Where the store lives, which ports, how often the tick runs: read once from the environment.

A malformed value is an error that names the variable, not a silent default.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

DEFAULT_PORT = 8765
DEFAULT_EDITOR_PORT = 8766
PORT_MAX = 65_535
DEFAULT_SAVE_INTERVAL = 30.0
DEFAULT_AUTOCOMMIT_INTERVAL = 900.0  # seconds between git commits of a store that is a repository; 0: off


class ConfigError(Exception):
    pass


def _number(env: Mapping[str, str], name: str, default: float, kind: Callable[[str], float] = float,
            minimum: float = 0, maximum: float = float("inf")) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        # ASCII digits only, no "_": Python reads "１８８６０" and "1_0" as numbers; the hooks' URLs and curl do not.
        value = kind(raw) if raw.isascii() and "_" not in raw else kind("not a number")
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a {'whole ' if kind is int else ''}number") from None
    if not math.isfinite(value):  # nan passed every bound (each comparison with it is false), then failed deep
        raise ConfigError(f"{name}={raw!r} is not a finite number")
    if value < minimum:
        raise ConfigError(f"{name}={raw!r} must be at least {minimum}")
    if value > maximum:
        raise ConfigError(f"{name}={raw!r} must be at most {maximum}")
    return value


def _port(env: Mapping[str, str], name: str, default: int) -> int:
    """A port as the hooks put it in their URL: ASCII digits only ("+8765" and " 8765" are numbers to Python,
    and curl, given the hooks' URL, reaches nothing)."""
    raw = env.get(name)
    if raw is not None and raw != "" and not (raw.isascii() and raw.isdigit()):
        raise ConfigError(f"{name}={raw!r} is not a port: digits 0-9 only, no sign or spaces (default {default})")
    return int(_number(env, name, default, int, 0, PORT_MAX))


def _host(env: Mapping[str, str]) -> str:
    # The API has no login: the memory (and a sync to any remote) is safe only while no other machine can reach it.
    raw = env.get("KG_HTTP_HOST") or ""
    host = raw.strip() or "127.0.0.1"  # blank: the default, as a blank number is
    if host.lower() == "localhost":
        return host
    try:
        loopback = ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        raise ConfigError(f"KG_HTTP_HOST={raw!r} is not an IPv4 address or localhost: "
                          "the server listens on this machine only (127.0.0.1)") from None
    if not loopback:
        raise ConfigError(f"KG_HTTP_HOST={raw!r} is not a loopback address: the server has no login, so it listens "
                          "on this machine only (127.0.0.1)")
    if host != "127.0.0.1":  # the hooks and the agents' plugins reach the server at 127.0.0.1 only
        raise ConfigError(f"KG_HTTP_HOST={raw!r} is not 127.0.0.1: the hooks reach the server there only; "
                          "unset it, or set it to 127.0.0.1 (or localhost)")
    return host


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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
    orphan_grace_days: float = 365
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Config:
        env = dict(os.environ if env is None else env)
        root = Path(os.path.expanduser(env.get("KG_HOME") or env.get("KG_STORAGE_ROOT") or "~/.knowledge-graph"))
        values: dict[str, Any] = dict(  # Config's fields, of their several types
            root=root.resolve(),
            host=_host(env),
            port=_port(env, "KG_HTTP_PORT", DEFAULT_PORT),
            editor_port=_port(env, "KG_EDITOR_PORT", DEFAULT_EDITOR_PORT),
            save_interval=_number(env, "KG_SAVE_INTERVAL", DEFAULT_SAVE_INTERVAL, float, 0.01),
            autocommit_interval=_number(env, "KG_AUTOCOMMIT_INTERVAL", DEFAULT_AUTOCOMMIT_INTERVAL, float, 0),
            orphan_grace_days=_number(env, "KG_ORPHAN_GRACE_DAYS", 365, float, 0),
            log_level=_log_level(env),
        )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"
