"""hooks/prompt.sh's own reminder line (the server had nothing to say), read from the reminders.txt beside it:
whatever that file holds, the hook prints one line of valid JSON or nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hook_helpers import HOOKS, hook_env

from kg_actors.core import reminders


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    from kg_actors.testing import ServerProcess

    server = ServerProcess(tmp_path_factory.mktemp("reminders")).start()
    yield server
    server.stop()


def prompt_with(srv, tmp_path: Path, reminders_txt: bytes | None, fifo: bool = False, shell: str = "sh"):
    hooks = tmp_path / "plugin" / "hooks"
    shutil.copytree(HOOKS, hooks)
    (hooks / "reminders.txt").unlink()
    if fifo:
        os.mkfifo(hooks / "reminders.txt")
    elif reminders_txt is not None:
        (hooks / "reminders.txt").write_bytes(reminders_txt)
    (srv.home / "proj").mkdir(exist_ok=True)
    payload = {"session_id": "rem-1", "transcript_path": "/nonexistent.jsonl", "cwd": str(srv.home / "proj"),
               "hook_event_name": "UserPromptSubmit", "prompt": "zzqx unrelated words"}
    # A bounded run: a hook waiting on the file for ever fails here, not by the clock.
    proc = subprocess.run([shell, str(hooks / "prompt.sh")], input=json.dumps(payload).encode(), env=hook_env(srv),
                          capture_output=True, timeout=30, cwd=srv.home)
    return proc.stdout.decode(), proc.stderr.decode(), proc.returncode


def test_a_reminders_file_that_is_a_fifo_is_silence_not_a_wait(srv, tmp_path):
    assert prompt_with(srv, tmp_path, None, fifo=True) == ("", "", 0)


def test_the_shipped_reminders_give_one_line_of_json(srv, tmp_path):
    out, err, rc = prompt_with(srv, tmp_path, (HOOKS / "reminders.txt").read_bytes())
    said = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert said in {text for _bound, text in _lines(HOOKS / "reminders.txt")} and (err, rc) == ("", 0)


def _lines(path: Path) -> list[tuple[str, str]]:
    return [tuple(line.split(" ", 1)) for line in path.read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("shell", ["sh", "bash"])  # Debian's sh is dash; Fedora's and Arch's, bash
@pytest.mark.parametrize("line,said", [
    (b"200000 KG: a line of a CRLF file\r\n", "KG: a line of a CRLF file"),
    (b"200000 KG: a\ttab\n", "KG: a tab"),
    (b'200000 KG: say "hi" \\ here\n', 'KG: say "hi" \\ here'),
    (b"- KG: no bound, CRLF\r\n", "KG: no bound, CRLF"),
])
def test_a_reminder_with_a_cr_tab_quote_or_backslash_is_printed_as_valid_json(srv, tmp_path, line, said, shell):
    # It was printed inside the JSON as it was: the agent got output it could not parse.
    out, err, rc = prompt_with(srv, tmp_path, b"# a comment\r\n" + line, shell=shell)
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == said and (err, rc) == ("", 0)
    assert [t.replace("\t", " ") for _bound, lines in reminders.parse(line.decode()) for t in lines] == [said]


def test_a_reminder_line_over_the_cap_is_dropped_by_the_hook_as_by_the_server(srv, tmp_path):
    long = b"200000 KG: " + b"x" * reminders.LINE_MAX + b"\n"
    assert prompt_with(srv, tmp_path, long) == ("", "", 0)  # no 10 KB of hook output
    assert reminders.parse(long.decode()) == ()
    out, _err, _rc = prompt_with(srv, tmp_path / "2", long + b"200000 KG: the short one\n")
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == "KG: the short one"
