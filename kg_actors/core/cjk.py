"""Words in the scripts that are not split by spaces: Chinese and Japanese (none between words) and Korean
(a particle glued to its word: 데이터베이스를 is 데이터베이스 + 를).

No dictionary is at hand, so a word is whatever a run of one script holds, and a lesson is matched by
containment: it is indexed under every stretch of each of its runs (up to a length per script), and a
query's run is looked up whole. So 数据库 finds "我们的数据库迁移" and データ finds データベース, while a run of
three characters or more must appear whole: コミュニケーション never finds マイグレーション for the ーション
they share. A query's runs are split where the script changes (マイグレーションの確認: マイグレーション,
確認), hiragana is dropped as the grammar between words (の, を, する), and a Korean word loses the particle
it ends with. A Chinese clause is one run of many words ("线上发布出问题了"): a Han run the graphs do not hold
whole is cut, at search time, into the longest stretches they do hold (`held_segments`), the memory's own
vocabulary standing in for the dictionary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

HAN, KANA, HANGUL, HIRAGANA = "han", "kana", "hangul", "hiragana"
_SCRIPTS = (
    (HAN, "\u3005\u3006\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"),  # 々 〆 and the ideographs
    (HIRAGANA, "\u3041-\u309f"),
    (KANA, "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"),  # katakana with ー, and its half-width forms
    (HANGUL, "\uac00-\ud7a3"),
)
_HAN_RUN = re.compile(f"[{_SCRIPTS[0][1]}]+")
LETTERS = "".join(chars for _, chars in _SCRIPTS)
ANY = re.compile(f"[{LETTERS}]")
_RUNS = re.compile("|".join(f"(?P<{name}>[{chars}]+)" for name, chars in _SCRIPTS))
# Where a piece of text changes between these scripts and the rest (PostgreSQLの設定: PostgreSQL, の設定).
SPLIT = re.compile(f"([{LETTERS}]+)")

# The longest stretch of a run indexed, per script: a Chinese word is seldom over six characters, while a
# Chinese clause runs on to its comma (every stretch of it is a term); a katakana loanword may run to twelve
# (インフラストラクチャー), a Korean word with its endings to eight.
LONGEST = {HAN: 6, KANA: 12, HANGUL: 8}
SHORTEST = 2  # one character is too many words' part to find anything by
ASKED_LONGEST = 24  # a query's run longer than this is pasted text, no word: it is not looked up

# Korean particles a noun ends with, longest first: a query's word is looked up without it.
_PARTICLES = tuple(sorted("""
은 는 이 가 을 를 의 에 와 과 도 만 로 으로 에서 에게 께서 한테 부터 까지 처럼 보다 이나 나 라도 이라도
에서는 에는 으로는 로는 에도 과의 와의 이란 란 이며 며 마다 조차 밖에 뿐 께 이랑 랑 하고
""".split(), key=len, reverse=True))


def has_any(text: str) -> bool:
    return ANY.search(text) is not None


_WORD_LETTERS = re.compile(f"[{_SCRIPTS[0][1]}{_SCRIPTS[2][1]}{_SCRIPTS[3][1]}]")


def word_letters(text: str) -> int:
    """How many letters of `text` are Chinese characters, katakana or Hangul syllables: each says about
    what two or three Latin letters do (回滚流程 is "rollback procedure"; hiragana, the grammar, is not
    counted)."""
    return len(_WORD_LETTERS.findall(text)) if has_any(text) else 0


def as_words(run: str) -> list[str]:
    """A run of these scripts as the words a shape rule counts: one per two letters (a Chinese or Korean
    word is mostly two), where a space-split count sees one token however long the sentence."""
    return [run[i:i + 2] for i in range(0, len(run), 2)]


def runs(text: str) -> Iterator[tuple[str, str]]:
    """(script, run) for each run of one of these scripts in `text`."""
    for m in _RUNS.finditer(text):
        yield m.lastgroup or "", m.group()


def indexed(text: str) -> tuple[str, ...]:
    """The terms a lesson's text in these scripts is found by: every stretch of each run, from two
    characters to its script's LONGEST, and the whole run (hiragana: none, it is the grammar).
    Uncached: an unspaced note is one token of thousands of characters, and tens of thousands of terms."""
    out: dict[str, None] = {}
    for script, run in runs(text):
        if script == HIRAGANA or len(run) < SHORTEST:
            continue
        out[run] = None
        for size in range(SHORTEST, min(len(run), LONGEST[script]) + 1):
            for start in range(len(run) - size + 1):
                out[run[start:start + size]] = None
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def asked(text: str) -> tuple[str, ...]:
    """The words a query's text in these scripts asks for: each run as it is (a Korean one without its
    particle), none of hiragana, none of a single character or over ASKED_LONGEST."""
    out: dict[str, None] = {}
    for script, run in runs(text):
        word = without_particle(run) if script == HANGUL else run
        if script != HIRAGANA and SHORTEST <= len(word) <= ASKED_LONGEST:
            out[word] = None
    return tuple(out)


# Words a Chinese question is built of, whatever it asks about ("是什么", "怎么", "为什么"): a stretch a
# lesson happens to hold, never what the question is about (as English stopwords are).
FILLER = frozenset("""
什么 是什么 为什么 怎么 怎么办 怎么样 怎样 如何 哪里 哪个 哪些 这个 那个 这些 那些 这样 那样 这里 那里
我们 你们 他们 我的 你的 一下 一个 可以 能否 是否 有没有 没有 不是 就是 还是 但是 因为 所以 如果 已经
现在 时候 的时候 应该 为啥 请问 谢谢
""".split())


def is_han(term: str) -> bool:
    """A term all of Chinese characters (kanji): a run a query may hold several words in."""
    return len(term) >= SHORTEST and _HAN_RUN.fullmatch(term) is not None


def held_segments(run: str, held: Callable[[str], bool]) -> list[str]:
    """A Han run cut left to right into the longest stretches `held` says the graphs hold (two characters
    or more; a character no held stretch starts with is skipped), the filler words left out. A run held
    whole is its own one segment, so every segment is a term some lesson holds whole: the rule that a
    run of three characters or more must appear whole holds of each."""
    out: list[str] = []
    start, n = 0, len(run)
    while start < n - 1:
        for end in range(min(n, start + ASKED_LONGEST), start + 1, -1):
            if held(run[start:end]):
                if run[start:end] not in FILLER:
                    out.append(run[start:end])
                start = end
                break
        else:
            start += 1
    return out


def without_particle(word: str) -> str:
    """A Korean word less the particle it ends with, when two syllables or more are left."""
    for particle in _PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= SHORTEST:
            return word[: -len(particle)]
    return word
