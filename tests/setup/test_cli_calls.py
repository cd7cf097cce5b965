"""A harness CLI's removal that finds its target already gone is done; any other failure stays a failure."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kg_actors.setup import SetupError, cli_calls


def _exits(message: str):
    def run_it(argv: tuple[str, ...]) -> None:
        raise SetupError(f"`{' '.join(argv)}` exited 1: {message}")
    return run_it


def test_a_removal_of_a_plugin_claude_code_no_longer_has_is_done_without_removing():
    said = '✘ Failed to uninstall plugin "kg-memory@kg-local": Plugin "kg-memory@kg-local" not found in installed plugins'
    assert cli_calls.removed(("claude", "plugin", "uninstall", "kg-memory@kg-local"), _exits(said)) is False


def test_a_removal_that_fails_otherwise_is_a_failure():
    with pytest.raises(SetupError, match="permission denied"):
        cli_calls.removed(("claude", "plugin", "uninstall", "k@m"), _exits("EACCES: permission denied"))


def test_a_removal_that_runs_is_said_done(tmp_path: Path):
    ran: list[tuple[str, ...]] = []
    assert cli_calls.removed(("x",), ran.append) is True and ran == [("x",)]


def test_the_cli_s_own_error_line_is_quoted(tmp_path: Path):
    argv = (sys.executable, "-c", "import sys; print('noise'); print('Error: no such plugin', file=sys.stderr); "
                                  "sys.exit(2)")
    with pytest.raises(SetupError) as exc:
        cli_calls.run(argv, {}, tmp_path)
    assert "exited 2: Error: no such plugin" in str(exc.value) and cli_calls.already_gone(str(exc.value))
