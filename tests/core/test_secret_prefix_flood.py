"""A write made of a provider's prefix repeated (`hf_hf_hf…`, 20 KB) is checked in a few hundredths of a second:
each prefix read the 256 characters after it, word by word back from their end (60 µs a character, a second a
write). Process time: a loaded machine stretches the wall clock alone."""

from __future__ import annotations

import time

import pytest

from kg_actors.core import secrecy
from kg_actors.core.secret_shapes import GATES

LENGTH = 20_000
SLOW_BEFORE = ("hf_", "r8_", "sl.")  # the audit's: 0.5 to 1.3 s a write
BOUND_S = 0.1
ANY_GATE_BOUND_S = 0.25


def _write(text: str) -> float:
    """Process time of the write's check of `text` as a gist (the least of three: one slow run is the machine's)."""
    took = []
    for _ in range(3):
        start = time.process_time()
        try:
            secrecy.clean_node(text, None, None)
        except secrecy.SecretRefused:
            pass
        took.append(time.process_time() - start)
    return min(took)


@pytest.mark.parametrize("prefix", SLOW_BEFORE)
def test_a_write_of_a_short_prefix_repeated_is_checked_well_under_a_tenth_of_a_second(prefix):
    took = _write(prefix * (LENGTH // len(prefix)))
    assert took < BOUND_S, f"{prefix!r} * {LENGTH // len(prefix)}: {took:.3f}s"


def test_a_write_of_any_provider_prefix_repeated_is_checked_in_linear_time():
    gates = sorted({g for gates in GATES.values() for g in gates})
    slow = [(g, round(took, 3)) for g in gates if (took := _write(g * (LENGTH // len(g)))) > ANY_GATE_BOUND_S]
    assert not slow, slow
