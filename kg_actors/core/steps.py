"""Stepwise computations: generators that yield where their owner may pause, returning their result."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any


def run_steps(steps: Generator[None, None, Any]) -> Any:
    """A stepwise computation run to its end in one go."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
