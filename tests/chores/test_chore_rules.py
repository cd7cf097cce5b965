"""The pure chore rules: configuration, the dispatch decision and its re-check (now passed in)."""

import json
import math

import attrs

from kg_actors.core import chores as R

NOW = 1_800_000_000.0
DAY = 86_400.0


def on(**kw):
    return R.parse_config(json.dumps({"enabled": True, **kw}).encode())


def reading(five=10.0, week=10.0, age=60.0, week_elapsed=0.5, now=NOW):
    return R.Reading("claude", five, week, now + 3600, now + (1 - week_elapsed) * R.WEEK, now - age)


def graph(key="project:app", debt=0.5, nodes=20, maintained_days_ago=1.0, now=NOW):
    last = None if maintained_days_ago is None else now - maintained_days_ago * DAY
    return R.GraphFacts(key, debt, nodes, last)


# Configuration ------------------------------------------------------------------------------

def test_off_by_default_and_on_by_file_or_env():
    assert not R.parse_config(None).enabled
    assert R.parse_config(b'{"enabled": true}').enabled
    assert R.parse_config(None, "1").enabled
    assert R.parse_config(b'{"enabled": false}', "1").enabled


def test_kg_chores_zero_wins_over_the_file():
    for word in ("0", "false", "no", ""):
        assert not R.parse_config(b'{"enabled": true}', word).enabled


def test_unreadable_file_is_off_with_a_warning_naming_the_field():
    cfg = R.parse_config(b'{"enabled": tru', "1")
    assert not cfg.enabled and "not valid JSON" in cfg.warning
    cfg = R.parse_config(b'[1]')
    assert not cfg.enabled and "JSON object" in cfg.warning
    cfg = R.parse_config(b'{"enabled": true, "max_5h": "lots"}')
    assert not cfg.enabled and cfg.warning.startswith("chores.json: max_5h:")
    cfg = R.parse_config(b'{"enabled": true, "runner": "gpt"}')
    assert not cfg.enabled and "runner" in cfg.warning
    for name in ("timeout_s", "pass_timeout_s"):  # audit: each run was killed as it started, a day's slot spent
        for value in (b"0", b"1e-9", b"0.5", b"-1", b'"5"', b"true"):  # one rule, said alike
            cfg = R.parse_config(b'{"enabled": true, "%s": %s}' % (name.encode(), value))
            assert not cfg.enabled and cfg.warning.startswith(f"chores.json: {name}: must be a number of at least 1 "
                                                              "(seconds)"), cfg.warning
    assert R.parse_config(b'{"enabled": true, "min_interval_s": 0, "timeout_s": 1}').enabled


def test_defaults_are_the_spec_numbers():
    cfg = on()
    assert (cfg.min_interval_s, cfg.graph_cooldown_s, cfg.max_per_day, cfg.debt_floor) == (2700, 21600, 8, 0.12)
    assert (cfg.max_5h, cfg.max_7d, cfg.pass_max_5h, cfg.pass_max_7d, cfg.pass_pace_max) == (55, 80, 40, 70, 1.0)
    assert (cfg.gauge_max_age_s, cfg.timeout_s, cfg.pass_timeout_s) == (5400, 420, 1500)


def test_budget_notices_off_by_file_or_env():
    assert R.parse_config(None).budget_notices
    assert not R.parse_config(b'{"budget_notices": false}').budget_notices
    assert not R.parse_config(None, notices_env="0").budget_notices


# The decision --------------------------------------------------------------------------------

def test_a_chore_on_the_neediest_graph_above_the_floor():
    d = R.decide(on(), R.ChoreState(), NOW, False, reading(), [graph("user", 0.2), graph(debt=0.6)])
    assert d.dispatch and d.tier == "chore" and d.graph.key == "project:app"
    assert d.state.count == 1 and d.state.last_ts == NOW and d.state.graphs == {"project:app": NOW}


def test_refusals_say_why():
    cfg, st = on(), R.ChoreState()
    assert R.decide(R.parse_config(None), st, NOW, False, reading(), [graph()]).reason == "chores are off"
    assert R.decide(cfg, st, NOW, True, reading(), [graph()]).reason == "a run is in flight"
    assert R.decide(cfg, st, NOW, False, "no file", [graph()]).reason == "gauge unreadable: no file"
    assert R.decide(cfg, st, NOW, False, reading(age=91 * 60), [graph()]).reason.startswith("gauge stale")
    assert R.decide(cfg, st, NOW, False, reading(five=55), [graph()]).reason == "5h 55% (chores need < 55%)"
    assert R.decide(cfg, st, NOW, False, reading(week=80), [graph()]).reason == "7d 80% (chores need < 80%)"
    assert "debt floor" in R.decide(cfg, st, NOW, False, reading(), [graph(debt=0.11)]).reason


def test_a_missing_five_hour_window_refuses_unless_the_plan_has_none():
    """Claude's and Codex's plans always have one: a reading without it lacks what it must hold. Antigravity's
    weekly-only plans have none, and are gated on the week."""
    cfg, st = on(), R.ChoreState()
    assert R.decide(cfg, st, NOW, False, reading(five=None), [graph()]).reason == "5h reading missing"
    codex = attrs.evolve(reading(five=None), source="codex")
    assert R.decide(cfg, st, NOW, False, codex, [graph()]).reason == "5h reading missing"
    weekly_only = attrs.evolve(reading(five=None), source="antigravity")
    assert R.decide(cfg, st, NOW, False, weekly_only, [graph()]).action == "dispatch"
    assert R.decide(cfg, st, NOW, False, reading(five=105), [graph()]).reason == "5h 105% (chores need < 55%)"


def test_spacing_cooldown_and_daily_cap():
    cfg = on()
    st = R.ChoreState(last_ts=NOW - 44 * 60, day=R.utc_day(NOW), count=1, graphs={"project:app": NOW - 44 * 60})
    assert R.decide(cfg, st, NOW, False, reading(), [graph()]).reason.startswith("spacing: 44 min")
    st = attrs.evolve(st, last_ts=NOW - 46 * 60)
    assert "cooldown" in R.decide(cfg, st, NOW, False, reading(), [graph()]).reason  # the graph's 6 h
    assert R.decide(cfg, st, NOW, False, reading(), [graph(), graph("user", 0.3)]).graph.key == "user"
    st = attrs.evolve(st, graphs={"project:app": NOW - 6 * 3600}, count=8)
    assert R.decide(cfg, st, NOW, False, reading(), [graph()]).reason == "daily chore cap (8)"
    # A new UTC day starts the cap from zero.
    assert R.decide(cfg, st, NOW + DAY, False, reading(now=NOW + DAY), [graph(now=NOW + DAY)]).dispatch


def test_a_pass_when_21_days_untended_with_8_active_nodes_under_pace():
    cfg = on()
    due = graph(maintained_days_ago=21)
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(week=30, week_elapsed=0.5), [due])
    assert d.dispatch and d.tier == "pass" and d.state.pass_count == 1 and d.state.passes == {due.key: NOW}
    never = graph(maintained_days_ago=None)
    assert R.decide(cfg, R.ChoreState(), NOW, False, reading(), [never]).tier == "pass"
    # Too small, or maintained lately: a chore instead.
    assert R.decide(cfg, R.ChoreState(), NOW, False, reading(), [graph(nodes=7, maintained_days_ago=None)]).tier == "chore"
    assert R.decide(cfg, R.ChoreState(), NOW, False, reading(), [graph(maintained_days_ago=20)]).tier == "chore"


def test_pass_gates_fall_back_to_a_chore_and_say_why():
    cfg, due = on(), [graph(maintained_days_ago=30)]
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(week=60, week_elapsed=0.5), due)  # 1.2x pace
    assert d.tier == "chore" and d.notes == ("pass: week running at 1.20x pace, no surplus",)
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(five=40), due)
    assert d.tier == "chore" and d.notes == ("pass: 5h 40% (passes need < 40%)",)
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(week=70, week_elapsed=0.9), due)
    assert d.notes == ("pass: 7d 70% (passes need < 70%)",)
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(week_elapsed=0.01), due)
    assert d.notes == ("pass: weekly pace unknown",)
    st = R.ChoreState(day=R.utc_day(NOW), pass_count=1)
    assert R.decide(cfg, st, NOW, False, reading(), due).notes == ("daily pass cap",)


def test_weekly_pace():
    assert math.isclose(R.weekly_pace(reading(week=50, week_elapsed=0.5), NOW), 1.0)
    assert R.weekly_pace(reading(week=None), NOW) is None


def test_recheck_refuses_what_moved():
    cfg, st = on(), R.ChoreState()
    d = R.decide(cfg, st, NOW, False, reading(), [graph()])
    assert R.recheck(d, cfg, cfg, st, st, reading(), NOW + 1) is None
    assert R.recheck(d, cfg, R.parse_config(None), st, st, reading(), NOW) == "config changed"
    assert R.recheck(d, cfg, on(runner="codex"), st, st, reading(), NOW) == "config changed"
    assert R.recheck(d, cfg, cfg, st, st, reading(age=5399), NOW + 2) == "gauge went stale"
    assert R.recheck(d, cfg, cfg, st, attrs.evolve(st, last_ts=NOW), reading(), NOW) == "a concurrent dispatch won"
    midnight = NOW + 57_600  # a decision made before midnight counts on that day: it may not start after it
    late = R.decide(cfg, st, midnight - 30, False, reading(now=midnight - 30), [graph(now=midnight - 30)])
    assert R.recheck(late, cfg, cfg, st, st, reading(now=midnight - 30), midnight - 1) is None
    assert R.recheck(late, cfg, cfg, st, st, reading(now=midnight - 30), midnight + 1) == "the day turned"


def test_a_run_is_stamped_when_it_starts_not_when_it_was_decided():
    cfg, st = on(), R.ChoreState()
    chore = R.decide(cfg, st, NOW, False, reading(), [graph()])
    saved = R.at_spawn(chore, NOW + 600)  # the decision's awaits took ten minutes
    assert saved.last_ts == NOW + 600 and saved.graphs == {"project:app": NOW + 600} and saved.count == 1
    assert saved.passes == {}
    assert R.spacing(cfg, saved, NOW + cfg.min_interval_s) is not None  # 45 min from the decision: too soon
    due = R.decide(cfg, st, NOW, False, reading(week=10, week_elapsed=0.5), [graph(maintained_days_ago=30)])
    assert due.tier == "pass" and R.at_spawn(due, NOW + 5).passes == {"project:app": NOW + 5}


def test_stored_state_is_read_leniently():
    assert R.parse_state("junk") == R.ChoreState()
    st = R.parse_state({"last_ts": 5, "count": 2, "graphs": {"user": 3, "bad": "x"}, "day": "2027-01-01"})
    assert st.last_ts == 5.0 and st.count == 2 and st.graphs == {"user": 3.0}


def test_a_stale_gauge_says_its_age_to_the_second_past_whole_minutes():
    cfg, st = on(), R.ChoreState()
    assert R.decide(cfg, st, NOW, False, reading(age=5401), [graph()]).reason == \
        "gauge stale: 90 min 1 s old (at most 90 min)"
    assert R.decide(cfg, st, NOW, False, reading(age=120 * 60), [graph()]).reason == \
        "gauge stale: 120 min old (at most 90 min)"


def test_a_last_run_stamped_in_the_future_the_clock_moved_back():
    cfg = on()
    # Two hours ahead (a clock moved back): it blocks nothing, neither the spacing nor the graph's cooldown.
    st = R.ChoreState(last_ts=NOW + 7200, day=R.utc_day(NOW), count=1, graphs={"project:app": NOW + 7200})
    decided = R.decide(cfg, st, NOW, False, reading(), [graph()])
    assert decided.dispatch and decided.state.last_ts == NOW
    # A minute ahead (clocks that disagree a little): said as such, never as a negative time since.
    st = attrs.evolve(st, last_ts=NOW + 60)
    assert R.spacing(cfg, st, NOW) == "spacing: the last run's time is 60 s in the future (the clock moved back?)"


def test_spacing_says_whole_minutes_and_seconds_never_a_fraction_of_a_minute():
    """Audit: "min_interval_s": 99999 was said as "(at least 1666.65)"; 44 min 50 s as "45 min" beside 45."""
    st = R.ChoreState(last_ts=NOW - 60, day=R.utc_day(NOW), count=1)
    assert R.spacing(R.parse_config(b'{"enabled": true, "min_interval_s": 99999}'), st, NOW) == \
        "spacing: 1 min since the last run (at least 1666 min 39 s)"
    st = attrs.evolve(st, last_ts=NOW - (44 * 60 + 50))
    assert R.spacing(R.parse_config(b'{"enabled": true, "min_interval_s": 2700}'), st, NOW) == \
        "spacing: 44 min 50 s since the last run (at least 45 min)"


def test_the_users_caps_bind_passes_too():
    """Audit: chores.json's max_5h / max_7d / max_per_day refused chores while a whole pass (the dearest run)
    was dispatched above them. A pass answers to the user's caps as well as to its own tighter defaults."""
    due = [graph(maintained_days_ago=None)]
    d = R.decide(on(max_5h=30), R.ChoreState(), NOW, False, reading(five=35), due)
    assert not d.dispatch and d.notes == ("pass: 5h 35% (passes need < 30%)",), d
    d = R.decide(on(max_7d=40), R.ChoreState(), NOW, False, reading(week=45, week_elapsed=0.9), due)
    assert not d.dispatch and d.notes == ("pass: 7d 45% (passes need < 40%)",), d
    d = R.decide(on(max_per_day=0), R.ChoreState(), NOW, False, reading(), due)
    assert not d.dispatch and d.notes == ("daily run cap (max_per_day 0)",) and d.reason == "daily chore cap (0)", d
    # A day's runs count passes and chores alike: 7 chores and a pass make the default cap of 8.
    st = R.ChoreState(day=R.utc_day(NOW), count=7, pass_count=1)
    assert R.decide(on(pass_max_per_day=2), st, NOW, False, reading(), due).reason == "daily chore cap (8)"
    st = R.ChoreState(day=R.utc_day(NOW), count=8)
    d = R.decide(on(pass_max_per_day=2), st, NOW, False, reading(), due)
    assert not d.dispatch and d.notes == ("daily run cap (max_per_day 8)",), d
    # Caps above the pass's own leave the pass's: it still needs < 40% of the 5 h window.
    d = R.decide(on(max_5h=90), R.ChoreState(), NOW, False, reading(five=45), due)
    assert d.notes == ("pass: 5h 45% (passes need < 40%)",)
    assert R.decide(on(max_5h=30), R.ChoreState(), NOW, False, reading(five=20), due).tier == "pass"


def test_a_gate_above_its_default_is_ignored_and_said():
    """Audit: `max_5h` 95 / `max_7d` 99 ran a chore at 70% / 85%; the README says they lower the gates."""
    cfg = on(max_5h=95, max_7d=99, pass_max_5h=30)
    assert (cfg.max_5h, cfg.max_7d, cfg.pass_max_5h, cfg.pass_max_7d) == (55, 80, 30, 70) and cfg.enabled
    assert cfg.ignored == ("chores.json: max_5h 95 is above its default 55; max_7d 99 is above its default 80: "
                           "ignored, the default holds (a quota gate may only be lowered)")
    d = R.decide(cfg, R.ChoreState(), NOW, False, reading(five=70, week=85, week_elapsed=0.95), [graph()])
    assert not d.dispatch and d.reason == "5h 70% (chores need < 55%)", d
    assert on(max_5h=30).ignored is None and on(max_5h=30).max_5h == 30  # lowering is what they are for
    assert on(pass_max_7d=75).pass_max_7d == 70 and "pass_max_7d 75" in on(pass_max_7d=75).ignored


def test_kg_chores_says_on_or_off_in_a_known_word_and_anything_else_is_off_and_said():
    from kg_actors.core.chores import parse_config

    for word in ("1", "true", "YES", " on "):
        assert parse_config(None, word).enabled and parse_config(None, word).ignored is None
    for word in ("never", "disabled", "maybe"):
        config = parse_config(b'{"enabled": true}', word)
        assert not config.enabled and f"KG_CHORES={word!r} is neither on" in (config.ignored or "")
    config = parse_config(b'{"enabled": true, "max5h": 10, "colour": "red"}')
    assert config.enabled and config.max_5h == 55
    assert config.ignored == ("chores.json: 'colour', 'max5h' (did you mean max_5h?) are not settings: ignored")
