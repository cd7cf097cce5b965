"""What the session registry answers with: immutable views of a session, and what a message may change.

Handlers get copies (frozen), never the registry's own records.
"""

from __future__ import annotations

import enum
from collections.abc import Set as AbstractSet

import attrs

from .core.seen import Ref


class Touches(enum.Enum):
    """Which stored session records a message may change."""

    NONE = "none"  # reads, or state kept elsewhere (tool events, hooks seen): nothing to save
    OWN = "own"  # the session it names (`sid`) or answers with (a SessionView)
    ALL = "all"  # any of them
    MEMBERSHIP = "membership"  # which sessions exist, not what any kept one holds


@attrs.frozen
class SessionView:
    """An immutable copy of what handlers need to know about a session."""

    sid: str
    project_path: str | None
    scope: str | None
    harness: str
    maintenance: bool
    full_read_ts: float | None
    start_ts: float
    preloaded: frozenset[str]  # "level:id" keys (a bare id: stored before keys had levels; either level)
    seen: AbstractSet[Ref]  # what is in the session's context: (level, id)
    likes: int
    claude_sid: str | None
    preload_given: bool = False  # a preload reply was delivered: the agent was given this session's id
    preload_missing: tuple[str, ...] = ()  # levels still loading at that preload, so not in it

    @property
    def given(self) -> bool:
        """The agent was given this session: a preload delivered, or a full read."""
        return self.preload_given or self.full_read_ts is not None

    @property
    def bound(self) -> bool:
        return self.project_path is not None or self.scope == "user"


@attrs.frozen
class WriteView:
    """What write arbitration needs to know of a session and one node."""

    seen_at: float | None
    read_at: float | None
    may_credit: bool
    maintenance: bool
    renamed_to: str | None = None  # another session renamed the node this session saw under this id
    shown_cut: bool = False  # in the session's context with its gist cut short ("…"), never seen whole
    replaced_from: str | None = None  # its view was lost to a change from outside: "sync" | "restore"


@attrs.frozen
class VoteState:
    likes: int
    credits: int
    maintenance: bool
    seen_via: dict[Ref, str]  # how the session came to see each of the ids asked about, at each level


@attrs.frozen
class WriterInfo:
    """Who a session is, as far as deciding which of its writes are pushed to whom."""

    project_path: str | None
    maintenance: bool


@attrs.frozen
class PushWindow:
    """A claimed push: what was written after `since`, for session `sid` (who wrote it and what the
    session has seen of it are asked after, for the few nodes written: PushFacts)."""

    since: float
    project_path: str | None
    sid: str
    again: dict[str, float] = attrs.field(factory=dict)  # shown in a reply its client gave up on: id -> stamp


@attrs.frozen
class PushFacts:
    """What a push must know of the few nodes written since its window opened, asked for by id: never
    a table of every session or of everything a session has seen (both grow; a hook paid for both)."""

    seen_at: dict[Ref, float]  # of the nodes asked, those the session has viewed: when it last did
    writers: dict[str, WriterInfo]  # of the writer sessions asked, those still known
    # Of the nodes asked, those whose view the session lost to a change from outside (a sync, a restore):
    # seen before, so a change of one is pushed as an update, not as a new node.
    replaced: frozenset[Ref] = frozenset()
