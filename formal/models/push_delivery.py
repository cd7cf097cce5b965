"""Push-once delivery of other sessions' writes in hook replies, with replies clients give up on (F38).

Models: another session's `kg_put_node` (a node's write stamp moves to now), the session
registry's `Registry._claim_push` (atomic: the window starts at the last claim, or earlier when
a window was re-offered, and the next starts now), `Memory.push_notice` building a reply from
the window (written in it, not seen since), and the hook endpoint's delivery
(`rest_hooks._delivered`): the reply is sent, and then `MarkSeen` runs; or the client hung up,
and `ReofferPush` hands back what it showed (`Registry.reoffer_push`): the next claim offers those
(node, stamp) items again, each still only if not rewritten and not seen since. Time is a counter
that every write and claim advances.

Bounds: 2 nodes, 3 writes, 4 hook replies, at most 2 in flight at once.
Invariants:
- marked only if delivered: a node counts as seen through a push only once a reply showing
  it was sent (F14, F38);
- no lost push: every write is delivered, or still offerable (after the window's start and not
  seen), or in a reply in flight;
- once: no write goes out in two delivered replies.
`make("build")` is the design we left: seen marked and the window consumed at build time.
`make("window")` re-offered the abandoned reply's whole window: it overlapped a window still in
flight, and a write went out twice (7 steps). `make("items")` is today's code.
"""

from __future__ import annotations

import attrs

from ..explore import Model

NODES = 2
WRITES = 3
HOOKS = 4
IN_FLIGHT = 2


@attrs.frozen
class Reply:
    since: int
    shown: frozenset  # (node, stamp)


@attrs.frozen
class S:
    t: int = 0
    stamps: tuple[int, ...] = (0,) * NODES  # each node's last write (0: never written)
    writes: int = 0
    pushed: int = 0  # the registry's pushed_ts
    reoffer: int | None = None  # "window": the earliest start handed back
    again: frozenset = frozenset()  # "items": (node, stamp) handed back
    marked: tuple[int, ...] = (0,) * NODES  # seen_at through pushes
    flight: tuple = ()  # replies built, not yet sent
    hooks: int = 0
    delivered: frozenset = frozenset()  # (node, stamp) that reached the client
    twice: frozenset = frozenset()  # (node, stamp) delivered in two replies


def make(design: str) -> Model:
    deferred = design != "build"

    def steps(s: S):
        if s.writes < WRITES:
            for n in range(NODES):
                t = s.t + 1
                yield f"other session writes n{n}@{t}", attrs.evolve(
                    s, t=t, stamps=tuple(t if i == n else v for i, v in enumerate(s.stamps)), writes=s.writes + 1)
        if s.hooks < HOOKS and len(s.flight) < IN_FLIGHT:
            t = s.t + 1
            since = s.pushed if s.reoffer is None else min(s.pushed, s.reoffer)
            fresh = {(n, st) for n, st in enumerate(s.stamps) if since < st}
            fresh |= {(n, st) for n, st in s.again if s.stamps[n] == st}
            shown = frozenset((n, st) for n, st in fresh if s.marked[n] < st)
            nxt = attrs.evolve(s, t=t, pushed=t, reoffer=None, again=frozenset(), hooks=s.hooks + 1,
                               flight=(*s.flight, Reply(since, shown)))
            if not deferred:
                nxt = attrs.evolve(nxt, marked=_mark(s.marked, shown))
            yield f"hook claims [{since},{t}) shows {sorted(shown)}", nxt
        for i, r in enumerate(s.flight):
            rest = s.flight[:i] + s.flight[i + 1:]
            twice = s.twice | (r.shown & s.delivered)
            sent = attrs.evolve(s, flight=rest, delivered=s.delivered | r.shown, twice=twice)
            if deferred:
                sent = attrs.evolve(sent, marked=_mark(s.marked, r.shown))
            yield f"reply {i} sent", sent
            gone = attrs.evolve(s, flight=rest)
            if design == "window" and r.shown:
                gone = attrs.evolve(gone, reoffer=r.since if s.reoffer is None else min(s.reoffer, r.since))
            elif design == "items":
                gone = attrs.evolve(gone, again=s.again | r.shown)
            yield f"client of reply {i} hung up", gone

    return Model(f"push_delivery({design})", S(), steps, {
        "marked only if delivered": _marked_delivered,
        "no lost push": _no_loss,
        "once": lambda s: not s.twice,
    })


def _mark(marked: tuple[int, ...], shown: frozenset) -> tuple[int, ...]:
    out = list(marked)
    for n, st in shown:
        out[n] = max(out[n], st)
    return tuple(out)


def _marked_delivered(s: S) -> bool:
    return all(st == 0 or (n, st) in s.delivered or any((n, x) in s.delivered for x in range(st, s.t + 1))
               for n, st in enumerate(s.marked))


def _no_loss(s: S) -> bool:
    since = s.pushed if s.reoffer is None else min(s.pushed, s.reoffer)
    for n, st in enumerate(s.stamps):
        if st == 0 or (n, st) in s.delivered:
            continue
        if any((n, st) in r.shown for r in s.flight):
            continue
        if (since < st or (n, st) in s.again) and s.marked[n] < st:
            continue  # the next claim offers it
        return False
    return True


MODELS = [make("build"), make("window"), make("items")]
EXPECTED = {"push_delivery(build)": "marked only if delivered", "push_delivery(window)": "once",
            "push_delivery(items)": None}
