"""An unreachable remote's error keeps git's own cause, beside the advice git gives for every such failure."""

from kg_actors.storage.git_merge import _cause


def test_gits_cause_is_kept_and_its_advice_for_every_failure_is_not():
    stderr = ("ssh: connect to host 127.0.0.1 port 19309: Connection refused\n"
              "fatal: Could not read from remote repository.\n\n"
              "Please make sure you have the correct access rights\nand the repository exists.\n")
    assert _cause(stderr) == "ssh: connect to host 127.0.0.1 port 19309: Connection refused"
    assert _cause("fatal: '/x.git' does not appear to be a git repository\n" + stderr.split("\n", 1)[1]) == (
        "fatal: '/x.git' does not appear to be a git repository")
    assert _cause("fatal: Could not read from remote repository.\n") == "fatal: Could not read from remote repository."
    assert _cause("") == "unknown error"
