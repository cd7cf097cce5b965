"""Reciprocal Rank Fusion's weights, 1/(k + rank): one table, grown once, shared by every scorer.

Every scorer of the search core must add the very same floats, or two ways of
scoring one query (the full walk, the bounded one, the near-duplicate probe)
would rank ties differently.
"""

from __future__ import annotations

from .constants import SEARCH_RRF_K

_TABLE: list[float] = []


def weights(n: int) -> list[float]:
    """1/(k + rank) for ranks 0..n-1 at least (the shared table: read it, never change it)."""
    while len(_TABLE) < n:
        _TABLE.append(1.0 / (SEARCH_RRF_K + len(_TABLE)))
    return _TABLE
