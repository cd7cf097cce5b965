"""The chore agent's leash: a tiny parent that ends the agent's process group when the server is gone.

Run as `python -I leash.py FD -- AGENT ARGV...` (standard library only: it is not imported by the
server). FD is the read end of a pipe whose write end only the server holds: it reads end-of-file
when the server closes it or dies, even of SIGKILL. PR_SET_PDEATHSIG cannot do this for the
server: it fires when the *thread* that forked exits, and Trio forks from worker threads that idle
out after seconds. On that end-of-file the group gets SIGTERM, GRACE seconds, then SIGKILL (the
leash included). Otherwise the leash exits as the agent did, a signal mirrored, so the server's
timeout and exit codes read as if it ran the agent itself. stdin, stdout and stderr are the agent's.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

EXEC_FAILED = 127
MARK = "kg leash: could not start"  # the first output line when the agent could not be started
GRACE = 5.0


def _end_group(agent: subprocess.Popen[bytes]) -> None:
    os.killpg(0, signal.SIGTERM)  # the leash ignores it; the agent and what it started may clean up
    try:
        agent.wait(GRACE)
    except subprocess.TimeoutExpired:
        pass
    os.killpg(0, signal.SIGKILL)  # stragglers, and the leash itself


def _watch(fd: int, agent: subprocess.Popen[bytes]) -> None:
    """Until the agent exits, or the server's end of the pipe closes (then the group is ended)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    waits: int | None = 1000  # ms between looks at the agent where its exit cannot wake the poll
    try:
        poller.register(os.pidfd_open(agent.pid), select.POLLIN)  # Linux 5.3+: the agent's exit wakes it
        waits = None
    except (AttributeError, OSError):
        pass
    while agent.poll() is None:
        events = poller.poll(waits)
        if any(f == fd for f, _ in events):
            _end_group(agent)
            return


def main(argv: list[str]) -> int:
    fd, command = int(argv[1]), argv[3:]
    try:
        agent = subprocess.Popen(command)  # our group, our stdio; not our FD (close_fds)
    except OSError as exc:
        sys.stdout.write(f"{MARK} {command[0]}: {exc}\n")
        return EXEC_FAILED
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # after the spawn: an ignored signal would be inherited
    _watch(fd, agent)
    rc = agent.wait()
    if rc < 0:  # mirror a death by signal
        signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
        return 128 - rc
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
