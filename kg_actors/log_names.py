"""The server's log with the names it prints masked where they hold a key's shape."""

from __future__ import annotations

import logging

from .core.held_names import masked_names


class MaskedNames(logging.Filter):
    """A line naming an edge of a hand-edited graph (`removing edge a->ghp_...:uses`) printed the key whole in
    server.log, which `kg logs` shows (an agent may run it). Lines are few: the check costs them nothing felt."""

    def filter(self, record: logging.LogRecord) -> bool:
        said = record.getMessage()
        masked = masked_names(said)
        if masked != said:
            record.msg, record.args = masked, None
        return True


def install() -> None:
    """On every handler of the root logger (basicConfig's): a filter on a logger would miss its children."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(MaskedNames())
