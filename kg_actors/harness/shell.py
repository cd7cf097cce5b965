"""Which shell commands plainly read a file, and which files.

Only `cat`, `head`, `tail`, `less`, `sed -n` (never `-i`), `grep`, `jq`,
`nl` and `rg` at the head of a pipeline segment count, with explicit operands:
no variables, globs, command substitutions or heredocs. Relative operands
count only when the command's directory is known and trusted.
"""

from __future__ import annotations

import os
import shlex

READERS = frozenset({"cat", "head", "tail", "less", "sed", "grep", "jq", "nl", "rg"})
# Options of these readers that take a value (the value is not a file).
VALUE_OPTS = {
    "head": {"-n", "-c"}, "tail": {"-n", "-c"}, "grep": {"-e", "-f", "-m", "-A", "-B", "-C"},
    "rg": {"-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "-T"}, "sed": {"-e", "-f"}, "jq": {"--arg", "--argjson"},
}
# The first operand of these is a pattern or program, not a file.
PATTERN_FIRST = frozenset({"grep", "rg", "jq", "sed"})
MAX_FILES = 8


def _segments(command: str) -> list[list[str]]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    segments: list[list[str]] = [[]]
    for token in lexer:
        if token in ("|", "||", "&&", ";", "&"):
            segments.append([])
        else:
            segments[-1].append(token)
    return [s for s in segments if s]


def read_files(command: str, cwd: str | None) -> list[str]:
    """Absolute paths of the files a command plainly reads (empty when unsure)."""
    if not isinstance(command, str) or "<<" in command or any(c in command for c in "$`"):
        return []
    try:
        segments = _segments(command)
    except ValueError:
        return []
    files: list[str] = []
    for words in segments:
        if any(w == "cd" for w in words[:1]):
            cwd = None  # the directory moved: relative operands are no longer known
            continue
        name = os.path.basename(words[0])
        if name not in READERS:
            continue
        if name == "sed" and ("-i" in words or not any(w == "-n" or w.startswith("-n") for w in words[1:])):
            continue
        if name == "jq" and "--args" in words:
            continue
        operands: list[str] = []
        skip = False
        for w in words[1:]:
            if skip:
                skip = False
                continue
            if w == "<":
                continue
            if w in (">", ">>", "2>", "2>&1"):
                break
            if w.startswith("-"):
                skip = w in VALUE_OPTS.get(name, set())
                continue
            operands.append(w)
        if name in PATTERN_FIRST and not any(w in ("-e", "-f") for w in words[1:]):
            operands = operands[1:]
        for op in operands:
            if any(c in op for c in "*?[]{}"):
                continue
            path = os.path.expanduser(op)
            if not os.path.isabs(path):
                if cwd is None:
                    continue
                path = os.path.join(cwd, path)
            files.append(os.path.normpath(path))
    return files[:MAX_FILES]
