"""Quota gauges from fixtures in the harnesses' real shapes: Claude Code's status-line frame, Codex rollout
`token_count` events, `agy -p /usage --output-format json`."""

import json
import os
import time
from pathlib import Path

from kg_actors.chores import gauge_files
from kg_actors.core import gauges as G
from kg_actors.core.chores import Reading

NOW = 1_800_000_000.0

# Claude Code's status-line stdin (its documented fields; rate_limits for subscribers).
FRAME = {
    "hook_event_name": "Status", "session_id": "abc123", "transcript_path": "/home/u/.claude/projects/x/abc123.jsonl",
    "cwd": "/home/u/app", "model": {"id": "claude-opus-4-1", "display_name": "Opus"},
    "workspace": {"current_dir": "/home/u/app", "project_dir": "/home/u/app"}, "version": "2.1.90",
    "output_style": {"name": "default"}, "cost": {"total_cost_usd": 0.01, "total_duration_ms": 45000},
    "context_window": {"used_percentage": 12},
    "rate_limits": {"five_hour": {"used_percentage": 23.5, "resets_at": NOW + 3600},
                    "seven_day": {"used_percentage": 41.2, "resets_at": NOW + 3 * 86400}},
}


def codex_line(ts="2027-01-15T08:00:00.000Z", primary=7.0, secondary=77.0, p_reset=NOW + 4 * 3600, s_reset=NOW + 86400):
    return json.dumps({"timestamp": ts, "type": "event_msg", "payload": {
        "type": "token_count", "info": {"total_token_usage": {"input_tokens": 10, "output_tokens": 2}},
        "rate_limits": {"primary": {"used_percent": primary, "window_minutes": 300, "resets_at": p_reset},
                        "secondary": {"used_percent": secondary, "window_minutes": 10080, "resets_at": s_reset}}}})


def test_claude_frame_recorded_and_read_back():
    rec = G.claude_record(FRAME, None, NOW)
    r = G.claude_reading(rec, NOW + 60)
    assert isinstance(r, Reading) and (r.five_hour_pct, r.seven_day_pct) == (23.5, 41.2) and r.age(NOW + 60) == 60


def test_a_frame_without_limits_never_overwrites_and_a_missing_window_ages():
    assert G.claude_record({k: v for k, v in FRAME.items() if k != "rate_limits"}, None, NOW) is None
    first = G.claude_record(FRAME, None, NOW - 4000)
    only5 = {**FRAME, "rate_limits": {"five_hour": {"used_percentage": 30, "resets_at": NOW + 3600}}}
    rec = G.claude_record(only5, first, NOW)
    r = G.claude_reading(rec, NOW)
    assert r.five_hour_pct == 30 and r.seven_day_pct == 41.2 and r.age(NOW) == 4000  # the oldest window


def test_inconsistent_claude_readings_refuse():
    rec = G.claude_record(FRAME, None, NOW)
    assert "percentage" in G.claude_reading({**rec, "five_hour_pct": float("nan")}, NOW)
    assert "percentage" in G.claude_reading({**rec, "seven_day_pct": -3}, NOW)
    assert "future" in G.claude_reading({**rec, "five_hour_seen_at": NOW + 600}, NOW)
    assert G.claude_reading([], NOW) == "gauge file is not a JSON object"
    assert G.claude_record({"rate_limits": {"five_hour": {"used_percentage": float("nan")}}}, None, NOW) is None


def test_a_window_used_past_its_limit_is_a_reading_and_replaces_the_older_one():
    first = G.claude_record(FRAME, None, NOW - 1800)  # 23.5% half an hour ago
    over = {**FRAME, "rate_limits": {"five_hour": {"used_percentage": 105, "resets_at": NOW + 3600},
                                     "seven_day": {"used_percentage": 30, "resets_at": NOW + 3 * 86400}}}
    r = G.claude_reading(G.claude_record(over, first, NOW), NOW)
    # Past the limit is the quota used up: 100%, never "quota at 105%" in every prompt's notice.
    assert (r.five_hour_pct, r.seven_day_pct, r.age(NOW)) == (100, 30, 0)
    line = codex_line(primary=100.4)
    assert G.codex_event(line, NOW + 10).five_hour_pct == 100
    assert G.claude_reading({**G.claude_record(FRAME, None, NOW), "five_hour_pct": 150}, NOW).five_hour_pct == 100
    assert G.over_limit(over) == ["five_hour used_percentage 105"] and G.over_limit(FRAME) == []


def test_kg_gauge_reads_a_use_over_100_as_the_quota_used_up_and_says_so(tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, KG_HOME=str(tmp_path), HOME=str(tmp_path))
    frame = json.dumps({"rate_limits": {"five_hour": {"used_percentage": 150}}})
    done = subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], input=frame, capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "5h 100%", done.stdout
    assert "five_hour used_percentage 150 is over 100%: read as 100%" in done.stderr, done.stderr
    # Kept as read (the chores log says the real value), read as 100.
    assert json.loads((tmp_path / gauge_files.CLAUDE_FILE).read_text())["five_hour_pct"] == 150


def test_kg_gauge_says_which_window_it_did_not_read_and_keeps_the_earlier_reading(tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, KG_HOME=str(tmp_path), HOME=str(tmp_path))

    def gauge(limits: dict) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], input=json.dumps({"rate_limits": limits}),
                              capture_output=True, text=True, env=env, timeout=60)

    assert gauge({"five_hour": {"used_percentage": 40}}).stdout.strip() == "5h 40%"
    done = gauge({"five_hour": {"used_percentage": -20}, "seven_day": {"used_percentage": "abc"}})
    # Each window dropped was dropped without a word: the status line kept an older figure, unexplained.
    assert "five_hour: -20 is not a percentage" in done.stderr and "seven_day: 'abc' is not a percentage" in done.stderr
    assert "not read (the earlier reading stands)" in done.stderr and done.stdout.strip() == "5h 40%"
    nan = subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], capture_output=True, text=True, env=env,
                         timeout=60, input='{"rate_limits": {"five_hour": {"used_percentage": NaN}}}')
    # A frame that is no JSON kg reads (NaN, a torn one) was dropped without a word, the older figure shown.
    assert "the status line's frame is not JSON kg reads" in nan.stderr, nan.stderr
    assert "not read (the earlier reading stands)" in nan.stderr and nan.stdout.strip() == "5h 40%"
    quiet = subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], capture_output=True, text=True, env=env,
                           timeout=60, input='{"model": {"id": "x"}}')
    assert quiet.stderr == "" and quiet.stdout.strip() == "5h 40%", "a frame with no limits is no fault"


def test_a_passed_reset_reads_zero():
    rec = G.claude_record(FRAME, None, NOW)
    assert G.claude_reading(rec, NOW + 3601).five_hour_pct == 0.0


def test_codex_newest_event_in_a_tail_cut_mid_line():
    text = "ial garbage from the middle of a line\n" + codex_line(primary=5) + "\n" + '{"type":"event_msg"}\n' \
        + codex_line(ts="2027-01-15T08:05:00Z", primary=9) + "\n" + codex_line(primary=50)[:40]
    now = G._iso_ts("2027-01-15T08:10:00Z")
    r = G.codex_tail(text, now, cut=True)
    assert isinstance(r, Reading) and r.five_hour_pct == 9 and r.seven_day_pct == 77
    assert r.seen_at == G._iso_ts("2027-01-15T08:05:00Z")


def test_codex_broken_events_refuse():
    now = G._iso_ts("2027-01-15T09:00:00Z")
    assert G.codex_event(codex_line(primary=float("nan")), now) == "rate_limits event is not readable JSON"
    assert "percentage" in G.codex_event(codex_line(secondary=-1), now)
    assert "future" in G.codex_event(codex_line(ts="2027-01-15T10:00:00Z"), now)
    assert "zoned" in G.codex_event(codex_line(ts="2027-01-15T08:00:00"), now)


def test_codex_files_newest_wins_and_a_disagreeing_tie_refuses(tmp_path):
    now = G._iso_ts("2027-01-15T09:00:00Z")
    day = tmp_path / "sessions" / "2027" / "01" / "15"
    day.mkdir(parents=True)
    (day / "rollout-2027-01-15T07-00-00-a.jsonl").write_text(codex_line(ts="2027-01-15T08:00:00Z", primary=3) + "\n")
    (day / "rollout-2027-01-15T08-00-00-b.jsonl").write_text(codex_line(ts="2027-01-15T08:30:00Z", primary=4) + "\n")
    old = day / "rollout-2027-01-01T08-00-00-c.jsonl"
    old.write_text(codex_line(ts="2027-01-15T08:59:00Z", primary=99) + "\n")
    os.utime(old, (now - 10_000, now - 10_000))  # not written lately: not looked at
    for f in day.iterdir():
        if f != old:
            os.utime(f, (now - 60, now - 60))
    r = gauge_files.read_codex(tmp_path, now, 5400)
    assert isinstance(r, Reading) and r.five_hour_pct == 4
    tie = day / "rollout-2027-01-15T08-10-00-d.jsonl"
    tie.write_text(codex_line(ts="2027-01-15T08:30:00Z", primary=40) + "\n")
    os.utime(tie, (now - 60, now - 60))
    assert gauge_files.read_codex(tmp_path, now, 5400) == "two rollouts disagree at the same moment"
    assert "no Codex session logs" in gauge_files.read_codex(tmp_path / "none", now, 5400)


AGY = {"command": {"name": "usage", "data": {"groups": [
    {"name": "Gemini models", "buckets": [
        {"window": "five_hour", "remaining_fraction": 0.75, "reset_time": NOW + 3600},
        {"window": "weekly", "remaining_fraction": 0.4, "reset_time": NOW + 86400}]},
    {"name": "Claude and GPT models", "buckets": [
        {"window": "weekly", "remaining_fraction": 0.9, "reset_time": NOW + 86400}]}]}}}


def test_agy_usage_groups():
    r = G.agy_reading(AGY, NOW)
    assert (r.five_hour_pct, r.seven_day_pct, r.age(NOW)) == (25.0, 60.0, 0)
    other = G.agy_reading(AGY, NOW, model="claude-sonnet-4-5")
    assert other.five_hour_pct is None and other.seven_day_pct == 10.0  # a weekly-only plan
    assert "not signed in" in G.agy_reading({"command": {"data": {"groups": []}}}, NOW)
    bad = json.loads(json.dumps(AGY).replace("0.75", "1.5"))
    assert "fraction" in G.agy_reading(bad, NOW)


def test_kg_gauge_file_round_trip(tmp_path):
    assert "install `kg gauge`" in gauge_files.read_claude(tmp_path, NOW)
    gauge_files.record_claude(tmp_path, FRAME, NOW)
    assert gauge_files.read_claude(tmp_path, NOW).seven_day_pct == 41.2
    (tmp_path / gauge_files.CLAUDE_FILE).write_text("{torn")
    assert gauge_files.read_claude(tmp_path, NOW) == "claude-limits.json is not valid JSON"


def test_kg_gauge_records_the_frame_and_wraps_the_users_status_line(tmp_path):
    import subprocess
    import sys
    env = dict(os.environ, KG_HOME=str(tmp_path), HOME=str(tmp_path))
    frame = json.dumps({**FRAME, "rate_limits": {"five_hour": {"used_percentage": 23.5, "resets_at": time.time() + 3600},
                                                 "seven_day": {"used_percentage": 41.2, "resets_at": time.time() + 86400}}})
    done = subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], input=frame, capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "5h 24% · week 41%"
    assert json.loads((tmp_path / gauge_files.CLAUDE_FILE).read_text())["seven_day_pct"] == 41.2
    done = subprocess.run([sys.executable, "-m", "kg_actors", "gauge", "--wrap", "echo mine; wc -c"], input="{bad",
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.split() == ["mine", "4"]  # the user's line, on the same stdin
    # Frames no status line sends, still a line and exit 0: a 400-digit reset time, arrays nested too deep to parse.
    huge = '{"rate_limits": {"five_hour": {"used_percentage": 5, "resets_at": 1' + "0" * 400 + '}}}'
    for odd in (huge, "[" * 100_000 + "]" * 100_000):
        done = subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], input=odd, capture_output=True, text=True,
                              env=env, timeout=60)
        assert done.returncode == 0 and done.stdout.strip() == "5h 24% · week 41%"
        assert done.stderr.startswith("kg gauge: the status line's frame is not JSON kg reads (") and \
            done.stderr.count("\n") == 1 and len(done.stderr) < 300, done.stderr[:500]


def test_doctor_says_how_old_the_last_reading_is(tmp_path):
    from kg_actors.chores.gauge_cli import doctor_line
    assert "install `kg gauge`" in doctor_line(tmp_path, NOW)
    # Wired by setup, no frame drawn yet: nothing to install, only no reading so far.
    wired = doctor_line(tmp_path, NOW, wired=True)
    assert wired.startswith("no status-line reading yet") and "install" not in wired
    gauge_files.record_claude(tmp_path, FRAME, NOW - 600)
    assert doctor_line(tmp_path, NOW) == "last status-line reading 10 min old"
    assert doctor_line(tmp_path, NOW + 6000).endswith("(stale: chores refuse readings over 90 min old)")


def test_codex_a_newer_broken_event_refuses_over_an_older_good_one(tmp_path):
    now = G._iso_ts("2027-01-15T09:00:00Z")
    day = tmp_path / "sessions" / "2027" / "01" / "15"
    day.mkdir(parents=True)
    (day / "rollout-2027-01-15T07-00-00-a.jsonl").write_text(codex_line(ts="2027-01-15T08:00:00Z", primary=3) + "\n")
    broken = day / "rollout-2027-01-15T08-00-00-b.jsonl"
    broken.write_text(codex_line(ts="2027-01-15T08:30:00Z", primary=-5) + "\n")
    for f in day.iterdir():
        os.utime(f, (now - 60, now - 60))
    assert "not a percentage" in gauge_files.read_codex(tmp_path, now, 5400)
    # The same broken event, older than the good one: the newest (good) event decides.
    broken.write_text(codex_line(ts="2027-01-15T07:30:00Z", primary=-5) + "\n")
    os.utime(broken, (now - 60, now - 60))
    assert gauge_files.read_codex(tmp_path, now, 5400).five_hour_pct == 3
    # A newer event that does not parse at all is dated by its timestamp text, and refuses.
    broken.write_text(codex_line(ts="2027-01-15T08:40:00Z").replace("77.0", "NaN") + "\n")
    os.utime(broken, (now - 60, now - 60))
    assert gauge_files.read_codex(tmp_path, now, 5400) == "rate_limits event is not readable JSON"


def test_kg_gauge_wrap_shows_what_the_users_line_printed_even_with_a_child_left_or_when_slow(tmp_path):
    """A status line that leaves a background child holding its stdout, or one still working at the bound,
    still shows what it printed (the child is not waited for; an overrun command is ended with its group)."""
    import subprocess
    import sys
    env = dict(os.environ, KG_HOME=str(tmp_path), HOME=str(tmp_path))
    pid_file = tmp_path / "pid"

    def wrapped(command):
        return subprocess.run([sys.executable, "-m", "kg_actors", "gauge", "--wrap", command], input="{}",
                              capture_output=True, text=True, env=env, timeout=60)

    done = wrapped(f"echo hi; (sleep 30 & echo $! > {pid_file}); exit 0")
    assert (done.returncode, done.stdout) == (0, "hi\n")
    os.kill(int(pid_file.read_text()), 15)  # the user's own background child: left alone by kg gauge
    done = wrapped(f"echo partial; sleep 30 & echo $! > {pid_file}; wait")
    assert (done.returncode, done.stdout) == (0, "partial\n")
    pid = int(pid_file.read_text())
    for _ in range(1000):  # ended with the overrun command's group (its reaping is init's)
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
        except FileNotFoundError:
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the overrun status line's child still runs")


def test_kg_gauge_marks_an_old_reading_stale_and_makes_the_store_private(tmp_path):
    import subprocess
    import sys
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "KG_HOME"}
    env["HOME"] = str(home)
    now = time.time()
    frame = json.dumps({"rate_limits": {"five_hour": {"used_percentage": 23.5, "resets_at": now + 3 * 3600},
                                        "seven_day": {"used_percentage": 41.2, "resets_at": now + 86400}}})

    def gauge(stdin):
        return subprocess.run([sys.executable, "-m", "kg_actors", "gauge"], input=stdin, capture_output=True,
                              text=True, env=env, timeout=60).stdout.strip()

    assert gauge(frame) == "5h 24% · week 41%"
    store = home / ".knowledge-graph"
    assert store.stat().st_mode & 0o777 == 0o700  # as the server makes it: other accounts read nothing
    record = json.loads((store / gauge_files.CLAUDE_FILE).read_text())
    # Five hours without a frame that carries the week's window (a five-hour window read that long ago would
    # have reset since: only the week's can be that old and still hold).
    record["seven_day_seen_at"] -= 5 * 3600
    (store / gauge_files.CLAUDE_FILE).write_text(json.dumps(record))
    assert gauge("{}") == "5h 24% · week 41% (stale: 5 h old)"


def test_a_reset_further_ahead_than_its_window_is_an_inconsistent_reading():
    """t_gates.sh `g 10 20 9999999 0`: a week window resetting ~115 days ahead let a chore run."""
    rec = G.claude_record(FRAME, None, NOW)
    far = G.claude_reading({**rec, "seven_day_resets_at": NOW + 9_999_999}, NOW)
    assert far == "seven_day resets 115.7 days after it was read, further ahead than the window's own 7.0 days"
    assert "further ahead than the window's own 5.0 hours" in G.claude_reading(
        {**rec, "five_hour_resets_at": NOW + 6 * 3600}, NOW)
    # At the window's own length, and a little past it (a rounded reset, clocks that disagree): a reading.
    assert isinstance(G.claude_reading({**rec, "seven_day_resets_at": NOW + 7 * 86_400 + 600}, NOW), Reading)
    assert isinstance(G.claude_reading({**rec, "five_hour_resets_at": NOW + 5 * 3600}, NOW), Reading)
    # Measured from when the window was read, not from now: an old reading's reset is not pushed past it.
    old = {**rec, "five_hour_seen_at": NOW - 3000, "five_hour_resets_at": NOW + 5 * 3600 - 3000}
    assert isinstance(G.claude_reading(old, NOW), Reading)
    now = G._iso_ts("2027-01-15T09:00:00Z")
    assert "further ahead" in G.codex_event(codex_line(s_reset=NOW + 30 * 86_400), now)


def test_a_use_over_100_is_logged_with_its_real_value():
    """Audit: a 101% reading was logged as "5h 100%"."""
    from kg_actors.core import chores as R

    over = {**FRAME, "rate_limits": {"five_hour": {"used_percentage": 101, "resets_at": NOW + 3600},
                                     "seven_day": {"used_percentage": 30, "resets_at": NOW + 3 * 86400}}}
    r = G.claude_reading(G.claude_record(over, None, NOW), NOW)
    assert (r.five_hour_pct, r.five_hour_raw, r.seven_day_raw) == (100, 101, None)
    assert R._over(r, 55, 80, "chores") == "5h 101%, over the limit, read as 100% (chores need < 55%)"
    week = G.codex_event(codex_line(primary=10, secondary=120.5), NOW + 10)
    assert R._over(week, 55, 80, "chores") == "7d 120.5%, over the limit, read as 100% (chores need < 80%)"
    assert R._over(G.claude_reading(G.claude_record(FRAME, None, NOW), NOW), 20, 80, "chores") == \
        "5h 23.5% (chores need < 20%)"
    # A window whose reset has passed reads 0, whatever it was read at.
    assert G.claude_reading(G.claude_record(over, None, NOW), NOW + 3601).five_hour_raw is None
