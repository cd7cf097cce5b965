"""What a prompt asks for: general know-how, a task to carry out, or help with this project.

"How do I rename a git branch?", "Explain rate() vs irate()", "Write a bash
one-liner that ...", "Tailwind: what's the cleanest way to ...": a request for
what any manual answers. The model knows it; a lesson of this project's memory
that shares the tool's name and a word with it is chance, not what was asked
(issue #12: these were most of the unrelated prompts that spoke). Work on the
project says so otherwise ("we", a file, a failure, a plan), and a request
opening like this can still be about a lesson: recall asks such a prompt's
hits for more score (RECALL_GENERAL_ASK_SCALE), it does not go silent.

Told by how the prompt opens (after a greeting and a label of a few words:
"Tool:", "In Tool,"; after such a label any question word asks in general:
"React 18: does ..."), or by a plain question that names nothing of ours ("Is
Python's sort stable?"); never by the tools it names: "how do we ..." is about
us, and so is a request that opens with anything else.

A task to carry out ("Add a '/' shortcut that focuses the search box",
"Rename get_usr to get_user everywhere") names the project's tools as every
prompt of its work does, and a lesson on those tools comes up by topic alone;
a symptom, a question or a plan is where a stored lesson answers. Its hits are
asked for more score too (RECALL_TASK_ASK_SCALE), less than general know-how's:
"add a k8s Secret yaml with the new SENDGRID_API_KEY under deploy/k8s/secrets
..." still met the lesson on sealed secrets (a blind split's prompt).
"""

from __future__ import annotations

import re

from . import constants as C

_OPENING = re.compile(
    r"""^\W*
    (?:(?:hey|hi|ok|okay|so|quick\ one|quick\ question)\W+)*           # a greeting or "quick one:"
    (?P<topic>[\w.\-]+(?:\ [\w.\-]+){0,3}[:,]\s*  # "React Router v6:", "In GitHub Actions,", "SQLAlchemy 2.0,"
      | (?:using|with|in)\ [^,?\n]{1,40},\s*(?=how|what|which|is|does|can)  # "Using the Stripe Python library, how"
    )?
    (?:
        how\ (?:do|can|should|would)\ (?:i|you|one|another|a|an|the)\b  # not "we": that is about us
      | how\ to\b
      | (?:what.?s|what\ is|which\ is)\ the\ (?:\w+\ ){0,2}
        (?:difference|relationship|\w+est\ way|best\ way|right\ way|proper\ way|syntax|command|query|call|flag
           |option|regex)\b
      | (?:the\ )?(?:\w+est|best|right|proper|idiomatic)\ way\ to\b  # "safest way to count keys ..."
      | (?:which|what)\ (?:\w+\ ){0,2}(?:command|flag|option|syntax)\b
      | what\ does\b
      | (?:can|could)\ (?:you|someone|anyone)\ (?:please\ )?(?:explain|write|give|show|suggest)\b
      | (?:please\ )?(?:explain|write|give\ me|show\ me|suggest)\b
      | is\ there\ a\ (?:way|command|flag|option)\b
      | (?:[\w.\-]+\ ){1,2}(?:command|query|one-liner|regex|snippet)\ (?:to|that|for)\b  # "kubectl command to ..."
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# A label before the question ("React 18: does ...", "pytest: how does ...", "With Celery, what happens
# ...") marks a question about a tool in general: any question word may follow it.
_LABELLED = re.compile(
    r"""^\W*
    (?:(?:hey|hi|ok|okay|so|quick\ one|quick\ question)\W+)*
    (?:[\w.\-]+(?:\ [\w.\-]+){0,3}:\s*  # "React 18:", "python q:" (not "Also, ...": a comma joins a sentence)
      | (?:using|with|in)\ [^,?\n]{1,40},\s*
    )
    (?:how|what|which|why|when|where|is|are|does|do|can|should|will|would)\b""",
    re.IGNORECASE | re.VERBOSE,
)
# A question on how a tool behaves, with nothing of ours in it ("Is Python's sort stable?", "When does postgres
# pick a bitmap scan?"): its first sentence asks, and names no one here, no file and no path. "Can you ..."
# asks for work, "should ..." weighs a choice of ours, and "why does the page ..." points at a thing of ours.
_PLAIN_QUESTION = re.compile(r"(?i)^\W*(?:why|when|where|is|are|does|do|how|(?:can|could)(?!\ you\b))\b"
                             r"(?!(?:\ (?:is|are|does|do|did|was|can))?\ the\b)[^?\n]{0,200}\?")
_ANCHORED = re.compile(r"(?i)\b(?:we|our|us|this|these|that|here|my|me|i)\b|[/\\]|\w\.(?:py|ts|tsx|jsx|mjs|rb|go|rs"
                       r"|java|kt|yml|yaml|tf|sql|toml|cfg|ini|sh|css|scss|html|lock|json|md)\b")
_ONE_LINER = re.compile(r"(?i)\bone-liner\b")
# "ENTRYPOINT vs CMD, which ...?": a comparison asked
_VERSUS = re.compile(r"(?i)^[^?\n]{0,60}\bvs\.?\ [^?\n]{0,120}\?")
_OURS = re.compile(r"(?i)\b(?:we|our|us|i|my)\b")  # "before we ship: how do I ..." is about us
_OUR_OWN = re.compile(r"(?i)\b(?:we|our|us)\b")  # "our staging vs prod configs drifted, which ...?"
_OPENING_CHARS = 200  # the opening is what is read: a long prompt is not scanned


# A task's opening verb, after a greeting or "can you": the verbs of changing code and config, not those that
# open a symptom as often as a task ("support keeps ...", "build fails ..."). "make" stays, though "make install
# fails ..." then reads as a task. ("Write ..." is mostly general know-how, asked first.)
_TASK = re.compile(
    r"""^\W*
    (?:(?:hey|hi|ok|okay|so|now|also|and|then|please|pls)\W+)*
    (?:(?:can|could|would)\ you\ (?:please\ )?)?
    (?:add|rename|refactor|make|change|update|bump|fix|write|implement|create|move|remove|delete|convert|replace
       |extract|split|generate|migrate|wire|enable|disable|switch|swap|upgrade|clean|tidy|extend|expose|allow|hide
       |render|include|sort)
    \ +[\w'"`/.]""",
    re.IGNORECASE | re.VERBOSE,
)


def ask_scale(text: str) -> float:
    """How much more score this prompt's hits need for what it asks: general know-how the most, a task
    to carry out some, help with the project (a symptom, a question, a plan) nothing more."""
    if general_ask(text):
        return C.RECALL_GENERAL_ASK_SCALE
    if task_request(text):
        return C.RECALL_TASK_ASK_SCALE
    return 1.0


def task_request(text: str) -> bool:
    """The typed text opens by telling the agent what to change ("Add ...", "Can you rename ...")."""
    return _TASK.match(text[:_OPENING_CHARS]) is not None


def general_ask(text: str) -> bool:
    """The typed text opens as a request for general know-how (or with any question after a tool's
    label), asks for a one-liner or compares two things in its first question ("useLayoutEffect vs
    useEffect, when ...?")."""
    head = text[:_OPENING_CHARS]
    opening = _OPENING.match(head)
    if opening is not None and not _OURS.search(opening.group("topic") or ""):
        return True
    if _LABELLED.match(head) is not None and not _OUR_OWN.search(_first_clause(head)):
        return True
    question = _PLAIN_QUESTION.match(head)
    if question is not None and not _ANCHORED.search(question.group()):
        return True
    if _ONE_LINER.search(head) is not None:
        return True
    versus = _VERSUS.match(head)
    return versus is not None and not _OUR_OWN.search(versus.group())


def _first_clause(text: str) -> str:
    """Up to the first question mark or line end."""
    return re.split(r"[?\n]", text, maxsplit=1)[0]
