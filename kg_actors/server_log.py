"""server.log, where `kg start` sends the server's output: rotated once past SERVER_LOG_MAX_BYTES to one
server.log.prev (at a start, and on the tick of a server writing to it), and its last lines read across
the two. It was appended to across restarts and never rotated."""

from __future__ import annotations

import logging
import os
import re
import time
from pathlib import Path

log = logging.getLogger(__name__)
TAIL_CHUNK = 64 * 1024
# The lines a server writes as it starts serving and as a signal (kg stop, Ctrl-C) starts its shutdown (runtime.py).
SERVING = re.compile(r"\bkg_actors \S+ serving .* on \S+$")
SHUTTING_DOWN = re.compile(r": received SIG[A-Z]+: shutting down$")
LOGGED = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # a logging line's start: a traceback's are not
QUIET_AT_INFO = "mcp.server.streamable_http"
UNCLEAN_TAIL = 400  # lines read by `kg status`: one or two chunks from the end


class UtcStamps(logging.Formatter):
    """Each line stamped in UTC, marked Z: local time with no zone (a server started under another TZ than the
    last) read hours off and sorted out of order beside the lines of the start before."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"


def configure(level: int | str) -> None:
    """The server's logging: `<UTC stamp> LEVEL logger: message`, one line each, to stderr (server.log)."""
    handler = logging.StreamHandler()
    handler.setFormatter(UtcStamps("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        # The MCP SDK says "Terminating session: None" at INFO for every request it serves stateless: most of
        # the log, pushing what matters out at its rotation. Its warnings and errors still come.
        logging.getLogger(QUIET_AT_INFO).setLevel(logging.WARNING)


def prev_of(path: Path) -> Path:
    return path.with_name(path.name + ".prev")


def rotate_if_past(path: Path, max_bytes: int) -> bool:
    """server.log moved to server.log.prev (the one before let go) once past `max_bytes`; whether it was."""
    try:
        if path.stat().st_size <= max_bytes:
            return False
        os.replace(path, prev_of(path))
    except OSError:  # none yet, or not to be moved: appended to as before
        return False
    return True


def rotate_live(path: Path, max_bytes: int) -> None:
    """The tick's: rotated past `max_bytes`, and this process's output (fds 1 and 2) sent to a new
    server.log from here on (the moved file's descriptor would go on filling server.log.prev)."""
    if not rotate_if_past(path, max_bytes):
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as exc:
        log.warning("could not open %s again after rotating it: %s (lines go to %s)", path, exc, prev_of(path).name)
        return
    for out in (1, 2):
        os.dup2(fd, out)
    os.close(fd)
    log.info("%s rotated past %d bytes: the lines before are in %s", path.name, max_bytes, prev_of(path).name)


def last_lines(path: Path, count: int, upto: int | None = None) -> list[str] | None:
    """The last `count` lines of server.log (of its first `upto` bytes), those of server.log.prev before them
    when it holds fewer (a rotation just happened); None when neither exists."""
    out: list[str] = []
    found = False
    for part, end in ((path, upto), (prev_of(path), None)):
        try:
            lines = _tail(part, count - len(out), end)
        except FileNotFoundError:
            continue
        found = True
        out[:0] = lines
        if len(out) >= count:
            break
    return out if found else None


def _tail(path: Path, count: int, upto: int | None = None) -> list[str]:
    """The last `count` lines of a file (of its first `upto` bytes), read from its end (a rotated log is
    megabytes)."""
    with open(path, "rb") as f:
        end = pos = f.seek(0, os.SEEK_END) if upto is None else upto
        data = b""
        while pos > 0 and data.count(b"\n") <= count:
            pos = max(0, pos - TAIL_CHUNK)
            f.seek(pos)
            data = f.read(end - pos)
    lines = data.decode(errors="replace").splitlines()
    return lines[-count:] if count > 0 else []


def stopped_uncleanly(lines: list[str]) -> bool:
    """Whether the server that wrote these last lines of server.log stopped without shutting down (killed, or
    crashed): its last start is not followed by a shutdown's line; or, neither in these lines, they end in a
    traceback."""
    starts = [i for i, line in enumerate(lines) if SERVING.search(line)]
    stops = [i for i, line in enumerate(lines) if SHUTTING_DOWN.search(line)]
    if starts or stops:
        return max(starts, default=-1) > max(stops, default=-1)
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last):")]
    after = lines[tracebacks[-1] + 1:] if tracebacks else []
    return bool(after) and not any(LOGGED.match(line) for line in after)
