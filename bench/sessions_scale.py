"""Hook latency against the number of sessions the server keeps (issue 17: cost flat in what should not matter).

    .venv/bin/python bench/sessions_scale.py [--sessions 5000] [--seen 150] [--seconds 20] [--tree DIR]

A 2,000-node project (bench/workload.py) and a sessions.json of `--sessions` live sessions, each having seen
`--seen` nodes, written before the server starts. Then, against a real `kg serve` (its editor off): 300
UserPromptSubmit hooks of four sessions after their full reads, idle; then, for `--seconds`, prompt and
PostToolUse (Read) hooks back to back while another client starts a new session (SessionStart) every 0.5 s.
Prints p50 / p99 / max of each, the SessionStarts' own, the file's size and the server's RSS.
`--tree`: another checkout whose `kg_actors` the server runs (put first on its PYTHONPATH), for an A/B. The pacing of the load is wall-clock sleeps; nothing is
asserted from timing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import workload  # noqa: E402

from kg_actors.testing import ServerProcess, write_store  # noqa: E402


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def post(self, path: str, body: dict) -> dict:
        self.conn.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})
        return json.loads(self.conn.getresponse().read() or b"{}")

    def kg_read(self, sid: str, more: bool = False) -> str:
        args = {"session_id": sid, **({"more": True} if more else {})}
        self.conn.request("POST", "/", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                   "params": {"name": "kg_read", "arguments": args}}).encode(),
                          {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        out = json.loads(self.conn.getresponse().read())
        return "\n".join(c["text"] for c in out["result"]["content"])


def open_session(srv: ServerProcess, client: Client, cwd: str, tag: str, full_read: bool) -> dict:
    folder = srv.home / ".claude" / "projects" / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    transcript = folder / f"{tag}.jsonl"
    transcript.write_text("")
    hook = {"session_id": tag, "transcript_path": str(transcript), "cwd": cwd}
    out = client.post("/api/session_bootstrap", {**hook, "hook_event_name": "SessionStart", "source": "startup"})
    sid = re.search(r"session_id: ([0-9a-f]{8})", out["hookSpecificOutput"]["additionalContext"]).group(1)
    if full_read:
        more = "more=true" in client.kg_read(sid)
        while more:
            more = "more=true" in client.kg_read(sid, more=True)
    return hook


def stored_sessions(count: int, seen: int, ids: list[str], project: str, now: float) -> dict:
    rng = random.Random(3)
    out = {}
    for i in range(count):
        viewed = rng.sample(ids, min(seen, len(ids)))
        keys = [f"project:{i}" for i in viewed]  # seen tables are keyed by level and id
        out[secrets.token_hex(4)] = {
            "start_ts": now - 3600, "last_activity": now - rng.uniform(0, 3000), "project_path": project,
            "harness": "claude-code", "claude_sid": f"stored-{i}", "seen_via": dict.fromkeys(keys, "preload"),
            "seen_at": dict.fromkeys(keys, now - 3000), "preloaded_ids": viewed[:100], "full_read_ts": now - 3500,
            "last_synced_ts": now - 3600, "pushed_ts": now - 60}
    return out


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"p50 {ms[len(ms) // 2]:.2f} / p99 {ms[int(len(ms) * 0.99)]:.2f} / max {ms[-1]:.2f} ms ({len(ms)})"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--seen", type=int, default=150)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--tree", help="a checkout whose kg_actors the server runs (default: this one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"KG_CHORES": "0", "KG_AUTOCOMMIT_INTERVAL": "0", **({"PYTHONPATH": args.tree} if args.tree else {})}
        srv = ServerProcess(Path(tmp), env)
        project = srv.project("scale-app")
        now = time.time()
        graph = workload.make_graph(random.Random(1), 2000, workload.ACTIVE_PROJECT, now, project)
        user = workload.make_graph(random.Random(2), workload.USER_NODES, workload.USER_ACTIVE, now, None)
        write_store(srv.store, user, {"scale-app": graph})
        sessions = stored_sessions(args.sessions, args.seen, list(graph["nodes"]), project, now)
        (srv.store / "sessions.json").write_text(json.dumps(sessions))
        size = (srv.store / "sessions.json").stat().st_size / 1e6
        srv.start("--no-editor")
        try:
            client = Client(srv.port)
            hooks = [open_session(srv, client, project, f"bench-{i}", True) for i in range(4)]
            rng = random.Random(2)

            def ask(i: int) -> float:
                t = time.perf_counter()
                words = " ".join(rng.sample(workload.WORDS, 3))
                client.post("/api/prompt_context", {**hooks[i % 4], "hook_event_name": "UserPromptSubmit",
                                                    "prompt": f"how does the {words} work"})
                return time.perf_counter() - t

            for i in range(20):
                ask(i)
            print(f"{args.sessions} sessions ({args.seen} seen each, sessions.json {size:.1f} MB)")
            print("prompt_context, idle:", figures([ask(i) for i in range(300)]))
            stop, starts = threading.Event(), []

            def starter() -> None:
                other = Client(srv.port)
                k = 0
                while not stop.is_set():
                    k += 1
                    t = time.perf_counter()
                    open_session(srv, other, project, f"new-{k}", False)
                    starts.append(time.perf_counter() - t)
                    stop.wait(0.5)

            thread = threading.Thread(target=starter)
            thread.start()
            prompts, tools = [], []
            end, i = time.monotonic() + args.seconds, 0
            while time.monotonic() < end:
                prompts.append(ask(i))
                t = time.perf_counter()
                client.post("/api/tool_event", {**hooks[i % 4], "hook_event_name": "PostToolUse", "tool_name": "Read",
                                                "tool_input": {"file_path": f"{project}/README.md"},
                                                "tool_response": {"ok": True}})
                tools.append(time.perf_counter() - t)
                i += 1
                time.sleep(0.01)
            stop.set()
            thread.join()
            print("while a session starts every 0.5 s: prompt_context", figures(prompts))
            print("  tool_event", figures(tools))
            print("  SessionStart", figures(starts))
            rss = next(int(line.split()[1]) for line in open(f"/proc/{srv.proc.pid}/status")
                       if line.startswith("VmRSS")) / 1024
            print(f"RSS {rss:.0f} MiB")
        finally:
            srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
