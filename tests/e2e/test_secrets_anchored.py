"""A key cut apart after its provider's prefix by spaces, underscores, dots or slashes: a lesson an older kg stored
with one is withheld from agents at load, and kg_put_node refuses a new one naming the field and the provider;
prose after a prefix ("ghp_ tokens are rotated", "AKIA ids start every key") is shown and stored as written.

A real `kg serve` on a store seeded as an older kg left it, real hook scripts, MCP tools over HTTP."""

from __future__ import annotations

import json
import re

import pytest
from e2e_helpers import Session, graph, nodes_by_id, start_server, store_files
from hook_helpers import Harness, node, project_graph
from mcp import Client

from kg_actors.testing import ServerProcess

# Assembled: no file holds a whole key.
DEPLOY = "The deploy token is " + "ghp_iK2Z" + " WeqhFWCE PyYngFb5 1yBMWXaS " + "CrUZoL8g here."
AWS = "use " + "AKIA" + " JNRF BWVH IYCV " + "OZNR" + " for deploys"
STRIPE = "sk_live_" + "_".join(("Q7fT", "b2Lm", "X9cD", "k4Rw", "P8nZ", "s3Hv"))
OPENAI = "sk-proj-" + ".".join(("D3Hy", "P3MR", "Jg8N", "ZGrB", "OUTp", "7tBq", "HtJv", "aYAL"))
PROSE = "ghp_ tokens are rotated every ninety days by the platform team; AKIA ids start every key"
NOTES = ["sk-learn pipelines use v2 ColumnTransformer api docs here", "Deploy to ASIA PACIFIC NORTHEAST first"]
MARK = "[withheld: holds what looks like"


def _server(tmp_path) -> tuple[ServerProcess, str]:
    root = ServerProcess(tmp_path).project("cut-keys-proj")
    older = project_graph(root, [node("deploy-token", DEPLOY), node("aws-key", "the deploy key", notes=["ok", AWS]),
                                 node("stripe-key", "billing", notes=[STRIPE], touches=["cfg/" + OPENAI]),
                                 node("key-prefixes", PROSE, notes=NOTES)])
    return start_server(tmp_path, projects={"cut-keys-proj": older}), root


def test_an_older_kgs_cut_keys_are_withheld_new_ones_refused_and_prose_after_a_prefix_kept(tmp_path):
    srv, root = _server(tmp_path)
    try:
        h = Harness(srv, root)
        assert h.start().context and h.kg_sid
        for node_id, kind in (("deploy-token", "a GitHub token"), ("aws-key", "an AWS access key id"),
                              ("stripe-key", "a Stripe key")):
            held = h.mcp("kg_read", id=node_id, level="project")
            assert f"{MARK} {kind}" in held, held
            assert "WeqhFWCE" not in held and "BWVH" not in held and "b2Lm" not in held, held
        shown = h.mcp("kg_read", id="key-prefixes", level="project")
        assert PROSE in shown and all(note in shown for note in NOTES) and MARK not in shown, shown
        # Written now: each cut key refused naming its field and provider; the prose stored as written.
        for field, value, kind in (("gist", DEPLOY, "a GitHub token"), ("notes[1]", ["ok", AWS], "an AWS access key id"),
                                   ("notes[0]", [STRIPE], "a Stripe key"),
                                   ("touches[0]", ["cfg/" + OPENAI], "an OpenAI API key")):
            args = {"gist": value} if field == "gist" else {"gist": "deploy keys",
                                                             field.split("[")[0]: value}
            with pytest.raises(AssertionError, match=rf"NOT WRITTEN: {field.replace('[', '.').replace(']', '.')} "
                                                     rf"holds what looks like {kind}"):
                h.mcp("kg_put_node", level="project", id="cut-again", **args)
        said = h.mcp("kg_put_node", level="project", id="prefix-prose", gist=PROSE, notes=NOTES)
        assert "NOT WRITTEN" not in said, said
    finally:
        srv.stop()
    stored = json.loads((srv.store / "projects" / "cut-keys-proj" / "graph.json").read_text())["nodes"]
    assert stored["prefix-prose"]["gist"] == PROSE and stored["prefix-prose"]["notes"] == NOTES
    assert "cut-again" not in stored
    assert stored["deploy-token"]["gist"] == DEPLOY  # the user's file is kept as written: only agents are spared


# A placeholder key ending a note or a line, words after it: read glued across the seam for a key split there.
PLACEHOLDER_NOTES = [["STRIPE_KEY=sk_test_YOUR_KEY_HERE", "then restart the worker"],
                     ["Set in .env:\nSTRIPE_KEY=sk_test_YOUR_KEY_HERE\nthen restart the worker"],
                     ["sk_test_YOUR_KEY_HERE", "sk_live_YOUR_KEY_HERE"]]


async def test_a_placeholder_key_before_a_note_or_line_of_words_is_stored_as_written(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("placeholder-proj"))
            for i, notes in enumerate(PLACEHOLDER_NOTES):
                said = await s.ok("kg_put_node", level="project", id=f"stripe-setup-{i}", gist="Stripe setup",
                                  notes=notes)
                assert "NOT WRITTEN" not in said and "saved" in said, said
                shown = await s.ok("kg_read", id=f"stripe-setup-{i}", level="project")
                assert "sk_test_YOUR_KEY_HERE" in shown and "withheld" not in shown, shown
            stored = nodes_by_id(graph(srv, s.sid)["project"])
        assert [stored[f"stripe-setup-{i}"]["notes"] for i in range(len(PLACEHOLDER_NOTES))] == PLACEHOLDER_NOTES
    finally:
        srv.stop()


# Keys cut apart, a sentence going on after each: its words are the sentence's, not the key's (the join read on
# into them, and a key ending in "here" or "example" was taken for a placeholder and stored).
CUT_KEYS = {  # assembled: no file holds a whole key
    "ghp_" + " ".join(("TBwx", "oHge", "Jckv", "srte", "xIAX", "FHJK", "zaJE", "0QHP", "GMwg")): "a GitHub token",
    "sk_live_" + " ".join(("I5vyQxon", "geF9Tpzs", "mpzp3L5D")): "a Stripe key",
    "sk-proj-" + ".".join(("xXqA", "IFDK", "RFAG", "A9GM", "yace", "wM1H", "w8of", "sYPd", "voqe", "tzUB", "VPNE",
                           "4TTf")): "an OpenAI API key",
    "sk-" + " ".join(("KQupAYvg", "jZqlGKlq", "jWKRQ8eq", "pXpWbXO5", "OJjlpfhB", "uxpiiYyY")): "an OpenAI API key",
    "gsk_" + "_".join(("rw5N", "PRV9", "I2L9", "hbaw", "bYiX", "0Jtf", "hvjV", "jsDs", "vWie", "thsA", "uQgM", "ISvi",
                       "JXZF")): "a Groq API key",
    "hf_" + " ".join(("dyPT6Q", "pBmItB", "coE3hb", "Zu3AdQ", "pxckPb", "6dry")): "a Hugging Face token",
}
SENTENCES = ["paste {} here", "{} goes here", "one looks like {} for example", "use {}, e.g. in CI",
             "the CI value {} is set here."]
# What is no key, cut as keys are, with the same words after it: stored as written.
PLACEHOLDERS = ["paste ghp_xxxx xxxx xxxx xxxx xxxx xxxx xxxx xxxx xxxx here", "sk_test_xxxx xxxx xxxx xxxx goes here",
                "<your token here>", "sk-your-key-here", "ghp_your_token_here for example"]


OLDER = "ghp_" + " ".join(("DStx", "xHsl", "fShS", "A0Bd", "VusQ", "ocXg", "csYf", "oLHS", "7EoR"))


def _pieces(key: str) -> list[str]:
    """Two pieces of a key's body beside each other, as cut and joined: what no reply or file may hold."""
    second, third = re.split(r"[ ._]", key[key.index(next(c for c in key if c.isupper() or c.isdigit())):])[1:3]
    cut = key[key.index(second):key.index(third) + len(third)]
    return [cut, second + third]


async def test_a_cut_key_a_sentence_goes_on_after_is_refused_withheld_and_nowhere_on_disk(tmp_path):
    root = ServerProcess(tmp_path).project("cut-key-prose-proj")
    older = project_graph(root, [node("older-ci-token", "CI token", notes=[f"paste {OLDER} here"])])
    srv = start_server(tmp_path, projects={"cut-key-prose-proj": older})
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=root)
            held = await s.ok("kg_read", id="older-ci-token", level="project")
            assert f"{MARK} a GitHub token" in held and not any(p in held for p in _pieces(OLDER)), held
            await s.ok("kg_put_node", level="project", id="ci-token-rotation", gist="The CI token is rotated monthly")
            before = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
            for key, kind in CUT_KEYS.items():
                for i, sentence in enumerate(SENTENCES):
                    refused = await s.err("kg_put_node", level="project", id=f"ci-token-{i}", gist="CI token",
                                          notes=["rotate it monthly", sentence.format(key)])
                    assert refused.startswith(f"Error: NOT WRITTEN: notes[1] holds what looks like {kind} ("), refused
                    assert not any(piece in refused for piece in _pieces(key)), refused
            after = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
            assert after == before  # nothing stored, the journal untouched
            for i, note in enumerate(PLACEHOLDERS):
                said = await s.ok("kg_put_node", level="project", id=f"token-placeholder-{i}", gist="CI token",
                                  notes=[note])
                assert "saved" in said, said
            stored = nodes_by_id(graph(srv, s.sid)["project"])
        srv.logs_written()
    finally:
        srv.stop()
    assert not any(f"ci-token-{i}" in stored for i in range(len(SENTENCES)))
    assert [stored[f"token-placeholder-{i}"]["notes"] for i in range(len(PLACEHOLDERS))] == [[n] for n in PLACEHOLDERS]
    for path in [*srv.store.rglob("*"), srv.log]:
        data = path.read_bytes() if path.is_file() else b""
        for key in CUT_KEYS:
            assert not any(piece.encode() in data for piece in _pieces(key)), f"{path} holds a piece of {key[:4]}"


# A key cut from its prefix alone, one piece after it: (prefix, cut, body, kind).
FROM_PREFIX = [("ghp_", " ", "".join(("TBwx", "oHge", "Jckv", "srte", "xIAX", "FHJK", "zaJE", "0QHP", "GMwg")),
                "a GitHub token"),
               ("AKIA", " ", "".join(("JNRF", "BWVH", "IYCV", "OZNR")), "an AWS access key id"),
               ("sk_live_", "/", "".join(("I5vyQxon", "geF9Tpzs", "mpzp3L5D")), "a Stripe key")]


async def test_a_key_cut_from_its_prefix_alone_is_refused_and_nothing_of_it_stored(tmp_path):
    srv = start_server(tmp_path)
    try:
        async with Client(srv.url + "/") as client:
            s = await Session.open(client, cwd=srv.project("from-prefix-proj"))
            await s.ok("kg_put_node", level="project", id="deploy-keys", gist="Deploy keys live in the vault")
            before = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
            for prefix, cut, body, kind in FROM_PREFIX:
                for note in (f"the deploy uses {prefix}{cut}{body}", f"paste {prefix}{cut}{body} here"):
                    refused = await s.err("kg_put_node", level="project", id="deploy-key", gist="deploy key",
                                          notes=[note])
                    assert refused.startswith(f"Error: NOT WRITTEN: notes[0] holds what looks like {kind} ("), refused
                    assert body[4:] not in refused, refused
            after = {k: v for k, v in store_files(srv.store).items() if not k.endswith((".jsonl", ".log"))}
            assert after == before  # nothing stored, the journal untouched
    finally:
        srv.stop()
    for path in [*srv.store.rglob("*"), srv.log]:
        data = path.read_bytes() if path.is_file() else b""
        assert not any(body[4:].encode() in data for _, _, body, _ in FROM_PREFIX), path
