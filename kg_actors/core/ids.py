"""Id, rel and endpoint rules (spec 003), as pure checks.

A check raises InvalidInput naming the field and the rule; a nudge is a string
the reply appends. Existing long ids stay writable: word limits bind on create
and on rename targets only.
"""

import functools
import posixpath
import re

from . import constants as C
from .errors import InvalidInput

NODE_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
REL_RE = NODE_ID_RE
# Spec 003: endpoints use letters, digits, ., _, -, / and ~, with no rule on the first character:
# `.github/workflows/ci.yml`, `.env` and `_private/x` are files a lesson may point at.
ENDPOINT_RE = re.compile(r"[A-Za-z0-9._~/-]+\Z")
DATE_RE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")


def _check(value: object, field: str, max_len: int, pattern: re.Pattern[str], rule: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidInput(field, "must be a non-empty string")
    if len(value) > max_len:
        raise InvalidInput(field, f"is {len(value)} characters; at most {max_len}")
    if not pattern.match(value):
        raise InvalidInput(field, rule)
    return value


def check_node_id(value: object, field: str = "id") -> str:
    if isinstance(value, str) and ("/" in value or "\\" in value):
        raise InvalidInput(field, "must not contain a path separator (node ids are names, not paths)")
    return _check(value, field, C.NODE_ID_MAX_LEN, NODE_ID_RE,
                  "may hold only ASCII letters, digits, '.', '_' and '-', and must start with a letter or digit")


def check_existing_id(value: object, field: str = "id") -> str:
    """An id a tool names to act on a node that exists (delete, the old id of a rename): any string the
    graph may hold. A file edited by hand can hold an id no write would take (too long, a space in it),
    and it must still be possible to delete or rename it; the graph's look-up decides the rest."""
    if not isinstance(value, str) or not value:
        raise InvalidInput(field, "must be a non-empty string")
    if "/" in value or "\\" in value:
        raise InvalidInput(field, "must not contain a path separator (node ids are names, not paths)")
    return value


def check_lookup_id(value: object, field: str = "id") -> str:
    """An id that may name a stored node (open, edit, delete, rename it): any non-empty string, as a hand edit may
    leave one no write takes ('/', an emoji, a space). The look-up decides; check_existing_id's words are for
    one that names no node, and the id rules bind new ids only."""
    if not isinstance(value, str) or not value:
        raise InvalidInput(field, "must be a non-empty string")
    return value


SHOWN_MAX = 200  # characters of an id a reply echoes: a 5 MB one asked for must not come back whole


def shown(node_id: str) -> str:
    """An id as a reply names it: whole, or its start and its length."""
    return node_id if len(node_id) <= SHOWN_MAX else f"{node_id[:SHOWN_MAX]}… ({len(node_id):,} characters)"


def check_rel(value: object, field: str = "rel") -> str:
    return _check(value, field, C.REL_MAX_LEN, REL_RE,
                  "must be kebab-case: letters, digits, '.', '_' and '-', starting with a letter or digit")


def check_endpoint(value: object, field: str) -> str:
    return _check(value, field, C.ENDPOINT_MAX_LEN, ENDPOINT_RE,
                  "may hold only ASCII letters, digits, '.', '_', '-', '/' and '~' (a node id or a file path)")


def is_artifact(endpoint: str) -> bool:
    """A file or artifact reference, kept whether or not a node names it.

    Spec: an endpoint containing / or ~ is a file. One that cannot be a node id
    (`.env`, `_build`: not starting with a letter or digit) can only be a file too;
    reading it as a bare id would drop its edge at the next load.
    """
    return "/" in endpoint or "~" in endpoint or not NODE_ID_RE.match(endpoint)


def check_two_ends(src: str, dst: str) -> None:
    """An edge joins two things: one from a node or a file to itself says nothing of how two relate (what it
    would say of the one belongs in a note on it). A file is the same written two ways (`./a.py`, `a.py`)."""
    file = is_artifact(src) and is_artifact(dst)
    if src == dst or file and posixpath.normpath(src) == posixpath.normpath(dst):
        raise InvalidInput("to", f"'{dst}' is the same {'file' if file else 'node'} as from ('{src}'); an edge "
                                 "joins two different things, so one to itself is not written: say what it would "
                                 "say of this one in a note on it")


def id_words(node_id: str) -> int:
    """Words in an id: a date counts as one; dots and underscores do not split."""
    return len([p for p in DATE_RE.sub("DATE", node_id).split("-") if p])


@functools.lru_cache(maxsize=1 << 15)  # the hub hint asks it of ~500 namers per write, the same ids again and again
def has_date(node_id: str) -> bool:
    return DATE_RE.search(node_id) is not None


def check_new_id_words(node_id: str, field: str = "id") -> None:
    words = id_words(node_id)
    if words >= C.NODE_ID_REFUSE_WORDS:
        raise InvalidInput(
            field,
            f"'{node_id}' is {words} words. An id NAMES THE SUBJECT in 3-{C.NODE_ID_TARGET_WORDS} "
            "kebab-case words with no date; put the claim in the gist",
        )


def id_nudge(node_id: str) -> str | None:
    words = id_words(node_id)
    if words >= C.NODE_ID_NUDGE_WORDS or has_date(node_id):
        why = f"is {words} words" if words >= C.NODE_ID_NUDGE_WORDS else "carries a date"
        return (
            f"note: id {why}; an id names the subject in 3-{C.NODE_ID_TARGET_WORDS} words with no date. "
            "kg_rename_node carries edges and history if you tighten it."
        )
    return None
