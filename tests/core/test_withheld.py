"""What an agent is shown of a field holding a secret a hand edit left (core/withheld.py): the marker."""

from __future__ import annotations

import attrs

from kg_actors.core.records import Edge, Node
from kg_actors.core.withheld import Mask, marker, node_shown, withheld_fields

GHP = "ghp_" + "R7kQ" * 9
ANT = "sk-ant-" + "api03-" + "Xk3v9QmZ2aB7qLp0Wn4T" * 4


def test_each_field_holding_a_secret_is_a_marker_naming_its_kind_and_the_rest_shows_as_stored():
    node = Node("deploy-lesson", f"deploys use {GHP}", notes=("run from the root", f"key {ANT}"),
                touches=("scripts/deploy.sh",))
    shown = Mask().node(node)
    assert shown.gist == marker("a GitHub token") == ("[withheld: holds what looks like a GitHub token; "
                                                      "edit it in kg's editor]")
    assert shown.notes == ("run from the root", marker("an Anthropic API key"))
    assert shown.touches == ("scripts/deploy.sh",) and shown.id == node.id
    assert GHP not in repr(shown) and ANT not in repr(shown)


def test_a_node_without_a_secret_is_shown_as_it_is_and_the_decision_names_no_field():
    node = Node("plain", "an ordinary lesson", notes=("a note",), touches=("src/a.py",))
    assert Mask().node(node) is node and Mask().gist(node) == "an ordinary lesson"
    assert node_shown(node) is None and withheld_fields([("gist", "token rotation happens monthly")]) == {}


def test_an_edge_note_holding_a_secret_is_a_marker():
    edge = Edge("a", "b", "uses", (f"the key {ANT}", "plain context"))
    assert Mask().edge(edge).notes == (marker("an Anthropic API key"), "plain context")
    plain = Edge("a", "b", "uses", ("plain",))
    assert Mask().edge(plain) is plain


def test_before_a_scan_the_node_is_checked_when_shown_and_a_scan_marks_only_what_it_found_clean():
    held = Node("held", f"uses {GHP}")
    clean = Node("clean", "an ordinary lesson")
    mask = Mask()
    assert mask.gist(held) == marker("a GitHub token")  # no scan yet: checked as it is shown
    mask = Mask()
    mask.scanned({"held": held, "clean": clean}, {}, [("node", "held")])
    assert mask.gist(held) == marker("a GitHub token") and mask.node(clean) is clean


def test_an_entry_holds_only_for_the_text_checked_a_changed_text_is_checked_again():
    mask = Mask()
    before = Node("lesson", "an ordinary lesson")
    mask.scanned({"lesson": before}, {}, [])
    after = attrs.evolve(before, notes=(f"token {GHP}",))  # a text no scan saw (a reload, a merge)
    assert mask.node(after).notes == (marker("a GitHub token"),)
    stamped = attrs.evolve(after, last_read_ts=5.0)  # a new version, the same text: the answer holds
    assert mask.node(stamped).notes == (marker("a GitHub token"),) and mask.node(stamped).last_read_ts == 5.0


def test_a_node_written_through_kg_is_marked_clean_and_shown_as_written():
    mask = Mask()
    old = Node("lesson", f"uses {GHP}")
    assert mask.gist(old) != old.gist
    new = Node("lesson", "uses the vault")
    mask.clean(new)
    assert mask.node(new) is new


def test_a_scan_answers_for_the_text_it_saw_an_edge_too_and_what_changed_since_is_checked():
    edge = Edge("a", "b", "uses", (f"the key {ANT}",))
    lesson = Node("lesson", "an ordinary lesson")
    mask = Mask()
    mask.scanned({"lesson": lesson}, {edge.key: edge}, [("edge", "a->b:uses")])
    assert mask.edge(edge).notes == (marker("an Anthropic API key"),)  # the scan named it: shown as a marker
    assert mask.node(lesson) is lesson
    changed = attrs.evolve(lesson, gist=f"an ordinary lesson {GHP}")  # not the text the scan saw
    assert mask.gist(changed) == marker("a GitHub token")


def test_a_part_of_a_key_with_words_around_it_in_a_note_or_a_touch_is_a_marker():
    token = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
    node = Node("n", "deploy", notes=("plain", f"first half {token[:20]} of it"),
                touches=("src/app.py", f"cfg/{token[:20]}", f"cfg/{token[20:]}"))
    shown = node_shown(node)
    assert shown is not None and token[:20] not in repr(shown), shown
    assert shown["notes"][0] == "plain" and shown["touches"][0] == "src/app.py"
    assert node_shown(Node("m", "GitHub prefixes", notes=("ghp_ is the classic prefix",),
                           touches=("docs/ghp_tokens.md",))) is None


def test_a_key_cut_by_hyphens_with_one_after_the_prefix_or_an_aws_id_split_across_touches_is_a_marker():
    token = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
    cut = "-".join(token[i:i + 4] for i in range(4, len(token), 4))
    assert node_shown(Node("h", f"ghp_-{cut}-")) == {"gist": marker("a GitHub token")}
    aws = "AKIA" + "Z2DXDXDWQ7PL4M3N"
    shown = node_shown(Node("s", "x", touches=("src/a.py", aws[:10], aws[10:])))
    assert shown == {"touches": ("src/a.py", marker("an AWS access key id"), marker("an AWS access key id"))}


def test_a_node_known_to_hold_a_secret_is_filed_by_what_agents_are_shown_and_refiled_when_it_changes():
    from kg_actors.core.search import SearchIndex, node_postings

    held = Node("held", "zebra deployment checklist", notes=(f"key {GHP} wombatword", "plain rollback"))
    plain = Node("plain", "zebra deployment uses blue green")
    mask, index = Mask(), SearchIndex()
    assert mask.visible(held) is None and mask.visible(plain) is None  # known to none yet: nothing checked
    index.update_node(held)
    index.update_node(plain)
    assert index.df("wombatword") == 1
    mask.scanned({"held": held, "plain": plain}, {}, [("node", "held")])
    assert mask.held_ids() == {"held"} and mask.visible(plain) is None
    index.update_node(held, mask.visible(held))
    assert index.df("wombatword") == 0 and index.df("rollback") == 1 and index.df("zebra") == 2
    index.update_node(attrs.evolve(held, last_read_ts=5.0))  # a read stamp: filed as it was
    assert index.df("wombatword") == 0
    fixed = attrs.evolve(held, notes=("plain rollback",))
    mask.clean(fixed)  # the user's fix, written through kg
    index.update_node(fixed, mask.visible(fixed))
    assert mask.visible(fixed) is None and dict(index.postings.numbered("rollback"))
    index.remove_node("held")
    assert index.df("rollback") == 0 and index.df("zebra") == 1
    assert set(node_postings(plain)) <= set(index.postings)


def test_a_short_word_beside_a_note_holding_a_whole_key_is_shown_and_matches_what_the_scan_names():
    from kg_actors.core.held_secrets import in_node

    whole = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
    nodes = [Node("a", "capybara", notes=(f"the key {whole} narwhalword",)),
             Node("b", "capybara", notes=(f"old token was {whole} (revoked)",)),
             Node("c", "capybara lesson here", notes=("plain", f"the key {whole} narwhalword")),
             Node("d", "capybara", notes=(f"the key {whole}", "plain", "ok"))]
    for node in nodes:
        shown = node_shown(node)
        assert shown is not None and "gist" not in shown, (node.id, shown)
        assert [n == marker("a GitHub token") for n in shown["notes"]] == [whole in n for n in node.notes], shown
        scan = in_node(node.id, {"gist": node.gist, "notes": list(node.notes)})
        assert scan is not None and [f for f, _ in scan.fields()] == [
            f"notes[{i}]" for i, n in enumerate(node.notes) if whole in n], scan
    # A key split across two notes beside one holding a key whole: each part still withheld and named.
    split = Node("e", "capybara", notes=(f"the key {whole}", whole[:20], whole[20:]))
    shown = node_shown(split)
    assert shown is not None and "gist" not in shown and all(n == marker("a GitHub token") for n in shown["notes"])
    scan = in_node("e", {"gist": split.gist, "notes": list(split.notes)})
    assert scan is not None and [f for f, _ in scan.fields()] == ["notes[0]", "notes[1] joined to notes[2]"], scan


def test_a_field_holding_a_markers_text_with_words_around_it_is_refused_naming_the_field():
    import pytest

    from kg_actors.core.errors import InvalidInput
    from kg_actors.core.withheld import refuse_markers

    mark = marker("a GitHub token")
    for values, field in (([f"{mark} see docs"], "gist"), ([f"ok", f"{mark} plus my words"], "notes[1]"),
                          ([f"see {mark}"], "gist")):
        name = "gist" if field == "gist" else "notes"
        with pytest.raises(InvalidInput) as refused:
            refuse_markers(name, values)
        assert refused.value.field == field and "holds the marker" in str(refused.value), str(refused.value)
    refuse_markers("notes", [f"{mark} as stored"], stored=[f"{mark} as stored"])  # a hand edit's text, as it is
    refuse_markers("gist", ["[withheld: my own brackets] are fine"])


AWS_ID = "AKIA" + "Z7QRT4XKLM2PW9BN"
AWS_SECRET = "Qm7vT2xPz9LkWb4Ns8Rc" + "Yh3Jd6Fg1AeUoK5tHi0M"
AWS_KIND = "an AWS secret access key (beside its key id)"


def test_a_secret_key_beside_its_key_id_in_another_field_is_a_marker_as_a_write_refuses_it():
    elided = Node("aws-elided", "deploy user credentials", notes=("key id AKIA…W9BN", AWS_SECRET))
    assert Mask().node(elided).notes == ("key id AKIA…W9BN", marker(AWS_KIND))
    whole = Node("aws-whole", f"second value {AWS_SECRET}", notes=(f"first value {AWS_ID}",))
    shown = Mask().node(whole)
    assert shown.gist == marker(AWS_KIND) and shown.notes == (marker("an AWS access key id"),)
    edge = Edge("a", "b", "uses", (f"key id {AWS_ID}", AWS_SECRET, "plain context"))
    assert Mask().edge(edge).notes == (marker("an AWS access key id"), marker(AWS_KIND), "plain context")
    alone = Node("no-key-id", "a bare forty characters", notes=(AWS_SECRET,))  # no key id: may be anything
    assert Mask().node(alone) is alone


def test_a_new_secret_key_sent_beside_a_key_ids_marker_sent_back_is_refused_and_one_without_goes_through():
    import pytest

    from kg_actors.core.secrecy import SecretRefused
    from kg_actors.core.withheld import echoed

    stored = Node("aws-whole", "deploy keys", notes=(f"first value {AWS_ID}",))
    shown = Mask().node(stored)
    with pytest.raises(SecretRefused) as refused:
        echoed(stored, shown, "deploy keys", (shown.notes[0], AWS_SECRET), None)
    assert refused.value.field == "notes[1]" and AWS_KIND in str(refused.value) and AWS_SECRET not in str(refused.value)
    gist, notes, _, kept = echoed(stored, shown, "deploy keys", (shown.notes[0], "in the vault"), None)
    assert notes == (f"first value {AWS_ID}", "in the vault") and kept == ("notes[0]",)
