"""Through a real `kg serve`: a random key after a word naming it is refused however it is worded; names after a
provider's prefix with a version among their words and a password hash after "A password hash:" are stored; a
refusal names the note as sent after one that was all `<private>` (kg_put_node and kg_put_edge)."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client
from test_git_sync import _user

HEX = "790a87f079abd980c540c9fa7364f561" + "c8040ce988bd1809fcec6ea2a7dd04a6"
AZURE = "b7g+w4YxU14ErC6vojbPYUeRXlHA1BVHeOaG0XZVWsVrCD8C1Z1Pv9Xk" + "h3z3XQAS0e74hAhbIyD7ZNreQ1x2Yk8Rzw=="
GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"
ARGON = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$" + "RdescudvJCsgt3ub+b+dWRWJTmaaJObG"
STORED = ["See xoxb-scopes-guide-v3 in the wiki", "See glpat-expiry-30d-policy in the wiki",
          "See sk-ant-api03-format-notes in the wiki", f"A password hash: {ARGON}"]


async def test_wording_names_hashes_and_the_field_named_after_a_private_note(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            for text in (f"the webhook secret {HEX}", f"the webhook secret is {HEX}", f"the storage account key: {AZURE}",
                         f"token {HEX}"):
                refused = await s.err("kg_put_node", level="user", id="webhook-lesson", gist="webhooks", notes=[text])
                assert "NOT WRITTEN: notes[0] holds what looks like" in refused and HEX[8:20] not in refused, refused
            await s.ok("kg_put_node", level="user", id="names-and-hashes", gist="docs we read", notes=STORED)
            shown = await s.ok("kg_read", id="names-and-hashes")
            assert all(text in shown for text in STORED), shown
            notes = ["<private>internal hostname</private>", "plain note", f"push with {GHP}"]
            refused = await s.err("kg_put_node", level="user", id="push-lesson", gist="pushing", notes=notes)
            assert "NOT WRITTEN: notes[2] holds what looks like a GitHub token" in refused, refused
            refused = await s.err("kg_put_edge", level="user", frm="plain-lesson", to="names-and-hashes", rel="uses",
                                  notes=notes)
            assert "NOT WRITTEN: notes[2] holds what looks like a GitHub token" in refused, refused
    finally:
        srv.stop()
