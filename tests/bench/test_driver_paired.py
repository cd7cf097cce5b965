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


def test_blocks_alternate_each_alone_after_an_unrecorded_call_until_each_has_its_count() -> None:
    order: list[str] = []

    def calls(name: str):
        made = 0

        async def call() -> driver.Reply:
            nonlocal made
            made += 1
            order.append(f"{name}{made}")
            return driver.Reply(True, False, "", 0.001 * made)
        return call

    got = asyncio.run(driver.measure_blocks({"a": (calls("a"), 4), "b": (calls("b"), 2)}, rounds=2, warmup=1))
    # warm-ups a1 b1; round 1: a's block (a2 unrecorded, a3 a4), b's (b2 unrecorded, b3); round 2 b first.
    assert order == ["a1", "b1", "a2", "a3", "a4", "b2", "b3", "b4", "b5", "a5", "a6", "a7"]
    assert got["a"]["n"] == 4 and got["b"]["n"] == 2
    assert got["a"]["p99"] == 0.007 and got["b"]["p99"] == 0.005  # a2 and b2, the blocks' first calls, not kept
