"""The collector's settings for a server whose graphs live as long as it does."""

import gc

from kg_actors import heap


def test_full_collections_are_made_rarer_and_young_ones_kept():
    before = gc.get_threshold()
    try:
        # Python's default third threshold: an in-process server started earlier in this worker tuned it already.
        gc.set_threshold(before[0], before[1], 10)
        heap.tune()
        young, middle, full = gc.get_threshold()
        assert (young, middle) == before[:2]
        assert full == heap.FULL_COLLECTION_EVERY > 10
    finally:
        gc.set_threshold(*before)


def test_what_is_loaded_is_left_out_of_the_scans():
    before = gc.get_freeze_count()
    loaded = [{"node": [i]} for i in range(1000)]  # tracked by the collector (a dict of ints alone is not)
    try:
        heap.freeze_loaded()
        assert gc.get_freeze_count() >= before + len(loaded)
    finally:
        gc.unfreeze()


def test_one_malloc_arena_is_asked_of_glibc():
    import platform

    took = heap.one_malloc_arena()
    assert took is (platform.libc_ver()[0] == "glibc")


def test_the_collector_paused_for_a_start_resumes_with_what_is_alive_frozen():
    assert gc.isenabled()
    heap.resume_collector()  # not paused: nothing to do
    assert gc.isenabled()
    try:
        heap.pause_collector()
        assert not gc.isenabled()
        heap.pause_collector()  # a second pause changes nothing
        kept = [[i] for i in range(1000)]  # lists: always tracked (a dict of atoms is untracked at once)
        frozen_before = gc.get_freeze_count()
        heap.resume_collector()
        assert gc.isenabled() and gc.get_freeze_count() >= frozen_before + 1000  # the start's objects
        heap.resume_collector()
        assert gc.isenabled()
        del kept
    finally:
        gc.enable()
        gc.unfreeze()
