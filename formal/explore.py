"""A small explicit-state model checker: breadth-first over every interleaving, within bounds.

A model is a set of hashable states, an initial state, a function giving each
state's successor steps (a label and the next state), and invariants over
states. `explore` visits every state reachable within `max_states`, checks
every invariant at every state, and returns the shortest trace to the first
state that breaks one: breadth-first, so a counterexample is as short as
any, which makes it easy to replay on the real code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable

import attrs

State = Hashable
Step = tuple[str, State]


@attrs.frozen
class Model:
    name: str
    initial: State
    steps: Callable[[State], Iterable[Step]]
    invariants: dict[str, Callable[[State], bool]]


@attrs.frozen
class Result:
    model: str
    states: int
    complete: bool  # every reachable state was visited (False: max_states cut the search)
    broken: str | None = None  # the first invariant found broken
    trace: tuple[str, ...] = ()  # the step labels that reach it from the initial state
    state: State = None


def explore(model: Model, max_states: int = 1_000_000) -> Result:
    parents: dict[State, tuple[State, str] | None] = {model.initial: None}
    queue = deque([model.initial])
    while queue:
        state = queue.popleft()
        for name, holds in model.invariants.items():
            if not holds(state):
                return Result(model.name, len(parents), False, name, _trace(parents, state), state)
        for label, nxt in model.steps(state):
            if nxt not in parents:
                if len(parents) >= max_states:
                    return Result(model.name, len(parents), False)
                parents[nxt] = (state, label)
                queue.append(nxt)
    return Result(model.name, len(parents), True)


def _trace(parents: dict, state: State) -> tuple[str, ...]:
    labels = []
    while (link := parents[state]) is not None:
        state, label = link
        labels.append(label)
    return tuple(reversed(labels))
