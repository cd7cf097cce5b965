"""Paging: a kg_read reply over the harness's limit goes out in parts, each part's effects applied on its delivery.

Models one session's tool calls, two of them in flight at once (an MCP client may overlap calls):
- `conduct.read.read` renders a reply and cuts it into parts (`core.paging.split`: each part carries
  the effects of the lines it shows: the nodes marked seen, an archived node's promotion); then
  `deliver`: the registry's `SetPages` (`Registry.set_pages`: the parts after the first replace
  whatever was pending), then `apply_effects` of the first part, and the first part is the reply;
- `conduct.read.more` (`kg_read more=true`): the registry's `NextPage` (`Registry.next_page`: pops
  the first pending part, atomically), then `apply_effects` of that part, and it is the reply
  (`NOTHING_PENDING` when none was pending).
"Delivered" is the tool call returning the part (the model, like the code, does not see the
transport: a client that drops a tool result after it was returned is out of scope).

Bounds: 2 reads (3 parts showing nodes 0, 1, 2; then 2 parts showing 2, 0), 3 `more` calls, 2 calls
in flight at once.
Invariants:
- seen only if delivered: a node counts as seen (or promoted: the same `apply_effects`) only once a
  part showing it was delivered;
- once: no part is delivered twice;
- replaced: a `more` never takes a part of a read older than the last one whose parts were set.
Designs: "build" applies every part's effects when the reply is built (a node on part 2 counts as
seen before any part is delivered: 2 steps, F13); "peek" reads the next part, applies it and pops only then
(two overlapping `more` calls deliver one part twice: 9 steps); "append" adds a new read's parts behind the
pending ones instead of replacing them (F16's design space: a `more` after the new read returns the
old read's part: 7 steps). "ours" is today's code; "build" and
"append" are what tests/e2e/test_findings.py F13 and F16 check on the real server.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from ..explore import Model

READS = (((0,), (1,), (2,)), ((2,), (0,)))  # each read's parts: the nodes each part shows
MORES = 3
IN_FLIGHT = 2


@attrs.frozen
class Call:
    kind: str  # "read" or "more"
    read: int = 0  # a read call's read
    phase: int = 0  # read: 0 rendered, 1 parts set; more: 0 not yet at the registry, 1 holds `part`
    part: tuple[int, int] | None = None  # (read, index) a more call took (or peeked)


@attrs.frozen
class S:
    reads: int = 0
    mores: int = 0
    calls: tuple[Call, ...] = ()
    pending: tuple[tuple[int, int], ...] = ()  # the registry's parts, in order
    latest: int | None = None  # the read whose parts were set last
    seen: frozenset = frozenset()
    delivered: tuple[tuple[int, int], ...] = ()
    stale: bool = False  # a more took a part of a read older than the latest


def starts(s, call: type) -> Iterator[tuple[str, object]]:
    """The client's next call, a read or a more, while fewer than IN_FLIGHT are (dropped_reply's too)."""
    if len(s.calls) < IN_FLIGHT:
        if s.reads < len(READS):
            yield f"kg_read {s.reads} renders", attrs.evolve(
                s, reads=s.reads + 1, calls=(*s.calls, call("read", s.reads)))
        if s.mores < MORES:
            yield "kg_read more=true", attrs.evolve(s, mores=s.mores + 1, calls=(*s.calls, call("more")))


def each_call(s) -> Iterator[tuple]:
    """Each call in flight, the calls without it, and a function giving the calls with it replaced."""
    for i, c in enumerate(s.calls):
        yield c, s.calls[:i] + s.calls[i + 1:], lambda c2, i=i: s.calls[:i] + (c2,) + s.calls[i + 1:]


def make(design: str) -> Model:
    def steps(s: S):
        yield from starts(s, Call)
        for c, rest, swap in each_call(s):
            if c.kind == "read" and c.phase == 0:
                parts = tuple((c.read, k) for k in range(1, len(READS[c.read])))
                nxt = attrs.evolve(s, calls=swap(attrs.evolve(c, phase=1)), latest=c.read,
                                   pending=s.pending + parts if design == "append" else parts)
                if design == "build":
                    nxt = attrs.evolve(nxt, seen=s.seen.union(*READS[c.read]))
                yield f"read {c.read}: SetPages", nxt
            elif c.kind == "read":
                yield f"read {c.read}: part 1 delivered", _deliver(attrs.evolve(s, calls=rest), (c.read, 0))
            elif c.phase == 0:
                if not s.pending:
                    yield "more: nothing pending", attrs.evolve(s, calls=rest)
                    continue
                part = s.pending[0]
                stale = s.stale or part[0] != s.latest
                taken = s.pending if design == "peek" else s.pending[1:]
                yield f"more: NextPage takes {part}", attrs.evolve(
                    s, calls=swap(attrs.evolve(c, phase=1, part=part)), pending=taken, stale=stale)
            else:
                assert c.part is not None
                nxt = attrs.evolve(s, calls=rest)
                if design == "peek":
                    nxt = attrs.evolve(nxt, pending=nxt.pending[1:])
                yield f"more: {c.part} delivered", _deliver(nxt, c.part)

    def _deliver(s: S, part: tuple[int, int]) -> S:
        if design != "build":
            s = attrs.evolve(s, seen=s.seen | set(READS[part[0]][part[1]]))
        return attrs.evolve(s, delivered=(*s.delivered, part))

    return Model(f"paging({design})", S(), steps, {
        "seen only if delivered": lambda s: all(any(n in READS[r][k] for r, k in s.delivered) for n in s.seen),
        "once": lambda s: len(set(s.delivered)) == len(s.delivered),
        "replaced": lambda s: not s.stale,
    })


MODELS = [make("build"), make("peek"), make("append"), make("ours")]
EXPECTED = {"paging(build)": "seen only if delivered", "paging(peek)": "once", "paging(append)": "replaced",
            "paging(ours)": None}
