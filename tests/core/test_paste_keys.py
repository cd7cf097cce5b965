"""The name of the error a paste reports, taken beside the typed question (core/paste_keys.py, issue #12).

Pastes of other tools and languages than the evaluation's (bench/recall_data.py, recall_pasted.py).
"""

from __future__ import annotations

import pytest

from kg_actors.core import recall
from kg_actors.core.paste_keys import error_message, pasted_words
from kg_actors.core.typed import typed_part

PY_TRACE = """Traceback (most recent call last):
  File "/srv/app/billing/invoices.py", line 57, in render_invoice
    total = quantize(line.amount)
  File "/srv/app/.venv/lib/python3.12/site-packages/babel/numbers.py", line 1170, in format_currency
    raise UnknownCurrencyError(currency)
babel.numbers.UnknownCurrencyError: Unknown currency 'XBT'."""
NODE_TRACE = """/home/dev/web/src/cart/summary.tsx:31
    const lines = props.items.map(renderLine)
                              ^
TypeError: Cannot read properties of undefined (reading 'map')
    at Summary (/home/dev/web/src/cart/summary.tsx:31:31)"""
JAVA_TRACE = """Exception in thread "main" java.lang.IllegalStateException: pool closed
	at com.acme.db.Pool.borrow(Pool.java:88)
Caused by: java.net.ConnectException: Connection refused
	at java.base/sun.nio.ch.Net.connect0(Native Method)"""
CHAINED = """sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) duplicate key value
sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) duplicate key value
psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "projects_slug_key\""""
K8S_FIELDS = """    State:          Running
      Started:      Mon, 30 Nov 2026 10:02:11 +0000
    LastState:      Terminated
      Reason:       OOMKilled
      Exit Code:    137"""
DIFF = """diff --git a/config/limits.toml b/config/limits.toml
--- a/config/limits.toml
+++ b/config/limits.toml
@@ -3,3 +3,3 @@
-burst = 20
+burst = 200"""


def keys(question: str, paste: str) -> list[str]:
    prompt = f"{question}\n\n{paste}"
    return pasted_words(prompt, typed_part(prompt))[0]


def test_a_traceback_gives_its_error_with_its_package():
    assert keys("why does the invoice page crash?", PY_TRACE) == ["babel UnknownCurrencyError"]


def test_an_error_named_by_its_kind_alone():
    assert keys("the cart breaks when it is empty, why", NODE_TRACE) == ["TypeError"]


def test_a_caused_by_chain_gives_the_first_two_names_once_each():
    assert keys("what is wrong with the pool?", CHAINED) == ["sqlalchemy IntegrityError", "psycopg UniqueViolation"]


def test_pytests_error_lines_give_their_error():
    run = ("________________ test_roundtrip ________________\n"
           "E   hypothesis.errors.DeadlineExceeded: Test took 412.37ms, which exceeds the deadline of 200.00ms\n"
           "E   Falsifying example: test_roundtrip(\nE       payload={'a': ''},\nE   )\n")
    assert keys("CI has been red on and off all week with this:", run) == ["hypothesis DeadlineExceeded"]


def test_a_name_after_other_words_on_its_line_is_not_taken():
    assert keys("the worker dies at start, what now?", JAVA_TRACE) == []


@pytest.mark.parametrize("paste", [K8S_FIELDS, DIFF])
def test_fields_and_diffs_give_nothing(paste):
    assert keys("why was it restarted?", paste) == []


def test_nothing_pasted_nothing_added():
    text = "why does the invoice page crash when a currency is unknown? see invoices.py"
    assert pasted_words(text, typed_part(text)) == ([], [])


def test_the_keys_follow_the_typed_words_then_the_pastes_names():
    human = recall.human_text(f"why does the invoice page crash?\n\n{PY_TRACE}")
    assert human.startswith("why does the invoice page crash? babel UnknownCurrencyError ")
    assert human.split("UnknownCurrencyError ", 1)[1].split() == pasted_words(PY_TRACE, "")[1]


def test_a_pastes_identifiers_are_its_words_of_parts_in_order_each_once():
    paste = ("@app.task(bind=True, acks_late=True)\ndef bill_overage(self, workspace_id):\n"
             "    sentry_sdk.init(traces_sample_rate=1.0)  # see proxy-body-size, staleTime and acks_late\n"
             "    return 42, 'plain words', 2024-05-14, v2\n")
    assert pasted_words(paste, "")[1] == ["app.task", "acks_late", "bill_overage", "workspace_id", "sentry_sdk.init",
                                   "traces_sample_rate", "proxy-body-size", "staleTime"]
    assert pasted_words("one_two three_four five_six seven_eight nine_ten a_b c_d e_f g_h", "")[1][-1] == "e_f"  # 8


def test_identifiers_are_found_in_linear_time_and_only_in_the_paste():
    typed = "why does the export fail? see export_rows"
    assert pasted_words(typed, typed) == ([], [])  # the typed lines are the words themselves
    # 19,000 letters with no separator: a search for parts inside them backtracked for seconds.
    assert pasted_words(typed + "\n\n" + "a" * 19_000, typed) == ([], [])
    assert pasted_words(typed + "\n\n" + "x_" * 9_500, typed) == ([], [])  # one token of 19,000: no name


@pytest.mark.parametrize("paste", [PY_TRACE, NODE_TRACE, DIFF])
def test_a_paste_with_nothing_typed_still_earns_no_recall(paste):
    assert recall.human_text(paste) is None


ALEMBIC_LOG = """INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
ERROR [alembic.util.messaging] Multiple head revisions are present for given argument 'head'; please specify a specific target revision
  FAILED: Multiple head revisions are present"""


def test_an_error_lines_message_is_its_words_past_the_level_and_the_logger_without_quoted_values():
    assert error_message(ALEMBIC_LOG, "") == ["Multiple", "head", "revisions", "are", "present", "for", "given",
                                              "argument"]
    assert error_message(PY_TRACE, "") == ["Unknown", "currency"]
    assert error_message("2026-12-01 10:00:00 [CRITICAL] WORKER TIMEOUT (pid:12)", "") == ["WORKER", "TIMEOUT"]


@pytest.mark.parametrize("paste", [K8S_FIELDS, DIFF, "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl."])
def test_a_paste_without_an_error_line_has_no_message(paste):
    assert error_message(paste, "") == []


def test_a_question_naming_next_to_nothing_borrows_its_pastes_error_message():
    human = recall.human_text(f"why does this fail?\n\n{ALEMBIC_LOG}")
    assert {"multiple", "head", "revisions", "present"} <= set(recall.prompt_terms(human))
    # A question that says what it is about keeps to its words, the error's name and the identifiers.
    human = recall.human_text(f"why does the invoice page crash?\n\n{PY_TRACE}")
    assert "Unknown" not in human.split() and "currency" not in human.split()
    # The message is in the paste, not in what was typed: a typed error line lends nothing twice.
    typed = "why does this fail? ERROR: the invoice page is blank"
    assert error_message(typed, typed_part(typed)) == []
