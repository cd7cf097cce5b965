"""kg_actors: a shared, persistent knowledge-graph memory for coding agents.

Importing this package must stay cheap (no trio, no HTTP): the `kg` command and
its `mcp` shim start through it.
"""

__version__ = "0.1.0"
