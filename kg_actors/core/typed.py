"""What a person typed, told apart from what they pasted, by the shape of the text.

Prompt recall earns its place only from words a person typed. Pasted machine
output (logs, tables, stack traces, diffs, command output, JSON) is full of
words that match lessons by accident, so it is cut out first. No tool is named
here: a line is judged by its shape (timestamps, hashes, column alignment,
symbol and digit density, how much of it is plain words, log levels, key=value
pairs, structural prefixes), a paragraph by its lines, and a prompt by its
paragraphs:

* a fenced block (```) is pasted;
* a paragraph (lines between blank lines) is pasted when at least a third of
  its lines look like machine output: the prose-looking lines of a tool's
  report (git's "Changes not staged for commit:") go with it;
* when the pasted lines are as many as the lines left that read as typed (even leniently: a tool's
  prose between its blocks does not), the prose that is left counts only in the
  prompt's first and last paragraphs (where a person frames a paste: "why does
  this fail?" above or below it), and only the lines that read as typed: a
  question, a first-person or question word, or a lowercase start (one that tells
  its reader "you" and never says "I" is a tool's note). A tool's own
  prose between its blocks ("Your branch is up to date ...") stays out;
* a line right above or below a pasted block in the same paragraph counts when
  it reads as typed ("my job is stuck, see the events:");
* when less of it is pasted, the lines left count when they read as typed
  (leniently: a code word may appear, and a plain sentence counts), so a tool's
  prose ("213 packages are looking for funding") still stays out;
* code a person quotes between backticks is one word of their line, a list's
  marker is no word, and a list of three items or more is typed or pasted whole;
* a prompt of one line that ends in a question is typed, whatever code it quotes.

A bare continuation ("continue", "go on", "ok do it") is not a request for
memory either: `is_continuation` tells it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import cjk

_TIMESTAMP = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}"  # ISO and SQL timestamps
    r"|\b\d{1,2}:\d{2}:\d{2}\b"  # a clock time
    r"|\d{1,2}/[A-Z][a-z]{2}/\d{4}"  # 30/Nov/2026 (access logs)
)
_HEX = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b")  # commit ids, digests, uuids' parts
_COLUMNS = re.compile(r"\S(?: {2,}|\t)\S")  # words aligned in columns
_BOX = re.compile(r"[│┃┆┊├┤┌┐└┘─━═╭╮╰╯▕▏|]")
_LOG_LEVEL = re.compile(r"\b(?:INFO|WARN|WARNING|ERR|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|FAIL|FAILED|PASSED|OK)\b"
                        r"|\blevel=")
# One name character right before the "=": a whole `\b[\w.-]+=` retried the rest of a long run of such
# characters from each of its word boundaries (a 20,000-character "a.a.a..." paste took a second).
_KEY_VALUE = re.compile(r"[\w.\-]=[^\s=]")
_JSONISH = re.compile(r'^\s*[{\[]|"[\w\-.]+"\s*:')
_CAPS_HEADER = re.compile(r"\b[A-Z][A-Z_%]{2,}\b")
# A word of prose, or an acronym a person writes among words (CSV, API, SQL, PRs).
_PLAIN_WORD = re.compile(r"^[(\"']?(?:[A-Za-z][a-z']*|[A-Z]{2,5}s?)[,.;:!?)\"']{0,2}$")
_STRUCTURAL = ("+", "-", "@@", ">", "<", "$ ", "#", "*", "at ", "File \"", "✓", "✕", "✖", "✔", "✗", "⠿", "[", "(",
               "~", "=", "Step ", "--- ", "+++ ", "E ", "error:", "warning:", "note:")
# A token shaped like code: a dotted or underscored name, a call, a path with a line, a version, CamelCase.
_CODE_TOKEN = re.compile(r"\w[._/:@]\w|\w\(|\)$|^v?\d+\.\d+|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|^--?\w")
_LABEL = re.compile(r"^(?:[A-Za-z][\w.]*)?(?:Error|Exception|Warning|Failure|FAILURE|ERROR|error|warning|panic|fatal)\b[^:\n]{0,40}:")
_LOCATION = re.compile(r"^\S+\.\w{1,6}(?::\d+|\(\d+)")  # src/x.py:42: ... or x.ts(14,7): a compiler's or linter's line
_SYMBOLS = frozenset("{}[]()<>=:;|/\\\"'@#$%^&*+~`_,")
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`\n]+`")  # `props.padding || 16`, `ps aux | grep x`: quoted in a sentence
_MD_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+$")  # a markdown table's |---|:---:| rule under its header
_KEYED = re.compile(r"^[\w .-]{1,30}:(?:\s|$)")  # "hook id: x", "exit code: 1": a key and its value
_LEADER = re.compile(r"\.{6,}")  # "check for added large files........Failed": a tool's dot leader
_LIST_MARKER = re.compile(r"^(?:[-•]|\d{1,2}[.)])\s+(?=\S)")  # not "*": curl's and gradle's lines open so
# Words that make a line read as a person talking (asking, or about themselves and their team).
_VOICE = frozenset("""
i i'm i've i'd me my mine we we're we've our ours us why how what which who whom should could would
can't cannot doesn't didn't isn't aren't don't wouldn't shouldn't please help explain here's
""".split())
_WORDS = re.compile(r"[a-z']+")
# A line that points at the paste beside it ("Deploy to cloud run fails with this.", "see below:").
_POINTS_AT_PASTE = re.compile(r"(?i)\b(?:with this|this one|like this|see this|these|below|above|the following)[.:!]*$"
                             r"|\b(?:this|these|here)\b[^.!?:]{0,30}:$")  # "This schema:", "here is the config:"
# A question typed without its mark opens like one: "is there a way to ...", "can you look at ...".
_QUESTION_OPENER = re.compile(r"(?i)(?:is|are) there\b|(?:can|could|would|should|do|does|did|will) "
                              r"(?:you|we|i|it|this|that|anyone|someone)\b|any (?:idea|ideas|way|reason)\b")
_ADDRESSES_READER = frozenset({"you", "your", "you're", "you've"})
_FIRST_PERSON = frozenset("i i'm i've i'd my we we're we've our".split())  # tools say "you", seldom "I" ("us-east-1")

MACHINE_SCORE = 1.5
_CAPS_SHARE = 5  # capitalised words count as a header when at least one token in this many is one
_SENTENCE_TOKENS = 12  # a line of this many tokens or more can be a sentence quoting code
_PAIR_SHARE = 4  # ... but not when one token in this many is a key=value pair
_OPENING_WORDS = 9  # ... a sentence opening a prompt that is mostly paste counts when it is this long
SCORED_LINES = 1_000  # lines of one prompt judged one by one: its first and last half of these
SCORED_LINE_CHARS = 2_000  # ... each by this much of it (a typed paragraph on one line is under a thousand)
FRAME_MAX_SCORE = 0.0  # a line left beside a paste must itself be plain
LENIENT_FRAME_MAX_SCORE = 0.5  # ... or nearly, when the paste is the smaller part of the prompt


def machine_score(line: str) -> float:
    """How much one line looks like machine output (0: plain prose; 2 or more: machine).

    A line is judged by its first SCORED_LINE_CHARS characters: its shape is in its proportions, and a
    20,000-character line scored whole took 8 ms."""
    raw = line.strip()[:SCORED_LINE_CHARS]
    if not raw:
        return 0.0
    # Code a person quotes between backticks is one word of their sentence (`SELECT ... DESC`, `a || b`,
    # `level=WARN`): the line's shape is the sentence's. A list's marker is not a word ("- uses node 20").
    text = _INLINE_CODE.sub("code", raw) if "`" in raw else raw
    item = _LIST_MARKER.sub("", text)
    listed = item != text  # an item of a list a person typed is scored by its words, not its marker
    tokens = _tokens(item) or _tokens(text)
    score = 0.0
    if _TIMESTAMP.search(text):
        score += 2
    if _HEX.search(text.lower()):
        # A commit id a person names in a long sentence ("commit a1b2c3d broke the login page..."): a hint;
        # a tool's line opens with it (git log) or is short.
        score += 0.5 if len(tokens) >= _SENTENCE_TOKENS and not _HEX.match(tokens[0].lower()) else 1.5
    if len(_COLUMNS.findall(text)) >= 2 or len(_BOX.findall(text)) >= 2 or _LEADER.search(text):
        score += 2
    elif _COLUMNS.search(text):
        score += 0.5
    # A log level or an error label in a line that asks or speaks is quoted by a person ("why does
    # the test FAIL on CI?", "fatal: not a git repository when I run the hook, why?"): a hint, no more.
    leveled, labeled = _LOG_LEVEL.search(text) is not None, _LABEL.search(text) is not None
    voiced = (leveled or labeled) and _talks(text)  # only then: every line of a paste comes here
    if leveled:
        score += 0.5 if voiced else 2
    # key=value pairs make a log line (logfmt, a config dump); a long sentence may quote two
    # (src=x onerror=..., sort_keys=True) among its words: a hint, no more.
    pairs = len(_KEY_VALUE.findall(text))
    if pairs >= 2:
        score += 2 if len(tokens) < _SENTENCE_TOKENS or pairs * _PAIR_SHARE >= len(tokens) else 0.5
    # A table's header is most of its line in capitals; a sentence may name three (EUR, GBP, USD) in
    # sixty words. A JSON line is short; a long sentence may quote a key ({"name": ...}).
    caps = len(_CAPS_HEADER.findall(text))
    if caps >= 3 and caps * _CAPS_SHARE >= len(tokens):
        score += 2
    jsonish = _JSONISH.search(text)
    if jsonish and (jsonish.group().lstrip()[:1] in "{[" or len(tokens) < _SENTENCE_TOKENS):
        score += 2
    nonspace = sum(len(t) for t in tokens)
    symbols = sum(1 for t in tokens for c in t if c in _SYMBOLS) / max(1, nonspace)
    digits = sum(1 for t in tokens for c in t if c.isdigit()) / max(1, nonspace)
    score += 2 if symbols > 0.25 else 1 if symbols > 0.12 else 0
    score += 2 if digits > 0.3 else 1 if digits > 0.15 else 0
    plain = sum(1 for t in tokens if _is_plain(t)) / len(tokens)
    score += 2 if plain < 0.3 else 1 if plain < 0.6 else 0
    code = sum(1 for t in tokens if _CODE_TOKEN.search(t)) / len(tokens)
    score += 2 if code >= 0.5 else 1 if code >= 0.3 else 0.5 if code >= 0.15 else 0
    if labeled:
        score += 0.5 if voiced else 1.5
    if _LOCATION.search(text):
        score += 2
    if line[:1] in (" ", "\t") and len(line) - len(line.lstrip()) >= 2:
        score += 1  # people rarely indent what they type; tools indent their structure
    if raw.startswith(_STRUCTURAL) and not listed:
        score += 0.5
    if plain >= 0.6 and _talks(text):
        score -= 0.5  # a person asking or saying "I" ("i'm on pnpm 9.1.0 and node 20.12, any ideas?") may name versions
    return score


def _tokens(text: str) -> list[str]:
    """The words of a line for its shares: split at spaces, and a token holding Chinese, Japanese or
    Korean split where the script changes, its runs counted as words of two letters (cjk.as_words). A
    sentence in those scripts is one token, and the Latin name glued to it ("MySQL存表情符号报错了") would
    make the whole line's share of code."""
    if not cjk.has_any(text):
        return text.split()  # most lines: one search, no token looked at twice
    tokens: list[str] = []
    for token in text.split():
        if not cjk.has_any(token):
            tokens.append(token)
            continue
        for i, part in enumerate(cjk.SPLIT.split(token)):
            if i % 2:
                tokens += cjk.as_words(part)
            elif part:
                tokens.append(part)
    return tokens


def _is_plain(token: str) -> bool:
    """A word of prose: Latin letters, or Chinese, Japanese or Korean ones (a sentence in those scripts
    puts the Latin names it is about between its words: "Redis の TTL を 30 秒に設定したのに")."""
    return _PLAIN_WORD.match(token) is not None or cjk.has_any(token)


def is_machine(line: str) -> bool:
    return machine_score(line) >= MACHINE_SCORE


def _reads_typed(line: str, lenient: bool, score: float) -> bool:
    """A line a person wrote beside a paste: plain, and a question, their voice or a lowercase start.

    `lenient` (the paste is the smaller part of the prompt): a code word may appear in it, and a plain
    sentence of four words or more counts too. `score`: the line's machine_score.
    """
    text = line.strip()
    if not text or score > (LENIENT_FRAME_MAX_SCORE if lenient else FRAME_MAX_SCORE):
        return False
    if text[-1] in "{[(;" or (len(text.split()) == 1 and text[-1] == ":"):
        return False  # a block opens ("upstream backend {") or a key names one ("services:"): code, not a sentence
    item = _LIST_MARKER.sub("", text)
    if item != text and not _KEYED.match(item):
        text = item  # an item of a typed list: its words say (a tool's "- exit code: 1" is a key's value)
    if "?" in text or text[0].islower() or _POINTS_AT_PASTE.search(text) or cjk.has_any(text):
        return True  # (the scripts of cjk.py have no case, and a plain line in them is seldom a tool's)
    # The words of quoted code are not the line's voice ("try `rustc --explain E0502`" does not explain).
    words = _WORDS.findall(_INLINE_CODE.sub("code", text).lower())
    if not lenient and not _ADDRESSES_READER.isdisjoint(words) and _FIRST_PERSON.isdisjoint(words):
        return False  # a tool tells its reader ("Note: You didn't use the -out option ..."); a person says "I"
    if any(w in _VOICE for w in words):
        return True
    return lenient and len(words) >= 4 and text[-1] in ".!" and text[0].isalpha()


def _read_as_typed(lines: list[str], lenient: bool, score: Callable[[str], float]) -> list[str]:
    """The lines that read as typed (`_reads_typed`); a line that wraps a sentence a tool began is the
    tool's too: it opens lowercase at the same indent after a line that ends mid-sentence ("Note: You
    didn't use the -out option ..., so Terraform can't" / "guarantee to take exactly these actions ...")."""
    out: list[str] = []
    refused = ""  # the last line, when it was refused
    for line in lines:
        wraps = (refused.strip() != "" and line[:1].islower() and refused.rstrip()[-1] not in ".!?:;"
                 and _indent(line) == _indent(refused))
        if not wraps and _reads_typed(line, lenient, score(line)):
            out.append(line)
            refused = ""
        else:
            refused = line
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _talks(line: str) -> bool:
    """A question, or a person saying "I" or "we": a tool's prose says "you" and "which" too."""
    return ("?" in line or not _FIRST_PERSON.isdisjoint(_WORDS.findall(line.lower()))
            or _QUESTION_OPENER.match(line.strip()) is not None)


def _asks_or_speaks(line: str) -> bool:
    """A question (with or without its mark), or a person's voice (I, we, why, how...)."""
    return _talks(line) or any(w in _VOICE for w in _WORDS.findall(line.lower()))


def _ends_looked_at(lines: list[str]) -> list[str]:
    """A prompt of more than SCORED_LINES lines is mostly paste, and a person frames a paste at its
    ends: its middle is fenced (pasted without scoring each line; 10,000 one-word lines took 0.1 s)."""
    if len(lines) <= SCORED_LINES:
        return lines
    half = SCORED_LINES // 2
    head, middle, tail = lines[:half], lines[half:-half], lines[-half:]
    fences = [sum(1 for line in part if _FENCE.match(line)) for part in (head, middle)]
    open_at_middle, open_after = fences[0] % 2 == 1, sum(fences) % 2 == 1  # as the whole prompt has them
    fenced = ["" if _FENCE.match(line) else line for line in middle]
    return [*head, *([] if open_at_middle else ["```"]), *fenced, *([] if open_after else ["```"]), *tail]


def _paragraphs(lines: list[str]) -> list[list[tuple[str, bool]]]:
    """Lines grouped between blank lines; each line marked pasted when inside a fence."""
    paragraphs: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not line.strip() and not fenced:
            if current:
                paragraphs.append(current)
                current = []
            continue
        current.append((line, fenced))
    if current:
        paragraphs.append(current)
    return paragraphs


def _typed_list(paragraph: list[tuple[str, bool]], marks: list[bool]) -> None:
    """A list is typed or pasted whole: when most items of one a person typed read as typed, so do the
    rest ("- generate uv.lock" among "- convert the deps", "- update the ci workflow")."""
    items = [i for i, (line, fenced) in enumerate(paragraph) if not fenced and _LIST_MARKER.match(line.strip())]
    if len(items) >= 3 and sum(marks[i] for i in items) * 3 <= len(items):
        for i in items:
            marks[i] = False


def _typed_table(paragraph: list[tuple[str, bool]], marks: list[bool]) -> list[str]:
    """A markdown table (a header, a |---|---| rule, rows between bars) is written by a person, or copied
    from a document: tools draw theirs with spaces, +---+ or box lines. Its rows are read as typed, and
    returned: a table alone, with no sentence beside it, is pasted all the same (typed_part)."""
    lines = [line.strip() for line, _ in paragraph]
    if (len(lines) >= 3 and not any(fenced for _, fenced in paragraph) and _MD_RULE.match(lines[1])
            and all(line.startswith("|") and line.endswith("|") for line in lines)):
        marks[:] = [False] * len(marks)
        return [line for line, _ in paragraph]
    return []


# Chinese and Japanese typing puts full-width marks where English has ASCII ones: "为什么？" asks as "why?" does.
_FULL_WIDTH = str.maketrans("？！，：；（）", "?!,:;()")


def typed_part(text: str) -> str:
    """`text` without its pasted blocks: the lines a person typed, joined by newlines."""
    text = text.translate(_FULL_WIDTH)
    whole = text.strip()
    if whole.endswith("?") and "\n" not in whole:
        return whole  # one line that asks, however much code it quotes ("... default=uuid.uuid4) is fine, right?")
    paragraphs = _paragraphs(_ends_looked_at(text.splitlines()))
    scores: dict[str, float] = {}  # each line is scored once, however many rules read it

    def score(line: str) -> float:
        known = scores.get(line)
        if known is None:
            known = scores[line] = machine_score(line)
        return known

    kept: list[list[str]] = []  # per paragraph, the lines that may be typed
    table_rows: set[str] = set()
    pasted = 0
    for paragraph in paragraphs:
        marks = [fenced or score(line) >= MACHINE_SCORE for line, fenced in paragraph]
        _typed_list(paragraph, marks)
        table_rows.update(_typed_table(paragraph, marks))
        if sum(marks) * 3 < len(marks):
            kept.append([line for (line, _), machine in zip(paragraph, marks) if not machine])
            pasted += sum(marks)
            continue
        # A pasted paragraph: a person's line may still sit right above or below the block
        # ("my job is stuck, see events:"), never between its lines. Below it, only one that asks or
        # speaks ("any idea why?"): a tool's last line reads like a lowercase note ("collected 42 items").
        first = marks.index(True)
        last = len(marks) - 1 - marks[::-1].index(True)
        frame = [line for line, _ in paragraph[:first]]
        frame += [line for line, _ in paragraph[last + 1:] if _asks_or_speaks(line)]
        kept.append(frame)
        pasted += len(marks) - len(frame)
    if not pasted:
        typed = [line for para in kept for line in para]
        # A markdown table and nothing a person wrote beside it: pasted from a document, it asks nothing.
        return "" if all(line in table_rows or not line.strip() for line in typed) else "\n".join(typed)
    # A tool's own prose left between its blocks ("164 packages are looking for funding") is not typed
    # either: what tells the prompt's mode is how much of it reads as a person's.
    leniently = [line for para in kept for line in _read_as_typed(para, True, score)]
    if pasted < len(leniently):
        # Some paste: what is left counts where it reads as typed (a tool's prose, like "213 packages
        # are looking for funding", does not).
        return "\n".join(leniently)
    # Mostly paste: only the framing counts, in the first and last paragraphs, lines that read as typed;
    # and a prompt's opening line set apart above the paste is its framing ("Xcode fails on archive but
    # debug builds are fine."): a tool's output seldom opens with one plain sentence and a blank line.
    ends = kept[:1] + kept[1:][-1:]
    framing = [line for para in ends for line in _read_as_typed(para, False, score)]
    opening = paragraphs[0]
    if (len(paragraphs) > 1 and len(opening) == 1 and not opening[0][1] and kept[0] == [opening[0][0]]
            and opening[0][0] not in framing and _opens_typed(opening[0][0], score(opening[0][0]))):
        framing.insert(0, opening[0][0])
    return "\n".join(framing)


def _opens_typed(line: str, score: float) -> bool:
    """A plain sentence of nine words or more, nearly free of code: a person's opening line. A tool's
    opening sentence is short ("Terraform will perform the following actions:", "Running 24 tests using 4
    workers")."""
    return score <= LENIENT_FRAME_MAX_SCORE and len(_WORDS.findall(line.lower())) >= _OPENING_WORDS


_CONTINUATION_WORDS = frozenset("""
continue continuing go on ahead yes yeah yep yup y ok okay k sure fine great good perfect nice cool
proceed keep going next do it that this please thanks thank you lgtm sounds looks right agreed approve approved
alright all done now again same carry and the then finish up thx ty
one more step let lets let's us it's with to
run rerun re-run test tests after afterwards commit push them those ship
rest of remaining other others two three both for file files way too also second option
spec specs when you you're once finished
""".split())  # the usual next step ("ok do that, then run the tests", "looks good, commit it") and the rest of
# the same work ("ok, do the rest of the files the same way", "same for the other two"): nothing named in them


_CONTINUATION_MAX_WORDS = 12  # "ok looks good, keep going with the next one": every word a nudge's own


def is_continuation(text: str) -> bool:
    """A short nudge to carry on ("continue", "go on", "ok do it"): it asks nothing of memory. Text in
    Chinese, Japanese or Korean is none: its words are not the nudge words' letters."""
    if cjk.has_any(text):
        return False
    words = _WORDS.findall(text.lower())
    return len(words) <= _CONTINUATION_MAX_WORDS and all(w in _CONTINUATION_WORDS for w in words)
