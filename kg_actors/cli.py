"""The `kg` command: serve, start, stop, restart, status, logs, version, mcp, editor, setup, uninstall, doctor.

Kept light on purpose: only `serve` imports trio and the server; `kg mcp` (the
shim every client launches) and the management commands start in milliseconds.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from pathlib import Path

from . import __version__, server_log, store_holder
from .storage import unusable as storage_unusable
from .cli_server import cmd_restart, cmd_start, cmd_status, cmd_stop, env_config, not_a_folder, storage_error

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each `kg mcp` start
if TYPE_CHECKING:
    from typing import BinaryIO, TypeVar

    from .config import Config
    from .setup.run import Context

    E = TypeVar("E", bound=BaseException)


def _port(raw: str) -> int:
    """--port / --editor-port: a whole number a socket can bind (0: any free one)."""
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if not 0 <= value <= 65_535:
        raise argparse.ArgumentTypeError(f"{raw} is not a port (0-65535)")
    return value


def _count(raw: str) -> int:
    """-n: a whole number of at least 1 (0 printed the whole log, -3 all but its first three lines)."""
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{raw} is not a count of lines (1 or more)")
    return value


HIDDEN = frozenset({"merge-driver"})  # git runs it (the store's .gitattributes), not the user


class _CommandLine(argparse.ArgumentParser):
    """kg's parser: an unknown command is named with the commands a user runs (argparse listed git's
    merge-driver among them)."""

    def _check_value(self, action: argparse.Action, value: object) -> None:
        if isinstance(action, argparse._SubParsersAction) and action.choices and value not in action.choices:
            shown = ", ".join(name for name in action.choices if name not in HIDDEN)
            raise argparse.ArgumentError(None, f"unknown command {value!r}: the commands are {shown} (kg --help "
                                               "says what each does)")
        super()._check_value(action, value)


def _add(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str) -> argparse.ArgumentParser:
    """A command, its summary in the list of commands and, as a sentence, atop its own --help."""
    return sub.add_parser(name, help=summary, description=summary[:1].upper() + summary[1:] + ".")


def cmd_serve(args: argparse.Namespace) -> int:
    from . import heap

    heap.pause_collector()  # until the first load is in (warm_start.py): see there

    import trio

    from .code_snapshot import hold_package
    from .runtime import serve_forever
    from .storage.files import probe_write
    from .storage.lock import StorageBusy

    hold_package()  # what it imports later runs this code, not the files an upgrade puts under it
    config = env_config(args)
    if args.no_editor:
        import attrs

        config = attrs.evolve(config, editor=False)
    server_log.configure(config.log_level)
    from . import log_names

    log_names.install()
    if not_a_folder(config.root):
        _preflight(str(not_a_folder(config.root)))
        return 1
    try:
        config.root.mkdir(parents=True, exist_ok=True)
        if not os.access(config.root, os.R_OK | os.W_OK | os.X_OK):
            if storage_unusable.read_only_mount(config.root):
                raise OSError(30, "on a file system mounted read-only", str(config.root))
            raise PermissionError(13, "not readable and writable by this user", str(config.root))
        probe_write(config.root)  # before the server announces itself: os.access says yes to root regardless
        trio.run(serve_forever, config)
    except BaseException as exc:
        # Trio's nurseries wrap what they raise in exception groups: look inside for the cause.
        busy, oserror = _find(exc, StorageBusy), _find(exc, OSError)
        if busy is not None:
            holder = store_holder.foreign(config.root)  # kg-memory 0.17 on a port of its own, say: which, and how
            _preflight(f"{holder.said(config.root)}: {holder.fix()}" if holder else
                       f"{busy}; stop it first (kg stop) or set KG_HOME to another directory")
            return 1
        if oserror is not None:
            _preflight(_start_error(oserror, config))
            return 1
        if _find(exc, KeyboardInterrupt) is None:
            raise
    return 0


def _preflight(said: str) -> None:
    """Why the server cannot start, as a line of its log (stderr: server.log), stamped as every other is;
    `kg start` finds it by its KG PREFLIGHT mark."""
    logging.getLogger("kg_actors.cli").error("KG PREFLIGHT: %s", said)


def _start_error(exc: OSError, config: Config) -> str:
    """What failed at start, and the command that fixes it."""
    import errno

    if exc.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL) or (exc.errno == errno.EACCES and not exc.filename):
        return (f"cannot serve on {config.host}:{config.port}: {exc.strerror or exc}; another program holds the port "
                f"(`kg doctor` tells whether it is kg): stop it, or move kg with --port PORT or KG_HTTP_PORT")
    if exc.errno in (errno.EROFS, errno.ENOSPC) or exc.filename:
        return storage_error(config.root, exc)
    return f"cannot start on {config.host}:{config.port} with storage {config.root}: {exc}"


def _find(exc: BaseException, kind: type[E]) -> E | None:
    """`exc` itself, or the first `kind` inside (nested) exception groups."""
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _find(inner, kind)
            if found is not None:
                return found
    return None


def cmd_logs(args: argparse.Namespace) -> int:
    config = _store_config(args, existing=False)
    path = config.root / "server.log"
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        f = None
    # The end is taken before the last lines are read: a line appended between the two is followed, not lost.
    end = f.seek(0, os.SEEK_END) if f is not None else None
    lines = server_log.last_lines(path, args.lines, end)  # across server.log.prev just after a rotation
    if lines is None:
        print(f"kg: no log yet at {path}")
        return 0
    print("\n".join(lines), flush=True)
    if f is None:  # only server.log.prev holds lines (a rotation is under way): nothing to follow yet
        return 0
    try:
        while args.follow:  # like tail -f: poll for what is appended, until interrupted
            chunk = f.read()
            if chunk:
                sys.stdout.write(chunk.decode(errors="replace"))
                sys.stdout.flush()
            elif _replaced(path, f):  # rotated (server.log.prev), or a new server's log: follow the new file
                f.close()
                f = open(path, "rb")
            else:
                time.sleep(0.25)
    except KeyboardInterrupt:
        pass
    finally:
        f.close()
    return 0


def _replaced(path: Path, f: BinaryIO) -> bool:
    try:
        return os.stat(path).st_ino != os.fstat(f.fileno()).st_ino
    except FileNotFoundError:  # between the rotation's move and the new file: the next poll looks again
        return False


def cmd_editor(args: argparse.Namespace) -> int:
    import webbrowser

    from .cli_server import stores_server

    config = env_config(args)
    found = stores_server(config)
    if found is None:
        return 1
    server_url, health = found
    # The editor the running server reports (its port may not be this environment's; it may be off).
    editor = health.get("editor")
    said: dict[str, object] = editor if isinstance(editor, dict) else {}
    state, port = str(said.get("state", "up")), said.get("port", config.editor_port)
    if state == "off" or state.startswith("off:"):
        why = "it runs with --no-editor" if state == "off" else state.removeprefix("off:").strip()
        print(f"kg: the server at {server_url} serves no editor ({why}); kg stop && kg start serves it",
              file=sys.stderr)
        return 1
    url = f"http://127.0.0.1:{port}/"
    print(url)
    if not args.no_browser:
        webbrowser.open(url)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    import kg_shim

    from .env_rules import DEFAULT_PORT, ConfigError, env_host, env_port, store_path

    # The rules every kg command keeps: the shim POSTs every tool call, lesson text and all, where these point.
    try:
        host, port = env_host(os.environ), env_port(os.environ, "KG_HTTP_PORT", DEFAULT_PORT)
    except ConfigError as e:
        refused: int = kg_shim.refuse(str(e))  # kg_shim is shim/ by package-dir, which mypy does not resolve
        return refused
    # The store this agent was set up for: a server of another store on the port is refused (kg_shim.other_server).
    code: int = kg_shim.main(host, port, str(Path(store_path(os.environ)).resolve()))
    return code


# Memory that outlives a machine (kg_actors/sync/): thin entries, the modules load only when used.
def _store_config(args: argparse.Namespace, existing: bool) -> Config:
    """The settings of a store command, once the store is a folder (and, when `existing`, is there at all:
    a commit or a restore of a store never made must not make its folders)."""
    config = env_config(args)
    if not_a_folder(config.root):
        print(f"kg {args.command}: {not_a_folder(config.root)}", file=sys.stderr)
        raise SystemExit(1)
    if existing and not config.root.exists():
        print(f"kg {args.command}: there is no store at {config.root} (KG_HOME): nothing to {args.command}",
              file=sys.stderr)
        raise SystemExit(1)
    return config


def cmd_commit(args: argparse.Namespace) -> int:
    from .sync import commands

    return commands.cmd_commit(_store_config(args, existing=True))


def cmd_sync(args: argparse.Namespace) -> int:
    from .sync import commands

    return commands.cmd_sync(_store_config(args, existing=False), args.remote, args.remember, args.all_upgraded)


def cmd_restore(args: argparse.Namespace) -> int:
    from .sync import commands

    return commands.cmd_restore(_store_config(args, existing=True), args.at, args.graph)


def cmd_init_git(args: argparse.Namespace) -> int:
    from .sync import commands

    return commands.cmd_init_git(_store_config(args, existing=False))


def cmd_merge_driver(args: argparse.Namespace) -> int:
    from .sync import driver

    return driver.main(args.files)


def _store_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _add(sub, "commit", "commit the store to its git repository now")
    p.set_defaults(fn=cmd_commit)
    p = _add(sub, "sync", "commit, fetch, merge (per node) and push the store with a git remote")
    p.add_argument("remote", nargs="?", help="a remote name, URL or path (default: sync_remote in config.json)")
    p.add_argument("--remember", action="store_true", help="save REMOTE as sync_remote (synced on every autocommit)")
    p.add_argument("--all-upgraded", action="store_true",
                   help="no machine sharing REMOTE runs kg-memory 0.17 any more: push even where its branch still "
                        "holds 0.17's graph files (it then holds this kg's layout)")
    p.set_defaults(fn=cmd_sync)
    p = _add(sub, "restore", "put a graph back as it was at a commit or date, and say what changed")
    p.add_argument("--at", required=True, help="a commit id, or a moment: a date (2026-11-30: the end of that day), "
                   "a date and time ('2026-11-30 14:00'), now, yesterday or 'N days ago'")
    p.add_argument("graph", nargs="?", default="user", help="user (default), maintain, a project path or folder")
    p.set_defaults(fn=cmd_restore)
    p = _add(sub, "init-git", "make the store a git repository (history, sync)")
    p.set_defaults(fn=cmd_init_git)
    # Git runs it (HIDDEN), not the user: no help line, and left out of the lists of commands.
    p = sub.add_parser("merge-driver", description="Merge two versions of a graph file node by node (git runs it).")
    p.add_argument("files", nargs="*")
    p.set_defaults(fn=cmd_merge_driver)


def _serve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=_port, help="HTTP port (default 8765, or KG_HTTP_PORT)")
    p.add_argument("--editor-port", type=_port, help="editor port (default 8766, or KG_EDITOR_PORT)")
    p.add_argument("--no-editor", action="store_true", help="do not serve the visual editor")


def _setup_context(args: argparse.Namespace, store_folder: bool = True) -> Context:
    """`store_folder`: refuse a store that is a file (its setup record cannot be there); doctor says it as a check."""
    from .setup import SetupError
    from .setup.run import Context, ask_tty

    try:
        ctx = Context.from_env(ask=None if getattr(args, "yes", False) else ask_tty)
    except SetupError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if store_folder and not_a_folder(ctx.store):
        print(f"kg {args.command}: {not_a_folder(ctx.store)}", file=sys.stderr)
        raise SystemExit(1)
    return ctx


def cmd_setup(args: argparse.Namespace) -> int:
    from .setup import SetupError
    from .setup.plan import parse_only
    from .setup.run import setup

    try:
        only = parse_only(args.only)
    except ValueError as exc:
        print(f"kg setup: {exc}", file=sys.stderr)
        return 2
    try:
        return setup(_setup_context(args), only, plan_only=args.plan)
    except SetupError as exc:
        print(f"kg setup: {exc}", file=sys.stderr)
        return 1


def cmd_uninstall(args: argparse.Namespace) -> int:
    from .setup import SetupError
    from .setup.run import uninstall

    try:
        return uninstall(_setup_context(args), plan_only=args.plan)
    except SetupError as exc:
        print(f"kg uninstall: {exc}", file=sys.stderr)
        return 1


def cmd_doctor(args: argparse.Namespace) -> int:
    from .setup.doctor import doctor

    return doctor(_setup_context(args, store_folder=False))


def cmd_gauge(args: argparse.Namespace) -> int:
    from .chores import gauge_cli

    return gauge_cli.run(args)


def main(argv: list[str] | None = None) -> int:
    parser = _CommandLine(prog="kg", description="Shared knowledge-graph memory for coding agents")
    # Not required here: a missing command is said below, after an unknown option (argparse said only that a
    # command was required, never naming `kg --bogus`'s --bogus).
    sub = parser.add_subparsers(dest="command", parser_class=argparse.ArgumentParser)
    p = _add(sub, "serve", "run the memory server in the foreground")
    _serve_options(p)
    p.set_defaults(fn=cmd_serve)
    p = _add(sub, "start", "start the server in the background; returns once it answers")
    _serve_options(p)
    p.set_defaults(fn=cmd_start)
    p = _add(sub, "restart", "stop the background server and start it again")
    _serve_options(p)
    p.set_defaults(fn=cmd_restart)
    p = _add(sub, "stop", "stop the background server")
    p.add_argument("--port", type=_port, help="HTTP port (default 8765, or KG_HTTP_PORT)")
    p.set_defaults(fn=cmd_stop)
    p = _add(sub, "status", "is the server up, and what does it hold")
    p.add_argument("--port", type=_port, help="HTTP port (default 8765, or KG_HTTP_PORT)")
    p.set_defaults(fn=cmd_status)
    p = _add(sub, "logs", "the end of the server log")
    p.add_argument("-n", "--lines", type=_count, default=50, help="how many of the last lines (default 50)")
    p.add_argument("-f", "--follow", action="store_true", help="keep printing what is appended")
    p.set_defaults(fn=cmd_logs)
    _add(sub, "version", "print the version").set_defaults(fn=lambda a: print(__version__) or 0)
    _add(sub, "mcp", "the stdio MCP shim that clients launch").set_defaults(fn=cmd_mcp)
    p = _add(sub, "editor", "open the visual editor")
    p.add_argument("--no-browser", action="store_true", help="print the editor's address without opening a browser")
    p.set_defaults(fn=cmd_editor)
    p = _add(sub, "setup", "connect the installed agents (Claude Code, Codex, Claude Desktop, Gemini CLI, "
                           "Antigravity, OpenCode), asking first")
    p.add_argument("--yes", action="store_true", help="apply every step without asking")
    p.add_argument("--plan", action="store_true", help="print the steps and change nothing")
    p.add_argument("--only", metavar="STEPS", help="comma-separated steps: claude, codex, desktop, gemini, "
                                                   "antigravity, opencode, gauge, chores")
    p.set_defaults(fn=cmd_setup)
    p = _add(sub, "uninstall", "undo what kg setup did (the memory stays)")
    p.add_argument("--yes", action="store_true", help="undo without asking")
    p.add_argument("--plan", action="store_true", help="print what would be undone and change nothing")
    p.set_defaults(fn=cmd_uninstall)
    _add(sub, "doctor", "check every piece, name what is wrong and the fix").set_defaults(fn=cmd_doctor)
    _store_commands(sub)
    p = _add(sub, "gauge", "Claude Code status-line command: record the quota frame (for chores)")
    p.add_argument("--wrap", metavar="CMD", help="run your own status-line command on the same input and show it")
    p.set_defaults(fn=cmd_gauge)
    # The commands a user runs; help=SUPPRESS on a subparser printed "merge-driver  ==SUPPRESS==" instead.
    shown = [name for name in sub.choices if name not in HIDDEN]
    sub.metavar = "{" + ",".join(shown) + "}"
    args, extra = parser.parse_known_args(argv)
    if extra:
        parser.error(f"unrecognized argument{'s' if len(extra) > 1 else ''}: {' '.join(extra)}")
    if args.command is None:
        parser.error(f"a command is required: one of {', '.join(shown)} (kg --help says what each does)")
    try:
        return int(args.fn(args) or 0)
    except BrokenPipeError:  # `kg doctor | head -1`: the reader left; go quietly, as any filter does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return 128 + signal.SIGPIPE
    except OSError as exc:  # a folder or file of the user's that cannot be read or written: say which, no traceback
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"kg {args.command}: {exc.strerror or exc}{where}: check that it exists and that you may use it",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C while a command starts or waits: the shell's code for it, no traceback
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
