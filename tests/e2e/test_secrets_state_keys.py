"""A secret used as a key of a progress state (`{"DB_PASSWORD=<value>": true}`, nested, in a list's object) is
refused by kg_progress and the editor's POST /api/progress as a value is; one a hand edit put in a stored
state is withheld from agents (the key shown as a marker), named by `kg doctor` and never committed."""

from __future__ import annotations

import httpx
from e2e_helpers import Session, kg, start_server
from git_helpers import git
from mcp import Client

PASSWORD = "mX0gQh5b" + "Tnj6WixYle"  # random, assembled so no file holds it whole
AWS_SECRET = "xpm+NFZbYutVa4DX" + "fTu3a4SEdravE4jYdH/ryc2M"
T = 1_700_000_000.0
KEYED = (
    {f"DB_PASSWORD={PASSWORD}": True},
    {"checked": {f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}": None}},
    {"runs": [{f"password: {PASSWORD}": 3}]},
    {"wifi": {"password": 84920174}},  # a password given as a number is the password
)


def _said_nothing_secret(text: str) -> None:
    assert PASSWORD not in text and AWS_SECRET not in text and "84920174" not in text, text[-3000:]


async def test_a_secret_in_a_state_key_is_refused_at_every_door(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c, cwd=srv.project("keys-proj"))
            for state in KEYED:
                text = await s.err("kg_progress", task_id="env-audit", level="project", state=state)
                assert "NOT WRITTEN: state." in text and "holds what looks like" in text, text
                _said_nothing_secret(text)
            # Ordinary keys stay stored: words, counts, a password's rule.
            plain = {"token_rotation_done": True, "password_min_length": 12, "steps": {"api-key-audit": None},
                     "passwords checked": 40, "step": 2}
            await s.ok("kg_progress", task_id="env-audit", level="project", state=plain)
            with httpx.Client(base_url=srv.url, timeout=30) as http:
                r = http.post("/api/progress", json={"level": "project", "project_path": srv.project("keys-proj"),
                                                     "task_id": "rest-audit", "state": KEYED[0]})
                assert r.status_code == 400 and "state." in r.text, r.text
                _said_nothing_secret(r.text)
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                _said_nothing_secret(path.read_bytes().decode("utf-8", "replace"))
    finally:
        srv.kill()


def _user() -> dict:
    return {"nodes": {"plain-lesson": {"id": "plain-lesson", "gist": "an ordinary lesson", "_created_ts": T}},
            "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}, "progress": {
                "env-audit": {"step": 1, "checked": {f"DB_PASSWORD={PASSWORD}": True, "REDIS_URL": True},
                              "last_ts": T, "_trail": [{"_ts": T, f"DB_PASSWORD={PASSWORD}": True}]}}}}


async def test_a_secret_in_a_stored_state_key_is_withheld_named_and_never_committed(tmp_path):
    srv = start_server(tmp_path, user=_user())
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            shown = await s.ok("kg_progress", task_id="env-audit", level="user")
            _said_nothing_secret(shown)
            assert "[withheld: holds what looks like" in shown and "REDIS_URL" in shown, shown
        doctor = kg(["doctor"], srv.env)
        assert "progress 'env-audit' state.checked.<key 1>" in doctor.stdout, doctor.stdout
        _said_nothing_secret(doctor.stdout + doctor.stderr)
        assert kg(["init-git"], srv.env).returncode == 0
        out = kg(["commit"], srv.env)
        said = out.stdout + out.stderr
        assert out.returncode == 1 and "progress 'env-audit'" in said, said
        _said_nothing_secret(said)
        assert git(srv.store, "rev-parse", "-q", "--verify", "HEAD", env=srv.env, check=False).strip() == ""
    finally:
        srv.kill()
