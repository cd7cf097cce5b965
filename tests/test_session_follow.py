"""session_follow: the hooks move from a session the agent was never given to the one it opened itself."""

from __future__ import annotations

from kg_actors.session_follow import to_follow
from kg_actors.session_records import Session

P = "/home/u/proj"


def _s(sid: str, start: float, *, claude: str | None = None, read: float | None = None, given: bool = False,
       project: str | None = P) -> Session:
    return Session(sid, start, start, project_path=project, claude_sid=claude, full_read_ts=read, preload_given=given)


def test_the_one_unbound_session_of_the_project_read_in_full_since_is_followed():
    bound = _s("bound", 100.0, claude="claude-a")
    agents = _s("agents", 150.0, read=151.0)
    given_elsewhere = _s("given", 90.0, claude="claude-c", given=True)  # a conversation that got its id
    later = _s("later", 160.0, claude="claude-d")  # opened after the agent's: cannot be whose agent read
    assert to_follow(bound, [bound, agents, given_elsewhere, later]) is agents


def test_no_session_is_followed_when_another_conversation_could_own_it():
    """Two conversations' preloads both failed and one agent read: which one's is not known, so neither
    moves (the first to ask took it, and the other lost its memory)."""
    a = _s("a", 100.0, claude="claude-a")
    b = _s("b", 101.0, claude="claude-b")
    agents = _s("agents", 150.0, read=151.0)
    assert to_follow(a, [a, b, agents]) is None
    assert to_follow(b, [a, b, agents]) is None
    # Two sessions its agent might have opened: neither is surely this conversation's.
    bound = _s("bound", 100.0, claude="claude-a")
    assert to_follow(bound, [bound, agents, _s("newer", 160.0, read=161.0)]) is None


def test_no_session_is_followed_when_any_rule_fails():
    bound = _s("bound", 100.0, claude="claude-a")
    for other in (_s("older", 90.0, read=91.0),  # opened before
                  _s("held", 150.0, claude="claude-b", read=151.0),  # another conversation's
                  _s("elsewhere", 150.0, read=151.0, project="/home/u/other"),  # another project
                  _s("unread", 150.0)):  # not given to its agent either
        assert to_follow(bound, [bound, other]) is None, other.sid
    agents = _s("agents", 150.0, read=151.0)
    for given in (_s("b", 100.0, claude="claude-a", given=True), _s("b", 100.0, claude="claude-a", read=101.0)):
        assert to_follow(given, [given, agents]) is None  # the agent has the bound one
