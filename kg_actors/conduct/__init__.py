"""The use cases: operations that span actors, conducted through their typed handles.

One module per use case: `session` (open or resume a session), `write`
(nodes, edges, deletes, progress), `rename`, `useful` (votes and credits),
`read` (full, node and maintain reads, paging), `search`, `sync` (kg_sync
and pushes of other sessions' writes), `hook_session`, `hook_recall` and
`hook_tool` (the hook endpoints), `graphs` (the editor's graph listing).
MCP tools, REST routes and the editor all call these; each takes the
`Floor` (floor.py): the handles plus the floor's few caches, each in its
named owner. Reply wording lives in core/replies.py.
"""
