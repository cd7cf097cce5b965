"""Memory that arrives by itself: the hook endpoints' decisions, conducted across actors.

SessionStart registers or recovers the session and returns the compact core;
UserPromptSubmit returns the full-read reminder, prompt recall, or nothing;
PreToolUse on a shell command returns the lessons that name it, or nothing;
PostToolUse returns file recall or a capture nudge. Other sessions' writes
ride along on prompt and tool replies. Every recall decision for a known
session is logged to recall.jsonl. Nothing here owns state.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

import attrs
import trio

from . import delivery
from . import session_messages as sm
from .core import capture, command_recall, preload, recall, touches
from .core import constants as C
from .core.debt import debt_line
from .core.errors import InvalidInput
from .harness import profiles, rollout, shell, transcripts
from .core.model import GraphData, Node
from .graph_actor import Derived, GraphHandle
from .memory import Memory
from .session_actor import SessionView
from .storage import layout as L

log = logging.getLogger(__name__)

FILE_TOOLS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
              "NotebookEdit": "notebook_path", "view_file": "AbsolutePath", "replace_file_content": "TargetFile",
              "write_to_file": "TargetFile"}
SHELL_TOOLS = {"Bash", "shell", "exec_command", "local_shell", "run_command"}
PATCH_MARKERS = ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:")
_UNKNOWN_CWD = "/\x00kg-unknown-cwd"  # a directory no path can name: marks relative shell operands


@attrs.frozen
class Resolved:
    """Who a hook call is from; `push_claimed`: its push window was claimed with the lookup."""

    view: SessionView | None
    harness: profiles.Harness
    root: str | None
    push_window: sm.PushWindow | None = None
    push_claimed: bool = False


def hook_output(event: str, text: str | None, system_message: str | None = None) -> dict:
    out: dict = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": text}
    if system_message:
        out["systemMessage"] = system_message
    return out


class Ambient:
    def __init__(self, memory: Memory):
        self.memory = memory
        self.sessions = memory.sessions
        self.directory = memory.directory
        self.layout = memory.layout
        self._view_cache: dict[str, tuple[GraphHandle, GraphData, Derived]] = {}
        self._hooks_noted: set[tuple[str, str | None]] = set()

    async def _written(self, view: SessionView) -> Callable[[str, float], list[Node]]:
        """For pushes: the nodes of a level written after `since` (oldest first), from the read views."""
        views = {lvl: (graph, derived) for lvl, _, graph, derived in await self._views(view)}

        def written(level: str, since: float) -> list[Node]:
            graph, derived = views[level]
            return [graph.nodes[i] for i in derived.written.since(since)]

        return written

    async def _views(self, view: SessionView | None) -> list[tuple[str, GraphHandle, GraphData, Derived]]:
        """The session's graphs (user, then project) as live read views.

        A graph actor keeps one GraphData and one Derived for its whole life and
        runs every op to completion without awaiting, so between two awaits what
        they hold is consistent. The view is asked once per actor and reused:
        a hook reply never queues behind a burst of writes (and the compaction
        each one runs) in the actor's mailbox. Like any view, it is read only
        in synchronous stretches.
        """
        out = []
        for lvl, handle in await self.memory.levels_of(view):
            cached = self._view_cache.get(handle.key)
            if cached is None or cached[0] is not handle:  # a reload starts a new actor
                graph, derived = await handle.view_now()
                cached = self._view_cache[handle.key] = (handle, graph, derived)
            out.append((lvl, handle, cached[1], cached[2]))
        return out

    def _root(self, cwd: object, strict: bool = True) -> str | None:
        """The project folder of a hook's cwd (None: user-only).

        SessionStart is strict (a cwd outside home is refused, as kg_read refuses
        it); the prompt and tool hooks are lenient, so a session that wandered
        outside home is not answered with an error on every event.
        """
        if not cwd:
            return None
        try:
            return self.memory.root_for(cwd)
        except (InvalidInput, ValueError, OSError) as exc:  # ValueError: a NUL byte in the path
            if not strict:
                return None
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput("cwd", "is not a usable path") from None

    def _log(self, records: list[dict]) -> None:
        self.memory.append_log("recall.jsonl", records, C.RECALL_LOG_MAX_BYTES)

    # SessionStart ----------------------------------------------------------------
    async def bootstrap(self, cwd: object, claude_sid: object, source: object, transcript_path: object) -> dict:
        harness = profiles.from_transcript(transcript_path if isinstance(transcript_path, str) else None)
        root = self._root(cwd)
        claude_sid = claude_sid if isinstance(claude_sid, str) and claude_sid else None
        source = source if isinstance(source, str) else "startup"
        now = self.memory.clock()
        view, reused, parent = None, False, None
        if source != "clear" and claude_sid:
            view = await self.sessions.find_by_claude(claude_sid=claude_sid)
            reused = view is not None
        if view is None and source != "clear":
            candidate = await self._from_transcript(transcript_path, root)
            if candidate is not None:
                view = await self.sessions.fork(sid=candidate.sid, claude_sid=claude_sid,
                                                harness=harness.name, now=now)
                reused, parent = True, candidate.sid
        if view is None:
            view = await self.sessions.register(project_path=root, harness=harness.name, now=now,
                                                claude_sid=claude_sid)
            if root is not None:
                await self._name_project(root)
        await self.sessions.tell(sm.NoteHook(harness=harness.name, project_path=root))
        if reused and source != "compact":
            note = (f"KG memory session resumed — session_id: {view.sid} (pass it to every kg_* call"
                    + (f"; it replaces {parent}, which stays with the session this one was forked from" if parent else "")
                    + "). The memory preload earlier in this conversation remains in context; "
                    "kg_sync(session_id) fetches the changes other sessions made since.")
            return {"session_id": view.sid, "reused": True, "context": note, "text": "", "stats": {},
                    "message": f"kg memory: session {view.sid} resumed"}
        if source == "compact":
            view = await self.sessions.reset_context(sid=view.sid)
        return await self._preload(view, harness, reused)

    async def _name_project(self, root: str) -> None:
        """The project graph learns its folder; asked only when the view says it does not know it
        (the actor may be busy with a write that waits for this very hook reply)."""
        handle = await self.directory.get(self.directory.project_key(root))
        cached = self._view_cache.get(handle.key)
        if cached is None or cached[0] is not handle or cached[1].project_path != root:
            await handle.set_project_path(path=root)

    async def _from_transcript(self, transcript_path: object, root: str | None) -> SessionView | None:
        path = transcripts.safe_transcript(transcript_path if isinstance(transcript_path, str) else None, L.home())
        if path is None:
            return None
        try:
            if os.stat(path).st_size == 0:
                return None  # a new session's empty transcript: nothing to recover, no thread to wait for
        except OSError:
            return None
        sid = await trio.to_thread.run_sync(transcripts.recover_sid, path)
        if sid is None:
            return None
        candidate = await self.sessions.get(sid=sid)
        if candidate is None or candidate.project_path != root:
            return None
        return candidate

    async def _preload(self, view: SessionView, harness: profiles.Harness, reused: bool) -> dict:
        now = self.memory.clock()
        parts, scores, debts = [], {}, {}
        views = await self._views(view)
        for lvl, _, graph, derived in views:
            scores[lvl] = derived.recent_scores(graph, now)
            parts.append(derived.gists_part(graph, lvl, now))
            debts[lvl] = debt_line(derived.recent_debt(graph, now))
        if any(p.archived for p in parts) and preload.has_room(parts, debts, view.sid, harness.preload_limit,
                                                                harness.measure):
            # Room for anchors too: the full bodies, archived sections planned.
            for i, (lvl, _, graph, derived) in enumerate(views):
                scores[lvl] = derived.scores(graph, now)
                parts[i] = derived.level_part(graph, lvl, frozenset(), now)
        text, shown = preload.build(parts, scores, debts, view.sid, harness.preload_limit, harness.measure)
        ids = [node_id for _, node_id in shown]
        await self.sessions.tell(sm.SetPreloaded(sid=view.sid, ids=ids))
        await self.sessions.tell(sm.MarkSeen(sid=view.sid, ids=ids, via="preload", at=now))
        stats = {lvl: sum(1 for level, _ in shown if level == lvl) for lvl in ("user", "project")}
        message = (f"kg memory: preloaded {len(ids)} gist(s) (user {stats['user']}, project {stats['project']}) "
                   f"— session {view.sid}")
        return {"session_id": view.sid, "reused": reused, "context": text, "text": text.split("\n\n", 1)[-1],
                "stats": {"user_active": parts[0].active, "project_active": parts[1].active if len(parts) > 1 else 0,
                          "shown_gists": len(ids)}, "message": message}

    # Hook identity -----------------------------------------------------------------
    async def resolve(self, payload: dict, push_before_full_read: bool = True) -> Resolved:
        """The hook's session, harness and project root, and the claimed push window when there is one."""
        harness = profiles.from_transcript(payload.get("transcript_path") if isinstance(payload.get("transcript_path"), str) else None)
        root = self._root(payload.get("cwd"), strict=False)
        claude_sid = payload.get("session_id") if isinstance(payload.get("session_id"), str) else None
        if not claude_sid:
            return Resolved(None, harness, root)
        view, window = await self.sessions.open_hook(claude_sid=claude_sid, now=self.memory.clock(),
                                                     push_before_full_read=push_before_full_read)
        claimed = view is not None
        if view is None:
            candidate = await self._from_transcript(payload.get("transcript_path"), root)
            # Only an unbound session may be claimed by transcript evidence: never guess.
            if candidate is not None and candidate.claude_sid is None:
                view = await self.sessions.bind(sid=candidate.sid, claude_sid=claude_sid, harness=harness.name)
        if view is not None and (harness.name, view.project_path) not in self._hooks_noted:
            # Once per harness and project is enough (and told, not asked: nothing waits for it).
            await self.sessions.tell(sm.NoteHook(harness=harness.name, project_path=view.project_path))
            self._hooks_noted.add((harness.name, view.project_path))
        return Resolved(view, harness, root, window, claimed)

    async def _seen_once_sent(self, seen: sm.MarkSeen) -> None:
        """What a hook reply shows counts as seen once the reply is sent (rest_hooks._delivered)."""
        async def mark() -> None:
            await self.sessions.tell(seen)
        await delivery.once_delivered(mark)

    async def _push(self, call: Resolved) -> str | None:
        assert call.view is not None
        return await self.memory.push_notice(call.view.sid, await self._written(call.view), call.view,
                                             window=call.push_window, claimed=call.push_claimed)

    # UserPromptSubmit ----------------------------------------------------------------
    async def prompt_context(self, payload: dict) -> dict:
        call = await self.resolve(payload, push_before_full_read=False)  # the reminder comes alone
        view = call.view
        if view is None:
            return {}
        base = {"ts": self.memory.clock(), "project": view.project_path, "claude_session": view.claude_sid,
                "kg_session": view.sid}
        if view.full_read_ts is None:
            self._log([{**base, "reason": "full_read_nudge"}])
            return hook_output("UserPromptSubmit", recall.FULL_READ_REMINDER)
        parts: list[str] = []
        text = recall.human_text(payload.get("prompt"))
        terms = recall.prompt_terms(text) if text else []
        if text is None:
            self._log([{**base, "reason": "not_a_prompt"}])
        elif not terms:
            self._log([{**base, "reason": "no_terms"}])
        else:
            decision = await self._recall(view, terms)
            record = {**base, "reason": decision.reason, "terms": terms, "threshold": decision.threshold,
                      "hits": list(decision.hits)}
            if decision.text:
                parts.append(decision.text)
                record["chars"] = len(decision.text)
                await self._seen_once_sent(sm.MarkSeen(sid=view.sid, ids=[i for _, i in decision.shown],
                                                     via="ambient", at=self.memory.clock()))
            self._log([record])
        push = await self._push(call)
        if push:
            parts.append(push)
        return hook_output("UserPromptSubmit", "\n\n".join(parts)) if parts else {}

    async def _recall(self, view: SessionView, terms: list[str]) -> recall.Decision:
        views = await self._views(view)
        if not all(handle.index_ready and derived.index is not None for _, handle, _, derived in views):
            return recall.Decision("index_building")  # a hook must not wait for a first index build
        # No await from here on: the views stay consistent.
        return recall.run(terms, {lvl: (graph, derived.index) for lvl, _, graph, derived in views}, view.seen)

    # PreToolUse (shell commands) ---------------------------------------------------------
    async def pre_tool(self, payload: dict) -> dict:
        """Lessons naming the command about to run, as additionalContext; never a permission decision.

        Decisions where the spec is silent: no full read is required (like file recall, this is
        about one concrete action); other sessions' writes do not ride along here (they come
        with the PostToolUse reply right after); a session's seen set keeps a gist from coming twice.
        """
        tool = payload.get("tool_name") if isinstance(payload.get("tool_name"), str) else ""
        tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
        if tool not in SHELL_TOOLS:
            return {}
        words = shell.invocations(tool_input.get("command", tool_input.get("cmd")))
        if not words:
            return {}
        call = await self.resolve(payload, push_before_full_read=False)
        view = call.view
        if view is None:
            return {}
        views = await self._views(view)
        if not all(handle.index_ready and derived.index is not None for _, handle, _, derived in views):
            return {}  # a hook never waits for a first index build
        # No await from here to the decision: the views stay consistent.
        decision = command_recall.decide(words, {lvl: (graph, derived.index) for lvl, _, graph, derived in views},
                                         view.seen)
        if decision.reason == "no_command":
            return {}
        now = self.memory.clock()
        record = {"ts": now, "project": view.project_path, "claude_session": view.claude_sid, "kg_session": view.sid,
                  "reason": "command_recall", "outcome": decision.reason, "keys": list(decision.keys),
                  "nodes": [i for _, i in decision.shown] or list(decision.found)}
        if decision.text:
            record["chars"] = len(decision.text)
            await self._seen_once_sent(sm.MarkSeen(sid=view.sid, ids=[i for _, i in decision.shown], via="ambient",
                                                 at=now))
        self._log([record])
        return hook_output("PreToolUse", decision.text)

    # PostToolUse -----------------------------------------------------------------------
    async def tool_event(self, payload: dict) -> dict:
        call = await self.resolve(payload)
        view, harness, root = call.view, call.harness, call.root
        if view is None:
            return {}
        tool = payload.get("tool_name") if isinstance(payload.get("tool_name"), str) else ""
        tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
        # Relative paths are the agent's cwd's, which may be below the project root (a git work tree's).
        given = payload.get("cwd")
        cwd = given if isinstance(given, str) and os.path.isabs(given) else root
        paths = await self._files(tool, tool_input, cwd, harness, payload)
        parts: list[str] = []
        covered = False
        if paths:
            text, covered = await self._file_recall(view, tool, paths)
            if text:
                parts.append(text)
        if not parts and not covered:
            nudge = await self._nudge(view, harness, tool, tool_input, paths, payload)
            if nudge:
                parts.append(nudge)
        push = await self._push(call)
        if push:
            parts.append(push)
        return hook_output("PostToolUse", "\n\n".join(parts)) if parts else {}

    async def _files(self, tool: str, tool_input: dict, cwd: str | None, harness: profiles.Harness,
                     payload: dict) -> list[str]:
        """The existing files (real paths) a tool call read or edited; at most 8."""
        raw: list[str] = []
        command = None
        workdir = tool_input.get("workdir")
        workdir = workdir if isinstance(workdir, str) and os.path.isabs(workdir) else None
        patch = _patch_text(tool, tool_input)
        if tool in FILE_TOOLS and isinstance(tool_input.get(FILE_TOOLS[tool]), str):
            path = os.path.expanduser(tool_input[FILE_TOOLS[tool]])
            if not os.path.isabs(path) and cwd:
                path = os.path.join(cwd, path)
            raw.append(path)
        elif patch is not None:
            base = workdir or cwd
            for line in patch.splitlines():
                for marker in PATCH_MARKERS:
                    if line.startswith(marker):
                        path = line[len(marker):].strip()
                        raw.append(path if os.path.isabs(path) or not base else os.path.join(base, path))
        elif tool in SHELL_TOOLS:
            command = tool_input.get("command", tool_input.get("cmd"))
        else:
            return []
        transcript = payload.get("transcript_path")

        def work() -> list[str]:
            candidates = list(raw)
            if command is not None:
                shell_cwd = workdir or (cwd if harness.trusts_shell_cwd else None)
                relative = any(p.startswith(_UNKNOWN_CWD) for p in shell.read_files(command, _UNKNOWN_CWD))
                if shell_cwd is None and relative:
                    # A relative operand under a harness whose hook cwd is not where the command ran
                    # (Codex): place it only on the rollout's exact record of this call.
                    safe = transcripts.safe_transcript(transcript if isinstance(transcript, str) else None, L.home())
                    if safe is not None:
                        shell_cwd = rollout.shell_cwd(safe, payload.get("tool_use_id"), payload.get("session_id"),
                                                      payload.get("turn_id"))
                candidates = shell.read_files(command, shell_cwd)
            out = []
            for p in candidates[: shell.MAX_FILES]:
                if not os.path.isabs(p) or "\x00" in p or len(p) > 4096:
                    continue  # a relative path with no known directory names no file
                try:
                    real = os.path.realpath(p)
                    if os.path.isfile(real) and real not in out:
                        out.append(real)
                except (OSError, ValueError):
                    continue
            return out

        if command is not None and workdir is None and not harness.trusts_shell_cwd:
            return await trio.to_thread.run_sync(work)  # it may read the rollout file
        # A few stats of files the agent just used (their metadata is cached): a thread hop
        # would cost more, waiting for the GIL while the loop is busy.
        return work()

    async def _file_recall(self, view: SessionView, tool: str, paths: list[str]) -> tuple[str | None, bool]:
        now = self.memory.clock()
        found: dict[tuple[str, str], tuple[float, object]] = {}
        for lvl, _, graph, derived in reversed(await self._views(view)):  # project first, then user
            index = derived.touch_index
            scores = None
            for path in paths:
                for node_id in index.get(path):
                    node = graph.nodes.get(node_id)
                    if node is None or node.orphaned or not node.gist or (lvl, node_id) in found:
                        continue
                    if scores is None:
                        scores = derived.recent_scores(graph, now)
                    found[(lvl, node_id)] = (scores.get(node_id, 0.0), node)
        base = {"ts": now, "project": view.project_path, "claude_session": view.claude_sid,
                "kg_session": view.sid, "reason": "file_recall", "tool": tool, "files": paths}
        if not found:
            self._log([{**base, "outcome": "no_nodes"}])
            return None, False
        unseen = [(ref, score, node) for ref, (score, node) in found.items() if ref[1] not in view.seen]
        if not unseen:
            self._log([{**base, "outcome": "all_seen", "nodes": [r[1] for r in found]}])
            return None, True
        if not await self.sessions.file_recall_allowed(sid=view.sid, now=now):
            self._log([{**base, "outcome": "throttled", "nodes": [r[0][1] for r in unseen]}])
            return None, True
        unseen.sort(key=lambda t: (-t[1], -(t[2].last_read_ts or 0), t[0][1]))
        names = ", ".join(touches_display(p, view.project_path) for p in paths)
        header = f"KG memory on {names}:"
        lines, shown = [header], []
        for ref, _, node in unseen[: C.FILE_RECALL_MAX_NODES]:
            line = f"- [{ref[0]}] {node.id}: {node.gist}"
            if shown and sum(len(x) + 1 for x in lines) + len(line) > C.FILE_RECALL_CHAR_BUDGET:
                break
            lines.append(line[: C.FILE_RECALL_CHAR_BUDGET - len(header) - 1])
            shown.append(ref[1])
        text = "\n".join(lines)
        await self._seen_once_sent(sm.MarkSeen(sid=view.sid, ids=shown, via="file", at=now))
        await self.sessions.tell(sm.NoteFileRecall(sid=view.sid, now=now))
        self._log([{**base, "outcome": "injected", "nodes": shown, "chars": len(text),
                    "withheld": len(unseen) - len(shown)}])
        return text, True

    async def _nudge(self, view: SessionView, harness: profiles.Harness, tool: str, tool_input: dict,
                     paths: list[str], payload: dict) -> str | None:
        if view.project_path is None:
            return None
        target = capture.web_target(tool, tool_input)
        if target is None:
            counts_as_read = tool == "Read" or (tool in SHELL_TOOLS and harness.shell_reads_count)
            if not counts_as_read or not paths:
                return None
            path = paths[0]
            if capture.is_noise(path, str(L.home())) or not L.project_root_ok(path):
                return None
            target = ("read", capture.file_key(path, view.project_path))
        kind, needle = target
        key = f"{kind}:{needle}"
        now = self.memory.clock()
        events_path = str(self.layout.tool_events(self.directory.project_key(view.project_path)))
        harness_sid = payload.get("session_id") if isinstance(payload.get("session_id"), str) else "unknown"
        record = await self.sessions.tool_event(path=events_path, key=key, harness_sid=harness_sid, now=now)
        if not capture.repeated(kind, record) or now - record.get("nudged_ts", -1e18) < C.NUDGE_TARGET_COOLDOWN_SECONDS:
            return None
        probe = os.path.basename(needle) if kind == "read" else needle
        views = await self._views(view)
        for _, handle, graph, derived in views:
            if not handle.index_ready or derived.index is None:
                return None  # while the first index builds, stay silent rather than scan the graph
            if touches.mentions(graph, probe, derived.index):
                return None
        if not await self.sessions.claim_nudge(path=events_path, key=key, kg_sid=view.sid, now=now):
            return None
        return capture.nudge_text(kind, needle, record, view.sid, True)


def _patch_text(tool: str, tool_input: dict) -> str | None:
    """The patch of a Codex apply_patch call (given as `input`, `patch` or an argv list), else None."""
    for value in tool_input.values():
        if isinstance(value, list):
            value = next((v for v in value if isinstance(v, str) and "*** Begin Patch" in v), None)
        if isinstance(value, str) and "*** Begin Patch" in value:
            return value
    return None if tool != "apply_patch" else ""


def touches_display(path: str, root: str | None) -> str:
    return capture.file_key(path, root)


