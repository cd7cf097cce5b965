"""A large graph's DEBT terms, made in a child process while the server loads and settles the graph.

A start with no terms file to take them from (the first start on a store; a reference-format store
above all) works out every node's terms for its first DEBT line: ~0.13 s of a 10,000-node start's
~0.9 s, all of it before the first kg_read(cwd) is answered, while the machine's other core idles.
Here a child reads the graph file itself (plain JSON, nothing written), works each node's terms out
with the server's own function (`debt.node_terms`) and writes them back as one pickle: per node id,
(gist, stems, names), the rows `debt.seed_terms` takes from the terms file. Started before the
server's own read of the file, it is done by the time settling is.

The server uses a row only for a node whose gist is still that one, so the journal's later writes, a
`.prev` read in place of a damaged file, or any node the child read otherwise, cost their own work
and nothing else. Any failure of the child (it cannot start, dies, answers garbage, is not done
within what making the terms would take the server itself: a busy machine's other core) leaves the
server to make them, as it does without a child. The pipes are ours, so what comes back is trusted
to unpickle.

    python -m kg_actors.term_process GRAPH_FILE    # the child: the rows, pickled, on stdout
"""

from __future__ import annotations

import json
import logging
import pickle
import subprocess
import sys
from pathlib import Path

from .core.debt import TermRow, node_terms
from .storage import term_cache

log = logging.getLogger(__name__)

# A file this big holds ~4,000 nodes or more (the bench's 10,000 take 10 MB): under it the child's own
# start (~0.1 s) costs about what it saves.
MIN_BYTES = 4 << 20
# What the server's own work costs a node (~13 us at 10,000 nodes on the bench machine, with room): a child
# still busy after settling waits at most this long per node, so a start never pays more than twice it.
SECONDS_PER_NODE = 20e-6


class TermChild:
    """A child working out a graph file's term rows; `rows` collects them (once)."""

    def __init__(self, proc: subprocess.Popen[bytes]):
        self._proc = proc

    @classmethod
    def start(cls, path: Path, min_bytes: int | None = None) -> TermChild | None:
        """A child for `path`'s terms, when there is no terms file to take them from and the file is big
        enough to be worth one (`min_bytes`, default MIN_BYTES); else (or when it cannot start) None."""
        try:
            least = MIN_BYTES if min_bytes is None else min_bytes
            if term_cache.cache_path(path).exists() or not path.exists() or path.stat().st_size < least:
                return None  # a new graph has no file yet: nothing to say
            return cls(subprocess.Popen([sys.executable, "-P", "-m", __name__, str(path)], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        except OSError as exc:
            log.info("terms process not started (%r): the terms are made in the server", exc)
            return None

    def rows(self, nodes: int) -> dict[str, TermRow]:
        """The child's rows for a graph of `nodes` nodes, or none when it failed or is not done within what
        the server's own work would take (never raises); the child is gone after."""
        try:
            out, _ = self._proc.communicate(timeout=max(0.05, nodes * SECONDS_PER_NODE))
            if self._proc.returncode != 0:
                raise ValueError(f"exit {self._proc.returncode}")
            rows = pickle.loads(out)
            if not isinstance(rows, dict):
                raise ValueError("not a dict of rows")
            return rows
        except Exception as exc:  # noqa: BLE001 - any failure of the child: the server makes the terms
            log.info("terms process failed (%r): the terms are made in the server", exc)
            return {}
        finally:
            self.close()

    def close(self) -> None:
        """Stop the child if it still runs (a load that failed or went another way)."""
        if self._proc.returncode is None:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def file_rows(path: Path) -> dict[str, TermRow]:
    """The child's work: each node's (gist, stems, names), read as GraphData.from_json reads id and gist."""
    raw = json.loads(path.read_bytes())
    nodes = raw.get("nodes") if isinstance(raw, dict) else None
    rows: dict[str, TermRow] = {}
    for node_id, node in (nodes or {}).items():
        if isinstance(node, dict):
            key, gist = str(node_id), str(node.get("gist", ""))
            rows[key] = (gist, *node_terms(key, gist))
    return rows


def main() -> int:
    sys.stdout.buffer.write(pickle.dumps(file_rows(Path(sys.argv[1])), protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
