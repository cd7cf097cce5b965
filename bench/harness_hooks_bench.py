"""Hook reply time for the Antigravity, Gemini CLI and OpenCode endpoints, and the hook scripts whole.

Usage: .venv/bin/python bench/harness_hooks_bench.py [N]
A real `kg serve` on a temp store (200 project nodes); N requests per endpoint over one
keep-alive connection (what a hook's curl costs the server, not the curl start); then N/10
runs of each hook script as a process (curl start included). Loopback only.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from hook_helpers import hook_env, node, project_graph  # noqa: E402

from kg_actors.testing import ServerProcess, write_store  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000


def main(n: int) -> None:
    srv = ServerProcess(Path(tempfile.mkdtemp()))
    root = Path(srv.project("bench-proj"))
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "a.py").write_text("#\n")
    write_store(srv.store, None, {"bench-proj": project_graph(str(root), [
        node(f"bench-node-{i:03d}", f"lesson {i} about src/a.py and caching", touches=["src/a.py"]) for i in range(200)])})
    srv.start()
    try:
        conv = str(uuid.uuid4())
        tdir = srv.home / ".gemini" / "antigravity-cli" / conv
        tdir.mkdir(parents=True)
        (tdir / "t.jsonl").touch()
        agy = {"conversationId": conv, "workspacePaths": [str(root)], "transcriptPath": str(tdir / "t.jsonl")}
        gem = {"session_id": str(uuid.uuid4()), "cwd": str(root), "transcript_path": str(srv.home / ".gemini/tmp/x/chats/s.json")}
        cases = {
            "agy PreInvocation": ("/api/antigravity/hook/PreInvocation", {**agy, "invocationNum": 1}),
            "agy PostToolUse": ("/api/antigravity/hook/PostToolUse", {**agy, "toolCall": {"name": "view_file", "args": {"AbsolutePath": str(root / "src/a.py")}}}),
            "agy ack (unknown)": ("/api/antigravity/ack", {"conversationId": conv, "delivery_id": 999999}),
            "gemini BeforeAgent": ("/api/gemini/BeforeAgent", {**gem, "prompt": "how is caching done?"}),
            "opencode tool.after": ("/api/opencode/tool.after", {"sessionID": "ses_bench", "directory": str(root),
                                                                 "tool": "read", "args": {"filePath": str(root / "src/a.py")}}),
            "claude prompt (base)": ("/api/prompt_context", {**gem, "prompt": "how is caching done?"}),
            "gemini AfterTool": ("/api/gemini/AfterTool", {**gem, "tool_name": "read_file", "tool_input": {"file_path": str(root / "src/a.py")}}),
        }
        with httpx.Client(base_url=srv.url) as c:
            c.post("/api/antigravity/hook/SessionStart", json=agy)
            c.post("/api/gemini/SessionStart", json={**gem, "source": "startup"})
            c.post("/api/opencode/session.start", json={"sessionID": "ses_bench", "directory": str(root)})
            for name, (path, body) in cases.items():
                times = []
                for _ in range(n):
                    t = time.perf_counter()
                    c.post(path, json=body)
                    times.append(time.perf_counter() - t)
                print(f"{name:22s} endpoint  p50 {pct(times, .5):6.2f} ms  p99 {pct(times, .99):6.2f} ms  (n={n})")
        env = hook_env(srv)
        scripts = {"kg-agy.sh PreInvocation": (["sh", str(REPO / "harnesses/antigravity/hooks/kg-agy.sh"), "PreInvocation"], {**agy, "invocationNum": 1}),
                   "gemini.sh BeforeAgent": (["sh", str(REPO / "hooks/gemini.sh"), "BeforeAgent"], {**gem, "prompt": "caching?"})}
        for name, (argv, body) in scripts.items():
            times = []
            for _ in range(max(10, n // 10)):
                t = time.perf_counter()
                subprocess.run(argv, input=json.dumps(body).encode(), env=env, capture_output=True)
                times.append(time.perf_counter() - t)
            print(f"{name:26s} script whole  p50 {pct(times, .5):6.2f} ms  p99 {pct(times, .99):6.2f} ms  max {max(times)*1000:6.2f} ms")
    finally:
        srv.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
