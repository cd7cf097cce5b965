"""Domain errors, raised by the core and the actors, translated once per edge.

`http/` maps these to an MCP tool error text, a REST status (http/guard.py's
table) or a ws frame; nothing here knows about HTTP.
"""

from typing import Any


class KGError(Exception):
    """A request the memory refuses; the message is meant for the caller."""


class InvalidInput(KGError):
    """A field breaks a rule. Names the field and the rule."""

    def __init__(self, field: str, rule: str):
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


class NotAProjectFolder(InvalidInput):
    """A well-formed folder path that cannot be a project (outside home, missing, a file): refused when it would
    open or attach a project, ignored (with `why` said) by a session bound to one already."""

    def __init__(self, field: str, cwd: str, why: str):
        self.why = why
        super().__init__(field, f"'{cwd}' {why}")


class NotFound(KGError):
    """No node, edge, graph or task by that name; `field`, when a field of the request named it."""

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        super().__init__(message)


class SessionUnknown(KGError):
    """A session_id the registry does not know (expired, or from another store)."""


class WriteConflict(KGError):
    """An optimistic write was refused (stale or partial view, or a node gone since it was seen)."""

    def __init__(self, level: str, node_id: str, node: dict[str, Any] | None, reason: str,
                 written_ts: float | None = None, gone: str | None = None):
        self.written_ts = written_ts  # when the node as shown was last written: the refusal's view time
        self.level = level
        self.node_id = node_id  # the node shown (a renamed one: its new id)
        self.node = node  # None: no node to show (deleted)
        self.reason = reason
        # The id the write named, when the node the session saw under it is gone (renamed or deleted):
        # the refusal tells the session so, and its view of that id is settled.
        self.gone = gone
        super().__init__(f"NOT WRITTEN: {reason}")


class Conflict(KGError):
    """A change that would break an invariant (id taken, rename capture); `field`, when a field's value is what
    clashes."""

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        super().__init__(message)


class ActorStopped(KGError):
    """The actor a request was sent to has stopped (the server is shutting down)."""


class StorageRefused(KGError):
    """The store could not make a change durable (disk full, read-only, I/O error), or the graph's
    file is unreadable: the change was not kept, and nothing stored was touched."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"NOT WRITTEN: {reason}")
