"""The one root: storage lock, actors, HTTP servers, tick; and the shutdown order.

Actors live in the outer nursery, servers in the inner one. On SIGINT/SIGTERM
(or cancellation) the servers stop first, then every graph actor folds what
is dirty and the session registry saves, within a bounded grace period.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import logging
from functools import partial
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import trio

from . import __version__, debug_heap, debug_stalls, heap, server_log, server_process, warm_start
from .chores.budget_notices import BudgetNotices
from .chores.supervisor import deps_for as chore_deps
from .chores.supervisor import run_chore_supervisor
from .clock_keeper import ClockKeeper, boot_clock
from .conduct.antigravity import Antigravity
from .conduct.floor import Floor
from .config import Config
from .core.constants import SERVER_LOG_MAX_BYTES, SHUTDOWN_GRACE_SECONDS
from .core.charge import fast_charge
from .core.compaction import CompactionResult
from .core.errors import ActorStopped
from .delivery_actor import run_deliveries
from .derived import missing_files
from .directory import GraphDirectory
from .editor import listener as editor_listener
from .editor import page_digest as editor_page_digest
from .feed import ChangeFeed
from .graph_messages import TickResult
from .hook_priority import HookPriority
from .http.app import HOOK_PATHS, App
from .http.drain import Drain
from .http.server import serve as http_serve
from .http.rest import build_rest
from .logbook import Logbook
from .readings import Readings
from .session_actor import SessionHandle, run_session_registry
from .session_records import loaded_sessions
from .storage import files, lock
from .storage import layout as L
from .sync.keeper import StoreKeeper
from .touch_check import TouchCheck

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from .graph_handle import GraphHandle

STORE_CHECK_SECONDS = 2.0  # how often the store's folder is checked to be the one this server locked
DRAIN_SECONDS = 5.0  # a stop's wait for the requests in progress (within `kg stop`'s wait for the exit)
log = logging.getLogger(__name__)


@attrs.define
class Runtime:
    """What the HTTP layer may reach: handles and the feed, no state of its own."""

    config: Config
    layout: L.Layout
    directory: GraphDirectory
    sessions: SessionHandle
    floor: Floor  # the use cases' handles and caches (conduct/)
    feed: ChangeFeed
    clock: Callable[[], float]
    http_port: int = 0
    asgi: Any = None  # the memory server's ASGI app; the editor hands /api and /ws to it in-process
    editor: str = "off"  # the editor's state for /health: off, starting, up, or why it is off
    editor_page: str | None = None  # the digest of the editor's page at start (editor/page_digest.py)
    keeper: Any = None  # the store's git work (sync/keeper.py)
    readings: Readings = attrs.field(factory=Readings)  # the tick's debt and render size per graph, for the chart
    chores: Any = None  # the chore supervisor's handle (kg_actors/chores/)
    antigravity: Any = None  # the Antigravity adapter (conduct/antigravity.py): its hooks, acks and queued replies
    budget: Any = None  # the budget notices the hooks attach (chores/budget_notices.py)
    pid_file: Path | None = None  # `kg serve`'s (serve_forever): made again with a store removed under it
    log_file: Path | None = None  # the store's server.log, when `kg start` sent this process's output there
    clock_keeper: ClockKeeper | None = None  # the wall clock's watch: whether the time rules may act (clock_keeper.py)


async def _tick(rt: Runtime) -> bool:
    """One save tick; True when every loaded graph was folded into its file."""
    now = rt.clock()
    # A wall clock that jumped lately deletes, demotes and lets go of nothing (core/clock_guard.py).
    since, held = rt.clock_keeper.observe(now) if rt.clock_keeper is not None else (None, False)
    folded = True
    home = str(L.home())
    if rt.floor.touch_check is not None:
        rt.floor.touch_check.new_tick()  # a read stats its touches afresh once per tick
    for handle in rt.directory.loaded():
        try:
            # Held: the wall clock jumped lately, and nothing is demoted or deleted on its word.
            out = await handle.tick(now=now, since=since) if not held else TickResult(CompactionResult(), [])
            await handle.refresh(now=now)
            if out.compaction.acted or out.pruned:
                # Node states moved without a write: tell the editors watching this graph.
                rt.feed.publish({"type": "states_changed", "level": handle.level,
                                 "project_path": rt.directory.root_of(handle.key)})
            paths = await handle.touch_paths(home=home)
            missing = await trio.to_thread.run_sync(missing_files, paths)
            await handle.set_missing_touches(missing=missing)
            if handle.level == "project":
                days = await rt.sessions.activity_days(path=str(rt.layout.tool_events(handle.key)))
                await handle.set_activity_days(days=days)
            # Routine unless a commit waits for this fold: a large file's may wait (graph_writer.fold_waits).
            folded = await handle.fold(routine=not rt.keeper.commit_due) and folded
            await _take_reading(rt, handle, now)
        except ActorStopped:  # a stop closed it meanwhile: it folds on its own way out
            folded = False
            log.debug("tick skipped %s: its actor stopped", handle.key)
        except Exception:
            folded = False
            log.exception("tick failed for %s", handle.key)
    try:
        if not held:
            await rt.sessions.expire(now=now, since=since)
        await rt.sessions.save(now)
    except ActorStopped:
        log.debug("session tick skipped: the registry stopped")
    except Exception:
        log.exception("session tick failed")
    if rt.clock_keeper is not None:
        await trio.to_thread.run_sync(rt.clock_keeper.save)
    return folded


async def _take_reading(rt: Runtime, handle: GraphHandle, now: float) -> None:
    """The graph's debt and render size as of this tick, written down for the editor's chart."""
    debt = await handle.debt(now)
    charge = fast_charge(handle.snapshot())
    if rt.floor.logs.logbook is not None:
        rt.readings.note(handle.key, rt.layout.graph_file(handle.key), now, debt, charge, rt.floor.logs.logbook)


async def _preload_user(directory: GraphDirectory) -> None:
    try:
        await directory.get("user")
    except Exception:
        if directory.closing:
            return  # a stop came first (the load said so)
        log.exception("the user graph could not be loaded; requests will retry it")


async def _tick_and_commit(rt: Runtime) -> None:
    await rt.keeper.after_tick(await _tick(rt))


async def _ticker(rt: Runtime) -> None:
    while True:
        await trio.sleep(rt.config.save_interval)
        await rt.keeper.exclusive(lambda: _tick_and_commit(rt))  # no fold rewrites a graph file while git works on it
        await trio.to_thread.run_sync(heap.trim)  # ctypes lets the GIL go: the loop runs meanwhile
        if rt.log_file is not None:
            await trio.to_thread.run_sync(server_log.rotate_live, rt.log_file, SERVER_LOG_MAX_BYTES)


async def _guard_store(rt: Runtime, fds: list[int]) -> None:
    """Spec 000: one server per storage directory. A store removed or replaced under this server (rm -rf,
    a move) is claimed again, and everything this server holds is written into it; when another server
    took it meanwhile, this one stops at once and writes nothing there (two servers would lose writes)."""
    root = rt.config.root
    while True:
        await trio.sleep(STORE_CHECK_SECONDS)
        if lock.held(root, fds[0]):
            continue
        try:
            fd = await trio.to_thread.run_sync(lock.claim, root)
        except (lock.StorageBusy, OSError) as exc:
            log.critical("the store %s was removed or replaced under this server and %s: stopping without "
                         "writing there", root, exc)
            logging.shutdown()
            os._exit(1)
        lock.release(fds[0])
        fds[0] = fd
        log.warning("the store %s was removed or replaced under this server: writing what it holds into it", root)
        _remake_server_files(rt)
        for handle in rt.directory.loaded():
            await handle.fold(whole=True)
        await rt.sessions.save(rt.clock())


def _remake_server_files(rt: Runtime) -> None:
    """The pid file and server.log of a store made again: `kg status`, `stop`, `logs` and `doctor` find the
    server by them (the old ones went with the folder; the log was written to a file no path named)."""
    if rt.log_file is not None:
        try:
            fd = os.open(rt.log_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            log.warning("could not make %s again: %s", rt.log_file, exc)
        else:
            for out in (1, 2):  # the log handler writes to stderr: its lines go to the new file from here on
                os.dup2(fd, out)
            os.close(fd)
            log.warning("%s made again (the store it was in was removed)", rt.log_file)
    if rt.pid_file is not None:
        _write_pid(rt.pid_file, rt.http_port)


def _logs_to(path: Path) -> bool:
    """Whether this process's output goes to `path` (`kg start` opens server.log for it)."""
    try:
        out, there = os.fstat(2), os.stat(path)
    except OSError:
        return False
    return (out.st_dev, out.st_ino) == (there.st_dev, there.st_ino)


async def _on_signals(cancel: trio.CancelScope, drain: Drain) -> None:
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            log.info("received %s: shutting down", signal.Signals(signum).name)
            if not await drain.drain(DRAIN_SECONDS):  # the requests in progress get their replies first
                log.warning("requests still unanswered after %.0f s: stopped with the server", DRAIN_SECONDS)
            cancel.cancel()
            return


@asynccontextmanager
async def _outer_cancel_stops(servers_scope: trio.CancelScope) -> AsyncIterator[None]:
    """A cancel from outside the server stops it as a signal does: the servers first, then the actors'
    grace period to fold and save. What runs inside is shielded (else the actors would die unsaved with the
    cancel); the watcher, outside the shield, is what the cancel reaches."""
    async with trio.open_nursery() as watch:
        watch.start_soon(_stop_when_cancelled, servers_scope)
        with trio.CancelScope(shield=True):
            yield
        watch.cancel_scope.cancel()


async def _stop_when_cancelled(servers_scope: trio.CancelScope) -> None:
    try:
        await trio.sleep_forever()
    finally:
        servers_scope.cancel()


async def run_server(config: Config, clock: Callable[[], float] = time.time, handle_signals: bool = True,
                     boot: Callable[[], float] | None = None, pid_file: Path | None = None,
                     *, task_status: trio.TaskStatus[Runtime] = trio.TASK_STATUS_IGNORED) -> None:
    """`boot`: the clock the wall clock is checked against (clock_keeper.py); by default the boot clock, or
    `clock` itself when one is given (a test's time moves both). `pid_file`: written once the port is bound."""
    heap.tune()
    heap_dumps = debug_heap.start() if handle_signals else None  # a bench's KG_DEBUG_HEAP only
    if handle_signals:
        debug_stalls.install()  # a bench's KG_DEBUG_STALLS only
    lay = L.Layout(config.root)
    fds = [lock.claim(config.root)]  # before binding the port: a second server must not half-start
    servers_scope = trio.CancelScope()
    try:
        git_problem = await trio.to_thread.run_sync(_git_start, config.root)
        async with _outer_cancel_stops(servers_scope), trio.open_nursery() as actors:
            clock_keeper = ClockKeeper(lay.clock, boot or (boot_clock if clock is time.time else clock))
            since = clock_keeper.at_start(clock())  # a clock set back since the last tick: said before any rule acts
            sessions_data, let_go = await trio.to_thread.run_sync(loaded_sessions, lay.sessions, clock(), since)
            used = warm_start.session_roots(sessions_data)  # before the registry owns them
            sessions = await actors.start(run_session_registry, lay.sessions, sessions_data, clock, let_go)
            priority = HookPriority()
            directory = GraphDirectory(lay, actors, config.orphan_grace_days, clock, priority.yield_to_hooks)
            feed = ChangeFeed()
            logbook = Logbook()
            await actors.start(logbook.run)
            floor = Floor.build(directory, sessions, clock, feed.publish, logbook)
            floor.touch_check = TouchCheck()
            rt = Runtime(config, lay, directory, sessions, floor, feed, clock)
            rt.clock_keeper = clock_keeper
            rt.budget = BudgetNotices(config.root)  # one told-state (and budget_told.json) for every harness
            rt.antigravity = Antigravity(floor, await actors.start(run_deliveries), rt.budget)
            rt.keeper = StoreKeeper(lay, directory, sessions, clock, feed.publish)
            await actors.start(rt.keeper.serve)
            rt.chores = await actors.start(run_chore_supervisor, chore_deps(rt))
            if git_problem:
                rt.keeper.problem(git_problem)
            # Serve at once; the user graph loads meanwhile (requests that need it wait for it).
            actors.start_soon(_preload_user, directory)
            actors.start_soon(warm_start.warm, directory, used)  # the project last used, before it is asked
            app = rt.asgi = App(build_rest(rt), priority, frozenset({config.host.lower()}), rt.chores, config.root)
            drain = Drain()
            try:
                with servers_scope:
                    async with trio.open_nursery() as servers:
                        if handle_signals:
                            servers.start_soon(_on_signals, servers_scope, drain)
                        if heap_dumps:
                            servers.start_soon(debug_heap.serve, heap_dumps)
                        servers.start_soon(_ticker, rt)
                        servers.start_soon(_guard_store, rt, fds)
                        servers.start_soon(rt.keeper.run, config.autocommit_interval, config.save_interval)
                        # The MCP SDK is imported only for a request the server does not answer itself.
                        servers.start_soon(_serve_mcp, app, floor, rt.antigravity)
                        binds = await servers.start(partial(http_serve, app, config.host, config.port, priority,
                                                            HOOK_PATHS, drain=drain))
                        rt.http_port = int(binds[0].rsplit(":", 1)[1])
                        if pid_file is not None:  # before a request is answered: `kg editor`, `status` and `stop`
                            # asked right after a start found a server that answered and no pid file naming it
                            _write_pid(pid_file, rt.http_port)
                            rt.pid_file = pid_file
                        if config.editor:
                            rt.editor = "starting"
                            servers.start_soon(_serve_editor, rt)
                        log.info("kg_actors %s serving %s on %s", __version__, config.root, binds[0])
                        task_status.started(rt)
                        await trio.sleep_forever()
            finally:
                # Servers are down (stopped, or one failed); actors get a bounded grace period to save.
                with trio.move_on_after(SHUTDOWN_GRACE_SECONDS) as grace:
                    grace.shield = True
                    try:
                        await directory.stop_all()
                        await sessions.save(clock())
                    finally:  # a save past the grace period must not keep the actors (and the store's lock) forever
                        logbook.close()  # its task writes what is queued before the actors' deadline
                        actors.cancel_scope.deadline = trio.current_time() + SHUTDOWN_GRACE_SECONDS
                        sessions.close()
                        rt.antigravity.deliveries.close()
                        rt.chores.close()
                        rt.keeper.close()
                if grace.cancelled_caught:
                    log.error("shutdown grace period ran out; unsaved changes remain in the journal")
        # The actors have folded their journals: the commit holds whole writes only.
        with trio.move_on_after(SHUTDOWN_GRACE_SECONDS) as grace:
            grace.shield = True
            await rt.keeper.shutdown_commit()
    finally:
        lock.release(fds[0])


def _git_start(root: Path) -> str | None:
    """A store that is a repository: locks a killed git left go (we hold the store's lock), and the
    ignore file and merge driver are in place for this interpreter."""
    from .storage import git as G

    if not G.is_repo(root):
        return None
    removed = G.clear_stale_locks(root)
    if removed:
        log.warning("git: removed lock file(s) a killed git left behind: %s", ", ".join(removed))
    try:
        G.set_up(root)
    except G.GitError as exc:
        return str(exc)  # said once, by the keeper
    return None


def _build_mcp(floor: Floor, antigravity: Any = None, chores: Any = None) -> StreamableHTTPSessionManager:
    """Import the MCP side (slow: pydantic models) and build its stateless JSON transport."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from .http.tools import build_server

    return StreamableHTTPSessionManager(app=build_server(floor, antigravity, chores), json_response=True,
                                        stateless=True)


async def _serve_editor(rt: Runtime) -> None:
    """The editor on its own port: bound now, its web stack imported (off the event loop) only when a
    browser first connects (editor/listener.py)."""
    config = rt.config
    rt.editor_page = editor_page_digest.folder_digest()  # its web side, loaded later, serves only this page
    where = f"{config.host}:{config.editor_port}"
    sock = editor_listener.bind(config.host, config.editor_port)
    if isinstance(sock, OSError):
        log.error(editor_listener.busy_message(where, sock))
        busy = ("is this server's own HTTP port (KG_HTTP_PORT or --port)" if config.editor_port == rt.http_port
                else f"is busy ({sock.strerror or sock})")
        rt.editor = f"off: port {config.editor_port} {busy}"
        return
    rt.editor = "up"
    log.info("visual editor on http://%s:%d", config.host, sock.getsockname()[1])  # port 0: the one bound
    try:
        await editor_listener.first_connection(sock)
        module = await trio.to_thread.run_sync(importlib.import_module, "kg_actors.editor.server")
        heap.freeze_loaded()
    except Exception as exc:  # a broken install must not take MCP and the hooks down with the editor
        sock.close()
        log.exception("visual editor off: its web stack did not load; MCP and the hooks are unaffected")
        rt.editor = f"off: the editor did not load ({type(exc).__name__}: {exc})"[:300]
        return
    except BaseException:
        sock.close()
        raise
    inode = os.fstat(sock.fileno()).st_ino
    fd = sock.detach()
    try:
        await module.serve_editor(rt, fd)
    except Exception as exc:  # e.g. its code newer than the modules this server loaded (an upgrade in place)
        _close_if_still(fd, inode)  # else a browser's connection waits in its backlog for ever
        log.exception("visual editor off: it failed; MCP and the hooks are unaffected")
        rt.editor = f"off: the editor failed ({type(exc).__name__}: {exc})"[:300]


def _close_if_still(fd: int, inode: int) -> None:
    """Close `fd` if it is still the editor's socket (hypercorn may have closed it, and the number gone to
    another file since)."""
    with contextlib.suppress(OSError):
        if os.fstat(fd).st_ino == inode:
            os.close(fd)


async def _serve_mcp(app: App, floor: Floor, antigravity: Any) -> None:
    # Imports in threads are abandoned at shutdown: a stop must not wait for one (the SDK's takes seconds
    # on a loaded machine).
    handlers = await trio.to_thread.run_sync(importlib.import_module, "kg_actors.http.tool_handlers",
                                             abandon_on_cancel=True)
    app.tools_ready(handlers.Tools(floor, app.chores))
    # The handshake, the tool list and plain tool calls are answered without the SDK (mcp_calls.py,
    # mcp_handshake.py); it (~36 MiB, ~1 s of CPU) is imported only when a request needs it.
    await app.mcp_wanted.wait()
    manager = await trio.to_thread.run_sync(_build_mcp, floor, antigravity, app.chores, abandon_on_cancel=True)
    heap.freeze_loaded()  # the SDK's modules and models
    async with manager.run():
        app.mcp_ready(manager)
        await trio.sleep_forever()


async def serve_forever(config: Config) -> None:
    """`kg serve`: run until a signal, with a pid file for `kg stop` while serving."""
    pid_file = config.root / "server.pid"
    async with trio.open_nursery() as nursery:
        rt = await nursery.start(partial(run_server, config, pid_file=pid_file))
        rt.log_file = config.root / "server.log" if _logs_to(config.root / "server.log") else None
    try:
        if server_process.parse(pid_file.read_text())[0] == os.getpid():
            pid_file.unlink()
    except (OSError, ValueError):
        pass


def _write_pid(pid_file: Path, port: int) -> None:
    """The pid file for `kg stop`. A full (or read-only) disk does not stop the server: memory is still read,
    and `kg stop` finds the server through /health on its port."""
    try:
        # Whole or not at all: a `kg status` reading it meanwhile saw it empty, as if no server held the store.
        files.write_atomic(pid_file, server_process.pid_text(os.getpid(), port).encode(), keep_prev=False)
    except OSError as exc:
        with contextlib.suppress(OSError):  # a folder of that name stays: no pid file, as when the disk is full
            pid_file.unlink(missing_ok=True)  # an older server's names no server that runs
        full = " (the disk holding the store is full)" if exc.errno == errno.ENOSPC else ""
        log.warning("could not write %s: %s%s; serving all the same, `kg stop` finds the server through its port",
                    pid_file, exc.strerror or exc, full)
