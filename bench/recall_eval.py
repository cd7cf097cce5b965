"""Recall evaluation (issue #12): does prompt recall find what matters and stay quiet otherwise?

    .venv/bin/python bench/recall_eval.py [--keep] [--out bench/RESULTS-recall.md] [--data recall_data]
        [--server ours|ref] [--python PATH]

`--server ref` runs the same evaluation against the reference (kg-memory 0.17.0, installed by
bench/setup_reference.sh), through its own hooks' calls: the issue's table compared both servers,
and only the same prompts on the same memory say how hard a data set is. `--python` runs our server from
another build's interpreter (a venv with that build installed): the build the issue measured the held-out
set on (fe84f98) tells how far an estimate of that set from these splits can be trusted (recall_offline.py).

`--data recall_heldout` asks the second split (bench/recall_heldout.py), written after the first
round of tuning and before the vocabulary work; it writes its own results file.
`--data recall_pasted` asks the third (bench/recall_pasted.py): questions typed around pasted output.
`--data recall_long` .. `recall_long6` ask long and mixed-length typed prompts, and `recall_mixed` ..
`recall_mixed56` prompts of every length with unrelated ones naming the lessons' own tools (SPLITS below):
each written blind, to judge what was chosen before it (their docstrings say what). `recall_memory2_a` .. `_d`,
`recall_memory3_a` .. `_d` up to `recall_memory16_a` .. `_d` ask the same way about fifteen other projects'
memories (bench/recall_memory2.py .. recall_memory16.py), written blind (RESULTS-recall.md says which
pre-registered rule each judged; memories 12 to 16 are never trained on: bench/train_recall_gate.py).

Everything goes through the real server and its endpoints: a `kg serve`
(kg_actors.testing.ServerProcess) in a temporary HOME; the memory of
bench/recall_data.py written with MCP kg_put_node / kg_put_edge; then the server
is stopped, the lessons meant to be orphaned or archived are marked so in the
graph file (as compaction and the orphan pass would leave them: no endpoint
sets a tier), and it starts again. Each prompt is then asked in a fresh session:
SessionStart (`/api/session_bootstrap`), the full read (`kg_read`, every part),
then one UserPromptSubmit to `/api/prompt_context`. Commands go to
`/api/pre_tool` as a PreToolUse for Bash, also in fresh sessions.

Metrics (an injected node is a `- [level] id: gist` line; `(in context)` anchors
are not injections):
* hit rate: relevant prompts with a labelled lesson not already in context after
  the full read, whose injection brings one of those lessons; split by the
  lesson's tier (orphaned / archived / active);
* precision: injected gists that are labelled for the prompt, over all injected
  gists; primary precision counts the hit lines only (not connectors);
* silence: unrelated and noise prompts answered with no recall at all;
* injected characters per prompt (all prompts; and per injecting prompt);
* `/api/prompt_context` latency over this run (p50 / p99), on this small store.

The data is fixed (written before any tuning); tune on it, but an outside
held-out set decides, so prefer principled rules over fitting these prompts.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import importlib
import json
import platform
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from hooks_bench import RefServer, run_dir, session_bootstrap  # noqa: E402

from kg_actors.testing import ServerProcess  # noqa: E402

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LINE = re.compile(r"^(\s*)- \[(user|project)\] (\S+?)(: | \(in context\))")
GOALS = {"hit": 0.92, "orphaned": None, "archived": 0.92, "precision": 0.50, "primary": 0.70,
         "silence_unrelated": 0.95, "silence_noise": 0.97, "chars": 600, "p99": 10.0}


def mcp(client: httpx.Client, url: str, tool: str, args: dict) -> str:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    r = client.post(url + "/", json=body, headers=MCP_HEADERS, timeout=60)
    r.raise_for_status()
    result = r.json()["result"]
    text = "\n".join(c["text"] for c in result["content"] if c.get("type") == "text")
    if result.get("isError"):
        raise RuntimeError(f"{tool} failed: {text[:300]}")
    return text


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


class Eval:
    def __init__(self, base: Path, data: str = "recall_data", server: str = "ours", python: str | None = None):
        self.base = base
        self.reference = server == "ref"
        self.python = python
        if self.reference:
            self.srv = RefServer(base)
        else:
            self.srv = ServerProcess(base, {"KG_LOG_LEVEL": "WARNING"}, python=python)
        self.project = self.srv.project("eval-app")
        self.transcripts = self.srv.home / ".claude" / "projects" / "eval-app"
        self.transcripts.mkdir(parents=True, exist_ok=True)
        self.data_name = data
        self.data = importlib.import_module(data).build()
        self.gists = {n["id"]: n["gist"] for n in self.data["nodes"]}
        self.n_sessions = 0
        self.latencies: list[float] = []
        self.pre_latencies: list[float] = []

    # -- the memory, through the endpoints --------------------------------------------------
    def write_memory(self) -> None:
        self.srv.start("--no-editor")
        with httpx.Client(timeout=60) as client:
            first = mcp(client, self.srv.url, "kg_read", {"cwd": self.project})
            sid = re.search(r"(?:Session: |session_id=')([0-9a-f]{8})", first).group(1)
            for n in self.data["nodes"]:
                args = {"session_id": sid, "level": "project", "id": n["id"], "gist": n["gist"]}
                if n["notes"]:
                    args["notes"] = n["notes"]
                if n["touches"]:
                    args["touches"] = n["touches"]
                mcp(client, self.srv.url, "kg_put_node", args)
            for a, b, rel in self.data["edges"]:
                mcp(client, self.srv.url, "kg_put_edge", {"session_id": sid, "level": "project", "from": a,
                                                          "to": b, "rel": rel})
        self.srv.stop()
        # The tiers no endpoint sets: orphaned and archived, as the orphan pass and compaction leave them.
        graph_files = list((self.srv.store / "projects").glob("*/graph.json"))
        assert len(graph_files) == 1 and not list(graph_files[0].parent.glob("*.journal")), graph_files
        graph = json.loads(graph_files[0].read_text())
        now = time.time()
        for n in self.data["nodes"]:
            node = graph["nodes"][n["id"]]
            if n["tier"] in ("orphaned", "archived"):
                node["_archived"] = True
            if n["tier"] == "orphaned":
                node["_orphaned_ts"] = now - 3 * 86_400
        graph_files[0].write_text(json.dumps(graph))
        self.srv.start("--no-editor")
        with httpx.Client(timeout=60) as client:  # kg_search waits for the index: hooks then find it built
            if self.reference:
                mcp(client, self.srv.url, "kg_search", {"query": "index warm up"})
            else:
                # The project's graph loads, and its first index builds, when a session first reaches it; a hook
                # meanwhile answers without recall (it never waits). A search in such a session waits for the
                # index, so the prompts below find it built however loaded the machine is.
                transcript = self.transcripts / "eval-warmup.jsonl"
                transcript.write_text("")
                context = session_bootstrap(client, self.srv.url, {
                    "session_id": "eval-warmup", "transcript_path": str(transcript), "cwd": self.project,
                    "hook_event_name": "SessionStart", "source": "startup"}, self.reference)
                kg_sid = re.search(r"session_id: ([0-9a-f]{8})", context).group(1)
                mcp(client, self.srv.url, "kg_search", {"query": "index warm up", "session_id": kg_sid})
        graph = json.loads(graph_files[0].read_text())
        self.tiers = {}
        for node_id, node in graph["nodes"].items():
            self.tiers[node_id] = ("orphaned" if node.get("_orphaned_ts") else
                                   "archived" if node.get("_archived") else "active")

    # -- one fresh session per question ---------------------------------------------------------
    def session(self, client: httpx.Client) -> tuple[dict, str]:
        self.n_sessions += 1
        claude_sid = f"eval-{self.n_sessions}"
        transcript = self.transcripts / f"{claude_sid}.jsonl"
        transcript.write_text("")
        base = {"session_id": claude_sid, "transcript_path": str(transcript), "cwd": self.project}
        context = session_bootstrap(client, self.srv.url, {**base, "hook_event_name": "SessionStart",
                                                            "source": "startup"}, self.reference)
        kg_sid = re.search(r"session_id: ([0-9a-f]{8})", context).group(1)
        text = mcp(client, self.srv.url, "kg_read", {"session_id": kg_sid})
        shown = context + "\n" + text
        while "more=true" in text:
            text = mcp(client, self.srv.url, "kg_read", {"session_id": kg_sid, "more": True})
            shown += "\n" + text
        return base, shown

    def in_context(self, node_id: str, shown: str) -> bool:
        """The full read (or the preload) already showed this lesson's gist."""
        return self.gists[node_id][:60] in shown

    def ask(self, lean: http.client.HTTPConnection, path: str, body: dict, lat: list[float]) -> str:
        data = json.dumps(body).encode()
        for attempt in (0, 1):
            try:
                t = time.perf_counter()
                lean.request("POST", path, data, {"Content-Type": "application/json"})
                r = lean.getresponse()
                raw = r.read().decode()
                break
            except (http.client.HTTPException, ConnectionError):  # a closed keep-alive: reconnect once
                lean.close()
                if attempt:
                    raise
        lat.append(time.perf_counter() - t)
        if r.status == 404:
            return "<missing endpoint>"
        if r.status >= 500:
            raise RuntimeError(f"{path} answered {r.status}: {raw[:200]}")
        out = json.loads(raw) if raw else {}
        return ((out.get("hookSpecificOutput") or {}).get("additionalContext") or "")

    def run_prompts(self) -> list[dict]:
        rows = []
        lean = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=30)
        with httpx.Client(timeout=60) as client:
            for p in self.data["prompts"]:
                base, shown = self.session(client)
                context = self.ask(lean, "/api/prompt_context",
                                   {**base, "hook_event_name": "UserPromptSubmit", "prompt": p["text"]},
                                   self.latencies)
                rows.append(self.judge(p, context, shown))
        lean.close()
        return rows

    def judge(self, p: dict, context: str, shown: str) -> dict:
        recall_text = context if context.startswith("KG recall") else ""
        recall_text = recall_text.split("\n\n")[0]
        injected, primary = [], []
        for line in recall_text.splitlines():
            m = LINE.match(line)
            if m and m.group(4) == ": ":
                injected.append(m.group(3))
                if not m.group(1):
                    primary.append(m.group(3))
        labels = p["labels"]
        needed = [x for x in labels if not self.in_context(x, shown)]
        return {"kind": p["kind"], "text": p["text"][:80], "pasted": p.get("pasted", False), "labels": labels,
                "needed": needed, "tiers": [self.tiers.get(x, "?") for x in needed], "injected": injected,
                "primary": primary, "chars": len(recall_text), "hit": bool(set(needed) & set(injected))}

    def run_commands(self) -> list[dict]:
        rows = []
        lean = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=30)
        with httpx.Client(timeout=60) as client:
            for command, labels in self.data["commands"]:
                base, shown = self.session(client)
                context = self.ask(lean, "/api/pre_tool",
                                   {**base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                    "tool_input": {"command": command}, "tool_use_id": f"toolu_{len(rows)}"},
                                   self.pre_latencies)
                injected = [m.group(3) for m in map(LINE.match, context.splitlines()) if m and m.group(4) == ": "]
                needed = [x for x in labels or [] if not self.in_context(x, shown)]
                rows.append({"command": command, "labels": labels or [], "needed": needed, "injected": injected,
                             "chars": len(context), "missing": context == "<missing endpoint>"})
        lean.close()
        return rows


def ratio(a: int, b: int) -> str:
    return f"{a / b:.2f} ({a}/{b})" if b else "n/a (0)"


def metrics(rows: list[dict], latencies: list[float]) -> list[tuple[str, str, str]]:
    rel = [r for r in rows if r["kind"] == "relevant" and r["needed"]]
    by_tier = {t: [r for r in rel if r["tiers"] and r["tiers"][0] == t] for t in ("orphaned", "archived", "active")}
    typed = [r for r in rel if not r["pasted"]]
    pasted = [r for r in rel if r["pasted"]]
    inj = sum(len(r["injected"]) for r in rows)
    wanted = sum(len(set(r["injected"]) & set(r["labels"])) for r in rows)
    prim = sum(len(r["primary"]) for r in rows)
    prim_wanted = sum(len(set(r["primary"]) & set(r["labels"])) for r in rows)
    unrelated = [r for r in rows if r["kind"] == "unrelated"]
    noise = [r for r in rows if r["kind"] == "noise"]
    injecting = [r for r in rows if r["chars"]]
    lat = [x * 1000 for x in latencies]
    return [
        ("hit rate (relevant, lesson not yet in context)", ratio(sum(r["hit"] for r in rel), len(rel)), "≥ 0.92"),
        ("  typed prompts", ratio(sum(r["hit"] for r in typed), len(typed)), ""),
        ("  question around a pasted block", ratio(sum(r["hit"] for r in pasted), len(pasted)), ""),
        ("  lesson orphaned", ratio(sum(r["hit"] for r in by_tier["orphaned"]), len(by_tier["orphaned"])), ""),
        ("  lesson archived", ratio(sum(r["hit"] for r in by_tier["archived"]), len(by_tier["archived"])), "≥ 0.92"),
        ("  lesson active", ratio(sum(r["hit"] for r in by_tier["active"]), len(by_tier["active"])), ""),
        ("precision (injected gists that were wanted)", ratio(wanted, inj), "≥ 0.50"),
        ("precision of primary hits (no connectors)", ratio(prim_wanted, prim), "≥ 0.70"),
        ("silence on unrelated prompts", ratio(sum(not r["chars"] for r in unrelated), len(unrelated)), "≥ 0.95"),
        ("silence on noise (pasted output, continuations)", ratio(sum(not r["chars"] for r in noise), len(noise)),
         "≥ 0.97"),
        ("injected chars per prompt (all prompts)", f"{sum(r['chars'] for r in rows) / len(rows):.0f}", "≤ 600"),
        ("injected chars per injecting prompt",
         f"{sum(r['chars'] for r in injecting) / max(1, len(injecting)):.0f}", ""),
        ("/api/prompt_context p50 / p99 ms (this store)", f"{pct(lat, 50):.2f} / {pct(lat, 99):.2f}", "p99 ≤ 10"),
    ]


def command_metrics(rows: list[dict], latencies: list[float]) -> list[tuple[str, str, str]]:
    if not rows:
        return [("PreToolUse recall", "n/a: this data set has no commands", "")]
    if all(r["missing"] for r in rows):
        return [("PreToolUse recall", "n/a: no /api/pre_tool endpoint", "")]
    labelled = [r for r in rows if r["needed"]]
    silent = [r for r in rows if not r["labels"]]
    inj = sum(len(r["injected"]) for r in rows)
    wanted = sum(len(set(r["injected"]) & set(r["labels"])) for r in rows)
    lat = [x * 1000 for x in latencies]
    return [
        ("commands named by a lesson: a lesson arrives", ratio(sum(bool(set(r['needed']) & set(r['injected']))
                                                                   for r in labelled), len(labelled)), ""),
        ("precision (injected gists wanted)", ratio(wanted, inj), ""),
        ("silence on commands no lesson names", ratio(sum(not r["injected"] for r in silent), len(silent)), ""),
        ("at most 2 nodes within 800 chars", ratio(sum(len(r["injected"]) <= 2 and r["chars"] <= 800 for r in rows),
                                                  len(rows)), "all"),
        ("/api/pre_tool p50 / p99 ms (this store)", f"{pct(lat, 50):.2f} / {pct(lat, 99):.2f}", "p99 ≤ 10"),
    ]


def render(command: str, ev: Eval, rows: list[dict], cmd_rows: list[dict]) -> str:
    counts = {k: sum(1 for r in rows if r["kind"] == k) for k in ("relevant", "unrelated", "noise")}
    tiers = {t: sum(1 for v in ev.tiers.values() if v == t) for t in ("active", "archived", "orphaned")}
    covered = sum(1 for r in rows if r["kind"] == "relevant" and not r["needed"])
    lines = [
        "# Recall evaluation (issue #12)" + (": the reference, kg-memory 0.17.0" if ev.reference else ""), "",
        f"Command: `{command}`", "",
        f"Date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; git {git_head()}; "
        f"Python {platform.python_version()}" + (f"; the server run by {ev.python}" if ev.python else "") + ".", "",
        f"Memory (bench/{ev.data_name}.py, written through MCP): {len(ev.tiers)} project nodes "
        f"({tiers['active']} active, {tiers['archived']} archived, {tiers['orphaned']} orphaned), "
        f"{len(ev.data['edges'])} edges, 8 domains. Prompts: {len(rows)} ({counts['relevant']} relevant, "
        f"{counts['unrelated']} unrelated, {counts['noise']} noise: pasted output of many tools and bare "
        f"continuations); {covered} relevant prompts had their lesson in context already after the full read "
        "(left out of the hit rate). Each prompt in a fresh session after its full read.", "",
        "| metric | value | goal |", "|---|---|---|",
    ]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in metrics(rows, ev.latencies)]
    lines += ["", f"## PreToolUse (Bash) recall, {len(cmd_rows)} commands", "",
              "| metric | value | goal |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in command_metrics(cmd_rows, ev.pre_latencies)]
    misses = [r for r in rows if r["kind"] == "relevant" and r["needed"] and not r["hit"]]
    loud = [r for r in rows if r["kind"] != "relevant" and r["chars"]]
    lines += ["", f"## Misses ({len(misses)}) and noisy answers ({len(loud)})", ""]
    for r in misses:
        lines.append(f"- miss [{r['tiers'][0]}] {r['labels'][0]}: {r['text']!r} -> {r['injected']}")
    for r in loud:
        lines.append(f"- {r['kind']}: {r['text']!r} -> {r['injected']}")
    return "\n".join(lines) + "\n"


def git_head() -> str:
    import subprocess
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or "?"
    except OSError:
        return "?"


# The data sets in the order they were written: the tuning split, the held-out and pasted ones, then the blind ones.
SPLITS = ["recall_data", "recall_heldout", "recall_pasted", "recall_long",
          *(f"recall_long{i}" for i in range(2, 7)), "recall_mixed", *(f"recall_mixed{i}" for i in range(2, 57)),
          *(f"recall_memory{m}_{x}" for m in range(2, 17) for x in "abcd")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep", action="store_true", help="keep the store and server log under .bench/runs/")
    ap.add_argument("--out", default=str(BENCH / "RESULTS-recall.md"))
    ap.add_argument("--data", default="recall_data", choices=SPLITS,
                    help="the data set: the tuning split or one written after it (see above)")
    ap.add_argument("--server", default="ours", choices=["ours", "ref"],
                    help="ours, or the reference (kg-memory 0.17.0 from bench/setup_reference.sh)")
    ap.add_argument("--python", help="with --server ours: run the server from this interpreter (another build's venv)")
    args = ap.parse_args()
    command = " ".join([".venv/bin/python bench/recall_eval.py", *map(shlex.quote, sys.argv[1:])])
    if args.python and args.server != "ours":
        ap.error("--python runs our server from another build: it goes with --server ours")
    if args.python and not Path(args.python).is_file():
        ap.error(f"--python: no interpreter at {args.python} (give a venv's bin/python with that build installed)")
    base = run_dir("recall")
    ev = Eval(base, args.data, args.server, args.python)
    try:
        ev.write_memory()
        rows = ev.run_prompts()
        cmd_rows = ev.run_commands()
    finally:
        ev.srv.stop()
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    text = render(command, ev, rows, cmd_rows)
    print(text)
    Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
