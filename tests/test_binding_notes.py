"""What a folder given its own graph is told of a gone folder's graph it may be: why nothing showed it is that."""

from pathlib import Path

from kg_actors import binding_notes as say


def test_the_not_taken_note_says_why_nothing_tells_the_two_apart():
    store = Path("/s/projects")
    none = say.not_taken(store, "web", "/h/p/web", set())
    assert none.startswith("kg memory: /s/projects/web holds the memory of /h/p/web, a folder of this name")
    assert "its lessons touch no file: nothing tells this folder from that one" in none
    assert "any project may have" in say.not_taken(store, "web", "/h/p/web", {"README.md", "package.json"})
    assert "one, or ones any project may have" in say.not_taken(store, "web", "/h/p/web", {"src/a.py"})
    absent = say.not_taken(store, "web", "/h/p/web", {"src/a.py", "src/b.py"}, beside=True)
    assert "a folder beside this one" in absent and "the files its lessons touch are not here" in absent
    assert "that project renamed" in absent and "\n" not in absent
