"""A store's commit in a process of its own: `python -m kg_actors.storage.commit_process ROOT NOW WHAT`.

The commit compares each changed graph file with its last mirrored text in pure Python and
writes the buckets (storage/mirror.py): CPU that, in one of the server's worker threads,
shares the interpreter lock with the event loop and showed as hook replies waiting on it
(bench/RESULTS-hooks-autocommit.md). In a child process it runs on the other core and the
loop keeps the lock. The server has folded its journals first and holds the store's lock;
this process only reads the graph files and runs git, both at the lowest CPU priority. It prints one JSON line:
{"commit": sha-or-null} or {"error": message, "unreadable": whether a graph file is not a graph, "secret":
whether one holds a secret (the commit is skipped: held_on_disk.commit)}.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

from . import git as G
from . import held_on_disk


WATCH_SECONDS = 0.2  # how soon a commit notices that the server that started it is gone


def command(root: Path, now: float, what: str) -> list[str]:
    return [sys.executable, "-P", "-m", __name__, str(root), repr(now), what, str(os.getpid())]


def parse(stdout: bytes, stderr: bytes, returncode: int) -> str | None:
    """The new commit, or None when nothing changed; GitError with the child's reason otherwise."""
    try:
        said = json.loads(stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = " / ".join(stderr.decode(errors="replace").strip().splitlines()[-2:])
        raise G.GitError(f"the commit process failed (exit {returncode}): {tail or 'no output'}") from None
    if "error" in said:
        kind = G.UnreadableGraph if said.get("unreadable") else held_on_disk.SecretHeld if said.get("secret") else None
        raise (kind or G.GitError)(said["error"])
    commit: str | None = said.get("commit")
    return commit


def yield_the_cpu() -> None:
    """The lowest CPU priority, for this process and the git it runs: on a busy machine a commit
    takes only what the server and its clients leave (nothing asks for a commit's answer quickly)."""
    try:
        os.nice(19)
    except OSError:  # not allowed here: the commit runs at the server's priority
        pass


def die_with_the_server(server: int) -> None:
    """A server killed mid-commit must not leave its commit running: the next server clears the lock
    files a killed git left (it holds the store's lock, so no git of its own runs), which would pull
    them from under a live one. This process and its git form one process group, killed whole once
    the server is gone (a watcher rather than PR_SET_PDEATHSIG, which fires when the forking thread
    ends, and trio forks in a worker thread that ends when idle)."""
    os.setpgid(0, 0)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH_SECONDS)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="server watch", daemon=True).start()


def main(argv: list[str]) -> int:
    yield_the_cpu()
    root, now, what = Path(argv[0]), float(argv[1]), argv[2]
    if len(argv) > 3:
        die_with_the_server(int(argv[3]))
    try:
        print(json.dumps({"commit": held_on_disk.commit(root, now, what)}))
    except G.GitError as exc:
        print(json.dumps({"error": str(exc), "unreadable": isinstance(exc, G.UnreadableGraph),
                          "secret": isinstance(exc, held_on_disk.SecretHeld)}))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
