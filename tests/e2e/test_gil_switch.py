"""The server's start sets the interpreter's switch interval (hook_priority.loop_takes_the_lock_sooner)."""

from __future__ import annotations

import sys

import pytest
from inprocess import serve_inprocess


async def test_the_server_gives_worker_threads_a_1_ms_switch_interval(tmp_path):
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # Python's default
        async with serve_inprocess(tmp_path / "store"):
            assert sys.getswitchinterval() == pytest.approx(0.001)
    finally:
        sys.setswitchinterval(before)
