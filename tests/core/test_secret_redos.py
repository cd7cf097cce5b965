"""The secret filter runs in time linear in its text: a write, a note or a prompt of 50,000 characters made of
the filter's own trigger words costs well under a second (a quadratic rule once held the server's loop, and
with it /health, for minutes). The bound tells linear from quadratic, not fast from slow: a text over it fails
only when it also took far more than ten times its tenth.
bench/secret_redos.py measures every pattern's growth on its own."""

from __future__ import annotations

import time

import pytest

from kg_actors.core import private_text, secret_logs, secrecy
from kg_actors.core.secret_forms import FORM_RULES
from kg_actors.core.secret_prose import PROSE_RULES
from kg_actors.core.secret_shapes import GATES, SAID_RULES

LENGTH = 50_000
BOUND_S = 1.0

# Every rule's trigger, every provider format's gate, the key words, and the pieces audits found slow.
_TRIGGERS = sorted({t for _, t, _, _ in (*SAID_RULES, *FORM_RULES, *PROSE_RULES)}
                   | {g for gates in GATES.values() for g in gates}
                   | {"password", "password:", "password=", "token", "secret", "api key is", "login for", "cookie: ",
                      "sess-", "sid-", "eyJ_", "http://x:a", "a://a:", "<private a=1 ", "<private", "set ", "basic ",
                      "basic credentials", "machine a ", "identified by '", "private key ", "пароль ",
                      "kind: Secret\n", "data:\n  a: ", "stringData:\n  a: c3Vw", "\n---\nkind: Secret\ndata:\n",
                      "getConnection(a, ", "getConnection(\"a\", (b), ", "sqlplus a/", "sqlplus -s ",
                      "mc alias set a b c ", "https://3f9a1c2b4d5e6f708192a3b4c5d6e7f8@", "ab key is ", "ab api token is a1",
                      "ab secret for a b c is ", "psk=", "wpa_psk: \"", "u: a p: ", "ab:Tiger2024x", "ab:a1b2c3d4e5",
                      "a:" * 3, "passwort für a ist ", "mot de passe pour a est a", "passwort ist sonnenblume für "})
_FILLERS = ("", " ", "-", ":", "=")


def _texts():
    for trigger in _TRIGGERS:
        for filler in _FILLERS:
            unit = trigger + filler
            yield unit * (LENGTH // len(unit))
        yield trigger + " " * LENGTH
        yield "a" * LENGTH + " " + trigger + " sunflowerlagoon"
    yield "cookie: " + "sess-" * (LENGTH // 5)
    yield "cookie: " + "sid-" * (LENGTH // 4)
    yield ("cookie: " + "sess-" * 20) * (LENGTH // 108)
    yield "a" * LENGTH + " password: sunflowerlagoon"


def _timed(call, *args) -> float:
    start = time.process_time()  # CPU time: a loaded machine stretches the wall clock alone
    call(*args)
    return time.process_time() - start


def _too_slow(call, text: str) -> float | None:
    """How long `call(text)` took when that is over BOUND_S and it grew faster than its text: a loaded
    machine makes a linear rule slow at every length alike (ten times the text, about ten times the time),
    a quadratic one a hundred times. A busy neighbour can slow one run and not the next (a CI run once
    timed a linear rule at 1.06 s and its tenth at under 35 ms), so a text is slow only when three tries
    in a row all say so."""
    for _ in range(3):
        took = _timed(call, text)
        if took <= BOUND_S:
            return None
        tenth = max(min(_timed(call, text[:len(text) // 10]) for _ in range(3)), 1e-4)
        if not (took / tenth > 30 or took > 20 * BOUND_S):
            return None
    return took


def test_find_is_linear_on_each_trigger_word_repeated():
    slow = [(round(took, 2), text[:40]) for text in _texts() if (took := _too_slow(secrecy.find, text))]
    assert not slow, f"find took over {BOUND_S}s on: {slow}"


def _mixed():
    """Every trigger in one text, then the slow pieces the audit found: what the wrappers are timed on."""
    for filler in _FILLERS:
        unit = filler.join(_TRIGGERS) + filler
        yield (unit * (LENGTH // len(unit) + 1))[:LENGTH]
    yield from list(_texts())[-4:]


@pytest.mark.parametrize("check", ["check_fields", "loggable_terms", "strip_private"])
def test_the_filter_s_doors_are_linear_on_trigger_words(check):
    runs = {
        "check_fields": lambda text: secrecy.check_fields([("gist", text[:200]), ("notes[0]", text)]),
        "loggable_terms": lambda text: secret_logs.loggable_terms(text, text.split()[:50], prompt=text),
        "strip_private": lambda text: private_text.strip_private(text),
    }
    slow = [(round(took, 2), text[:40]) for text in _mixed() if (took := _too_slow(runs[check], text))]
    assert not slow, f"{check} took over {BOUND_S}s on: {slow}"


def test_the_cookie_rule_still_finds_a_session_cookie():
    value = "Zq8xLp2Vn7Kd4Rt9Ws3Yb6Hm"
    assert secrecy.find(f"Cookie: theme=dark; PHPSESSID={value}; lang=en").kind == "a session cookie"
    assert secrecy.find(f"cookie: csrftoken_x=abc; my-auth-token={value}").kind == "a session cookie"
    assert secrecy.find("cookie: theme=dark; lang=en-GB-with-a-long-tail-value") is None


def test_a_config_line_key_after_a_long_word_is_read_in_linear_time():
    assert not _too_slow(secrecy.find, "a" * LENGTH + " password: sunflowerlagoon")
    assert secrecy.find("db_password: sunflowerlagoon") is not None
