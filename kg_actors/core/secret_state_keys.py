"""The keys of a progress state's objects read as items (core/secret_state.py joins each group as a list's
items): a key is stored as its value is, so a key split across an object's keys (`{"sk_live_4eC3…": 1,
"Darjt…": 2}`), across a key and its own value (`{"sk_live_4eC3…": "Darjt…"}`) or across the keys of the
objects in a list (`[{"ghp_R7dL…": 1}, {"XiOo…": 1}]`) is a key split across items.

A key is named by its place (`state.<key 1>`), never by its text, which may be the secret; its value with it,
as the state is shown with the key's whole entry withheld (core/held_progress.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .secrecy import find


def key_name(name: str, i: int) -> str:
    """The name of an object's i-th key (from 0) and of its entry: `state.checked.<key 2>`."""
    return f"{name}.<key {i + 1}>"


def keyed_groups(value: Any, name: str) -> Iterator[list[tuple[str, str]]]:
    """Each group a key may be split across, as (name, text) items in order: an object's keys, with each key's
    string value after it; a list's strings and the keys of its objects. Nested values give their own."""
    if isinstance(value, dict):
        items: list[tuple[str, str]] = []
        for i, (key, inner) in enumerate(value.items()):
            items.append((key_name(name, i), str(key)))
            if isinstance(inner, str):
                items.append((key_name(name, i), inner))
        if len(items) > 1:
            yield items
        for i, (key, inner) in enumerate(value.items()):
            yield from keyed_groups(inner, f"{name}.{key}" if find(str(key)) is None else key_name(name, i))
    elif isinstance(value, list | tuple):
        listed: list[tuple[str, str]] = []
        for j, inner in enumerate(value):
            if isinstance(inner, str):
                listed.append((f"{name}[{j}]", inner))
            elif isinstance(inner, dict):
                listed.extend((key_name(f"{name}[{j}]", i), str(key)) for i, key in enumerate(inner))
        if any("<key " in n for n, _ in listed) and len(listed) > 1:  # strings alone: _groups reads them
            yield listed
        for j, inner in enumerate(value):
            yield from keyed_groups(inner, f"{name}[{j}]")
