"""Which fields a key found across several really holds (core/secrecy.joined_findings asks).

A key's first part glued to the prose of the field after it can read as a longer key (`ghp_R7dLq2Vx9NwBz4Kc`
then "then an unrelated remark here": the words after a provider's prefix read as its body), while its other
part is a field further on (`second half XiOoPl8Tm3Yh6Ds1FgAa`). Both readings are keys; only the one that goes
around the prose names the fields that hold the key, so the write's error and the load's withholding name them,
not the remark (which an agent would be sent to, and the key's second half shown)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from .secret_joins import Joined
from .secret_seams import prose

JOINT = " joined to "

F = TypeVar("F")


def real_parts(found: list[tuple[Joined, F]], gist: object, notes: Sequence[object] | None,
               name: str) -> Iterator[tuple[Joined, F]]:
    """`found` ((text joined, finding) in order, of a gist and its `notes` named `name`) without each reading
    that takes in a field of prose after the key's first part, where another reading from that part goes
    around it."""
    if len(found) < 2:  # most writes: nothing found, or one reading
        yield from found
        return
    texts = {"gist": gist, **{f"{name}[{i}]": item for i, item in enumerate(notes or ())}}

    def prose_field(field: str) -> bool:
        text = texts.get(field)
        return isinstance(text, str) and prose(text)

    spans = [joined.field.split(JOINT) for joined, _ in found]
    for (joined, finding), names in zip(found, spans):
        if not any(_around(names, other, prose_field) for other in spans):
            yield joined, finding


def _around(names: list[str], other: list[str], prose: Callable[[str], bool]) -> bool:
    """Whether reading `other` goes around fields of `names` after the key's first part, all prose, and takes
    in no prose field `names` goes around. Prose before the first part (a gist "A lesson." glued on) is no part
    in either; two readings each around the other's prose are both kept (the key is refused either way)."""
    mine, theirs = _from_first_part(names, prose), _from_first_part(other, prose)
    if not mine or not theirs or mine[0] != theirs[0]:
        return False
    return _prose_left_out(mine, theirs, prose) and not _prose_left_out(theirs, mine, prose)


def _prose_left_out(mine: list[str], theirs: list[str], prose: Callable[[str], bool]) -> bool:
    left_out = [x for x in mine[1:] if x not in theirs]
    return bool(left_out) and all(prose(x) for x in left_out)


def _from_first_part(names: list[str], prose: Callable[[str], bool]) -> list[str]:
    return next((names[i:] for i, x in enumerate(names) if not prose(x)), [])
