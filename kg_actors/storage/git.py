"""Git plumbing for a store that is a repository: set-up, commit, fetch/merge/push, history.

Blocking calls (subprocesses with time limits): actors run them in worker
threads, the CLI directly. Only the store's own repository is used (a `.git`
in the store folder itself), never one the store happens to sit inside. Every
failure is a `GitError` whose message says what to do; nothing here deletes
user data. `KG_GIT` names the git binary (tests use it for a missing or slow git).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..core import when
from . import files, git_auth, git_head
from .machine_id import TRAILER, machine_id

if TYPE_CHECKING:
    from .graph_text import Indexed

GIT_TIMEOUT = 120.0
DRIVER = "kg-graph"
GRAPH_PATTERNS = ("/user.json", "/maintain.json", "/projects/*/graph.json", "/shards/**/*.json")
# The ignore and attribute files merge line by line, both sides' lines kept: two stores that each wrote their own
# (a new store's and a kg-memory 0.17 store's, or a hosted repository's starter .gitignore) stopped every sync.
UNION_FILES = ("/.gitignore", "/.gitattributes")
# What a commit stages: the graphs' mirror folders and the two files that say how the store merges. Nothing
# else kg writes belongs in git (the graph files, logs and machine-local state are ignored).
OWN_FILES = ("shards", ".gitignore", ".gitattributes")

# What a commit must never hold: half-states, machine-local state and logs.
IGNORE = """\
# Written once by kg (the memory server); edit freely.
# Temp files, locks, journals (folded into the JSON before each commit) and logs:
*.tmp
*.prev
*.journal
*.journal.dropped*
*.damaged*
*.unreadable*
*.lock
lock
server.pid
*.log
*.jsonl
# Machine-local state: sessions, per-project tool counters, this machine's settings.
sessions.json
clock.json
tool_events.json
config.json
agy-runner/
chore_state.json
claude-limits.json
chores.json
budget_told.json
# A project removed in the editor, kept whole to move back: this machine's, never another's.
trash/
""" + "\n"

# Git keeps each graph as the many small files of its mirror folder (shards/), written from the
# graph file at each commit; the graph files themselves stay out of it (kg's `storage/shards.py`).
GRAPH_IGNORE = """\
# Graph files: git keeps each as small files under shards/, which kg writes from them at each commit.
/user.json
/maintain.json
/projects/*/graph.json
*.unreadable*
"""


def _patterns(text: str) -> tuple[str, ...]:
    return tuple(ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#"))


# What a store's .gitignore of an older kg (kg-memory 0.17's holds `*.prev` and `*.tmp` only) may lack: each is
# added to it, and what the index holds of them leaves it (kept on disk). Kept, a machine's sessions.json,
# server.log and server.pid changed on both machines and stopped every sync; a synced chores.json switched chores
# on, and spent quota, on every machine.
LOCAL_PATTERNS = _patterns(IGNORE)
UNTRACKED_PATTERNS = LOCAL_PATTERNS + _patterns(GRAPH_IGNORE)


class GitError(Exception):
    pass


class MovedOutside(GitError):
    """HEAD is not the commit kg last made or took in (a `git pull`, commit, reset or switch run by hand):
    the graph files do not hold what HEAD holds, and a commit mirrored from them would revert it."""


class UnreadableGraph(GitError):
    """A commit refused: a graph file in the store is not a readable graph (conflict markers, a torn
    hand edit). A restore goes on without its commit first: putting such a file back is its fix."""


# A URL's user part: `https://bob:ghp_...@host/x.git` or a token as the user (`https://ghp_...@host`).
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/@\s]+)@")


def shown(text: str) -> str:
    """`text` (a remote, or git's own words naming it) with the passwords and tokens of its URLs hidden:
    commit messages are pushed, and what is printed lands in terminals and logs. A plain user name
    (`git@`, `bob@`) stays."""
    def hide(m: re.Match[str]) -> str:
        user, _, password = m.group(2).partition(":")
        if password:
            return f"{m.group(1)}{user}:***@"
        return m.group(0) if len(user) < 20 else f"{m.group(1)}***@"
    return _USERINFO.sub(hide, text)


def git_bin() -> str:
    return os.environ.get("KG_GIT") or "git"


def hostname() -> str:
    """This machine's name in commit messages (`KG_MACHINE` overrides the host name)."""
    return os.environ.get("KG_MACHINE") or socket.gethostname() or "unknown-host"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(LC_ALL="C", LANG="C", GIT_TERMINAL_PROMPT="0", GIT_EDITOR="true", GIT_MERGE_AUTOEDIT="no")
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def run(root: Path, *args: str, check: bool = True, timeout: float = GIT_TIMEOUT,
        ident: bool = False, network: bool = False) -> subprocess.CompletedProcess[str]:
    """git in `root`; GitError on failure when `check`. `network`: a git that talks to a remote runs in
    a session of its own, so that stopping it (stop_all) stops its helpers (git-remote-https) too;
    any other stays in this process's group (a commit process's watcher kills that whole)."""
    cmd = [git_bin(), "-C", str(root)]
    if ident:
        cmd += _identity(root)
    with git_auth.hidden(args if network else ()) as (bare, auth):  # a URL's password: never on the command line
        cmd += list(bare if network else args)
        return _run(cmd, args, check, timeout, network, {**_env(), **auth})


def _run(cmd: list[str], args: tuple[str, ...], check: bool, timeout: float, network: bool,
         env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    try:
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              text=True, env=env, start_new_session=network) as popen:
            _running.add(popen)
            try:
                out, err = popen.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                _stop(popen)
                raise GitError(f"git {args[0]} took over {timeout:.0f} s and was stopped") from None
            finally:
                _running.discard(popen)
        proc = subprocess.CompletedProcess(cmd, popen.returncode, out, err)
    except FileNotFoundError:
        raise GitError(f"git is not installed (looked for {git_bin()!r}); install git to keep history") from None
    if check and proc.returncode != 0:
        # git's hints go (they suggest raw git commands, a `git pull` among them, that leave the graphs behind).
        lines = [ln for ln in (proc.stderr or proc.stdout).strip().splitlines() if not ln.startswith("hint:")]
        # git's own verdict first (`fatal: Unable to create '.../index.lock': File exists.`), then its last words.
        said = [ln for ln in lines if ln.startswith(("fatal:", "error:"))][:2]
        tail = said + [ln for ln in lines[-2:] if ln not in said] if said else lines[-3:]
        raise GitError(shown(f"git {' '.join(args[:2])} failed: {' / '.join(tail) or f'exit {proc.returncode}'}"))
    return proc


_running: set[subprocess.Popen[str]] = set()  # the gits `run` waits on, in any thread


def _stop(popen: subprocess.Popen[str]) -> None:
    try:
        if os.getpgid(popen.pid) == popen.pid:  # a session of its own (network): its helpers too
            os.killpg(popen.pid, signal.SIGKILL)
        else:
            popen.kill()
    except (ProcessLookupError, PermissionError):
        pass


def stop_all() -> None:
    """Stop every git `run` is waiting on (a sync abandoned at shutdown: a remote that never answers
    would keep its git, and git's helpers, running for minutes after the server)."""
    for popen in list(_running):
        _stop(popen)


def _identity(root: Path) -> list[str]:
    """A commit needs a name: the user's own if configured, else this machine's."""
    out = []
    for key, value in (("user.name", f"kg on {hostname()}"), ("user.email", f"kg@{hostname()}")):
        proc = subprocess.run([git_bin(), "-C", str(root), "config", key], capture_output=True, text=True,
                              env=_env(), timeout=GIT_TIMEOUT, stdin=subprocess.DEVNULL)
        if proc.returncode != 0 or not proc.stdout.strip():
            out += ["-c", f"{key}={value}"]
    return out


def is_repo(root: Path) -> bool:
    return (root / ".git").exists()


def busy(root: Path) -> str | None:
    """Why the repository cannot take a commit now (a rebase or merge left half-done), or None."""
    git_dir = root / ".git"
    for name, what, fix in (
        ("rebase-merge", "a rebase", "rebase --continue or git rebase --abort"),
        ("rebase-apply", "a rebase", "rebase --continue or git rebase --abort"),
        ("MERGE_HEAD", "a merge", "merge --abort, and kg sync then merges it node by node; a commit needs every file "
                                    "resolved to valid JSON first"),
        ("CHERRY_PICK_HEAD", "a cherry-pick", "cherry-pick --continue or --abort"),
        ("REVERT_HEAD", "a revert", "revert --continue or --abort"),
    ):
        if (git_dir / name).exists():
            return (f"the store's repository ({root}) is in the middle of {what}; finish it first "
                    f"(git -C {root} {fix}); kg will not commit or sync until then")
    return None


def clear_stale_locks(root: Path) -> list[str]:
    """Remove lock files a killed git left behind. Only while holding the store's lock (no git of ours runs)."""
    removed = []
    git_dir = root / ".git"
    candidates = [git_dir / "index.lock", git_dir / "HEAD.lock", git_dir / "config.lock"]
    refs = git_dir / "refs"
    if refs.exists():
        candidates += list(refs.rglob("*.lock"))
    for path in candidates:
        try:
            path.unlink()
            removed.append(str(path.relative_to(root)))
        except FileNotFoundError:
            pass
    return removed


def driver_command() -> str:
    """The merge driver git runs: this interpreter, by absolute path (no PATH, no venv activation)."""
    return f"'{sys.executable}' -P -m kg_actors merge-driver %O %A %B %P"


def set_up(root: Path, config: bool = True) -> None:
    """The ignore file (written once, the graph lines added once), the graph files' merge driver,
    and its registration (`config`: the git config is written; a commit only checks the files)."""
    ignore = root / ".gitignore"
    if not ignore.exists():
        files.write_atomic(ignore, (IGNORE + GRAPH_IGNORE).encode(), keep_prev=False)  # never a torn ignore list
    else:
        text = ignore.read_text()
        lines = text.splitlines()
        extra = "" if "/projects/*/graph.json" in lines else GRAPH_IGNORE  # a store kept as graph files
        local = [name for name in LOCAL_PATTERNS if name not in lines]
        if local:
            extra += ("# Temp files, logs and machine-local state (added by a later kg):\n"
                      + "".join(f"{name}\n" for name in local))
        if extra:
            files.write_atomic(ignore, (text + ("" if text.endswith("\n") or not text else "\n") + "\n" + extra).encode(),
                               keep_prev=False)
    attributes = root / ".gitattributes"
    lines = attributes.read_text().splitlines() if attributes.exists() else []
    wanted = [f"{p} merge={DRIVER}" for p in GRAPH_PATTERNS] + [f"{p} merge=union" for p in UNION_FILES]
    missing = [w for w in wanted if w not in lines]
    if missing:
        files.write_atomic(attributes, ("\n".join(lines + missing) + "\n").encode(), keep_prev=False)
    if not config and not missing:
        return
    run(root, "config", f"merge.{DRIVER}.name", "kg per-node graph merge")
    run(root, "config", f"merge.{DRIVER}.driver", driver_command())


def init(root: Path) -> bool:
    """Make the store a repository (idempotent); True when it was not one."""
    root.mkdir(parents=True, exist_ok=True)
    created = not is_repo(root)
    if created:
        proc = run(root, "init", "-q", "-b", "main", check=False)
        if proc.returncode != 0:  # git before 2.28 has no -b
            run(root, "init", "-q")
            run(root, "symbolic-ref", "HEAD", "refs/heads/main")
    set_up(root)
    return created


def init_hint(root: Path) -> str:
    return f"{root} is not a git repository: run `kg init-git` (or `kg sync REMOTE`) to keep its history"


def head(root: Path) -> str | None:
    proc = run(root, "rev-parse", "--verify", "-q", "HEAD", check=False)
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def branch(root: Path) -> str:
    proc = run(root, "symbolic-ref", "--short", "-q", "HEAD", check=False)
    name = proc.stdout.strip()
    if not name:
        raise GitError(f"the store's repository ({root}) is not on a branch (detached HEAD); "
                       f"check out a branch first (git -C {root} switch main)")
    return name


def commit_message(now: float, what: str = "auto-save", ident: str = "") -> str:
    """`ident`: this store's machine id (machine_id.py), which tells two machines of one host name apart."""
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(now))
    return f"kg: {what} {stamp} UTC on {hostname()}\n\n{machine_lines(ident)}"


def machine_lines(ident: str) -> str:
    """The trailer lines naming the machine a commit was made on."""
    return f"Machine: {hostname()}\n" + (f"{TRAILER}{ident}\n" if ident else "")


def commit(root: Path, now: float, what: str = "auto-save",
           keep: dict[str, dict[str, Any] | Indexed] | None = None, skip: frozenset[str] = frozenset()) -> str | None:
    """Mirror the graph files, commit everything not ignored; the new commit, or None when nothing changed.

    A store kept as graph files (an older kg, kg-memory 0.17) moves to the mirror here, in the same
    commit: the folders are added, the graph files leave the index (they stay on disk, ignored).
    `keep` receives the graphs the mirror had to read (see `mirror.update`); the graphs `skip` names are left as
    last committed (held_on_disk.folders_held)."""
    from . import mirror

    reason = busy(root)
    if reason:
        raise GitError(reason)
    if moved_forward(root) is not None:
        raise MovedOutside(f"the store's repository ({root}) has commits made outside kg (a git pull by hand?) that "
                           "its graphs do not hold yet; not committing over them: run `kg commit` or `kg sync`, which "
                           "take them in first, merged per node with the writes here")
    set_up(root, config=False)
    try:
        mirror.update(root, keep, skip)
    except ValueError as exc:
        fix = exc.fix if isinstance(exc, mirror.NotUtf8) else (
            "The server keeps serving its last good state: fix the file by hand, or put it back with "
            "`kg restore --at HEAD GRAPH`")
        raise UnreadableGraph(f"{exc}; not committing it. {fix}") from None
    # Tracked files an ignore pattern of ours names (a store an older kg committed): out of the index, kept on disk.
    tracked = sorted(kg_ignored(root, tracked=True))
    if tracked:
        run(root, "rm", "-q", "--cached", "--", *tracked)
    # kg's own files only: a user's backup copy (user.json.bak) or note dropped in the store went into the commit
    # and to every machine. What the index already tracks (an older build's or the user's own) is kept in step.
    own = [name for name in OWN_FILES if (root / name).exists()]
    if own:
        run(root, "add", "-A", "--", *own)
    run(root, "add", "-u")  # a tracked file gone is staged gone (a mirror folder removed by hand among them)
    staged = run(root, "diff", "--cached", "--quiet", check=False)
    if staged.returncode == 0 and (top := head(root)) is not None:
        git_head.remember(root, top)
        return None
    run(root, "commit", "-q", "--no-verify", "--allow-empty", "-m", commit_message(now, what, machine_id(root, make=True)),
        ident=True)
    top = head(root)
    git_head.remember(root, top)
    return top


def moved_forward(root: Path) -> tuple[str, str] | None:
    """(the commit to take in from, HEAD) when HEAD moved on outside kg (a `git pull`, a commit by hand): content to
    take in before the next commit. None when HEAD is where kg left it (or kg never committed here). The commit
    taken in from is the one kg last made or took in; with none recorded (a store an older kg committed), this
    machine's newest kg commit in HEAD's history. A `git pull --rebase` replays kg's commits onto the pulled ones:
    taken in from where the two lines met. MovedOutside when HEAD no longer holds kg's commit or its replay (a
    reset or switch by hand): taking that in would revert this machine's own history, so nothing is done until
    the user says which they mean."""
    now = head(root)
    before = (git_head.recorded(root) or _last_own_commit(root)) if now is not None else None
    if before is None or now is None or before == now:
        return None
    if run(root, "merge-base", "--is-ancestor", before, now, check=False).returncode == 0:
        return before, now
    met = _replayed_onto(root, before, now)
    if met is not None:
        return met, now
    raise MovedOutside(
        f"the store's repository ({root}) was moved outside kg to {now[:12]}, which does not hold {before[:12]}, the "
        "commit kg last made (a git reset, checkout or switch by hand?); kg will not commit, sync or restore over it. "
        f"To go back: git -C {root} reset --hard {before[:12]} (graph files are not touched; switch back to the "
        "branch first if it changed); then, to bring back an older state of a graph, `kg restore --at COMMIT GRAPH`")


_OWN_SEARCHED = 200  # commits of HEAD's history looked through for this machine's last kg commit


def _last_own_commit(root: Path) -> str | None:
    """This machine's newest kg commit in HEAD's history (its message names the machine), or None."""
    out = run(root, "log", f"-n{_OWN_SEARCHED}", "--format=%H%x1f%B%x1e", "HEAD", check=False).stdout
    mark = f"Machine: {hostname()}"
    for entry in out.split("\x1e"):
        sha, _, message = entry.strip().partition("\x1f")
        if message.startswith("kg: ") and mark in message.splitlines():
            return sha
    return None


def _replayed_onto(root: Path, before: str, now: str) -> str | None:
    """Where kg's line and HEAD's met, when every commit of kg's line since then is in HEAD's as a commit of the
    same change (`git pull --rebase` replayed them onto the pulled ones); else None (a reset back, an amend, a
    switch to another branch)."""
    met = run(root, "merge-base", before, now, check=False).stdout.strip()
    if not met or met == now:
        return None
    lines = run(root, "cherry", now, before, met, check=False).stdout.split()
    marks = lines[0::2]
    return met if marks and all(m == "-" for m in marks) else None


def kg_ignored(root: Path, tracked: bool) -> set[str]:
    """The files kg's ignore patterns name (machine-local state, graph files): those the index holds
    (`tracked`), or those on disk it does not."""
    which = ("--cached",) if tracked else ("--others",)
    out = run(root, "ls-files", "-z", *which, "--ignored", *(f"--exclude={p}" for p in UNTRACKED_PATTERNS)).stdout
    return {name for name in out.split("\0") if name}


def resolve(root: Path, at: str, now: float) -> str:
    """A commit from a commit-ish or a moment (core/when.py: "2026-11-30", "2026-11-30 14:00", "yesterday")."""
    proc = run(root, "rev-parse", "--verify", "-q", f"{at}^{{commit}}", check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip()
    seconds = when.moment(at, now)
    if seconds is None:  # git would read it as "now": a typo must not restore the newest commit
        raise GitError(f"{at!r} is neither a commit of the store nor a moment: give a commit id, or {when.FORMS}")
    # As a UTC date: git reads a small `@seconds` (the first days of 1970) as something else entirely.
    before = time.strftime("%Y-%m-%d %H:%M:%S +0000", time.gmtime(max(0, int(seconds))))
    proc = run(root, "rev-list", "-1", f"--before={before}", "HEAD", check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip()
    raise GitError(f"no commit matches {at!r} (a commit id, or a date after the first commit)")


@attrs.frozen
class Revision:
    commit: str
    ts: float
    author: str
    machine: str
    subject: str


def file_log(root: Path, paths: list[str], limit: int) -> list[Revision]:
    """The commits that changed any of `paths`, newest first."""
    proc = run(root, "log", f"-{limit}", "--format=%H%x1f%at%x1f%an%x1f%s%x1f%(trailers:key=Machine,valueonly)%x1e",
               "--", *paths, check=False)
    out = []
    for rec in proc.stdout.split("\x1e"):
        parts = rec.strip().split("\x1f")
        if len(parts) < 4:
            continue
        machine = parts[4].strip() if len(parts) > 4 and parts[4].strip() else parts[2]
        out.append(Revision(parts[0], float(parts[1]), parts[2], machine, parts[3]))
    return out
