"""A credential split across notes or a gist's lines where the seam cuts a word (`pass` then `word is …`) or falls
where a header wants its space (`Authorization: Basic` then its value) is refused by kg_put_node, naming the
fields, and nothing is stored; ordinary notes a seam falls between are stored."""

from __future__ import annotations

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server
from mcp import Client

PASSWORD = "jry8elH3" + "pGmEAM"  # random, assembled so no file holds it whole
BASIC = "ZGVwbG95Ondpa1Fl" + "bHNUcUxubkpFeTQ="
SLACK_TAIL = "TqNYcTyIW4Jy" + "fOB3BVeaeq56"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("seams"))
    yield server
    server.kill()


@pytest.mark.parametrize(("gist", "notes", "field"), [
    ("Staging", ["the staging admin pass", f"word is {PASSWORD}"], "notes[0] joined to notes[1]"),
    (f"the staging admin pass\nword is {PASSWORD}", None, "gist"),
    ("Deploy auth", ["Authorization: Basic", BASIC], "notes[0] joined to notes[1]"),
    ("Deploy auth", ["Authorization: Basic ZGVw", BASIC[4:]], "notes[0] joined to notes[1]"),
    ("Slack", ["first half: https://hooks.slack.com/services/TKQDIX", f"second half: YIT/BNW6KVKB7X2/{SLACK_TAIL}"],
     "notes[0] joined to notes[1]"),
])
async def test_a_credential_split_at_a_seam_is_refused(srv, gist, notes, field):
    async with Client(srv.url + "/") as client:
        s = await Session.open(client, cwd=srv.project("seams-proj"))
        text = await s.err("kg_put_node", level="project", id="split-credential", gist=gist,
                           **({"notes": notes} if notes else {}))
        assert f"NOT WRITTEN: {field} holds what looks like" in text, text
        assert PASSWORD not in text and BASIC[4:] not in text and SLACK_TAIL not in text, text
        await s.ok("kg_put_node", level="project", id="seam-plain-notes", gist="Default logins",
                   notes=["the default login is admin", "Change it on first login", "token=dev",
                          "Build2Run is the next step"])
    srv.logs_written()
    for path in srv.store.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            assert PASSWORD.encode() not in raw and BASIC[4:].encode() not in raw, path


UPDATED = "updated: checked again on 2024-06-01"


@pytest.mark.parametrize(("gist", "first"), [
    ("mysql -u root -p", "then type it at the prompt, never on the line"),
    ("set GITHUB_TOK", "EN in the workflow from secrets.GITHUB_TOKEN"),
])
async def test_a_stored_lesson_edited_to_add_a_routine_note_is_stored(srv, gist, first):
    # The edit was refused (a password on a command line; a credential) reading the gist glued to the new note.
    lesson = "edit-" + gist.split()[-1].lower().replace("-", "")
    async with Client(srv.url + "/") as client:
        s = await Session.open(client, cwd=srv.project("seams-edit"))
        await s.ok("kg_put_node", level="project", id=lesson, gist=gist, notes=[first])
        await s.ok("kg_put_node", level="project", id=lesson, gist=gist, notes=[first, UPDATED])
        stored = nodes_by_id(graph(srv, session_id=s.sid)["project"])[lesson]
        assert (stored["gist"], stored["notes"]) == (gist, [first, UPDATED]), stored
        # What the load's scan reads: not withheld after a reload from disk either.
        again = nodes_by_id(graph(srv, session_id=s.sid, reload=True)["project"])[lesson]
        assert again["notes"] == [first, UPDATED], again
