"""Files a user or an agent wrote, with numbers no float holds or nesting no reader should walk: each read
as unreadable, like a torn file, by every reader on the chore and gauge paths; the server keeps answering."""

import json
import sys
from pathlib import Path

import httpx
import pytest
import trio

from kg_actors.chores import gauge_files, runners
from kg_actors.core import gauges, strict_json
from kg_actors.core.chores import parse_config
from kg_actors.harness import antigravity as agy
from kg_actors.testing import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness, post  # noqa: E402

NOW = 1_800_000_000.0
HUGE = "9" * 5000
ODD = {"inf": "1e999999", "digits": HUGE, "overflow": "9" * 400, "deep": "[" * 100_000 + "]" * 100_000}


def _in(value: str) -> str:
    """An odd value where a number belongs in chores.json and the gauge file."""
    return value if value.startswith("[") else f'{{"max_5h": {value}, "five_hour_pct": {value}}}'


@pytest.mark.parametrize("odd", ODD.values(), ids=ODD.keys())
def test_the_strict_reader_refuses_as_a_torn_file(odd):
    with pytest.raises(ValueError):
        strict_json.loads(odd)
    with pytest.raises(ValueError):
        strict_json.loads(_in(odd))
    assert strict_json.loads(b'{"a": [1, 2.5e3, -7, null]}') == {"a": [1, 2500.0, -7, None]}


@pytest.mark.parametrize("odd", ODD.values(), ids=ODD.keys())
def test_chores_json_with_an_odd_value_leaves_chores_off_with_a_warning(odd):
    cfg = parse_config(_in(odd).encode(), "1")
    assert cfg.enabled is False and "chores.json is not valid JSON" in cfg.warning


@pytest.mark.parametrize("odd", ODD.values(), ids=ODD.keys())
def test_an_odd_gauge_file_is_not_a_reading_and_the_next_frame_replaces_it(tmp_path, odd):
    path = tmp_path / gauge_files.CLAUDE_FILE
    path.write_text(_in(odd))
    assert gauge_files.read_claude(tmp_path, NOW) == "claude-limits.json is not valid JSON"
    frame = {"rate_limits": {"five_hour": {"used_percentage": 12, "resets_at": NOW + 3600}}}
    assert gauge_files.record_claude(tmp_path, frame, NOW) is not None
    assert gauge_files.read_claude(tmp_path, NOW).five_hour_pct == 12


@pytest.mark.parametrize("odd", ODD.values(), ids=ODD.keys())
def test_an_odd_codex_event_refuses_and_antigravity_files_are_skipped(tmp_path, odd):
    line = '{"timestamp": "2027-01-15T08:00:00Z", "payload": {"rate_limits": {"primary": {"used_percent": %s, ' \
           '"window_minutes": 300}}}}' % (odd if not odd.startswith("[") else "1") if not odd.startswith("[") \
        else '{"rate_limits": ' + odd + "}"
    assert gauges.codex_event(line, NOW) == "rate_limits event is not readable JSON"  # refuses
    assert agy.scan((_in(odd) + "\n").encode()) == (False, None)
    settings = tmp_path / ".gemini" / "antigravity-cli" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(_in(odd))
    assert runners.agy_refusal(False, tmp_path).startswith("antigravity settings unreadable")


def test_agy_usage_printing_an_odd_number_is_no_reading(tmp_path):
    fake = tmp_path / "agy"
    fake.write_text(f"#!{sys.executable}\nprint('{{\"command\": {{\"data\": {{\"groups\": {HUGE}}}}}}}')\n")
    fake.chmod(0o755)
    got = trio.run(gauge_files.read_agy, str(fake), tmp_path, {"PATH": "/usr/bin:/bin"}, NOW)
    assert got == "agy /usage did not print JSON"


def test_odd_chores_and_gauge_files_leave_every_hook_and_the_budget_tab_answering(tmp_path):
    srv = ServerProcess(tmp_path / "srv", {"KG_CHORES": "1"})
    srv.store.mkdir(parents=True)
    (srv.store / "chores.json").write_text(_in(ODD["overflow"]))
    (srv.store / gauge_files.CLAUDE_FILE).write_text(_in(ODD["overflow"]))
    srv.start("--no-editor")
    try:
        project = srv.project("app")
        h = Harness(srv, project)
        h.start()
        for odd in (ODD["overflow"], ODD["deep"], ODD["digits"], ODD["inf"]):
            (srv.store / "chores.json").write_text(_in(odd))
            (srv.store / gauge_files.CLAUDE_FILE).write_text(_in(odd))
            base = {"session_id": h.sid, "transcript_path": str(h.transcript), "cwd": project}
            prompt = post(srv, "/api/prompt_context", {**base, "hook_event_name": "UserPromptSubmit",
                                                         "prompt": "what did we decide about deploys?"})
            assert prompt.status_code == 200, prompt.text
            tool = post(srv, "/api/tool_event", {**base, "hook_event_name": "PostToolUse", "tool_name": "Read",
                                                 "tool_input": {"file_path": project + "/README.md"},
                                                 "tool_response": {}})
            assert tool.status_code == 200, tool.text
            tab = httpx.get(srv.url + "/api/chores", timeout=10)
            assert tab.status_code == 200 and tab.json()["enabled"] is False, tab.text
            assert tab.json()["warning"].endswith("chores stay off")
        assert srv.health() is not None
    finally:
        srv.kill()


def test_a_chores_json_fault_seen_by_both_watchers_is_logged_once(tmp_path, caplog):
    """The supervisor and the budget notices each watch chores.json: the server logged its fault twice."""
    from kg_actors.chores.config import ConfigWatcher

    (tmp_path / "chores.json").write_text('{"enabled": tru')
    with caplog.at_level("WARNING", logger="kg_actors.chores.config"):
        first, second = ConfigWatcher(tmp_path, {}), ConfigWatcher(tmp_path, {})
        assert first.current().warning and second.current().warning == first.current().warning
    said = [r for r in caplog.records if "chores.json" in r.getMessage()]
    assert len(said) == 1, said
