"""A store no server can run on (KG_HOME a file; a store folder another account holds): `kg status` exits 3,
as the README says for "no server of this store answers", naming why, and kg doctor's fix for the server line
is one that works: it said `kg start`, which refuses that store; status exited 1 (or died reading server.log)."""

from __future__ import annotations

import os

from e2e_helpers import kg
from other_user import Client, graph_json, needs_other_user, other_user_server, own

from kg_actors.testing import free_port


def _server_fix(doctor: str) -> str:
    lines = doctor.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL  server:"))
    return lines[at + 1].strip()


def test_a_kg_home_that_is_a_file_is_no_server_running_and_its_fix_is_a_folder(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    env = dict(os.environ, HOME=str(tmp_path), KG_HOME=str(afile), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()))
    status = kg(["status"], env)
    assert status.returncode == 3, (status.stdout, status.stderr)
    assert f"{afile} is a file, not a folder\n    fix: point KG_HOME at a folder" in status.stdout, status
    fix = _server_fix(kg(["doctor"], env).stdout)
    assert fix != "fix: kg start" and "point KG_HOME at a folder" in fix, fix
    assert kg(["start"], env).returncode != 0  # what the old fix said: it cannot work


@needs_other_user
def test_a_store_this_user_may_not_enter_is_no_server_running_and_named():
    with other_user_server() as srv:
        srv.store.mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        (srv.store / "server.log").write_text("")
        own(srv)
        os.chmod(srv.store, 0)  # as one `sudo kg ...` can leave it, for this user
        try:
            conn = Client(srv)
            status = conn.run("status")
            doctor = conn.run("doctor").stdout
        finally:
            os.chmod(srv.store, 0o700)
        assert status.returncode == 3, (status.stdout, status.stderr)
        assert "Permission denied" in status.stdout and f"chmod u+rwx {srv.store}" in status.stdout, status.stdout
        fix = _server_fix(doctor)
        assert fix != "fix: kg start" and f"chmod u+rwx {srv.store}" in fix, doctor
