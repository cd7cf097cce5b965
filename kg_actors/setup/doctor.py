"""`kg doctor`: check every piece, read-only; each problem comes with the command that fixes it.

Harness checks reuse setup's own plan: a harness is fine exactly when `kg setup`
would have nothing to do for it.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .. import __version__, meaning_table, server_process, store_holder
from ..build import build_id, stale_said
from ..harness import gemini_trust
from ..server_probe import EDITOR_MOVE, OtherServer, editor_fix, get_health, listening, port_taken, probe_health
from ..storage import faults, kept_aside, lock
from ..storage import unusable as storage_unusable
from ..storage.files import probe_write
from ..storage.refusals import user_fix
from . import SetupError, codex
from .changes import what_changed
from .doctor_projects import check_project_folders
from .doctor_settings import check_settings, chores_note, env_ignored, served_chores
from .doctor_others import check_project_plugins, here, kg_wired, without_others
from .doctor_store import check_store, move_aside
from .doctor_guard import guarded
from .files import CUT_SHORT, Record
from .found import Found
from .plan import CUSTOMIZED, UP_TO_DATE, Step, plan_setup
from .recorded_env import recorded_ports
from .served_elsewhere import fix as fix_elsewhere, said as said_elsewhere, served_on
from .run import Context, gather

if TYPE_CHECKING:
    from ..config import Config


HEALTH_TIMEOUT = 15.0  # the server waits up to 10 s for its user graph's load (http/rest.py)
OK_SAID = {"desktop": "kg MCP entry present", "gemini": "kg hooks and MCP entry in its settings",
           "opencode": "kg-memory plugin and MCP entry present", "gauge": "the status line runs kg gauge"}


class Report:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.problems = 0
        self.warnings = 0

    def ok(self, what: str, said: str) -> None:
        self.ctx.out(f"ok    {what}: {said}")

    def note(self, what: str, said: str) -> None:
        self.ctx.out(f"--    {what}: {said}")

    def warn(self, what: str, said: str, fix: str) -> None:
        """Worth a look, not a problem: the exit status stays 0."""
        self.warnings += 1
        self.ctx.out(f"WARN  {what}: {said}")
        self.ctx.out(f"      fix: {fix}")

    def end(self) -> int:
        warned = f"{self.warnings} warning(s)" if self.warnings else ""
        if self.problems:
            said = f"{self.problems} problem(s)" + (f"; {warned}" if warned else "")
        else:  # a warning is no problem, but not "all good" either: it named something worth a look
            said = f"no problem; {warned}" if warned else "all good"
        self.ctx.out("kg doctor: " + said)
        return 1 if self.problems else 0

    def bad(self, what: str, said: str, fix: str) -> None:
        self.problems += 1
        self.ctx.out(f"FAIL  {what}: {said}")
        self.ctx.out(f"      fix: {fix}")


def doctor(ctx: Context) -> int:
    from ..chores import gauge_cli
    from ..config import Config, ConfigError

    r = Report(ctx)
    # Unset here, the ports setup wired the agents to are the ones to judge (not the default).
    recorded, source = recorded_ports(ctx.marketplace_dir, ctx.env)
    if recorded:
        ctx = attrs.evolve(ctx, env={**ctx.env, **recorded})
        r = Report(ctx)
    try:
        config = Config.from_env(ctx.env)
    except ConfigError as exc:
        r.bad("settings", str(exc), "fix or unset that variable")
        return 1
    r.note("port", _port_said(config.port, ctx.env, recorded, source))
    guarded(r, "meaning table", lambda: check_meaning(r, meaning_table.TABLE), None)
    answer = probe_health(config.url)  # 3 s: a hung server is named as such
    health = _health(config) if isinstance(answer, dict) else None
    # Each check guarded: what one runs into (a store folder doctor may not enter) is its FAIL, not the end.
    serving = guarded(r, "server", lambda: _server(r, config, health, answer), False)
    writable = guarded(r, "storage", lambda: _storage(r, config, serving), False)
    if serving and health is not None:
        guarded(r, "graphs", lambda: _graphs(r, health, writable), None)
    loaded = (health.get("loaded_graphs") or []) if serving and health is not None else ()
    guarded(r, "stored graphs", lambda: check_store(r, config.root, loaded), None)
    guarded(r, "store settings", lambda: check_settings(r, config.root), None)
    guarded(r, "project folders", lambda: check_project_folders(r, config.root), None)
    if guarded(r, "store", lambda: config.root.exists() and not config.root.is_dir(), False):
        return r.end()  # said once, by storage: no record or gauge file there
    served = served_chores(config.url) if serving else None
    gauge_wired = guarded(r, "agents", lambda: _harnesses(r, ctx, served), False)
    guarded(r, "quota gauge", lambda: r.note("quota gauge", gauge_cli.doctor_line(config.root, time.time(),
                                                                                   gauge_wired)), None)
    return r.end()


def check_meaning(r: Report, path: Path) -> None:
    """The installed package's meaning table (core/meaning.py): without it prompt recall reads words only."""
    table = meaning_table.load(path)
    if table is None:
        r.warn("meaning table", f"{path} is missing or damaged: prompt recall reads words only",
               "reinstall kg_actors (python3 -m pip install --force-reinstall kg_actors from where you installed it)")
    else:
        r.ok("meaning table", f"{len(table.index):,} word pieces, {table.dims} dimensions: prompt recall reads "
             "meaning as well as words")


def _port_said(port: int, env: dict[str, str], recorded: dict[str, str], source: Path | None) -> str:
    """Which port doctor checks, and why that one."""
    if "KG_HTTP_PORT" in recorded:
        return (f"checking {port}, the port kg setup wired the agents to ({source}); KG_HTTP_PORT is not set "
                "here (set it to check another)")
    if env.get("KG_HTTP_PORT"):
        return f"checking {port}, from KG_HTTP_PORT"
    return f"checking {port}, the default (KG_HTTP_PORT is not set, and kg setup recorded no port)"


def _health(config: Config) -> dict[str, Any] | None:
    """The server's /health once its user graph is in (a start's load may still run: the server waits
    for it, bounded), or None when no kg server answers."""
    return get_health(config.url, HEALTH_TIMEOUT, "?user=loaded")


def _server(r: Report, config: Config, health: dict[str, Any] | None, answer: object) -> bool:
    """Check the server; whether it runs on this store."""
    if health is None:
        if answer == "hung" or listening(config.host, config.port):
            taken, fix = port_taken(config.port, answer)
            then = ", then kg start (or, moved, kg setup again)" if isinstance(answer, OtherServer) else \
                "" if answer == "hung" else " (then run kg setup again)"
            r.bad("port", f"{config.host}:{config.port}: {taken}", fix + then)
        elif (unusable := storage_unusable.why(config.root)) is not None:  # kg start refuses the store as it is
            r.bad("server", f"not running at {config.url}: no server can run on {config.root}: {unusable[0]}",
                  f"{unusable[1]}, then kg start")
        elif (holder := store_holder.foreign(config.root)) is not None:  # kg start refuses it the store
            r.bad("server", f"not running at {config.url}: {holder.said(config.root)}", f"{holder.fix()}, then kg start")
        else:
            r.bad("server", f"not running at {config.url}", "kg start")
        return False
    version = health.get("version")
    storage = health.get("storage")
    if storage and os.path.realpath(storage) != str(config.root):  # nothing of another store's server is ok here
        pid = f" (pid {health['pid']})" if isinstance(health.get("pid"), int) else ""
        r.bad("server", f"the server at {config.url}{pid} serves {storage}, not {config.root} (KG_HOME): this store "
                        "has no server", f"stop it there (KG_HOME={shlex.quote(storage)} kg stop), or set KG_HOME to "
                                         "the store you mean, or give this one another port (KG_HTTP_PORT)")
        return False
    if version != __version__:
        r.bad("server", f"running version {version} at {config.url}, but the installed kg is {__version__}",
              "kg stop && kg start")
    elif (stale := stale_said(health, build_id())) is not None:
        r.bad("server", stale, "kg stop && kg start (the installed kg then serves)")
    else:
        r.ok("server", f"running version {version} at {config.url}")
    _editor(r, config, health.get("editor"))
    return True


def _editor(r: Report, config: Config, editor: object) -> None:
    """The editor as the running server reports it (its port may not be the environment's: --editor-port,
    --no-editor; and a program listening there need not be the editor)."""
    said = editor if isinstance(editor, dict) else {}
    port = said.get("port")
    if not isinstance(port, int):  # a server that does not say: the environment's port, checked as before
        port, said = config.editor_port, {"state": "up"}
    state = str(said.get("state"))
    if state == "off":
        r.note("editor", "off (the server runs without it: --no-editor); kg stop && kg start serves it")
    elif state.startswith("off:"):
        r.bad("editor", state, editor_fix(state))
    elif state == "starting":
        r.note("editor", f"starting on port {port} (run kg doctor again)")
    elif listening("127.0.0.1", port):
        r.ok("editor", f"reachable at http://127.0.0.1:{port}/")
    else:
        r.bad("editor", f"nothing answers on port {port}, where the server serves it", EDITOR_MOVE)


def trouble_fix(trouble: dict[str, Any]) -> str:
    """The fix for a graph /health names in graphs_in_trouble."""
    if trouble.get("kind") == "unavailable":  # a permission or a disk error: what fixes it depends on which
        return str(trouble.get("fix"))
    if trouble.get("kind") == "fell_back" and kept_aside.loop_said(Path(str(trouble.get("kept")))):
        return (f"remove {_arg(trouble.get('kept'))} (a symlink loop holds nothing); "
                f"`kg restore --at DATE {_arg(trouble.get('graph'))}` brings back a committed version")
    if trouble.get("kind") == "fell_back":
        return (f"look at {trouble.get('kept')} (what was written after the previous save is in it), then remove it "
                "(when it reads as a graph, kg doctor says how to merge it back); "
                f"`kg restore --at DATE {_arg(trouble.get('graph'))}` brings back a committed version")
    if trouble.get("kind") == "not_saved":
        return (f"{user_fix(str(trouble.get('why')), *_folder_file(trouble))} (`kg logs` says what "
                "failed); the next change is kept once the store takes it")
    if trouble.get("kind") == "not_folded":
        return (f"{user_fix(str(trouble.get('why')), *_folder_file(trouble))} (`kg logs` says what "
                "failed); the next save folds the journal into it")
    if trouble.get("kind") == "file_missing":
        return (f"look in the store's git history (`kg restore --at DATE {_arg(trouble.get('graph'))}`) or a backup for "
                "what the last save held; the graph is saved again as it is served now")
    if trouble.get("kind") == "hand_edited" and trouble.get("rolled_back"):
        return ("reload it to roll back (kg stop && kg start, or GET /api/graph/read?reload=true): the writes since "
                "go to the journal's .dropped file, each line a change to write again by hand if wanted")
    if trouble.get("kind") == "hand_edited":
        return ("reload it to take the edit in, with the writes since replayed over it (kg stop && kg start, or "
                "GET /api/graph/read?reload=true); `kg restore` puts a committed version back instead")
    if trouble.get("kind") == "journal_dropped":
        return (f"look at {trouble.get('kept')} (each line a change; the nodes it set are under \"n\"), write again "
                "with kg_put_node what is wanted, then remove it")
    if trouble.get("kind") == "journal_damaged":
        return (f"look at {trouble.get('kept')} (the lines that could not be read are in it; write again what they "
                "held), then remove it")
    if trouble.get("file") and (loop := kept_aside.loop_fix(Path(str(trouble.get("file"))))):
        return f"{loop}, then kg stop && kg start"
    return (f"put a good copy back at {trouble.get('file')} (`kg restore --at DATE {_arg(trouble.get('graph'))}` when the "
            f"store's git history holds it), or {move_aside(Path(str(trouble.get('file'))))} to start the graph empty, "
            "then kg stop && kg start")


def _folder_file(trouble: dict[str, Any]) -> tuple[Path, Path]:
    file = Path(str(trouble.get("file")))
    return file.parent, file


def _arg(value: object) -> str:
    """A value as one word of a command the user pastes (a project path may hold spaces)."""
    return shlex.quote(str(value))


def trouble_lines(health: dict[str, Any]) -> list[str]:
    """`kg status`'s lines for the graphs /health names in graphs_in_trouble."""
    sessions = health.get("sessions_in_trouble")
    return [f"kg: graph {key}: {trouble.get('why')}\n    fix: {trouble_fix(trouble)}"
            for key, trouble in sorted((health.get("graphs_in_trouble") or {}).items())] + \
        ([f"kg: sessions: {sessions.get('why')}\n    fix: {trouble_fix(sessions)}"] if isinstance(sessions, dict) else [])


def clock_line(health: dict[str, Any]) -> str | None:
    """`kg status`'s warning of a wall-clock jump /health names (not a failure: the server held its rules)."""
    clock = health.get("clock")
    return f"kg: warning: clock: {clock.get('said')}{_clock_when(clock)}\n    fix: {CLOCK_FIX}" \
        if isinstance(clock, dict) else None


CLOCK_FIX = ("nothing to do if the time is right now (`date`); else set it right (`timedatectl`, NTP): "
             "`kg logs` has each jump")


def _clock_when(clock: dict[str, Any]) -> str:
    at = clock.get("jumped_at")
    when = time.strftime(" (seen %Y-%m-%d %H:%M UTC", time.gmtime(at)) if isinstance(at, (int, float)) else " ("
    return when + ("; the rules still wait)" if clock.get("held") else "; the rules act again)")


def _graphs(r: Report, health: dict[str, Any], writable: bool = True) -> None:
    troubles = health.get("graphs_in_trouble") or {}
    for key, trouble in sorted(troubles.items()):
        r.bad(f"graph {key}", str(trouble.get("why")), trouble_fix(trouble))
    if isinstance(sessions := health.get("sessions_in_trouble"), dict):
        r.bad("sessions", str(sessions.get("why")), trouble_fix(sessions))
    if "user" not in (health.get("loaded_graphs") or []) and "user" not in troubles:
        r.note("graph user", "still loading: whether it reads is not known yet (run kg doctor again)")
    elif not troubles:
        r.ok("graphs", "every loaded graph reads and takes changes" if writable else "every loaded graph reads")
    if isinstance(clock := health.get("clock"), dict):
        r.warn("clock", f"{clock.get('said')}{_clock_when(clock)}", CLOCK_FIX)
    git = health.get("git") or {}
    if git.get("problem"):  # the last autocommit, sync or save for one failed (it says how to fix it)
        r.bad("git", str(git["problem"]), "see `kg logs`; `kg commit` tells when it works again")


PROBE_BYTES = 4096  # an empty file is made on a full disk all the same: only data needs room


def _write_problem(folder: Path) -> OSError | None:
    """Why no data can be written in `folder`, or None: a file is made, PROBE_BYTES written and fsynced, and
    removed (os.access says yes to root where writing fails; a full disk still makes an empty file)."""
    try:
        probe_write(folder)  # names the folder when no file can be made in it at all
        fd, tmp = tempfile.mkstemp(prefix=".kg-probe-", dir=folder)
    except OSError as exc:
        return exc
    try:
        faults.check(tmp)  # a test's full or read-only disk (storage/faults.py)
        os.write(fd, b"\0" * PROBE_BYTES)
        os.fsync(fd)
    except OSError as exc:
        return exc
    finally:
        os.close(fd)
        os.unlink(tmp)
    return None


def _storage(r: Report, config: Config, serving: bool) -> bool:
    """Whether the store takes writes (said either way)."""
    root = config.root
    if root.exists() and not root.is_dir():
        r.bad("storage", f"{root} is a file, not a folder", "point KG_HOME at a folder")
        return False
    where = root if root.exists() else root.parent
    if where.exists() and not where.is_dir():
        r.bad("storage", f"{where} is a file, not a folder: {root} cannot be made in it", "point KG_HOME at a folder")
        return False
    problem = _write_problem(where) if where.is_dir() else None
    if problem is not None and problem.errno == errno.ENOSPC:
        r.bad("storage", f"the disk holding {where} is full: nothing can be saved (memory is still read)",
              f"free space on that disk (df {where})")
        return False
    if problem is not None and problem.errno == errno.EROFS:
        r.bad("storage", f"{where} is on a file system mounted read-only: nothing can be saved (memory is still "
              "read)", storage_unusable.read_only_fix(where))
        return False
    if problem is not None or not (where.is_dir() or os.access(where, os.W_OK | os.X_OK)):
        r.bad("storage", f"{where} is not writable by this user", f"fix the permissions of {where}, or set KG_HOME")
        return False
    held = lock.holder_present(root) if root.exists() else False
    elsewhere = served_on(root) if held and not serving else None
    if elsewhere is not None and server_process.is_stopped(elsewhere[0]):
        r.bad("storage", f"{root} is held by the kg server (pid {elsewhere[0]}), which {server_process.stopped_said(elsewhere[0])}",
              f"kill -CONT {elsewhere[0]} (resume it), or kill -9 {elsewhere[0]} (end it), then kg start")
    elif elsewhere is not None and elsewhere[1] != config.port:
        pid, port = elsewhere
        r.bad("storage", said_elsewhere(root, pid, port, config.port), fix_elsewhere(port, config.port))
    elif held and not serving and (holder := store_holder.foreign(root)) is not None:
        r.bad("storage", holder.said(root), f"{holder.fix()}, then kg start")
    elif held and not serving:
        r.bad("storage", f"{root} is held by a server that does not answer on port {config.port}",
              f"kg stop (with the same KG_HTTP_PORT it was started with), or look at {root / 'server.pid'}")
    elif serving and held is False:
        r.bad("storage", f"the server at {config.url} does not hold {root}", "kg stop && kg start")
    else:
        r.ok("storage", f"{root} writable" + (", held by the running server" if held else ""))
    return True


def _gemini_trust(r: Report, title: str, ctx: Context) -> None:
    """Gemini runs no MCP server in a folder it does not trust: there kg's hooks run and its tools are absent,
    which the agent cannot tell apart from a broken setup."""
    try:
        here = os.getcwd()
    except OSError:  # the folder doctor runs in was deleted
        return
    if not gemini_trust.folder_trusted(here, ctx.env, str(ctx.home)):
        r.warn(title, f"it does not trust this folder ({here}): kg's tools are off here, its hooks still run",
               gemini_trust.HOW)


def _harnesses(r: Report, ctx: Context, served: dict[str, Any] | None = None) -> bool:
    """Check each agent as setup's plan sees it; whether Claude Code's status line runs `kg gauge`. `served`:
    the running server's /api/chores, whose word on chores wins over the file's."""
    try:
        plugin = ctx.plugin()
    except SetupError as exc:
        r.bad("plugin", str(exc), "reinstall kg-actors (pip install .), then kg setup")
        return False
    try:
        record = Record.load(ctx.record_path)
    except SetupError as exc:  # in a store this user may not enter, moving the record away cannot work
        closed = storage_unusable.why(ctx.store)
        r.bad("setup record", str(exc), f"{closed[1]}, then kg doctor again" if closed is not None
              else f"move {ctx.record_path} away, then kg setup")
        return False
    except OSError as exc:  # the store is no folder (storage says so above) or cannot be read
        r.bad("setup record", f"{ctx.record_path}: {exc.strerror or exc}", "fix the storage first (see above)")
        return False
    try:
        found = gather(ctx, record, plugin)
    except SetupError as exc:
        r.bad("setup", str(exc), "fix or move the file it names, then kg setup")
        return False
    if shutil.which("curl", path=ctx.env.get("PATH")) is None:
        r.bad("hooks", "curl is not on PATH: every hook quietly does nothing without it", "install curl")
    steps = [without_others(r, step, found, codex.config_path(ctx.env, ctx.home)) for step in plan_setup(found)]
    # An agent setup never wired while others are (skipped with --only, or declined) is the user's choice,
    # not a fault: said, not failed. One setup wired that is no longer, or none wired at all, fails.
    some_wired = any(record.done(s.name) for s in steps if s.name not in ("gauge", "chores"))
    for step in steps:
        failure = record.failure(step.name)
        if step.name == "chores":  # the user's choice either way; a faulty chores.json is said with the settings
            if not step.problem:
                said = step.note if not step.actions else "off (`kg setup --only chores` switches them on)"
                r.note(step.title, chores_note(said, served))
            for part in env_ignored(served):
                r.warn(step.title, part, "set it to 1 or 0 in the server's environment (or unset it), then kg restart")
        elif step.problem:
            r.bad(step.title, step.note, step.fix or f"fix that file, then kg setup --only {step.name}")
        elif step.actions and failure == CUT_SHORT:  # asked for, never finished: no choice of the user's
            r.bad(step.title, f"not wired: {CUT_SHORT}", f"kg setup --only {step.name}")
        elif step.actions and failure:
            r.bad(step.title, f"kg setup failed here: {failure}", f"fix what it names, then kg setup --only {step.name}")
        elif step.actions and record.done(step.name):
            r.bad(step.title, f"wired by kg setup, changed since: {what_changed(step.name, found)}",
                  f"kg setup --only {step.name}")
        elif step.actions and some_wired:
            r.note(step.title, f"not wired (kg setup left it out; `kg setup --only {step.name}` wires it)")
        elif step.actions:
            r.bad(step.title, "not wired: " + "; ".join(a.text for a in step.actions),
                  f"kg setup --only {step.name}")
        elif step.note in (UP_TO_DATE, CUSTOMIZED):
            r.ok(step.title, OK_SAID.get(step.name, f"plugin {plugin.key} installed")
                 + ("; kg's entry customized by you (left as you set it)" if step.note == CUSTOMIZED else ""))
            if step.name == "gemini":
                _gemini_trust(r, step.title, ctx)
        else:
            r.note(step.title, step.note)
    if found.claude.cli is not None and (cwd := here()) is not None:
        check_project_plugins(r, cwd, ctx.env, ctx.home, plugin.key, kg_wired("claude", found))
    if found.marketplace_current:
        base = ctx.marketplace_dir / plugin.name
        for hook in plugin.hooks:
            if hook.script and not os.access(base / hook.script, os.X_OK):
                r.bad("hooks", f"{base / hook.script} ({hook.event}) is missing or not executable", "kg setup")
        command = json.loads((base / ".mcp.json").read_text())["mcpServers"]
        for name, server in command.items():
            if not os.access(server.get("command", ""), os.X_OK):
                r.bad("mcp", f"{base / '.mcp.json'}: {name} runs {server.get('command')}, which is not executable",
                      "kg setup")
        r.ok("hooks", ", ".join(sorted({h.event for h in plugin.hooks})) + f" from {base / 'hooks'}")
    return any(s.name == "gauge" and s.note == "up to date" for s in steps)


