"""A key written as its hex bytes one by one (`73:6b:5f…`, `73 6b 5f…`, `b'\\x73\\x6b…'`, `0x73,0x6b…`) or in
groups split by tabs or runs of spaces is refused by kg_put_node naming the note, and one a hand edit put in the
store is withheld from agents; dumps of no key (a digest with colons, MACs, a UUID) stay stored."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client

KEY = "sk_live_51Hb8kLm" + "Q2vX9pZ7rT4nW6yE"
PAIRS = [KEY.encode().hex()[i:i + 2] for i in range(0, 2 * len(KEY), 2)]
GROUPS = [KEY[i:i + 4] for i in range(0, len(KEY), 4)]
WRITTEN = (":".join(PAIRS), " ".join(PAIRS), "b'" + "".join("\\x" + p for p in PAIRS) + "'",
           ",".join("0x" + p for p in PAIRS), "\t".join(GROUPS), "  ".join(GROUPS))
T = 1_700_000_000.0


def _no_key(text: str) -> None:
    assert all(p not in text for p in (KEY, KEY[8:], ":".join(PAIRS[8:]), " ".join(PAIRS[8:]), GROUPS[4])), text


async def test_a_keys_hex_bytes_or_groups_split_by_blanks_are_refused(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("hex-proj"))
            for note in WRITTEN:
                said = await s.err("kg_put_node", level="project", id="stripe-enc", gist="Stripe key as shown",
                                   notes=["the debugger showed it so", note])
                assert "NOT WRITTEN: notes[1] holds what looks like" in said and "Stripe key" in said, said
                _no_key(said)
            digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            await s.ok("kg_put_node", level="project", id="hex-dumps", gist="dumps that hold no key",
                       notes=["cert sha256 " + ":".join(digest[i:i + 2] for i in range(0, 64, 2)),
                              "macs 00:1a:2b:3c:4d:5e aa:bb:cc:dd:ee:ff", "id 123e4567-e89b-12d3-a456-426614174000",
                              " ".join(f"{b:02x}" for b in b"hello world, this is plain text!")])
        srv.logs_written()
        for path in srv.store.rglob("*"):
            if path.is_file():
                _no_key(path.read_bytes().decode("utf-8", "replace"))
    finally:
        srv.kill()


def _store() -> dict:
    return {"nodes": {
        "hand-hex": {"id": "hand-hex", "gist": "the debugger's dump", "notes": ["bytes:", ":".join(PAIRS)],
                     "_created_ts": T},
        "hand-tabs": {"id": "hand-tabs", "gist": "the key as the PDF gave it", "notes": ["\t".join(GROUPS)],
                      "_created_ts": T}},
        "edges": {}, "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}


async def test_a_stored_keys_hex_bytes_or_tab_groups_are_withheld(tmp_path):
    srv = start_server(tmp_path, user=_store())
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client)
            for node_id in ("hand-hex", "hand-tabs"):
                shown = await s.ok("kg_read", id=node_id)
                assert "[withheld: holds what looks like" in shown, shown
                _no_key(shown)
    finally:
        srv.kill()
