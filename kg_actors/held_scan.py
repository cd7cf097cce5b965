"""Looking for secrets a hand edit left in the store's graph files, without holding the hooks up.

The detector costs ~0.3 ms a node (3 s for 10,000 nodes). In a worker thread that time shares the
interpreter's lock with every hook reply, so a large graph's scan runs in a niced child process
(`python -m kg_actors.storage.held_on_disk`), as its first index does (index_process.py); a small
one's in a thread, cheaper than a child's start. A child that fails is replaced by the thread: a
sync never pushes a secret because a scan could not run.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import trio

from .core import constants as C
from .core.snapshot import GraphSnapshot
from .graph_handle import GraphHandle
from .storage import held_on_disk
from .core.held_secrets import Held, tools_for

log = logging.getLogger(__name__)


async def _in_child(args: list[str]) -> dict[str, list[Held]]:
    proc = await trio.run_process([sys.executable, "-P", "-m", held_on_disk.__name__, *args], check=False,
                                  capture_stdout=True, capture_stderr=True)
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    return held_on_disk.from_json(json.loads(proc.stdout))


async def _scanned(args: list[str], large: bool, in_thread: object) -> dict[str, list[Held]]:
    if large:
        try:
            return await _in_child(args)
        except Exception as exc:  # noqa: BLE001 - any failure of the child: the thread scans instead
            log.warning("the secret scan's child process failed (%s); scanning in a thread", exc)
    return await trio.to_thread.run_sync(in_thread)  # type: ignore[arg-type]


async def say_held(path: Path, nodes: int) -> list[Held]:
    """Name in the log each entry of a loaded graph file that holds a secret (never the secret): the file is
    kept as written (a lesson is never dropped); a write must leave it out, and kg sync refuses to push it."""
    found = (await _scanned([str(path.parent), str(path)], nodes >= C.SECRET_SCAN_PROCESS_MIN_NODES,
                            lambda: {"file": held_on_disk.held_in_file(path)})).get("file", [])
    if found:
        log.warning("%s holds what looks like a secret in %d entr%s, kept as written (agents are shown a marker "
                    "in its place, and no entry whose name holds one): %s. Edit each in the editor or with %s, "
                    "sending the field without the secret (until then no commit records them, and kg sync refuses "
                    "to push them)",
                    path.name, len(found), "y" if len(found) == 1 else "ies", "; ".join(h.said() for h in found[:8])
                    + (f"; and {len(found) - 8} more" if len(found) > 8 else ""), tools_for(found))
    return found


async def mask_held(handle: GraphHandle, path: Path, graph: GraphSnapshot, scope: trio.CancelScope,
                    answered: trio.Event | None = None) -> None:
    """The load's scan (`say_held`), its answer then handed to the actor: what it found nothing in is shown to
    agents without another check; until then a reply checks what it renders (core/withheld.py). The scan reads
    the file the load read; a journal replayed over it holds writes kg checked. The actor cancels `scope` when
    its loop ends: nobody takes the answer then, and the scan's child is stopped. `answered` is set once the
    answer is queued to the actor (the first index waits for it), or the scan failed or stopped."""
    try:
        with scope:
            try:
                found = await say_held(path, len(graph.nodes))
            except Exception:  # noqa: BLE001 - replies go on checking what they render: safe, only slower
                log.exception("%s: the scan for secrets a hand edit left failed", handle.key)
                return
            handle.scanned(graph, tuple((h.what, h.key) for h in found))
    finally:
        if answered is not None:
            answered.set()


async def refuse_sync(root: Path) -> None:
    """SecretHeld when a graph file of the store holds a secret (kg sync commits and pushes them all). Always
    in a child: the store's graphs may be large, and a sync is rare beside a child's start."""
    found = await _scanned([str(root)], True, lambda: held_on_disk.held(root))
    refusal = held_on_disk.sync_refusal(found)
    if refusal is not None:
        raise refusal
