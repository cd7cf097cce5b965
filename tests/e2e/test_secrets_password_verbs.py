"""A password of digits said before a verb saying what it does ("password 84920174 runs out on Friday", "... maps
to the installer account") is refused by kg_put_node naming the note, where a verb that is also a noun (runs,
maps, stands, lines, requests) read as an identifier's word; one that names the number stays stored."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client

SAID = ("The guest Wi-Fi password 84920174 runs out on Friday",
        "The alarm panel password 84920174 maps to the installer account",
        "The router password 84920174 stands until IT rotates it",
        "The office wifi password 84920174 lines up with the sticker",
        "voicemail password 84920174 requests a reset after 90 days")


async def test_a_password_before_a_verb_saying_what_it_does_is_refused(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("verbs-proj"))
            for text in SAID:
                said = await s.err("kg_put_node", level="project", id="wifi-note", gist="office network",
                                   notes=["ask IT for the guest network", text])
                assert "NOT WRITTEN: notes[1] holds what looks like a password said in words" in said, said
                assert "84920174" not in said, said
            await s.ok("kg_put_node", level="project", id="password-tickets", gist="password reset bug",
                       notes=["password 482913 ticket was closed as dup", "password 401002 means locked",
                              "password 482913 runs were retried"])
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                assert b"84920174" not in path.read_bytes(), path
    finally:
        srv.kill()
