"""PMap built from a dict (the fast path a start's first snapshot takes) is the map the general path
builds from the same pairs: the same chunks, buckets and orders, so later versions evolve the same."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core.pmap import CHUNK, FAN, BUCKET_LOAD, PMap


def layout(m: PMap) -> tuple:
    return (m._pages, m._nchunks, [[list(b.items()) for b in page] for page in m._where], m._mask, m._len)


keys = st.one_of(st.text(max_size=6), st.integers(), st.tuples(st.text(max_size=3), st.integers()))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(keys, st.integers(), max_size=300))
def test_from_a_dict_is_the_general_build(d):
    fast, general = PMap(d), PMap(list(d.items()))
    assert layout(fast) == layout(general)
    assert list(fast.items()) == list(d.items())


def test_large_maps_match_across_bucket_doublings():
    for n in (0, 1, CHUNK, CHUNK + 1, FAN * BUCKET_LOAD, FAN * BUCKET_LOAD + 1, 5_000):
        d = {f"node-{i}": i for i in range(n)}
        fast, general = PMap(d), PMap(iter(d.items()))
        assert layout(fast) == layout(general), n
        assert layout(fast.evolve({"new": 1}, ["node-0"])) == layout(general.evolve({"new": 1}, ["node-0"]))


def test_a_map_rebuilt_under_churn_holds_its_items_in_order():
    """evolve's rare rebuilds (its buckets doubling, or deletions leaving chunks near empty) take the fast
    path: the map holds what a dict given the same changes holds, in the same order, through every one."""
    m, model, rebuilds = PMap(), {}, 0
    for i in range(12_000):
        adds = {f"k{i}": i}
        drops = [f"k{i - 50}"] if i >= 50 and i % 4 else []
        before = m._nchunks
        m = m.evolve(adds, drops)
        rebuilds += m._nchunks < before
        for key in drops:
            del model[key]
        model.update(adds)
        if i % 997 == 0:
            assert list(m.items()) == list(model.items())
    assert list(m.items()) == list(model.items()) and len(m) == len(model)
    assert rebuilds  # deletions did leave chunks near empty, and the map was rebuilt
