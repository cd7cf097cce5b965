"""Which store folder each project folder's graph is in, for this server's run, and what its session is told.

choose_slug (storage/layout.py) decides from what is stored; this remembers the answers, so one graph
serves one folder: a folder of a gone folder's name takes its graph only on evidence (same_project.py), the
gone folder back again gets a graph of its own and is told where its memory went, and a folder not given a
gone one's graph is told it exists (binding_notes.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import binding_notes as say
from .project_evidence import Evidence, StoredTouches
from .storage import layout as L


class ProjectFolders:
    def __init__(self, layout: L.Layout, touched: Callable[[str], set[str] | None]):
        self.layout = layout
        self.touched = touched  # a loaded graph's touched files (its file may lack the latest), else None
        self.slug_of: dict[str, str] = {}
        self.root_of: dict[str, str] = {}
        self.notes: dict[str, str] = {}  # root -> what its session is told of its store folder's choice, once
        self.taken: dict[str, str] = {}  # a gone root -> the graph folder another folder of its name took over
        self.recorded_at: dict[str, tuple[int, str | None]] = {}  # slug -> (file mtime, recorded folder)
        self.stored_touches = StoredTouches()

    def decided(self, root: str) -> str | None:
        """The key this run gave `root`, while it still holds (no file read): None, `project_key` decides."""
        slug = self.slug_of.get(root)
        return None if slug is None or self.root_of.get(slug, root) != root else f"project:{slug}"

    def evidence(self, root: str, inline: bool = False) -> Evidence:
        """What a decision for `root` weighs; `inline`: read where asked (else `Unweighed`: project_evidence.py)."""
        return Evidence(root, self._files, inline)

    def project_key(self, root: str, ev: Evidence | None = None) -> str:
        """Decide (or recall) `root`'s graph. Every answer weighed is asked of `ev` before anything is bound,
        so an `Unweighed` leaves all as it was (`ev` None: weighed where asked, on the caller's thread)."""
        slug = was = self.slug_of.get(root)
        if was is not None and self.root_of.get(was, root) != root:
            slug = None  # taken over by a folder of its name while this one was away: never shared
        if slug is None:
            ev = ev or self.evidence(root, inline=True)
            try:
                slug = L.choose_slug(self.layout, root, ev.same, self.root_of.get)
            except L.Shut as shut:  # neither chosen nor bound: once the folder opens, its own graph is chosen
                return f"project:{shut.slug}"
            chosen = slug
            bound = self.root_of.get(chosen)
            projects = self.layout.projects
            renamed = bound is not None and L.folder_gone(bound) and ev.same(chosen)  # evidence weighed
            took: tuple[str, str] | None = None  # (the gone folder whose graph this one takes, what it is told)
            if bound is not None and bound != root and not renamed and not L.takes_over(
                    chosen, bound, root, lambda: ev.same(chosen)):
                slug = L.hashed_slug(root)  # another project's, here or gone, whose folder bore another name
            else:
                gone = bound if bound not in (None, root) else self._recorded(slug)
                if gone is not None and gone != root and L.project_root_ok(gone):
                    took = gone, say.taken_over(projects, slug, gone, root, L.hashed_slug(gone),
                                                L.moved_by_hand(slug, gone))
            # A folder keeping a graph of its own from before is no gone folder renamed: told nothing of one.
            mine = self._stored(slug) and self._recorded(slug) == root
            other = self._not_taken(root, slug, ev) if took is None and root not in self.notes and not mine else None
            # Weighed: from here on nothing is asked that may stop the decision.
            if took is not None:
                self.slug_of.pop(took[0], None)
                self.taken[took[0]] = slug
                self.notes[root] = took[1]
            elif other is not None:
                self.notes[root] = other
            if (taken := self.taken.get(root, was)) not in (None, slug) and self.root_of.get(taken, root) != root:
                self.notes[root] = say.bound_elsewhere(projects, taken, self.root_of[taken], root, slug)
            self.slug_of[root], self.root_of[slug] = slug, root
        return f"project:{slug}"

    def _files(self, slug: str) -> set[str]:
        """The relative files a graph's lessons touch: a loaded one's as served, else its file's."""
        files = self.touched(slug)
        return self.stored_touches.of(self.layout.project_graph(slug)) if files is None else files

    def _not_taken(self, root: str, slug: str, ev: Evidence) -> str | None:
        """What a folder given its own graph is told of a gone folder's graph it may be: one of its name, or
        the one gone folder beside it (renamed); None: none."""
        found, beside = self._gone_of_this_name(root, slug), False
        if found is None:
            found, beside = self._gone_beside(root, slug), True
        if found is None:
            return None
        return say.not_taken(self.layout.projects, *found, ev.files(found[0]), slug, beside)

    def _gone_of_this_name(self, root: str, slug: str) -> tuple[str, str] | None:
        """(store folder, its gone folder) of this folder's name that was not taken for want of evidence."""
        plain = L.base_slug(root)
        if plain == slug or not self._stored(plain):
            return None
        mine = self.root_of.get(slug) or self._recorded(slug)
        if mine not in (None, root) and os.path.basename(mine) == os.path.basename(root):
            return None  # it took a gone folder's graph of its name (of two, the one whose path ends as its own)
        gone = self.root_of.get(plain) or self._recorded(plain)
        if gone is None or os.path.basename(gone) != os.path.basename(root) or not L.folder_gone(gone):
            return None
        return plain, gone

    def _gone_beside(self, root: str, slug: str) -> tuple[str, str] | None:
        """(store folder, its gone folder) of the one graph whose folder, gone, was in this folder's parent."""
        found = []
        for other in self.layout.project_slugs():
            if other == slug or L.holds_key(other):
                continue
            gone = self.root_of.get(other) or self._recorded(other)
            if (gone is not None and gone != root and os.path.dirname(gone) == os.path.dirname(root)
                    and L.folder_gone(gone) and L.project_root_ok(gone)):
                found.append((other, gone))
        return found[0] if len(found) == 1 else None  # two gone beside it: which it may be is anyone's guess

    def has_graph_for(self, root: str, loaded: Callable[[str], bool]) -> bool:
        """A graph stored (or loaded) for exactly this folder; unlike `project_key`, claims no slug."""
        slug = self.slug_of.get(root)
        if slug is not None:
            return loaded(slug) or self._stored(slug)
        if self._stored(L.hashed_slug(root)):
            return True
        for name in (L.base_slug(root), L.reference_slug(root), *L.earlier_slugs(root)):  # ours, 0.17's, older
            if name is None:
                continue
            if name in self.root_of:  # loaded or claimed: its folder is known without reading the file
                if self.root_of[name] == root:
                    return True
            elif self._stored(name) and self._recorded(name) == root:
                return True
        return False

    def _recorded(self, slug: str) -> str | None:
        """The folder a stored graph records, read once per version of its file: a hook may ask
        every half minute, and reading a large graph's JSON on the loop each time would stall it."""
        graph_file = self.layout.project_graph(slug)
        try:
            mtime = graph_file.stat().st_mtime_ns
        except OSError:
            return None
        cached = self.recorded_at.get(slug)
        if cached is None or cached[0] != mtime:
            cached = self.recorded_at[slug] = (mtime, L.recorded_project_path(graph_file))
        return cached[1]

    def _stored(self, slug: str) -> bool:
        graph_file = self.layout.project_graph(slug)
        return L.there(graph_file) or L.there(graph_file.with_name("graph.json.journal"))

    def forget(self, slug: str) -> None:
        """A graph folder moved to the trash: no folder is bound to it any more."""
        root = self.root_of.pop(slug, None)
        if root is not None:
            self.slug_of.pop(root, None)
