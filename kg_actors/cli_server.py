"""The commands that run and watch the background server: start, stop, restart, status; and the /health
probe they share with `kg doctor`.

Standard library only, imported lazily where it costs: `kg mcp` (which starts the server when none
answers) loads this module at every client's start.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from . import pid_file, server_log, store_holder
from .stop_log import log_size, say_stopped
from .build import build_id, stale_said
from .core import constants as C
from .server_probe import (HUNG_AFTER, OtherServer, editor_fix, get_health, listening, port_taken, probe_health,
                           stuck)
from .server_process import is_server, is_stopped, port_holder, stopped_said
from .storage import unusable as storage_unusable

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each `kg mcp` start
if TYPE_CHECKING:
    from typing import Any

    from .config import Config

START_TIMEOUT = 15.0
STOP_TIMEOUT = 15.0
# How long a start waits for a server that still holds the store but answers no more (it is stopping).
STOPPING_WAIT = 10.0


def storage_error(root: Path, exc: OSError) -> str:
    """Why the storage directory cannot be used, with the fix for that cause (a read-only mount or a full
    disk is not a matter of permissions)."""
    import errno

    where = f"cannot use the storage directory {root}"
    if exc.errno == errno.EROFS:
        return f"{where}: it is on a file system mounted read-only; mount it writable, or set KG_HOME to another"
    if exc.errno == errno.ENOSPC:
        return f"{where}: the disk is full; free space on it (df {root}), or set KG_HOME to another disk"
    if exc.errno == errno.ENOTDIR:
        return f"{where}: a part of its path is a file, not a folder; set KG_HOME to a folder"
    named = f"{exc.filename}: " if exc.filename else ""
    return (f"{where}: {named}{exc.strerror or exc}; fix its permissions, or set KG_HOME to a directory you "
            f"can write")


def env_config(args: argparse.Namespace) -> Config:
    from .config import Config, ConfigError

    try:
        return Config.from_env(port=getattr(args, "port", None), editor_port=getattr(args, "editor_port", None))
    except ConfigError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def url_of(config: Config, port: int) -> str:
    return f"http://{config.host}:{port}"


def running_elsewhere(config: Config) -> tuple[int, int, dict[str, Any]] | None:
    """This store's server when it serves on another port than the environment's: its pid, port and
    /health. The pid file names the port; one of an older kg (pid only) is looked up in /proc."""
    from . import server_process

    if not config.root.is_dir():  # no store yet, or a file (said by the caller): no server of it anywhere
        return None
    pid, port, _ = pid_file.named(config.root / "server.pid")
    if pid is None:
        return None
    ports = [port] if port is not None else sorted(server_process.listening_ports(pid))
    for candidate in ports:
        if candidate == config.port:
            continue
        health = get_health(url_of(config, candidate))
        if health and health.get("pid") == pid and _serves(health, config) and not _editor_port(health, candidate):
            return pid, candidate, health
    return None


def _editor_port(health: dict[str, Any], port: int) -> bool:
    """The editor's port answers /health too (it serves the API for the page): not where clients connect."""
    editor = health.get("editor")
    return isinstance(editor, dict) and editor.get("port") == port


def _serves(health: dict[str, Any], config: Config) -> bool:
    storage = health.get("storage")
    return not storage or Path(storage) == config.root


def not_a_folder(root: Path) -> str | None:
    """The store is a file: no permission would help (mkdir said "File exists; fix its permissions")."""
    if root.exists() and not root.is_dir():
        return f"{root} is a file, not a folder: point KG_HOME at a folder"
    return None


def _serve_args(args: argparse.Namespace) -> list[str]:
    """The `kg serve` options `kg start` and `kg restart` pass through."""
    out = []
    if getattr(args, "port", None) is not None:
        out += ["--port", str(args.port)]
    if getattr(args, "editor_port", None) is not None:
        out += ["--editor-port", str(args.editor_port)]
    if getattr(args, "no_editor", False):
        out.append("--no-editor")
    return out


def cmd_start(args: argparse.Namespace) -> int:
    config = env_config(args)
    answer = probe_health(config.url, 1.0)
    if isinstance(answer, OtherServer):  # ours could not bind the port; and its clients would reach that one
        print(f"kg: not started: {answer.taken(config.port)}: {answer.fix()}", file=sys.stderr)
        return 1
    health = answer if isinstance(answer, dict) else None
    if health and not _serves(health, config):
        # This store has no server there, and a script going on would use that one.
        print(f"kg: not started: {_other_store(health, config)}", file=sys.stderr)
        return 1
    if health:
        _say_running(config, health)
        return 0
    if not_a_folder(config.root):
        print(f"kg: the server did not start: {not_a_folder(config.root)}", file=sys.stderr)
        return 1
    elsewhere = running_elsewhere(config)
    if elsewhere:
        print(f"kg: {_elsewhere_said(config, *elsewhere)}", file=sys.stderr)
        return 1
    if (holder := store_holder.foreign(config.root)) is not None:  # its server would be refused the store
        print(f"kg: not started: {holder.said(config.root)}: {holder.fix()}", file=sys.stderr)
        return 1
    if config.port == 0:  # a background server on a port nobody learns: no client, hook or `kg stop` finds it
        print("kg: the background server needs a fixed port its clients can find, not 0: give --port PORT or "
              "KG_HTTP_PORT a port number (`kg serve --port 0` runs one in the foreground)", file=sys.stderr)
        return 2
    deadline = time.monotonic() + START_TIMEOUT
    try:
        config.root.mkdir(parents=True, exist_ok=True)
        turn = _start_turn(config.root, deadline)
    except OSError as exc:
        print(f"kg: the server did not start: {storage_error(config.root, exc)}", file=sys.stderr)
        return 1
    try:
        if turn is None:
            print(f"kg: the server did not start within {START_TIMEOUT:.0f} s: another `kg start` is still "
                  f"starting it (`kg status` tells when it answers)", file=sys.stderr)
            return 1
        return _start(args, config, deadline)
    finally:
        if turn is not None:
            os.close(turn)


def _say_running(config: Config, health: dict[str, Any]) -> None:
    """Running already (a start's success), and the restart it needs when it runs other code than this kg."""
    print(f"kg: already running at {config.url}{_pid_of(health)}")
    if (stale := stale_said(health, build_id())) is not None:
        print(f"kg: {stale}\n    fix: kg stop && kg start (the installed kg then serves)")


def _start_turn(root: Path, deadline: float) -> int | None:
    """The store's start.lock, held while this command starts the server and waits for it: starters
    (`kg start`, every `kg mcp` finding no server) go one at a time, so the next finds the server up
    instead of a child refused the store. None when the turn did not come before `deadline`."""
    import fcntl

    fd = os.open(root / "start.lock", os.O_RDWR | os.O_CREAT, 0o600)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)


def _start(args: argparse.Namespace, config: Config, deadline: float) -> int:
    health = get_health(config.url)  # the starter before this one may have started it
    if health:
        _say_running(config, health)
        return 0
    pid, port, _ = pid_file.named(config.root / "server.pid")
    why = stuck(config.host, pid, port) if pid is not None else None
    if why is not None:  # no exit to wait for: said at once (a SessionStart hook waited 10 s for one)
        print(f"kg: the server did not start: the server holding {config.root} {why}", file=sys.stderr)
        return 1
    if _wait_for_stopping(config):
        deadline = time.monotonic() + START_TIMEOUT  # the wait was the old server's: the new one gets its own
    log_path = config.root / "server.log"
    server_log.rotate_if_past(log_path, C.SERVER_LOG_MAX_BYTES)
    try:
        with open(log_path, "ab") as log:
            start_offset = log.tell()
            proc = subprocess.Popen(
                [sys.executable, "-P", "-m", "kg_actors", "serve", *_serve_args(args)], stdin=subprocess.DEVNULL,
                stdout=log, stderr=log, start_new_session=True,
            )
    except OSError as exc:
        print(f"kg: the server did not start: {storage_error(config.root, exc)}", file=sys.stderr)
        return 1
    while time.monotonic() < deadline:
        health = get_health(config.url, 0.5)
        if health:
            print(f"kg: serving {config.root} at {config.url}{_pid_of(health) or f' (pid {proc.pid})'}")
            return 0
        # Refused the store by a server still starting (a `kg serve` of its own): that one is waited for.
        if proc.poll() is not None and not (_refused_the_store(log_path, start_offset) and _still_starting(config)):
            break
        time.sleep(0.05)
    with open(log_path, "rb") as log:
        log.seek(start_offset)
        lines = log.read().decode(errors="replace").strip().splitlines()
    print(f"kg: the server did not start: {_why_not(lines, proc, config)} (see {log_path})", file=sys.stderr)
    return 1


def _pid_of(health: dict[str, Any]) -> str:
    pid = health.get("pid")
    return f" (pid {pid})" if isinstance(pid, int) else ""


def _refused_the_store(log_path: Path, offset: int) -> bool:
    with open(log_path, "rb") as log:
        log.seek(offset)
        return b"KG PREFLIGHT: another memory server already uses" in log.read()


def _still_starting(config: Config) -> bool:
    """The store's holder has not announced itself yet (a server writes its pid file once it serves)."""
    from .server_process import parse

    if store_holder.foreign(config.root) is not None:  # no server of this kg: none is coming
        return False
    try:
        return not is_server(parse((config.root / "server.pid").read_text())[0])
    except (OSError, ValueError):
        return True


def _wait_for_stopping(config: Config) -> bool:
    """Wait (bounded) for a server that holds the store but answers no more: a `kg stop` or `kg restart`
    drains it, then it saves and exits, and a new one started meanwhile is refused the store (spec 000: a
    restart does not disconnect the tools; `kg mcp` starts one on its next call). Whether it waited."""
    pid, _, _ = pid_file.named(config.root / "server.pid")
    if pid is None:
        return False  # none, or one still starting (it writes the file once it serves): waited for after
    print(f"kg: the server holding {config.root} (pid {pid}) is stopping; waiting for it to exit", flush=True)
    deadline = time.monotonic() + STOPPING_WAIT
    while is_server(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return True


def _why_not(lines: list[str], proc: subprocess.Popen[bytes], config: Config) -> str:
    """What the child said that explains it: its preflight message, else its last line that is not a
    routine (DEBUG or INFO) log line; or that it is still starting, or exited without a word."""
    import re

    said = next((line[line.index("KG PREFLIGHT"):] for line in lines if "KG PREFLIGHT" in line), None)
    if said is None:
        said = next((line for line in reversed(lines) if not re.match(r"\S+ \S+ (DEBUG|INFO) ", line)), None)
    if proc.poll() is None:
        return (f"it did not answer at {config.url} within {START_TIMEOUT:.0f} s and is still starting (pid "
                f"{proc.pid}; `kg status` tells when it answers)" + (f"; it said: {said}" if said else ""))
    return said or f"it exited with code {proc.returncode} without saying why"


def _other_store(health: dict[str, Any], config: Config) -> str:
    """What a server on this port that serves another store is, and the fix."""
    return (f"the server at {config.url}{_pid_of(health)} serves {health.get('storage')}, not {config.root} "
            f"(KG_HOME); stop it there (KG_HOME={shlex.quote(str(health.get('storage')))} kg stop), or give this store another port "
            f"(--port or KG_HTTP_PORT)")


def _elsewhere_said(config: Config, pid: int, port: int, health: dict[str, Any]) -> str:
    return (f"the server of {config.root} runs at {url_of(config, port)} (pid {pid}), not at {config.url} "
            f"(KG_HTTP_PORT or --port): the clients and hooks set up for port {config.port} do not reach it; "
            + (f"kg stop && kg start moves it to port {config.port}, or " if config.port else "")  # start refuses 0
            + f"set KG_HTTP_PORT={port}")


def cmd_stop(args: argparse.Namespace) -> int:
    config = env_config(args)
    if not_a_folder(config.root):
        print(f"kg: {not_a_folder(config.root)}", file=sys.stderr)
        return 1
    pid, port, why_not = pid_file.named(config.root / "server.pid")
    if pid is None and (config.root / "start.lock").exists():
        # A `kg start` may be bringing one up this moment (it said "not running", then the server came up):
        # once its turn is over, the server it started has written its pid file.
        turn = _start_turn(config.root, time.monotonic() + START_TIMEOUT)
        if turn is not None:
            os.close(turn)
            again = pid_file.named(config.root / "server.pid")
            if again[0] is not None or again[2] != "no pid file":  # else the first look's words: it removed
                pid, port, why_not = again  # the stale file this one found missing
    # No pid file (removed, or a full disk had no room for it), or --port naming the server meant: the one
    # answering on the port says its pid.
    named_port = getattr(args, "port", None) is not None
    health = None
    if pid is None or named_port:
        answer = probe_health(config.url)
        health = answer if isinstance(answer, dict) else None
        found = health.get("pid") if health else None
        if isinstance(answer, OtherServer) and pid is None:  # not this kg's to stop: who, and how
            print(f"kg: not stopping it: {answer.taken(config.port)}: {answer.fix()}", file=sys.stderr)
            return 1
        if health and not _serves(health, config):  # --port names this store's server, never another's
            print(f"kg: not stopping it: {_other_store(health, config)}", file=sys.stderr)
            return 1
        if isinstance(found, int) and is_server(found):
            pid, port = found, config.port
        elif pid is None and answer == "hung":
            return _hung_port(config, answer)
        elif pid is None and health is None:  # the answer first: what is said of the pid file may be long
            why_not = (f"{why_not}, and no kg server answers at {config.url}" if why_not == "no pid file" else
                       f"no kg server answers at {config.url}; {why_not}")
    if pid is None:
        holder = store_holder.foreign(config.root) if health is None else None  # not this kg's to stop
        print(f"kg: not running ({why_not})" + (f"; {holder.said(config.root)}: {holder.fix()}" if holder else ""))
        return 0
    # Stopped by a signal, or hung (its loop blocked: a SIGTERM would wait in it unheard): this command would
    # wait 15 s for an exit that cannot come, and a signal sent now may land whenever it resumes. Told at once
    # instead, with the user's ways out; one answering (or that closed its port: stopping) is asked to stop.
    said = None if health else stuck(config.host, pid, port or config.port)
    if said is not None:
        print(f"kg: not stopping it: the server holding {config.root} {said}", file=sys.stderr)
        return 1
    asked = time.time()
    log_from = log_size(config.root)
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        print(f"kg: not running (pid {pid} is gone)")
        return 0
    deadline = time.monotonic() + STOP_TIMEOUT
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return say_stopped(pid, config.root, asked, log_from)
        time.sleep(0.05)
    print(f"kg: pid {pid} did not stop within {STOP_TIMEOUT:.0f} s", file=sys.stderr)
    return 1


def _hung_port(config: Config, answer: object) -> int:
    """No pid file, and what holds the port takes connections but answers nothing: a hung kg server is
    named with the ways to end it (exit 1); another program is left alone, and said so."""
    holder = port_holder(config.port)
    if holder is not None and is_server(holder):
        print(f"kg: not stopping it: the port {config.port} is held by a kg server (pid {holder}) that does not "
              f"answer /health within {HUNG_AFTER:.0f} s: it is hung; `kill {holder}` asks it to stop, "
              f"`kill -9 {holder}` ends it", file=sys.stderr)
        return 1
    taken, fix = port_taken(config.port, answer)
    print(f"kg: not running (no pid file; at {config.url} {taken}: not the kg server; {fix})")
    return 0


def loaded_said(health: dict[str, Any]) -> str:
    """The loaded graphs, each project's with its folder (an older server's health names none), a key in a
    folder's name masked (an older server's health has it whole)."""
    from .core.held_names import masked_names  # not at import: `kg mcp` starts without attrs

    given = health.get("project_folders")
    folders: dict[str, Any] = given if isinstance(given, dict) else {}
    return ", ".join(f"{k} ({masked_names(folders[k])})" if isinstance(folders.get(k), str) else str(k)
                     for k in health.get("loaded_graphs") or [])


def _stale(config: Config) -> str | None:
    """What a pid file naming no server of this store named, when one did (it is removed by this look)."""
    if not config.root.is_dir():
        return None
    said = pid_file.named(config.root / "server.pid")[2]
    return said if said.startswith(("stale", str(config.root / "server.pid"))) else None


def cmd_status(args: argparse.Namespace) -> int:
    from .setup.doctor import clock_line, trouble_lines

    config = env_config(args)
    url = config.url
    answer = probe_health(url)  # 3 s: a hung server is told at once, not after the loaded-graph wait below
    # A pid file naming no server is removed by the first look at it: what it named is said here, once.
    stale = None if isinstance(answer, dict) else _stale(config)
    if not isinstance(answer, dict) and (unusable := storage_unusable.why(config.root)) is not None:
        # No server of this store can run there; a store made read-only under its server keeps its pid file.
        print(f"kg: not running at {url} (storage {config.root}): {unusable[0]}" + (f"; {stale}" if stale else "")
              + f"\n    fix: {unusable[1]}")
        return 3
    elsewhere = None if isinstance(answer, dict) else running_elsewhere(config)
    if isinstance(answer, dict):
        # Once the user graph is in (the server waits for a start's load, bounded): whether it reads is then known.
        health = get_health(url, 15.0, "?user=loaded") or answer
    elif elsewhere is not None:
        url, health = url_of(config, elsewhere[1]), elsewhere[2]
    else:
        said = f"not running at {url} (storage {config.root}){_crashed(config)}"
        print(f"kg: {no_answer_said(config, answer) or said}" + (f"; {stale}" if stale else ""))
        return 3
    if elsewhere is None and not _serves(health, config):
        # This store has no server: the one here is another store's, said where a script reads it (stdout).
        print(f"kg: not running for {config.root}: {_other_store(health, config)}")
        return 3
    troubles = trouble_lines(health)
    print(f"kg: running at {url}, version {health.get('version')}, storage {health.get('storage')}, "
          f"graphs loaded: {loaded_said(health) or 'none'}", *troubles, sep="\n")
    editor = health.get("editor") or {}
    if editor.get("state", "").startswith("off:"):
        print(f"kg: the visual editor is {editor['state']}; {editor_fix(editor['state'])}")
    elif editor.get("state") == "up":
        print(f"kg: visual editor at http://127.0.0.1:{editor.get('port')}/")
    if elsewhere is None and (refused := _refused(config.root)) is not None:
        print(f"kg: warning: {refused}")
    if (clock := clock_line(health)) is not None:
        print(clock)
    if elsewhere is not None:
        print(f"kg: warning: {_elsewhere_said(config, *elsewhere)}", file=sys.stderr)
    if (stale := stale_said(health, build_id())) is not None:
        print(f"kg: {stale}\n    fix: kg stop && kg start (the installed kg then serves)")
        return 1
    return 1 if troubles else 0  # a graph in trouble fails here as in kg doctor


def _refused(root: Path) -> str | None:
    """Why no commit or sync goes through (a secret left by hand in a graph file), read from the store; never a
    failure of its own (status says what it can)."""
    from .sync.common import refused_said  # not at import: `kg mcp` starts without attrs

    try:
        return refused_said(root)
    except Exception:  # noqa: BLE001 - an unreadable store is for kg doctor to name
        return None


def _crashed(config: Config) -> str:
    """What server.log's tail tells of a server that is not running: that it stopped without shutting down
    (killed, or crashed), or nothing."""
    lines = server_log.last_lines(config.root / "server.log", server_log.UNCLEAN_TAIL)
    return "; it stopped without shutting down: see kg logs" if lines and server_log.stopped_uncleanly(lines) else ""


def no_answer_said(config: Config, answer: object) -> str | None:
    """Why no server answers for this store at its port when something is there (`answer`: probe_health's):
    the store's server stopped, hung or still stopping, or another program holding the port. None: none runs."""
    pid, _, _ = pid_file.named(config.root / "server.pid")
    if pid is not None:  # a kg server holds this store but does not answer (stopped, hung, still stopping)
        return f"the server holding {config.root} (pid {pid}) " + (stopped_said(pid) if is_stopped(pid) else
               f"does not answer at {config.url}; `kg stop` stops it (or kill {pid}), then `kg start`")
    if answer == "hung" or listening(config.host, config.port):
        taken, fix = port_taken(config.port, answer)
        return f"not running at {config.url}: {taken}; {fix}"
    if (holder := store_holder.foreign(config.root)) is not None:  # kg-memory on a port of its own
        return f"not running at {config.url}: {holder.said(config.root)}; {holder.fix()}, then kg start"
    return None


def stores_server(config: Config) -> tuple[str, dict[str, Any]] | None:
    """This store's server, where it answers (the environment's port, or warned: another), and its /health;
    None, said on stderr with what is really wrong, when none serves this store (the editor's lookup)."""
    answer = probe_health(config.url)
    if isinstance(answer, dict):
        if _serves(answer, config):
            return config.url, answer
        said = _other_store(answer, config)  # its editor would show and change another store's memory
    else:
        elsewhere = None if not_a_folder(config.root) else running_elsewhere(config)
        if elsewhere is not None:
            print(f"kg: warning: {_elsewhere_said(config, *elsewhere)}", file=sys.stderr)
            return url_of(config, elsewhere[1]), elsewhere[2]
        said = not_a_folder(config.root) or no_answer_said(config, answer) or \
            f"no server answers at {config.url}: start it first (kg start), the editor is part of it"
    print(f"kg: {said}", file=sys.stderr)
    return None


def cmd_restart(args: argparse.Namespace) -> int:
    stopped = cmd_stop(args)
    return stopped if stopped else cmd_start(args)
