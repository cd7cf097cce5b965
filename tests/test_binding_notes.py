"""What a folder given its own graph is told of a gone folder's graph it may be: why nothing showed it is that."""

from pathlib import Path

from kg_actors import binding_notes as say


def test_the_not_taken_note_says_why_nothing_tells_the_two_apart():
    store = Path("/s/projects")
    none = say.not_taken(store, "web", "/h/p/web", set(), "web-1a2b3c4d")
    assert none.startswith("kg memory: /s/projects/web holds the memory of /h/p/web, a folder of this name")
    assert "its lessons touch no file: nothing tells this folder from that one" in none
    assert "any project may have" in say.not_taken(store, "web", "/h/p/web", {"README.md", "package.json"}, "web-1a2b3c4d")
    assert "one, or ones any project may have" in say.not_taken(store, "web", "/h/p/web", {"src/a.py"}, "web-1a2b3c4d")
    absent = say.not_taken(store, "web", "/h/p/web", {"src/a.py", "src/b.py"}, "web-v2", beside=True)
    assert "a folder beside this one" in absent and "the files its lessons touch are not here" in absent
    assert "that project renamed" in absent and "\n" not in absent


def test_the_not_taken_note_names_the_graph_folder_to_move_the_memory_into_and_the_one_to_move_aside():
    """A folder moved under its own name was given `NAME-<hash>` (`NAME` is the gone one's): `mv` to the folder's
    name would be a move onto itself, so the steps name the graph folder it was given."""
    store = Path("/s/my projects")
    moved = say.not_taken(store, "web", "/h/old/web", {"src/a.py", "src/b.py"}, "web-1a2b3c4d")
    assert ("If it is that project moved, `kg stop`, move /s/my projects/web-1a2b3c4d aside (what was written "
            "there since is in it), `mv '/s/my projects'/web '/s/my projects'/web-1a2b3c4d`, `kg start` gives it "
            "that memory.") in moved, moved
    assert "renamed for it" in say.taken_over(store, "web-1a2b3c4d", "/h/old/web", "/h/new/web", "web-9f9f9f9f",
                                              by_hand=True)
    assert "the files its lessons touch are here" in say.taken_over(store, "web", "/h/old/web", "/h/new/web",
                                                                   "web-9f9f9f9f")
