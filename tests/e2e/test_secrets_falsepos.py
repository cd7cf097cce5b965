"""Through a real `kg serve`: ordinary lessons an outside audit saw refused are stored as written and read back
verbatim, while the credentials beside them stay refused, naming the field (kg_put_node)."""

from __future__ import annotations

from e2e_helpers import Session, graph, nodes_by_id, start_server
from mcp import Client
from test_git_sync import _user

UUID = "0dae3f5e-7a1c-4c8e-9b2d-5f6a7b8c9d0e"
SHA = "c7b26dace1c9a7a01e37f0fb8c4b7324af569f202fe507e68348d162e2efb82d"
DATA_KEYS = [f"the message key {UUID} always lands on partition 7", f"range key {UUID} for the newest item",
             f"progress token {UUID} in _meta", f"encryption key version: v7 (KMS key {UUID})",
             f"client_token: {UUID}", f"the dedupe key {SHA} (sha256 of the payload)",
             "ContinuationToken: 1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=",
             "nextPageToken: eyJsYXN0X2lkIjoxMDQyLCJkaXIiOiJhc2MifQ==",
             "next page token: eyJsYXN0X2lkIjoxMDQyLCJkaXIiOiJhc2MifQ=="]


async def _stored(s: Session, node_id: str, notes: list[str]) -> None:
    await s.ok("kg_put_node", level="user", id=node_id, gist="A lesson.", notes=notes)
    shown = await s.ok("kg_read", id=node_id)
    assert all(note in shown for note in notes), shown


async def test_data_keys_named_by_their_kind_are_stored_and_api_keys_refused(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await _stored(s, "data-keys", DATA_KEYS)
            refused = await s.err("kg_put_node", level="user", id="heroku-lesson", gist="deploys",
                                  notes=["plain note", f"heroku api key {UUID}"])
            assert "NOT WRITTEN: notes[1] holds what looks like" in refused and UUID[8:20] not in refused, refused
    finally:
        srv.stop()


PLACES = ["secrets.AWS_DEPLOY_ROLE_ARN", "role-to-assume: ${{ secrets.AWS_DEPLOY_ROLE_ARN }}",
          "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-AbC1dE"]
RANDOM = "Ffq7JCafB4YXwtw2hJYN" + "ey79DslFLmhIAUDcKSo2"


async def test_where_a_secret_lives_is_stored_and_a_secret_beside_it_refused(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await _stored(s, "secret-places", PLACES)
            refused = await s.err("kg_put_node", level="user", id="place-and-value", gist="deploys",
                                  notes=["secrets.DEPLOY_KEY", f"secret {RANDOM}"])
            assert "NOT WRITTEN: notes[1] holds what looks like" in refused and RANDOM[4:16] not in refused, refused
    finally:
        srv.stop()


DOTNET = "OrderFulfillmentServices.Orders.ReserveInventoryForOrderAsync"


async def test_a_gpg_key_id_and_a_dotted_name_in_code_are_stored(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await _stored(s, "gpg-key-id", ["signing key: 3AA5C34371567BD2", f"at {DOTNET}(Guid orderId)"])
            gist = f"The order pipeline throws in {DOTNET} when stock is negative."
            await s.ok("kg_put_node", level="user", id="dotnet-frame", gist=gist, notes=["fixed by clamping"])
            assert DOTNET in await s.ok("kg_read", id="dotnet-frame")
            refused = await s.err("kg_put_node", level="user", id="signing-lesson", gist="signing",
                                  notes=["signing key: 790a87f079abd980c540c9fa7364f561"])
            assert "NOT WRITTEN: notes[0] holds what looks like" in refused and "79abd980" not in refused, refused
    finally:
        srv.stop()


ENV_EXAMPLE = ["SLACK_BOT_TOKEN=xoxb-your-bot-token", "GITHUB_TOKEN=ghp_your_token_here",
               "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", "JWT_SECRET=changeme"]
GHP = "ghp_" + "sXFHubMECQ9xj0OTN27ZhvtbVI4L4g0AhWG0"


async def test_placeholder_lines_in_a_row_are_stored_and_a_key_cut_across_notes_refused(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await _stored(s, "env-example", ENV_EXAMPLE)
            await _stored(s, "gitlab-prefixes", ["glpat- personal access tokens expire after 365 days max",
                                                 "glrt- runner authentication tokens replace registration tokens"])
            refused = await s.err("kg_put_node", level="user", id="cut-lesson", gist="pushing",
                                  notes=["push with " + GHP[:20], GHP[20:] + " then"])
            assert "NOT WRITTEN: notes[0] joined to notes[1] holds what looks like" in refused, refused
            assert GHP[8:20] not in refused, refused
    finally:
        srv.stop()


# An outside secrets audit saw each refused (a multi-line gist's or note's seams, one sentence naming two prefixes,
# a file given to a password-named key, a page token in prose); each beside its secret is refused still.
LESSONS = ["STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nSTRIPE_WEBHOOK_SECRET=whsec_xxxxxxxxxxxxxxxx\n"
           "DATABASE_URL=postgres://user:pass@localhost:5432/db",
           "SLACK_BOT_TOKEN=xoxb-your-bot-token\nGITHUB_TOKEN=ghp_your_token_here",
           "GitLab personal access tokens start with glpat- and runner tokens with glrt-",
           "kubectl create secret generic db-creds --from-file=password=./pw.txt",
           "Pagination: pass next_page_token=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 from the previous response",
           "pass pageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 to continue"]


async def test_an_env_example_pasted_whole_and_lessons_of_prefixes_files_and_pages_are_stored(tmp_path):
    srv = start_server(tmp_path, user=_user("plain-lesson"))
    try:
        async with Client(srv.url + "/") as c:
            s = await Session.open(c)
            await s.ok("kg_put_node", level="user", id="pasted-lessons", gist="A lesson.", notes=LESSONS)
            assert nodes_by_id(graph(srv, session_id=s.sid)["user"])["pasted-lessons"]["notes"] == LESSONS
            assert "withheld" not in await s.ok("kg_read", id="pasted-lessons")
            for i, gist in enumerate(LESSONS[2:]):
                await s.ok("kg_put_node", level="user", id=f"lesson-gist-{i}", gist=gist)
            refused = await s.err("kg_put_node", level="user", id="literal-lesson", gist="creating the secret",
                                  notes=["kubectl create secret generic db-creds --from-literal=password=Xk9mQ2vLp4ZaTr0b"])
            assert "NOT WRITTEN: notes[0] holds what looks like" in refused, refused
    finally:
        srv.stop()
