"""bench/driver.py's paired measure: calls taken in turns (a, b, b, a, ...), each kind to its own count."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import driver  # noqa: E402


def test_turns_alternate_until_each_has_its_count_and_warmups_are_not_recorded() -> None:
    order: list[str] = []

    def calls(name: str, fail_at: int = -1):
        made = 0

        async def call() -> driver.Reply:
            nonlocal made
            made += 1
            order.append(name)
            return driver.Reply(made != fail_at, False, f"{name}{made}", 0.001 * made)
        return call

    got = asyncio.run(driver.measure_paired({"a": (calls("a"), 3), "b": (calls("b", fail_at=5), 5)}, warmup=1))
    assert order == ["a", "b", "a", "b", "b", "a", "a", "b", "b", "b"]  # warm-up a, b; then a b, b a, a b, b, b
    assert got["a"]["n"] == 3 and got["b"]["n"] == 5
    assert got["b"]["errors"] == 1 and got["b"]["first_error"] == "b5"
    assert got["a"]["p99"] == 0.004  # the warm-up's 1 ms is not among them
