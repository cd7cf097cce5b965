"""The ChoreSupervisor actor under Trio's MockClock: spacing, per-graph cooldown, the daily cap, one job at a
time, and every decision (refusals too) in chores.jsonl with its reason. The process is a fake here
(test_runners.py and test_chores_e2e.py run real ones)."""

import json
import math
from pathlib import Path

import trio

from kg_actors.chores import gauge_files, runners
from kg_actors.chores.supervisor import Deps, run_chore_supervisor
from kg_actors.core.model import GraphData, Node
from kg_actors.graph_actor import run_graph_actor
from kg_actors.session_actor import run_session_registry

EPOCH = 1_790_000_000.0
MIN = 60.0


def wall() -> float:
    return EPOCH + trio.current_time()


class Logbook:
    def __init__(self):
        self.records = []  # chores.jsonl's: every decision
        self.runs = []  # chore_runs.jsonl's: the runs alone

    def append(self, path, records, max_bytes):
        assert path.name in ("chores.jsonl", "chore_runs.jsonl")
        (self.records if path.name == "chores.jsonl" else self.runs).extend(records)


class Directory:
    """The two graphs a prompt offers: the user graph and the session's project."""

    def __init__(self, handles, project, on_get=None):
        self.handles, self.project, self.on_get = handles, project, on_get

    def has_graph_for(self, root):
        return root == self.project

    async def project_key(self, root):
        return "project:app"

    async def get(self, key):
        if self.on_get is not None:  # called mid-decision (its graph facts): what moves while it awaits
            await self.on_get()
        return self.handles[key]


def _graph(kind, project_path=None, oversized=("deploy-pipeline-steps",)):
    g = GraphData(kind, project_path)
    for node_id in oversized:
        g.set_node(Node(node_id, "Deploys pass the staging gate first. " * 10, last_read_ts=EPOCH))
    g.set_node(Node("small-lesson-here", "short", last_read_ts=EPOCH))
    g.commit()
    return g


async def _fixture(nursery, tmp_path, runs, outcome=None, chores=None, on_get=None, run_s=2 * MIN, calls=(), pid=None):
    """`calls`: the kg calls (tool, wrote) each run makes, told as the MCP layer tells them, under the mark its
    URL carries. `pid`: the run's process as its start tells the supervisor (none: not told)."""
    store = tmp_path / "store"
    store.mkdir()
    binary = tmp_path / "claude"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    (store / "chores.json").write_text(json.dumps({"enabled": True, "claude_bin": str(binary), **(chores or {})}))
    project = str(tmp_path / "app")
    Path(project).mkdir()
    handles = {}
    for key, kind, path in (("user", "user", None), ("project:app", "project", project),
                            ("maintain", "maintain", None)):
        g = _graph(kind, path) if kind != "maintain" else GraphData("maintain")
        handles[key] = await nursery.start(run_graph_actor, key, kind, tmp_path / f"{kind}.json", g)
    sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {})
    await sessions.register(project_path=project, harness="claude-code", now=wall(), claude_sid="cc-1")

    async def fake_run(argv, stdin, cwd, env, timeout, grace, on_start=None):
        runs.append({"argv": argv, "stdin": stdin.decode(), "env": env, "timeout": timeout})
        url = json.loads(argv[argv.index("--mcp-config") + 1])["mcpServers"]["kg"]["url"]
        if pid is not None and on_start is not None:
            await on_start(pid)
        for tool, wrote in calls:
            await door[0].run_called(url.split("kg_run=")[1], tool, wrote)
        await door[0].run_called("another-runs-mark", "kg_put_node", True)  # not this run's: not counted
        await trio.sleep(run_s)  # a run takes a while: prompts meanwhile find the slot taken
        return outcome or runners.RunResult(0, 120.0, "ok")

    logbook = Logbook()
    door = []  # the supervisor's handle, once started
    deps = Deps(store, None, Directory(handles, project, on_get), sessions, logbook, wall,
                lambda: "http://127.0.0.1:1/mcp", env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, run=fake_run)
    gauge_files.record_claude(store, {"rate_limits": {"five_hour": {"used_percentage": 10, "resets_at": wall() + 3600},
                                                      "seven_day": {"used_percentage": 20, "resets_at": wall() + 86400}}}, wall())
    chores = await nursery.start(run_chore_supervisor, deps)
    door.append(chores)
    return chores, logbook, store


async def _settle(chores):
    await chores.status()  # answered after the prompt queued before it is decided


def _reasons(logbook):
    return [(r["event"], r.get("reason")) for r in logbook.records]


async def test_spacing_cooldown_and_one_job_at_a_time(tmp_path, autojump_clock):
    runs = []
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert [r["event"] for r in logbook.records] == ["dispatch"]
        first = logbook.records[0]
        assert first["tier"] == "chore" and first["kind"] == "gist" and first["runner"] == "claude"
        chores.prompted("cc-1", wall())  # the job is still running
        await _settle(chores)
        assert _reasons(logbook)[-1] == ("skip", "a run is in flight")
        assert runs[0]["timeout"] == 420 and "Category: gist" in runs[0]["stdin"]
        assert runs[0]["env"]["KG_CHORE"] == "1" and runs[0]["argv"][1] == "-p"
        await trio.sleep(3 * MIN)
        assert logbook.records[-1]["event"] == "done" and logbook.records[-1]["rc"] == 0
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook)[-1][1].startswith("spacing: 3 min since the last run")
        await trio.sleep(45 * MIN)
        # The gauge is now 48 minutes old: still fresh. The first graph is on its 6 h cooldown: the other is next.
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert logbook.records[-1]["event"] == "dispatch" and logbook.records[-1]["graph"] != first["graph"]
        state = json.loads((store / "chore_state.json").read_text())
        assert state["count"] == 2 and set(state["graphs"]) == {"project:app", "user"}
        await trio.sleep(50 * MIN)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook)[-1][1].startswith("gauge stale: ")  # 98 min old by now
        nursery.cancel_scope.cancel()


async def test_daily_cap_and_a_crash_logged_then_dispatch_again(tmp_path, autojump_clock):
    runs = []
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(
            nursery, tmp_path, runs, outcome=runners.RunResult(1, 3.0, "Error: boom"),
            chores={"min_interval_s": 0, "graph_cooldown_s": 0, "max_per_day": 2})
        for _ in range(3):
            chores.prompted("cc-1", wall())
            await _settle(chores)
            await trio.sleep(3 * MIN)
        events = [r for r in logbook.records if r["event"] in ("dispatch", "done", "skip")]
        assert [r["event"] for r in events] == ["dispatch", "done", "dispatch", "done", "skip"]
        assert events[1]["rc"] == 1 and "boom" in events[1]["output"]  # a crash is logged, then a run again
        assert events[-1]["reason"] == "daily chore cap (2)"
        # The runs are kept apart too, refusals aside: a week of them cannot push a run out of view.
        assert logbook.runs == [r for r in logbook.records if r["event"] in ("dispatch", "done")]
        assert [r["event"] for r in logbook.runs] == ["dispatch", "done", "dispatch", "done"]
        nursery.cancel_scope.cancel()


async def test_off_config_and_bad_input_log_nothing_or_say_why(tmp_path, autojump_clock):
    runs = []
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs)
        (store / "chores.json").write_text('{"enabled": tr')  # torn: off, with a warning, and nothing logged
        chores.prompted("cc-1", wall())
        await _settle(chores)
        status = await chores.status()
        assert not status.enabled and "not valid JSON" in status.warning and logbook.records == []
        (store / "chores.json").write_text(json.dumps({"enabled": True, "claude_bin": str(tmp_path / "gone")}))
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook) == [("skip", f"claude binary missing: {tmp_path / 'gone'}")]
        chores.prompted("nobody", wall())
        await _settle(chores)
        assert _reasons(logbook)[-1] == ("skip", "prompt from an unknown session")
        (store / gauge_files.CLAUDE_FILE).write_text(json.dumps({"five_hour_pct": float("nan"),
                                                                 "five_hour_seen_at": wall()}))
        chores.prompted("cc-1", wall())  # within a minute of a full decision, chores.json unchanged: it stands
        await _settle(chores)
        assert _reasons(logbook)[-1] == ("skip", f"claude binary missing: {tmp_path / 'gone'} (decided 0 s ago: "
                                                 "it stands for 60 s)")  # logged like every decision
        (store / "chores.json").write_text(json.dumps({"enabled": True, "claude_bin": str(tmp_path / "claude")}))
        chores.prompted("cc-1", wall())  # a changed chores.json is decided afresh
        await _settle(chores)
        assert _reasons(logbook)[-1][1] == "gauge unreadable: claude-limits.json is not valid JSON"  # NaN: no number
        assert runs == []
        nursery.cancel_scope.cancel()


# Replays of formal/models/chore_dispatch.py's counterexamples: what moves during a decision's awaits.

async def test_config_off_or_a_stale_gauge_during_the_decision_refuses_the_spawn(tmp_path, autojump_clock):
    """chore_dispatch(no_recheck): chores.json switched off while the decision awaited, then spawned (5 steps)."""
    runs, moves = [], []

    async def on_get():
        if moves:
            await moves.pop(0)()

    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs, on_get=on_get)

        async def switch_off():
            (store / "chores.json").write_text(json.dumps({"enabled": False}))

        moves.append(switch_off)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook) == [("skip", "config changed")] and runs == []
        assert not (store / "chore_state.json").exists()  # a refused run counts nothing

        async def slow():
            await trio.sleep(91 * MIN)  # the gauge ages past its 90 min while the decision awaits

        (store / "chores.json").write_text(json.dumps({"enabled": True, "claude_bin": str(tmp_path / "claude")}))
        moves.append(slow)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook)[-1] == ("skip", "gauge went stale") and runs == []
        nursery.cancel_scope.cancel()


async def test_spacing_counts_from_the_spawn_not_the_decision(tmp_path, autojump_clock):
    """chore_dispatch(decide_stamp): a run stamped at its decision let the next start closer than the spacing."""
    runs, slow = [], [10 * MIN]

    async def on_get():
        if slow:
            await trio.sleep(slow.pop())  # this decision's awaits take ten minutes

    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs, on_get=on_get)
        start = wall()
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert logbook.records[-1]["event"] == "dispatch" and logbook.records[-1]["ts"] == round(start + 10 * MIN, 3)
        state = json.loads((store / "chore_state.json").read_text())
        assert state["last_ts"] == start + 10 * MIN
        await trio.sleep(start + 45 * MIN - wall())  # 45 min after the decision, 35 after the run started
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook)[-1][1].startswith("spacing: 35 min since the last run") and len(runs) == 1
        nursery.cancel_scope.cancel()


async def test_a_decision_that_straddles_midnight_is_refused(tmp_path, autojump_clock):
    """chore_dispatch(decide_stamp): decided before midnight, counted on that day, started after it."""
    runs, slow = [], []

    async def on_get():
        if slow:
            await trio.sleep(slow.pop())

    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs, on_get=on_get)
        await trio.sleep(86_400 - wall() % 86_400 - MIN)  # a minute before UTC midnight
        gauge_files.record_claude(store, {"rate_limits": {"five_hour": {"used_percentage": 10, "resets_at": wall() + 3600},
                                                          "seven_day": {"used_percentage": 20, "resets_at": wall() + 86400}}},
                                  wall())
        slow.append(2 * MIN)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook) == [("skip", "the day turned")] and runs == []
        chores.prompted("cc-1", wall())  # decided afresh on the new day
        await _settle(chores)
        await trio.sleep(MIN)  # the job has started
        assert logbook.records[-1]["event"] == "dispatch" and len(runs) == 1
        nursery.cancel_scope.cancel()


async def test_a_prompt_right_after_a_short_run_is_decided_and_logged(tmp_path, autojump_clock):
    """Spacing under a minute: a prompt 30 s after a run's dispatch is decided afresh (a dispatch is no
    refusal that stands), and one 10 s after a refusal is logged with the refusal that stands."""
    runs = []
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs, chores={
            "min_interval_s": 20, "graph_cooldown_s": 0}, run_s=5)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        await trio.sleep(30)  # the run (five seconds) is over
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert [r["event"] for r in logbook.records] == ["dispatch", "done", "dispatch"]
        await trio.sleep(2 * MIN + 30)
        (store / gauge_files.CLAUDE_FILE).write_text("{torn")
        chores.prompted("cc-1", wall())
        await _settle(chores)
        await trio.sleep(10)
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert _reasons(logbook)[-2:] == [
            ("skip", "gauge unreadable: claude-limits.json is not valid JSON"),
            ("skip", "gauge unreadable: claude-limits.json is not valid JSON (decided 10 s ago: it stands for 60 s)")]
        nursery.cancel_scope.cancel()


async def test_an_odd_chore_state_reads_as_a_fresh_one(tmp_path, autojump_clock):
    """A hand-edited chore_state.json with a 400-digit stamp: the caps count from zero, no internal error."""
    runs = []
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, runs)
        (store / "chore_state.json").write_text('{"last_ts": ' + "9" * 400 + ', "count": 1}')
        chores.prompted("cc-1", wall())
        await _settle(chores)
        assert [r["event"] for r in logbook.records] == ["dispatch"], logbook.records
        nursery.cancel_scope.cancel()


async def _two_runs(tmp_path, calls):
    """Two prompts, each after the run before has ended; the records of the runs."""
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, [], calls=calls,
                                                chores={"min_interval_s": 0, "graph_cooldown_s": 0})
        for _ in range(2):
            chores.prompted("cc-1", wall())
            await _settle(chores)
            await trio.sleep(3 * MIN)
        nursery.cancel_scope.cancel()
    return logbook.runs, logbook.records


async def test_a_run_that_never_reached_kg_says_so_and_its_targets_may_be_picked_again(tmp_path, autojump_clock):
    runs, records = await _two_runs(tmp_path, ())
    done = [r for r in runs if r["event"] == "done"]
    assert [(r["rc"], r["outcome"], r["kg_calls"], r["kg_writes"]) for r in done] == [(0, "no kg call", 0, 0)] * 2
    dispatches = [r for r in runs if r["event"] == "dispatch"]
    # Its targets were never looked at: the next chore may take them (the cap still counts the run).
    assert dispatches[0]["targets"] == dispatches[1]["targets"] == ["deploy-pipeline-steps"]
    assert dispatches[0]["graph"] == dispatches[1]["graph"]
    assert not any("kg_run" in json.dumps(r) for r in records)  # the mark stays in memory


async def test_a_run_that_read_but_wrote_nothing_is_no_change_and_its_targets_rest(tmp_path, autojump_clock):
    runs, _ = await _two_runs(tmp_path, [("kg_read", False), ("kg_search", False)])
    done = [r for r in runs if r["event"] == "done"]
    assert (done[0]["outcome"], done[0]["kg_calls"], done[0]["kg_writes"]) == ("no change", 2, 0)
    dispatches = [r for r in runs if r["event"] == "dispatch"]
    assert "deploy-pipeline-steps" not in dispatches[1].get("targets", [])  # looked at: not chewed again at once


async def test_a_run_that_wrote_is_ok(tmp_path, autojump_clock):
    runs, _ = await _two_runs(tmp_path, [("kg_read", False), ("kg_put_node", True)])
    done = [r for r in runs if r["event"] == "done"]
    assert (done[0]["outcome"], done[0]["kg_calls"], done[0]["kg_writes"]) == ("ok", 2, 1)


async def test_a_run_the_server_stopped_during_keeps_its_kg_calls_in_its_interrupted_record(tmp_path, autojump_clock):
    # The interrupted line had no kg_calls or kg_writes though the run wrote: the Budget tab said nothing of it.
    from kg_actors.chores.supervisor import Supervisor

    gone = 2**22 + 7  # above any pid_max: no process of that pid to end at the next start
    async with trio.open_nursery() as nursery:
        chores, logbook, store = await _fixture(nursery, tmp_path, [], run_s=math.inf, pid=gone,
                                                calls=[("kg_read", False), ("kg_put_node", True)])
        chores.prompted("cc-1", wall())
        await _settle(chores)
        state = store / "chore_state.json"
        for _ in range(10_000):  # the calls are told, and kept with the running entry, as they arrive
            await chores.status()  # answered after the calls told before it
            running = (await trio.to_thread.run_sync(lambda: json.loads(state.read_text()))).get("running") or {}
            if running.get("kg_calls") == 2:
                break
        assert (running.get("kg_calls"), running.get("kg_writes"), running.get("pid")) == (2, 1, gone), json.dumps(running)
        nursery.cancel_scope.cancel()  # the server stops mid-run
    later = Logbook()
    sup = Supervisor(Deps(store, None, None, None, later, wall, lambda: "", grace_s=1.0), None)
    await sup.recover()
    [closed] = [r for r in later.runs if r["event"] == "interrupted"]
    assert (closed["kg_calls"], closed["kg_writes"]) == (2, 1), closed
    assert closed["started"] == logbook.runs[0]["ts"]


def test_the_budget_tab_shows_an_interrupted_runs_kg_calls_and_an_older_line_without_them():
    from kg_actors.http.rest_chores import runs_of

    dispatch = {"ts": EPOCH, "event": "dispatch", "tier": "chore", "graph": "user", "runner": "claude"}
    closed = {"ts": EPOCH + 9, "event": "interrupted", "graph": "user", "started": EPOCH, "reason": "stopped",
              "kg_calls": 3, "kg_writes": 1}
    [run], _ = runs_of([dispatch, closed], "user")
    assert (run["outcome"], run["kg_calls"], run["kg_writes"]) == ("interrupted", 3, 1)
    older = {k: v for k, v in closed.items() if not k.startswith("kg_")}
    [run], _ = runs_of([dispatch, older], "user")
    assert run["outcome"] == "interrupted" and run.get("kg_calls") is None
