"""Prompt recall's quality through the real endpoints, on the fifteen memories written blind (issue #12).

bench/recall_eval.py's run, as RESULTS-recall.md reports it: a `kg serve` per memory, the memory written through
MCP, every prompt of its four splits asked in a fresh session after the full read. The floors sit a few prompts
under today's figures on each memory (the gate model reading likeness in meaning, 2026-12-06: hits 0.81-0.96,
precision 0.69-0.81, silent on unrelated prompts 0.92-0.99, on noise 0.98-1.00; the goals are higher), so a change
that loses lessons recall finds, or makes it speak where it should not, fails here before a benchmark run would
show it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import recall_eval  # noqa: E402

FLOORS = {"hits": 0.77, "precision": 0.64, "silent_unrelated": 0.87, "silent_noise": 0.97}


def asked(memory: int, base: Path) -> list[dict]:
    """Every prompt of the memory's four splits, on one server with the memory written once: the splits share
    the memory, writing it and starting servers were most of the run, and each prompt is asked in a fresh session
    all the same. (What earlier prompts leave behind, their use of a lesson, moves a figure by a prompt or two,
    as much as two runs of separate servers differ.)"""
    ev = recall_eval.Eval(base, f"recall_memory{memory}_a")
    rows: list[dict] = []
    try:
        ev.write_memory()
        for split in "abcd":
            ev.data = importlib.import_module(f"recall_memory{memory}_{split}").build()
            rows += ev.run_prompts()
    finally:
        ev.srv.stop()
    return rows


def figures(rows: list[dict]) -> dict[str, float]:
    relevant = [r for r in rows if r["kind"] == "relevant" and r["needed"]]
    injected = [x for r in rows for x in r["injected"]]
    wanted = sum(len(set(r["injected"]) & set(r["labels"])) for r in rows)
    unrelated = [r for r in rows if r["kind"] == "unrelated"]
    noise = [r for r in rows if r["kind"] == "noise"]
    return {"hits": sum(r["hit"] for r in relevant) / len(relevant),
            "precision": wanted / len(injected),
            "silent_unrelated": sum(not r["chars"] for r in unrelated) / len(unrelated),
            "silent_noise": sum(not r["chars"] for r in noise) / len(noise)}


@pytest.mark.parametrize("memory", range(2, 17))
def test_recall_on_a_memory_written_blind_stays_above_its_floor(memory: int, tmp_path: Path) -> None:
    rows = asked(memory, tmp_path)
    assert sum(r["kind"] == "relevant" for r in rows) == 4 * 36 and len(rows) == 4 * 92
    got = figures(rows)
    below = {name: round(value, 3) for name, value in got.items() if value < FLOORS[name]}
    assert not below, f"recall_memory{memory}: {below} under {FLOORS} (all: {got})"
