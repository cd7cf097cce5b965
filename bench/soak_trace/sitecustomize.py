"""Loaded by the soaked server when bench/soak.py runs with --trace: where its memory grows.

tracemalloc (4 frames) from start-up; after minute one a baseline snapshot, then every minute the
30 biggest growths since the baseline, by line, appended to $KG_SOAK_TRACE/growth.txt. Tracing
slows the server several-fold: a traced run finds what accumulates, never the latency figures.
"""

import os

if os.environ.get("KG_SOAK_TRACE"):
    import threading
    import time
    import tracemalloc

    tracemalloc.start(4)

    def _watch(out: str) -> None:
        time.sleep(60)
        base = tracemalloc.take_snapshot()
        minute = 1
        while True:
            time.sleep(60)
            minute += 1
            snap = tracemalloc.take_snapshot()
            stats = snap.compare_to(base, "traceback")[:30]
            with open(os.path.join(out, "growth.txt"), "a") as f:
                total = sum(s.size_diff for s in snap.compare_to(base, "filename"))
                f.write(f"=== minute {minute}: traced growth since minute 1: {total / 1024:.0f} KiB\n")
                for s in stats:
                    f.write(f"{s.size_diff / 1024:+.0f} KiB ({s.count_diff:+d} blocks)\n")
                    for line in s.traceback.format()[-6:]:
                        f.write(f"    {line}\n")

    threading.Thread(target=_watch, args=(os.environ["KG_SOAK_TRACE"],), daemon=True).start()
