"""Prompt recall: what a person typed, its terms, the three gates, and the injection.

Only human text takes part (task notifications and image placeholders inject
nothing; a path reduces to its file name), and the name of the error a paste
around it reports and the identifiers it holds (paste_keys.py). A hit must
clear a score threshold (stricter with more terms, and more so for each search
word a long prompt brings: chance_scale; a request for general know-how or a
task to carry out asks more still: asks.py), show evidence (two prompt terms, a near-unique
term, or a term in its own id or gist), and the injection must bring something
new. A logistic model's second opinion (recall_gate.py), which reads each
candidate's likeness in meaning to the prompt beside its search numbers, drops
a new hit it thinks unlikely wanted, brings its likeliest candidate where the
gates chose nothing, and one beside the gates' hits. Silence is the default; every decision is returned
with its reason so the caller can log it. A prompt word matches by itself, by its stem family or by a
near-synonym, the latter two weighing less (search_concepts.py, expand.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeGuard

import attrs

from .withheld import visible
from .withheld_terms import by_withheld_words
from . import cjk, constants as C, meaning, private_text, recall_compounds, recall_gate
from .model import Edge, GraphReader, Node
from .held_words import cut_words
from .paste_keys import error_message, pasted_words
from .plain_text import clipped, one_line
from .recall_bars import chance_scale, evidence, multi_bar, names_its_id, rank, strong
from .search import Hit, SearchIndex, merge_hits
from .search_paths import connection_paths, joined
from .search_concepts import concept_hits
from .seen import AtLevel
from .terms import HUMP as _HUMP, Terms, analyse, bigrams, is_stopword, query_terms
from .typed import is_continuation, typed_part

NOT_PROMPT_MARKERS = ("<task-notification>", "[SYSTEM NOTIFICATION", "<command-name>", "<command-message>",
                      "<local-command-stdout>", "<local-command-caveat>")
# A `!` shell command and what it printed reach the prompt hook as user messages opening with these tags:
# output, not a request. Only at the start: a person may name a tag in a question.
SHELL_RECORD_TAGS = ("<bash-input>", "<bash-stdout>", "<bash-stderr>")
_IMAGE = re.compile(r"\[Image[^\]\n]{0,200}\]")
_WORD = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_\-.]*|[{cjk.LETTERS}]+")
_CONTRACTION = re.compile(r"(?i)n't\b|'(?:s|re|ll|ve|d|m)\b")  # "don't" is "do", not the term "don"
FULL_READ_REMINDER = (
    "KG preload is a PARTIAL view — the full graph is NOT in context yet. Call kg_read(session_id) once "
    "before substantive work; it renders everything the preload dropped without repeating it."
)
HEADER = "KG recall — memory matching this prompt:"


def no_preload_reminder(sid: str) -> str:
    """For a session whose preload never reached the agent (its SessionStart hook gave up waiting)."""
    return (f"KG memory: no preload reached this conversation (the session start hook gave up waiting), so no "
            f"memory is in context. Your session is {sid}: call kg_read(session_id='{sid}') once before "
            "substantive work; it renders the graph.")

Ref = tuple[str, str]


_SPACE = "\ue000"  # stands for a space inside one path while the prompt is split into words
_QUOTES = "'\"`"


def _quoted_paths(text: str) -> str:
    """A quoted span holding a `/` is a path (perhaps with spaces): keep one word for it.

    A linear hand scan (no regex backtracking over a 20,000-character prompt).
    """
    if not any(q in text for q in _QUOTES):
        return text  # most prompts: no scan at all
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _QUOTES and (i == 0 or text[i - 1].isspace() or text[i - 1] in "(["):
            end = text.find(c, i + 1)
            newline = text.find("\n", i + 1)
            closes = end != -1 and (end + 1 == n or not text[end + 1].isalnum())
            if closes and (newline == -1 or end < newline) and "/" in text[i + 1:end]:
                out.append(text[i + 1:end].replace(" ", _SPACE))
                i = end + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def is_prompt(prompt: object) -> TypeGuard[str]:
    """Sent by a person: text that is not a task notification or a command record."""
    return (isinstance(prompt, str) and not any(marker in prompt for marker in NOT_PROMPT_MARKERS)
            and not prompt.lstrip().startswith(SHELL_RECORD_TAGS))


def human_text(prompt: object) -> str | None:
    """The part a person typed, paths reduced to file names, then the name of the error a paste
    around it reports; None when it is not a prompt.

    Task notifications and command records are not prompts, nor is a bare
    continuation; pasted machine output is not typed (core/typed.py); image
    placeholders and dragged paths are not typed words (a path still counts by its file name,
    which can match a node's touches, but never as the text that earns recall). Once the typed
    words earned recall, the name of the error a paste reports follows them, and the identifiers it
    holds (core/paste_keys.py).
    """
    if not is_prompt(prompt):
        return None
    # Pasted output (logs, tables, traces, diffs, JSON) is cut out by its shape: what is left was typed.
    # Text inside <private> is the user's to keep: never searched, so none of its words reach the log.
    whole = _IMAGE.sub(" ", private_text.strip_private(prompt[: C.RECALL_PROMPT_MAX_CHARS]))
    typed = typed_part(whole)
    if is_continuation(typed):
        return None  # "continue", "ok do it": a nudge to carry on asks nothing of memory
    text = _quoted_paths(typed.replace("\\ ", _SPACE))
    words = []
    plain = 0
    for token in text.split():
        stripped = token.strip("'\"`()[]{}<>,;")
        if "/" in stripped:
            name = stripped.rstrip("/").rsplit("/", 1)[-1].replace(_SPACE, " ")
            if name:
                words.append(name)
            continue
        token = token.replace(_SPACE, " ")
        words.append(token)
        plain += len(token) + cjk.word_letters(token)  # 回滚流程是什么 says as much as a Latin line twice as long
    if plain < C.RECALL_MIN_PROMPT_CHARS:
        return None
    # The typed words earned recall; a paste around them adds the error it reports and the identifiers it holds,
    # and, to a question naming next to nothing ("why does this fail?"), the words of its error's message.
    names, identifiers = pasted_words(whole, typed)
    vague = len(prompt_terms(" ".join(words))) <= C.RECALL_VAGUE_WORDS
    message = error_message(whole, typed) if vague and typed != whole else []
    return " ".join(words + names + message + identifiers)


def prompt_terms(text: str) -> list[str]:
    """The prompt's search words: lowercase, stopwords and words under 3 characters dropped, at most
    RECALL_MAX_TERMS (a long prompt's later words count too: chance_scale asks more of its hits)."""
    seen: dict[str, str] = {}  # lowercase -> as first written (a camelCase word counts by its parts)
    for word in _WORD.findall(_CONTRACTION.sub("", text.replace("\u2019", "'"))):
        if cjk.has_any(word):  # a run of Chinese, Japanese or Korean: the words a query asks (cjk.py)
            for asked in cjk.asked(word)[: C.RECALL_MAX_TERMS - len(seen)]:
                seen.setdefault(asked, asked)
            if len(seen) >= C.RECALL_MAX_TERMS:
                break
            continue
        word = word.strip("./-_")
        lowered = word.lower()
        if len(word) >= C.RECALL_MIN_TERM_CHARS and not is_stopword(lowered):
            seen.setdefault(lowered, word if _HUMP.search(word) else lowered)
        if len(seen) >= C.RECALL_MAX_TERMS:
            break
    return list(seen.values())


@attrs.frozen
class Decision:
    reason: str  # injected | no_hits | weak_hit | vetoed | all_seen | no_terms
    text: str | None = None
    shown: tuple[Ref, ...] = ()  # refs whose gists were injected (now seen)
    hits: tuple[dict[str, Any], ...] = ()
    threshold: float = 0.0
    cut: frozenset[Ref] = frozenset()  # of `shown`, those whose gist was cut short (in context, not seen whole)


def run(terms: list[str], views: Mapping[str, tuple[GraphReader, SearchIndex]], seen: AbstractSet[Ref],
        ask_scale: float = 1.0, question: bool = False, text: str | None = None,
        table: meaning.Table | None = None) -> Decision:
    """Prompt recall over the session's graphs (level -> (graph, its search index)): the whole decision.
    `seen`: the (level, id) of what the session holds (the other level's node of an id is another node);
    `ask_scale`: how much more score what the prompt asks for needs (asks.ask_scale of its text);
    `question`: whether its text holds a question mark (recall_gate reads it); `text`: the human text
    the terms came from, whose likeness in meaning to each candidate the model reads by `table`
    (core/meaning.py; none without either)."""
    # A Chinese clause is one run: its words are the stretches of it the graphs hold (held_words.py).
    terms = cut_words(terms, (index for _, index in views.values()))
    if not terms:
        return Decision("no_terms")
    words = _word_numbers(terms)
    query, ranked = search(terms, views, seen, words)
    graphs = {lvl: graph for lvl, (graph, _) in views.items()}
    like = likeness(text, table, graphs)
    rated = [(ref, recall_gate.probability(values)) for ref, values in
             recall_gate.candidates(ranked, views, len(terms), len(query.unigrams), ask_scale, question, like)]
    borrowed = recall_compounds.Borrowed(views, query, words)
    return decide(terms, ranked, graphs, seen, len(query.unigrams), ask_scale, rated, borrowed, like)


def likeness(text: str | None, table: meaning.Table | None,
             graphs: Mapping[str, GraphReader]) -> Callable[[Ref], float | None]:
    """Each candidate's likeness in meaning to the prompt's `text`, None where it cannot be told (each asked once)."""
    of_text = meaning.Likeness(text, table)
    known: dict[Ref, float | None] = {}

    def like(ref: Ref) -> float | None:
        if ref not in known:
            graph = graphs.get(ref[0])
            node = graph.nodes.get(ref[1]) if graph is not None else None
            if graph is None or node is None:
                known[ref] = None
            else:
                # What an agent is shown of it (the search checked it already): a withheld field's words would make
                # a right guess of its secret likelier than a wrong one.
                shown = graph.lineage.mask.node(node)
                read = node if shown is node else visible(node, shown)
                known[ref] = of_text(read.id, read.gist, read.notes)
        return known[ref]

    return like


def search(terms: list[str], views: Mapping[str, tuple[GraphReader, SearchIndex]], seen: AbstractSet[Ref],
           words: Mapping[str, int] | None = None) -> tuple[Terms, list[tuple[str, Hit]]]:
    """The prompt's query and its best RECALL_SEARCH_TOP hits over all levels (`words`: _word_numbers
    of `terms`, when the caller has them already)."""
    query = _content_terms(query_terms(" ".join(terms)))
    words = _word_numbers(terms) if words is None else words
    per_level = {}
    for lvl, (graph, index) in views.items():
        # A hit found only by a withheld field's words is none (decide): the next best takes its place, as it
        # would for a wrong guess of the secret (withheld_terms.py).
        limit, top = C.RECALL_SEARCH_TOP, C.RECALL_SEARCH_TOP
        while True:
            hits = concept_hits(index, query, AtLevel(seen, lvl), limit, depth=C.RANK_SCAN_DEPTH, words=words)
            kept = [h for h in hits if not by_withheld_words(graph, h.node_id, terms)]
            if len(kept) >= top or len(hits) < limit:
                break
            limit += top - len(kept)
        per_level[lvl] = kept[:top]
    return query, merge_hits(per_level)[: C.RECALL_SEARCH_TOP]


def _word_numbers(words: list[str]) -> dict[str, int]:
    """Each term a prompt word of several parts brings (its parts, the whole, its inner pairs) -> that
    word's number: "GitHub" is git, hub, github and "git hub", and it is one word said once. A term
    the prompt also says as a word of its own ("git") stays its own concept."""
    numbers: dict[str, int] = {}
    said: set[str] = set()
    for number, word in enumerate(words):
        stems, composites = analyse(word)
        if len(stems) + len(composites) > 1:
            for term in (*stems, *composites, *bigrams(stems)):
                numbers.setdefault(term, number)
        else:
            said.update(stems)
    return {term: number for term, number in numbers.items() if term not in said}


def said(words: list[str]) -> int:
    """How many words the prompt's search words say, for the rule of a one-word prompt (it recalls only a
    lesson it names): a Chinese word of four characters or more (回滚流程, "rollback procedure") is two, as
    a Chinese word is mostly two characters, and "回滚流程是什么" asks more than one word does."""
    return sum(2 if len(word) >= 4 and cjk.is_han(word) else 1 for word in words)


def _content_terms(query: Terms) -> Terms:
    """The query without the function words a compound brought in: "lunch-and-learn", "isVisible"
    and "deleted_at" split into parts, and a prompt's "and", "is", "at" are not what it is about
    (the prompt's own words were filtered before; the parts of its compounds were not)."""
    return Terms(tuple(t for t in query.unigrams if not is_stopword(t)), query.bigrams)


def decide(terms: list[str], hits: list[tuple[str, Hit]], graphs: Mapping[str, GraphReader],
           seen: AbstractSet[Ref], n_words: int, ask_scale: float = 1.0,
           rated: Sequence[tuple[Ref, float]] = (), borrowed: Callable[[str, Hit], bool] | None = None,
           like: Callable[[Ref], float | None] | None = None) -> Decision:
    """The three gates over ranked hits, the model's veto, then the injection (connections between
    the chosen hits).

    Beyond the spec's gates, three rules keep what is injected about the prompt (issue #12): the
    score bars rise with the prompt's search words (chance_scale, multi_bar), and for a request for general
    know-how or a task to carry out (core/asks.py: ask_scale);
    a new hit ranking (rank) under RECALL_RELATIVE_CUT of the best one is a side match, not what the
    prompt is about (a hit in context stays, as its anchor); and weak new hits (each matching
    one prompt term, or only in its notes, for no more than one term's worth of score) do not
    open the channel, whether one or several: words scattered over unrelated nodes are chance.
    A prompt of one word recalls only a node whose id it names (recall_bars.names_its_id).
    `rated` holds recall_gate's probability for each new candidate (it reads the candidate's likeness in
    meaning to the prompt among its features): a new hit the gates chose goes when the model gives it less than
    RECALL_GATE_VETO (recall_gate.standing); where the gates choose nothing new for a prompt of more than one
    word, the model's likeliest candidate comes alone at RECALL_GATE_BRING (a lesson said in other words); beside
    the new hits kept, its likeliest other candidate comes at RECALL_GATE_BESIDE (the words found a sibling of
    what the prompt is about). A hit `borrowed` says (recall_compounds.py) holds every prompt word it matched
    only inside compounds of other words ("mode" in StrictMode for "dark mode"): no candidate. Connectors
    between the hits come along only when they match the prompt themselves (they carry something the hits need);
    the edges between hits always do. `like` gives a candidate's likeness in meaning, for the log.
    """
    if not terms:
        return Decision("no_terms")
    # A hit found only by a withheld field's words is none: it would confirm a guessed secret (withheld_terms.py).
    hits = [(lvl, h) for lvl, h in hits if lvl not in graphs or not by_withheld_words(graphs[lvl], h.node_id, terms)]
    if len(terms) >= 2:
        bar, chance = multi_bar(n_words)
    else:
        bar, chance = C.RECALL_SCORE_SINGLE, chance_scale(n_words)
    threshold = bar * ask_scale
    probabilities = dict(rated)
    chosen_refs, silent = _gated(terms, hits, graphs, seen, threshold, chance * ask_scale, borrowed)
    if silent in ("no_hits", "weak_hit") and said(terms) > 1:
        likeliest = _likeliest(hits, graphs, seen, probabilities, borrowed, C.RECALL_GATE_BRING)
        if likeliest is not None:
            chosen_refs, silent = [likeliest], None
    new = [r for r in chosen_refs if r not in seen]
    kept = recall_gate.standing(new, probabilities)
    vetoed = set(new) - set(kept)  # not brought back as a connector either
    if kept and len(chosen_refs) < C.RECALL_MAX_HITS:
        others = [(lvl, h) for lvl, h in hits if (lvl, h.node_id) not in chosen_refs and (lvl, h.node_id) not in vetoed]
        beside = _likeliest(others, graphs, seen, probabilities, borrowed, C.RECALL_GATE_BESIDE)
        if beside is not None:
            chosen_refs, kept = [*chosen_refs, beside], [*kept, beside]
    logged = tuple(_hit_record(lvl, h, seen, probabilities.get((lvl, h.node_id)),
                               like((lvl, h.node_id)) if like and (lvl, h.node_id) in probabilities else None)
                   for lvl, h in hits[:5])  # a likeness the model asked (a seen hit's is not worth its cost)
    if new and not kept:
        chosen_refs, silent = [], "vetoed"
    else:
        chosen_refs = [r for r in chosen_refs if r in seen or r in kept]
    if silent is not None:
        return Decision(silent, hits=logged, threshold=threshold)
    if all((lvl, h.node_id) in seen for lvl, h in hits):
        # Connectors come only from these hits: nothing new whatever the paths, so none are drawn.
        return Decision("all_seen", hits=logged, threshold=threshold)
    nodes = {ref: graphs[ref[0]].lineage.mask.node(graphs[ref[0]].nodes[ref[1]]) for ref in chosen_refs}
    matching = {(lvl, h.node_id) for lvl, h in hits}
    connectors, path_edges = connection_paths(graphs, chosen_refs)
    connectors = [r for r in connectors if r not in chosen_refs and r in matching and r not in vetoed
                  and graphs[r[0]].nodes.get(r[1]) is not None and graphs[r[0]].nodes[r[1]].gist]
    for ref in connectors:
        nodes[ref] = graphs[ref[0]].lineage.mask.node(graphs[ref[0]].nodes[ref[1]])
    if all(r in seen for r in chosen_refs) and all(r in seen for r in connectors):
        return Decision("all_seen", hits=logged, threshold=threshold)
    text, shown, cut = render(chosen_refs, nodes, connectors, path_edges, seen)
    return Decision("injected", text, tuple(shown), logged, threshold, cut)


def _gated(terms: list[str], hits: list[tuple[str, Hit]], graphs: Mapping[str, GraphReader], seen: AbstractSet[Ref],
           threshold: float, scale: float, borrowed: Callable[[str, Hit], bool] | None = None
           ) -> tuple[list[Ref], str | None]:
    """What the gates choose (at most RECALL_MAX_HITS, in the order shown), or why they choose nothing."""
    candidates = []
    for lvl, h in hits:
        node = graphs[lvl].nodes.get(h.node_id) if lvl in graphs else None
        if node is None or not node.gist:
            continue  # every tier takes part (the same search core as kg_search); recall never promotes
        if (h.score >= threshold and evidence(h) and (said(terms) > 1 or names_its_id(h))
                and not (borrowed and borrowed(lvl, h))):
            candidates.append((lvl, h))
    if not candidates:
        return [], "no_hits"
    best = max(rank(h) for _, h in candidates)
    passing = [(lvl, h) for lvl, h in candidates if rank(h) >= C.RECALL_RELATIVE_CUT * best]
    new = [h for lvl, h in passing if (lvl, h.node_id) not in seen]
    # A node already in context under the cut is a side match like any other, unless an edge joins it to a
    # new hit: then its anchor (a short line, no gist) ties the new one in. Otherwise it rode along unasked.
    fresh = [(lvl, h.node_id) for lvl, h in passing if (lvl, h.node_id) not in seen]
    passing += [(lvl, h) for lvl, h in candidates if (lvl, h.node_id) in seen
                and rank(h) < C.RECALL_RELATIVE_CUT * best and joined(graphs, (lvl, h.node_id), fresh)]
    if new and not any(strong(h, len(terms), scale) for h in new):
        return [], "weak_hit"
    passing.sort(key=lambda lh: (not lh[1].title_match, -rank(lh[1])))
    return [(lvl, h.node_id) for lvl, h in passing[: C.RECALL_MAX_HITS]], None


def _likeliest(hits: list[tuple[str, Hit]], graphs: Mapping[str, GraphReader], seen: AbstractSet[Ref],
               probabilities: Mapping[Ref, float], borrowed: Callable[[str, Hit], bool] | None, floor: float
               ) -> Ref | None:
    """The new candidate the model gives the most, when it gives it at least `floor`; None otherwise."""
    best: tuple[float, Ref] | None = None
    for lvl, h in hits:
        ref = (lvl, h.node_id)
        node = graphs[lvl].nodes.get(h.node_id) if lvl in graphs else None
        if ref in seen or node is None or not node.gist or (borrowed and borrowed(lvl, h)):
            continue
        p = probabilities.get(ref)
        if p is not None and p >= floor and (best is None or p > best[0]):
            best = (p, ref)
    return None if best is None else best[1]


def _hit_record(level: str, hit: Hit, seen: AbstractSet[Ref], p: float | None, liked: float | None = None
                ) -> dict[str, Any]:
    record: dict[str, Any] = {"id": hit.node_id, "level": level, "score": round(hit.score, 5),
                              "seen": (level, hit.node_id) in seen, "title_match": hit.title_match,
                              "matched_terms": hit.matched_terms, "max_term_idf": round(hit.max_term_idf, 4)}
    if p is not None:
        record["p"] = round(p, 4)
    if liked is not None:
        record["like"] = round(liked, 4)
    return record


def render(chosen: list[Ref], nodes: dict[Ref, Node], connectors: list[Ref],
           path_edges: list[tuple[str, Edge]], seen: AbstractSet[Ref]) -> tuple[str, list[Ref], frozenset[Ref]]:
    """The injection, trimmed to the budget: connectors go first, then seen hits, then low hits; and
    the refs it shows, and those of them whose gist it cut.

    Unseen nodes come with their gists, nodes already in context as bare
    `id (in context)` anchors; an edge line shows while both its ends do, and goes only with
    one of them: what ties the hits that are left together is worth its few characters.
    """
    def line(ref: Ref, indent: str) -> tuple[Ref, str, bool]:
        unseen = ref not in seen
        head = f"{indent}- [{ref[0]}] {one_line(ref[1])}"
        text = f"{head}: {one_line(nodes[ref].gist)}" if unseen else f"{head} (in context)"
        return ref, text, unseen

    hit_lines = [line(ref, "") for ref in chosen]
    conn_lines = [line(ref, "  ") for ref in connectors]
    edge_lines: list[tuple[str, str, str]] = []  # (line, from, to)
    for _, edge in path_edges:
        text = f"  {edge.src} --{edge.rel}--> {edge.dst}"
        if all(text != held for held, _, _ in edge_lines):  # deduplicated within one injection only
            edge_lines.append((text, edge.src, edge.dst))

    def assemble() -> str:
        shown_ids = {r[1] for r, _, _ in hit_lines} | {r[1] for r, _, _ in conn_lines}
        edges = [t for t, a, b in edge_lines if a in shown_ids and b in shown_ids]
        lines = [HEADER] + [text for _, text, _ in hit_lines]
        if conn_lines or edges:
            lines.append("  connections:")
            lines += [text for _, text, _ in conn_lines] + edges
        return "\n".join(lines)

    text = assemble()
    cut: frozenset[Ref] = frozenset()
    while len(text) > C.RECALL_CHAR_BUDGET:
        if conn_lines:
            conn_lines.pop()
        elif any(not unseen for _, _, unseen in hit_lines):
            idx = max(i for i, (_, _, unseen) in enumerate(hit_lines) if not unseen)
            hit_lines.pop(idx)
        elif len(hit_lines) > 1:
            hit_lines.pop()
        else:
            ref, first, unseen = hit_lines[0]
            kept, was_cut = clipped(first, C.RECALL_CHAR_BUDGET - len(HEADER) - 2)
            hit_lines[0] = (ref, kept, unseen)
            cut = frozenset([ref]) if was_cut and unseen else frozenset()
            text = assemble()
            break
        text = assemble()
    shown = [ref for ref, _, unseen in hit_lines + conn_lines if unseen]
    return text, shown, cut
