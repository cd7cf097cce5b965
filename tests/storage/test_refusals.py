"""The fix said for a refused save of the store is the one for its cause, read from the failure's text."""

from __future__ import annotations

from pathlib import Path

from kg_actors.storage.refusals import user_fix

STORE = Path("/home/me/.knowledge-graph")


def test_each_cause_gets_its_own_fix_whether_the_text_names_its_errno_or_only_its_words():
    assert "chmod u+w /home/me/.knowledge-graph" in user_fix("([Errno 13] Permission denied: 'x.tmp')", STORE)
    assert "chmod" in user_fix("Operation not permitted", STORE)
    assert user_fix("[Errno 28] No space left on device", STORE).startswith("free space on the disk holding")
    assert user_fix("Disk quota exceeded", STORE).startswith("free space")
    assert "mounted read-only" in user_fix("could not be saved (Read-only file system)", STORE)
    unknown = user_fix("[Errno 27] File too large", STORE)
    assert "writable" in unknown and "free space" in unknown  # a cause with no fix of its own: both said
