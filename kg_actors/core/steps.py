"""Stepwise computations: generators that yield where their owner may pause, returning their result."""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")


def run_steps(steps: Generator[None, None, T]) -> T:
    """A stepwise computation run to its end in one go."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: T = done.value  # the generator's return, typed by its signature
            return value


class Paced:
    """Work counted toward the next pause of a stepwise pass: `done(n)` is True, and the count starts
    over, once `per_step` units have been done since the last True (the pass should yield then)."""

    __slots__ = ("per_step", "_work")

    def __init__(self, per_step: int):
        self.per_step = per_step
        self._work = 0

    def done(self, units: int) -> bool:
        self._work += units
        if self._work < self.per_step:
            return False
        self._work = 0
        return True
