"""A progress state's items read together (core/secret_state.py), as a node's notes are."""

from __future__ import annotations

import time

import pytest

from kg_actors.core.secrecy import SecretRefused
from kg_actors.core.secret_state import refuse_state

AKID = "AKIA" + "Z7QRT4XKLM2PW9BN"
SECRET = "Qm7vT2xPz9LkWb4Ns8Rc" + "Yh3Jd6Fg1AeUoK5tHi0M"


@pytest.mark.parametrize("state, field", [
    ({"aws": ["key id AKIA…W9BN", SECRET]}, "state.aws[1]"),
    ({"deploy": {"id": "AKIA…W9BN", "secret": SECRET}}, "state.deploy.secret"),
    ({"split": ["AKIAZ7QRT4", "XKLM2PW9BN"]}, "state.split[0] joined to state.split[1]"),
    ({"a": "AKIAZ7QRT4", "b": "XKLM2PW9BN"}, "state.a joined to state.b"),
])
def test_a_key_made_by_a_states_items_together_is_refused_naming_them(state, field):
    with pytest.raises(SecretRefused) as refused:
        refuse_state("task", state)
    assert refused.value.field == field and SECRET not in str(refused.value) and AKID[4:] not in str(refused.value)


def test_ordinary_items_and_a_forty_character_id_with_no_key_id_beside_it_are_stored():
    refuse_state("task", {"steps": ["read the config", "run the tests"], "build": SECRET, "n": 3})
    refuse_state("task", {"example": ["AKIAIOSFODNN7EXAMPLE", "is AWS's documented id"], "step": "two"})


def test_a_state_of_as_many_short_items_as_fit_is_read_in_bounded_time():
    state = {"words": [f"word{i}" for i in range(6_500)]}  # ~65,000 characters: as large as a state may be
    start = time.process_time()  # a bound on the work done (CPU time), not a wait
    refuse_state("task", state)
    assert time.process_time() - start < 3.0


def test_a_stored_state_read_by_its_parts_names_what_the_whole_state_read_names():
    """A read takes the state apart (its trail entry by entry, each part's findings kept): the fields it names must
    be those the whole reading names, a write's and a read's cost being the only difference."""
    from kg_actors.core import held_progress as hp

    key = "ghp_R7dLq2Vx9NwBz4KcXiOoPl8Tm3Yh6Ds1FgAa"
    states = [
        {"a": "x", "_trail": [{"k": "ok"}, {"k": f"token {key}"}, {"env": ["GITHUB_TOKEN=", key[:20], key[20:]]}]},
        {"notes": [key[:18], key[18:]], "last_ts": 1.0, "_trail": [{"notes": ["plain", "words"]}, {"x": key}]},
        {"ok": "nothing here", "_trail": [{"ok": "nothing"}] * 3},
    ]
    for state in states:
        whole = {name for name, _ in hp._progress_fields("task", state)}
        parts = {name for name, _ in hp._fields_by_part("task", state)}
        assert parts == whole, (parts, whole)
        assert hp.state_shown("task", state) == hp.state_shown("task", state)  # the kept findings, the same again
    assert "[withheld" in str(hp.state_shown("task", states[0])["_trail"][1])
