"""A stored progress state holding a secret (core/held_progress.py, core/held_secrets.py): named, shown with a
marker, never taken in from another machine, and left out of the trail a write carries over."""

from __future__ import annotations

import json

from kg_actors.core.held_progress import state_shown, trail_kept
from kg_actors.core.held_secrets import held_in, keep_out

GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"
AKIA_HALF, SECOND_HALF = "AKIAZ7QRT4", "XKLM2PW9BN"


def _graph(progress: dict) -> dict:
    return {"nodes": {}, "edges": {}, "_meta": {"versions": {}, "progress": progress}}


def test_a_state_holding_a_secret_is_named_by_task_and_field_and_a_task_id_holding_one_masked():
    held = list(held_in(_graph({"rotate": {"done": ["old key revoked", f"new key {GHP}"]},
                                f"task-{GHP}": {"step": 1}, "plain": {"done": ["wrote the migration"]}})))
    said = [h.said() for h in held]
    assert said[0] == "progress 'rotate' state.done[1] (holds a GitHub token)", said
    assert said[1].startswith("progress task_id 'ghp_") and GHP not in said[1] and len(held) == 2, said
    assert "kg_progress" in held[0].fix() and "_meta.progress" in held[1].fix()


def test_an_agent_is_shown_a_marker_for_each_part_and_nothing_of_a_task_named_by_a_key():
    state = {"done": ["old key revoked", f"new key {GHP}"], "split": [f"first half {AKIA_HALF}", f"second half {SECOND_HALF}"],
             "_trail": [{"_ts": 1.0, "done": [f"new key {GHP}"]}]}
    shown = state_shown("rotate", state)
    text = json.dumps(shown)
    assert GHP not in text and AKIA_HALF not in text and SECOND_HALF not in text, text
    assert shown["done"][0] == "old key revoked" and shown["done"][1].startswith("[withheld: holds what looks like")
    assert shown["split"][0].startswith("[withheld: ") and shown["split"][1].startswith("[withheld: ")
    assert state_shown(f"task-{GHP}", {"step": 1}) is None
    assert state_shown("plain", {"done": ["wrote it"]}) == {"done": ["wrote it"]}


def test_another_machines_state_holding_a_secret_is_not_taken_in_and_ours_stands():
    ours = _graph({"rotate": {"step": 1, "done": ["old key revoked"]}})
    theirs = _graph({"rotate": {"step": 2, "done": [f"new key {GHP}"]}, f"t-{GHP}": {"step": 1},
                     "plain": {"step": 5}})
    out, held = keep_out(ours, ours, theirs)
    assert out is not None
    assert out["_meta"]["progress"] == {"rotate": {"step": 1, "done": ["old key revoked"]}, "plain": {"step": 5}}
    assert [h.key for h in held][0] == "rotate" and len(held) == 2


def test_a_write_carries_over_no_trail_entry_holding_a_secret():
    trail = [{"_ts": 1.0, "step": 1}, {"_ts": 2.0, "done": [f"new key {GHP}"]}, {"_ts": 3.0, "step": 3}]
    assert trail_kept(trail) == [trail[0], trail[2]]
