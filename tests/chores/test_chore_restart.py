"""A server killed mid-chore: the agent dies with it, and the next server closes the run in chores.jsonl and the
editor ("interrupted"), with what became of its process, before it dispatches another."""

import json
import os
import sys
import time
from pathlib import Path

import anyio
import httpx

from kg_actors.chores import gauge_files
from kg_actors.testing import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_chores_e2e import _seed, _wait_for  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness  # noqa: E402

# A hung agent: records its pid and its child's, then waits forever (it never writes to its stdout again).
HANGING = "#!/bin/sh\ncat > /dev/null\nsleep 100000 &\necho $$ $! > {pids}\nwait\n"


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _until(check, what: str, bound: float = 60.0):
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"not reached: {what}")


def test_a_server_killed_mid_chore_takes_its_agent_along_and_the_next_closes_the_run(tmp_path):
    fakebin = tmp_path / "bin"
    fakebin.mkdir()
    pids_file = tmp_path / "pids"
    (fakebin / "claude").write_text(HANGING.format(pids=pids_file))
    (fakebin / "claude").chmod(0o755)
    srv = ServerProcess(tmp_path / "srv", {"PATH": f"{fakebin}:{os.environ['PATH']}", "KG_CHORES": "1"})
    srv.store.mkdir(parents=True, exist_ok=True)
    (srv.store / "chores.json").write_text(json.dumps({"enabled": True, "timeout_s": 600, "min_interval_s": 0,
                                                       "graph_cooldown_s": 0}))
    frame = {"rate_limits": {"five_hour": {"used_percentage": 12, "resets_at": time.time() + 3600},
                             "seven_day": {"used_percentage": 20, "resets_at": time.time() + 86400}}}
    gauge_files.record_claude(srv.store, frame, time.time())
    agent = child = 0
    try:
        srv.start()
        project = srv.project("app")
        anyio.run(_seed, srv, project)
        h = Harness(srv, project)
        h.start()
        h.prompt("how do deploys reach production?")
        log = srv.store / "chores.jsonl"
        dispatch = next(r for r in _wait_for(log, "dispatch") if r["event"] == "dispatch")
        agent, child = map(int, _until(lambda: pids_file.exists() and pids_file.read_text().split(), "agent up"))
        state = _until(lambda: json.loads((srv.store / "chore_state.json").read_text()).get("running"),
                       "the running chore recorded")
        assert state["started"] == dispatch["ts"] and state["pid"] > 0
        srv.kill()  # SIGKILL: no cleanup of its own runs
        # The agent and what it started die with the server, long before their 600 s timeout.
        _until(lambda: not _alive(agent) and not _alive(child), "the agent gone with its server")
        srv.start()
        records = _wait_for(log, "interrupted")
        closed = next(r for r in records if r["event"] == "interrupted")
        assert closed["started"] == dispatch["ts"] and closed["graph"] == dispatch["graph"]
        assert "the server stopped" in closed["reason"] and closed["ts"] >= dispatch["ts"]
        assert json.loads((srv.store / "chore_state.json").read_text()).get("running") is None
        tab = httpx.get(srv.url + "/api/chores", params={"level": "project", "project_path": project},
                        timeout=10).json()
        assert tab["running"] is None
        run = next(r for r in tab["runs"] if r["started"] == dispatch["ts"])
        assert run["outcome"] == "interrupted" and "the server stopped" in run["detail"]
    finally:
        srv.kill()
        for pid in (agent, child):
            if pid and _alive(pid):
                os.kill(pid, 9)


class _Logbook:
    def __init__(self):
        self.records = []

    def append(self, path, records, max_bytes):
        if path.name == "chores.jsonl":  # every decision (chore_runs.jsonl holds the runs' again)
            self.records.extend(records)


def _recover(store: Path, state: dict, log: list[dict]) -> list[dict]:
    """A new server's supervisor at startup, given the state and chores.jsonl the last one left."""
    import trio

    from kg_actors.chores.supervisor import Deps, Supervisor

    (store / "chore_state.json").write_text(json.dumps(state))
    (store / "chores.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    logbook = _Logbook()
    sup = Supervisor(Deps(store, None, None, None, logbook, lambda: 1_790_000_500.0, lambda: "", grace_s=1.0), None)
    trio.run(sup.recover)
    assert json.loads((store / "chore_state.json").read_text()).get("running") is None
    return logbook.records


DISPATCH = {"ts": 1_790_000_000.0, "event": "dispatch", "tier": "chore", "graph": "user", "runner": "claude"}


def test_at_startup_a_left_agent_still_running_is_ended_and_its_run_closed(tmp_path):
    import subprocess

    from kg_actors.chores.left_runs import process_start

    orphan = subprocess.Popen(["sleep", "1000"], start_new_session=True)  # a leash the old server left
    try:
        entry = {"pid": orphan.pid, "proc_start": process_start(orphan.pid), "started": DISPATCH["ts"]}
        records = _recover(tmp_path, {"count": 1, "running": entry}, [DISPATCH])
        assert orphan.wait(timeout=30) < 0  # ended by a signal (the wait only reaps it)
        assert [r["event"] for r in records] == ["interrupted"]
        assert records[0]["started"] == DISPATCH["ts"] and records[0]["ts"] == 1_790_000_500.0
        assert records[0]["reason"] == (f"interrupted: the server stopped during the run; its agent (pid {orphan.pid}) "
                                        "was still running: its process group was ended")
    finally:
        if orphan.poll() is None:
            orphan.kill()
            orphan.wait()


def test_a_recorded_pid_now_anothers_is_left_alone(tmp_path):
    import subprocess

    from kg_actors.chores.left_runs import process_start

    other = subprocess.Popen(["sleep", "1000"], start_new_session=True)
    try:
        entry = {"pid": other.pid, "proc_start": process_start(other.pid) - 1, "started": DISPATCH["ts"]}
        records = _recover(tmp_path, {"running": entry}, [DISPATCH])
        assert other.poll() is None  # a reused pid: not ours to kill
        assert records[0]["reason"].endswith(
            f"its agent (pid {other.pid}) had ended; that pid is another process's now")
    finally:
        other.kill()
        other.wait()


def test_every_run_left_open_is_closed_once_and_closed_runs_are_not(tmp_path):
    done = {"ts": 1_790_000_100.0, "event": "done", "tier": "chore", "graph": "user", "runner": "claude", "rc": 0}
    later = {**DISPATCH, "ts": 1_790_000_200.0, "graph": "project:app"}
    # Before this fix: a dispatch with no outcome, then another run on the same graph closed by a `done`.
    old = {**DISPATCH, "ts": 1_789_000_000.0}
    records = _recover(tmp_path, {}, [old, DISPATCH, done, later])
    assert [(r["event"], r["started"], r["graph"]) for r in records] == [
        ("interrupted", old["ts"], "user"), ("interrupted", later["ts"], "project:app")]
    assert records[0]["reason"] == "interrupted: the server stopped during the run"
    assert _recover(tmp_path, {}, [old, DISPATCH, done, later, *records]) == []  # closed once only
