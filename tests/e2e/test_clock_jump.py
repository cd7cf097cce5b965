"""A wall clock that jumps under a running `kg serve` (an NTP correction of a clock 400 days behind), as a user
meets it: no orphan is deleted on the jump's word, the live session goes on, the log has a WARNING, `kg status`
and `kg doctor` name the jump, and a restart still counts the orphans' grace from the jump.

The server's clock is moved by a sitecustomize on PYTHONPATH (there is no faketime here): it shifts time.time()
by the days in a file, read again on SIGUSR2, as the outside audit did."""

from __future__ import annotations

import json
import os
import signal
import time

from e2e_helpers import graph, kg, nodes_by_id, reference_graph, wait_until
from rpc_helpers import Conn, session_id

from kg_actors.core.constants import DAY_SECONDS
from kg_actors.testing import write_store

SHIM = '''
import os, signal, time
_path = os.environ.get("KG_TEST_SKEW_FILE")
if _path:
    def _days():
        try:
            return float(open(_path).read().strip()) * 86400.0
        except Exception:
            return 0.0
    _off = [_days()]
    _t, _tn = time.time, time.time_ns
    time.time = lambda: _t() + _off[0]
    time.time_ns = lambda: _tn() + int(_off[0] * 1e9)
    def _jump(*_):
        _off[0] = _days()
    try:
        signal.signal(signal.SIGUSR2, _jump)
    except ValueError:
        pass
'''


def _clock_file(srv) -> dict:
    try:
        return json.loads((srv.store / "clock.json").read_text())
    except (OSError, ValueError):
        return {}


def test_a_clock_corrected_by_400_days_deletes_no_orphan_and_drops_no_session(server_factory, tmp_path):
    shim, skew = tmp_path / "shim", tmp_path / "skew"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(SHIM)
    skew.write_text("-400")
    behind = time.time() - 400 * DAY_SECONDS  # the server's clock
    nodes = [{"id": "kept-lesson", "gist": "an active lesson stays"}]
    nodes += [{"id": f"clock-orphan-{k}", "gist": f"orphaned yesterday on a clock 400 days behind {k}",
               "notes": [f"a note worth keeping {k}"], "_archived": True, "_orphaned_ts": behind - DAY_SECONDS}
              for k in range(5)]
    srv = server_factory(start=False, extra_env={"KG_SAVE_INTERVAL": "0.2", "PYTHONPATH": str(shim),
                                                 "KG_TEST_SKEW_FILE": str(skew)})
    write_store(srv.store, reference_graph(nodes))
    srv.start("--no-editor")
    conn = Conn(srv.port)
    text, err = conn.tool("kg_read", cwd=srv.project("proj"))
    assert not err, text
    sid = session_id(text)
    wait_until(lambda: _clock_file(srv).get("last_tick"), what="a tick on the clock 400 days behind")
    assert _clock_file(srv)["last_tick"] < time.time() - 399 * DAY_SECONDS

    skew.write_text("0")  # NTP corrects the running server's clock
    os.kill(srv.proc.pid, signal.SIGUSR2)
    jump = wait_until(lambda: _clock_file(srv).get("jump"), what="the jump in clock.json")
    assert 399 * DAY_SECONDS < jump["by"] < 401 * DAY_SECONDS
    wait_until(lambda: _clock_file(srv).get("last_tick", 0) > jump["at"], what="a tick after the jump's")

    assert set(nodes_by_id(graph(srv)["user"])) == {"kept-lesson"} | {f"clock-orphan-{k}" for k in range(5)}
    log = srv.log.read_text()
    assert "for good" not in log, log
    warning = next(line for line in log.splitlines() if "WARNING" in line and "clock" in line)
    assert "the wall clock jumped 400.0 days ahead" in warning, warning
    text, err = conn.tool("kg_put_node", session_id=sid, level="project", id="after-clock-fix",
                          gist="written after the clock was corrected")
    assert not err and "unknown" not in text, text  # the session active a second before goes on
    health = srv.health()
    assert health["clock"]["held"] is True and health["clock"]["by_s"] == jump["by"], health
    status = kg(["status"], srv.env)
    assert status.returncode == 0 and "kg: warning: clock: the wall clock jumped 400.0 days ahead" in status.stdout, status
    doctor = kg(["doctor"], srv.env)
    assert "WARN  clock: the wall clock jumped 400.0 days ahead" in doctor.stdout, doctor.stdout

    # A restart on the right clock: the hold is over, and the orphans' grace still counts from the jump.
    conn.close()
    srv.kill()
    srv.start("--no-editor")
    wait_until(lambda: _clock_file(srv).get("last_tick", 0) > time.time() - 5, what="a tick of the restarted server")
    first = _clock_file(srv)["last_tick"]
    wait_until(lambda: _clock_file(srv).get("last_tick", 0) > first, what="a second tick of the restarted server")
    assert len(nodes_by_id(graph(srv)["user"])) == 6
    assert "for good" not in srv.log.read_text()
