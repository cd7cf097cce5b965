"""A pass's credits (kg_useful credits=1-3, at most 15 a pass): counted per run when its sessions are a run's
(a pass may open several on its marked URL), per session otherwise; a node credited once a pass."""

from kg_actors import session_messages as m
from kg_actors.session_actor import Registry
from kg_actors.session_records import Session


def _registry(*sids: str) -> Registry:
    return Registry({sid: Session(sid, 0.0, 0.0, maintenance=True) for sid in sids})


def _credit(reg: Registry, sid: str, node_id: str, credits: int = 3) -> str | None:
    return reg.like(m.Like(sid, "project", node_id, credits))


def test_two_sessions_of_one_run_share_its_15_credits_and_credit_a_node_once():
    reg = _registry("s1", "s2")
    reg.join_run(m.JoinRun("s1", "run-a"))
    reg.join_run(m.JoinRun("s2", "run-a"))
    for i in range(5):
        assert _credit(reg, "s1", f"n{i}") is None
    assert _credit(reg, "s2", "n0") == "already credited this pass"
    assert _credit(reg, "s2", "n9") == "pass total reached — 15 credits per pass, 0 left"
    assert reg.vote_state(m.GetVoteState("s2", [])).credits == 15
    reg.unlike(m.Unlike("s1", "project", "n4", 3))  # its node turned out missing: the credits come back
    assert _credit(reg, "s2", "n9") is None


def test_sessions_of_no_run_or_of_another_run_have_their_own_pass():
    reg = _registry("s1", "s2", "s3")
    reg.join_run(m.JoinRun("s1", "run-a"))
    reg.join_run(m.JoinRun("s3", "run-b"))
    for sid in ("s1", "s2", "s3"):
        assert all(_credit(reg, sid, f"n{i}") is None for i in range(5)), sid


def test_what_a_session_credited_before_it_joined_its_run_counts_for_the_run():
    reg = _registry("s1", "s2")
    assert _credit(reg, "s1", "n0") is None
    reg.join_run(m.JoinRun("s1", "run-a"))
    reg.join_run(m.JoinRun("s2", "run-a"))
    assert _credit(reg, "s2", "n0") == "already credited this pass"
    assert reg.vote_state(m.GetVoteState("s2", [])).credits == 3
