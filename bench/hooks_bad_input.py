"""The hook endpoints against 20,000-character inputs of one repeated shape (issue #12, bad input).

    .venv/bin/python bench/hooks_bad_input.py

A pattern or a parser that retries the rest of a long run from each of its positions is quadratic
on such input, and a hook's work holds the server's loop: every session waits it out. A real
`kg serve` on a 2,000-node store; one session; for each shape (a run of `a.`, `a;`, `"a`, `a\\n`,
control characters...) a UserPromptSubmit with it pasted under a question, a PreToolUse and a
PostToolUse of a Bash command made of it, a Read of a file named by it and an Edit replacing it.
Prints each reply's status and wall time; every reply must be a quick, non-5xx answer.
"""

from __future__ import annotations

import random
import re
import sys
import tempfile
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import hooks_bench  # noqa: E402
import workload  # noqa: E402

from kg_actors.testing import ServerProcess, write_store  # noqa: E402

SHAPES = {"dots": "a.", "semicolons": "a;", "quotes": '"a', "spaces": "a ", "slashes": "a/", "colons": "a:",
          "equals": "a=", "lines": "a\n", "tabs": "\ta", "paths": "/x/y.py ", "backticks": "`a|",
          "control": "".join(chr(i) for i in range(1, 300)),
          # Prose and log lines in turn: every line is scored, none is cut as one block.
          "prose and log": "the nightly import keeps failing on the second batch again\n"
                           "2026-11-30T10:00:00Z level=info msg=tick id=00000abc\n"}
SIZE = 20_000
# ... and every line new, so none is scored from the first of its kind (one unit, as long as the rest).
SHAPES["prose and log, all new"] = "".join(
    f"the nightly import failed on batch {i} again\n2026-11-30T10:{i % 60:02d}:00Z level=info msg=tick id={i:08x}\n"
    for i in range(400))[:SIZE]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(Path(tmp), {"KG_LOG_LEVEL": "WARNING"})
        proj = Path(srv.project("bench-app"))
        rng, now = random.Random(5), time.time()
        write_store(srv.store, workload.make_graph(rng, 40, 10, now, None),
                    {"bench-app": workload.make_graph(rng, 2_000, 150, now, str(proj))})
        srv.start()
        worst = 0.0
        try:
            client = httpx.Client(base_url=srv.url, timeout=30)
            base = {"session_id": "bad-input-1", "cwd": str(proj), "transcript_path": str(Path(tmp) / "t.jsonl")}
            start = client.post("/api/session_bootstrap", json={**base, "hook_event_name": "SessionStart",
                                                                "source": "startup"})
            # The full read made: before it, a prompt's reply is the reminder alone and recall never runs.
            kg_sid = re.search(r"session_id: ([0-9a-f]{8})", start.json()["hookSpecificOutput"]["additionalContext"])[1]
            text = hooks_bench.mcp(client, srv.url, "kg_read", {"session_id": kg_sid})
            while "more=true" in text:
                text = hooks_bench.mcp(client, srv.url, "kg_read", {"session_id": kg_sid, "more": True})
            print("| shape | prompt_context | pre_tool | tool_event Bash | tool_event Read | tool_event Edit |")
            print("|---|---|---|---|---|---|")
            for name, unit in SHAPES.items():
                blob = unit * (SIZE // len(unit))
                cells = []
                for path, payload in _calls(base, proj, blob):
                    start = time.perf_counter()
                    reply = client.post(path, json=payload)
                    ms = 1000 * (time.perf_counter() - start)
                    worst = max(worst, ms)
                    if reply.status_code >= 500:
                        print(f"{name}: {path} answered {reply.status_code}", file=sys.stderr)
                        return 1
                    cells.append(f"{reply.status_code}, {ms:.0f} ms")
                print(f"| {name} | " + " | ".join(cells) + " |")
        finally:
            srv.stop()
        print(f"\nslowest reply: {worst:.0f} ms")
    return 0


def _calls(base: dict, proj: Path, blob: str) -> list[tuple[str, dict]]:
    post = {**base, "hook_event_name": "PostToolUse"}
    return [
        ("/api/prompt_context", {**base, "hook_event_name": "UserPromptSubmit", "prompt": "why?\n\n" + blob}),
        ("/api/pre_tool", {**base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "tool_input": {"command": blob}}),
        ("/api/tool_event", {**post, "tool_name": "Bash", "tool_input": {"command": blob},
                             "tool_response": {"stdout": blob, "stderr": blob}}),
        ("/api/tool_event", {**post, "tool_name": "Read", "tool_input": {"file_path": "/" + blob},
                             "tool_response": {"file": {"content": blob}}}),
        ("/api/tool_event", {**post, "tool_name": "Edit", "tool_input": {"file_path": str(proj / "a.py"),
                                                                          "old_string": blob, "new_string": blob}}),
    ]


if __name__ == "__main__":
    sys.exit(main())
