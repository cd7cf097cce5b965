"""A password said in words right after the word ("Wi-Fi password 84920174 for the office") or given to a key glued
onto an ARN is refused by kg_put_node naming the field; the lessons about passwords beside them are stored."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client

GLUED = "7wtYG3uv" + "2xr77jRY"


async def test_a_password_said_after_its_word_or_glued_onto_an_arn_is_refused(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("said-proj"))
            for gist in ("Wi-Fi password 84920174 for the office", f"arn:aws:s3:::acme-backups/DB_PASSWORD={GLUED}"):
                text = await s.err("kg_put_node", level="project", id="office-wifi", gist=gist)
                assert "NOT WRITTEN: gist holds what looks like" in text and "84920174" not in text, text
                assert GLUED not in text, text
            await s.ok("kg_put_node", level="project", id="password-rules", gist="the password is at least 12 characters",
                       notes=["password 100000 iterations of PBKDF2 are the floor",
                              "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-AbC1dE"])
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                raw = path.read_bytes()
                assert b"84920174" not in raw and GLUED.encode() not in raw, path
    finally:
        srv.kill()
