"""The search core: an inverted index per graph and RRF ranking (the paths between hits: search_paths.py).

Terms come from `terms.py` and match whole tokens (`store` never hits
`restore`). A graph's owner keeps one `SearchIndex` current per write, so a
query costs the postings of its own terms, not a scan of the graph. Per term,
nodes rank by field-weighted count and add sharpened-IDF / (60 + rank): rare
terms lead, and several corroborating terms beat one loud one.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import attrs

from .held_names import name_held
from . import constants as C
from . import rrf, search_top
from .errors import InvalidInput
from .expand import family_key
from .ids import has_date
from .model import GraphReader, Node
from .postings import Postings
from .term_order import BITS_MIN, ORDER_MIN, TermOrders, sort_by_rank
from .terms import Terms, field_counts, is_bigram, query_terms, stem

Ref = tuple[str, str]  # (level, node_id)


def node_postings(node: Node) -> dict[str, int]:
    """A node's terms, each as one packed int: weighted count << 1 | found in id or gist.

    One int per posting (not a count plus a set of title holders) because the
    postings are the index's whole memory cost at 10,000 nodes.
    """
    counts, title = field_counts((
        (C.SEARCH_WEIGHT_ID, True, (node.id,)),
        (C.SEARCH_WEIGHT_GIST, True, (node.gist,)),
        (C.SEARCH_WEIGHT_BODY, False, indexed_notes(node.notes)),
        (C.SEARCH_WEIGHT_BODY, False, node.touches),
    ))
    return {term: count << 1 | (term in title) for term, count in counts.items()}


def indexed_notes(notes: Iterable[str], budget: int = C.SEARCH_NOTES_INDEX_CHARS) -> list[str]:
    """The notes as far as search reads them: their first `budget` characters, cut at a space.

    A node's index entry is made on the graph actor's loop with every write, and its cost grows
    with the text: 200 notes at the 20,000-character limit took 2.4-3 s a write, every hook
    waiting behind it. A lesson says what matters early; what a long note says after this many
    characters is still stored and read, only not searched."""
    out: list[str] = []
    for note in notes:
        if len(note) >= budget:
            cut = note.rfind(" ", 0, budget)
            out.append(note[:cut if cut > 0 else budget])
            break
        out.append(note)
        budget -= len(note)
    return out


def id_names(node_id: str) -> set[str]:
    """The words an id names (its dash-separated parts) and their stems: what a hub's id must name."""
    parts = [p for p in node_id.lower().split("-") if p]
    return {*parts, *map(stem, parts)}


def hub_terms(node_id: str, terms: Mapping[str, int]) -> list[str]:
    """The terms a node could be the hub of: words its id names that it holds in its id or gist
    (`terms`: its `node_postings`). A dated id is an episode, never a hub."""
    if has_date(node_id):
        return []
    return [t for t in id_names(node_id) if len(t) > 1 and terms.get(t, 0) & 1]  # a lone "5" is no subject


def in_title(packed: int) -> bool:
    return bool(packed & 1)


def base_idf(df: int, n: int) -> float:
    """log(N/df)/log(N): 1 for a term one node holds, low for one every node holds, never 0.

    A matching term always counts: in a graph where every node says "redis",
    `redis` still finds them all (ranked by where they say it and by the other
    terms), it just weighs little next to a rarer term. Hence the floor.
    """
    if n <= 1 or df <= 0:
        return 1.0
    return max(C.SEARCH_IDF_FLOOR, math.log(n / df) / math.log(n))


def sharpened(idf: float) -> float:
    return idf ** C.SEARCH_IDF_SHARPNESS if idf > 0 else 0.0


def term_weight(df: int, n: int) -> float:
    """What a term weighs in a graph of `n` nodes, `df` of which hold it (0 when none does)."""
    return sharpened(base_idf(df, n)) if df > 0 else 0.0


class SearchIndex:
    """Term → {node id: packed weighted count} for one graph, kept current per write."""

    def __init__(self, order_min: int = ORDER_MIN, bits_min: int = BITS_MIN) -> None:
        self._names: list[str] = []  # number -> id; an id keeps its number for the index's life
        self._numbers: dict[str, int] = {}
        self.postings = Postings(self._names, self._numbers)  # compact (postings.py)
        self.gen = -1  # the graph generation last synced
        # What each entry was built from: frozen, so removal re-derives its terms
        # and `sync` spots a changed node by identity.
        self.nodes: dict[str, Node] = {}
        # Per term held by two nodes or more: its holders with it in their id or gist (`title_holders`). A
        # lone holder's term (most of them: word pairs) reads its posting instead: ~3 MiB less at 10,000 nodes.
        self.title_counts: dict[str, int] = {}
        # Per term, the undated ids that name it and hold it in their id or gist (hub_terms): the hub
        # candidates, kept per write so a hint reads them straight (a Postings of zero counts: compact too).
        self.hub_namers = Postings(self._names, self._numbers)
        # Per stem family key (expand.family): the stems held with a longer form of it (verifi → verif).
        self.families: dict[str, set[str]] = {}
        # Per common term: its holders in rank order, kept by the writes (term_order.py).
        self.orders = TermOrders(self._names, order_min, bits_min)
        self._bulk = False  # building: orders are sorted once at the end, not kept per node
        # Per node holding a secret a hand edit left: what an agent is shown of it, whose words alone are filed
        # (withheld.visible), so a right guess of a withheld word ranks it as a wrong one does.
        self.shown: dict[str, Node] = {}

    @classmethod
    def build(cls, graph: GraphReader, order_min: int = ORDER_MIN, bits_min: int = BITS_MIN) -> SearchIndex:
        """A whole index (off the event loop), each common term's order sorted once at the end."""
        index = cls(order_min, bits_min)
        index._bulk = True
        index.sync(graph)
        index._bulk = False
        for term in index.postings:
            if index.postings.df(term) >= index.orders.least:
                index._put_order(term)
        index.postings.compact()
        index.hub_namers.compact()
        return index

    def ids_by_number(self) -> list[str]:
        """Every id the index has numbered, in number order (a fresh build's: its graph's node order)."""
        return list(self._names)

    def _tables(self) -> dict[str, dict[str, Any]]:
        return {"postings": self.postings.table(), "orders": self.orders.table(), "hubs": self.hub_namers.table(),
                "titles": self.title_counts, "families": self.families}

    def pieces(self, size: int) -> Iterator[Any]:
        """The index as pieces that each pickle and unpickle quickly: first itself with its big tables
        emptied (and without its nodes), then its terms `size` at a time, each with what every table holds
        for it (one string per term on the other side, not one per table: ~3 MiB at 10,000 nodes), then
        any rest as (table, entries). Handing a large index over a pipe in one pickle would hold the
        interpreter lock for the whole unpickling (~80 ms at 10,000 nodes); the receiver loads the first and
        `take_piece`s the rest, one at a time. Empties this index."""
        tables = {name: dict(table) for name, table in self._tables().items()}
        for table in self._tables().values():
            table.clear()
        self.nodes = {}
        yield self
        terms = list(tables["postings"])
        per_term = [tables[name] for name in _PER_TERM]  # emptied term by term: what is left follows
        for start in range(0, len(terms), size):
            yield "terms", [(t, *(table.pop(t, None) for table in per_term)) for t in terms[start:start + size]]
        for name, table in tables.items():
            items = list(table.items())
            for start in range(0, len(items), size):
                yield name, dict(items[start:start + size])

    def take_piece(self, piece: tuple[str, Any]) -> None:
        """Put back one of the pieces `pieces` gave after the index itself (in any order)."""
        name, entries = piece
        if name != "terms":
            self._tables()[name].update(entries)
            return
        tables = [self._tables()[name] for name in _PER_TERM]
        for term, *values in entries:
            for table, value in zip(tables, values):
                if value is not None:
                    table[term] = value

    def adopt_ids(self, ids: list[str]) -> None:
        """Number the nodes with these strings, equal to the index's own ids in number order (a graph's
        own, so that the index holds no second copy of each)."""
        self._names[:] = ids
        self._numbers.clear()
        self._numbers.update((node_id, n) for n, node_id in enumerate(ids))

    def title_holders(self, term: str) -> int:
        """How many nodes hold `term` in their id or gist."""
        if self.postings.df(term) == 1:
            return self.postings.numbered(term)[0][1] & 1
        return self.title_counts.get(term, 0)

    @property
    def size(self) -> int:
        """N for the IDF: every node of the graph, all tiers."""
        return len(self.nodes)

    def df(self, term: str) -> int:
        return self.postings.df(term)

    def update_node(self, node: Node, visible: Node | None = None) -> None:
        """File `node` by its words; by those of `visible` (what an agent is shown of it) when it holds a
        secret. Without `visible`, a node of the same text stays filed as it was."""
        held = self.nodes.get(node.id)
        if held is node and (visible is None or _text(self.shown.get(node.id, held)) == _text(visible)):
            return
        if name_held(node.id):  # never found: its id holds a secret a hand edit left (held_names.py)
            return
        if held is not None and _text(held) == _text(node) and (
                visible is None or _text(self.shown.get(node.id, held)) == _text(visible)):
            self.nodes[node.id] = node  # a read stamp or a tier move: the same terms
            return
        self.remove_node(node.id)
        number = self._number(node.id)
        terms = node_postings(node if visible is None else visible)
        if visible is not None:
            self.shown[node.id] = visible
        for term in self.postings.add(number, terms):
            key = _family(term)
            if key != term:  # the stems that are their own key are found in postings
                self.families.setdefault(key, set()).add(term)
        self._count_titles(terms, 1)
        if not self._bulk:
            self._orders_add(number, terms)
        self.hub_namers.add(number, dict.fromkeys(hub_terms(node.id, terms), 0))
        self.nodes[node.id] = node

    def remove_node(self, node_id: str) -> None:
        node = self.nodes.pop(node_id, None)
        if node is None:
            return
        number = self._numbers[node_id]
        terms = node_postings(self.shown.pop(node_id, node))  # as it was filed
        orders = self.orders
        for term in filter(orders.__contains__, terms):
            orders.remove(term, number, _count(terms[term]))
        self._count_titles(terms, -1)
        for term in self.postings.remove(number, terms):
            key = _family(term)
            kin = self.families.get(key)
            if kin is not None:
                kin.discard(term)
                if not kin:
                    del self.families[key]
        self.hub_namers.remove(number, hub_terms(node_id, terms))

    def sync(self, graph: GraphReader) -> None:
        """Catch up with `graph` when its gen moved (an edge-only change costs a scan of ids)."""
        if graph.gen == self.gen:
            return
        for node_id in [i for i in self.nodes if i not in graph.nodes]:
            self.remove_node(node_id)
        for node in graph.nodes.values():
            self.update_node(node)
        self.gen = graph.gen

    def ordered(self, term: str, limit: int | None = None) -> list[str]:
        """Holders of `term`, most weighted occurrences first (ties by id); the first `limit` of them.

        Reads only: a common term's order is kept by the writes; a rare one's few holders are sorted here."""
        ids = self.orders.ids(term, limit)
        if ids is None:
            ranked = sort_by_rank(((n, _count(p)) for n, p in self.postings.numbered(term)), self._names)
            ids = [self._names[n] for n, _ in (ranked if limit is None else ranked[:limit])]
        return ids

    def rank_of(self, term: str, node_id: str) -> int | None:
        """Where `node_id` stands in `ordered(term)` (0 first); None when it does not hold the term."""
        return self.ranks_of(term, (node_id,)).get(node_id)

    def ranks_of(self, term: str, node_ids: Iterable[str]) -> dict[str, int]:
        """Where each of `node_ids` that holds `term` stands in `ordered(term)`, in one pass: a common
        term's bitmap turns a non-holder away before any search of its posting."""
        if term not in self.orders:
            ordered = self.ordered(term)
            wanted = set(node_ids)
            return {nid: i for i, nid in enumerate(ordered) if nid in wanted}
        numbers, packed_of, index_of = self._numbers, self.postings.packed, self.orders.index_of
        bits = self.orders.bits(term) or b""
        top = len(bits)
        out = {}
        for nid in node_ids:
            number = numbers.get(nid)
            if number is None or (bits and (number >> 3 >= top or not bits[number >> 3] >> (number & 7) & 1)):
                continue
            packed = packed_of(term, number)
            if packed is not None:
                out[nid] = index_of(term, number, _count(packed))
        return out

    def holder_numbers(self, term: str) -> Iterable[int]:
        """The numbers of the nodes holding `term`, in no promised order."""
        kept = self.orders.numbers(term)
        return kept if kept is not None else (n for n, _ in self.postings.numbered(term))

    def matching(self, terms: Iterable[str]) -> int:
        """How many nodes hold at least one of `terms`: common terms' bitmaps OR'd, the others' holders
        checked against them one by one."""
        union, rest = 0, set[int]()
        for term in terms:
            bits = self.orders.bits(term)
            if bits is not None:
                union |= int.from_bytes(bits, "little")
            else:
                rest.update(self.holder_numbers(term))
        if not union:
            return len(rest)
        held = union.to_bytes((union.bit_length() + 7) >> 3, "little")
        top = len(held)
        return union.bit_count() + sum(1 for n in rest if n >> 3 >= top or not held[n >> 3] >> (n & 7) & 1)

    def hub_candidates(self, term: str) -> list[str]:
        """The undated ids naming `term` (a word of theirs, or its stem) that hold it in their id or gist."""
        return list(map(self._names.__getitem__, self.hub_namers.holders(term)))

    def names(self, term: str, node_id: str) -> bool:
        """Whether `node_id` is one of `hub_candidates(term)` (a look-up, not the list)."""
        number = self._numbers.get(node_id)
        return number is not None and self.hub_namers.packed(term, number) is not None

    def _number(self, node_id: str) -> int:
        number = self._numbers.get(node_id)
        if number is None:
            number = self._numbers[node_id] = len(self._names)
            self._names.append(node_id)
        return number

    def _count_titles(self, terms: Mapping[str, int], step: int) -> None:
        """A node's terms just added to the postings (step 1), or about to leave them (-1): the title counts
        of the terms held by two nodes or more (title_counts)."""
        titles, df = self.title_counts, self.postings.df
        for term, packed in terms.items():
            held = df(term)
            if held == 2 and step > 0:  # shared from now on: counted from both holders
                if count := sum(p & 1 for _, p in self.postings.numbered(term)):
                    titles[term] = count
            elif held == 2:  # left to one holder: its posting says
                titles.pop(term, None)
            elif held > 2 and packed & 1:
                if left := titles.get(term, 0) + step:
                    titles[term] = left
                else:
                    del titles[term]

    def _put_order(self, term: str) -> None:
        self.orders.put(term, ((n, _count(p)) for n, p in self.postings.numbered(term)))

    def _orders_add(self, number: int, terms: Mapping[str, int]) -> None:
        """Node `number` (just added to the postings) into each common term's order; a term that just
        became common gets its order whole."""
        orders, df = self.orders, self.postings.df
        for term, packed in terms.items():
            if term in orders:
                orders.insert(term, number, _count(packed))
            elif df(term) >= orders.least:
                self._put_order(term)


# The tables sent with each term by `pieces` (each holds only terms the postings hold).
_PER_TERM = ("postings", "orders", "hubs", "titles")


def _text(node: Node) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    return node.gist, node.notes, node.touches


def _count(packed: int) -> int:
    """The weighted count a packed posting ranks by, as the postings hold it (capped)."""
    return min(packed, (1 << 32) - 1) >> 1


@attrs.frozen
class Hit:
    node_id: str
    score: float
    matched_terms: int  # unigrams matched
    max_term_idf: float  # base (unsharpened) IDF of its rarest matched term
    title_match: bool  # a unigram, or an adjacent pair, found in its id or gist
    seen: bool = False
    id_share: float = 0.0  # prompt recall: the share of its id's words (by IDF) the query names
    # Prompt recall's model (recall_gate.py), over each concept's first term the node holds: the IDF of those that
    # are words (weighed as the concept weighs them), how many are in its id or gist, whether one is a pair.
    idf_sum: float = 0.0
    titled_terms: int = 0
    pair_matched: bool = False


_NO_POSTING: Mapping[str, int] = {}
# Uncached: the index asks once per new term, and `family`'s cache would keep every term (~5 MiB at N = 10,000).
_family = family_key


def parse_query(query: object) -> Terms:
    """A query's terms, or InvalidInput naming what is wrong with it."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query", "must contain at least one word")
    if len(query) > C.QUERY_MAX_CHARS:
        raise InvalidInput("query", f"is {len(query)} characters; at most {C.QUERY_MAX_CHARS}")
    terms = query_terms(query, short=True)
    if not terms and any(c.isalnum() for c in query):
        raise InvalidInput("query", "holds only words too common to search (such as 'a' or 'I'); add a word "
                                    "naming what to find")
    if not terms:
        raise InvalidInput("query", "must contain at least one word")
    return terms


def score_terms(index: SearchIndex, terms: Iterable[str], exclude: str | None = None,
                depth: int | None = None, scores: dict[str, float] | None = None) -> dict[str, float]:
    """RRF scores over `terms`, as if node `exclude` were not in the graph.

    `depth` scores only each term's first `depth` holders: enough to find the
    best match (rank r adds at most 60/(60+r) of rank 0) at a fraction of the
    cost of a common term's whole posting list. `scores`: go on adding to these
    (the terms of one query in several calls sum exactly as in one).
    """
    own = node_postings(index.nodes[exclude]) if exclude in index.nodes else {}
    n = index.size - (exclude in index.nodes)
    scores = {} if scores is None else scores
    get = scores.get
    for term in terms:
        df = index.df(term) - (term in own)
        weight = term_weight(df, n)
        if weight <= 0:
            continue  # held by no node but the excluded one
        order = index.ordered(term, None if depth is None else depth + 1)
        if term in own:
            order = [i for i in order if i != exclude]
        for nid, share in zip(order, rrf.weights(len(order))):
            scores[nid] = get(nid, 0.0) + weight * share
    return scores


Looked = list[tuple[str, float, Mapping[str, int]]]  # (term, base idf, posting)
Meta = tuple[dict[str, int], dict[str, float], set[str]]  # matched unigrams, rarest idf, title hits


def _meta_by_hit(best: list[str], looked: Looked) -> Meta:
    """Per hit, one lookup per term: cheap for the handful a reply shows."""
    matched, rarest, titled = dict.fromkeys(best, 0), dict.fromkeys(best, 0.0), set()
    for nid in best:
        for term, idf, posting in looked:
            packed = posting.get(nid)
            if packed is not None:
                matched[nid] += not is_bigram(term)
                rarest[nid] = max(rarest[nid], idf)
                if in_title(packed):
                    titled.add(nid)
    return matched, rarest, titled


def _meta_by_term(best: list[str], looked: Looked) -> Meta:
    """Per term, one walk of its posting: cheap when most matching nodes are wanted."""
    matched, rarest, titled = dict.fromkeys(best, 0), dict.fromkeys(best, 0.0), set()
    for term, idf, posting in looked:
        unigram = not is_bigram(term)
        for nid, packed in posting.items():
            if nid in matched:
                matched[nid] += unigram
                if idf > rarest[nid]:
                    rarest[nid] = idf
                if packed & 1:  # in_title, inlined: this loop walks whole postings
                    titled.add(nid)
    return matched, rarest, titled


def top_hits(
    index: SearchIndex, terms: Terms, seen: AbstractSet[str] = frozenset(), limit: int | None = None,
    depth: int | None = None,
) -> tuple[list[Hit], int]:
    """The best `limit` hits (all when None) and how many nodes matched at all.

    `depth` (see `score_terms`) bounds the work per term for callers that want only the best few
    and can live with a count of the matches seen rather than all of them (prompt recall).
    """
    found = None
    if depth is None and limit is not None:  # the best few, exactly: no need to walk every holder
        n = index.size
        live = [(t, term_weight(df, n), df) for t in terms.all() if (df := index.df(t)) > 0]
        found = search_top.best_scores(index, live, limit)
    scores, matching = found or (score_terms(index, terms.all(), depth=depth), None)
    if limit is not None and limit < len(scores):
        # The limit-th best score, then everything tied with it: ties go by id.
        floor = heapq.nlargest(limit, scores.values())[-1]
        best = [nid for nid, score in scores.items() if score >= floor]
    else:
        best = list(scores)
    best.sort(key=lambda nid: (-scores[nid], nid))
    if limit is not None:
        del best[limit:]
    n = index.size
    looked: Looked = [(t, base_idf(index.df(t), n), index.postings.get(t, _NO_POSTING)) for t in terms.all()]
    looked = [(t, idf, posting) for t, idf, posting in looked if posting and idf > 0]
    meta = _meta_by_hit if len(best) * len(looked) < sum(len(p) for _, _, p in looked) else _meta_by_term
    matched, rarest, titled = meta(best, looked)
    hits = [Hit(nid, scores[nid], matched[nid], rarest[nid], nid in titled, nid in seen) for nid in best]
    return hits, len(scores) if matching is None else matching


def rank(index: SearchIndex, terms: Terms, seen: AbstractSet[str] = frozenset()) -> list[Hit]:
    """Every node of the graph matching a term, best first (all tiers)."""
    return top_hits(index, terms, seen)[0]


def merge_hits(per_level: Mapping[str, list[Hit]]) -> list[tuple[str, Hit]]:
    """One ranking across levels by score; a (level, id) found twice keeps its best."""
    best: dict[Ref, Hit] = {}
    for level, hits in per_level.items():
        for hit in hits:
            held = best.get((level, hit.node_id))
            if held is None or hit.score > held.score:
                best[(level, hit.node_id)] = hit
    order = {level: i for i, level in enumerate(per_level)}
    merged = [(level, hit) for (level, _), hit in best.items()]
    merged.sort(key=lambda lh: (-lh[1].score, order[lh[0]], lh[1].node_id))
    return merged

