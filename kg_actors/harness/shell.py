"""Which shell commands plainly read a file, and which files.

Only `cat`, `head`, `tail`, `less`, `sed -n` (never `-i`), `grep`, `jq`,
`nl` and `rg` at the head of a pipeline segment count, with explicit operands:
no variables, globs, command substitutions or heredocs. Relative operands
count only when the command's directory is known and trusted, and not after a
`cd`/`pushd`/`popd`. Options are parsed per command, so an option's value is
never mistaken for a file; `nl` and `rg` accept only the options they list, and
anything unknown makes the whole command count for nothing. When unsure, the
answer is "no file".
"""

from __future__ import annotations

import os
import re
import shlex

READERS = frozenset({"cat", "head", "tail", "less", "sed", "grep", "jq", "nl", "rg"})
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
DIR_CHANGERS = frozenset({"cd", "pushd", "popd"})
MAX_FILES = 8
MAX_TOKENS = 400  # words and operators read of one command (see _tokens)
MAX_SCRIPT_CHARS = 4_000  # ... from this much of it
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_GLOB = frozenset("*?[]{}")


class _Spec:
    """How one reader's options parse.

    `short_values`: short options that take a value (attached or the next word).
    `long_values`: long options that take a value (`--x=v` or the next word), with how many words.
    `pattern_opts`: options that supply the pattern/program, so no positional is one.
    `strict`: unknown options make the command unparseable (nl, rg).
    """

    def __init__(self, short_values: str = "", long_values: dict[str, int] | None = None,
                 pattern_first: bool = False, pattern_opts: frozenset[str] = frozenset(),
                 strict: bool = False, short_flags: str = "", long_flags: frozenset[str] = frozenset(),
                 refuse: frozenset[str] = frozenset()):
        self.short_values = short_values
        self.long_values = long_values or {}
        self.pattern_first = pattern_first
        self.pattern_opts = pattern_opts
        self.strict = strict
        self.short_flags = short_flags
        self.long_flags = long_flags
        self.refuse = refuse  # options that make it no plain read (sed -i, jq --args, rg --files)


SPECS = {
    "cat": _Spec(),
    "less": _Spec(short_values="bhjkoOpPtTxyz"),
    "head": _Spec(short_values="nc", long_values={"--lines": 1, "--bytes": 1}),
    "tail": _Spec(short_values="ncs", long_values={"--lines": 1, "--bytes": 1, "--pid": 1,
                                                    "--sleep-interval": 1, "--max-unchanged-stats": 1}),
    "sed": _Spec(short_values="efl", long_values={"--expression": 1, "--file": 1, "--line-length": 1},
                 pattern_first=True, pattern_opts=frozenset({"-e", "-f", "--expression", "--file"}),
                 refuse=frozenset({"-i", "--in-place"})),
    "grep": _Spec(short_values="efmABCdD",
                  long_values={"--regexp": 1, "--file": 1, "--max-count": 1, "--after-context": 1,
                               "--before-context": 1, "--context": 1, "--include": 1, "--exclude": 1,
                               "--exclude-dir": 1, "--exclude-from": 1, "--label": 1, "--devices": 1,
                               "--directories": 1, "--binary-files": 1, "--color": 0, "--colour": 0},
                  pattern_first=True, pattern_opts=frozenset({"-e", "-f", "--regexp", "--file"})),
    "jq": _Spec(short_values="fL",
                long_values={"--from-file": 1, "--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2,
                             "--indent": 1},
                pattern_first=True, pattern_opts=frozenset({"-f", "--from-file"}),
                refuse=frozenset({"--args", "--jsonargs"})),
    "nl": _Spec(short_values="bdfhilnsvw", strict=True, short_flags="p",
                long_values={"--body-numbering": 1, "--section-delimiter": 1, "--footer-numbering": 1,
                             "--header-numbering": 1, "--line-increment": 1, "--join-blank-lines": 1,
                             "--number-format": 1, "--number-separator": 1, "--starting-line-number": 1,
                             "--number-width": 1},
                long_flags=frozenset({"--no-renumber"})),
    "rg": _Spec(short_values="efgtTmABCMjrE", strict=True, short_flags="iIsSnNwxvFcluUzLaHh0oqp.",
                long_values={"--regexp": 1, "--file": 1, "--glob": 1, "--iglob": 1, "--type": 1,
                             "--type-not": 1, "--max-count": 1, "--after-context": 1, "--before-context": 1,
                             "--context": 1, "--max-columns": 1, "--threads": 1, "--replace": 1,
                             "--encoding": 1, "--max-depth": 1, "--max-filesize": 1, "--sort": 1,
                             "--sortr": 1, "--color": 1, "--colors": 1, "--engine": 1, "--context-separator": 1},
                long_flags=frozenset({"--ignore-case", "--smart-case", "--case-sensitive", "--line-number",
                                      "--no-line-number", "--word-regexp", "--line-regexp", "--invert-match",
                                      "--fixed-strings", "--count", "--files-with-matches", "--hidden",
                                      "--no-ignore", "--follow", "--multiline", "--only-matching", "--json",
                                      "--no-heading", "--heading", "--with-filename", "--no-filename",
                                      "--vimgrep", "--pcre2", "--text", "--null", "--quiet", "--pretty",
                                      "--no-messages", "--trim", "--column", "--byte-offset", "--unrestricted"}),
                pattern_first=True, pattern_opts=frozenset({"-e", "-f", "--regexp", "--file"}),
                refuse=frozenset({"--files", "--type-list"})),
}


def _script_of(command: object) -> str | None:
    """The shell text of a command given as a string or an argv list (`bash -lc '<script>'`)."""
    if isinstance(command, str):
        return command
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        argv: list[str] = command
        if len(argv) >= 3 and os.path.basename(argv[0]) in SHELLS and argv[1].startswith("-") \
                and "c" in argv[1]:
            return argv[2]
        return shlex.join(argv)
    return None


def _tokens(script: str) -> list[str]:
    """The words and operators of the script's start: its first MAX_TOKENS of them, read from its first
    MAX_SCRIPT_CHARS characters. What recall and file reads look at (the first few programs) is there,
    and shlex costs ~5 µs a character: a 20,000-character command took up to 0.1 s whole. A cut that
    falls inside a quote keeps the words before it; a whole script with an open quote raises ValueError."""
    cut = len(script) > MAX_SCRIPT_CHARS
    head = script[:MAX_SCRIPT_CHARS]
    if cut:
        head = head[:max(head.rfind(" "), head.rfind("\n"), 0)]  # never half a word: not half a path
    lexer = shlex.shlex(head.replace("\\\n", " ").replace("\n", " ; "), posix=True, punctuation_chars="();&|<>")
    lexer.whitespace_split = True
    tokens: list[str] = []
    try:
        for token in lexer:
            tokens.append(token)
            if len(tokens) == MAX_TOKENS:
                break
    except ValueError:
        if not cut:
            raise
    return tokens


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def _without_heredocs(script: str) -> str | None:
    """The script with each heredoc's body left out (`kubectl apply -f - <<EOF ... EOF`): the body is
    data, the command line is what runs. None when a body never ends. A here-string (`<<<`) is a word."""
    if "<<" not in script:
        return script
    lines = script.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        ends = [m.group(2) for m in _HEREDOC.finditer(line) if not line[m.start():].startswith("<<<")
                and (m.start() == 0 or line[m.start() - 1] != "<")]
        out.append(_HEREDOC.sub(" ", line) if ends else line)
        for end in ends:
            while i < len(lines) and lines[i].strip() != end:
                i += 1
            if i == len(lines):
                return None
            i += 1
    return "\n".join(out)


def _is_separator(token: str) -> bool:
    return bool(token) and all(c in ";&|()" for c in token)


def _is_redirect(token: str) -> bool:
    return bool(token) and all(c in "<>&" for c in token) and ("<" in token or ">" in token)


def _segments(tokens: list[str]) -> list[list[str]]:
    segments: list[list[str]] = [[]]
    for token in tokens:
        if _is_separator(token):
            segments.append([])
        else:
            segments[-1].append(token)
    return [s for s in segments if s]


def _operands(name: str, words: list[str]) -> list[str] | None:
    """A reader's file operands, or None when the command is no plain read (or is not understood)."""
    spec = SPECS[name]
    positionals: list[str] = []
    pattern_given = False
    quiet = False  # sed -n
    i = 0
    ended = False  # after `--`
    while i < len(words):
        w = words[i]
        i += 1
        if _is_redirect(w):
            if "<" in w and ">" not in w:
                continue  # `< file`: the next word is read, as an operand
            if positionals and positionals[-1].isdigit():
                positionals.pop()  # the `2` of `2>`
            i += 1  # the target of an output redirect
            continue
        if ended or not w.startswith("-") or w == "-":
            positionals.append(w)
            continue
        if w == "--":
            ended = True
            continue
        if w.startswith("--"):
            opt, eq, _ = w.partition("=")
            if opt in spec.refuse:
                return None
            if opt in spec.pattern_opts:
                pattern_given = True
            if name == "sed" and opt in ("--quiet", "--silent"):
                quiet = True
                continue
            if opt in spec.long_values:
                if not eq:
                    i += spec.long_values[opt]
                continue
            if spec.strict and opt not in spec.long_flags:
                return None
            continue
        # A cluster of short options: `-rn`, `-A3`, `-ne`.
        if name in ("head", "tail") and w[1:].isdigit():
            continue  # `head -20`
        cluster = w[1:]
        for j, c in enumerate(cluster):
            if name == "sed" and c == "i":
                return None  # in place: an edit, not a read
            if name == "sed" and c == "n":
                quiet = True
            if c in spec.short_values:
                if f"-{c}" in spec.pattern_opts:
                    pattern_given = True
                if j == len(cluster) - 1:
                    i += 1  # the value is the next word
                break  # the rest of the cluster is the value
            if spec.strict and c not in spec.short_flags:
                return None
    if name == "sed" and not quiet:
        return None  # sed without -n prints the whole stream: a transform, not a read
    if spec.pattern_first and not pattern_given:
        positionals = positionals[1:]
    return positionals


def _reads(tokens: list[str], cwd: str | None, files: list[str], depth: int = 0) -> str | None:
    """Add the files a token stream reads to `files`; the cwd afterwards (None once it moved)."""
    for words in _segments(tokens):
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]  # `LC_ALL=C grep ...`
        if not words:
            continue
        name = os.path.basename(words[0])
        if name in DIR_CHANGERS:
            cwd = None  # the directory moved: relative operands are no longer known
            continue
        if name in SHELLS and depth == 0 and len(words) >= 3 and words[1].startswith("-") and "c" in words[1]:
            try:
                inner = _tokens(words[2])
            except ValueError:
                continue
            cwd = _reads(inner, cwd, files, depth + 1)
            continue
        if name not in READERS:
            continue
        operands = _operands(name, words[1:])
        for op in operands or ():
            if not op or op == "-" or "$" in op or "`" in op or any(c in _GLOB for c in op):
                continue
            if op.startswith("~"):
                if not (op == "~" or op.startswith("~/")):
                    continue  # another account's home
                op = os.path.expanduser(op)
            if not os.path.isabs(op):
                if cwd is None:
                    continue
                op = os.path.join(cwd, op)
            path = os.path.normpath(op)
            if path not in files:
                files.append(path)
    return cwd


def read_files(command: object, cwd: str | None) -> list[str]:
    """Absolute paths of the files a command plainly reads (empty when unsure).

    `command` is a shell string or an argv list; `cwd` is the directory it ran
    in when known and trusted, else None (relative operands are then skipped).
    """
    script = _script_of(command)
    if script is None or "<<" in script or "`" in script or "$(" in script or "\x00" in script:
        return []
    if cwd is not None and not os.path.isabs(cwd):
        cwd = None
    try:
        tokens = _tokens(script)
    except ValueError:
        return []  # unbalanced quotes: not a command we can read
    files: list[str] = []
    _reads(tokens, cwd, files)
    return files[:MAX_FILES]


WRAPPERS = frozenset({"sudo", "env", "time", "nice", "nohup", "exec", "command", "xargs", "doas", "timeout", "watch",
                      "stdbuf", "ionice", "chronic"})
# Their options that take the next word as a value (`env -u DATABASE_URL rake ...`, `sudo -u deploy make ...`).
WRAPPER_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}),
    "doas": frozenset({"-u", "-C"}), "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}), "ionice": frozenset({"-c", "-n", "-p"}),
    "xargs": frozenset({"-I", "-n", "-P", "-L", "-d", "-a", "-s", "-E"}), "watch": frozenset({"-n", "--interval"}),
}
# The shell's own words before or around a command: `if ! git diff --quiet; then ...`, `for f in ...; do psql ...`.
KEYWORDS = frozenset({"if", "then", "elif", "else", "do", "while", "until", "!", "{"})
CLOSERS = frozenset({"fi", "done", "esac", "}"})
HEADERS = frozenset({"for", "case", "select", "function"})  # a loop's or a case's header runs nothing itself
# Runners that start another program named after them (`uv run alembic upgrade head`): that program is an
# invocation too. Each with the subcommand that runs it (none: the next word is the program).
RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset({"run"}), "poetry": frozenset({"run"}), "pipenv": frozenset({"run"}), "pdm": frozenset({"run"}),
    "hatch": frozenset({"run"}), "rye": frozenset({"run"}), "pipx": frozenset({"run"}), "uvx": frozenset(),
    "npx": frozenset(), "pnpx": frozenset(), "bunx": frozenset(), "pnpm": frozenset({"exec", "dlx"}),
    "npm": frozenset({"exec"}), "yarn": frozenset({"exec", "dlx"}), "bundle": frozenset({"exec"}),
    "dart": frozenset({"run"}), "heroku": frozenset({"run"}),
}
_RUN_BY_VALUE_OPTIONS = frozenset({"--with", "--python", "-p", "--package", "--extra", "--group", "--env-file",
                                  "--directory", "--project", "--index", "--from", "--filter", "-F", "-C", "--dir",
                                  "-a", "--app", "-r", "--remote", "-e", "--env"})  # heroku's; not -s (uv's --script)
_PYTHON = re.compile(r"python(\d+(\.\d+)?)?")


def _run_by(words: list[str]) -> list[str]:
    """The program a runner starts, as its words (`python -m alembic upgrade` too); [] for any other."""
    name = os.path.basename(words[0])
    if _PYTHON.fullmatch(name):
        return words[2:] if len(words) > 2 and words[1] == "-m" else []
    subcommands = RUNNERS.get(name)
    if subcommands is None or (subcommands and (len(words) < 2 or words[1] not in subcommands)):
        return []
    i = 2 if subcommands else 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _RUN_BY_VALUE_OPTIONS else 1  # the runner's own options (`uv run --with httpx`)
    return words[i:]


# Options of `docker run|exec` and `docker compose run|exec` that take the next word as a value.
_CONTAINER_VALUE_OPTIONS = frozenset({"-e", "--env", "-u", "--user", "-w", "--workdir", "-v", "--volume", "-p",
                                      "--publish", "--name", "--network", "--env-file", "--entrypoint", "--index",
                                      "-l", "--label", "--platform", "--pull", "-m", "--memory", "--cpus", "--mount",
                                      "--add-host", "--hostname", "-f", "--file", "--project-name", "--profile"})


def _in_container(words: list[str]) -> list[str]:
    """The command a container runs (`docker compose exec web python manage.py migrate`, `docker run --rm
    node:20 npm ci`, `kubectl exec -n prod deploy/api -- bin/rails db:migrate`), as its words; [] for any other."""
    name = os.path.basename(words[0])
    if name in ("kubectl", "oc"):
        return words[words.index("--") + 1:] if "exec" in words and "--" in words else []
    i = 1
    if name == "docker" and len(words) > 1 and words[1] == "compose":
        i = 2
    elif name != "docker-compose" and name != "docker":
        return []
    while i < len(words) and words[i].startswith("-"):  # compose's own options (`-f ci.yml`)
        i += 2 if words[i] in _CONTAINER_VALUE_OPTIONS else 1
    if i >= len(words) or words[i] not in ("exec", "run"):
        return []
    i += 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _CONTAINER_VALUE_OPTIONS else 1  # `-e A=1` takes a word; `--env=A=1` none
    return words[i + 1:]  # after the service, container or image


def invocations(command: object, limit: int = 8) -> list[list[str]]:
    """The programs a command runs, each as its words (pipelines, lists and `sh -c` opened up).

    Assignments (`FOO=1 make deploy`) and wrappers (`sudo`, `env`, `time`, `nohup`...) before
    the program are dropped, with their own options; `cd` and friends are not programs here. What a
    runner starts (`uv run alembic ...`, `python -m alembic ...`) follows the runner's own words.
    A heredoc's body is data, not commands. Empty when the command cannot be parsed (unbalanced quotes,
    a heredoc that never ends).
    """
    script = _script_of(command)
    if script is None or "\x00" in script or len(script) > 20_000:
        return []
    script = _without_heredocs(script)
    if script is None:
        return []
    try:
        tokens = _tokens(script)
    except ValueError:
        return []
    out: list[list[str]] = []

    def walk(tokens: list[str], depth: int) -> None:
        for words in _segments(tokens):
            words = [w for w in words if not _is_redirect(w)]
            if words and (words[0] in CLOSERS or words[0] in HEADERS):
                continue
            while words and words[0] in KEYWORDS:
                words = words[1:]
            while words and (_ASSIGNMENT.match(words[0]) or os.path.basename(words[0]) in WRAPPERS):
                wrapper = os.path.basename(words[0])
                is_wrapper = wrapper in WRAPPERS  # else an assignment (`FOO=1`), which has no options
                valued = WRAPPER_VALUE_OPTIONS.get(wrapper, frozenset())
                words = words[1:]
                while is_wrapper and words and (words[0].startswith("-") or words[0].replace(".", "").isdigit()):
                    # the wrapper's options (`nice -n 10`, `timeout 30`, `env -u NAME`)
                    words = words[2:] if words[0] in valued and len(words) > 1 else words[1:]
            if not words or os.path.basename(words[0]) in DIR_CHANGERS:
                continue
            name = os.path.basename(words[0])
            if name in SHELLS and depth < 2 and len(words) >= 3 and words[1].startswith("-") and "c" in words[1]:
                try:
                    walk(_tokens(words[2]), depth + 1)
                except ValueError:
                    pass
                continue
            if len(out) < limit:
                out.append(words)
            started = _run_by(words)
            while started and len(out) < limit:  # a runner may start another (`uv run python -m pytest`)
                out.append(started)
                started = _run_by(started)
            inside = _in_container(words) if depth < 2 else []
            if inside:
                walk(inside, depth + 1)  # what the container runs is run too (`sh -c` in it opens as well)

    walk(tokens, 0)
    return out
