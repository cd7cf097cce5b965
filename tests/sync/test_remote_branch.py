"""Which branch of a remote a sync merges and pushes to (`git_merge.branch_to_sync`)."""

import pytest

from kg_actors.storage.git import GitError
from kg_actors.storage.git_merge import branch_to_sync

C = "0" * 40


def test_our_branch_when_the_remote_has_it_and_none_for_a_remote_with_no_branch():
    assert branch_to_sync("r", "main", {"main": C, "master": C}, "master") == "main"
    assert branch_to_sync("r", "master", {"main": C, "master": C}, "main") == "master"
    assert branch_to_sync("r", "main", {}, "main") is None  # empty: the push gives it ours
    assert branch_to_sync("r", "main", {}, None) is None


def test_without_ours_the_branch_its_head_names_else_its_only_one_else_main_or_master():
    # A kg-memory 0.17 store's remote (master) and a new store (main); an upgraded 0.17 store and a new remote.
    assert branch_to_sync("r", "main", {"master": C}, "master") == "master"
    assert branch_to_sync("r", "master", {"main": C}, "main") == "main"
    assert branch_to_sync("r", "main", {"trunk": C, "dev": C}, "trunk") == "trunk"  # its content is checked next
    assert branch_to_sync("r", "main", {"master": C}, None) == "master"  # a bare repository's unborn HEAD
    assert branch_to_sync("r", "main", {"master": C, "dev": C}, "gone") == "master"


def test_branches_none_of_which_can_be_told_apart_are_refused_not_pushed_beside():
    with pytest.raises(GitError, match=r"'r' has branches \(dev, topic\) but none named main"):
        branch_to_sync("r", "main", {"dev": C, "topic": C}, None)
