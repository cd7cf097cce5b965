from kg_actors.core.paging import split
from kg_actors.harness.profiles import utf16_units, utf8_bytes


def test_short_reply_is_one_part_with_all_effects():
    parts = split([("a", {"seen": ["x"]}), ("b", {"seen": ["y"]})], 1000, len, "s1")
    assert parts == [("a\nb", {"seen": ["x", "y"]})]


def test_long_reply_cut_at_line_ends_with_footers_and_effects_per_part():
    lines = [(f"  node-{i}: " + "g" * 90, {"seen": [f"node-{i}"]}) for i in range(100)]
    parts = split(lines, 2000, utf8_bytes, "abcd1234")
    assert len(parts) > 3
    for i, (text, _) in enumerate(parts):
        assert utf8_bytes(text) <= 2000
        if i + 1 < len(parts):
            assert f"part {i + 1} of {len(parts)} — it continues" in text and "more=true" in text
    shown = [e for _, eff in parts for e in eff["seen"]]
    assert shown == [f"node-{i}" for i in range(100)]
    for text, eff in parts:
        for node_id in eff["seen"]:
            assert f"  {node_id}:" in text


def test_units_differ_per_client():
    text = "→" * 10 + "😀"
    assert utf16_units(text) == 12 and utf8_bytes(text) == 34


def test_a_single_line_longer_than_a_part_is_cut():
    parts = split([("x" * 5000, None)], 1000, len, "s")
    assert "".join(t.split("\n\n[KG reply part")[0] for t, _ in parts) == "x" * 5000
