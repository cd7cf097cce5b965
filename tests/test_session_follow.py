"""session_follow: the hooks move from a session the agent was never given to the one it opened itself."""

from __future__ import annotations

from kg_actors.session_follow import to_follow
from kg_actors.session_records import Session

P = "/home/u/proj"


def _s(sid: str, start: float, *, claude: str | None = None, read: float | None = None, given: bool = False,
       project: str | None = P) -> Session:
    return Session(sid, start, start, project_path=project, claude_sid=claude, full_read_ts=read, preload_given=given)


def test_the_newest_unbound_session_of_the_project_read_in_full_since_is_followed():
    bound = _s("bound", 100.0, claude="claude-a")
    agents = _s("agents", 150.0, read=151.0)
    newer = _s("newer", 160.0, read=161.0)
    assert to_follow(bound, [bound, agents, newer]) is newer


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
