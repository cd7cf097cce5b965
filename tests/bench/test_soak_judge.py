"""The soak's p99 rule (bench/soak.py `judge`): minutes the hypervisor took the CPU are shown, not judged."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import soak  # noqa: E402


def minutes(*rows: tuple[float, float | None]) -> list[dict]:
    return [{"minute": k + 1, "p99_ms": p99, "steal_s": steal} for k, (p99, steal) in enumerate(rows)]


def test_a_minute_with_cpu_stolen_is_listed_and_left_out_of_the_ratio() -> None:
    j = soak.judge(minutes((400, 0.1), (560, 0.5), (800, 8.0), (420, 0.2)), cpus=2)
    assert j["steal_limit_s"] == 2.4
    assert j["minutes_host_short"] == [{"minute": 3, "steal_s": 8.0, "p99_ms": 800}]
    assert j["worst_p99_over_minute_one_steady"] == 1.4
    assert j["worst_p99_over_minute_one_every"] == 2.0
    assert j["judged"] and j["p99_holds"]


def test_a_slow_minute_on_a_full_speed_machine_fails() -> None:
    j = soak.judge(minutes((400, 0.1), (620, 1.0), (420, 0.2)), cpus=2)
    assert j["minutes_host_short"] == [] and j["judged"] and not j["p99_holds"]


def test_a_run_is_not_judged_when_minute_one_or_a_third_of_the_minutes_lost_cpu() -> None:
    assert not soak.judge(minutes((300, 5.0), (400, 0.1), (410, 0.1)), cpus=2)["judged"]
    lossy = soak.judge(minutes((400, 0.1), (800, 5.0), (800, 5.0), (420, 0.1)), cpus=2)
    assert not lossy["judged"] and not lossy["p99_holds"]


def test_runs_saved_before_steal_was_read_are_judged_on_every_minute() -> None:
    j = soak.judge(minutes((400, None), (700, None)), cpus=2)
    assert j["judged"] and not j["p99_holds"] and j["worst_p99_over_minute_one_every"] == 1.75
