"""What a write stores, the load's, a commit's and a sync's scan never find holding a secret: an outside audit
stored the README's own .env.example as two notes (`STRIPE_SECRET_KEY=sk_test_xxxx…`, `JWT_SECRET=changeme`), then
`kg commit` refused the whole store over them and, after a restart, both notes were shown to agents withheld
as a Stripe key. Through a real `kg serve`, `kg init-git`, `kg commit` and a restart."""

from __future__ import annotations

from e2e_helpers import Session, kg, start_server
from mcp import Client

ENV_NOTES = ["STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", "JWT_SECRET=changeme"]
GITLAB_NOTES = ["glpat- personal access tokens expire yearly", "glrt- runner tokens are per runner"]
ENV_FILE = "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nJWT_SECRET=changeme\nDEBUG=true"


async def _write_and_read(srv) -> None:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=srv.project("agree-proj"))
        await s.ok("kg_put_node", level="project", id="env-example-layout", gist=".env.example layout for new devs",
                   notes=ENV_NOTES)
        await s.ok("kg_put_node", level="project", id="gitlab-prefixes", gist="GitLab token prefixes",
                   notes=GITLAB_NOTES)


async def _shown(srv) -> str:
    async with Client(srv.url + "/") as c:
        s = await Session.open(c, cwd=srv.project("agree-proj"))
        return "\n".join([await s.ok("kg_read", id=i) for i in ("env-example-layout", "gitlab-prefixes",
                                                                 "env-example-pasted")])


async def test_notes_a_write_stores_are_committed_and_shown_after_a_restart(tmp_path):
    srv = start_server(tmp_path)
    try:
        assert kg(["init-git"], srv.env).returncode == 0
        await _write_and_read(srv)
        out = kg(["commit"], srv.env)
        assert out.returncode == 0 and "NOT COMMITTED" not in out.stdout + out.stderr, out.stdout + out.stderr
        async with Client(srv.url + "/") as c:  # the same lines pasted as one note
            s = await Session.open(c, cwd=srv.project("agree-proj"))
            await s.ok("kg_put_node", level="project", id="env-example-pasted", gist="the .env.example as pasted",
                       notes=[ENV_FILE])
        srv.stop()
        srv.start()
        shown = await _shown(srv)
        assert "withheld" not in shown, shown
        assert all(note in shown for note in (*ENV_NOTES, *GITLAB_NOTES, *ENV_FILE.splitlines())), shown
        doctor = kg(["doctor"], srv.env)
        assert "env-example" not in doctor.stdout and "gitlab-prefixes" not in doctor.stdout, doctor.stdout
    finally:
        srv.kill()
