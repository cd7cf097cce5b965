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

The identifiers a paste holds join too, after the error's name and at most MAX_IDENTIFIERS: a word of
parts (`acks_late`, `traces_sample_rate`, `proxy-body-size`, `staleTime`, `sqlalchemy.orm`) is a name
someone chose, and a lesson about that setting or call uses it the same way; a plain word of a paste is
anyone's. Judged on splits written blind (bench/RESULTS-recall.md): on prompts with a paste, more hits, and
the longer prompt raises recall's chance bar as much as the names bring chance matches.

They join the typed words only after those alone earned recall (recall.human_text), so a paste with
nothing typed around it still injects nothing.

One exception to leaving messages out: a question that names nothing ("why does this fail?" above an
alembic log) asks about the paste's error and has no words of its own to find it by. Such a question
borrows the message of the paste's first error line (`error_message`): "ERROR [alembic.util.messaging]
Multiple head revisions are present for given argument 'head'; ..." gives "Multiple head revisions are
present for given argument", the words its lesson was written in.
"""

from __future__ import annotations

import re

# pytest marks the lines of a failure's error with "E   " ("E   hypothesis.errors.DeadlineExceeded: ...").
_ERROR_NAME = re.compile(r"^\s*(?:E\s+)?((?:[a-z_][\w]*\.)*)([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\s*:")
_ERRORISH = re.compile(r"(?:Error|Exception|Warning|Failure|Fault|Timeout|Panic|Violation|Denied|Refused)$")

MAX_NAMES = 2
MAX_IDENTIFIERS = 8
MAX_IDENTIFIER_CHARS = 80
# A paste's words are cut out first, in one linear pass; each is then matched whole, so no pattern ever runs
# over a long line (a search for parts inside 19,000 letters without a separator took 5 s).
_TOKEN = re.compile(r"[A-Za-z0-9_.\-]+")
# snake_case, dotted and kebab-case words of two parts or more; camelCase and PascalCase with an inner capital.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)+"
                         r"|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*")


# A line that reports an error: a log level or a label saying so, then (past a logger's [name]) its message.
_ERROR_LINE = re.compile(r"\b(?:(?:ERROR|FATAL|CRITICAL|FAILED|FAILURE)\b\]?:?|(?:[A-Z]\w*)?(?:Error|Exception)\b:"
                         r"|(?:error|fatal|panic):)\s*(?:\[[^\]\n]{0,80}\]\s*)*")  # not `raise KeyError(k)`
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")  # a value the message quotes: this run's, not the error's
# A word of prose: not a name, a path's part or a key of a value (pid:12).
_MESSAGE_WORD = re.compile(r"(?<![\w.\-/])(?:[A-Za-z][a-z]+|[A-Z]{2,})(?![\w.\-/]|[:=]\S)")
MAX_MESSAGE_WORDS = 8


def error_message(prompt: str, typed: str) -> list[str]:
    """The words of the message of the first error line among the lines of `prompt` not in `typed` (what
    follows its level or label and its logger's name, up to a `;`, without the values it quotes), at
    most MAX_MESSAGE_WORDS; none when no pasted line reports an error in words."""
    typed_lines = set(typed.splitlines())
    for line in prompt.splitlines()[:_MESSAGE_LINES]:
        if line in typed_lines:
            continue
        found = _ERROR_LINE.search(line[:_MESSAGE_CHARS])
        if found is None:
            continue
        message = _QUOTED.sub(" ", line[found.end():_MESSAGE_CHARS]).split(";", 1)[0]
        words = _MESSAGE_WORD.findall(message)
        if words:
            return words[:MAX_MESSAGE_WORDS]
    return []


_MESSAGE_LINES = 1_000  # an error line is looked for in a paste's first lines, each by its first characters
_MESSAGE_CHARS = 400


def pasted_words(prompt: str, typed: str) -> tuple[list[str], list[str]]:
    """The error names (each with its package, when one names it, at most MAX_NAMES) and the identifiers
    (words of several parts, in order, at most MAX_IDENTIFIERS) on the lines of `prompt` that are not in
    `typed` (its typed part), in one pass over them; none when nothing was pasted."""
    typed_lines = set(typed.splitlines())
    names: list[str] = []
    found: dict[str, None] = {}
    for line in prompt.splitlines():
        if len(names) >= MAX_NAMES and len(found) >= MAX_IDENTIFIERS:
            break
        if line in typed_lines:
            continue
        if len(names) < MAX_NAMES:
            key = _error_key(line)
            if key is not None and key not in names:
                names.append(key)
        if len(found) < MAX_IDENTIFIERS:
            _add_identifiers(line, found)
    return names, list(found)


def _error_key(line: str) -> str | None:
    named = _ERROR_NAME.match(line)
    if named is None or not (named.group(1) or _ERRORISH.search(named.group(2))):
        return None  # no error's name, or a field (`LastState: Terminated`)
    package = named.group(1).split(".", 1)[0]
    return f"{package} {named.group(2)}" if package else named.group(2)


def _add_identifiers(line: str, found: dict[str, None]) -> None:
    for token in _TOKEN.finditer(line):
        word = token.group().strip("._-")
        if len(word) <= MAX_IDENTIFIER_CHARS and _IDENTIFIER.fullmatch(word):
            found.setdefault(word)
            if len(found) >= MAX_IDENTIFIERS:
                return
