"""What setup and uninstall do, decided from what was found: pure, no I/O.

A step is one harness; its actions are what the user is asked about. An action
is either a command of the harness's own CLI (`run`) or a change setup makes
itself (`write_plugin`, `codex_trust`, `desktop_write`, ...), done by run.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from . import name_taken, statusline
from .entry_refresh import elsewhere_fix, elsewhere_said, reach_said, refreshed, rewrite_said
from .files import customized, foreign_entry
from .gemini import comments_said
from .found import (AntigravityFound, ChoresFound, ClaudeFound, CodexFound, DesktopFound, Found, GeminiFound,
                    OpenCodeFound)
from .other_plugins import name_shared, permissions_of, rules_of_installed

STEPS = ("claude", "codex", "desktop", "gemini", "antigravity", "opencode", "gauge", "chores")
TITLES = {"claude": "Claude Code", "codex": "Codex", "desktop": "Claude Desktop", "gemini": "Gemini CLI",
          "antigravity": "Antigravity CLI", "opencode": "OpenCode", "gauge": "Claude Code quota gauge",
          "chores": "Background chores"}


@attrs.frozen
class Action:
    # run | write_plugin | codex_trust | codex_untrust | desktop_write | desktop_remove | statusline_remove |
    # opencode_write | opencode_remove | opencode_plugin_remove | claude_tidy | restore | remove_dir |
    # remove_empty_dir | disable_other | enable_other | claude_drop_rules | claude_rules_back |
    # desktop_drop_other | desktop_other_back
    kind: str
    text: str
    argv: tuple[str, ...] = ()
    path: Path | None = None
    fact: str | None = None  # what the record keeps once done, so uninstall undoes exactly that
    gone_ok: bool = False  # a removal (run): what it removes already gone is done, and the step goes on


@attrs.frozen
class Step:
    name: str
    actions: tuple[Action, ...] = ()
    note: str = ""  # said when there is nothing to do: why (skipped, up to date) or what is wrong
    problem: bool = False
    fix: str = ""  # doctor's fix for a problem, where "fix that file" would not do

    @property
    def title(self) -> str:
        return TITLES.get(self.name, self.name)


def parse_only(raw: str | None) -> tuple[str, ...]:
    if raw is None:  # `--only ""` names no step: an error, not every step
        return STEPS
    names = tuple(dict.fromkeys(n.strip() for n in raw.split(",") if n.strip()))
    unknown = [n for n in names if n not in STEPS]
    if unknown or not names:
        raise ValueError(f"--only takes a comma-separated list of {', '.join(STEPS)}; not {', '.join(unknown) or raw!r}")
    return names


def _write_plugin(found: Found) -> tuple[Action, ...]:
    if found.marketplace_current:
        return ()
    return (Action("write_plugin", f"write the kg plugin (hooks, skills, MCP entry) into {found.marketplace_dir}",
                   path=found.marketplace_dir),)


def plan_setup(found: Found, only: tuple[str, ...] = STEPS) -> list[Step]:
    planners = {"claude": _claude, "codex": _codex, "desktop": _desktop, "gemini": _gemini,
                "antigravity": _antigravity, "opencode": _opencode, "gauge": _gauge, "chores": _chores}
    return [planners[name](found) for name in STEPS if name in only]


def _marketplace(name: str, c: ClaudeFound | CodexFound, found: Found) -> Step | list[Action]:
    """What both CLIs start with: a Step when there is nothing to do (not found, unreadable),
    else the actions that write the plugin and register the local marketplace."""
    if c.cli is None:
        return Step(name, note=f"not found (no `{name}` on PATH): skipped")
    if c.error:
        return Step(name, note=c.error, problem=True)
    if c.own_server and kgs_entry(c.own_entry, found):
        pass  # kg's own `kg mcp`, as the user added it: kept as they set it, the plugin installed beside it
    elif c.own_server and name_taken.another_programs(c.own_entry):
        rename = name_taken.rename_claude if isinstance(c, ClaudeFound) else name_taken.rename_codex
        return _taken(name, c.own_server, c.own_entry, rename(c.own_entry))
    elif c.own_server:
        # The plugin brings the `kg` server: beside the user's own it would be hidden (Codex) or doubled (Claude Code).
        remove = c.own_remove if isinstance(c, ClaudeFound) else "codex mcp remove kg"
        return Step(name, note=f"{c.own_server} is already set to something else; left untouched (the plugin's kg "
                               f"server would be hidden or doubled by it: `{remove}`, then run kg setup again)",
                    problem=True)
    mdir, market = str(found.marketplace_dir), found.plugin_key.split("@")[1]
    acts: list[Action] = list(_write_plugin(found))
    if c.marketplace != mdir:
        if c.marketplace is not None:
            acts.append(Action("run", f"drop the old {market} marketplace (it points at {c.marketplace})",
                               (c.cli, "plugin", "marketplace", "remove", market), gone_ok=True))
        acts.append(Action("run", f"add the local marketplace {market}",
                           (c.cli, "plugin", "marketplace", "add", mdir), fact="marketplace"))
    return acts


def kgs_entry(entry: Any, found: Found) -> bool:
    """The user's own MCP server entry named kg runs this kg's `kg mcp` (as setup would write it, or with their
    additions): it is kg's, as the entry of the same kind in Claude Desktop, Gemini and OpenCode is."""
    return entry is not None and (entry == found.desktop_entry or customized(entry, found.desktop_entry))


def _own_elsewhere(name: str, c: ClaudeFound | CodexFound, found: Found, acts: list[Action]) -> Step | None:
    """The step, failed, when the user's own kg entry kept beside the plugin reaches another server than this
    store's: that entry is the one the agent runs, so every kg tool there fails."""
    reach = reach_said(c.own_entry, found.desktop_entry, found.default_store) \
        if c.own_server and kgs_entry(c.own_entry, found) else None
    if reach is None:
        return None
    remove = c.own_remove if isinstance(c, ClaudeFound) else "codex mcp remove kg"
    return Step(name, tuple(acts), note=elsewhere_said(str(c.own_server), reach), problem=True,
                fix=f"set those variables in {c.own_server} to this store's, or take that entry out (`{remove}`: "
                    f"the plugin's kg server takes its place), then kg setup --only {name}")


def _own_kept(c: ClaudeFound | CodexFound, found: Found, acting: bool) -> str:
    """What the step says of the user's own kg entry setup keeps. Codex reaches kg through it (it hides the
    plugin's server of that name); Claude Code skips a plugin's server that runs the same command as one the
    user configured, so kg's tools are listed once either way."""
    if not (c.own_server and kgs_entry(c.own_entry, found)):
        return "" if acting else UP_TO_DATE
    return f"{c.own_server}: kg's entry, customized: left as you set it" if acting else CUSTOMIZED


def _names_on(c: ClaudeFound) -> dict[str, Any]:
    """Claude Code's settings with each plugin installed for a project read as enabled: one sharing a disabled
    plugin's name may own its permission rules."""
    user_on = (c.settings or {}).get("enabledPlugins")
    return {**(c.settings or {}), "enabledPlugins": {**(user_on if isinstance(user_on, dict) else {}),
                                                     **{k: True for k in c.in_projects}}}


def _claude(found: Found) -> Step:
    c, key = found.claude, found.plugin_key
    acts = _marketplace("claude", c, found)
    if isinstance(acts, Step):
        return acts
    assert c.cli is not None  # _marketplace returned a Step otherwise
    fresh = bool(acts)  # a plugin or marketplace changed
    why = _enabled_not_object(c.settings)
    if why:  # before the install, which enables the plugin only in an object
        acts.append(Action("claude_enabled_object", f"rewrite enabledPlugins in {found.claude_settings} as an "
                                                    f"object, keeping what it held ({why})",
                           path=found.claude_settings))
    if c.installed and (not c.cache_current or fresh):
        # Claude Code copies a plugin at install: a changed plugin is installed afresh.
        # Gone already when the marketplace dropped above took it along (Claude Code does): then done.
        acts.append(Action("run", f"remove the outdated copy of {key}", (c.cli, "plugin", "uninstall", key),
                           gone_ok=True))
    if not c.installed or not c.cache_current or fresh:
        acts.append(Action("run", f"install the plugin {key} for this user",
                           (c.cli, "plugin", "install", key, "--scope", "user"), fact="installed"))
    elif not c.enabled:
        acts.append(Action("run", f"enable the plugin {key}", (c.cli, "plugin", "enable", key)))
    acts += _disable_others("claude", c)
    leaving = {o.key for o in c.others}
    # A plugin of a project may share a disabled one's name, and so its rules: read as enabled for the names.
    for other in c.others:  # its tools' permissions, of no use once it is off (uninstall puts them back)
        rules = permissions_of(_names_on(c), other, key, leaving)
        if rules:
            which = f"{len(rules)} permission rules" if len(rules) > 1 else "permission rule"
            acts.append(Action("claude_drop_rules", f"take the {which} of {other.key}'s tools ({rules[0]}"
                                                    f"{', ...' if len(rules) > 1 else ''}) out of "
                                                    f"{found.claude_settings}", tuple(rules), found.claude_settings))
    return _own_elsewhere("claude", c, found, acts) or Step("claude", tuple(acts), note=_own_kept(c, found, bool(acts)))


def _disable_others(agent: str, c: ClaudeFound | CodexFound) -> list[Action]:
    """Another kg memory plugin enabled beside ours is disabled, as its agent's own CLI or config would (its
    marketplace and installed copy stay: `kg uninstall` enables it again)."""
    assert c.cli is not None
    leaving = {o.key for o in c.others}
    acts = []
    for o in c.others:
        shared = name_shared(_names_on(c), o, leaving) if isinstance(c, ClaudeFound) else []
        # Claude Code names a plugin's tools by its name alone: a namesake staying enabled owns those rules too.
        kept = (f"; its permission rules stay ({', '.join(shared)}, also enabled, names its tools the same way)"
                if shared else "")
        acts.append(Action("disable_other", f"disable {o.key} ({o.why}): another kg memory plugin, whose hooks and kg "
                                            f"tools would run beside kg's (its marketplace and files stay){kept}",
                           (agent, c.cli, o.key)))
    return acts


def _enabled_not_object(settings: dict[str, Any] | None) -> str | None:
    """Why settings.json's enabledPlugins needs rewriting before any plugin can be enabled (None: it need not).
    Claude Code reads only an object there; a list it leaves as is, and every plugin stays disabled (its own
    `claude plugin enable` says done and changes nothing)."""
    value = (settings or {}).get("enabledPlugins")
    if value is None or isinstance(value, dict):
        return None
    return f"it is a {type(value).__name__}, and Claude Code enables plugins only in an object"


def _codex(found: Found) -> Step:
    c, key = found.codex, found.plugin_key
    acts = _marketplace("codex", c, found)
    if isinstance(acts, Step):
        return acts
    assert c.cli is not None  # _marketplace returned a Step otherwise
    if not (c.installed and c.enabled and c.cache_current) or acts:
        acts.append(Action("run", f"install the plugin {key} (its hooks and the kg MCP server)",
                           (c.cli, "plugin", "add", key), fact="installed"))
    if not c.trusted or acts:
        # Codex runs a plugin's hooks only once trusted (what /hooks does by hand): setup asks to trust its own.
        acts.append(Action("codex_trust", f"trust the hooks of {key} (Codex runs no untrusted hook)",
                           (c.cli,), fact="trusted"))
    acts += _disable_others("codex", c)
    return _own_elsewhere("codex", c, found, acts) or Step("codex", tuple(acts), note=_own_kept(c, found, bool(acts)))


def _gauge(found: Found) -> Step:
    c = found.claude
    return gauge_step(c.cli, c.settings, c.error, found.claude_settings, found.kg_argv, found.store,
                      found.default_store)


def gauge_step(cli: str | None, settings: dict[str, Any] | None, error: str | None, settings_path: Path,
               kg_argv: list[str] | tuple[str, ...], store: Path | None = None,
               default_store: Path = Path("~/.knowledge-graph")) -> Step:
    if cli is None:
        return Step("gauge", note="Claude Code not found: skipped")
    if error:  # the Claude Code step reports the unreadable file; this one waits for it
        return Step("gauge", note="skipped until Claude Code's settings are readable")
    theirs = statusline.current(settings)
    if statusline.is_gauge(theirs):
        why = statusline.stale(theirs, kg_argv, store, default_store) if store is not None else None
        gauge = statusline.parsed(theirs)
        if why is None or gauge is None:
            return Step("gauge", note="up to date")
        text = f"rewrite Claude Code's status line in {settings_path}: {why}"
        return Step("gauge", (Action("claude_statusline", text,
                                     (statusline.gauge_command(kg_argv, gauge.theirs, store),), settings_path,
                                     fact="statusline"),))
    text = (f"run `kg gauge` as Claude Code's status line (records the quota reading chores need; "
            + (f"your status line `{theirs}` still shows" if theirs else "shows `5h N% · week M%`")
            + f") in {settings_path}")
    return Step("gauge", (Action("claude_statusline", text, (statusline.gauge_command(kg_argv, theirs, store),),
                                 settings_path, fact="statusline"),))


def _chores(found: Found) -> Step:
    c = found.chores
    if c is None:
        return Step("chores", note="no store to switch them on in: skipped")
    if c.error:
        return Step("chores", note=c.error, problem=True)
    if c.enabled:
        return Step("chores", note="on")
    return Step("chores", (Action("chores_on", f"switch background chores on (\"enabled\": true in {c.path}): the "
                                               "server pays memory debt down while you work, spending your plan's "
                                               "quota within its gates", path=c.path, fact="enabled"),),
                note="asked only: kg setup --yes leaves them off")


def _taken(step: str, where: str, entry: Any, rename: str) -> Step:
    return Step(step, note=name_taken.note(TITLES[step], where, entry, rename), problem=True,
                fix=name_taken.fix(step, rename))


def _foreign(step: str, where: str, entry: Any) -> Step:
    if name_taken.another_programs(entry):
        return _taken(step, where, entry, name_taken.rename_json(entry))
    return Step(step, note=f"{where} is already set to something else; left untouched (remove it to let kg setup "
                           "write its own)", problem=True)


UP_TO_DATE = "up to date"
CUSTOMIZED = "up to date (kg's entry, customized: left as you set it)"


def up_to_date(changed_by_user: bool) -> str:
    return CUSTOMIZED if changed_by_user else UP_TO_DATE


def _desktop(found: Found) -> Step:
    d = found.desktop
    if d.config is None:
        return Step("desktop", note="not found (no Claude Desktop configuration folder): skipped")
    if d.error:
        return Step("desktop", note=d.error, problem=True)
    others = tuple(Action("desktop_drop_other", f"remove mcpServers.{name} from {d.config}: another kg memory server "
                                                "(it runs a kg MCP server), which beside kg's doubles every kg tool (kg "
                                                "uninstall puts it back)", (name,), d.config) for name in d.others)
    want, foreign = found.desktop_entry, foreign_entry(d.entry, found.desktop_entry, d.ours)
    target = refreshed(d.entry, want, d.ours)
    if d.entry is not None and not foreign and d.entry == target:
        return _kept_entry("desktop", f"{d.config}: mcpServers.kg", d.entry, found, others) or \
            Step("desktop", others, note="" if others else up_to_date(d.entry != want))
    if foreign:
        return _foreign("desktop", f"{d.config}: mcpServers.kg", d.entry)
    said = (f"add the kg MCP server (through `kg mcp`) to {d.config}" if d.entry is None else
            f"update kg's MCP server in {d.config} {rewrite_said(d.entry, target, want)}")
    return Step("desktop", (Action("desktop_write", said, path=d.config), *others))


def _kept_entry(step: str, where: str, entry: Any, found: Found, actions: tuple[Action, ...] = ()) -> Step | None:
    """The step, failed, when kg's entry as the user set it (kept) reaches another server than this store's."""
    reach = reach_said(entry, found.desktop_entry, found.default_store)
    if reach is None:
        return None
    return Step(step, actions, note=elsewhere_said(where, reach), problem=True, fix=elsewhere_fix(where, step))


def _server_said(where: str, entry: Any, target: Any, want: Any, found: Found) -> str | None:
    """What a step that writes an agent's settings says of kg's server there (`want`: what setup writes; None:
    it is written as setup writes it, said by the caller)."""
    if entry is None or entry == target == want:
        return None
    if entry == target:
        reach = reach_said(entry, found.desktop_entry, found.default_store)
        return f"; its {where}, kg's as you set it, stays as it is" + (
            f" (it reaches another kg server than this store's: {reach})" if reach else "")
    return f"; update its {where} {rewrite_said(entry, target, want)}"


def _gemini(found: Found) -> Step:
    g = found.gemini
    if g is None or not g.present:
        return Step("gemini", note="not found (no `gemini` on PATH, no ~/.gemini): skipped")
    if g.error:
        return Step("gemini", note=g.error, problem=True)
    if g.installed and found.marketplace_current:
        return _kept_entry("gemini", f"{g.settings}: mcpServers.kg", g.entry, found) or \
            Step("gemini", note=up_to_date(g.customized))
    if g.foreign:
        return _foreign("gemini", f"{g.settings}: mcpServers.kg", g.entry)
    if g.comments:  # the write would refuse it: a problem in the plan too, as the run fails it
        return Step("gemini", note=comments_said(g.settings), problem=True,
                    fix=f"add kg's entries to {g.settings} by hand (kg setup --plan --only gemini prints them), or "
                        "take its comments out and run kg setup --only gemini")
    # Desktop's entry and trust (an older GeminiFound has no `want`)
    kept = _server_said("mcpServers.kg", g.entry, g.target, found.desktop_entry if g.want is None else g.want, found)
    server = "" if kept else " and the kg MCP server"
    return Step("gemini", (*_write_plugin(found), Action(
        "gemini_write", f"add the kg hooks (SessionStart, BeforeAgent, AfterTool){server} to {g.settings}{kept or ''}",
        path=g.settings, fact="settings")))


def _opencode(found: Found) -> Step:
    o = found.opencode
    if o is None or not o.present:
        return Step("opencode", note="not found (no `opencode` on PATH, no ~/.config/opencode): skipped")
    if o.error:
        return Step("opencode", note=o.error, problem=True)
    if o.installed:
        return _kept_entry("opencode", f"{o.config}: mcp.kg", o.entry, found) or \
            Step("opencode", note=up_to_date(o.customized))
    if o.foreign:
        return _foreign("opencode", f"{o.config}: mcp.kg", o.entry)
    server = _server_said(f"mcp.kg in {o.config}", o.entry, o.target, o.want, found) or \
        f" and the kg MCP server to {o.config}"
    return Step("opencode", (Action("opencode_write", f"add the kg-memory plugin to {o.config.parent / 'plugin'}"
                                                      f"{server}", path=o.config, fact="settings"),))


def _antigravity(found: Found) -> Step:
    a = found.antigravity
    if a is None or a.cli is None:
        return Step("antigravity", note="not found (no `agy` on PATH): skipped")
    if a.installed and found.marketplace_current:
        return Step("antigravity", note="up to date")
    return Step("antigravity", (*_write_plugin(found), Action(
        "run", f"install the kg-memory Antigravity plugin from {a.package}", (a.cli, "plugin", "install", str(a.package)),
        fact="installed")))


@attrs.frozen
class Undo:
    """What the record says setup did, and whether each recorded file is still as setup left it."""
    done: dict[str, dict[str, Any]]  # step -> facts
    files: dict[Path, bool]  # Path -> unchanged since setup
    marketplace_dir: Path
    record: Path
    plugin_key: str
    claude_cli: str | None = None
    codex_cli: str | None = None
    agy_cli: str | None = None
    claude_settings: Path | None = None  # where the gauge step wrote, for records that did not keep it
    claude_unreadable: str | None = None  # why Claude Code's settings.json cannot be read, when it cannot
    claude_installed: frozenset[str] | None = None  # the plugins Claude Code has installed now (None: unknown)
    entries_kept: frozenset[str] = frozenset()  # steps whose MCP server entry named kg is the user's: it stays
    statusline_back: str | None = None  # another kg's gauge setup replaced (statusline.replaced): given back


def _and_server(step: str, undo: Undo) -> str:
    return "" if step in undo.entries_kept else (" and the kg MCP server" if step == "opencode" else " and MCP server")


def _still_installed(disabled: list[str], installed: frozenset[str] | None) -> tuple[list[str], list[str]]:
    """The plugins setup disabled that are still installed (enabled again by uninstall), and those gone since."""
    if installed is None:
        return disabled, []
    return [k for k in disabled if k in installed], [k for k in disabled if k not in installed]


def plan_uninstall(undo: Undo) -> list[Step]:
    key = undo.plugin_key
    market = key.split("@")[1]
    steps = []
    for name, cli in (("claude", undo.claude_cli), ("codex", undo.codex_cli)):
        facts = undo.done.get(name)
        if not facts:
            continue
        acts = []
        if cli is None:
            steps.append(Step(name, note=f"setup changed it, but `{name}` is no longer on PATH: its plugin "
                                         f"{key} stays registered", problem=True))
            continue
        if name == "claude" and undo.claude_unreadable:
            # Its CLI would undo nothing there (or say "not found"): the record must stay to try again.
            steps.append(Step(name, note=f"{undo.claude_unreadable}: kg's entries in it (the plugin {key}, the "
                                         f"marketplace {market}) stay; fix or move that file, then run kg uninstall "
                                         "again (the setup record is kept)", problem=True))
            continue
        if facts.get("installed"):
            verb = "uninstall" if name == "claude" else "remove"
            acts.append(Action("run", f"uninstall the plugin {key}", (cli, "plugin", verb, key)))
        if facts.get("trusted"):
            acts.append(Action("codex_untrust", f"forget the trust setup gave to the hooks of {key}", (cli,)))
        if facts.get("marketplace"):
            acts.append(Action("run", f"remove the local marketplace {market}",
                               (cli, "plugin", "marketplace", "remove", market)))
        again, gone = _still_installed([str(o) for o in facts.get("disabled") or ()],
                                      undo.claude_installed if name == "claude" else None)
        for other in again:
            acts.append(Action("enable_other", f"enable {other} again (kg setup disabled it)", (name, cli, other)))
        rules = rules_of_installed(facts.get("dropped_rules") or [], again, gone)
        if rules and undo.claude_settings is not None:
            acts.append(Action("claude_rules_back", f"put back in {undo.claude_settings} the permission rules of its "
                                                    "tools setup took out", tuple(rules), undo.claude_settings))
        settings = undo.claude_settings
        if name == "claude" and acts and settings is not None and undo.files.get(settings) is False:
            # Edited since, so not restored whole: what Claude Code's CLI emptied but left goes here.
            acts.append(Action("claude_tidy", f"take out of {settings} the enabledPlugins and extraKnownMarketplaces "
                                              "setup added, once empty", path=settings))
        # Uninstalled since by the user: enabling it would bring its hooks back (Claude Code enables a plugin it
        # does not have), so it stays as they left it.
        left = f"left as you left it: {', '.join(gone)}, which kg setup disabled, is no longer installed" if gone else ""
        steps.append(Step(name, tuple(acts), note=left))
    if undo.done.get("gemini", {}).get("settings"):
        path = Path(undo.done["gemini"]["path"])
        steps.append(Step("gemini", (Action("gemini_remove", f"remove the kg hooks{_and_server('gemini', undo)} from {path}",
                                            path=path),)))
    oc = undo.done.get("opencode", {})
    # A step that failed half-way kept only the plugin it wrote (or, before 2026-12, the plugin folder it made).
    half = oc.get("plugin") or next((f"{f}/kg-memory.js" for f in oc.get("made", []) if Path(f).name == "plugin"),
                                    None)
    if oc.get("settings"):
        path = Path(oc["path"])
        steps.append(Step("opencode", (Action("opencode_remove", f"remove the kg-memory plugin{_and_server('opencode', undo)} "
                                                                 f"from {path.parent}", path=path),)))
    elif half:
        steps.append(Step("opencode", (Action("opencode_plugin_remove", f"remove the kg-memory plugin {half} (its "
                                                                        "setup step failed)", path=Path(half)),)))
    if undo.done.get("antigravity", {}).get("installed"):
        if undo.agy_cli is None:
            steps.append(Step("antigravity", note="setup installed it, but `agy` is no longer on PATH: its plugin "
                                                  "kg-memory stays installed", problem=True))
        else:
            steps.append(Step("antigravity", (Action("run", "uninstall the kg-memory Antigravity plugin",
                                                     (undo.agy_cli, "plugin", "uninstall", "kg-memory")),)))
    if undo.done.get("desktop"):
        path = Path(undo.done["desktop"]["config"])
        back = tuple(Action("desktop_other_back", f"put mcpServers.{name} back in {path} (setup removed it)", (name,),
                            path) for name in sorted(undo.done["desktop"].get("dropped") or {}))
        said = (f"leave mcpServers.kg in {path}: it is not what kg setup put there (yours, or another server of "
                "that name)") if "desktop" in undo.entries_kept else f"remove the kg MCP server from {path}"
        steps.append(Step("desktop", (Action("desktop_remove", said, path=path), *back)))
    gauge = undo.done.get("gauge", {})
    settings = gauge.get("path") or undo.claude_settings
    if gauge.get("statusline") and settings is not None and not undo.files.get(Path(settings), False):
        # Edited since (Claude Code rewrites it often): not restored whole, so the status line is put back alone.
        given = undo.statusline_back
        said = f"give {settings} its status line back" + (f" (`{given}`, which kg setup replaced)" if given else "")
        steps.append(Step("gauge", (Action("statusline_remove", said, (given,) if given else (), Path(settings)),)))
    chores = undo.done.get("chores", {})
    if chores.get("enabled") and not undo.files.get(Path(chores["path"]), False):
        # Edited since: not restored whole, so "enabled" alone goes back as it was.
        steps.append(Step("chores", (Action("chores_back", "switch background chores back as they were before kg "
                                                           f"setup (\"enabled\" in {chores['path']})",
                                            path=Path(chores["path"])),)))
    tail = []
    for path, unchanged in undo.files.items():
        if unchanged:
            tail.append(Action("restore", f"restore {path} as it was before setup", path=path))
    made = [folder for facts in undo.done.values() for folder in facts.get("made", [])]
    # Deepest first, each once: ~/.config/opencode goes before ~/.config.
    for folder in sorted(dict.fromkeys(made), key=lambda f: len(Path(f).parts), reverse=True):
        tail.append(Action("remove_empty_dir", f"remove {folder} (setup made it) if nothing else is in it",
                           path=Path(folder)))
    tail.append(Action("remove_dir", f"remove the installed plugin folder {undo.marketplace_dir}",
                       path=undo.marketplace_dir))
    tail.append(Action("remove_dir", f"remove the setup record {undo.record}", path=undo.record))
    steps.append(Step("files", tuple(tail)))
    return steps
