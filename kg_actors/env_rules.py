"""The rules a port or host from the environment must meet, standard library only: `kg mcp` (which every
client launches, and which must start fast) checks its settings by the same rules as every other kg command.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable, Mapping

DEFAULT_PORT = 8765
PORT_MAX = 65_535


class ConfigError(Exception):
    pass


def env_number(env: Mapping[str, str], name: str, default: float, kind: Callable[[str], float] = float,
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


def env_port(env: Mapping[str, str], name: str, default: int) -> int:
    """A port as the hooks put it in their URL: ASCII digits only ("+8765" and " 8765" are numbers to Python,
    and curl, given the hooks' URL, reaches nothing)."""
    raw = env.get(name)
    if raw is not None and raw != "" and not (raw.isascii() and raw.isdigit()):
        raise ConfigError(f"{name}={raw!r} is not a port: digits 0-9 only, no sign or spaces (default {default})")
    return int(env_number(env, name, default, int, 0, PORT_MAX))


def store_path(env: Mapping[str, str]) -> str:
    """The store's folder as the environment names it, not yet resolved: KG_HOME, else ~/.knowledge-graph."""
    return os.path.expanduser(env.get("KG_HOME") or env.get("KG_STORAGE_ROOT") or "~/.knowledge-graph")


def env_host(env: Mapping[str, str]) -> str:
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
