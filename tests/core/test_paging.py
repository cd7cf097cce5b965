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


def _blocks(n: int, notes: int) -> list:
    """A node read's shape: `▸ id` then its indented gist, notes header and notes; a blank line between."""
    lines = []
    for i in range(n):
        if i:
            lines.append(("", None))
        lines.append((f"▸ node-{i} (project, active)", None))
        lines.append((f"  gist: lesson {i}", None))
        lines.append(("  notes:", None))
        lines.extend((f"    - note {j} of node {i}: " + "n" * 40, None) for j in range(notes))
        lines[-1] = (lines[-1][0], {"read": [f"node-{i}"]})
    return lines


def test_a_node_goes_whole_into_the_next_part_rather_than_be_cut_when_it_fits_in_one():
    # A part began with notes whose node's id was in the part before it.
    lines = _blocks(12, 6)
    parts = split(lines, 1500, len, "s")
    assert len(parts) > 2
    bodies = [text.split("\n\n[KG reply part")[0] for text, _ in parts]
    for body in bodies:
        first = body.lstrip("\n").split("\n")[0]
        assert first.startswith("▸ node-"), body[:80]  # never a note without its node
        assert len(body) + 300 <= 1500
    assert "\n".join(bodies).replace("\n\n\n", "\n\n") == "\n".join(line for line, _ in lines)  # all, in order
    assert [e for _, eff in parts for e in eff["read"]] == [f"node-{i}" for i in range(12)]


def test_a_node_longer_than_a_part_is_still_cut_at_line_ends():
    lines = _blocks(2, 40)
    parts = split(lines, 1500, len, "s")
    bodies = [text.split("\n\n[KG reply part")[0] for text, _ in parts]
    assert len(parts) > 2 and "\n".join(bodies) == "\n".join(line for line, _ in lines)
