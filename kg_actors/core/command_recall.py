"""Recall before a command runs: lessons that name the command (PreToolUse on a shell command).

A command is known by what it runs: its program and subcommand (`alembic upgrade`,
`npm publish`, `helm upgrade`), its script (`./scripts/release.sh`, `sh
scripts/restore_drill.sh`), or its build target (`make deploy`, `npm run build`).
A lesson names the command when its id, gist or touches hold that script's file
name, or both the program and the subcommand (a make target also through
`Makefile:target` in touches). A bare program (`pytest -q`, `docker ps` has a
subcommand; `ls -la` has none) says too little to recall on: nothing.

At most 2 nodes within 800 characters, never one the session already holds;
silence otherwise. This only informs: the hook never blocks or changes the
command. The words come from harness/shell.py (`invocations`); this module
decides, with no I/O.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet

import attrs

from . import constants as C
from .model import GraphReader, Node
from .plain_text import clipped, one_line
from .secret_logs import WITHHELD, loggable
from .search import SearchIndex
from .terms import analyse, stem

# Programs that run a script named by their first operand.
INTERPRETERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "python", "python3", "node", "ruby", "perl",
                          "php", "tsx", "ts-node", "source", "."})
# Utilities whose operands are files, patterns or text, never a subcommand (`which node`, `cat justfile`).
UTILITIES = frozenset({"cat", "head", "tail", "less", "more", "ls", "mkdir", "touch", "chmod", "chown", "rm", "cp",
                       "mv", "ln", "echo", "printf", "which", "type", "grep", "rg", "find", "sed", "awk", "wc",
                       "sort", "uniq", "tee", "diff", "file", "stat", "du", "df", "basename", "dirname", "realpath",
                       "readlink", "test", "true", "false", "sleep", "date", "export", "unset", "set", "read",
                       "exit", "break", "continue", "return", "jq", "xxd", "od", "tr", "cut", "paste"})
# Programs that take several targets or phases at once (`make lint test`, `mvn clean verify`).
MANY_TARGETS = frozenset({"make", "gmake", "just", "rake", "task", "mvn", "gradle"})
SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".js", ".mjs", ".ts", ".rb", ".pl", ".php")
# Programs whose first word is a build target, with the file that names their targets.
TARGET_RUNNERS = {"make": "makefile", "gmake": "makefile", "just": "justfile", "rake": "rakefile", "task": "taskfile"}
# Package runners: `npm run build`'s target is `build` (`yarn build` names it directly).
RUN_WORDS = {"npm": ("run", "run-script"), "pnpm": ("run",), "yarn": ("run",), "bun": ("run",), "deno": ("task",)}
_DOTTED_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")  # a module in a package, not a program
# The standard library's packages (Python 3.11), whose modules run with -m are no file of a project
# (`python -m http.server`, `python -m json.tool`).
STDLIB_PACKAGES = frozenset("""
asyncio collections concurrent ctypes curses dbm distutils email encodings ensurepip html http idlelib importlib
json lib2to3 logging multiprocessing pydoc_data re sqlite3 test tkinter tomllib turtledemo unittest urllib venv
wsgiref xml xmlrpc zoneinfo
""".split())
_FILE_NAME = re.compile(r"^[a-z0-9_][a-z0-9_.\-]{0,80}$")
_SUBCOMMAND = re.compile(r"^[A-Za-z][A-Za-z0-9_:.\-]{1,40}$")  # `mix ecto.migrate`, `rake db:migrate`
HEADER = "KG memory about this command, before it runs:"


@attrs.frozen
class Key:
    """What a command is known by: a program and its subcommand or target, or a script's file name."""

    program: str | None = None
    sub: str | None = None
    script: str | None = None

    def label(self) -> str:
        return self.script or f"{self.program} {self.sub}"

    def logged(self, matched: bool) -> str:
        """The label as the recall log keeps it. A command line carries secrets as operands (`sshpass -p
        <password>`, `redis-cli -a <password>`) that the key may take for a subcommand, lower-cased past
        every shape test: a subcommand is kept only when a lesson named it (its words passed the write
        rules), the program and a script's name always unless they look like a key themselves."""
        if self.script:
            return loggable(self.script)
        return f"{loggable(self.program or '')} {self.sub if matched else WITHHELD}"


# Options of a target runner that take the next word as their value (`make -C infra deploy`).
RUNNER_VALUE_OPTIONS = frozenset({"-C", "-f", "-I", "-o", "-W", "--directory", "--file", "--makefile",
                                  "--justfile", "--working-directory", "--taskfile", "--dir"})
_KUBE_VALUE_OPTIONS = frozenset({"-n", "--namespace", "--context", "--kube-context", "--kubeconfig", "--cluster",
                                 "--user", "-l", "--selector", "-o", "--output", "-c", "--container", "-f",
                                 "--filename", "--values", "--version", "--timeout", "-s", "--server"})
_MAVEN_VALUE_OPTIONS = frozenset({"-pl", "--projects", "-P", "--activate-profiles", "-f", "--file", "-s",
                                  "--settings", "-gs", "-T", "--threads", "-rf", "--resume-from"})
_GRADLE_VALUE_OPTIONS = frozenset({"-p", "--project-dir", "-x", "--exclude-task", "-b", "-c", "-I", "--init-script"})
_PG_VALUE_OPTIONS = frozenset({"-U", "--username", "-h", "--host", "-p", "--port", "-d", "--dbname", "-c",
                               "--command", "-f", "--file", "-v", "--set", "-n", "--schema", "-t", "--table"})
# Global options of well-known programs that take the next word as their value, so that the subcommand
# after them is found (`kubectl --context gke -n ingest scale ...` is `kubectl scale`, not `kubectl gke`).
# Another program's option before its first operand leaves that operand in doubt (_operands).
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(TARGET_RUNNERS, RUNNER_VALUE_OPTIONS),
    "kubectl": _KUBE_VALUE_OPTIONS, "oc": _KUBE_VALUE_OPTIONS, "helm": _KUBE_VALUE_OPTIONS,
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"}),
    "docker": frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level"}),
    "mvn": _MAVEN_VALUE_OPTIONS, "mvnw": _MAVEN_VALUE_OPTIONS, "gradle": _GRADLE_VALUE_OPTIONS,
    "gradlew": _GRADLE_VALUE_OPTIONS, "psql": _PG_VALUE_OPTIONS, "pg_dump": _PG_VALUE_OPTIONS,
    "pg_restore": _PG_VALUE_OPTIONS, "goose": frozenset({"-dir", "-table", "-env"}),
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url"}),
    "gcloud": frozenset({"--project", "--account", "--configuration"}),
    "ansible-playbook": frozenset({"-i", "--inventory", "-l", "--limit", "-e", "--extra-vars", "-u", "--user",
                                  "-t", "--tags", "--skip-tags", "--vault-id"}),
}
# Package runners whose first operand is the program they start: that program is keyed on its own
# (harness/shell.py hands it over as an invocation), `npx cypress` names nothing of its own.
PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx", "uvx"})


def _operands(words: list[str], value_options: frozenset[str] = frozenset()) -> tuple[list[str], bool]:
    """The words that are not options, and whether the first may be an option's value instead
    (`kubectl -n prod rollout`, `git -C repo push`: which options take one is the program's to say)."""
    out: list[str] = []
    skip, after_option, first_after_option = False, False, False
    for w in words:
        if skip:
            skip = False
        elif w in value_options:
            skip = True
        elif not w.startswith("-") and "=" not in w:
            if not out:
                first_after_option = after_option
            out.append(w)
        after_option = w.startswith("-") and w != "--" and "=" not in w
    return out, first_after_option


def _is_script(word: str) -> bool:
    return "/" in word or word.endswith(SCRIPT_SUFFIXES)


def _sub_key(name: str, operands: list[str]) -> Key | None:
    """The program's key from its operands: the first as subcommand, or a package runner's target."""
    if not operands or not _SUBCOMMAND.match(operands[0]):
        return None  # a bare program, or one given only paths and values: too little to recall on
    sub = operands[0]
    if sub in RUN_WORDS.get(name, ()):
        if len(operands) < 2 or not _SUBCOMMAND.match(operands[1]):
            return None
        sub = operands[1]
    return Key(program=name, sub=sub.lower())


def command_keys(invocations: Iterable[list[str]]) -> list[Key]:
    """The keys of each program a command runs (see harness/shell.py `invocations`). Where the first
    operand follows an option it may be that option's value: the next operand is a subcommand too."""
    keys: list[Key] = []
    for words in invocations:
        head = words[0]
        name = posixpath.basename(head).lower()
        if _is_script(head) and name not in INTERPRETERS:
            if name:  # `./` or `bin/` alone names no script
                keys.append(Key(script=name))
                # `bin/rails db:migrate`, `./manage.py migrate`, `./mvnw -pl api verify`
                sub = _sub_key(name, _operands(words[1:], VALUE_OPTIONS.get(name, frozenset()))[0])
                if sub is not None:
                    keys.append(sub)
            continue
        if name in UTILITIES or name in PACKAGE_RUNNERS or _DOTTED_MODULE.match(head):
            continue  # a dotted module is what `python -m` starts: keyed as its file with the interpreter's words
        known = VALUE_OPTIONS.get(name)
        operands, maybe_value = _operands(words[1:], known or frozenset())
        # A program whose valued options are known is in doubt only when its first operand names nothing
        # (`kubectl -v 6 get pods`: -v is not in its table, and "6" is no subcommand).
        maybe_value = maybe_value and (known is None or _sub_key(name, operands) is None)
        if name in INTERPRETERS:
            # Its first operand is the script (`python manage.py migrate`; php's need not say so: `php artisan
            # migrate`). Another bare word is left alone: `node server` would recall every lesson on servers.
            before = words[1:words.index(operands[0])] if operands else words[1:]  # the interpreter's own options
            inline = any(w in ("-m", "-c", "-e", "--eval", "-p", "--print") for w in before)  # code or a module
            named = bool(operands) and not inline and (_is_script(operands[0]) or name == "php")
            script = posixpath.basename(operands[0]).lower() if named else ""
            if operands and "-m" in before and _DOTTED_MODULE.match(operands[0]) \
                    and operands[0].split(".")[0] not in STDLIB_PACKAGES:
                # `python -m app.jobs.backfill` runs backfill.py; `python -m http.server` is no file of the project
                script = operands[0].rsplit(".", 1)[1].lower() + ".py"
            if _FILE_NAME.match(script):
                keys.append(Key(script=script))
                sub = _sub_key(script, operands[1:])
                if sub is not None:
                    keys.append(sub)
            continue
        for key in (_sub_key(name, operands), _sub_key(name, operands[1:]) if maybe_value else None):
            if key is not None:
                keys.append(key)
        if name in MANY_TARGETS and operands:
            # The targets that follow the first one, up to the next option (`mvn clean verify -pl api`).
            rest = words[words.index(operands[0]) + 1:]
            for t in itertools.takewhile(lambda w: not w.startswith("-"), rest):
                if _SUBCOMMAND.match(t) and "=" not in t:
                    keys.append(Key(program=name, sub=t.lower()))
        # A script it is told to run (`bun run scripts/seed.ts`, `git bisect run ./scripts/repro.sh`); a file
        # it is only given (`git add app.py`, `ruff check app.py`) is for file recall, not this.
        ran = _run_operand(words)
        if ran is not None:
            keys.append(Key(script=posixpath.basename(ran).lower()))
    return list(dict.fromkeys(keys))


def _run_operand(words: list[str]) -> str | None:
    """The script after a `run` or `exec` word (past its options) or given as `-f` / `--file` (`locust -f
    locustfile.py`); None when there is none, or a glob."""
    for i, word in enumerate(words[1:], 1):
        if word in ("run", "exec"):
            after = next((w for w in words[i + 1:] if not w.startswith("-")), "")
        elif word in ("-f", "--file") and i + 1 < len(words):
            after = words[i + 1]
        else:
            continue
        if after.endswith(SCRIPT_SUFFIXES) and posixpath.basename(after) and not any(c in after for c in "$*?["):
            return after
        return None
    return None


def _named_terms(node: Node) -> set[str]:
    """The stems and composites a node's id, gist and touches hold."""
    held: set[str] = set()
    for text in (node.id, node.gist, *node.touches):
        stems, composites = analyse(text)
        held.update(stems)
        held.update(composites)
    return held


def _program_stems(program: str) -> list[list[str]]:
    """Ways a lesson may name a program: its own stems, or a target runner's file (make ~ Makefile)."""
    ways = [analyse(program)[0]]
    if program in TARGET_RUNNERS:
        ways.append([stem(TARGET_RUNNERS[program])])
    return [w for w in ways if w]


def _match(key: Key, index: SearchIndex) -> list[tuple[int, str]]:
    """(strength, node id) of the nodes naming `key` in their id, gist or touches."""
    if key.script:
        posting = index.postings.get(key.script, {})
        out = []
        for node_id in list(posting)[: C.COMMAND_RECALL_MAX_CANDIDATES]:
            node = index.nodes.get(node_id)
            if node is not None and key.script in _named_terms(node):
                out.append((2, node_id))
        return out
    if key.program is None or key.sub is None:
        return []
    sub = analyse(key.sub)[0]
    found: dict[str, int] = {}
    for program in _program_stems(key.program):
        wanted = [*program, *sub]
        postings = [index.postings.get(t, {}) for t in wanted]
        if not all(postings):
            continue
        pair = index.postings.get(f"{program[-1]} {sub[0]}", {}) if sub else {}
        checked = 0
        # The postings' title bit says "in the id or gist" at no cost; only a node holding a word
        # in its body alone is read, to tell its touches (which count) from its notes (which do not).
        smallest = min(postings, key=len)
        # Words many nodes hold name the command only side by side (the pair's own, smaller posting):
        # scattered over a node, two common words say little, and walking thousands of holders would
        # cost a hook its budget.
        candidates = smallest if len(smallest) <= C.COMMAND_RECALL_MAX_CANDIDATES else pair
        for node_id in itertools.islice(candidates, C.COMMAND_RECALL_MAX_CANDIDATES):
            packs = [p.get(node_id) for p in postings]
            if None in packs:
                continue
            if all(packed & 1 for packed in packs):  # type: ignore[operator]
                strength = 2 if pair.get(node_id, 0) & 1 else 1
            else:
                if checked >= C.COMMAND_RECALL_MAX_CANDIDATES:
                    continue
                checked += 1
                node = index.nodes.get(node_id)
                if node is None or not all(t in _named_terms(node) for t in wanted):
                    continue
                strength = 1
            found[node_id] = max(found.get(node_id, 0), strength)
    return [(s, i) for i, s in found.items()]


@attrs.frozen
class Decision:
    reason: str  # injected | no_command | no_nodes | all_seen
    text: str | None = None
    shown: tuple[tuple[str, str], ...] = ()
    keys: tuple[str, ...] = ()  # as the log keeps them (Key.logged)
    found: tuple[str, ...] = ()
    cut: frozenset[tuple[str, str]] = frozenset()  # of `shown`, those whose gist was cut short (not seen whole)


def decide(invocations: Iterable[list[str]], views: Mapping[str, tuple[GraphReader, SearchIndex]],
           seen: AbstractSet[tuple[str, str]]) -> Decision:
    """The lessons to show before a command runs (level -> (graph, its index)): at most 2, within 800 chars;
    none the session holds (`seen`: (level, id))."""
    keys = command_keys(invocations)
    if not keys:
        return Decision("no_command")
    found: dict[tuple[str, str], int] = {}
    matched: set[Key] = set()
    for level, (graph, index) in views.items():
        for key in keys:
            for strength, node_id in _match(key, index):
                node = graph.nodes.get(node_id)
                if node is not None and node.gist:
                    ref = (level, node_id)
                    found[ref] = max(found.get(ref, 0), strength)
                    matched.add(key)
    labels = tuple(k.logged(k in matched) for k in keys)
    if not found:
        return Decision("no_nodes", keys=labels)
    names = tuple(r[1] for r in found)
    unseen = [(s, ref) for ref, s in found.items() if ref not in seen]
    if not unseen:
        return Decision("all_seen", keys=labels, found=names)
    # The command named outright (program and subcommand side by side in the id or gist, or its
    # script) first; then project lessons before user ones (later views are the project), then by id.
    order = {level: i for i, level in enumerate(views)}
    unseen.sort(key=lambda t: (-t[0], -order[t[1][0]], t[1][1]))
    lines, shown, cut = [HEADER], list[tuple[str, str]](), set[tuple[str, str]]()
    for _, ref in unseen[: C.COMMAND_RECALL_MAX_NODES]:
        mask = views[ref[0]][0].lineage.mask  # a gist holding a secret a hand edit left: a marker
        line = f"- [{ref[0]}] {one_line(ref[1])}: {one_line(mask.gist(views[ref[0]][0].nodes[ref[1]]))}"
        size = sum(len(x) + 1 for x in lines) + len(line)
        if shown and size > C.COMMAND_RECALL_CHAR_BUDGET:
            break
        line, was_cut = clipped(line, C.COMMAND_RECALL_CHAR_BUDGET - len(HEADER) - 1)
        lines.append(line)
        shown.append(ref)
        if was_cut:
            cut.add(ref)
    return Decision("injected", "\n".join(lines), tuple(shown), labels, names, frozenset(cut))
