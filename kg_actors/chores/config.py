"""chores.json, re-read when it changes: one `stat` per look, the file read only when its stamp moved.

KG_CHORES and KG_BUDGET_NOTICES are read once (a server's environment does not
change). With KG_CHORES=0 the file is never looked at.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..core.chores import ChoreConfig, env_flag, parse_config
from ..storage import user_files

log = logging.getLogger(__name__)

FILE_NAME = "chores.json"
_LOGGED: dict[Path, str | None] = {}  # per file, the fault last logged by any watcher


class ConfigWatcher:
    def __init__(self, root: Path, env: dict[str, str] | None = None):
        env = dict(os.environ if env is None else env)
        self.path = root / FILE_NAME
        self._chores_env = env.get("KG_CHORES")
        self._notices_env = env.get("KG_BUDGET_NOTICES")
        self._stamp: tuple[int, int, int] | None = None
        self._warned: str | None = None
        # Through _set: a KG_CHORES that says neither on nor off is logged even when it keeps the file unread.
        self._config = self._set(None, parse_config(None, self._chores_env, self._notices_env))

    @property
    def chores_forced_off(self) -> bool:
        """KG_CHORES=0: no prompt looks at the file for chores."""
        return env_flag(self._chores_env) is False

    @property
    def forced_off(self) -> bool:
        return self.chores_forced_off and env_flag(self._notices_env) is False

    def current(self) -> ChoreConfig:
        """The configuration as the file says now (a blocking stat: cheap, and a read only on change)."""
        if self.forced_off:
            return self._config
        try:
            st = os.stat(self.path)
            stamp: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            stamp = None
        except OSError as exc:
            return self._set(None, ChoreConfig(warning=f"chores.json: cannot stat ({exc}): chores stay off"))
        if stamp == self._stamp and self._stamp is not None:
            return self._config
        if stamp is None:
            return self._set(None, parse_config(None, self._chores_env, self._notices_env))
        try:
            raw = user_files.read_bytes(self.path)  # a FIFO is an OSError here, never a hang
        except OSError as exc:
            return self._set(stamp, ChoreConfig(warning=f"chores.json: cannot read ({exc}): chores stay off"))
        return self._set(stamp, parse_config(raw, self._chores_env, self._notices_env))

    def _set(self, stamp: tuple[int, int, int] | None, config: ChoreConfig) -> ChoreConfig:
        self._stamp, self._config = stamp, config
        # The supervisor and the budget notices each watch the file: its fault is logged by the first to see it.
        said = config.warning or config.ignored  # a fault, or a gate ignored (chores stay on)
        if said and said != self._warned and said != _LOGGED.get(self.path):
            log.warning("%s", said)
        self._warned = _LOGGED[self.path] = said
        return config
