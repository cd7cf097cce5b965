"""The ChoreSupervisor: an actor that decides, on a human prompt, whether to start one maintenance run.

It owns the one job slot (a nursery holding at most one running job), the
counters in chore_state.json, and chores.jsonl's decisions. A prompt reaches
it after its hook reply is sent (`ChoreHandle.prompted` never waits); prompts
queued while it decides are folded into the newest. With chores off a prompt
costs one `stat` of chores.json (none with KG_CHORES=0). The decision is
core/chores.py's, re-checked just before the spawn; the run is runners.py's.
"""

from __future__ import annotations

import hmac
import logging
import math
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import trio

from .. import actor
from ..core import chore_outcome, chore_pick, debt, pass_marks
from ..core import chores as rules
from ..core.constants import CHORES_LOG_MAX_BYTES
from ..core.maintenance_guards import HELD_WINDOW_S
from ..storage import files, user_files
from ..storage.logs import read_jsonl
from ..touch_check import where_gone
from . import gauge_files, left_runs, prompts, runners
from . import messages as m
from .config import ConfigWatcher

log = logging.getLogger(__name__)

STATE_FILE = "chore_state.json"
LOG_FILE = "chores.jsonl"
# The runs alone (each dispatch and its outcome), beside every decision in chores.jsonl: refusals, logged on
# prompts all week, must not push the runs out of the Budget tab's view.
RUNS_FILE = "chore_runs.jsonl"
RUNS_LOG_MAX_BYTES = 1024 * 1024
RECENT_TARGETS = 10  # targets of the last chores: never chewed again at once
DECIDE_EVERY_S = 60.0  # at most one full decision (gauge read, debt survey) a minute
ANCHOR_LOOKUPS = 12  # gone touches looked up for an anchor chore per decision (git log, a bounded walk)
_HARNESS_RUNNER = {"claude-code": "claude", "codex": "codex", "antigravity-cli": "antigravity"}


@attrs.define
class Deps:
    """What the supervisor reaches: all of it through other actors' handles or the disk."""

    root: Path
    layout: Any
    directory: Any
    sessions: Any
    logbook: Any
    clock: Callable[[], float]
    mcp_url: Callable[[], str]
    env: Mapping[str, str] = attrs.field(factory=lambda: dict(os.environ))
    grace_s: float = runners.GRACE_SECONDS
    run: Callable[..., Any] = runners.run  # the process's life (tests of the time rules pass a fake)


class Supervisor:
    def __init__(self, deps: Deps, handle: m.ChoreHandle):
        self.d = deps
        self.handle = handle
        self.watcher = ConfigWatcher(deps.root, dict(deps.env))
        self.state: rules.ChoreState | None = None  # loaded on the first decision that needs it
        self.running: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None
        self.recent: list[str] = []
        self.decided_at = -math.inf
        self.decided_with: rules.ChoreConfig | None = None
        self.decided_why = ""  # the refusal of that decision, which stands for DECIDE_EVERY_S
        self.mark: str | None = None  # the running job's mark: its MCP calls carry it (runners.RUN_PARAM)
        self.tally = chore_outcome.Tally()  # the running job's kg calls so far

    # Logging and state --------------------------------------------------------------------
    def note(self, event: str, now: float, **fields: Any) -> None:
        record = {"ts": round(now, 3), "event": event, **fields}
        self.last = record
        self.d.logbook.append(self.d.root / LOG_FILE, [record], CHORES_LOG_MAX_BYTES)
        if event == "dispatch" or event in left_runs.OUTCOMES:
            self.d.logbook.append(self.d.root / RUNS_FILE, [record], RUNS_LOG_MAX_BYTES)

    async def load_state(self) -> rules.ChoreState:
        if self.state is None:
            try:
                data = await trio.to_thread.run_sync(user_files.load_json, self.d.root / STATE_FILE)
            except (OSError, ValueError):  # missing, torn, or odd numbers (strict_json): a fresh state
                data = None
            self.state = rules.parse_state(data)
        return self.state

    async def save_state(self, state: rules.ChoreState) -> str | None:
        try:
            await trio.to_thread.run_sync(files.write_atomic, self.d.root / STATE_FILE,
                                          files.dump_json(state.to_json()), False)
        except OSError as exc:
            return f"state write failed: {exc}"
        self.state = state
        return None

    # Reading the world ---------------------------------------------------------------------
    async def gauge(self, runner: str, cfg: rules.ChoreConfig, binary: str | None, now: float) -> rules.Reading | str:
        if runner == "claude":
            return await trio.to_thread.run_sync(gauge_files.read_claude, self.d.root, now)
        if runner == "codex":
            home = gauge_files.codex_home(self.d.env)
            return await trio.to_thread.run_sync(gauge_files.read_codex, home, now, cfg.gauge_max_age_s)
        if not binary:
            return "agy binary missing"
        return await gauge_files.read_agy(binary, self.d.root, runners.chore_env(self.d.env, "antigravity"), now,
                                          cfg.antigravity_model)

    async def facts(self, project_path: str | None, now: float) -> list[tuple[rules.GraphFacts, Any]]:
        keys = ["user"]
        if project_path and self.d.directory.has_graph_for(project_path):
            keys.append(await self.d.directory.project_key(project_path))
        out = []
        for key in keys:
            handle = await self.d.directory.get(key)
            graph = handle.snapshot()
            d = await handle.debt(now=now)
            last = pass_marks.completed_ts(graph.progress.get("maintain"))  # a completed pass only
            out.append((rules.GraphFacts(key, d.score, d.nodes, last, graph.project_path), handle))
        return out

    # The decision ----------------------------------------------------------------------------
    async def on_prompt(self, msg: m.Prompted, jobs: trio.Nursery) -> None:
        if self.watcher.chores_forced_off:
            return
        cfg = self.watcher.current()
        if not cfg.enabled:
            return  # off is no decision: nothing is logged per prompt
        now = self.d.clock()
        view = await self.d.sessions.find_by_claude(claude_sid=msg.harness_sid) if msg.harness_sid else None
        if view is None or view.maintenance:
            if view is None:
                self.note("skip", now, reason="prompt from an unknown session")
            return
        state = await self.load_state()
        if self.running is not None:
            self.note("skip", now, reason="a run is in flight")
            return
        runner = runners.pick_runner(cfg, view.harness and _HARNESS_RUNNER.get(view.harness), self.d.env)
        binary = runners.find_binary(runner, cfg, self.d.env)
        too_soon = rules.spacing(cfg, state, now)  # before any gauge read: the common answer, and cheap
        if too_soon:
            self.note("skip", now, reason=too_soon)
            return
        if now - self.decided_at < DECIDE_EVERY_S and cfg is self.decided_with:
            # A refusal a moment ago still stands (chores.json unchanged): no gauge read or survey per prompt,
            # but a line like every decision's.
            self.note("skip", now, reason=f"{self.decided_why} (decided {now - self.decided_at:.0f} s ago: "
                                          f"it stands for {DECIDE_EVERY_S:.0f} s)")
            return
        self.decided_at, self.decided_with, self.decided_why = now, cfg, "the decision failed"
        reading = await self.gauge(runner, cfg, binary, now)
        graphs = await self.facts(view.project_path, now)
        decision = rules.decide(cfg, state, now, False, reading, [g for g, _ in graphs])
        base = {"runner": runner, "session": view.sid, "gauge": _gauge_dict(reading, now)}
        if not decision.dispatch:
            self.decided_why = decision.reason
            self.note("skip", now, reason=decision.reason, notes=list(decision.notes), **base)
            return
        assert decision.graph is not None and decision.state is not None and decision.tier is not None
        problem = runners.binary_problem(binary, runner)
        if problem is None and runner == "antigravity":
            problem = runners.agy_refusal(cfg.antigravity_allow_credits,
                                          Path(self.d.env.get("HOME") or os.path.expanduser("~")))
        g = decision.graph
        if problem is None and g.project_path and not os.path.isdir(g.project_path):
            problem = "project gone"
        handle = next(h for f, h in graphs if f.key == g.key)
        job = await self.compose(decision, handle, g, now) if problem is None else None
        if problem is None and job is None:
            problem = f"no eligible target in {g.key} (debt {g.debt:g})"
        if problem is not None:
            self.decided_why = problem
            self.note("skip", now, reason=problem, tier=decision.tier, graph=g.key, **base)
            return
        assert job is not None
        prompt, extra = job
        # The re-check: what moved while this was decided refuses the run.
        now2 = self.d.clock()
        refusal = rules.recheck(decision, cfg, self.watcher.current(), state, self.state or state, reading, now2)
        if refusal is None:
            refusal = await self.save_state(rules.at_spawn(decision, now2))
        if refusal is not None:
            self.decided_why = refusal
            self.note("skip", now2, reason=refusal, tier=decision.tier, graph=g.key, **base)
            return
        if decision.tier == "chore":
            self.recent = (self.recent + list(extra.get("targets", [])))[-RECENT_TARGETS:]
        timeout = cfg.pass_timeout_s if decision.tier == "pass" else cfg.timeout_s
        self.mark, self.tally = secrets.token_urlsafe(16), chore_outcome.Tally()
        argv = runners.command(runner, binary or runner, cfg, decision.tier,
                               runners.marked_url(self.d.mcp_url(), self.mark))
        record = {"tier": decision.tier, "graph": g.key, "debt": g.debt, "reason": decision.reason,
                  "notes": list(decision.notes), **extra, **base}
        self.note("dispatch", now2, **record)
        self.decided_at = -math.inf  # a dispatch is no refusal to stand: the next prompt after it is decided
        self.running = {**record, "started": now2}
        cwd = self.d.root
        if runner == "antigravity":
            await trio.to_thread.run_sync(runners.write_agy_agent, self.d.root)
            cwd = runners.agy_workspace(self.d.root)
        jobs.start_soon(self.job, argv, runners.stdin_for(runner, prompt), cwd, timeout,
                        {**record, "ts": round(now2, 3)}, handle, self.mark)

    async def compose(self, decision: rules.Decision, handle: Any, g: rules.GraphFacts,
                      now: float) -> tuple[str, dict[str, Any]] | None:
        """The run's prompt and what the log says of its targets; None when no chore is eligible."""
        line = debt.debt_line(await handle.debt(now=now))
        missing = handle.view_now().missing_touches
        held = await self.d.sessions.held_ids(since=now - HELD_WINDOW_S)
        if decision.tier == "pass":
            return prompts.pass_prompt(g.key, g.project_path, line, sorted(held)), {"held": len(held)}
        anchors: dict[str, tuple[str, str]] = {}
        if missing and g.project_path:
            gone = sorted(missing)[:ANCHOR_LOOKUPS]
            found = await trio.to_thread.run_sync(where_gone, gone, g.project_path)
            anchors = {node: (touch, found[touch]) for node, touch in _holders(handle.snapshot(), found)}
        view = handle.view_now()  # the latest, after the awaits
        graph = view.graph
        # What passes and chores declined on this graph (their kg_progress stamps live on it).
        declined = pass_marks.declined_ids(graph.progress.get("maintain")) | pass_marks.declined_ids(
            graph.progress.get("chore"))
        chore = chore_pick.pick_chore(graph, view.missing_touches, now, held=held, declined=declined,
                                      recent=self.recent, anchors=anchors)
        if chore is None:
            return None
        return (chore_pick.chore_prompt(chore, g.project_path, line),
                {"kind": chore.kind, "targets": list(chore.targets)})

    # The job ---------------------------------------------------------------------------------
    async def job(self, argv: list[str], stdin: bytes, cwd: Path, timeout: float, record: dict[str, Any],
                  handle: Any, mark: str | None = None) -> None:
        out: dict[str, Any] = {"tier": record["tier"], "graph": record["graph"], "runner": record["runner"],
                               "started": record["ts"]}

        async def started(pid: int) -> None:  # a later server ends this group should this one die first
            entry = {"pid": pid, "proc_start": left_runs.process_start(pid), **out}
            if self.state is not None:
                await self.save_state(attrs.evolve(self.state, running=entry))

        try:
            env = runners.chore_env(self.d.env, record["runner"], mark)
            result = await self.d.run(argv, stdin, cwd, env, timeout, self.d.grace_s, on_start=started)
            if result.error:
                out.update(event="spawn_failed", reason=result.error)
            else:
                out.update(event="done", rc=result.rc, elapsed_s=result.elapsed_s, timed_out=result.timed_out,
                           output=result.output[-400:])
                try:
                    out["debt_after"] = (await handle.debt(self.d.clock())).score
                except Exception:  # the graph may have been removed meanwhile
                    pass
        except Exception as exc:
            log.exception("chore job failed")
            out.update(event="spawn_failed", reason=repr(exc))
        await self.handle.job_done(out)

    def run_live(self, mark: str) -> bool:
        live = self.mark
        return self.running is not None and live is not None and hmac.compare_digest(mark.encode(), live.encode())

    def on_run_called(self, msg: m.RunCalled) -> bool:
        if self.run_live(msg.mark):  # a late call of an ended run counts for none
            self.tally = self.tally.add(msg.wrote)
            return True
        return False

    async def keep_tally(self) -> None:
        """The counts so far beside the run's leash: a server stopped mid-run still logs what the run did."""
        left = self.state.running if self.state is not None else None
        if self.state is not None and left is not None:
            counts = {"kg_calls": self.tally.calls, "kg_writes": self.tally.writes}
            await self.save_state(attrs.evolve(self.state, running={**left, **counts}))

    async def on_job_done(self, msg: m.JobDone) -> None:
        record = dict(msg.record)
        event = record.pop("event", "done")
        tally = self.tally
        if event == "done":
            record.update(kg_calls=tally.calls, kg_writes=tally.writes, outcome=chore_outcome.outcome(
                record.get("rc"), bool(record.get("timed_out")), tally.calls, tally.writes))
        if tally.calls == 0 and self.running is not None:
            # It never reached kg, so it chewed none of its targets: they may be picked again (the caps,
            # spacing and the graph's cooldown still count the run: it may have spent quota all the same).
            mine = list(self.running.get("targets", ()))
            if mine and self.recent[-len(mine):] == mine:  # one run at a time: its targets are the newest
                self.recent = self.recent[:-len(mine)]
        self.note(event, self.d.clock(), **record)
        self.running, self.mark = None, None
        if self.state is not None and self.state.running is not None:
            await self.save_state(attrs.evolve(self.state, running=None))

    async def recover(self) -> None:
        """At startup: end what the last server's run left running, and close every run it left open."""
        state = await self.load_state()
        left, fate = state.running, None
        if left is not None:
            fate = await left_runs.end_left_run(left, self.d.grace_s)
            await self.save_state(attrs.evolve(state, running=None))
        records = await trio.to_thread.run_sync(load_log, self.d.root, 10**9)
        runs = left_runs.open_runs(records)
        if left is not None and not any(r.get("ts") == left.get("started") for r in records
                                        if r.get("event") == "dispatch"):
            runs.append(left)  # killed before its dispatch line was written
        now = self.d.clock()
        for run in runs:
            mine = left is not None and run.get("ts", run.get("started")) == left.get("started")
            self.note("interrupted", now, **left_runs.closing(run, fate if mine else None, left if mine else None))

    def status(self) -> m.ChoreStatus:
        cfg = self.watcher.current()
        return m.ChoreStatus(cfg.enabled, cfg.warning, self.running, self.last, cfg.ignored)


def _holders(graph: Any, found: dict[str, str]) -> list[tuple[str, str]]:
    """(active node, its touch) for each gone touch whose new place is known."""
    return [(i, t) for i in sorted(graph.ids_in_state("active")) for t in graph.nodes[i].touches if t in found]


def _gauge_dict(reading: rules.Reading | str, now: float) -> dict[str, Any]:
    if isinstance(reading, str):
        return {"error": reading}
    return {"source": reading.source, "five_hour_pct": reading.five_hour_pct, "seven_day_pct": reading.seven_day_pct,
            "age_s": round(reading.age(now), 1)}


async def decide(sup: Supervisor, prompt: m.Prompted, jobs: trio.Nursery) -> None:
    try:
        await sup.on_prompt(prompt, jobs)
    except Exception as exc:  # one bad decision must not take the supervisor down
        log.exception("chore decision failed")
        sup.note("skip", sup.d.clock(), reason=f"internal error: {exc!r}")


async def run_chore_supervisor(deps: Deps, *, task_status: trio.TaskStatus[m.ChoreHandle] = trio.TASK_STATUS_IGNORED
                               ) -> None:
    mailbox = actor.Mailbox[m.ChoreMessage[Any]]("chore supervisor")
    handle = m.ChoreHandle(mailbox)
    sup = Supervisor(deps, handle)
    task_status.started(handle)
    try:
        try:
            await sup.recover()  # before any dispatch: one run at a time holds across a crash
        except Exception:
            log.exception("closing the last server's chore run failed")
        async with trio.open_nursery() as jobs:  # at most one job: `running` guards the slot
            async for first in mailbox.receive:
                prompt: m.Prompted | None = None
                for msg in mailbox.burst(first):
                    if isinstance(msg, m.Prompted):
                        msg.reply.set(None)
                        prompt = msg  # prompts queued behind each other: the newest speaks for them
                        continue
                    if prompt is not None:  # a later message sees that prompt's decision made
                        await decide(sup, prompt, jobs)
                        prompt = None
                    if isinstance(msg, m.RunCalled):
                        counted = sup.on_run_called(msg)
                        msg.reply.set(None)  # counted: the reply waits for no file
                        if counted:
                            await sup.keep_tally()
                    elif isinstance(msg, m.JobDone):
                        await sup.on_job_done(msg)
                        msg.reply.set(None)
                    elif isinstance(msg, m.RunLive):
                        msg.reply.set(sup.run_live(msg.mark))
                    elif isinstance(msg, m.GetStatus):
                        msg.reply.set(sup.status())
                if prompt is not None:
                    await decide(sup, prompt, jobs)
            jobs.cancel_scope.cancel()
    finally:
        mailbox.drain_stopped()


def load_log(root: Path, limit: int = 2000) -> list[dict[str, Any]]:
    """chores.jsonl (with its .prev), oldest first (worker thread)."""
    return read_jsonl(root / LOG_FILE)[-limit:]


def load_runs(root: Path, recent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs' records, oldest first: chore_runs.jsonl, after those of `recent` (chores.jsonl's tail) older
    than its first line (a store from before it was kept) (worker thread)."""
    kept = read_jsonl(root / RUNS_FILE)
    first = kept[0].get("ts") if kept else None
    older = [r for r in recent if (r.get("event") == "dispatch" or r.get("event") in left_runs.OUTCOMES)
             and (not isinstance(first, int | float) or not isinstance(r.get("ts"), int | float) or r["ts"] < first)]
    return older + kept




def deps_for(rt: Any) -> Deps:
    """The runtime's parts the supervisor uses; the MCP URL is read when a run starts (the port is bound by then)."""
    return Deps(rt.config.root, rt.layout, rt.directory, rt.sessions, rt.floor.logs.logbook, rt.clock,
                lambda: f"http://{rt.config.host}:{rt.http_port}/mcp")
