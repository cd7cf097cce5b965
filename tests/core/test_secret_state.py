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


STRIPE_HEAD, STRIPE_TAIL = "sk_live_4eC39Hq" + "LyjW", "DarjtT1z" + "dp7dc"
GH_HEAD, GH_TAIL = "ghp_R7dLq2Vx" + "9NwBz4Kc", "XiOoPl8Tm3" + "Yh6Ds1FgAa"


@pytest.mark.parametrize("state, field", [
    ({STRIPE_HEAD: 1, STRIPE_TAIL: 2}, "state.<key 1> joined to state.<key 2>"),
    ({STRIPE_HEAD: STRIPE_TAIL}, "state.<key 1>"),
    ({"items": [{GH_HEAD: 1}, {GH_TAIL: 1}]}, "state.items[0].<key 1> joined to state.items[1].<key 1>"),
    ({"step": 2, "env": {"a": 1, STRIPE_HEAD: True, STRIPE_TAIL: None}}, "state.env.<key 2> joined to state.env.<key 3>"),
])
def test_a_key_split_across_keys_or_a_key_and_its_value_is_refused_naming_places(state, field):
    # Only a list's or an object's string values were read joined; its keys never were.
    with pytest.raises(SecretRefused) as refused:
        refuse_state("task", state)
    said = str(refused.value)
    assert refused.value.field == field, said
    assert STRIPE_HEAD not in said and STRIPE_TAIL not in said and GH_HEAD not in said and GH_TAIL not in said


def test_a_key_split_across_keys_is_withheld_whole_when_stored():
    from kg_actors.core.held_progress import state_shown
    shown = state_shown("task", {"step": 1, STRIPE_HEAD: STRIPE_TAIL, "items": [{GH_HEAD: 1}, {GH_TAIL: 1}]})
    text = repr(shown)
    assert shown["step"] == 1 and "[withheld: holds what looks like a Stripe key" in shown["<key 2>"], text
    assert all(STRIPE_HEAD not in text and p not in text for p in (STRIPE_TAIL, GH_HEAD, GH_TAIL)), text


def test_ordinary_keys_and_their_values_read_together_are_stored():
    refuse_state("task", {"token_rotation_done": True, "password_min_length": 12, "steps": {"api-key-audit": None},
                          "passwords checked": 40, "status": "token", "api_key": "rotated", "next": "password reset",
                          "runs": [{"build": "green"}, {"deploy": "staging"}], "sk_live_prefix": "means live mode"})
