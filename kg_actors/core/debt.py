"""Maintenance debt (spec 000 "Maintenance Debt"): one verdict line per graph.

score = staleness × (0.4 + 0.6·activity) × (0.25 + 0.75·min(1, deficit)).
Staleness counts days since the last completed pass (its `maintain` stamp);
activity counts distinct UTC days read in the last week; the deficit weighs
the wear factors against the active node count. Pure: `now`, the missing
touches (the owner stats `anchors.touch_paths` off-loop) and tool-event days
are arguments.

Smeared terms match whole tokens, stemmed with the search tokenizer's
stemmer: `store` is not smeared by nodes that say `restore`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import posixpath
import re
import unicodedata
import weakref
from collections import Counter
from collections.abc import Generator, Iterable, Mapping
from functools import lru_cache
from itertools import chain
from typing import Any

import attrs

from . import constants as C
from . import pass_marks
from .anchors import dangling_touches, touch_paths
from .ids import DATE_RE, has_date, id_words
from .lift import is_lifted, lift_clusters
from .model import GraphReader, Node
from .snapshot import Lineage
from .steps import run_steps
from .terms import STOP_STEMS, stem

# A whole alphanumeric run of 5+ characters that starts with a letter.
__all__ = [
    "Debt", "DebtNodes", "Smear", "active_days", "compute_debt", "debt_dict", "debt_line", "debt_nodes", "level_for",
    "smeared_terms",
    "touch_paths", "untended_days",
]

_WORD = re.compile(r"(?<![a-z0-9])[a-z][a-z0-9]{%d,}(?![a-z0-9])" % (C.SMEAR_MIN_WORD_CHARS - 1))
_ALNUM = re.compile(r"[a-z0-9]+")
_ID_PARTS = re.compile(r"[-_.]+")

# Prose words long enough to pass the length rule that never name an entity.
# The search stoplist covers the short ones; stems are compared too.
PROSE_STOPWORDS = frozenset("""
about above across actually added adding after again against almost along already also although
always among another anything anyway around aside based because become before behind being below
better between beyond bring called cannot change changed changes check clear could currently
default different doesn during earlier either enough every everything example except first
following found further given going great having however ideally important include including
instead issue issues itself keeps known later least likely little longer makes means might
mostly never newer noted nothing often other others otherwise part perhaps point possible
prefer probably problem quite rather really right round second seems should since something
sometimes start still thing things think third those though three through today together
under unless until usually value values various wants whatever whenever where whether which
while whole within without works would wrong yours
""".split())
_PROSE_STEMS = frozenset(stem(w) for w in PROSE_STOPWORDS) | PROSE_STOPWORDS
_STOP_STEMS = STOP_STEMS | _PROSE_STEMS

_EPOCH = dt.date(1970, 1, 1)


@attrs.frozen
class Smear:
    term: str
    count: int
    hub: str


@attrs.frozen
class Debt:
    level: str
    score: float
    nodes: int  # non-archived (active) nodes: the deficit's denominator
    oversized: int
    unconnected: int
    long_ids: int
    long_id_examples: tuple[str, ...]
    dangling_touches: int  # missing touch entries
    dangling_nodes: int  # active nodes holding any
    lift_clusters: tuple[tuple[str, ...], ...]
    smeared: tuple[Smear, ...]
    untended_days: float | None  # None: never maintained
    active_days: int
    staleness: float
    activity: float
    deficit: float

    @property
    def never_maintained(self) -> bool:
        return self.untended_days is None

    @property
    def lift_members(self) -> int:
        return sum(len(c) for c in self.lift_clusters)


def node_terms(node_id: str, gist: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(stems of id + gist words of 5+ chars, the words and stems an undated id's parts name).

    Tuples, not sets: 10,000 nodes' worth stays a few megabytes.
    """
    text = f"{node_id} {gist}".lower()
    stems = tuple(set(map(stem, set(_WORD.findall(text)))) - _STOP_STEMS)
    names: tuple[str, ...] = ()
    if not has_date(node_id):
        parts = {p for p in _ID_PARTS.split(node_id.lower()) if p and p[0].isalpha()}
        names = tuple(parts | set(map(stem, parts)))
    return stems, names


@attrs.frozen
class _TermState:
    """What one graph's term counts were derived from, so the next call redoes only changed nodes."""

    gen: int
    nodes: dict[str, Node]
    terms: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    df: dict[str, int]
    # term -> the ids whose parts name it (the second half of `terms`, inverted): smeared_terms reads
    # the few it needs instead of walking every node. Sets are never changed, only replaced.
    named: dict[str, frozenset[str]]


# Keyed weakly by graph: a state dies with its graph. Each call builds a new
# state from the last (copy, then patch), so a caller never sees a half-patched one.
_STATES: weakref.WeakKeyDictionary[Lineage, _TermState] = weakref.WeakKeyDictionary()  # per graph, all versions


def _term_state(graph: GraphReader) -> _TermState:
    return run_steps(_term_state_steps(graph))


TERMS_PER_STEP = 200  # nodes whose terms are worked out between two pauses (a few ms each hundred)


def _term_state_steps(graph: GraphReader) -> Generator[None, None, _TermState]:
    """The graph's term state, patched from its last one; it pauses after each TERMS_PER_STEP nodes
    it had to work out (hundreds after a burst of writes). The new state is seen only once whole."""
    old = _STATES.get(graph.lineage)
    if old is not None and old.gen == graph.gen and len(old.nodes) == len(graph.nodes):
        return old
    if old is None:
        terms = {i: node_terms(i, node.gist) for i, node in graph.nodes.items()}
        state = _fresh_state(graph, terms)
    else:
        terms, df = dict(old.terms), dict(old.df)
        # Per term, the ids gone that named it and the new ones that do: one new set each, however
        # many writes came since the last state.
        unnamed: dict[str, set[str]] = {}
        newly: dict[str, set[str]] = {}
        worked = 0
        for node_id in old.nodes.keys() - graph.nodes.keys():
            entry = terms.pop(node_id)
            _uncount(df, entry[0])
            for term in entry[1]:
                unnamed.setdefault(term, set()).add(node_id)
        for node_id, node in graph.nodes.items():
            before = old.nodes.get(node_id)
            if before is node or (before is not None and before.gist == node.gist):
                continue
            if before is not None:
                _uncount(df, terms[node_id][0])
            terms[node_id] = entry = node_terms(node_id, node.gist)
            for term in entry[0]:
                df[term] = df.get(term, 0) + 1
            if before is None:  # what an id names never changes with its gist
                for term in entry[1]:
                    newly.setdefault(term, set()).add(node_id)
            worked += 1
            if worked % TERMS_PER_STEP == 0:
                yield
        named = dict(old.named)
        for term in unnamed.keys() | newly.keys():
            ids = (named.get(term, frozenset()) - unnamed.get(term, set())) | newly.get(term, set())
            if ids:
                named[term] = ids
            else:
                named.pop(term, None)
        state = _TermState(graph.gen, dict(graph.nodes), terms, df, named)
    _STATES[graph.lineage] = state
    return state


def _fresh_state(graph: GraphReader, terms: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]) -> _TermState:
    df = dict(Counter(chain.from_iterable(stems for stems, _ in terms.values())))
    naming: dict[str, set[str]] = {}
    for node_id, (_, names) in terms.items():
        for term in names:
            naming.setdefault(term, set()).add(node_id)
    named = {term: frozenset(ids) for term, ids in naming.items()}
    return _TermState(graph.gen, dict(graph.nodes), terms, df, named)


# A node's terms as a start may take them from its last run: (gist, stems, names), keyed by node id.
TermRow = tuple[str, tuple[str, ...], tuple[str, ...]]
# Words whose stems show the stemmer's rules; with the patterns and stoplists they make the fingerprint.
_PROBES = ("running", "connection", "billing", "caching", "retries", "authentication", "generously", "indexes")


def terms_fingerprint() -> str:
    """Changes whenever `node_terms` could answer differently: rows made under another one are not used."""
    parts = (_WORD.pattern, _ID_PARTS.pattern, DATE_RE.pattern, sorted(_STOP_STEMS), [stem(w) for w in _PROBES],
             unicodedata.unidata_version)  # what str.lower() does
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def term_rows(graph: GraphReader) -> dict[str, TermRow]:
    """Each node's terms as the graph's term counts hold them, for a later start to seed from."""
    terms = _term_state(graph).terms
    return {i: (node.gist, *terms[i]) for i, node in graph.nodes.items()}


def seed_terms(graph: GraphReader, rows: Mapping[str, TermRow]) -> int:
    """Build the graph's term counts, taking a node's terms from `rows` when they were made from the
    gist it has (its id is the key; both are all `node_terms` reads). Returns how many were computed."""
    terms: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    computed = 0
    for node_id, node in graph.nodes.items():
        row = rows.get(node_id)
        if row is not None and row[0] == node.gist:
            terms[node_id] = (row[1], row[2])
        else:
            terms[node_id] = node_terms(node_id, node.gist)
            computed += 1
    _STATES[graph.lineage] = _fresh_state(graph, terms)
    return computed


def _uncount(df: dict[str, int], stems: tuple[str, ...]) -> None:
    for term in stems:
        left = df[term] - 1
        if left:
            df[term] = left
        else:
            del df[term]


def _slug_terms(slug: str | None) -> set[str]:
    if not slug:
        return set()
    parts = _ALNUM.findall(slug.lower())
    return set(parts) | {stem(p) for p in parts} | {"".join(parts)}


def smeared_terms(graph: GraphReader, slug: str | None = None) -> list[Smear]:
    """Terms many nodes re-describe while one undated node's id plausibly owns them.

    Over all tiers: document frequency at least max(6, 8% of nodes) and at most
    a quarter of them; the hub is the best-connected undated node whose id has
    a part that is the term (as a word or by stem). Top 3 by frequency.
    """
    total = len(graph.nodes)
    low = max(C.HUB_MIN_HOLDERS, C.HUB_MIN_HOLDER_SHARE * total)
    high = C.HUB_MAX_HOLDER_SHARE * total
    if high < low:
        return []
    state = _term_state(graph)
    related = _slug_terms(slug)
    candidates = {t for t, count in state.df.items() if low <= count <= high and t not in related}
    if not candidates:
        return []
    namers = {term: state.named[term] for term in candidates if term in state.named}
    # Only terms as frequent as the top few can be among them (the count leads the order): picking a hub
    # for every term named costs ~30,000 degree look-ups at 10,000 nodes, and a start's DEBT line waits for it.
    if not namers:
        return []
    counts = sorted((state.df[term] for term in namers), reverse=True)
    floor = counts[min(C.DEBT_SMEARED_TOP, len(counts)) - 1]
    found: list[Smear] = []
    for term, hubs in namers.items():
        if state.df[term] < floor:
            continue
        hub = min(hubs, key=lambda i: (-graph.degree(i), not graph.nodes[i].active, i))
        found.append(Smear(_display(hub, term), state.df[term], hub))
    found.sort(key=lambda s: (-s.count, s.term))
    return found[:C.DEBT_SMEARED_TOP]


def _display(hub: str, term: str) -> str:
    """The word the hub's id uses for the term (`billing`, not the stem `bill`)."""
    for part in _ID_PARTS.split(hub.lower()):
        if part == term or stem(part) == term:
            return part
    return term


def _epoch_day(day: str) -> int | None:
    try:
        return (dt.date.fromisoformat(day) - _EPOCH).days
    except (TypeError, ValueError):
        return None


def active_days(graph: GraphReader, now: float, extra_days: Iterable[str] = ()) -> int:
    """Distinct UTC days among the last 7 (today included) with a node read or tool event."""
    today = int(now // C.DAY_SECONDS)
    first = today - C.DEBT_ACTIVITY_WINDOW_DAYS + 1
    days = {d for d in map(_epoch_day, extra_days) if d is not None}
    start = first * C.DAY_SECONDS
    for node in graph.nodes.values():
        ts = node.last_read_ts
        if ts is not None and start <= ts <= now:
            days.add(int(ts // C.DAY_SECONDS))
    return sum(1 for d in days if first <= d <= today)


def untended_days(graph: GraphReader, now: float) -> float | None:
    """Days since the last completed pass (its `maintain` stamp), or None if none completed: a cursor saved
    mid-pass is no stamp (core/pass_marks.py)."""
    last = pass_marks.completed_ts(graph.progress.get("maintain"))
    if last is None:
        return None
    return max(0.0, (now - last) / C.DAY_SECONDS)


@lru_cache(maxsize=1 << 17)
def _long_id(node_id: str) -> bool:
    return id_words(node_id) > C.NODE_ID_TARGET_WORDS or has_date(node_id)


def level_for(score: float) -> str:
    if score >= C.DEBT_LEVEL_HIGH:
        return "HIGH"
    return "MED" if score >= C.DEBT_LEVEL_MED else "LOW"


def compute_debt(
    graph: GraphReader,
    now: float,
    *,
    missing_touches: set[str] | frozenset[str] = frozenset(),
    activity_days: set[str] | frozenset[str] = frozenset(),
    slug: str | None = None,
) -> Debt:
    """The debt of one graph. `missing_touches` holds touch strings (as stored)
    whose `anchors.touch_paths` candidate did not exist; `activity_days` holds
    'YYYY-MM-DD' UTC days of tool-event traffic. `slug` defaults to the
    project folder's name."""
    return run_steps(debt_steps(graph, now, missing_touches=missing_touches, activity_days=activity_days, slug=slug))


def debt_steps(
    graph: GraphReader,
    now: float,
    *,
    missing_touches: set[str] | frozenset[str] = frozenset(),
    activity_days: set[str] | frozenset[str] = frozenset(),
    slug: str | None = None,
) -> Generator[None, None, Debt]:
    """compute_debt, yielding between its passes (each may walk every node): at 10,000 nodes the
    whole took one 100-150 ms step of the graph actor, which every hook in flight waited out."""
    yield from _term_state_steps(graph)  # the term counts, patched for what changed since the last state
    yield
    active = graph.ids_in_state("active")
    n = len(active)
    behind = _behind(graph, missing_touches)
    clusters, long_ids = behind.lift_clusters, behind.long_ids
    oversized, unconnected = len(behind.oversized), len(behind.unconnected)
    dangling, dangling_holders = behind.dangling_entries, behind.dangling
    if slug is None and graph.project_path:
        slug = posixpath.basename(graph.project_path.rstrip("/"))
    yield
    smeared = smeared_terms(graph, slug)
    lift_members = sum(len(c) for c in clusters)
    yield
    untended = untended_days(graph, now)
    staleness = 1.0 if untended is None else min(1.0, untended / C.DEBT_STALENESS_FULL_DAYS)
    days = active_days(graph, now, activity_days)
    activity = min(1.0, days / C.DEBT_ACTIVITY_FULL_DAYS)
    deficit = 0.0
    if n:
        deficit = (
            C.DEBT_WEIGHT_OVERSIZED * oversized / n
            + C.DEBT_WEIGHT_UNCONNECTED * unconnected / n
            + C.DEBT_WEIGHT_LONG_IDS * len(long_ids) / n
            + C.DEBT_WEIGHT_DANGLING * len(dangling_holders) / n
            + C.DEBT_WEIGHT_LIFT * lift_members / n
            + min(C.DEBT_SMEAR_CAP, C.DEBT_WEIGHT_SMEAR * len(smeared))
        )
    score = round(
        staleness
        * (C.DEBT_ACTIVITY_FLOOR + (1 - C.DEBT_ACTIVITY_FLOOR) * activity)
        * (C.DEBT_DEFICIT_FLOOR + (1 - C.DEBT_DEFICIT_FLOOR) * min(1.0, deficit)),
        2,
    )
    examples = sorted(long_ids, key=lambda i: (-len(i), i))[:C.DEBT_LONG_ID_EXAMPLES]
    return Debt(
        level=level_for(score), score=score, nodes=n, oversized=oversized, unconnected=unconnected,
        long_ids=len(long_ids), long_id_examples=tuple(examples), dangling_touches=dangling,
        dangling_nodes=len(dangling_holders), lift_clusters=tuple(tuple(c) for c in clusters),
        smeared=tuple(smeared), untended_days=None if untended is None else min(untended, C.DEBT_STALENESS_FULL_DAYS),
        active_days=days, staleness=staleness, activity=activity, deficit=deficit,
    )


@attrs.frozen
class DebtNodes:
    """The nodes behind each wear factor of `compute_debt` (sorted ids), so a person can act on them."""

    oversized: list[str]
    unconnected: list[str]
    long_ids: list[str]
    dangling: list[str]  # active nodes holding a touch that no longer resolves
    dangling_entries: int
    lift_clusters: list[list[str]]


def _behind(graph: GraphReader, missing_touches: set[str] | frozenset[str], ordered: bool = False) -> DebtNodes:
    """`ordered` sorts the lists (for people); the score needs only their lengths."""
    order = sorted if ordered else list
    active = graph.ids_in_state("active")
    clusters, clustered = lift_clusters(graph)
    nodes = graph.nodes
    # A lifted or clustered episode is an episode, not a badly named subject.
    long_ids = [i for i in active if _long_id(i) and i not in clustered and not is_lifted(graph, i)]
    entries, holders = dangling_touches(graph, missing_touches)
    return DebtNodes(
        oversized=order(i for i in active if len(nodes[i].gist) > C.GIST_SOFT_LIMIT),
        # A graph's only active node has nothing to be linked to: not a debt, nor a chore to dispatch.
        unconnected=order(i for i in active if not graph.degree(i)) if len(active) > 1 else [],
        long_ids=order(long_ids), dangling=holders,
        dangling_entries=entries, lift_clusters=[list(c) for c in clusters],
    )


def debt_nodes(graph: GraphReader, missing_touches: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """JSON-ready lists of the nodes behind each DEBT factor, and which touches dangle per node."""
    behind = _behind(graph, missing_touches, ordered=True)
    missing = {i: [t for t in graph.nodes[i].touches if t in missing_touches] for i in behind.dangling}
    return {
        "oversized": behind.oversized, "unconnected": behind.unconnected, "long_ids": behind.long_ids,
        "dangling": behind.dangling, "dangling_touches": missing, "lift_clusters": behind.lift_clusters,
        "smeared": [{"term": s.term, "count": s.count, "hub": s.hub} for s in smeared_terms(graph, _slug(graph))],
    }


def _slug(graph: GraphReader) -> str | None:
    return posixpath.basename(graph.project_path.rstrip("/")) if graph.project_path else None


def debt_line(debt: Debt) -> str:
    tended = "never maintained" if debt.untended_days is None else f"untended {int(debt.untended_days)}d"
    line = (
        f"DEBT: {debt.level} ({debt.score:.2f}) — {debt.oversized} oversized gist(s), "
        f"{debt.long_ids} long id(s), {debt.unconnected} unconnected, "
        f"{debt.dangling_touches} dangling touch(es), {len(debt.lift_clusters)} lift cluster(s), "
        f"{tended}, active {debt.active_days}/{C.DEBT_ACTIVITY_WINDOW_DAYS}d"
    )
    if debt.smeared:
        line += " — smeared: " + ", ".join(f"{s.term}×{s.count}→{s.hub}" for s in debt.smeared)
    if debt.level == "HIGH":
        line += " — worth a /kg-maintain pass (or a maintenance subagent) now"
    return line


def debt_dict(debt: Debt) -> dict[str, Any]:
    """JSON-ready, for GET /api/maintenance_debt rows and tests."""
    return {
        "level": debt.level,
        "score": debt.score,
        "nodes": debt.nodes,
        "oversized": debt.oversized,
        "long_ids": debt.long_ids,
        "long_id_examples": list(debt.long_id_examples),
        "unconnected": debt.unconnected,
        "dangling_touches": debt.dangling_touches,
        "dangling_nodes": debt.dangling_nodes,
        "lift_clusters": [list(c) for c in debt.lift_clusters],
        "lift_members": debt.lift_members,
        "smeared": [{"term": s.term, "count": s.count, "hub": s.hub} for s in debt.smeared],
        "never_maintained": debt.never_maintained,
        "untended_days": None if debt.untended_days is None else round(debt.untended_days, 2),
        "active_days": debt.active_days,
        "staleness": round(debt.staleness, 4),
        "activity": round(debt.activity, 4),
        "deficit": round(debt.deficit, 4),
        "line": debt_line(debt),
    }
