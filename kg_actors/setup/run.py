"""Carry out a plan: ask, act, record. The only module here that changes anything."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from . import (SetupError, chores_file, claude, cli_calls, codex, desktop, entry_kept, gemini, gemini_step, opencode,
               opencode_step, other_kg, server_said, statusline, undo_found)
from .doctor_others import say_project_others
from .files import CUT_SHORT, Record, atomic_write, locked, read_bytes, read_tree, remove_tree, write_tree
from ..harness import gemini_trust
from .leftovers import elsewhere
from .found import AntigravityFound, Found
from .plan import STEPS, Step, Undo, plan_setup, plan_uninstall
from .plugin import AGY_DIR, MARKETPLACE, kg_command, marketplace_files, passed_env, plugin_source, render

if TYPE_CHECKING:
    from typing import TypedDict, Unpack

    from .plan import Action
    from .plugin import Rendered

    class _Options(TypedDict, total=False):
        out: Callable[[str], None]
        ask: Callable[[str], bool] | None

@attrs.define
class Context:
    env: dict[str, str]
    home: Path
    store: Path
    out: Callable[[str], None] = print
    ask: Callable[[str], bool] | None = None  # None: apply without asking (--yes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **kw: Unpack[_Options]) -> Context:
        from ..config import Config, ConfigError

        env = dict(os.environ if env is None else env)
        try:
            store = Config.from_env(env).root
        except ConfigError as exc:
            raise SetupError(str(exc)) from None
        try:
            str(store).encode("utf-8")
        except UnicodeEncodeError:  # a traceback at the first file written that names it (kg_env, settings)
            raise SetupError(f"the store's path {str(store)!r} (KG_HOME) is not valid UTF-8: the agents' settings "
                             "(JSON, TOML, shell) cannot name it; use a path in UTF-8") from None
        return cls(env, Path(os.path.expanduser("~")) if "HOME" not in env else Path(env["HOME"]), store, **kw)

    @property
    def setup_dir(self) -> Path:
        return self.store / "setup"

    @property
    def marketplace_dir(self) -> Path:
        return self.setup_dir / "marketplace"

    @property
    def record_path(self) -> Path:
        return self.setup_dir / "record.json"

    def plugin(self) -> Rendered:
        return render(plugin_source(), kg_command(), passed_env(self.env))

    def tracked(self, step: str) -> Path | None:
        """The user file a step's changes land in: what uninstall restores byte for byte."""
        if step in ("claude", "gauge"):
            return claude.settings_path(self.env, self.home)
        if step == "codex":
            return codex.config_path(self.env, self.home)
        if step == "desktop":
            return desktop.config_path(self.env, self.home)
        if step == "gemini":
            return gemini.settings_path(self.env, self.home)
        if step == "opencode":
            return opencode.config_path(self.env, self.home)
        if step == "chores":
            return chores_file.path_of(self.store)
        return None


def gather(ctx: Context, record: Record, plugin: Rendered) -> Found:
    mfiles = marketplace_files(plugin)
    current = read_tree(ctx.marketplace_dir) == {rel: data for rel, (data, _m) in mfiles.items()}
    entry = desktop.entry(kg_command(), passed_env(ctx.env))
    return Found(
        marketplace_dir=ctx.marketplace_dir, marketplace_current=current, plugin_key=plugin.key,
        desktop_entry=entry,
        claude=claude.find(ctx.env, ctx.home, plugin),
        codex=codex.find(ctx.env, ctx.home, plugin),
        desktop=desktop.find(ctx.env, ctx.home, record),
        gemini=gemini_step.found(ctx.env, ctx.home, record, ctx.marketplace_dir / plugin.name),
        opencode=opencode_step.found(ctx.env, ctx.home, plugin, record),
        antigravity=AntigravityFound(shutil.which("agy", path=ctx.env.get("PATH")),
                                     ctx.marketplace_dir / plugin.name / AGY_DIR,
                                     bool(record.done("antigravity").get("installed"))),
        claude_settings=claude.settings_path(ctx.env, ctx.home), kg_argv=tuple(kg_command()), store=ctx.store,
        default_store=ctx.home / ".knowledge-graph", chores=chores_file.found(ctx.store),
    )


def _gemini_want(ctx: Context) -> dict[str, Any]:
    return gemini_step.want(ctx.env, ctx.marketplace_dir / ctx.plugin().name)


def _show(ctx: Context, steps: list[Step]) -> None:
    for step in steps:
        if step.actions:
            ctx.out(f"{step.title}:")
            for action in step.actions:
                ctx.out(f"  - {action.text}")
            if step.note:
                ctx.out(f"  ({step.note})")
        else:
            ctx.out(f"{step.title}: {'PROBLEM: ' if step.problem else ''}{step.note}")


def setup(ctx: Context, only: tuple[str, ...], plan_only: bool = False) -> int:
    if server_said.refused(ctx.out, ctx.env, ctx.store, plan_only):
        return 1
    plugin = ctx.plugin()
    if plan_only:  # reads only: no lock, no folder made
        steps = plan_setup(gather(ctx, Record.load(ctx.record_path), plugin), only)
        _show(ctx, steps)
        if codex.unsupported_events(plugin) and any(s.name == "codex" and s.actions for s in steps):
            ctx.out(f"  (Codex has no {', '.join(codex.unsupported_events(plugin))} hook event: those stay Claude-only)")
        settings = gemini.settings_path(ctx.env, ctx.home)
        if any(s.name == "gemini" and s.note == gemini.comments_said(settings) for s in steps):
            ctx.out(f"  (the entries to add to {settings} by hand:)")
            ctx.out(gemini.by_hand(_gemini_want(ctx)))
        if any(s.name == "opencode" and (s.actions or s.problem) for s in steps):
            _say_by_hand(ctx, plugin)
        say_project_others(ctx.out, ctx.env, ctx.home, plugin.key, steps)
        server_said.say_restart(ctx.out, ctx.env, ctx.store)  # a probe of /health: reads only
        ctx.out("(plan only: nothing was changed)")
        return 1 if any(s.problem for s in steps) else 0
    with locked(ctx.setup_dir / "lock", lambda: ctx.out("kg setup: waiting for another kg setup to finish")):
        record = Record.load(ctx.record_path)
        record.data["plugin"] = plugin.key
        steps = [_unasked(ctx, step) for step in plan_setup(gather(ctx, record, plugin), only)]
        # Each step to do is on record as not finished until it ends: one cut short (Ctrl-C, a kill) stays so,
        # and `kg doctor` fails it instead of taking it for an agent the user left out.
        for step in steps:
            if step.actions:
                record.failed(step.name, CUT_SHORT)
        record.save()
        try:
            done = _steps(ctx, record, steps, plugin)
            say_project_others(ctx.out, ctx.env, ctx.home, plugin.key, steps)
            server_said.say_restart(ctx.out, ctx.env, ctx.store)
            return done
        except KeyboardInterrupt:
            left = [s.title for s in steps if s.actions and record.failure(s.name) == CUT_SHORT]
            ctx.out(f"\nkg setup: interrupted, not finished: {', '.join(left) or 'nothing'} (what is done is kept; "
                    "kg setup finishes the rest, kg doctor says what is wired)")
            raise


def _unasked(ctx: Context, step: Step) -> Step:
    """A step setup takes only when asked (chores spend the user's quota): with --yes, said and left."""
    if ctx.ask is None and step.name == "chores" and step.actions:
        return Step("chores", note=chores_file.STAY_OFF)
    return step


def _steps(ctx: Context, record: Record, steps: list[Step], plugin: Rendered) -> int:
    failed = False
    for step in steps:
        if not step.actions:
            # A run's step not done is FAILED, as uninstall's; a plan (_show) foresees a PROBLEM.
            ctx.out(f"{step.title}: {'FAILED: ' if step.problem else ''}{step.note}")
            failed |= step.problem
            continue
        _show(ctx, [step])
        if ctx.ask is not None and not ctx.ask(f"Apply these changes to {step.title}?"):
            ctx.out(f"{step.title}: skipped, nothing changed")
            record.failed(step.name, None)  # left out now, by the user's choice
            record.save()
            continue
        why: str | None = CUT_SHORT  # until _apply returns or fails: a Ctrl-C inside it keeps this
        try:
            _apply(ctx, record, step, plugin)
            why = None
        except SetupError as exc:
            why = str(exc)
        except OSError as exc:  # a folder of the user's that cannot be written: this step fails, the next goes on
            why = (f"{exc.filename or ''}: {exc.strerror or exc}: check that folder's permissions and run kg "
                   "setup again")
        finally:
            record.failed(step.name, why)  # kept for `kg doctor`: a failed step is no step left out
            record.save()
        # A problem beside the actions (kg's entry kept as the user set it reaches another server) fails the run too.
        ctx.out(f"{step.title}: FAILED: {why}" if why else f"{step.title}: done" + (
            f", but not working: {step.note}" if step.problem else ""))
        failed |= step.problem
        if why and step.name == "opencode":
            _say_by_hand(ctx, plugin)
        failed |= why is not None
    return 1 if failed else 0


def _say_by_hand(ctx: Context, plugin: Rendered) -> None:
    if text := opencode_step.by_hand(ctx.env, ctx.home, plugin):
        ctx.out(text)


def _run(ctx: Context, argv: tuple[str, ...]) -> None:
    cli_calls.run(argv, ctx.env, ctx.home)


def _apply(ctx: Context, record: Record, step: Step, plugin: Rendered) -> None:
    ignore = ctx.setup_dir / ".gitignore"
    if not ignore.exists():  # a store kept in git never takes in this machine's paths and backups
        atomic_write(ignore, b"*\n")
    tracked = ctx.tracked(step.name)
    if tracked is not None:
        record.before_change(tracked)
    try:
        for action in step.actions:
            if action.kind == "write_plugin":
                # Another step of this run may have written it already: write only what differs.
                files = marketplace_files(plugin)
                if read_tree(ctx.marketplace_dir) != {rel: data for rel, (data, _m) in files.items()}:
                    write_tree(ctx.marketplace_dir, files)
            elif action.kind == "run" and action.gone_ok:
                if not cli_calls.removed(action.argv, lambda argv: _run(ctx, argv)):
                    ctx.out(f"  ({action.text}: already done)")
            elif action.kind == "run":
                _run(ctx, action.argv)
            elif action.kind == "claude_enabled_object":
                assert action.path is not None
                atomic_write(action.path, claude.enabled_as_object(read_bytes(action.path), action.path))
            elif action.kind == "codex_trust":
                codex.trust(action.argv[0], ctx.env, ctx.home, plugin)
            elif action.kind in other_kg.SETUP_KINDS:
                other_kg.apply(action, record, step.name, ctx.env, ctx.home, lambda argv: _run(ctx, argv))
            elif action.kind == "claude_statusline":
                assert action.path is not None  # plan.py gives every writing action its path
                atomic_write(action.path, statusline.merged(read_bytes(action.path), action.argv[0], action.path))
                record.mark("gauge", path=str(action.path))
            elif action.kind == "gemini_write":
                assert action.path is not None
                gemini_step.write(ctx.env, ctx.home, record, action.path, ctx.marketplace_dir / plugin.name)
                ctx.out(f"  {gemini_trust.HOW}")  # else its kg tools are silently off in a new folder
            elif action.kind == "chores_on":
                assert action.path is not None
                atomic_write(action.path, chores_file.switched_on(read_bytes(action.path), action.path))
                record.mark("chores", path=str(action.path))
            elif action.kind == "opencode_write":
                assert action.path is not None
                opencode_step.write(ctx.env, ctx.home, record, action.path, plugin)
            elif action.kind == "desktop_write":
                assert action.path is not None
                desktop.write(record, action.path, desktop.entry(kg_command(), passed_env(ctx.env)), ctx.home)
            else:
                raise SetupError(f"unknown action {action.kind}")
            if action.fact:
                record.mark(step.name, **{action.fact: True})
        # `claude plugin install` exits 0 though the plugin may stay disabled: done only once its files say enabled.
        why = claude.not_enabled(ctx.env, ctx.home, plugin) if step.name == "claude" else None
        if why:
            raise SetupError(why)
    finally:
        if tracked is not None:
            record.after_change(tracked)


def _no_record(ctx: Context) -> int:
    """Nothing on record here: said, unless the agents' files hold kg entries of a setup run with another
    KG_HOME (its record is in that store), which are named with the command that undoes them."""
    files = [p for p in dict.fromkeys(ctx.tracked(step) for step in STEPS) if p is not None]
    files.append(opencode.plugin_path(ctx.env, ctx.home))
    others = elsewhere(files, ctx.store)
    if not others:
        ctx.out(f"kg setup has changed nothing here (no record at {ctx.record_path})")
        return 0
    for store, paths in others.items():
        ctx.out(f"kg uninstall: no record at {ctx.record_path}, but kg entries written by a setup with "
                f"KG_HOME={store} remain in {', '.join(map(str, paths))}: run `KG_HOME={shlex.quote(str(store))} kg uninstall`")
    return 1


def uninstall(ctx: Context, plan_only: bool = False) -> int:
    if not ctx.setup_dir.exists():  # setup never ran here: nothing to undo, and no lock file to leave behind
        return _no_record(ctx)
    if plan_only:
        record = Record.load(ctx.record_path)
        if record.empty:
            return _no_record(ctx)
        _show(ctx, plan_uninstall(_undo(ctx, record)))
        ctx.out("(plan only: nothing was changed)")
        return 0
    with locked(ctx.setup_dir / "lock", lambda: ctx.out("kg uninstall: waiting for a kg setup to finish")):
        record = Record.load(ctx.record_path)
        if record.empty:
            return _no_record(ctx)
        undo = _undo(ctx, record)
        steps = plan_uninstall(undo)
        _show(ctx, steps)
        if ctx.ask is not None and not ctx.ask("Undo everything kg setup did, as listed?"):
            ctx.out("nothing changed")
            return 0
        plugin = ctx.plugin()
        failed = False
        for step in steps:
            for action in step.actions:
                if failed and action.kind == "remove_dir":
                    # What could not be undone stays on record, to try again; and the plugin's files stay
                    # while an agent's settings that were not cleaned may still run its hooks.
                    continue
                try:
                    _undo_action(ctx, record, action, plugin)
                except SetupError as exc:
                    if action.kind == "run" and cli_calls.already_gone(str(exc)):
                        ctx.out(f"{step.title}: {action.text}: already done by hand")
                        continue
                    ctx.out(f"{step.title}: FAILED: {str(exc).replace('run kg setup again', 'run kg uninstall again')}")
                    failed = True
                except OSError as exc:
                    ctx.out(f"{step.title}: FAILED: {exc.filename or ''}: {exc.strerror or exc}")
                    failed = True
            failed |= step.problem
        for path, unchanged in undo.files.items():
            if undo.claude_unreadable and path == undo.claude_settings:
                continue  # left alone, unread (said above): nothing was taken out of it
            if not unchanged:
                ctx.out(f"{path}: changed since kg setup, so only kg's entries were taken out (not restored whole)")
        if failed:
            record.save()  # what could not be undone stays on record, to try again
            ctx.out(f"kg uninstall: not finished: the setup record ({ctx.record_path}) and the plugin folder are "
                    "kept; run kg uninstall again once what failed above is fixed")
            return 1
        ctx.out("kg uninstall: done (the memory in "
                f"{ctx.store} is untouched)")
        return 0


def _undo(ctx: Context, record: Record) -> Undo:
    return undo_found.undo_of(record, ctx.env, ctx.home, ctx.marketplace_dir, ctx.record_path, ctx.plugin())


def _rewrite(path: Path, change: Callable[[bytes, Path], bytes | None]) -> None:
    """A user's config file without setup's entries (None from `change`: nothing of ours, left as is)."""
    raw = read_bytes(path)
    changed = change(raw, path) if raw is not None else None
    if changed is not None:
        atomic_write(path, changed)


def _undo_action(ctx: Context, record: Record, action: Action, plugin: Rendered) -> None:
    if action.kind == "run":
        _run(ctx, action.argv)
    elif action.kind in other_kg.UNDO_KINDS:
        other_kg.undo(action, record, ctx.env, ctx.home, lambda argv: _run(ctx, argv))
    elif action.kind == "codex_untrust":
        recorded = record.files().get(codex.config_path(ctx.env, ctx.home))  # (bytes before setup, digest after)
        codex.untrust(action.argv[0], ctx.env, ctx.home, plugin, recorded[0] if recorded else None,
                      recorded is not None)
    elif action.kind == "claude_tidy":
        assert action.path is not None
        before = record.files().get(action.path, (None, None))[0]
        _rewrite(action.path, lambda raw, path: claude.without_emptied(raw, before, path))
    elif action.kind == "gemini_remove":
        assert action.path is not None  # plan.py gives every action but run and codex_untrust its path
        before = record.files().get(action.path, (None, None))[0]
        keep = entry_kept.kept(ctx.out, record, "gemini", action.path, _gemini_want(ctx)["mcpServers"][gemini.SERVER])
        _rewrite(action.path, lambda raw, path: gemini.removed(raw, path, before, keep))
    elif action.kind in ("opencode_remove", "opencode_plugin_remove"):
        assert action.path is not None
        target = action.path if action.kind == "opencode_plugin_remove" else opencode.plugin_path(ctx.env, ctx.home)
        if opencode.ours(read_bytes(target)):  # a file of the user's own of that name stays
            target.unlink()
            with contextlib.suppress(OSError):
                target.parent.rmdir()  # the plugin folder setup made, when nothing else is in it
        if action.kind == "opencode_remove" and not entry_kept.kept(ctx.out, record, "opencode", action.path,
                                                          opencode_step.want(plugin, ctx.env)[1]):
            recorded = record.files().get(action.path)
            _rewrite(action.path, lambda raw, path: opencode.removed(raw, path, recorded[0] if recorded else None,
                                                                      recorded is not None))
    elif action.kind == "desktop_remove":
        assert action.path is not None
        if not entry_kept.kept(ctx.out, record, "desktop", action.path, desktop.entry(kg_command(), passed_env(ctx.env))):
            _rewrite(action.path, desktop.without)
    elif action.kind == "chores_back":
        assert action.path is not None
        before = record.files().get(action.path, (None, None))[0]
        _rewrite(action.path, lambda raw, path: chores_file.switched_back(raw, path, before))
    elif action.kind == "statusline_remove":
        assert action.path is not None
        back = action.argv[0] if action.argv else None
        _rewrite(action.path, lambda raw, path: statusline.without(raw, path, back))
    elif action.kind == "restore":
        assert action.path is not None
        before = record.files()[action.path][0]
        if before is None:
            action.path.unlink(missing_ok=True)
        else:
            atomic_write(action.path, before)
    elif action.kind == "remove_empty_dir":
        assert action.path is not None
        try:
            action.path.rmdir()  # only when empty: what the user put there since stays, with its folder
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):  # POSIX lets rmdir say either
                raise
    elif action.kind == "remove_dir":
        assert action.path is not None
        if action.path == ctx.record_path:
            record.data = {"version": record.data["version"], "done": {}, "files": {}}
            record.save()
        else:
            remove_tree(action.path)


def ask_tty(question: str) -> bool:
    """Ask on the terminal; no answer (end of input) is a no."""
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        print(file=sys.stderr)
        return False
    return answer.strip().lower() in ("y", "yes")
