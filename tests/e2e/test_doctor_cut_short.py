"""`kg doctor` runs every check whatever one of them runs into: a store folder it may not enter (a `projects/`
folder left to root by one `sudo kg ...`, the whole store so) is a FAIL naming the folder and the fix, and the
checks after it run and the summary line ends the report. Before, the OSError ended doctor in cli.py's generic
handler right after the folder's first FAIL (or the storage line), with no later check and no summary.

A real `kg serve` and `kg doctor` run as another user (root enters every folder), as test_store_folder_shut does."""

from __future__ import annotations

from other_user import Client, graph_json, needs_other_user, other_user_server, own


def _doctor_ends_whole(out: str) -> None:
    lines = out.splitlines()
    assert lines[-1].startswith("kg doctor: ") and "problem(s)" in lines[-1], out
    assert any(line.startswith(("--    quota gauge", "ok    quota gauge")) for line in lines), out  # the last check ran
    assert "check that it exists and that you may use it" not in out, out


@needs_other_user
def test_doctor_finishes_past_a_projects_folder_it_may_not_enter():
    with other_user_server() as srv:
        cwd = srv.project("a")
        projects = srv.store / "projects"
        (projects / "a").mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        (projects / "a" / "graph.json").write_text(graph_json(cwd, "a-first-lesson"))
        own(srv)
        srv.start("--no-editor")
        conn = Client(srv)
        projects.chmod(0)
        try:
            run = conn.run("doctor")
        finally:
            projects.chmod(0o755)
        assert run.returncode == 1, (run.stdout, run.stderr)
        _doctor_ends_whole(run.stdout)
        assert "FAIL  stored graphs: this check stopped: Permission denied (EACCES)" in run.stdout and f"chmod u+rwx {projects}" in run.stdout, run.stdout


@needs_other_user
def test_doctor_finishes_past_a_store_it_may_not_enter():
    with other_user_server() as srv:
        srv.store.mkdir(parents=True)
        (srv.store / "user.json").write_text(graph_json(None, "user-lesson-node"))
        own(srv)
        srv.start("--no-editor")
        conn = Client(srv)
        assert srv.stop() == 0
        srv.store.chmod(0)
        try:
            run = conn.run("doctor")
        finally:
            srv.store.chmod(0o700)
        assert run.returncode == 1, (run.stdout, run.stderr)
        _doctor_ends_whole(run.stdout)
        assert f"chmod u+rwx {srv.store}" in run.stdout, run.stdout
        record = run.stdout.split("FAIL  setup record:", 1)[1].splitlines()[1]  # moving it away cannot work here
        assert f"fix: `chmod u+rwx {srv.store}`" in record and "move " not in record, record
