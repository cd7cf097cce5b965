"""`kg setup`, `kg uninstall` and `kg doctor`: wire the installed harnesses to the memory, and check them.

Pure decisions (what to do from what was found) live in `plan.py`; each harness
module finds its state and knows its own commands; `files.py` holds the atomic
writes, the lock and the record of what setup changed, so uninstall can undo it.
Only the standard library and attrs are imported here: `kg mcp` never loads it.
"""


class SetupError(Exception):
    """A problem setup cannot work around: the message names the file and the rule."""
