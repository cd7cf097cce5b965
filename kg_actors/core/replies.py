"""How the MCP tools and the session notices word their replies: pure functions of what happened.

The use cases (conduct/) decide; these say it. Kept apart so that the text a
model reads has one home and is tested without a server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import constants as C
from . import ids, render
from .plain_text import clipped, note_item, one_line, within_reminder


def outside_home_note(cwd: str, real: str | None = None) -> str:
    # A path is as long as a file system allows; the note is read beside the preload, within one limit.
    resolved = f" (resolved: {_shown_path(real)})" if real and real != cwd.rstrip("/") else ""
    cwd = _shown_path(cwd) + resolved
    return (f"kg memory: {cwd} is outside your home, where project memory lives: this session holds the "
            "user graph only. Work on a project inside your home to keep its own lessons.")


def no_project_note(cwd: str, why: str) -> str:
    return f"kg memory: {_shown_path(cwd)} {why}: user memory only."


def in_store_note(cwd: str) -> str:
    return no_project_note(cwd, "is inside kg's store, whose graph files are no project")


def _shown_path(cwd: str) -> str:
    return one_line(cwd if len(cwd) <= 200 else f"{cwd[:100]}…{cwd[-99:]}")


def user_only_notice(sid: str) -> str:
    return (
        "User-only session: only the user graph is loaded, no project memory. If the work belongs to a "
        f"project folder, kg_read(session_id='{sid}', cwd='<project root>') attaches its memory to this session."
    )


def bound_note(root: str | None, folder: str | None, linked: bool = False) -> str | None:
    """Said when a session binds below a work tree's root, so the agent knows which folder's memory it holds.
    `linked`: the folder is in a linked worktree of the repository at `root` (it may lie inside it, as
    Claude Code's `<repo>/.claude/worktrees/<name>` does)."""
    if root is None or root == folder:
        return None
    if linked or (folder is not None and not folder.startswith(root.rstrip("/") + "/")):
        return f"Project folder: {root}, the git repository whose linked worktree holds cwd {folder}."
    return f"Project folder: {root}, the root of the git work tree holding cwd {folder}."


def conflict_text(reason: str, level: str, node: Mapping[str, Any] | None, deleting: bool = False) -> str:
    if node is None:  # the node the session saw is gone: nothing stands to show
        return f"NOT WRITTEN — {reason}."
    lines = [f"NOT {'DELETED' if deleting else 'WRITTEN'} — {reason}. The node as it stands ({level} graph):",
             f"▸ {one_line(node['id'])}", f"  gist: {one_line(node['gist'])}"]
    if node["notes"]:
        lines.append("  notes:")
        lines.extend(note_item(n) for n in node["notes"])
    if node["touches"]:
        lines.append(render.touches_line(node["touches"]))
    lines.append("Shown now: call kg_delete_node again if it should still go." if deleting
                 else "Merge your change into this content and call kg_put_node again.")
    return "\n".join(lines)


def votes_left_line(likes: int) -> str:
    """Spec 003: the reply says how many votes remain before the hard cap, and past the
    guidance, how far over it the session is (the guidance is not a limit)."""
    left = max(0, C.MAX_LIKES_PER_SESSION - likes)
    line = f"{left} vote(s) left before the hard cap of {C.MAX_LIKES_PER_SESSION} this session"
    over = likes - C.LIKES_GUIDANCE_PER_SESSION
    if over > 0:
        return f"{line}; {over} past the guidance of {C.LIKES_GUIDANCE_PER_SESSION} — fine if each one earned it."
    return f"{line} (guidance: about {C.LIKES_GUIDANCE_PER_SESSION})."


def node_saved(node_id: str, level: str, promoted: bool, warnings: Iterable[str], hints: Iterable[str],
               note_credit: bool) -> str:
    text = f"Node '{node_id}' saved to {level} graph"
    if promoted:
        text += " (back in the active view)"
    for warning in warnings:
        text += f" — {warning}"
    for hint in hints:
        text += f"\n{hint}"
    if note_credit:
        text += "\nA case added to a lesson counts as your endorsement of it."
    return text


def edge_saved(src: str, dst: str, rel: str, level: str, credited: str | None, warnings: Iterable[str] = ()) -> str:
    text = f"Edge {src}->{dst}:{rel} saved to {level} graph"
    if credited:
        text += f" — '{credited}' credited: a newer case repeats that lesson."
    for warning in warnings:
        text += f" — {warning}"
    return text


def node_deleted(node_id: str, level: str, removed: int) -> str:
    return f"Deleted node '{node_id}' and {removed} connected edges from {level} graph"


def edge_deleted(src: str, dst: str, rel: str, level: str | None) -> str:
    key = f"{src}->{dst}:{rel}"
    return f"Edge deleted: {key} ({level} graph)" if level else f"Edge not found: {key}"


def renamed(old_id: str, new_id: str, level: str, rewired: int, skipped: Sequence[Mapping[str, str]]) -> str:
    text = f"Renamed '{old_id}' -> '{new_id}' in {level} graph; {rewired} edge ref(s) rewired."
    for skip in skipped:
        done = "Partly rewired" if skip.get("rewired") == "partly" else "NOT rewired"
        text += f"\n{done} in {skip['graph']} ({skip['reason']}) — check that graph by hand."
    nudge = ids.id_nudge(new_id)  # a rename is where an id gets tightened: a new one too long or dated is said
    return f"{text}\n{nudge}" if nudge else text


def private_cut_note(fields: Sequence[str]) -> str:
    # Said because a lesson that names the tag (to teach it) loses the rest of its field without a word.
    return (f"note: text inside <private>...</private> was not stored ({', '.join(fields)}); an unclosed "
            "<private> hides the rest of its field. To write about the tag, name it without its angle brackets.")


def gone_mark_note(fields: Sequence[str]) -> str:
    # Said because the write keeps the old path: an agent that meant to follow the file writes the new one.
    return (f"note: the (gone) marks a read adds were cut from {', '.join(fields)}, which are stored as they "
            "were; to follow a file that moved, write its new path.")


def useful_reply(accepted: Sequence[str], refused: Sequence[tuple[str, str]], unorphaned: Sequence[str],
                 credits: int | None, likes: int, credits_spent: int, maintenance: bool) -> str:
    lines = []
    if accepted:
        if credits:
            lines.append(f"Credited ({credits} each): {', '.join(accepted)}")
        else:
            lines.append(f"Marked useful: {', '.join(accepted)}")
    for node_id in unorphaned:
        lines.append(f"'{node_id}' was orphaned; the credit returns it to the archive.")
    for node_id, why in refused:
        lines.append(f"Skipped {ids.shown(node_id) or repr(node_id)}: {why}")  # an empty id shows as ''
    if maintenance and credits:
        lines.append(f"{C.MAINTENANCE_CREDITS_PER_PASS - credits_spent} credit(s) left this pass.")
    else:
        lines.append(votes_left_line(likes))
    return "\n".join(lines)


def progress_reply(task_id: str, written: bool, stored: Mapping[str, Any] | None, warnings: Iterable[str] = ()) -> str:
    if written:
        return f"Progress saved for task '{task_id}'" + "".join(f" — {warning}" for warning in warnings)
    if stored is None:
        return f"No progress found for task '{task_id}'"
    return f"Progress for '{task_id}':\n{json.dumps(stored, indent=2, ensure_ascii=False)}"


def sync_section(level: str, nodes: Sequence[Any], edges: Sequence[Any]) -> str:
    """One level's changes by other sessions (nodes and edges as the graph holds them)."""
    lines = [f"{level.capitalize()}: {len(nodes)} node changes, {len(edges)} edge changes"]
    for node in sorted(nodes, key=lambda n: n.id):
        flag = " [archived]" if not node.active else ""
        lines.append(f"  node {one_line(node.id)}{flag}: {one_line(sync_gist(node.gist)[0])}")
    for edge in sorted(edges, key=lambda e: e.key):
        lines.append(one_line(f"  edge {edge.src} --{edge.rel}--> {edge.dst}"))
    return "\n".join(lines)


def sync_gist(gist: str) -> tuple[str, bool]:
    """A gist as kg_sync lists it, and whether it was cut (a cut one is not seen whole)."""
    return clipped(gist, C.SYNC_GIST_CLIP)


def sync_reply(sections: Sequence[str]) -> str:
    if not sections:
        return "No updates from other sessions"
    return "Updates from other sessions:\n\n" + "\n\n".join(sections)


def push_text(shown: Sequence[tuple[str, str, bool]], total: int) -> str:
    """Other sessions' writes pushed to this one: (id, gist, updated) for each shown, of `total` fresh."""
    lines = ["While you worked, other sessions wrote to this memory:"]
    for node_id, gist, updated in shown:
        lines.append(f"- {one_line(node_id)} ({'updated' if updated else 'new'}): {one_line(push_gist(gist)[0])}")
    if total > len(shown):
        lines.append(f"+{total - len(shown)} more — kg_sync(session_id) lists them.")
    lines.append("If one already holds a lesson you are about to write, update that node instead of adding another.")
    return "\n".join(lines)


def push_gist(gist: str) -> tuple[str, bool]:
    """A gist as a push notice shows it, and whether it was cut (a cut one is not seen whole)."""
    return clipped(gist, C.PUSH_GIST_CLIP)


def with_notice(text: str, notice: str | None) -> str:
    return f"{text}\n\n{notice}" if notice else text


def resumed_note(sid: str, parent: str | None, missing: tuple[str, ...] = ()) -> str:
    """`missing`: the levels whose graph was still loading at the conversation's preload (not in it)."""
    names = {"user": "the user memory", "project": "this project's memory"}
    lacking = " and ".join(names[lvl] for lvl in missing)
    return (f"KG memory session resumed — session_id: {sid} (pass it to every kg_* call"
            + (f"; it replaces {parent}, which stays with the session this one was forked from" if parent else "")
            + "). The memory preload earlier in this conversation remains in context; "
            + (f"{lacking} {'were' if len(missing) > 1 else 'was'} still loading and "
               f"{'are' if len(missing) > 1 else 'is'} not in it: call "
               f"kg_read(session_id='{sid}') now, which renders it; " if missing else "")
            + "kg_sync(session_id) fetches the changes other sessions made since.")


def loading_note(sid: str, loading: tuple[str, ...]) -> str:
    """Said first in a preload that could not wait for the first load of the session's graphs at `loading`
    (levels; seconds for a large graph)."""
    names = {"user": "the user memory", "project": "this project's memory"}
    which = " and ".join(names[lvl] for lvl in loading) + (" are" if len(loading) > 1 else " is")
    which = which[0].upper() + which[1:]
    return (f"kg memory: {which} still loading (the first load of a large graph since the server started), so this "
            f"preload holds none of it: call kg_read(session_id='{sid}') in a moment, which renders it.")


def preloaded_message(shown: int, user: int, project: int | None, sid: str, loading: tuple[str, ...] = ()) -> str:
    """`project` None: a user-only session, whose gists are all the user graph's; `loading`: the levels whose
    graph was still loading (not shown)."""
    if "user" in loading and "project" not in loading and project is not None:
        return (f"kg memory: preloaded {shown} gist(s) of this project's memory; the user memory is still loading, "
                f"call kg_read shortly — session {sid}")
    if "user" in loading:
        return f"kg memory: memory still loading, call kg_read shortly — session {sid}"
    if loading:
        return (f"kg memory: preloaded {shown} gist(s) of your user memory; the project's is still loading, call "
                f"kg_read shortly — session {sid}")
    if project is None:
        return f"kg memory: preloaded {shown} gist(s) of your user memory (no project here) — session {sid}"
    return f"kg memory: preloaded {shown} gist(s) (user {user}, project {project}) — session {sid}"


def file_recall_text(names: str, rows: Sequence[tuple[str, str, str]]) -> tuple[str, list[str], set[str]]:
    """`KG memory on <files>:` and as many (level, id, gist) lines as the budget holds; the ids shown, and
    those whose gist was cut short."""
    header = f"KG memory on {names}:"
    lines: list[str] = [header]
    shown: list[str] = []
    cut: set[str] = set()
    for level, node_id, gist in rows:
        line = f"- [{level}] {one_line(node_id)}: {one_line(gist)}"
        if shown and sum(len(x) + 1 for x in lines) + len(line) > C.FILE_RECALL_CHAR_BUDGET:
            break
        line, was_cut = clipped(line, C.FILE_RECALL_CHAR_BUDGET - len(header) - 1)
        lines.append(line)
        shown.append(node_id)
        if was_cut:
            cut.add(node_id)
    return "\n".join(lines), shown, cut


def nothing_to_print() -> dict[str, Any]:
    """A hook reply that prints nothing: not `{}`, which tells the prompt hook to print a line of its pool
    (spec 003). Were a hook ever to print it, Claude Code reads it as output to keep quiet."""
    return {"suppressOutput": True}


def hook_output(event: str, text: str | None, system_message: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": within_reminder(text)}
    if system_message:
        out["systemMessage"] = within_reminder(system_message)
    return out
