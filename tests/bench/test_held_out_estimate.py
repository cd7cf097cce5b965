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
    assert recall_offline.reference_outcomes("recall_data") is None  # no committed run of kg-memory


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


@pytest.mark.parametrize("name,file", [("recall_memory5_d", "RESULTS-recall-reference-memory5-d.md"),
                                       ("recall_mixed10", "RESULTS-recall-reference-mixed10.md")])
def test_a_split_names_its_reference_run(name: str, file: str) -> None:
    assert (recall_offline.BENCH / file).exists()
    assert recall_offline.reference_outcomes(name) is not None
