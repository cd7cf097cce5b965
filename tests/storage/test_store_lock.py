"""The store's folder: one server at a time, and this user's alone."""

from __future__ import annotations

import os

import pytest

from kg_actors.storage import lock


def test_a_store_open_to_other_accounts_is_closed_when_claimed(tmp_path):
    root = tmp_path / "store"
    root.mkdir()
    os.chmod(root, 0o755)  # what mkdir gives under a umask of 022
    (root / "user.json").write_text("{}")
    fd = lock.claim(root)
    try:
        assert os.stat(root).st_mode & 0o777 == 0o700
    finally:
        lock.release(fd)


def test_a_new_store_is_made_private_and_a_second_claim_is_refused(tmp_path):
    root = tmp_path / "deep" / "store"
    fd = lock.claim(root)
    try:
        assert os.stat(root).st_mode & 0o077 == 0
        with pytest.raises(lock.StorageBusy):
            lock.claim(root)
    finally:
        lock.release(fd)
