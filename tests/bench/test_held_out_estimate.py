"""bench/recall_offline.py --held-out: kg-memory's misses read from its committed runs, and the weighting."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import recall_offline  # noqa: E402


def test_the_reference_run_names_what_it_missed_and_where_it_spoke_unasked() -> None:
    failed = recall_offline.reference_outcomes("recall_memory4_a")
    assert failed is not None
    # From its "Misses (1) and noisy answers (46)" list: the one miss, and an unrelated prompt it answered.
    assert "Android 2024.22 has sat at 1% in Play since yesterday. How do I move it to the n" in failed
    assert "Explain when Postgres picks a bitmap heap scan over a plain index scan." in failed
    assert len(failed) == 1 + 37  # its 46 noisy answers hold 9 noise pastes, which are not unrelated prompts
    assert recall_offline.reference_outcomes("recall_long") is None  # no committed run of kg-memory
    # The first split's run is written down without a suffix: its 31 misses and 7 unrelated prompts answered.
    assert len(recall_offline.reference_outcomes("recall_data") or ()) == 31 + 7


def test_our_rates_are_weighted_as_kg_memory_fares_on_the_held_out_set() -> None:
    rows = [{"kind": "relevant", "needed": ["a"], "hit": True, "text": "found by both"},
            {"kind": "relevant", "needed": ["b"], "hit": False, "text": "found by kg-memory alone"},
            {"kind": "relevant", "needed": ["c"], "hit": True, "text": "found by us alone"},
            {"kind": "relevant", "needed": [], "hit": False, "text": "its lesson was in context"},
            {"kind": "unrelated", "chars": 0, "text": "silent both"},
            {"kind": "unrelated", "chars": 120, "text": "we spoke, kg-memory spoke"}]
    hits, silence = recall_offline.held_out_estimate(rows, {"found by us alone", "we spoke, kg-memory spoke"})
    assert "0.500 (n=2) / 1.000 (n=1)" in hits
    assert hits.endswith(f"{0.89 * 0.5 + (1 - 0.89) * 1.0:.2f}")
    assert "1.000 (n=1) / 0.000 (n=1)" in silence
    assert silence.endswith(f"{0.68:.2f}")


def test_kg_memorys_rates_are_pooled_from_its_runs_first_tables() -> None:
    # recall_data: hits 95/126, silent 53/60; recall_heldout: 21/32, 28/30 (the two files' first tables).
    rates = recall_offline.reference_rates(["recall_data", "recall_heldout"])
    assert rates == {"hits": (95 + 21) / (126 + 32), "silent": (53 + 28) / (60 + 30)}


def _rows(hits: int, relevant: int, silent: int, unrelated: int) -> list[dict]:
    return ([{"kind": "relevant", "needed": ["x"], "hit": i < hits} for i in range(relevant)]
            + [{"kind": "relevant", "needed": [], "hit": False}]  # its lesson was in context: not counted
            + [{"kind": "unrelated", "chars": 0 if i < silent else 90} for i in range(unrelated)])


def test_the_families_are_blended_as_kg_memorys_rates_place_the_held_out_set_between_them() -> None:
    # kg-memory: hits 0.7 / 0.95 and silence 0.9 / 0.1 on the two families; held out 0.89 and 0.68.
    hits, silence = recall_offline.family_estimate(_rows(6, 10, 10, 10), _rows(8, 10, 5, 10),
                                                   {"hits": 0.7, "silent": 0.9}, {"hits": 0.95, "silent": 0.1})
    w_hits, w_silent = (0.95 - 0.89) / (0.95 - 0.7), (0.68 - 0.1) / (0.9 - 0.1)
    assert f"weight {w_hits:.2f}" in hits and hits.endswith(f"{w_hits * 0.6 + (1 - w_hits) * 0.8:.2f}")
    assert f"weight {w_silent:.2f}" in silence and silence.endswith(f"{w_silent * 1.0 + (1 - w_silent) * 0.5:.2f}")


def test_a_blend_outside_the_families_is_held_to_the_nearer_one() -> None:
    # kg-memory found more on both families than on the held-out set: the estimate is the harder family's.
    hits, _ = recall_offline.family_estimate(_rows(6, 10, 10, 10), _rows(8, 10, 5, 10),
                                             {"hits": 0.93, "silent": 0.9}, {"hits": 0.97, "silent": 0.1})
    assert "weight 1.00" in hits and hits.endswith("0.60")


@pytest.mark.parametrize("name,file", [("recall_memory5_d", "RESULTS-recall-reference-memory5-d.md"),
                                       ("recall_mixed10", "RESULTS-recall-reference-mixed10.md")])
def test_a_split_names_its_reference_run(name: str, file: str) -> None:
    assert (recall_offline.BENCH / file).exists()
    assert recall_offline.reference_outcomes(name) is not None
