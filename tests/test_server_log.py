"""server.log rotated past its size to one server.log.prev, and `kg logs`' last lines read across the two
(kg_actors/server_log.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from kg_actors import server_log


def test_a_log_past_its_size_is_rotated_once_and_the_one_before_let_go(tmp_path):
    path = tmp_path / "server.log"
    assert not server_log.rotate_if_past(path, 10)  # none yet
    path.write_text("run 1\n" * 3)
    assert not server_log.rotate_if_past(path, 100) and path.read_text() == "run 1\n" * 3
    assert server_log.rotate_if_past(path, 10)
    assert not path.exists() and (tmp_path / "server.log.prev").read_text() == "run 1\n" * 3
    path.write_text("run 2\n" * 3)
    assert server_log.rotate_if_past(path, 10)
    assert (tmp_path / "server.log.prev").read_text() == "run 2\n" * 3  # one .prev, the latest


def test_the_last_lines_come_from_the_log_and_from_its_prev_when_it_holds_fewer(tmp_path):
    path = tmp_path / "server.log"
    assert server_log.last_lines(path, 5) is None
    (tmp_path / "server.log.prev").write_text("".join(f"old {i}\n" for i in range(100_000)))
    assert server_log.last_lines(path, 3) == ["old 99997", "old 99998", "old 99999"]
    path.write_text("new 0\nnew 1\n")
    assert server_log.last_lines(path, 4) == ["old 99998", "old 99999", "new 0", "new 1"]
    assert server_log.last_lines(path, 2) == ["new 0", "new 1"]
    assert server_log.last_lines(path, 1) == ["new 1"]


def test_a_live_rotation_sends_this_process_output_to_a_new_log(tmp_path):
    """What the tick does in a server `kg start` pointed at server.log: its next lines land in the new file."""
    path = tmp_path / "server.log"
    code = (f"import os, sys; from pathlib import Path; from kg_actors import server_log\n"
            f"print('before', flush=True)\n"
            f"server_log.rotate_live(Path({str(path)!r}), 3)\n"
            f"print('after', flush=True); print('err', file=sys.stderr, flush=True)\n")
    with open(path, "ab") as log:
        subprocess.run([sys.executable, "-c", code], stdout=log, stderr=log, check=True)
    assert (tmp_path / "server.log.prev").read_text() == "before\n"
    assert path.read_text().splitlines()[-2:] == ["after", "err"]
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"


def test_the_servers_log_lines_are_stamped_in_utc_whatever_tz_it_was_started_under(server_factory):
    """A server started under TZ=America/Adak logged 10:36 while UTC was 20:36, with no zone: logs of starts
    under different zones interleaved out of order. Stamps are UTC, marked Z, and `kg logs` shows them so."""
    import calendar
    import re
    import time

    from kg_actors.testing import ServerProcess

    before = int(time.time())  # the stamps' seconds, read back, lie between these two
    srv = server_factory(start=False, extra_env={"TZ": "America/Adak"})
    assert isinstance(srv, ServerProcess)
    srv.start("--no-editor")
    assert srv.stop() == 0
    after = time.time()
    lines = [x for x in srv.log.read_text().splitlines() if server_log.LOGGED.match(x)]
    assert lines, srv.log.read_text()
    for line in lines:
        stamp = re.match(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.\d{3}Z ", line)
        assert stamp is not None, line
        at = calendar.timegm(time.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S"))
        assert before <= at <= after, (line, before, after)


def test_the_mcp_sdks_line_for_every_request_it_serves_is_not_logged_at_info(server_factory):
    """Audit: `INFO mcp.server.streamable_http: Terminating session: None` was 265 of a log's 269 lines."""
    import json
    import urllib.request

    srv = server_factory()
    for method in ("ping", "resources/list", "prompts/list"):  # served by the SDK, each logged so
        request = urllib.request.Request(f"{srv.url}/mcp", data=json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": method, "params": {}}).encode(), headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            assert reply.status == 200
    assert srv.stop() == 0
    log = srv.log.read_text()
    assert "Terminating session" not in log and "mcp.server.streamable_http_manager" in log, log[-2000:]
