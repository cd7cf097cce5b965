"""Through a real `kg serve`: a key cut once right after its provider's written prefix (`SG. <body>`) and a Square,
Airtable or Asana token are refused by kg_put_node naming the field and the provider, and one a hand edit left in
a graph file is withheld from agents; prose after such a prefix is stored as written."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client
from test_git_sync import T, _user

# Assembled: no file holds a whole key.
SG_CUT = "SG. " + "IR6jn2h0C_JEQFkMDtOCao." + "UFIUdFpiH718ikj049nbgA9-d43glJ0oGCg38N-RppN"
DO_CUT = "dop_v1_ " + "9e5a4b21d6f0079d44e655c39cad9e0a" + "50566356a1e76354ccfb4c5177c531cb"
SQUARE = "EAAAuSxa9HKXQBpG4VkcnAoje8Aekpv2" + "lhByVTAxl-qcOZS8WaGyhARAx5lihs0G"
AIRTABLE = "pat7Gw1i184CaSDjY." + "54a8084b23af743e907921cf70d2b633079aa44ab3bb51744d7717643a97f8"
ASANA = "2/2180953047188716/0233069090647138:" + "32a7c6c1672a19e515b873c2f53d6c80"
PROSE = "SG. Then the relay sends it; dop_v1_ tokens are personal; EAAA starts a Square token"


async def test_keys_cut_after_their_prefix_and_square_airtable_asana_tokens_are_refused_and_withheld(tmp_path):
    user = _user("plain-lesson")
    user["nodes"]["square-checkout"] = {"id": "square-checkout", "gist": "checkout calls Square",
                                        "notes": [f"with {SQUARE}"], "_created_ts": T}
    srv = start_server(tmp_path, user=user)
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            shown = await s.ok("kg_read", id="square-checkout")
            assert "[withheld: holds what looks like a Square access token" in shown and SQUARE[:12] not in shown, shown
            for text, kind in ((f"the key is {SG_CUT} in prod", "a SendGrid key"),
                               (f"the key is {DO_CUT} in prod", "a DigitalOcean token"),
                               (f"checkout calls Square with {SQUARE}", "a Square access token"),
                               (f"Airtable PAT {AIRTABLE}", "an Airtable token"), (f"Asana PAT {ASANA}", "an Asana token")):
                refused = await s.err("kg_put_node", level="user", id="api-keys-lesson", gist="the api keys",
                                      notes=["ordinary note", text])
                assert f"NOT WRITTEN: notes[1] holds what looks like {kind}" in refused, refused
                assert not any(w[4:14] in refused for w in text.split() if len(w) > 24), refused
            await s.ok("kg_put_node", level="user", id="api-keys-lesson", gist="key prefixes", notes=[PROSE])
            assert PROSE in await s.ok("kg_read", id="api-keys-lesson")
    finally:
        srv.stop()
