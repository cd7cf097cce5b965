"""Ctrl-C during `kg setup --yes`: it says it was cut short and which agents it did not finish, and `kg doctor`
then fails those (asked for, never finished) instead of calling them left out by the user. Real `kg`; a
`claude` on PATH that never returns holds setup inside its first step."""

from __future__ import annotations

import os
import signal
import subprocess

from e2e_helpers import KG, kg, wait_until

from kg_actors.testing import free_port

BLOCKING_CLAUDE = '#!/bin/sh\ntouch "$(dirname "$0")/called"\nexec sleep 600\n'  # held until setup kills it


def test_an_interrupted_setup_names_what_it_did_not_finish_and_doctor_fails_those(tmp_path):
    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    gemini = home / ".gemini" / "settings.json"
    for path in (desktop, gemini):
        path.parent.mkdir(parents=True)
        path.write_text('{"theme": "dark"}\n')
    bin_dir.mkdir()
    (bin_dir / "claude").write_text(BLOCKING_CLAUDE)
    (bin_dir / "claude").chmod(0o755)
    env = dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.Popen([KG, "setup", "--yes", "--only", "claude,desktop,gemini"], env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: (bin_dir / "called").exists() or proc.poll() is not None, what="setup to run claude")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "kg setup: interrupted, not finished: Claude Code, Claude Desktop, Gemini CLI" in out, out
    doctor = kg(["doctor"], env)
    assert doctor.returncode == 1
    for title, name in (("Claude Code", "claude"), ("Claude Desktop", "desktop"), ("Gemini CLI", "gemini")):
        assert f"FAIL  {title}: not wired: kg setup was cut short" in doctor.stdout, doctor.stdout
        assert f"fix: kg setup --only {name}" in doctor.stdout
    assert "left it out" not in doctor.stdout
