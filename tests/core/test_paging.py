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


def _full_read(items: int, edges: int) -> list:
    """A full read's shape: a level's header, `ACTIVE:` and its nodes, each with the edges indented under it."""
    lines = [("=== USER GRAPH — 0 active ===", None), ("HEALTH: 0 nodes, 0 edges " + "h" * 300, None),
             ("DEBT: LOW (0.10) " + "d" * 400, None), ("=== PROJECT GRAPH — many active ===", None),
             ("ACTIVE:", None)]
    for i in range(items):
        lines.append((f"  node-{i}: " + "漢字" * 100, {"seen": [f"node-{i}"]}))
        lines.extend((f"    → relates → node-{i}-{j}", None) for j in range(edges))
    return lines


def test_a_full_reads_parts_are_filled_to_the_limit_not_cut_after_its_header():
    # Under Codex, part 1 of an 80-node read held only the headers (607 bytes), and three parts held what two hold:
    # the `ACTIVE:` heading and every node under it went whole into the next part.
    lines = _full_read(80, 0)
    parts = split(lines, 36_000, utf8_bytes, "s")
    total = utf8_bytes("\n".join(line for line, _ in lines))
    assert total < 2 * (36_000 - 300) and len(parts) == 2, [utf8_bytes(t) for t, _ in parts]
    first = parts[0][0].split("\n\n[KG reply part")[0]
    assert utf8_bytes(first) + utf8_bytes(parts[1][0].split("\n")[0]) + 1 > 36_000 - 300  # no next line fitted
    assert [e for _, eff in parts for e in eff["seen"]] == [f"node-{i}" for i in range(80)]


def test_a_full_reads_node_goes_into_the_next_part_with_its_edges():
    lines = _full_read(40, 3)
    parts = split(lines, 4000, utf8_bytes, "s")
    assert len(parts) > 3
    for text, _ in parts[1:]:
        assert text.split("\n")[0].startswith("  node-"), text[:80]  # never an edge without its node above it
        assert utf8_bytes(text) <= 4000
    bodies = [text.split("\n\n[KG reply part")[0] for text, _ in parts]
    assert "\n".join(bodies) == "\n".join(line for line, _ in lines)
