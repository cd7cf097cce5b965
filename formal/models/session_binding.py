"""Which KG session a harness session's hooks and tools act for, across resume, fork, clear,
compaction and a session opened by kg_read before any hook (F8, F12).

Models: `Ambient.bootstrap` (SessionStart: the session bound to this harness session id, else the
one its transcript names, forked (`Registry.fork`, a copy), else a new one (`Registry.register`);
`clear` always starts a new one; `compact` keeps it and resets its context,
`Registry.reset_context`), `Ambient.resolve` (a hook: the session bound to its harness id, else the
transcript's candidate only while it is bound to no one, `Registry.bind`), a kg_read that opens an
unbound session (`Memory.open_session`), and the harness copying a transcript into a new harness
session (Claude Code's fork, Codex's resume). A transcript names the last KG session shown in it.

Bounds: 2 harness sessions (plus one the harness forks), 4 events each kind-bounded, 3 KG sessions.
Invariants:
- own: a hook acts for a KG session bound to its own harness session (or for none);
- unshared: two harness sessions never act for the same KG session (F8: a fork shared its
  parent's; F12: a hook took a session another harness session had bound).
`make("share")`: the fork reuses the parent session; `make("steal")`: a hook binds the
transcript's candidate even when it is bound; `make("today")`: our code.
"""

from __future__ import annotations

import attrs

from ..explore import Model

HARNESS = 3  # h0, h1, and h2 which the harness may create as a fork of one of them
EVENTS = 5
KG = 3


@attrs.frozen
class S:
    bound: tuple = ()  # KG session i -> the harness session bound to it (None: unbound)
    transcript: tuple = (None,) * HARNESS  # harness session -> the KG session its transcript names last
    alive: tuple = (True, True, False)  # h2 exists only once the harness forked it
    acting: tuple = (None,) * HARNESS  # harness session -> the KG session its last hook acted for
    events: int = 0


def _find(s: S, h: int) -> int | None:
    found = [i for i, b in enumerate(s.bound) if b == h]
    return found[-1] if found else None  # the newest bound one


def _new(s: S, h: int | None) -> tuple[S, int] | None:
    if len(s.bound) >= KG:
        return None
    return attrs.evolve(s, bound=(*s.bound, h)), len(s.bound)


def _shown(s: S, h: int, i: int) -> S:
    return attrs.evolve(s, transcript=tuple(i if k == h else t for k, t in enumerate(s.transcript)))


def make(design: str) -> Model:
    def start(s: S, h: int, source: str):
        if source == "clear":
            made = _new(s, h)
            return None if made is None else _shown(made[0], h, made[1])
        i = _find(s, h)
        if i is not None or source == "compact":
            return s if i is None else _shown(s, h, i)
        cand = s.transcript[h]
        if cand is not None:
            if design == "share":
                bound = tuple(h if k == cand else b for k, b in enumerate(s.bound))
                return _shown(attrs.evolve(s, bound=bound), h, cand)
            made = _new(s, h)  # the fork: a copy bound to this harness session
            return None if made is None else _shown(made[0], h, made[1])
        made = _new(s, h)
        return None if made is None else _shown(made[0], h, made[1])

    def hook(s: S, h: int) -> S:
        i = _find(s, h)
        if i is None:
            cand = s.transcript[h]
            if cand is not None and (design == "steal" or s.bound[cand] is None):
                s = attrs.evolve(s, bound=tuple(h if k == cand else b for k, b in enumerate(s.bound)))
                i = cand
        return attrs.evolve(s, acting=tuple(i if k == h else a for k, a in enumerate(s.acting)))

    def steps(s: S):
        if s.events >= EVENTS:
            return
        t = attrs.evolve(s, events=s.events + 1)
        for h in range(HARNESS):
            if not t.alive[h]:
                continue
            for source in ("startup", "clear", "compact"):
                nxt = start(t, h, source)
                if nxt is not None:
                    yield f"h{h} SessionStart({source})", nxt
            yield f"h{h} hook", hook(t, h)
            made = _new(t, None)
            if made is not None:
                yield f"h{h} kg_read opens an unbound session", _shown(made[0], h, made[1])
        if not t.alive[2]:
            for parent in (0, 1):
                alive = (t.alive[0], t.alive[1], True)
                transcript = (*t.transcript[:2], t.transcript[parent])
                yield f"harness forks h{parent} into h2", attrs.evolve(t, alive=alive, transcript=transcript)

    return Model(f"session_binding({design})", S(), steps, {
        "own": lambda s: all(a is None or s.bound[a] == h for h, a in enumerate(s.acting)),
        "unshared": lambda s: len([a for a in s.acting if a is not None]) == len({a for a in s.acting if a is not None}),
    })


MODELS = [make("share"), make("steal"), make("today")]
EXPECTED = {"session_binding(share)": "own", "session_binding(steal)": "own", "session_binding(today)": None}
