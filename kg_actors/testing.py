"""Test helpers that ship with the package (as trio ships trio.testing).

`ServerProcess` runs a real `kg serve` on a free loopback port with its own
home and store; `mcp_text` unwraps a tool reply; `graph_builder` writes a
reference-format store for a test or a benchmark.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.types import CallToolResult

START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """A `kg serve` subprocess with a temporary HOME and KG_HOME."""

    def __init__(self, base: Path, extra_env: Mapping[str, str] | None = None, python: str | None = None) -> None:
        self.python = python or sys.executable  # another build's interpreter, for a bench's A/B
        self.home = base / "home"
        self.store = base / "store"
        self.home.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.editor_port = free_port()
        self.env = dict(os.environ, HOME=str(self.home), KG_HOME=str(self.store), KG_HTTP_PORT=str(self.port),
                        KG_EDITOR_PORT=str(self.editor_port), KG_SAVE_INTERVAL="3600", PYTHONUNBUFFERED="1")
        self.env.update(extra_env or {})
        self._own_port = "KG_HTTP_PORT" not in (extra_env or {})  # a port the caller chose is not replaced
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = base / f"serve-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def project(self, name: str) -> str:
        path = self.home / name
        path.mkdir(parents=True, exist_ok=True)
        return str(path)

    def start(self, *args: str, editor_tries: int = 3, port_tries: int = 3) -> ServerProcess:
        log = open(self.log, "ab")
        self.proc = subprocess.Popen([self.python, "-m", "kg_actors", "serve", *args], env=self.env, cwd=self.home,
                                     stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                taken = f"cannot serve on 127.0.0.1:{self.port}" in self.log.read_text()
                if taken and port_tries > 1 and self._own_port:
                    # Another server took the port between free_port() and this bind: take another.
                    self.port = free_port()
                    self.env["KG_HTTP_PORT"] = str(self.port)
                    return self.start(*args, editor_tries=editor_tries, port_tries=port_tries - 1)
                raise RuntimeError(f"kg serve exited {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            health = self.health()
            editor = (health or {}).get("editor", {}).get("state", "")
            if health is not None and ("--no-editor" in args or editor == "up"):
                return self
            if editor.startswith("off: port") and editor_tries > 1:
                # Another test's server took the editor port between free_port() and this bind: take another.
                self.kill()
                self.editor_port = free_port()
                self.env["KG_EDITOR_PORT"] = str(self.editor_port)
                return self.start(*args, editor_tries=editor_tries - 1, port_tries=port_tries)
            time.sleep(0.02)
        self.kill()  # a server that never answered must not outlive the run that started it
        raise RuntimeError(f"kg serve did not answer in time: {self.log.read_text()[-2000:]}")

    def health(self) -> dict[str, Any] | None:
        """/health's answer; None when nothing answers. A loaded machine (a suite on two cores) may take over
        half a second: only a server that does not answer at all is None."""
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=5.0) as r:
                health: dict[str, Any] = json.loads(r.read())
                return health
        except OSError:
            return None

    def logs_written(self, timeout: float = 10.0) -> None:
        """Wait until the decision logs hold every line queued so far (they are appended off the loop)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            health = self.health()
            if health is None or not health.get("logs_pending"):
                return
            time.sleep(0.005)
        raise RuntimeError("decision log lines still pending")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60.0) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def stored_sessions(store: Path) -> dict[str, Any]:
    """The sessions a restart would load: sessions.json with its journal's records over it. Only reads
    (a running server may be appending; a line it has not finished is left out)."""
    from . import session_saves
    from .storage import journal

    path = store / "sessions.json"
    raw = json.loads(path.read_text()) if path.exists() else {}
    return session_saves.over(raw, journal.read(journal.journal_path(path)))


def mcp_text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def session_of(text: str) -> str:
    """The session id a kg_read reply names (a first part of a paged reply names it in its footer)."""
    if "Session: " not in text and "kg_read(session_id='" in text:
        return text.rsplit("kg_read(session_id='", 1)[1].split("'", 1)[0]
    return text.rsplit("Session: ", 1)[1].split()[0]


def write_store(root: Path, user: dict[str, Any] | None = None,
                projects: dict[str, dict[str, Any]] | None = None) -> None:
    """Write reference-format graph files: user.json and projects/<slug>/graph.json."""
    root.mkdir(parents=True, exist_ok=True)
    if user is not None:
        (root / "user.json").write_text(json.dumps(user))
    for slug, graph in (projects or {}).items():
        d = root / "projects" / slug
        d.mkdir(parents=True, exist_ok=True)
        (d / "graph.json").write_text(json.dumps(graph))
