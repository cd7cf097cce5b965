"""A large graph's first search index, built in a child process: on the machine's other core, not the server's.

A 10,000-node graph's index takes ~4 s of CPU to build. In a worker thread that time shares the
interpreter's one lock with everything the server does meanwhile: the first kg_read(cwd) after a
start and every hook reply of those seconds waited behind it. Here the child gets the nodes' text,
builds the index with the same code (`SearchIndex.build`), and hands back its pickled form (~8 MB,
unpickled in ~0.1 s); the parent then puts its own frozen nodes back in, so the index is the one a
thread would have built, bit for bit, and the actor's per-write updates carry on as before.

Small graphs build in a thread (a child's start costs more than their index), and any failure of
the child (it cannot start, dies, or answers garbage) falls back to the thread: the index always
comes. The child reads stdin and writes stdout only; the pipes are ours, so its pickle is trusted.

    python -m kg_actors.index_process    # the child: stdin pickle -> stdout pickle
"""

from __future__ import annotations

import io
import logging
import pickle
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from .core import constants as C
from .core.records import Node
from .core.search import SearchIndex
from .core.snapshot import GraphSnapshot

log = logging.getLogger(__name__)
_PIECE = 4_000  # table entries per pickle: ~5 ms to load at 10,000 nodes

# (id, gist, notes, touches) per node, in the graph's order: all the index reads of a node.
Texts = list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]


class _Texts:
    """What `SearchIndex.build` reads of a graph (its nodes and gen), rebuilt from the nodes' text."""

    __slots__ = ("nodes", "gen")

    def __init__(self, texts: Texts) -> None:
        self.nodes = {t[0]: Node(*t) for t in texts}
        self.gen = 0  # any but a new index's -1, or `sync` would find nothing to do (the parent sets the real one)


def texts_of(graph_nodes: Iterator[Node]) -> bytes:
    return pickle.dumps([(n.id, n.gist, n.notes, n.touches) for n in graph_nodes], protocol=pickle.HIGHEST_PROTOCOL)


def build_from_texts(payload: bytes) -> bytes:
    """The child's whole work: node texts in, the built index out, as a run of small pickles
    (`SearchIndex.pieces`; without its nodes: the parent has them)."""
    index = SearchIndex.build(_Texts(pickle.loads(payload)))  # type: ignore[arg-type]  # nodes and gen suffice
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    for piece in index.pieces(_PIECE):
        pickler.dump(piece)
        pickler.clear_memo()  # each piece stands alone: the parent loads them one at a time
    return out.getvalue()


def adopt(built: bytes, nodes: Mapping[str, Node], gen: int) -> SearchIndex:
    """The child's index with the parent's own nodes put back: `nodes` and `gen` are those of the snapshot
    whose texts were sent, so identity checks (`update_node`, `sync`) see every node as already indexed.
    Loaded a piece at a time, so the interpreter lock changes hands between pieces (run in a thread)."""
    stream = io.BytesIO(built)

    def pieces() -> Iterator[Any]:
        while stream.tell() < len(built):
            yield pickle.load(stream)  # one piece: a fresh unpickler each, as each was pickled with a fresh memo

    index = SearchIndex.joined(pieces())
    if index.ids_by_number() != list(nodes):
        raise ValueError("the index process answered an index of other nodes")
    index.nodes = dict(nodes)
    index.gen = gen
    return index


async def build(graph: GraphSnapshot) -> SearchIndex:
    """The index of a snapshot: in a child process when it has many nodes, else (or when the child
    fails) in a worker thread. Cancelled, it stops the child (trio kills it)."""
    import trio  # the child imports this module too, and stays light

    if len(graph.nodes) >= C.INDEX_PROCESS_MIN_NODES:
        try:
            payload = await trio.to_thread.run_sync(texts_of, iter(graph.nodes.values()), abandon_on_cancel=True)
            done = await trio.run_process([sys.executable, "-m", __name__], stdin=payload, capture_stdout=True,
                                          capture_stderr=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"exit {done.returncode}: {done.stderr.decode(errors='replace')[-300:]}")
            return await trio.to_thread.run_sync(adopt, done.stdout, graph.nodes, graph.gen, abandon_on_cancel=True)
        except Exception as exc:  # noqa: BLE001 - any failure of the child: the thread builds it instead
            log.warning("search index process failed (%s); building the index in a thread", exc)
    return await trio.to_thread.run_sync(SearchIndex.build, graph, abandon_on_cancel=True)


def main() -> int:
    sys.stdout.buffer.write(build_from_texts(sys.stdin.buffer.read()))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
