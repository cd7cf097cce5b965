"""The soak's heap figures (kg_actors/debug_heap.py): where a server's RSS lives, read without tracing."""

import json
import platform

import pytest

from kg_actors import debug_heap


@pytest.mark.skipif(platform.system() != "Linux", reason="/proc and glibc figures")
def test_a_dump_says_where_rss_lives(tmp_path):
    line = debug_heap.dump(tmp_path, 1)
    assert json.loads((tmp_path / "heap.jsonl").read_text()) == json.loads(json.dumps(line))
    maps = line["maps"]
    assert maps["file"] > 0 and maps["anon"] > 0  # code mapped; the interpreter's own arenas
    # The kinds of map add up to RSS (read a moment apart, so within a little).
    assert abs(sum(maps.values()) - line["rss_kib"]) < 0.1 * line["rss_kib"]
    py = line["pymalloc"]
    assert py["arenas"] >= 1 and 0 < py["used_bytes"] <= py["arenas"] * (1 << 20)
    if platform.libc_ver()[0] == "glibc":
        assert (tmp_path / "malloc-1.xml").read_text().startswith("<malloc")
