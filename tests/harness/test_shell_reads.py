"""harness/shell.read_files: which shell commands plainly read which files.

Only cat/head/tail/less/`sed -n`/grep/jq/nl/rg at the head of a pipeline
segment, with explicit operands, count; anything that edits, loops over
variables or globs, feeds a heredoc, or moves the directory does not.
"""

from __future__ import annotations

import json

import pytest

from kg_actors.harness import rollout, shell
from kg_actors.harness.shell import MAX_FILES, read_files

CWD = "/home/u/proj"


def reads(command, cwd: str | None = CWD) -> list[str]:
    return read_files(command, cwd)


@pytest.mark.parametrize("command, expected", [
    ("cat src/a.py", ["src/a.py"]),
    ("cat -n src/a.py src/b.py", ["src/a.py", "src/b.py"]),
    ("head src/a.py", ["src/a.py"]),
    ("head -n 40 src/a.py", ["src/a.py"]),
    ("head -40 src/a.py", ["src/a.py"]),
    ("head --lines=40 src/a.py", ["src/a.py"]),
    ("tail -n +5 src/a.py", ["src/a.py"]),
    ("tail -f logs/app.log", ["logs/app.log"]),
    ("less README.md", ["README.md"]),
    ("sed -n '10,40p' src/a.py", ["src/a.py"]),
    ("sed -n '1,$p' src/a.py", ["src/a.py"]),
    ("sed --quiet -e 5p src/a.py", ["src/a.py"]),
    ("grep -n 'def main' src/a.py", ["src/a.py"]),
    ("grep -rn -e token -e session src/a.py src/b.py", ["src/a.py", "src/b.py"]),
    ("grep -A3 -m 2 'foo$' src/a.py", ["src/a.py"]),
    ("jq '.dependencies' package.json", ["package.json"]),
    ("jq -r --arg name x '.[$name]' package.json", ["package.json"]),
    ("nl -ba src/a.py", ["src/a.py"]),
    ("rg -n 'refresh' src/auth.py", ["src/auth.py"]),
    ("rg -g '*.py' -i refresh src/auth.py", ["src/auth.py"]),
    ("grep token < src/a.py", ["src/a.py"]),
    ("cat src/a.py 2>/dev/null | head -5", ["src/a.py"]),
    ("cat src/a.py > /dev/null", ["src/a.py"]),
    ("LC_ALL=C grep x src/a.py", ["src/a.py"]),
    ("git status && cat src/a.py; ls", ["src/a.py"]),
    ("cat src/a.py\nhead src/b.py", ["src/a.py", "src/b.py"]),
    ("/bin/cat src/a.py", ["src/a.py"]),
    ("cat ./src/../src/a.py", ["src/a.py"]),
])
def test_plain_reads_with_explicit_operands_count(command, expected):
    assert reads(command) == [f"{CWD}/{p}" for p in expected]


@pytest.mark.parametrize("command", [
    "sed -i 's/a/b/' src/a.py",  # an edit
    "sed -i.bak -n 1p src/a.py",
    "sed -ni 's/a/b/' src/a.py",
    "sed --in-place=.bak -n 1p src/a.py",
    "sed 's/a/b/' src/a.py",  # a transform of the whole stream, not a read
    "cat $FILE",  # variables
    "cat \"$HOME/x.py\"",
    "cat $(git ls-files | head -1)",  # command substitution
    "cat `ls`",
    "cat src/*.py",  # globs
    "head src/a?.py",
    "cat src/{a,b}.py",
    "cat <<EOF\nsrc/a.py\nEOF",  # heredocs
    "grep x <<< src/a.py",
    "jq --args '.' src/a.json",
    "rg --files src/a.py",
    "rg --no-such-option x src/a.py",  # rg and nl parse strictly: unknown means unsure
    "nl --weird src/a.py",
    "echo src/a.py",  # not a reader
    "python src/a.py",
    "vim src/a.py",
    "grep pattern",  # no file operand: stdin
    "rg refresh",  # a directory search
    "cat 'unbalanced",
    "",
])
def test_edits_variables_globs_heredocs_and_others_count_for_nothing(command):
    assert reads(command) == []


@pytest.mark.parametrize("command", [
    "cd src && cat a.py",
    "cd /elsewhere; head a.py",
    "pushd src >/dev/null; cat a.py",
    "(cd src; cat a.py)",
])
def test_a_cd_makes_relative_operands_unknown(command):
    assert reads(command) == []


def test_an_absolute_operand_still_counts_after_a_cd():
    assert reads("cd /tmp && cat /home/u/proj/src/a.py") == ["/home/u/proj/src/a.py"]


def test_relative_operands_need_a_known_directory():
    assert reads("cat src/a.py", cwd=None) == []
    assert reads("cat src/a.py", cwd="relative/dir") == []
    assert reads("cat /home/u/proj/src/a.py src/b.py", cwd=None) == ["/home/u/proj/src/a.py"]


def test_tilde_expands_to_this_home_only(monkeypatch):
    monkeypatch.setenv("HOME", "/home/u")
    assert reads("cat ~/notes.md") == ["/home/u/notes.md"]
    assert reads("cat ~other/notes.md") == []


def test_the_pattern_is_not_a_file_unless_given_by_option():
    assert reads("grep src/a.py src/b.py") == [f"{CWD}/src/b.py"]
    assert reads("grep -e src/a.py src/b.py") == [f"{CWD}/src/b.py"]
    assert reads("grep -f patterns.txt src/b.py") == [f"{CWD}/src/b.py"]
    assert reads("jq -f prog.jq data.json") == [f"{CWD}/data.json"]


def test_codex_argv_lists_and_shell_wrappers_unwrap():
    assert reads(["bash", "-lc", "cat src/a.py"]) == [f"{CWD}/src/a.py"]
    assert reads(["cat", "src/a.py"]) == [f"{CWD}/src/a.py"]
    assert reads("bash -lc 'sed -n 1,20p src/a.py'") == [f"{CWD}/src/a.py"]
    assert reads(["bash", "-lc", "cd src && cat a.py"]) == []
    assert reads([1, 2]) == []
    assert reads(None) == []


def test_at_most_eight_files_and_no_duplicates():
    many = " ".join(f"f{i}.txt" for i in range(20))
    assert len(reads(f"cat {many}")) == MAX_FILES
    assert reads("cat a.txt a.txt ./a.txt") == [f"{CWD}/a.txt"]


# -- Codex: where a shell command ran, from the rollout ------------------------------------------


def _record(call_id: str, thread: str, cwd: str, status: str = "completed", turn: str = "turn-1") -> str:
    return json.dumps({"timestamp": "2026-11-30T10:00:00Z", "type": "event_msg", "payload": {
        "type": "item_completed", "thread_id": thread, "turn_id": turn,
        "item": {"type": "CommandExecution", "id": call_id, "command": "cat x", "cwd": cwd, "status": status}}})


def test_a_codex_command_runs_where_its_rollout_record_says(tmp_path):
    path = tmp_path / "rollout-2026-11-30T10-00-00-t1.jsonl"
    lines = [json.dumps({"type": "session_meta", "payload": {"id": "t1"}}),
             _record("call-a", "t1", "/home/u/proj"),
             _record("call-b", "t1", "file:///home/u/proj/sub"),
             _record("call-twice", "t1", "/home/u/a"), _record("call-twice", "t1", "/home/u/b"),
             _record("call-running", "t1", "/home/u/proj", status="in_progress"),
             _record("call-rel", "t1", "relative/dir"),
             "{not json", ""]
    path.write_text("\n".join(lines) + "\n" + _record("call-partial", "t1", "/home/u/proj")[:-5])
    assert rollout.shell_cwd(path, "call-a", "t1") == "/home/u/proj"
    assert rollout.shell_cwd(path, "call-a", "t1", "turn-1") == "/home/u/proj"
    assert rollout.shell_cwd(path, "call-b", "t1") == "/home/u/proj/sub"
    assert rollout.shell_cwd(path, "call-a", "other-thread") is None
    assert rollout.shell_cwd(path, "call-a", "t1", "turn-2") is None
    for call in ("call-twice", "call-running", "call-rel", "call-partial", "call-missing", None):
        assert rollout.shell_cwd(path, call, "t1") is None, call
    assert rollout.shell_cwd(tmp_path / "missing.jsonl", "call-a", "t1") is None


def test_only_the_rollout_tail_is_read(tmp_path):
    path = tmp_path / "rollout-big.jsonl"
    old = _record("call-old", "t1", "/home/u/old")
    filler = json.dumps({"type": "response_item", "payload": {"text": "x" * 1000}})
    path.write_text(old + "\n" + "\n".join([filler] * 300) + "\n" + _record("call-new", "t1", "/home/u/new") + "\n")
    assert rollout.shell_cwd(path, "call-new", "t1") == "/home/u/new"
    assert rollout.shell_cwd(path, "call-old", "t1") is None  # beyond the last 256 KiB


def test_a_long_command_is_read_from_its_start():
    """Only the start is tokenized (shlex is slow): a cut inside a quote keeps the words before it,
    while a whole command with an open quote still counts for nothing."""
    long_code = "python -c \"" + "x = 1; " * 2_000 + "\" && cat /etc/hosts"
    assert shell.invocations(long_code)[0][:2] == ["python", "-c"]
    assert shell.read_files("cat /tmp/a.txt; " * 1_000, None) == ["/tmp/a.txt"]
    cut_in_a_path = "cat " + " ".join(f"/tmp/file-number-{i:05d}.txt" for i in range(200))  # 5,000 characters
    assert len(shell.read_files(cut_in_a_path, None)) == MAX_FILES
    assert all(len(word) == len("/tmp/file-number-00000.txt") for word in shell._tokens(cut_in_a_path)[1:])
    assert shell.invocations("echo 'open quote") == []
    assert shell.read_files("cat 'open quote", "/tmp") == []
    many = ";".join(f"prog{i} arg" for i in range(1_500))  # 16,000 characters
    assert [w[0] for w in shell.invocations(many)] == [f"prog{i}" for i in range(8)]


@pytest.mark.parametrize("command", ["uv run alembic upgrade head", "poetry run alembic upgrade head",
                                     "python -m alembic upgrade head", "python3.12 -m alembic upgrade head",
                                     "uv run --frozen alembic upgrade head", "sudo pipenv run alembic upgrade head",
                                     "uv run python -m alembic upgrade head"])
def test_what_a_runner_starts_is_an_invocation_of_its_own(command):
    found = shell.invocations(command)
    assert ["alembic", "upgrade", "head"] in found and found[0][-3:] == ["alembic", "upgrade", "head"]


def test_a_runner_without_its_subcommand_starts_nothing_named():
    assert shell.invocations("uv sync") == [["uv", "sync"]]
    assert shell.invocations("python -c 'print(1)'") == [["python", "-c", "print(1)"]]
    assert shell.invocations("npx prisma migrate deploy") == [["npx", "prisma", "migrate", "deploy"],
                                                              ["prisma", "migrate", "deploy"]]
