"""Why a session's folder is no folder it can be in: a folder that is there but cannot be looked at is not
said to be missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from kg_actors.storage.layout import folder_fault


def test_a_folder_a_file_a_missing_path_and_a_loop(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "loop").symlink_to("loop")
    assert folder_fault(str(tmp_path)) is None
    assert folder_fault(str(tmp_path / "f")) == "is a file, not a folder"
    assert folder_fault(str(tmp_path / "gone")) == "does not exist"
    assert folder_fault(str(tmp_path / "f" / "sub")) == "does not exist"
    assert folder_fault(str(tmp_path / "loop" / "sub")).startswith("is a symlink loop")


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"), reason="root enters every folder")
def test_a_folder_behind_one_the_user_may_not_enter_is_named_as_shut_not_missing():
    base = Path(tempfile.mkdtemp(prefix="kg-shut-", dir="/tmp"))  # every folder above it may be entered
    (base / "shut" / "proj").mkdir(parents=True)
    base.chmod(0o755)
    (base / "shut").chmod(0)
    code = f"from kg_actors.storage.layout import folder_fault; print(folder_fault({str(base / 'shut' / 'proj')!r}))"
    run_as = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    try:
        out = subprocess.run([*run_as, sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                             cwd="/", env={**os.environ, "PYTHONPATH": os.getcwd()})
    finally:
        (base / "shut").chmod(0o755)
        shutil.rmtree(base)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == (f"cannot be looked at by the server's user: the folder {base / 'shut'} may not "
                                  "be entered (a permission)"), out.stdout
