"""The rotating prompt reminders: the pools' file, parsed and picked from (pure)."""
from pathlib import Path

from kg_actors import reminder_pools
from kg_actors.core import reminders

TEXT = "# a comment\n10 a1\n10 a2\n\n100 b1\nnot a line\n- c1\n- c2\n- c3\n"


def test_the_pool_is_the_first_whose_bound_the_transcript_is_under_and_the_turn_rotates_it():
    pools = reminders.parse(TEXT)
    assert pools == ((10, ("a1", "a2")), (100, ("b1",)), (None, ("c1", "c2", "c3")))
    assert [reminders.pick(pools, 0, t) for t in range(3)] == ["a1", "a2", "a1"]
    assert reminders.pick(pools, 10, 5) == "b1"
    assert [reminders.pick(pools, 10**9, t) for t in range(3)] == ["c1", "c2", "c3"]
    assert reminders.pick((), 0, 0) is None


def test_the_server_reads_the_file_prompt_sh_reads_and_its_lines_print_inside_json_as_they_are():
    pools = reminder_pools.pools()
    text = (Path(__file__).resolve().parents[2] / "hooks" / "reminders.txt").read_text()
    assert pools == reminders.parse(text) and len(pools) == 3 and pools[-1][0] is None
    assert "reminders.txt" in (Path(__file__).resolve().parents[2] / "hooks" / "prompt.sh").read_text()
    for _, lines in pools:
        assert all(line.startswith("KG: ") and not set(line) & set('"\\') for line in lines)
