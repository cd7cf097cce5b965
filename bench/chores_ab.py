"""Chores on vs off on the hook path, paired on one server (issue #13 "Speed").

    .venv/bin/python bench/chores_ab.py [--nodes 10000] [--blocks 8] [--per-block 100] [--writers 8]

One `kg serve` over bench/hooks_bench.py's store (10,000 nodes, 16 sessions with their full read);
chores.json is switched between off and on (`enabled`, a fresh quota gauge, a runner binary that
does not exist, so every decision goes to its end and is refused) in alternating blocks, in
alternating order, so both modes see the same machine load. Each block is hooks_bench's `drive`:
prompt, pre_tool and tool_event requests from one keep-alive client. A second round runs with
`--writers` sessions writing once a second. Writes bench/RESULTS-chores.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hooks_bench as HB  # noqa: E402

from kg_actors.chores import gauge_files  # noqa: E402


def set_chores(store: Path, on: bool) -> None:
    (store / "chores.json").write_text(json.dumps({"enabled": on, "claude_bin": "/nonexistent/claude"}))
    now = time.time()
    frame = {"rate_limits": {"five_hour": {"used_percentage": 10, "resets_at": now + 3600},
                             "seven_day": {"used_percentage": 10, "resets_at": now + 86400}}}
    gauge_files.record_claude(store, frame, now)


def rounds(site, sessions, args, label: str) -> dict:
    lat: dict[str, dict[str, list[float]]] = {m: {"prompt": [], "tool": [], "pre": []} for m in ("off", "on")}
    for k in range(args.blocks):
        for mode in (("off", "on") if k % 2 == 0 else ("on", "off")):
            set_chores(site.srv.store, mode == "on")
            out = HB.drive(site, sessions, args.per_block, random.Random(1000 + k), raw=True)
            for kind in ("prompt", "tool", "pre"):
                lat[mode][kind].extend(out[kind])
    return {mode: {kind: HB.ms(v) for kind, v in kinds.items()} for mode, kinds in lat.items()} | {"label": label}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--per-block", type=int, default=100)
    ap.add_argument("--writers", type=int, default=8)
    args = ap.parse_args()
    command = " ".join([".venv/bin/python bench/chores_ab.py", *map(shlex.quote, sys.argv[1:])])
    base = HB.run_dir("chores-ab")
    site = HB.Site(base / "ours", args.nodes, chores=True)
    results = []
    try:
        site.start()
        with httpx.Client(timeout=120) as client:
            HB.mcp(client, site.srv.url, "kg_search", {"query": "cache token"})
            sessions = [site.session(client, i) for i in range(16)]
        HB.drive(site, sessions, 200, random.Random(99))  # warm-up
        results.append(rounds(site, sessions, args, "idle"))
        if args.writers:
            proc = HB.writers(site, args.writers, 1.0)
            time.sleep(2)
            try:
                results.append(rounds(site, sessions, args, f"{args.writers} sessions writing, 1/s each"))
            finally:
                proc.communicate("", timeout=120)
        decisions = sum(1 for line in (site.srv.store / "chores.jsonl").read_text().splitlines() if line.strip())
    finally:
        site.srv.stop()
        shutil.rmtree(base, ignore_errors=True)
    load = os.getloadavg()
    lines = [f"# Chores on vs off on the hook path (paired blocks on one server)", "",
             f"`{command}` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
             f"{load[0]:.1f} on {os.cpu_count()} cores (a shared, loaded machine: read the pairs, not the absolutes).", "",
             f"{decisions} chore decisions were logged (each refused: the runner binary does not exist).", "",
             "| phase | endpoint | chores | requests | p50 ms | p99 ms | max ms |", "|---|---|---|---|---|---|---|"]
    for r in results:
        for kind, path in (("prompt", "/api/prompt_context"), ("tool", "/api/tool_event"), ("pre", "/api/pre_tool")):
            for mode in ("off", "on"):
                m = r[mode][kind]
                lines.append(f"| {r['label']} | {path} | {mode} | {m['n']} | {m['p50']:.2f} | {m['p99']:.2f} | {m['max']:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    (HB.BENCH / "RESULTS-chores.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
