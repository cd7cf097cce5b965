"""A remote's password or token handed to git by an askpass script, never on its command line.

A command line is public on the machine: every local account reads it in `ps` or
/proc/PID/cmdline for as long as git runs (and an autocommit's sync runs git every
few minutes). So a URL's password (`https://bob:PW@host/x.git`) or a token given as
its user (`https://ghp_…@host/x.git`) is taken out of the URL git is given; git asks
for it through `GIT_ASKPASS`, a script kg writes in a temporary folder of its own
(mode 0700) that prints it from git's environment (readable by this account alone),
and the folder goes when git is done.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import unquote

_USERINFO = re.compile(r"(?i)^([a-z][a-z0-9+.\-]*://)([^/@\s]+)@")
TOKEN_USER = 20  # a user part this long is a token given as the user (as git.shown hides it)

# Git asks "Username for 'URL': " and "Password for 'URL': "; the answers come from git's environment.
_SCRIPT = """#!/bin/sh
case "$1" in
  [Uu]sername*) printf '%s\\n' "$KG_ASKPASS_USER" ;;
  *) printf '%s\\n' "$KG_ASKPASS_PASSWORD" ;;
esac
"""


def split(url: str) -> tuple[str, str, str] | None:
    """(the URL without its secret, the user, the password), both as git would decode them; None when the URL
    carries no password or token."""
    m = _USERINFO.match(url)
    if not m:
        return None
    user, sep, password = m.group(2).partition(":")
    if sep:
        return f"{m.group(1)}{user}@{url[m.end():]}", unquote(user), unquote(password)
    if len(user) >= TOKEN_USER:  # the token is the user: git is given the URL with no user, and asks for both
        return f"{m.group(1)}{url[m.end():]}", unquote(user), ""
    return None


@contextmanager
def hidden(args: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, str]]]:
    """`args` with each URL's password or token taken out, and the environment git then needs to get it (an
    askpass script that lasts while the block runs). Unchanged args and no environment when none holds one."""
    found = [(i, parts) for i, arg in enumerate(args) if (parts := split(arg)) is not None]
    if not found:
        yield args, {}
        return
    out = list(args)
    for i, (bare, _, _) in found:
        out[i] = bare
    _, user, password = found[0][1]  # one remote per git call
    folder = tempfile.mkdtemp(prefix="kg-askpass-")  # 0700: this account's alone
    try:
        script = os.path.join(folder, "askpass")
        fd = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
        with os.fdopen(fd, "w") as f:
            f.write(_SCRIPT)
        yield tuple(out), {"GIT_ASKPASS": script, "KG_ASKPASS_USER": user, "KG_ASKPASS_PASSWORD": password,
                           **_no_credential_helpers()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _no_credential_helpers() -> dict[str, str]:
    """Git's environment config clearing the credential helpers for this call: as with the password in the URL,
    none answers in its place (a stale stored one failed the sync) and none stores it (`store` writes it in plain
    text). Through the environment, after any entries already there."""
    try:
        n = int(os.environ.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        n = 0
    return {"GIT_CONFIG_COUNT": str(n + 1), f"GIT_CONFIG_KEY_{n}": "credential.helper", f"GIT_CONFIG_VALUE_{n}": ""}
