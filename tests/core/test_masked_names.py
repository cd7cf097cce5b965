"""Names a log line prints, masked where they hold a key's shape (a hand-edited graph's edge end)."""

import logging

from kg_actors.core.held_names import masked_names
from kg_actors.log_names import MaskedNames

TOKEN = "ghp_9876543210abcdefghijABCDEFGHIJ987654"


def test_a_key_in_a_logged_name_is_masked_and_ordinary_names_are_not():
    said = masked_names(f"project:proj: removing edge token-words-prose->{TOKEN}:uses (an endpoint names no node)")
    assert TOKEN not in said and "ghp_… (40 characters)" in said and "token-words-prose->" in said
    plain = "user: removing edge redis-cache-ttl-policy->src/services/session_store.py:relates-to; sha 3f5e9c2a1b7d4e6f"
    assert masked_names(plain) == plain


def test_the_filter_masks_a_record_formatted_with_args():
    record = logging.LogRecord("kg_actors.graph_actor", logging.INFO, __file__, 1, "%s: removing edge %s->%s:%s",
                               ("project:proj", "a", f"scripts/{TOKEN}.sh", "uses"), None)
    assert MaskedNames().filter(record) is True
    assert TOKEN not in record.getMessage() and record.getMessage().startswith("project:proj: removing edge a->")
