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
