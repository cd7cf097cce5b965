"""withheld_kept.unheld_refusal: a write keeping a withheld field while dropping what made it one is refused."""

from __future__ import annotations

import attrs

from kg_actors.core.records import Node
from kg_actors.core.withheld import Mask
from kg_actors.core.withheld_kept import unheld_refusal

KEY_ID = "AKIA" + "EH252R37RNCLSCK4"
SECRET = "xpm+NFZbYutVa4DX" + "fTu3a4SEdravE4jYdH/ryc2M"


def _node(gist: str, notes: tuple[str, ...]) -> Node:
    return Node(id="n", gist=gist, notes=notes, touches=(), created_ts=1.0)


def test_a_kept_secret_key_whose_key_id_goes_is_refused_and_one_still_beside_it_is_not():
    old = _node(f"uses access key {KEY_ID}", (SECRET,))
    shown = Mask().node(old)
    refused = unheld_refusal(old, shown, attrs.evolve(old, gist="uses the backup IAM user"))
    assert refused is not None and refused.field == "notes[0]" and "AWS secret access key" in str(refused)
    assert SECRET not in str(refused)
    assert unheld_refusal(old, shown, attrs.evolve(old, gist=f"backup job, access key {KEY_ID}")) is None
    assert unheld_refusal(old, shown, attrs.evolve(old, gist="uses the IAM user", notes=("in the vault",))) is None


def test_a_node_holding_nothing_is_never_refused():
    old = _node("an ordinary lesson", ("a note",))
    assert unheld_refusal(old, Mask().node(old), attrs.evolve(old, gist="changed")) is None
