"""Through a real `kg serve`: a key cut into parts with words around each (Twilio, Telegram, Discord, a Slack
webhook; npm in three parts or with a note between) is refused by kg_put_node, kg_put_edge and kg_progress naming
the fields, and one a hand edit left across two notes is withheld from agents, both notes."""

from __future__ import annotations

from e2e_helpers import Session, start_server
from mcp import Client
from test_git_sync import T, _user

# Assembled: no file holds a whole key.
TWILIO = ("first half SK72a2baefe2373d3", "second half " + "4e85af4e279cbb132")
TELEGRAM = ("first half 6458370709:AAe0zk3Yh02s", "second half " + "7LVX5cBu6-t7maTkumjLjBY")
DISCORD = ("first half MDWxscOax5UFRXmF82N6lYY5.V6am", "second half " + "D0.RlTA9gsmA20wBDanv-UGcXM_Ind")
HOOK = ("first half https://hooks.slack.com/services/T5KKI5", "second half " + "ZSL/BKFYE6VDVQ7/gED3jnfHylyadSnb9XOIARta")
NPM3 = ("part one npm_vXEwXyDG5", "part two B7pMg8vAWODZp", "part three " + "Ko3JxRm9AdrmjK")
NPM_BETWEEN = ("first half npm_vXEwXyDG5B7pMg8v", "(see below)", "second half " + "AWODZpKo3JxRm9AdrmjK")
MARK = "[withheld: holds what looks like"


async def test_keys_cut_with_words_around_each_part_are_refused_and_withheld_whatever_their_provider(tmp_path):
    user = _user("plain-lesson")
    user["nodes"]["docker-push-creds"] = {"id": "docker-push-creds", "gist": "pushing images", "_created_ts": T,
                                          "notes": ["kept first", *TWILIO]}
    srv = start_server(tmp_path, user=user)
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            shown = await s.ok("kg_read", id="docker-push-creds")
            assert "kept first" in shown and shown.count(f"{MARK} a Twilio key") == 2, shown
            assert "4e85af4e279cbb132" not in shown and "SK72a2baefe2373d3" not in shown
            for notes, fields, kind in ((TELEGRAM, "notes[0] joined to notes[1]", "a Telegram bot token"),
                                        (DISCORD, "notes[0] joined to notes[1]", "a Discord bot token"),
                                        (HOOK, "notes[0] joined to notes[1]", "a Slack webhook URL"),
                                        (NPM3, "notes[0] joined to notes[1] joined to notes[2]", "an npm token"),
                                        (NPM_BETWEEN, "notes[0] joined to notes[2]", "an npm token")):
                refused = await s.err("kg_put_node", level="user", id="split-creds", gist="the creds",
                                      notes=list(notes))
                assert f"NOT WRITTEN: {fields} holds what looks like {kind}" in refused, refused
                refused = await s.err("kg_put_edge", level="user", frm="plain-lesson", to="docker-push-creds",
                                      rel="uses", notes=list(notes))
                assert "NOT WRITTEN: notes[0] joined to notes[" in refused, refused
                refused = await s.err("kg_progress", level="user", task_id="rotate-keys", state={"items": list(notes)})
                assert "NOT WRITTEN: state.items[0] joined to state.items[" in refused, refused
            said = await s("kg_read", id="split-creds")
            assert "not found" in said[0].lower(), said
    finally:
        srv.stop()
