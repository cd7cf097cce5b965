"""A guess of a secret a hand edit left in a node is answered exactly as a wrong guess is: a search's count, its
top list and a prompt recall (reply and log) are the same for a right piece of the key as for a random one."""

from __future__ import annotations

from e2e_helpers import start_server
from hook_helpers import Harness, node, project_graph, recall_log

from kg_actors.testing import ServerProcess

# Assembled here so no file holds a whole one.
GHP = "ghp_" + "CCs76qEQfyVfeQmse0Ot" + "1VNdoQ283ivprMRb"
GHP2 = "ghp_" + "R7dLq2Vx9NwBz4KcYt1H" + "mPa8SgEu6Jf0XiOo"
AWS = "AKIA" + "Z2DXDXDWQ7PL4M3N"
RIGHT = (GHP[4:14], AWS[:8], GHP, f"scripts/{GHP2}.sh")


def _other(piece: str) -> str:
    """A wrong guess of the same shape (each letter or digit the next of its kind): a query of the same words."""
    if piece.startswith("scripts/"):
        return "scripts/" + _other(piece[8:-3]) + ".sh"
    keep = 4 if piece[:4] in ("ghp_", "AKIA") else 0
    step = {**{c: chr((ord(c) - base + 1) % n + base) for base, n in ((48, 10), (65, 26), (97, 26))
               for c in map(chr, range(base, base + n))}}
    return piece[:keep] + "".join(step.get(c, c) for c in piece[keep:])


WRONG = tuple(map(_other, RIGHT))


def _user() -> dict:
    nodes = [node("ci-token-in-gist", f"CI pushes with token {GHP} to the mirror"),
             node("keys-in-notes", "Cloud credentials live in the vault", notes=[f"aws id {AWS} for uploads"]),
             node("plain-neighbour", "Plain neighbour lesson about zebra caching", notes=["zebra"]),
             node("zebra-second", "Another zebra lesson on stripes"),
             node("key-in-touch", "The release script reads a key", touches=[f"scripts/{GHP2}.sh"])]
    graph = project_graph("", nodes)
    graph["_meta"] = {"versions": {}, "namespace": {"kind": "user", "owner": None}}
    return graph


def test_a_right_piece_of_a_withheld_key_is_answered_as_a_wrong_one_by_search_and_recall(tmp_path):
    srv: ServerProcess = start_server(tmp_path, user=_user())
    try:
        h = Harness(srv, str(srv.home))
        h.start()
        h.full_read()
        for right, wrong in zip(RIGHT, WRONG):
            for query in ("zebra {}", "{}"):
                said = [h.mcp("kg_search", query=query.format(p)).replace(p, "PIECE") for p in (right, wrong)]
                assert said[0] == said[1], said
        for right, wrong in zip(RIGHT, WRONG):
            replies, logged = [], []
            for piece in (right, wrong):
                before = len(recall_log(srv))
                said = h.prompt(f"zebra stripes {piece} mirror").context.replace(piece, "PIECE")
                # The reminders take turns: what the recall injected is the rest.
                replies.append([line for line in said.splitlines() if not line.startswith("KG: ")])
                records = recall_log(srv)[before:]  # the threshold goes by the prompt's own words: left out
                logged.append([{k: v for k, v in r.items() if k in ("reason", "hits")}
                               for r in records])
            assert replies[0] == replies[1], replies
            assert logged[0] == logged[1], logged
    finally:
        srv.stop()

