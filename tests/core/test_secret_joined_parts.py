"""A key split across two notes with an innocent note between (core/joined_parts.py): the write's refusal and
the load's scan name the notes holding its parts, not the remark its first part glues into."""

from __future__ import annotations

import pytest

from kg_actors.core.held_secrets import in_node
from kg_actors.core.records import Node
from kg_actors.core.secrecy import SecretRefused, clean_node
from kg_actors.core.withheld import node_shown

GH = ("ghp_R7dLq2Vx" + "9NwBz4Kc", "XiOoPl8Tm3" + "Yh6Ds1FgAa")
STRIPE = ("sk_live_4eC39" + "HqLy", "jWDarjtT1" + "zdp7dc")
CASES = [
    (["first half " + GH[0], "then an unrelated remark here", "second half " + GH[1]], "a GitHub token"),
    (["first half " + GH[0], "deploy pipeline release notes", "second half " + GH[1]], "a GitHub token"),
    (["live key " + STRIPE[0], "deploy pipeline release notes", "rest of it " + STRIPE[1]], "a Stripe key"),
]


@pytest.mark.parametrize(("notes", "kind"), CASES)
def test_the_write_names_the_notes_holding_the_keys_parts(notes, kind):
    # The key's first part glued to the remark's words read as a longer key: notes[0] joined to notes[1].
    with pytest.raises(SecretRefused) as refused:
        clean_node("A lesson.", notes, None)
    assert refused.value.field == "notes[0] joined to notes[2]" and kind in str(refused.value), str(refused.value)
    held = in_node("n", {"gist": "A lesson.", "notes": notes})
    assert held is not None and held.field == "notes[0] joined to notes[2]", held


@pytest.mark.parametrize(("notes", "kind"), CASES)
def test_the_scan_withholds_the_keys_parts_and_shows_the_remark(notes, kind):
    shown = node_shown(Node(id="n", gist="A lesson.", notes=tuple(notes)))
    assert shown is not None, notes
    marks = shown["notes"]
    assert marks[1] == notes[1], marks
    assert kind in marks[0] and kind in marks[2] and GH[1] not in repr(marks) and STRIPE[1] not in repr(marks)


def test_a_key_whose_parts_are_next_to_each_other_still_names_them():
    notes = ["first half " + GH[0], GH[1], "then an unrelated remark here"]
    with pytest.raises(SecretRefused) as refused:
        clean_node("A lesson.", notes, None)
    assert refused.value.field == "notes[0] joined to notes[1]", str(refused.value)
    shown = node_shown(Node(id="n", gist="A lesson.", notes=tuple(notes)))
    assert shown is not None and shown["notes"][2] == notes[2], shown
