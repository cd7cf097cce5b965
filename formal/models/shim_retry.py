"""The shim sends a request again only when its connection was refused, across server restarts.

Models `shim.Shim.handle` (POST; on ConnectionRefusedError `ensure_server` then one more POST; on
any other OSError a JSON-RPC error, never a second send), `Shim.ensure_server` (`kg start`), and
the server: up or down, applying a write when it takes the request (`Memory.put_node`, durable
before its reply), and crashing at any step (before applying, after applying but before the
reply is out), after which `kg start` brings it back.

Bounds: 2 writes from 2 shims (interleaved), 2 crashes, 1 start per request.
Invariants:
- at most once: no write is applied twice;
- no false success: a write the client was told succeeded was applied.
`make(retry_any=True)`: a design that also resends after a dropped connection.
"""

from __future__ import annotations

import attrs

from ..explore import Model

WRITES = 2
CRASHES = 2


@attrs.frozen
class S:
    up: bool = False  # the server is down when the shims start
    crashes: int = 0
    phase: tuple = ("new",) * WRITES  # new | at_server | applied | done_ok | done_error
    retried: tuple = (False,) * WRITES
    applied: tuple = (0,) * WRITES  # how many times the server applied each write


def _set(t: tuple, i: int, v) -> tuple:
    return tuple(v if k == i else x for k, x in enumerate(t))


def make(retry_any: bool) -> Model:
    def steps(s: S):
        for i, phase in enumerate(s.phase):
            if phase == "new":
                if s.up:
                    yield f"w{i} POST reaches the server", attrs.evolve(s, phase=_set(s.phase, i, "at_server"))
                elif not s.retried[i]:
                    yield f"w{i} refused: kg start, send again", attrs.evolve(
                        s, up=True, retried=_set(s.retried, i, True))
                else:
                    yield f"w{i} refused again: error", attrs.evolve(s, phase=_set(s.phase, i, "done_error"))
            elif phase == "at_server" and s.up:
                yield f"w{i} applied", attrs.evolve(s, phase=_set(s.phase, i, "applied"),
                                                    applied=_set(s.applied, i, s.applied[i] + 1))
            elif phase == "applied" and s.up:
                yield f"w{i} reply out", attrs.evolve(s, phase=_set(s.phase, i, "done_ok"))
            elif phase in ("at_server", "applied") and not s.up:
                # The connection dropped under the request: it may or may not have been applied.
                if retry_any and not s.retried[i]:
                    yield f"w{i} dropped: send again", attrs.evolve(
                        s, up=True, phase=_set(s.phase, i, "new"), retried=_set(s.retried, i, True))
                else:
                    yield f"w{i} dropped: error", attrs.evolve(s, phase=_set(s.phase, i, "done_error"))
        if s.up and s.crashes < CRASHES:
            yield "server crashes", attrs.evolve(s, up=False, crashes=s.crashes + 1)

    return Model(f"shim_retry(retry_any={retry_any})", S(), steps, {
        "at most once": lambda s: all(n <= 1 for n in s.applied),
        "no false success": lambda s: all(p != "done_ok" or n == 1 for p, n in zip(s.phase, s.applied)),
    })


MODELS = [make(retry_any=True), make(retry_any=False)]
EXPECTED = {"shim_retry(retry_any=True)": "at most once", "shim_retry(retry_any=False)": None}
