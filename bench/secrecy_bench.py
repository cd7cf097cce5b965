"""What the secret rule adds to a write: `secrecy.clean_node` over realistic node text.

    .venv/bin/python bench/secrecy_bench.py [--writes 20000]

Each write is a gist of about 120 characters, five notes of about 200 and three touches,
drawn from the recall evaluation's kind of prose with code, paths and ids mixed in
(no secret: the common case pays the full scan). Prints p50/p99/max in microseconds, of wall
time and of the thread's CPU time (on a busy machine the wall tail is other processes' time slices).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from kg_actors.core import secrecy

WORDS = ("retry backoff redis cache token bucket deploy alembic upgrade head migration pytest fixture "
         "kubectl rollout status nginx upstream timeout password reset api_key rotation 429 Retry-After "
         "src/auth/refresh.py sha256 9fceb02d0ae598e95dc970b74767f19372d61af8 os.environ['DB_PASSWORD'] "
         "${TOKEN} https://example.com/docs v1.32.2 --max-time=1 make deploy ./scripts/release.sh").split()


def text(rng: random.Random, chars: int) -> str:
    out = []
    while sum(len(w) + 1 for w in out) < chars:
        out.append(rng.choice(WORDS))
    return " ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=20_000)
    args = parser.parse_args()
    rng = random.Random(7)
    writes = [(text(rng, 120), [text(rng, 200) for _ in range(5)], [f"src/mod{i}.py" for i in range(3)])
              for _ in range(args.writes)]
    wall, cpu = [], []
    for gist, notes, touches in writes:
        c0, t0 = time.thread_time(), time.perf_counter()
        secrecy.clean_node(gist, notes, touches)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    for name, times in (("wall", wall), ("cpu", cpu)):
        us = sorted(t * 1e6 for t in times)
        print(f"{name}: writes {len(us)}: p50 {statistics.median(us):.1f} us, p99 {us[int(len(us) * 0.99)]:.1f} us, "
              f"max {us[-1]:.1f} us")


if __name__ == "__main__":
    main()
