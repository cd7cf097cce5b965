"""A command doctor or status prints for the user to paste names a path with spaces as one word: pasted, it
gets the path it names (it split at the space before, and the restore failed)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from kg_actors.setup.doctor import trouble_lines
from kg_actors.setup.doctor_store import _fix

FOLDER = "/tmp/home/my proj é"


def _commands(text: str) -> list[list[str]]:
    return [shlex.split(c) for c in re.findall(r"`(kg [^`]*)`", text)]


def test_status_and_doctor_quote_the_project_path_in_kg_restore():
    for kind in ("unreadable", "fell_back", "file_missing"):
        health = {"graphs_in_trouble": {"project:my-proj": {"kind": kind, "graph": FOLDER, "why": "x",
                                                             "file": "/s/graph.json", "kept": "/s/k"}}}
        (line,) = trouble_lines(health)
        assert _commands(line) == [["kg", "restore", "--at", "DATE", FOLDER]], line


def test_doctors_fix_for_a_graph_not_loaded_quotes_its_name():
    for what in ("file", "journal_orphaned"):
        said = _fix(what, "project:odd name", Path("/s/projects/odd name/graph.json"))
        assert _commands(said) == [["kg", "restore", "--at", "DATE", "odd name"]], said


def test_the_fix_for_an_unreadable_graph_gives_a_move_aside_that_pastes_whole():
    # A store with no git history cannot restore: moving the file aside is then the way, named as a command.
    file = f"{FOLDER}/.knowledge-graph/projects/my proj/graph.json"
    health = {"graphs_in_trouble": {"project:my-proj": {"kind": "unreadable", "graph": FOLDER, "why": "x",
                                                         "file": file}}}
    (line,) = trouble_lines(health)
    said = _fix("file", "project:my proj", Path(file))
    for text in (line, said):
        moves = [shlex.split(c) for c in re.findall(r"`(mv [^`]*)`", text)]
        assert moves == [["mv", file, file + ".aside"]], text
