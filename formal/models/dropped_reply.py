"""Dropped replies: a kg_read part the tool call returned, which the transport never got to the client.

paging.py counts a part delivered when the tool call returns it. Over HTTP a reply can still be
lost after that: the client gives up (a timeout, a cancelled call) while the call waits for its
turn or runs, and hypercorn drops the reply written to a closed connection without telling the
app. Here the MCP transport is a step of its own, after the tool returns:
- `conduct.read.read` → `deliver`: the registry's `SetPages` (`Registry.set_pages`: the parts after
  the first replace what was pending, under a new page generation); the first part is the reply;
- `conduct.read.more`: the registry's `NextPage` (`Registry.next_page`: pops the first pending part
  and says its generation); that part is the reply;
- the transport (`http.app.App._mcp`, after the SDK's `handle_request` returned the reply): either
  the client is still connected and the reply is written (`Effects.delivered`: the part's effects,
  the nodes it shows marked seen), or the client is gone (`Effects.abandoned`: `ReofferPage`, the
  part goes back in front of the pending ones if its generation is still the session's).
Bounds: 2 reads (3 parts showing nodes 0, 1, 2; then 2 parts showing 2, 0), 3 `more` calls, 2 calls in
flight, any reply written or dropped.
Invariants:
- no part lost: every part of the latest read was written, is pending, or is held by a call in flight;
- seen only if delivered: a node counts as seen only once a written part showed it;
- once: no part written twice;
- replaced: only the latest read's parts are pending (a `more` never gets an older read's part).
Designs: "at return" is the code before this model: effects applied when the tool returns, a
dropped part gone with them (read, return: 2 steps to nodes counted seen that no written part
showed; one more, the drop, and the part is lost: F38 for pages);
"reoffer any" hands a dropped part back whatever read is newest (a part of a read the session
replaced comes back in front of the new read's: 5 steps); "ours": handed back under its
generation only. Replayed on the real app in tests/formal/test_replays.py.
"""

from __future__ import annotations

import attrs

from ..explore import Model
from .paging import READS, each_call, starts  # the same reads, calls and bounds as paging

Part = tuple[int, int]  # (read, index)


@attrs.frozen
class Call:
    kind: str  # "read" or "more"
    read: int = 0  # a read call's read
    part: Part | None = None  # the part it returned, once returned (None: not yet at the registry)
    empty: bool = False  # a more that found nothing pending


@attrs.frozen
class S:
    reads: int = 0
    mores: int = 0
    calls: tuple[Call, ...] = ()
    pending: tuple[Part, ...] = ()
    latest: int | None = None  # the read whose parts were set last (its generation)
    seen: frozenset = frozenset()
    written: tuple[Part, ...] = ()


def make(design: str) -> Model:
    def steps(s: S):
        yield from starts(s, Call)
        for c, rest, swap in each_call(s):
            if c.part is None and not c.empty:  # at the registry
                if c.kind == "read":
                    parts = tuple((c.read, k) for k in range(1, len(READS[c.read])))
                    part: Part = (c.read, 0)
                    nxt = attrs.evolve(s, calls=swap(attrs.evolve(c, part=part)), latest=c.read, pending=parts)
                    label = f"read {c.read}: SetPages, returns {part}"
                elif not s.pending:
                    yield "more: nothing pending", attrs.evolve(s, calls=swap(attrs.evolve(c, empty=True)))
                    continue
                else:
                    part = s.pending[0]
                    nxt = attrs.evolve(s, calls=swap(attrs.evolve(c, part=part)), pending=s.pending[1:])
                    label = f"more: NextPage returns {part}"
                if design == "at return":
                    nxt = _mark(nxt, part)
                yield label, nxt
            elif c.empty:
                yield "more: NOTHING_PENDING written", attrs.evolve(s, calls=rest)
            else:
                assert c.part is not None
                done = attrs.evolve(s, calls=rest)
                written = attrs.evolve(done, written=(*s.written, c.part))
                yield f"{c.part} written", written if design == "at return" else _mark(written, c.part)
                if design == "at return":
                    yield f"{c.part} dropped", done
                elif design == "reoffer any" or c.part[0] == s.latest:
                    yield f"{c.part} dropped, handed back", attrs.evolve(done, pending=(c.part, *s.pending))
                else:
                    yield f"{c.part} dropped, its read replaced", done

    def _mark(s: S, part: Part) -> S:
        return attrs.evolve(s, seen=s.seen | set(READS[part[0]][part[1]]))

    def no_part_lost(s: S) -> bool:
        if s.latest is None:
            return True
        held = {c.part for c in s.calls}
        return all(p in s.written or p in s.pending or p in held
                   for p in ((s.latest, k) for k in range(len(READS[s.latest]))))

    return Model(f"dropped_reply({design})", S(), steps, {
        "no part lost": no_part_lost,
        "seen only if delivered": lambda s: all(any(n in READS[r][k] for r, k in s.written) for n in s.seen),
        "once": lambda s: len(set(s.written)) == len(s.written),
        "replaced": lambda s: all(p[0] == s.latest for p in s.pending),
    })


MODELS = [make("at return"), make("reoffer any"), make("ours")]
EXPECTED = {"dropped_reply(at return)": "seen only if delivered", "dropped_reply(reoffer any)": "replaced",
            "dropped_reply(ours)": None}
