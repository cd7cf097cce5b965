"""chores.json's quota gates only lower the defaults, through a real `kg serve` and a real `kg doctor`: a value
above is ignored (the default holds) and said once in the server's log, and by `kg doctor` as a warning."""

import json
import time

from test_chores_e2e import _server, _session

from e2e_helpers import kg  # noqa: E402 (test_chores_e2e put tests/e2e on the path)
from kg_actors.chores import gauge_files


def test_gates_set_above_their_defaults_do_not_let_a_chore_run_at_70_percent(tmp_path):
    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "max_5h": 95, "max_7d": 99}), "none")
    frame = {"rate_limits": {"five_hour": {"used_percentage": 70, "resets_at": time.time() + 3600},
                             "seven_day": {"used_percentage": 85, "resets_at": time.time() + 86400}}}
    gauge_files.record_claude(srv.store, frame, time.time())
    try:
        project, h = _session(srv)
        assert h.prompt("how do deploys reach production?").rc == 0
        log = srv.store / "chores.jsonl"
        deadline = time.monotonic() + 30
        while not (log.exists() and log.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        first = json.loads(log.read_text().splitlines()[0])
        assert first["event"] == "skip" and first["reason"] == "5h 70% (chores need < 55%)", first
        assert not rec.exists()  # no runner started
        said = "max_5h 95 is above its default 55; max_7d 99 is above its default 80: ignored, the default holds"
        srv.logs_written()
        assert srv.log.read_text().count(said) == 1, srv.log.read_text()[-2000:]
        doctor = kg(["doctor"], srv.env)
        assert f"WARN  chores: {srv.store / 'chores.json'}: {said}" in doctor.stdout, doctor.stdout
        assert "FAIL  chores" not in doctor.stdout
    finally:
        srv.kill()
