"""A task's progress state (kg_progress): refused for a secret as a node's fields are, its items read together.

Each string of the state is read on its own as `key=value` (core/secrecy.strings_in: `{"password": "…"}` is a
password given to a password-named key). A state's lists and objects hold items as a node holds notes, so what
a write refuses across notes is refused across them too: a key split across items (`["AKIAZ7QRT4",
"XKLM2PW9BN"]`), a part of one with words around it, and an AWS secret key beside its key id in another item."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .secrecy import SecretRefused, find, joined_findings, part_finding, strings_in
from .secret_aws import beside as aws_beside
from .secret_findings import Finding
from .secret_fragments import fragments_in

_SEAM = " joined to "


def refuse_state(task_id: str, state: Any) -> None:
    """SecretRefused naming the first field (`state.env[2]`, `state.a[0] joined to state.a[1]`) holding one."""
    for name, found in state_findings(task_id, state):
        raise SecretRefused(name, found)


def state_findings(task_id: str, state: Any) -> Iterator[tuple[str, Finding]]:
    """Each field of a task's state holding a secret, by the rules a write refuses it by, in the order a write
    checks them: the task id and each string alone, a key beside its id, a key split across items, a part of
    one with words around it. A stored state (a hand edit, an older kg) is read so too (core/held_progress.py)."""
    for name, text in [("task_id", task_id), *strings_in(state, "state")]:
        if text and (found := find(text)) is not None:
            yield name, found
    values = list(_values(state, "state"))
    yield from aws_beside(values).items()  # the value as stored, not glued to its key by `=`
    for items in _groups(state, "state"):
        for joined, found in joined_findings(None, [text for _, text in items], ""):
            yield _SEAM.join(items[int(f[1:-1])][0] for f in joined.field.split(_SEAM)), found
    for name, kind, part in fragments_in(values):
        yield name, part_finding(kind, part)


def _values(value: Any, name: str) -> Iterator[tuple[str, str]]:
    """Every string value of the state, named by its path, as written."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _values(inner, f"{name}.{key}")
    elif isinstance(value, list | tuple):
        for i, inner in enumerate(value):
            yield from _values(inner, f"{name}[{i}]")


def _groups(value: Any, name: str) -> Iterator[list[tuple[str, str]]]:
    """The string items of each list and each object of the state, in order: what a key may be split across."""
    if isinstance(value, dict):
        inner = [(f"{name}.{k}", v) for k, v in value.items()]
    elif isinstance(value, list | tuple):
        inner = [(f"{name}[{i}]", v) for i, v in enumerate(value)]
    else:
        return
    texts = [(path, v) for path, v in inner if isinstance(v, str)]
    if len(texts) > 1:
        yield texts
    for path, v in inner:
        yield from _groups(v, path)
