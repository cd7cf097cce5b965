"""Scratch trial (issue #12, not kept): a table of colloquial phrases as extra prompt concepts, measured in-process.

    .venv/bin/python bench/recall_phrase_trial.py bench/recall_blind_phrases.txt 0.4 --data recall_memory2_a,...

Each line of the table is `phrase => word word`; a prompt holding the phrase (each word optionally inflected) gains
one concept whose alternatives are those words at the given weight. It patches recall_offline's run for the trial
only; bench/RESULTS-recall.md records what it gave.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall_offline  # noqa: E402

from kg_actors.core import recall, search_concepts  # noqa: E402
from kg_actors.core.terms import stem  # noqa: E402

_ENDING = r"(?:s|es|ed|d|ing|ting|ped|ged|ning)?"


def table(path: str) -> list[tuple[re.Pattern[str], list[str]]]:
    out = []
    for line in Path(path).read_text().splitlines():
        if "=>" not in line:
            continue
        left, right = line.split("=>")
        words = left.strip().lower().split()
        pattern = r"\b" + r"\s+".join(re.escape(w) + (_ENDING if w.isalpha() and len(w) > 2 else "")
                                       for w in words) + r"\b"
        out.append((re.compile(pattern, re.I), [stem(w) for w in right.split()]))
    return out


def main() -> int:
    phrases, weight = table(sys.argv.pop(1)), float(sys.argv.pop(1))
    found: list[list[str]] = []
    plain_terms, plain_concepts = recall.prompt_terms, search_concepts.concepts

    def prompt_terms(text):  # type: ignore[no-untyped-def]
        found[:] = [stems for pattern, stems in phrases if pattern.search(text)]
        return plain_terms(text)

    def concepts(index, terms, words=None):  # type: ignore[no-untyped-def]
        out = plain_concepts(index, terms, words)
        for stems in found:
            alts = tuple((s, weight) for s in dict.fromkeys(stems) if s in index.postings)
            if alts:
                out.append(alts)
        return out

    recall.prompt_terms = prompt_terms  # type: ignore[assignment]
    search_concepts.concepts = concepts  # type: ignore[assignment]
    return recall_offline.main()


if __name__ == "__main__":
    sys.exit(main())
