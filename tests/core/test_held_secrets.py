"""Stored entries holding a secret: found by entry, field and kind; another machine's such version left out."""

from kg_actors.core.held_secrets import held_in, keep_out
from kg_actors.core.merge import merge_graphs

GHP = "ghp_R7kQ2mX9vL4pZ8nW3tY6bC1dF5gH0jK2aS4e"


def _graph(nodes: dict, edges: dict | None = None, versions: dict | None = None) -> dict:
    return {"nodes": nodes, "edges": edges or {}, "_meta": {"versions": versions or {}}}


def test_each_entry_holding_a_secret_is_named_by_field_and_kind_never_shown():
    found = list(held_in(_graph(
        {"a": {"id": "a", "gist": "plain", "notes": ["fine", f"token {GHP}"]}, "b": {"id": "b", "gist": "ok"}},
        {"a->b:uses": {"from": "a", "to": "b", "rel": "uses", "notes": ["password=Kx9mQ2vLp4Za7"]}})))
    assert [(h.what, h.key, h.field) for h in found] == [("node", "a", "notes[1]"), ("edge", "a->b:uses", "notes[0]")]
    assert "GitHub" in found[0].kind and all(GHP not in h.said() for h in found)


def test_a_secret_holding_version_from_there_loses_to_ours_even_when_both_changed_it():
    base = _graph({"n": {"id": "n", "gist": "v1", "_written": {"ts": 1}}}, versions={"node:n": {"v": 1, "ts": 1}})
    ours = _graph({"n": {"id": "n", "gist": "v2 here", "_written": {"ts": 2}}}, versions={"node:n": {"v": 2, "ts": 2}})
    theirs = _graph({"n": {"id": "n", "gist": f"v2 there {GHP}", "_written": {"ts": 3}},
                     "new": {"id": "new", "gist": "new there", "notes": [GHP]}},
                    {"new->n:uses": {"from": "new", "to": "n", "rel": "uses"}},
                    versions={"node:n": {"v": 2, "ts": 3}, "node:new": {"v": 1, "ts": 3}})
    cleaned, held = keep_out(base, ours, theirs)
    assert sorted((h.key, h.field) for h in held) == [("n", "gist"), ("new", "notes[0]")]
    merged = merge_graphs(base, ours, cleaned, 10).merged
    assert merged["nodes"] == {"n": ours["nodes"]["n"]} and merged["edges"] == {}  # the new one's edge goes too
    assert merged["_meta"]["versions"] == {"node:n": {"v": 2, "ts": 2}}
    assert GHP not in repr(merged)


def test_a_version_from_there_without_a_secret_is_left_as_it_came():
    base = _graph({"n": {"id": "n", "gist": f"held here {GHP}"}})  # held here already: not theirs to answer for
    theirs = _graph({"n": {"id": "n", "gist": "fixed there"}})
    assert keep_out(base, base, theirs) == (theirs, [])
    assert keep_out(base, base, base) == (base, [])


def test_the_tool_named_for_a_fix_is_the_one_for_what_holds_the_secret():
    from kg_actors.core.held_secrets import Held, tools_for

    node, edge = Held("node", "n", "gist", "a GitHub token"), Held("edge", "a->b:uses", "notes[0]", "a password")
    assert tools_for([node, node]) == "kg_put_node"
    assert tools_for([edge]) == "kg_put_edge"
    assert tools_for([edge, node]) == "kg_put_node (a node) or kg_put_edge (an edge)"


def test_a_field_is_checked_as_a_load_reads_it_a_list_gist_a_lone_note_and_a_note_that_is_no_text():
    """What the scan finds nothing in is shown to agents unchecked (core/withheld.py): it must read the file
    as the load does, or a list gist the load joins into text would hide a secret from it."""
    from kg_actors.core.records import Node

    raw = {"a": {"id": "a", "gist": ["deploys use", GHP]}, "b": {"id": "b", "gist": "ok", "notes": f"token {GHP}"},
           "c": {"id": "c", "gist": "ok", "notes": [{"token": GHP}]}}
    found = list(held_in(_graph(raw)))
    assert [(h.key, h.field) for h in found] == [("a", "gist"), ("b", "notes[0]"), ("c", "notes[0]")]
    assert GHP in Node.from_json("a", raw["a"]).gist  # what the load serves: the reason it is checked so


def test_a_part_of_a_key_left_by_hand_with_words_around_it_is_held_as_a_write_would_refuse_it():
    found = list(held_in(_graph(
        {"a": {"id": "a", "gist": "deploy", "notes": ["plain", f"first half {GHP[:20]} of the bot's token"]},
         "b": {"id": "b", "gist": f"the rest: {GHP[4:30]}"}, "c": {"id": "c", "gist": "ghp_ is GitHub's prefix"}},
        {"a->b:uses": {"from": "a", "to": "b", "rel": "uses", "notes": [f"half {GHP[:22]} here"]}})))
    assert [(h.what, h.key, h.field, h.kind) for h in found] == [
        ("node", "a", "notes[1]", "part of a GitHub token"), ("edge", "a->b:uses", "notes[0]", "part of a GitHub token")]


def test_a_part_of_a_key_left_by_hand_in_a_touch_or_a_name_is_held_as_a_write_would_refuse_it():
    first, rest = GHP[:20], GHP[20:]
    found = list(held_in(_graph(
        {"a": {"id": "a", "gist": "deploy", "touches": ["src/app.py", f"cfg/{first}", f"cfg/{rest}"]},
         "b": {"id": "b", "gist": "plain", "touches": ["docs/ghp_tokens.md"]}},
        {f"src/{first}->src/{rest}:pairs-with": {"from": f"src/{first}", "to": f"src/{rest}", "rel": "pairs-with"},
         f"a->{first.lower()}-notes:uses": {"from": "a", "to": f"{first.lower()}-notes", "rel": "uses"}})))
    # The two touches read joined give the whole key, cut after its prefix by a path (`…/cfg/…`): named by both.
    assert [(h.what, h.field) for h in found] == [("node", "touches[1] joined to touches[2]"), ("edge", "from"),
                                                  ("edge", "to")]
    assert all(first not in h.said() and first.lower() not in h.said() for h in found), [h.said() for h in found]


def test_every_field_of_an_entry_holding_a_secret_is_named_not_only_the_first():
    aws, oai = "AKIA" + "Z2DXDXDWQ7PL4M3N", "sk-proj-" + "Qm3vL9xZ2pK7rT4wY8bN1cF6hJ0dS5gA"
    found = list(held_in(_graph(
        {"two": {"id": "two", "gist": "vault", "notes": [f"aws id {aws} for uploads", f"openai {oai}", "plain"],
                 "touches": [f"cfg/{GHP[:20]}"]}},
        {"a->b:uses": {"from": "a", "to": "b", "rel": "uses", "notes": ["fine", f"token {GHP}", f"id {aws}"]}})))
    assert [h.fields() for h in found] == [
        (("notes[0]", "an AWS access key id"), ("notes[1]", "an OpenAI API key"), ("touches[0]", "part of a GitHub token")),
        (("notes[1]", "a GitHub token"), ("notes[2]", "an AWS access key id"))]
    said = found[0].said()
    assert "notes[0] (holds an AWS access key id), notes[1] (holds an OpenAI API key)" in said, said
    assert aws not in said and oai not in said
    from kg_actors.core.held_secrets import Held
    assert Held(**found[0].to_json()) == found[0]  # as a child's scan hands it back


def test_a_key_cut_by_hyphens_with_one_after_the_prefix_or_an_aws_id_split_across_touches_is_held():
    cut = "-".join(GHP[i:i + 4] for i in range(4, len(GHP), 4))
    aws = "AKIA" + "Z2DXDXDWQ7PL4M3N"
    found = list(held_in(_graph(
        {"hyph": {"id": "hyph", "gist": f"ghp_-{cut}-"},
         "split": {"id": "split", "gist": "x", "touches": ["src/a.py", aws[:10], aws[10:]]},
         "fine": {"id": "fine", "gist": "-state-of-the-art-", "touches": ["src/AKIA_notes.md", "docs/x.md"]}})))
    assert [(h.key, h.fields()) for h in found] == [
        ("hyph", (("gist", "a GitHub token"),)),
        ("split", (("touches[1] joined to touches[2]", "an AWS access key id"),))]


def test_an_edge_whose_end_or_rel_holds_a_key_is_said_as_the_edge_then_which_part_holds_it():
    found = list(held_in(_graph({}, {
        f"plain-deploy-one->{GHP[:26]}:depends-on": {"from": "plain-deploy-one", "to": GHP[:26], "rel": "depends-on"},
        f"{GHP}->b:uses": {"from": GHP, "to": "b", "rel": "uses"},
        f"a->b:{GHP}": {"from": "a", "to": "b", "rel": GHP}})))
    assert [h.said() for h in found] == [
        "edge 'plain-deploy-one->ghp_… (26 characters):depends-on' (its to end holds part of a GitHub token)",
        "edge 'ghp_… (40 characters)->b:uses' (its from end holds a GitHub token)",
        "edge 'a->b:ghp_… (40 characters)' (its rel holds a GitHub token)"]
    node = next(held_in(_graph({GHP: {"id": GHP, "gist": "x"}})))
    assert node.said() == "node id 'ghp_… (40 characters)' (holds a GitHub token)"


def test_a_secret_holding_version_gives_way_to_the_newest_one_there_without_it_and_ours_still_merges_against_it():
    base = _graph({"n": {"id": "n", "gist": "v1"}}, versions={"node:n": {"v": 1, "ts": 1}})
    v2 = {"id": "n", "gist": "v1", "notes": ["cap at 30 s"], "touches": ["src/retry.py"], "_written": {"ts": 2}}
    theirs = _graph({"n": {**v2, "notes": ["cap at 30 s", f"CI uses {GHP}"], "_written": {"ts": 3}}},
                    versions={"node:n": {"v": 3, "ts": 3}})
    earlier = {("nodes", "n"): (v2, {"v": 2, "ts": 2}, "c2" * 20)}
    cleaned, held = keep_out(base, base, theirs, earlier)
    assert [(h.key, h.field, h.earlier) for h in held] == [("n", "notes[1]", "c2" * 20)]
    merged = merge_graphs(base, base, cleaned, 10).merged  # ours never moved: v2 is taken, not our v1
    assert merged["nodes"]["n"] == v2 and merged["_meta"]["versions"]["node:n"] == {"v": 2, "ts": 2}
    assert GHP not in repr(merged)
    # Without one there, ours stands as before.
    assert keep_out(base, base, theirs)[0]["nodes"]["n"] == base["nodes"]["n"]


AWS_ID = "AKIA" + "Z7QRT4XKLM2PW9BN"
AWS_SECRET = "Qm7vT2xPz9LkWb4Ns8Rc" + "Yh3Jd6Fg1AeUoK5tHi0M"


def test_a_secret_key_beside_its_key_id_in_another_field_is_held_a_kept_one_refused_and_not_carried_over():
    from kg_actors.core.held_secrets import kept_refusal, without_secrets

    found = list(held_in(_graph(
        {"elided": {"id": "elided", "gist": "deploy", "notes": ["key id AKIA…W9BN", AWS_SECRET]},
         "whole": {"id": "whole", "gist": f"second value {AWS_SECRET}", "notes": [f"first value {AWS_ID}"]},
         "alone": {"id": "alone", "gist": "no key id here", "notes": [AWS_SECRET]}},
        {"a->b:uses": {"from": "a", "to": "b", "rel": "uses", "notes": [f"key id {AWS_ID}", AWS_SECRET]}})))
    said = {h.key: h.fields() for h in found}
    assert said["elided"] == (("notes[1]", "an AWS secret access key (beside its key id)"),)
    assert said["whole"] == (("gist", "an AWS secret access key (beside its key id)"),
                             ("notes[0]", "an AWS access key id"))
    assert said["a->b:uses"] == (("notes[0]", "an AWS access key id"),
                                 ("notes[1]", "an AWS secret access key (beside its key id)"))
    assert "alone" not in said and all(AWS_SECRET not in h.said() for h in found)
    refusal = kept_refusal("node", {"notes": ("key id AKIA…W9BN", AWS_SECRET)})
    assert refusal is not None and "notes[1] of the stored node holds what looks like an AWS secret" in str(refusal)
    assert without_secrets(("key id AKIA…W9BN", AWS_SECRET, "plain")) == ("key id AKIA…W9BN", "plain")
