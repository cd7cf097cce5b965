"""What `kg start` says when the server it started does not answer (cli_server.py)."""

from __future__ import annotations

from pathlib import Path

from kg_actors.cli_server import _why_not
from kg_actors.config import Config

CONFIG = Config(root=Path("/tmp/store"), port=18765)
INFO = "2026-01-02 10:00:00,123 INFO kg_actors.runtime: kg_actors 1.0 serving /tmp/store on 127.0.0.1:0"


class Exited:
    def __init__(self, code: int | None, pid: int = 4242):
        self.returncode, self.pid = code, pid

    def poll(self) -> int | None:
        return self.returncode


def test_a_routine_log_line_is_never_given_as_why_the_server_did_not_start():
    assert "KG PREFLIGHT: port busy" == _why_not([INFO, "KG PREFLIGHT: port busy", INFO], Exited(1), CONFIG)
    stamped = "2026-01-02 03:04:05.678Z ERROR kg_actors.cli: KG PREFLIGHT: port busy"  # as the log has it
    assert "KG PREFLIGHT: port busy" == _why_not([INFO, stamped, INFO], Exited(1), CONFIG)
    assert _why_not(["Traceback (most recent call last):", "ValueError: bad", INFO], Exited(1), CONFIG) \
        == "ValueError: bad"
    assert _why_not([INFO], Exited(1), CONFIG) == "it exited with code 1 without saying why"
    still = _why_not([INFO], Exited(None), CONFIG)
    assert still.startswith("it did not answer at http://127.0.0.1:18765 within 15 s and is still starting (pid 4242")
    assert "INFO" not in still
