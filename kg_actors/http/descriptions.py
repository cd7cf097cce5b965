"""What the model reads about each tool: when to call it and the rules that bind it."""

INSTRUCTIONS = (
    "Shared, persistent memory for coding agents: a graph of short lessons (id + gist + notes + touches) "
    "at two levels, user (cross-project) and project. Read it once with kg_read(session_id) before "
    "substantive work; search before creating; write down what you had to re-derive. (Tools are named here "
    "as this server names them; a client may prefix them, as OpenCode lists kg_read as kg_kg_read.)"
)

# Spec 003: maintain writes are for maintenance runs only, and the tool descriptions say so.
MAINTAIN_RULE = (
    "level=maintain is the maintenance agent's own memory: write there only from a maintenance pass or chore."
)

TOOLS = {
    "kg_read": (
        "Read memory. Without id/ids: the full read of the user graph and this session's project graph "
        "(call once before substantive work; the first call opens the session: pass cwd=<project folder>, "
        "an existing directory; inside a git work tree the session binds to the work tree's root, a linked "
        "worktree's to its repository's). "
        "With id or ids=[...]: each node in full (gist, notes, touches, edges); reading an archived or "
        "orphaned node brings it back. more=true returns the next part of a long reply. level=maintain "
        "without id/ids renders the maintenance memory (for maintenance passes and chores)."
    ),
    "kg_search": (
        "Search node ids, gists, notes and touches in the user and project graphs, all tiers (archived and "
        "orphaned results are flagged; read them to bring them back). Several words rank better than one. "
        "Search before creating a node that may already exist."
    ),
    "kg_put_node": (
        "Create or update a node. id: the subject in 3-5 kebab-case words, no date. gist: the one claim. "
        "notes and touches REPLACE the stored lists: to add a note, read the node and send the full list. "
        "A write built on a stale or partial view, or on a node renamed or deleted since, is refused with "
        "NOT WRITTEN and the node as it stands; merge and write again. Secrets (keys, tokens, passwords) are "
        "refused: write where they live instead; text inside <private>...</private> is never stored. " + MAINTAIN_RULE
    ),
    "kg_put_edge": (
        "Create or update an edge between node ids or file paths. rel is a kebab-case verb (depends-on, "
        "implements, instance-of for a case under the lesson it repeats). A bare id should name a node (one in "
        "the same graph or, from a project graph, a user node): one that names none yet is kept, and removed at "
        "the next load unless that node is written by then; an endpoint with / or ~ is a file path. Cross-level edges (project node -> user node) belong in the "
        "project graph. " + MAINTAIN_RULE
    ),
    "kg_rename_node": (
        "Rename a node safely: edges in every graph, history, endorsements and state move with it. The only "
        "safe way to change an id (never put + delete). " + MAINTAIN_RULE
    ),
    "kg_delete_node": "Delete a node and its edges (user graph checked first, then the project graph).",
    "kg_delete_edge": "Delete one edge; from, to and rel must match exactly.",
    "kg_useful": (
        "Endorse nodes that earned their place: one that changed how the work went, or one that existed but "
        "was not surfaced when needed. About five per session, ten at most, one vote per node. credits=1-3 "
        "only in a maintenance pass."
    ),
    "kg_sync": "List node and edge changes other sessions made since your last sync.",
    "kg_progress": (
        "Read (omit state) or write multi-step task progress that survives compaction and new sessions. "
        "Tasks 'maintain' and 'chore' mark a maintenance session. " + MAINTAIN_RULE
    ),
}
