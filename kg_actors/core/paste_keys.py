"""What a pasted block names that a lesson would name too: the error it reports.

A person who pastes a traceback or an error log with their question asks about *that* error, and
the lesson written when it was first met names it the same way (`MissingGreenlet`,
`UniqueViolation`). Everything else in a paste (library frames, headers, timings, file names,
even the error's message) matches lessons by accident as often as not: measured on prompts written
blind for it (bench/RESULTS-recall.md), file names and messages bought hits and cost as much silence.
So only the error's name is taken, by its shape, never by a tool's name: a CamelCase word right
before a colon at a line's start, as tracebacks and loggers print it, when a package names it or
its name says error (`sqlalchemy.exc.MissingGreenlet: ...`, `TypeError: ...`; not a field like
`LastState: Terminated`), with the package it came from.

It joins the typed words only after those alone earned recall (recall.human_text), so a paste with
nothing typed around it still injects nothing.
"""

from __future__ import annotations

import re

# pytest marks the lines of a failure's error with "E   " ("E   hypothesis.errors.DeadlineExceeded: ...").
_ERROR_NAME = re.compile(r"^\s*(?:E\s+)?((?:[a-z_][\w]*\.)*)([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\s*:")
_ERRORISH = re.compile(r"(?:Error|Exception|Warning|Failure|Fault|Timeout|Panic|Violation|Denied|Refused)$")

MAX_NAMES = 2


def pasted_keys(prompt: str, typed: str) -> list[str]:
    """The error names (each with its package, when one names it) on the lines of `prompt` that are
    not in `typed` (its typed part), at most MAX_NAMES; none when nothing was pasted."""
    typed_lines = set(typed.splitlines())
    names: list[str] = []
    for line in prompt.splitlines():
        if len(names) >= MAX_NAMES:
            break
        if line in typed_lines:
            continue
        named = _ERROR_NAME.match(line)
        if named is None or not (named.group(1) or _ERRORISH.search(named.group(2))):
            continue  # no error's name, or a field (`LastState: Terminated`)
        package = named.group(1).split(".", 1)[0]
        key = f"{package} {named.group(2)}" if package else named.group(2)
        if key not in names:
            names.append(key)
    return names
