"""Chore dispatch under racing prompts: at most one background run, spaced, capped, never past a re-check.

Models the ChoreSupervisor (kg_actors/chores/supervisor.py) and its pure rules (core/chores.py):
- a session's prompt hook hands the prompt off after its reply (`trigger.after_prompt`,
  `ChoreHandle.prompted`: a non-blocking send to the supervisor's mailbox);
- `run_chore_supervisor`'s loop takes one message at a time from a burst: prompts queued behind
  each other collapse to the newest; a JobDone (or the burst's end) first has the pending prompt
  decided; a burst may end early (its limit), so a prompt may be decided with more queued;
- `Supervisor.on_prompt` in two atomic steps, because it awaits in between (gauge read, graph
  facts, `compose`): "decide" (config on, the `running` guard, `rules.spacing`, `rules.decide`'s
  daily cap and gauge age, at the decision's `now`) and "spawn" (`rules.recheck` at `now2`:
  config still on, gauge still fresh; `save_state`; `running` set; the job started);
- the job (`Supervisor.job`): it finishes or crashes, and either way sends JobDone
  (`on_job_done` frees the slot); meanwhile the clock ticks, chores.json is switched off (or on
  again), and the quota gauge goes stale (or is rewritten fresh).

Bounds: 2 sessions with 2 prompts each, the clock 0..5 (a day is 3 ticks, min spacing 2 ticks,
2 chores a day), 2 config changes, 2 gauge changes.
Invariants:
- one job: never two jobs running at once;
- re-checked: no spawn while config is off or the gauge is stale at spawn time;
- spacing: runs start at least the spacing apart;
- daily cap: no day starts more than the cap of runs;
- slot freed: once the job has ended (finished or crashed) and its JobDone is handled, with
  nothing queued or deciding, the slot is free (so a later prompt may dispatch).
Designs: "no_guard" decides without the `running` guard (a slow job and a prompt past the spacing:
two jobs, 10 steps); "no_recheck" spawns what was decided without `rules.recheck` (config switched
off during the decision's awaits, 5 steps); "decide_stamp" stamps the run at the decision's `now`
(the code before this model): a run spawned a tick after its decision lets the next start closer
than the spacing (12 steps), and one decided before midnight but started after it is counted on
the day before. "crash_silent" is a job whose crash sends no JobDone (`Supervisor.job` without its
`except`): the slot stays taken for good (5 steps). "ours" stamps at `now2` and refuses a decision that straddled a day (`recheck`).
"""

from __future__ import annotations

import attrs

from ..explore import Model

SESSIONS = 2
PROMPTS = 2  # per session
T = 5
DAY = 3
SPACING = 2
CAP = 2
CONFIG_CHANGES = 2
GAUGE_CHANGES = 2


@attrs.frozen
class S:
    t: int = 0
    sent: tuple[int, ...] = (0,) * SESSIONS
    inbox: tuple[str, ...] = ()  # "P" (a prompt) or "D" (JobDone), oldest first
    pending: bool = False  # a prompt taken from the burst, not yet decided
    deciding: tuple[int, int] | None = None  # (decision's now, the day it counted on) between decide and spawn
    running: bool = False  # the supervisor's slot
    jobs: int = 0  # processes alive
    cfg_on: bool = True
    cfg_changes: int = 0
    fresh: bool = True  # the gauge's reading is within its max age
    gauge_changes: int = 0
    last_ts: int | None = None  # chore_state.json
    day: int = -1
    count: int = 0
    spawns: tuple[int, ...] = ()  # when each run actually started
    bad_spawn: bool = False  # a spawn while config was off or the gauge stale


def make(design: str) -> Model:
    guard = design != "no_guard"
    recheck = design != "no_recheck"
    at_spawn = design != "decide_stamp"

    def steps(s: S):
        for i in range(SESSIONS):
            if s.sent[i] < PROMPTS:
                yield f"session {i} prompts", attrs.evolve(
                    s, sent=tuple(n + (j == i) for j, n in enumerate(s.sent)), inbox=(*s.inbox, "P"))
        if s.t < T:
            yield f"clock → {s.t + 1}", attrs.evolve(s, t=s.t + 1)
        if s.cfg_changes < CONFIG_CHANGES:
            yield f"chores.json {'off' if s.cfg_on else 'on'}", attrs.evolve(
                s, cfg_on=not s.cfg_on, cfg_changes=s.cfg_changes + 1)
        if s.gauge_changes < GAUGE_CHANGES:
            yield f"gauge {'stale' if s.fresh else 'fresh'}", attrs.evolve(
                s, fresh=not s.fresh, gauge_changes=s.gauge_changes + 1)
        if s.jobs:
            done = attrs.evolve(s, jobs=s.jobs - 1, inbox=(*s.inbox, "D"))
            yield "job finishes", done
            if design == "crash_silent":
                yield "job crashes", attrs.evolve(s, jobs=s.jobs - 1)
            else:
                yield "job crashes", done  # Supervisor.job catches it and still sends JobDone
        if s.deciding is not None:
            yield from spawn(s)
            return  # on_prompt holds the actor until it returns
        if s.inbox:
            head, rest = s.inbox[0], s.inbox[1:]
            if head == "P":
                yield "supervisor takes a prompt", attrs.evolve(s, inbox=rest, pending=True)
            elif not s.pending:
                yield "supervisor: JobDone frees the slot", attrs.evolve(s, inbox=rest, running=False)
        if s.pending:  # a JobDone next, the burst's end, or its limit: the prompt is decided now
            yield from decide(attrs.evolve(s, pending=False))

    def decide(s: S):
        day = s.t // DAY
        count = s.count if s.day == day else 0  # rules.rolled
        if not s.cfg_on:
            yield "decide: off", s
        elif guard and s.running:
            yield "decide: a run is in flight", s
        elif s.last_ts is not None and s.t - s.last_ts < SPACING:
            yield "decide: spacing", s
        elif count >= CAP:
            yield "decide: daily cap", s
        elif not s.fresh:
            yield "decide: gauge stale", s
        else:
            yield f"decide: dispatch at {s.t}", attrs.evolve(s, deciding=(s.t, day))

    def spawn(s: S):
        assert s.deciding is not None
        t_dec, day = s.deciding
        idle = attrs.evolve(s, deciding=None)
        if recheck and (not s.cfg_on or not s.fresh):
            yield "re-check refuses", idle
            return
        if at_spawn and recheck and s.t // DAY != day:
            yield "re-check refuses: the day turned", idle
            return
        count = (s.count if s.day == day else 0) + 1
        yield f"spawn at {s.t}", attrs.evolve(
            idle, last_ts=s.t if at_spawn else t_dec, day=day, count=count, running=True, jobs=s.jobs + 1,
            spawns=(*s.spawns, s.t), bad_spawn=s.bad_spawn or not s.cfg_on or not s.fresh)

    return Model(f"chore_dispatch({design})", S(), steps, {
        "one job": lambda s: s.jobs <= 1,
        "re-checked": lambda s: not s.bad_spawn,
        "spacing": lambda s: all(b - a >= SPACING for a, b in zip(s.spawns, s.spawns[1:], strict=False)),
        "daily cap": lambda s: all(sum(1 for x in s.spawns if x // DAY == d) <= CAP for d in range(T // DAY + 1)),
        "slot freed": lambda s: s.jobs or s.inbox or s.pending or s.deciding is not None or not s.running,
    })


MODELS = [make("no_guard"), make("no_recheck"), make("decide_stamp"), make("crash_silent"), make("ours")]
EXPECTED = {"chore_dispatch(no_guard)": "one job", "chore_dispatch(no_recheck)": "re-checked",
            "chore_dispatch(decide_stamp)": "spacing", "chore_dispatch(crash_silent)": "slot freed",
            "chore_dispatch(ours)": None}
