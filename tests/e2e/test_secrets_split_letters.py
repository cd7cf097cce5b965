"""A key of letters only (no digit in its random part) split across two notes is refused by kg_put_node naming
both, where its two pieces read as two words (`sk_live_QwEr` then `TyUiOpAs…`) and were stored; words cased as
prose and names have them (`OAuth`, `XMLHttpRequest`) stay stored."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client

LETTERS = "sk_live_" + "QwErTyUiOpAsDfGhJkLzXcVb"


async def test_a_letters_only_key_split_across_two_notes_is_refused(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("split-proj"))
            for at in (12, 16, 20):
                said = await s.err("kg_put_node", level="project", id="stripe-split", gist="A lesson.",
                                   notes=[LETTERS[:at], LETTERS[at:]])
                assert "NOT WRITTEN: notes[0] joined to notes[1] holds what looks like a Stripe key" in said, said
                assert LETTERS[20:] not in said, said
            await s.ok("kg_put_node", level="project", id="cased-words", gist="A lesson.",
                       notes=["OAuth", "XMLHttpRequest", "PostgreSQL", "macOS"])
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                assert LETTERS[12:].encode() not in path.read_bytes() and LETTERS[20:].encode() not in path.read_bytes()
    finally:
        srv.kill()
