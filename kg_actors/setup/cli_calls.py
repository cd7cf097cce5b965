"""A harness CLI's command as setup and uninstall run it (`claude plugin ...`, `codex plugin ...`, `agy ...`)."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

from . import SetupError

CLI_TIMEOUT = 120.0


def run(argv: tuple[str, ...], env: dict[str, str], home: Path) -> None:
    """Run it; a SetupError quoting its own error line when it fails."""
    # A Rust CLI (Codex) ends an error with a backtrace where these are set: its message is what we quote.
    env = {**env, "RUST_BACKTRACE": "0", "RUST_LIB_BACKTRACE": "0"}
    try:
        out = subprocess.run(list(argv), env=env, capture_output=True, text=True, timeout=CLI_TIMEOUT,
                             stdin=subprocess.DEVNULL, cwd=home if home.is_dir() else None)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SetupError(f"`{shlex.join(argv)}` did not run: {exc}") from None
    if out.returncode != 0:
        said = [line for line in (out.stderr + out.stdout).splitlines() if line.strip() and "WARNING" not in line]
        errors = [line.strip() for line in said if line.strip().lower().startswith("error")]
        raise SetupError(f"`{shlex.join(argv)}` exited {out.returncode}: "
                         f"{errors[0] if errors else said[-1] if said else 'no output'}")


def already_gone(said: str) -> bool:
    """A CLI's refusal to remove what is no longer there ("Plugin ... not found in installed plugins")."""
    said = said.lower()
    return any(words in said for words in ("not found", "not installed", "no such", "does not exist",
                                           "not configured"))


def removed(argv: tuple[str, ...], run_it: Callable[[tuple[str, ...]], None]) -> bool:
    """Run a removal; False when the CLI says what it removes is already gone, which is what the removal wanted
    (Claude Code uninstalls a marketplace's plugins as it removes the marketplace, so a re-run's `plugin
    uninstall` right after finds nothing)."""
    try:
        run_it(argv)
    except SetupError as exc:
        if already_gone(str(exc)):
            return False
        raise
    return True
