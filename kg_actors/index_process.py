"""A large graph's first search index, built in a child process: on the machine's other core, not the server's.

A 10,000-node graph's index takes ~4 s of CPU to build. In a worker thread that time shares the
interpreter's one lock with everything the server does meanwhile: every hook reply and call of those
seconds waited behind it. Here the child gets the nodes' text, builds the index with the same code
(`SearchIndex.build`) and sends it back as a run of small pickles (`SearchIndex.pieces`), each
loaded as it arrives (~5 ms each; one pickle of the whole would hold the lock ~80 ms, and twice the
memory). The parent puts its own frozen nodes back in, so the index is the one a thread would have
built, bit for bit, and the actor's per-write updates carry on as before.

Small graphs build in a thread (a child's start costs more than their index), and any failure of the
child (it cannot start, dies, hangs, or answers other nodes' index) falls back to the thread: the
index always comes. One child runs at a time; it is niced (background work: the server and the agents
come first), reads stdin and writes stdout; its errors go to the server's stderr.
The pipes are ours, so what comes back is trusted to unpickle.

    python -m kg_actors.index_process    # the child: node texts on stdin, framed pickles on stdout
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

import trio

from .core import constants as C
from .core.records import Node
from .core.search import SearchIndex
from .core.snapshot import GraphSnapshot

log = logging.getLogger(__name__)
_PIECE = 4_000  # table entries per pickle: each loads in ~5 ms at 10,000 nodes
_LENGTH = 8  # bytes of the length in front of each pickle
_NICE = 5  # the child's scheduling priority, lowered by this much
CHILD_SECONDS = 300.0  # a child still building after this is stuck: the thread builds instead
# One child at a time: large projects opened together queue for it (each child ~60 MiB and a core's
# worth of work at 10,000 nodes); per trio run, as each run has its own loop.
_CHILDREN = trio.lowlevel.RunVar[trio.CapacityLimiter]("kg_index_children")


class _Texts:
    """What `SearchIndex.build` reads of a graph (its nodes and gen), rebuilt from the nodes' text."""

    __slots__ = ("nodes", "gen")

    def __init__(self, texts: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]) -> None:
        self.nodes = {t[0]: Node(*t) for t in texts}
        self.gen = 0  # any but a new index's -1, or `sync` would find nothing to do (the parent sets the real one)


def texts_of(nodes: Iterable[Node]) -> bytes:
    """All the index reads of each node, (id, gist, notes, touches), in the graph's order."""
    return pickle.dumps([(n.id, n.gist, n.notes, n.touches) for n in nodes], protocol=pickle.HIGHEST_PROTOCOL)


def build_frames(texts: bytes) -> Iterable[bytes]:
    """The child's work: the index of these texts, each piece pickled alone behind its length."""
    index = SearchIndex.build(_Texts(pickle.loads(texts)))  # type: ignore[arg-type]  # nodes and gen suffice
    for piece in index.pieces(_PIECE):
        body = pickle.dumps(piece, protocol=pickle.HIGHEST_PROTOCOL)
        yield len(body).to_bytes(_LENGTH, "big") + body


async def build(graph: GraphSnapshot) -> SearchIndex:
    """The index of a snapshot: in a child process when it has many nodes, else (or when the child
    fails) in a worker thread. Cancelled, it kills the child."""
    if len(graph.nodes) >= C.INDEX_PROCESS_MIN_NODES:
        try:
            async with _children():
                started = trio.current_time()
                with trio.fail_after(CHILD_SECONDS):
                    index = await _built_by_child(graph)
            log.info("search index of %d nodes built in a child process in %.1f s", len(graph.nodes),
                     trio.current_time() - started)
            return index
        except Exception as exc:  # noqa: BLE001 - any failure of the child: the thread builds it instead
            log.warning("search index process failed (%r); building the index in a thread", exc)
    return await trio.to_thread.run_sync(SearchIndex.build, graph, abandon_on_cancel=True)


def _children() -> trio.CapacityLimiter:
    try:
        return _CHILDREN.get()
    except LookupError:
        limiter = trio.CapacityLimiter(1)
        _CHILDREN.set(limiter)
        return limiter


async def _built_by_child(graph: GraphSnapshot) -> SearchIndex:
    payload = await trio.to_thread.run_sync(texts_of, graph.nodes.values(), abandon_on_cancel=True)
    proc = await trio.lowlevel.open_process([sys.executable, "-P", "-m", __name__], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        await proc.stdin.send_all(payload)  # the child reads all of it before it writes a byte
        await proc.stdin.aclose()
        del payload
        frames = _Frames(proc.stdout)
        first = await frames.next()
        if first is None:
            raise ValueError(f"no answer (exit {await proc.wait()})")
        index = await trio.to_thread.run_sync(_loaded_index, first)
        while (frame := await frames.next()) is not None:
            await trio.to_thread.run_sync(_take, index, frame)
        if await proc.wait() != 0:
            raise ValueError(f"exit {proc.returncode}")
    finally:
        if proc.returncode is None:
            proc.kill()
            with trio.CancelScope(shield=True):
                await proc.wait()
    if index.ids_by_number() != list(graph.nodes):
        raise ValueError("an index of other nodes")
    index.adopt_ids(list(graph.nodes))
    index.nodes = dict(graph.nodes)  # the parent's own: identity tells `update_node` and `sync` they are in
    index.gen = graph.gen
    return index


def _loaded_index(frame: bytes) -> SearchIndex:
    index = pickle.loads(frame)
    if not isinstance(index, SearchIndex):
        raise ValueError("not a search index")
    return index


def _take(index: SearchIndex, frame: bytes) -> None:
    index.take_piece(pickle.loads(frame))


class _Frames:
    """Length-prefixed pickles off a byte stream, one at a time (at most one piece held unread)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._buf = bytearray()

    async def _fill(self, size: int) -> bool:
        while len(self._buf) < size:
            chunk = await self._stream.receive_some(1 << 20)
            if not chunk:
                return False
            self._buf += chunk
        return True

    async def next(self) -> bytes | None:
        """The next pickle; None at a clean end of the stream."""
        if not await self._fill(_LENGTH):
            if self._buf:
                raise ValueError("the answer was cut short")
            return None
        size = int.from_bytes(self._buf[:_LENGTH], "big")
        if not await self._fill(_LENGTH + size):
            raise ValueError("the answer was cut short")
        frame = bytes(self._buf[_LENGTH:_LENGTH + size])
        del self._buf[:_LENGTH + size]
        return frame


def main() -> int:
    # Background work, a little behind the server and the agents around it: unniced, on two cores, the
    # child slowed the first kg_read(cwd) after a start by 0.3-0.5 s. No further behind than that needs:
    # kg_search waits for this index, and on a saturated machine any nice delays it (10,000 nodes under a
    # test suite's load: 23 s unniced, ~40 s at 5 and at 10). At 5 the first read is no slower than before.
    os.nice(_NICE)
    out = sys.stdout.buffer
    for frame in build_frames(sys.stdin.buffer.read()):
        out.write(frame)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
