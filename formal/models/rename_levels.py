"""A rename never re-points an edge across levels (F5).

A project edge names its endpoint by bare id, resolved to the project's own node first, then the
user's. Models `Memory.rename` (a user node: refused when a project that reaches the old id owns
a node with the new id; else `GraphState.rename_local` in the user graph and `GraphState.rewire`
in every project that reaches it without a node of its own of that id; a project node: refused
when the user graph has the new id and the project's edges reach it; else `rename_local`).

Every configuration within the bounds is a state reached from the empty one (the explorer's
first step picks it); the second step is one rename, at either level, of any node to any id.
Bounds: ids a, b, c; the user graph holds a subset of {a, b}, the project a subset of {a, b, c};
up to 2 project edges, each from a project node to an id that resolves (an edge's target
exists when it is written; dangling edges are removed at load). Invariant:
- same target: every project edge resolves after the rename to the very node (by identity) it
  resolved to before, or the rename was refused.
`make(checked=False)`: renames without the capture checks (the reference's R1-R4 variants).
"""

from __future__ import annotations

import itertools

import attrs

from ..explore import Model

IDS = ("a", "b", "c")
USER_IDS = ("a", "b")


@attrs.frozen
class S:
    user: tuple = ()  # (id, identity)
    project: tuple = ()
    edges: tuple = ()  # (source identity, bare target id)
    done: str = ""  # "", "config", "renamed", "refused"
    moved: bool = False  # an edge now resolves to another node than before


def _resolve(s: S, bare: str):
    for nid, ident in s.project:
        if nid == bare:
            return ident
    for nid, ident in s.user:
        if nid == bare:
            return ident
    return None


def _configs():
    for uk in range(len(USER_IDS) + 1):
        for user in itertools.combinations(USER_IDS, uk):
            for pk in range(1, len(IDS) + 1):
                for project in itertools.combinations(IDS, pk):
                    # An edge's target exists when it is written, and dangling ones go at load.
                    ends = [(p, d) for p in project for d in IDS if d in project or d in user]
                    for ek in range(3):
                        for edges in itertools.combinations(ends, ek):
                            yield S(tuple((i, ("u", i)) for i in user), tuple((i, ("p", i)) for i in project),
                                    tuple((("p", src), dst) for src, dst in edges), "config")


def _rename(s: S, level: str, old: str, new: str, checked: bool) -> S | None:
    own = dict(s.user if level == "user" else s.project)
    if old not in own or new in own:
        return None  # not found / the id is taken in the same graph: refused before anything
    user_ids = {i for i, _ in s.user}
    project_ids = {i for i, _ in s.project}
    reaches = lambda bare: any(dst == bare for _, dst in s.edges)  # noqa: E731
    if checked:
        if level == "user" and reaches(old) and old not in project_ids and new in project_ids:
            return attrs.evolve(s, done="refused")
        if level == "project" and new in user_ids and reaches(new):
            return attrs.evolve(s, done="refused")
    before = [_resolve(s, dst) for _, dst in s.edges]
    if level == "user":
        user = tuple((new if i == old else i, ident) for i, ident in s.user)
        project_reaches_user_old = old not in project_ids
        edges = tuple((src, new if dst == old and project_reaches_user_old else dst) for src, dst in s.edges)
        t = attrs.evolve(s, user=user, edges=edges)
    else:
        project = tuple((new if i == old else i, ident) for i, ident in s.project)
        edges = tuple((src, new if dst == old else dst) for src, dst in s.edges)
        t = attrs.evolve(s, project=project, edges=edges)
    after = [_resolve(t, dst) for _, dst in t.edges]
    return attrs.evolve(t, done="renamed", moved=before != after)


def make(checked: bool) -> Model:
    def steps(s: S):
        if s.done == "":
            for config in _configs():
                yield "config", config
        elif s.done == "config":
            for level in ("user", "project"):
                for old, new in itertools.permutations(IDS, 2):
                    nxt = _rename(s, level, old, new, checked)
                    if nxt is not None:
                        yield f"rename {level} {old}->{new} (user {[i for i, _ in s.user]}, project " \
                              f"{[i for i, _ in s.project]}, edges {[(src[1], d) for src, d in s.edges]})", nxt

    return Model(f"rename_levels(checked={checked})", S(), steps, {"same target": lambda s: not s.moved})


MODELS = [make(checked=False), make(checked=True)]
EXPECTED = {"rename_levels(checked=False)": "same target", "rename_levels(checked=True)": None}
