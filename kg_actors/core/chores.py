"""Chores (spec 000 "Chores"): whether a prompt may start a background maintenance run, and which.

Pure: the configuration's text, the stored counters, the graphs' facts and the
quota reading are arguments, `now` is passed in. Every gate fails closed, and
every answer carries the reason that goes to chores.jsonl.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from . import strict_json

DAY = 86_400.0
WEEK = 7 * DAY
RUNNERS = ("auto", "claude", "codex", "antigravity")
PACE_MIN_ELAPSED = 0.02  # the first ~3 hours of a week say nothing about its pace
CLOCK_SLACK_S = 300.0  # a stored run stamp further ahead than this is from a clock since moved back


@attrs.frozen
class ChoreConfig:
    """`chores.json` with the environment applied; `warning` says why a bad file left chores off."""

    enabled: bool = False
    runner: str = "auto"
    model: str | None = None  # the runner's own default when unset
    codex_model: str | None = None
    antigravity_model: str | None = None
    claude_bin: str | None = None
    codex_bin: str | None = None
    antigravity_bin: str | None = None
    min_interval_s: float = 2700.0  # 45 min between runs
    graph_cooldown_s: float = 21600.0  # 6 h before the same graph again
    max_per_day: int = 8
    debt_floor: float = 0.12
    max_5h: float = 55.0
    max_7d: float = 80.0
    gauge_max_age_s: float = 5400.0  # 90 min
    timeout_s: float = 420.0
    pass_interval_days: float = 21.0
    pass_min_nodes: int = 8
    pass_max_per_day: int = 1
    pass_max_5h: float = 40.0
    pass_max_7d: float = 70.0
    pass_pace_max: float = 1.0
    pass_timeout_s: float = 1500.0
    budget_notices: bool = True
    antigravity_allow_credits: bool = False
    warning: str | None = None
    ignored: str | None = None  # gates set above their defaults: they only lower them (said, not fatal)


_NUMBERS = ("min_interval_s", "graph_cooldown_s", "debt_floor", "max_5h", "max_7d", "gauge_max_age_s", "timeout_s",
            "pass_interval_days", "pass_max_5h", "pass_max_7d", "pass_pace_max", "pass_timeout_s")
_RUN_TIMES = frozenset(("timeout_s", "pass_timeout_s"))  # a run given no time is killed as it starts
_COUNTS = ("max_per_day", "pass_max_per_day", "pass_min_nodes")
_STRINGS = ("model", "codex_model", "antigravity_model", "claude_bin", "codex_bin", "antigravity_bin")
_BOOLS = ("enabled", "budget_notices", "antigravity_allow_credits")
_OFF_WORDS = frozenset({"0", "false", "no", "off", ""})
_ON_WORDS = frozenset({"1", "true", "yes", "on"})
# The quota gates: chores.json may lower them, never raise them (a run above them spends what the working
# sessions are about to be told to save: the budget notices start at 80% of the 5-hour window).
_GATES = ("max_5h", "max_7d", "pass_max_5h", "pass_max_7d")


def env_flag(value: str | None) -> bool | None:
    """KG_CHORES / KG_BUDGET_NOTICES: None when unset, else whether it says on. A word that says neither is
    off (env_said names it): KG_CHORES=never switched on runs that spend the user's quota."""
    return None if value is None else value.strip().lower() in _ON_WORDS


def env_said(name: str, value: str | None) -> str | None:
    """What is wrong with the variable's value, or None: a word that is neither on nor off."""
    if value is None or value.strip().lower() in _ON_WORDS | _OFF_WORDS:
        return None
    return f"{name}={value!r} is neither on (1, true, yes, on) nor off (0, false, no, off): read as off"


def _field_error(data: Mapping[str, Any]) -> str | None:
    for name in _BOOLS:
        if name in data and not isinstance(data[name], bool):
            return f"{name}: must be true or false"
    for name in _NUMBERS:
        v = data.get(name)
        least = 1 if name in _RUN_TIMES else 0  # a run given under a second is killed as it starts
        if name in data and (isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
                             or v < least):
            return f"{name}: must be a number of at least {least}" + (" (seconds)" if least else "")
    for name in _COUNTS:
        v = data.get(name)
        if name in data and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
            return f"{name}: must be a whole number of at least 0"
    for name in _STRINGS:
        if name in data and data[name] is not None and not (isinstance(data[name], str) and data[name].strip()):
            return f"{name}: must be a non-empty string"
    if "runner" in data and data["runner"] not in RUNNERS:
        return f"runner: must be one of {', '.join(RUNNERS)}"
    return None


def parse_config(raw: bytes | None, chores_env: str | None = None, notices_env: str | None = None) -> ChoreConfig:
    """The file's bytes (None: no file) and KG_CHORES / KG_BUDGET_NOTICES. Never raises.

    KG_CHORES=0 wins over the file; KG_CHORES=1 switches chores on over a file that
    says off. An unreadable file leaves chores off whatever the environment says:
    its limits are unknown, and a run spends the user's quota.
    """
    env_on, notices_on = env_flag(chores_env), env_flag(notices_env)
    data: dict[str, Any] = {}
    warning = None
    unknown: list[str] = []
    if raw is not None:
        try:
            parsed = strict_json.loads(raw)
        except ValueError as exc:
            parsed, warning = None, f"chores.json is not valid JSON ({exc}): chores stay off"
        if parsed is not None and not isinstance(parsed, dict):
            warning = f"chores.json must hold a JSON object, not {type(parsed).__name__}: chores stay off"
        elif isinstance(parsed, dict):
            problem = _field_error(parsed)
            if problem:
                warning = f"chores.json: {problem}: chores stay off"
            else:
                known = {f.name for f in attrs.fields(ChoreConfig)} - {"warning", "ignored"}
                data = {k: v for k, v in parsed.items() if k in known}
                unknown = sorted(k for k in parsed if k not in known)
    if warning:
        return ChoreConfig(enabled=False, budget_notices=notices_on is not False, warning=warning)
    if env_on is not None:
        data["enabled"] = env_on
    if notices_on is False:
        data["budget_notices"] = False
    for name in _NUMBERS:
        if name in data:
            data[name] = float(data[name])
    said = [env_said("KG_CHORES", chores_env), env_said("KG_BUDGET_NOTICES", notices_env), _clamp_gates(data)]
    if unknown:  # a misspelt limit ("max5h") dropped without a word left the default in force
        said.append(f"chores.json: {', '.join(_with_guess(k) for k in unknown)} "
                    f"{'is not a setting' if len(unknown) == 1 else 'are not settings'}: ignored")
    return ChoreConfig(**data, ignored="; ".join(x for x in said if x) or None)


def _clamp_gates(data: dict[str, Any]) -> str | None:
    """Each gate above its default back to the default (in `data`); what was ignored, or None."""
    defaults = {f.name: f.default for f in attrs.fields(ChoreConfig)}
    over = [f"{name} {data[name]:g} is above its default {defaults[name]:g}" for name in _GATES
            if name in data and data[name] > defaults[name]]
    for name in _GATES:
        if name in data:
            data[name] = min(data[name], defaults[name])
    if not over:
        return None
    return f"chores.json: {'; '.join(over)}: ignored, the default holds (a quota gate may only be lowered)"



def _with_guess(key: str) -> str:
    """An unknown key, with the setting it likely means."""
    known = [f.name for f in attrs.fields(ChoreConfig) if f.name not in ("warning", "ignored")]
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.7)
    return f"{key!r}" + (f" (did you mean {close[0]}?)" if close else "")


@attrs.frozen
class ChoreState:
    """What chore_state.json keeps: when the last run started, today's counts, each graph's last run."""

    last_ts: float | None = None
    day: str = ""
    count: int = 0
    pass_count: int = 0
    graphs: dict[str, float] = attrs.field(factory=dict)
    passes: dict[str, float] = attrs.field(factory=dict)
    running: dict[str, Any] | None = None  # the run in flight: its leash's pid and start time, its dispatch

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def utc_day(now: float) -> str:
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


def parse_state(data: object) -> ChoreState:
    """A stored state; anything malformed reads as a fresh one (the caps then count from zero)."""
    if not isinstance(data, dict):
        return ChoreState()

    def stamps(v: object) -> dict[str, float]:
        if not isinstance(v, dict):
            return {}
        return {k: float(t) for k, t in v.items() if isinstance(k, str) and isinstance(t, int | float)
                and not isinstance(t, bool) and math.isfinite(t)}

    last = data.get("last_ts")
    return ChoreState(
        last_ts=float(last) if isinstance(last, int | float) and not isinstance(last, bool) else None,
        day=data["day"] if isinstance(data.get("day"), str) else "",
        count=data["count"] if isinstance(data.get("count"), int) else 0,
        pass_count=data["pass_count"] if isinstance(data.get("pass_count"), int) else 0,
        graphs=stamps(data.get("graphs")), passes=stamps(data.get("passes")),
        running=data["running"] if isinstance(data.get("running"), dict) else None)


def rolled(state: ChoreState, now: float) -> ChoreState:
    """Today's counters: a new UTC day starts both caps from zero."""
    day = utc_day(now)
    return state if state.day == day else attrs.evolve(state, day=day, count=0, pass_count=0)


@attrs.frozen
class Reading:
    """One quota reading: used percentages, reset times (epoch s), and when it was taken."""

    source: str
    five_hour_pct: float | None
    seven_day_pct: float | None
    five_hour_resets_at: float | None
    seven_day_resets_at: float | None
    seen_at: float  # the oldest window's reading time: the age of the reading
    five_hour_raw: float | None = None  # a use read over 100 (held above as 100: the quota used up)
    seven_day_raw: float | None = None

    def age(self, now: float) -> float:
        return now - self.seen_at


@attrs.frozen
class GraphFacts:
    key: str  # "user" or "project:<slug>"
    debt: float
    active_nodes: int
    last_maintain_ts: float | None
    project_path: str | None = None


@attrs.frozen
class Decision:
    action: str  # "dispatch" or "skip"
    reason: str
    tier: str | None = None  # "chore" or "pass"
    graph: GraphFacts | None = None
    state: ChoreState | None = None  # the counters as they are once this run is written down
    notes: tuple[str, ...] = ()  # why a pass was not the answer, when a chore is

    @property
    def dispatch(self) -> bool:
        return self.action == "dispatch"


def skip(reason: str, notes: Sequence[str] = ()) -> Decision:
    return Decision("skip", reason, notes=tuple(notes))


def weekly_pace(reading: Reading, now: float) -> float | None:
    """Used share of the week over elapsed share: 1.0 is the even pace; None while too early to say."""
    if reading.seven_day_pct is None or reading.seven_day_resets_at is None:
        return None
    elapsed = 1.0 - (reading.seven_day_resets_at - now) / WEEK
    if elapsed < PACE_MIN_ELAPSED or elapsed > 1.0:
        return None
    return (reading.seven_day_pct / 100.0) / elapsed


# Gauges whose plans may have no five-hour window (Antigravity's weekly-only plans); elsewhere one missing is
# a reading that lacks what it must hold, and refuses the run.
FIVE_HOUR_OPTIONAL = frozenset({"antigravity"})


def _over(reading: Reading, max_5h: float, max_7d: float, who: str) -> str | None:
    if reading.five_hour_pct is None and reading.source not in FIVE_HOUR_OPTIONAL:
        return "5h reading missing"
    if reading.five_hour_pct is not None and reading.five_hour_pct >= max_5h:
        return f"5h {_used(reading.five_hour_pct, reading.five_hour_raw)} ({who} need < {max_5h:g}%)"
    if reading.seven_day_pct is None:
        return "weekly reading missing"
    if reading.seven_day_pct >= max_7d:
        return f"7d {_used(reading.seven_day_pct, reading.seven_day_raw)} ({who} need < {max_7d:g}%)"
    return None


def _used(pct: float, raw: float | None) -> str:
    return f"{pct:g}%" if raw is None else f"{raw:g}%, over the limit, read as {pct:g}%"


def pass_gate(cfg: ChoreConfig, reading: Reading, now: float) -> str | None:
    # The user's caps bind every run: a pass (the dearest kind) never goes above what chores may use.
    over = _over(reading, min(cfg.pass_max_5h, cfg.max_5h), min(cfg.pass_max_7d, cfg.max_7d), "passes")
    if over:
        return "pass: " + over
    pace = weekly_pace(reading, now)
    if pace is None:
        return "pass: weekly pace unknown"
    if pace > cfg.pass_pace_max:
        return f"pass: week running at {pace:.2f}x pace, no surplus"
    return None


def pass_due(cfg: ChoreConfig, g: GraphFacts, now: float) -> bool:
    if g.active_nodes < cfg.pass_min_nodes:
        return False
    return g.last_maintain_ts is None or now - g.last_maintain_ts >= cfg.pass_interval_days * DAY


def _since(now: float, stamp: float | None) -> float:
    """Seconds since a stored run's stamp. One further ahead than CLOCK_SLACK_S is from a clock that moved
    back: it is no recent run (else it would block runs for as long as the clock was off)."""
    if stamp is None or stamp - now > CLOCK_SLACK_S:
        return math.inf
    return now - stamp


def _minutes(seconds: float) -> str:
    """90 min, or 90 min 1 s: never a rounding that makes a refused age read like its limit."""
    whole, rest = divmod(int(seconds), 60)
    return f"{whole} min" + (f" {rest} s" if rest else "")


def spacing(cfg: ChoreConfig, state: ChoreState, now: float) -> str | None:
    since = _since(now, state.last_ts)
    if since < 0:
        return f"spacing: the last run's time is {-since:.0f} s in the future (the clock moved back?)"
    if since < cfg.min_interval_s:
        return f"spacing: {_minutes(since)} since the last run (at least {_minutes(cfg.min_interval_s)})"
    return None


def decide(cfg: ChoreConfig, state: ChoreState, now: float, running: bool, reading: Reading | str | None,
           graphs: Sequence[GraphFacts]) -> Decision:
    """The one answer to a prompt: dispatch a pass or a chore on one graph, or skip and say why."""
    if not cfg.enabled:
        return skip(cfg.warning or "chores are off")
    if running:
        return skip("a run is in flight")
    too_soon = spacing(cfg, state, now)
    if too_soon:
        return skip(too_soon)
    state = rolled(state, now)
    if reading is None or isinstance(reading, str):
        return skip(f"gauge unreadable: {reading or 'no reading'}")
    age = reading.age(now)
    if age > cfg.gauge_max_age_s:
        return skip(f"gauge stale: {_minutes(age)} old (at most {_minutes(cfg.gauge_max_age_s)})")
    notes: list[str] = []
    due = sorted((g for g in graphs if pass_due(cfg, g, now)), key=lambda g: g.last_maintain_ts or 0.0)
    if due:
        refusal = ("daily pass cap" if state.pass_count >= cfg.pass_max_per_day
                   else f"daily run cap (max_per_day {cfg.max_per_day})" if runs_today(state) >= cfg.max_per_day
                   else pass_gate(cfg, reading, now))
        if refusal is None:
            g = due[0]
            after = attrs.evolve(state, last_ts=now, pass_count=state.pass_count + 1,
                                 passes={**state.passes, g.key: now}, graphs={**state.graphs, g.key: now})
            return Decision("dispatch", f"pass due: {_untended(g, now)}", "pass", g, after)
        notes.append(refusal)
    if runs_today(state) >= cfg.max_per_day:
        return skip(f"daily chore cap ({cfg.max_per_day})", notes)
    over = _over(reading, cfg.max_5h, cfg.max_7d, "chores")
    if over:
        return skip(over, notes)
    ready = [g for g in graphs if g.debt >= cfg.debt_floor
             and _since(now, state.graphs.get(g.key)) >= cfg.graph_cooldown_s]
    if not ready:
        return skip(f"no graph at the debt floor ({cfg.debt_floor:g}) off its cooldown", notes)
    g = max(ready, key=lambda g: g.debt)
    after = attrs.evolve(state, last_ts=now, count=state.count + 1, graphs={**state.graphs, g.key: now})
    return Decision("dispatch", f"debt {g.debt:g}", "chore", g, after, tuple(notes))


def runs_today(state: ChoreState) -> int:
    """The day's runs, chores and passes alike: max_per_day caps them all (a pass spends the most)."""
    return state.count + state.pass_count


def _untended(g: GraphFacts, now: float) -> str:
    if g.last_maintain_ts is None:
        return "never maintained"
    return f"untended {(now - g.last_maintain_ts) / DAY:.0f}d"


def recheck(decided: Decision, decided_cfg: ChoreConfig, cfg: ChoreConfig, decided_state: ChoreState,
            state: ChoreState, reading: Reading | str | None, now: float) -> str | None:
    """Just before spawning: what changed since the decision refuses the run (None: go)."""
    if not cfg.enabled or cfg.runner != decided_cfg.runner:
        return "config changed"
    if reading is None or isinstance(reading, str) or reading.age(now) > cfg.gauge_max_age_s:
        return "gauge went stale"
    if state != decided_state:
        return "a concurrent dispatch won"
    if decided.state is not None and decided.state.day != utc_day(now):
        return "the day turned"  # its count is the day before's: today's cap would not see it
    return None


def at_spawn(decided: Decision, now: float) -> ChoreState:
    """The counters saved as the run starts, stamped with the spawn's `now`: spacing and cooldowns count
    from when a run really started, not from its decision (which awaits gauge reads and a git walk)."""
    assert decided.state is not None and decided.graph is not None
    state, key = decided.state, decided.graph.key
    passes = {**state.passes, key: now} if decided.tier == "pass" else state.passes
    return attrs.evolve(state, last_ts=now, graphs={**state.graphs, key: now}, passes=passes)
