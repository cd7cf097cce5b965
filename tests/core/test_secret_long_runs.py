"""Every door of the secret check reads a long run of one thing in time linear in its length: blanks, line
breaks, separators, a secret-named word glued to itself (`token_token_…`), a key prefix repeated. An outside
audit found a gist of `x` and 19,999 tabs held the server's loop 12-14 s (the line-break pattern of
core/secret_joins.py tried at each blank, read to the run's end each time), 20,000 spaces 6-9 s (the gist's
fold, plain_text.py) and `token_` repeated to 20 KB 2 s a field (an identifier's parts split every way in
secret_prose.py). Timed in process time, as tests/core/test_secret_redos.py does."""

from __future__ import annotations

import time

import pytest

from kg_actors.core import held_secrets, plain_text, secrecy, secret_state, withheld
from kg_actors.core.errors import KGError
from kg_actors.core.records import Node

LENGTH = 100_000
# What ordinary prose of this length costs (the README five times over: ~0.4 s here) bounds a hostile run too;
# before the fixes a tenth of this length took seconds.
BOUND_S = 1.0
UNITS = (" ", "\t", "\n", " \t", "\r\n", "x \n", "=\n", "\u00a0", "\u2028", "-", "_", ".", "=", ":", "/", "|",
         "token_", "api_key_", "secret_", "SECRET_", "password ", "pass ", "token ", "secret ", "token=",
         "password:", "ghp_", "glpat-", "xoxb-", "sk_", "-----", "\\n")


def _run(unit: str, length: int) -> str:
    return "x" + (unit * (length // len(unit) + 1))[:length - 2] + "y"


def _write_gist(text: str) -> None:
    secrecy.clean_node(text, None, None)


def _write_notes(text: str) -> None:
    secrecy.clean_node("a lesson", [text, text[:200]], None)


def _edge_notes(text: str) -> None:
    secrecy.clean_notes([text])


def _progress(text: str) -> None:
    secret_state.refuse_state("task", {"done": [text], "why": text[:500]})


def _load_scan(text: str) -> None:
    held_secrets.in_node("n", {"gist": text, "notes": [text]})


def _shown(text: str) -> None:
    withheld.node_shown(Node(id="n", gist=text, notes=(text,), touches=()))


DOORS = {"write gist": _write_gist, "write notes": _write_notes, "edge notes": _edge_notes, "progress": _progress,
         "load scan": _load_scan, "shown to agents": _shown}


def _took(door, text: str) -> float:
    start = time.process_time()
    try:
        door(text)
    except KGError:
        pass  # refused (20,000 spaces are an empty gist): the time to say so is what counts
    return time.process_time() - start


def _too_slow(door, unit: str) -> float | None:
    """The time over BOUND_S, when three tries in a row say so and it grew faster than its text (ten times the
    text, over thirty times the time): a loaded machine slows a linear rule at every length alike."""
    for _ in range(3):
        took = _took(door, _run(unit, LENGTH))
        if took <= BOUND_S:
            return None
        tenth = max(min(_took(door, _run(unit, LENGTH // 10)) for _ in range(3)), 1e-4)
        if not (took / tenth > 30 or took > 20 * BOUND_S):
            return None
    return took


@pytest.mark.parametrize("door", sorted(DOORS))
def test_each_door_reads_a_long_run_in_linear_time(door):
    slow = [(unit, round(took, 2)) for unit in UNITS if (took := _too_slow(DOORS[door], unit)) is not None]
    assert not slow, f"{door} took over {BOUND_S}s on 100 KB runs of: {slow}"


def test_a_gist_of_a_word_and_tabs_is_stored_as_the_word():
    assert secrecy.clean_node("x" + "\t" * 19_999, None, None).gist.startswith("x\t")
    assert plain_text.fold_gist("x" + "\t" * 19_999) == ("x", True)  # as the write stores it
    assert plain_text.fold_gist(" " * 19_999 + "\t") == ("", True)  # the write then says the gist is empty


@pytest.mark.parametrize("text", [
    "lesson\n   \t\nSTRIPE_KEY=sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + "\t\t",
    "deploy_token   \t abcdef0123456789abcdef0123456789",
    "the CI_DEPLOY_API_TOKEN: 3f9a1c2b4d5e6f708192a3b4c5d6e7f8",
])
def test_the_rules_made_linear_still_refuse_what_they_did(text):
    with pytest.raises(secrecy.SecretRefused):
        secrecy.clean_node(text, None, None)


def test_a_key_cut_by_a_line_break_between_blanks_is_still_refused():
    with pytest.raises(secrecy.SecretRefused, match="gist joined|gist holds"):
        secrecy.clean_node("ghp_Zq8xZq8xZq8xZq8x  \n  Zq8xZq8xZq8xZq8xZq8x", None, None)
