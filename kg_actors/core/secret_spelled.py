"""Words given to a password-named key that are its password (core/secrecy.py asks): `password=correct-horse-
battery-staple`, `"db_password": "tulip-wagon-orbit-lemon"`, a config line `password: sunflowerlagoon`; not prose
or code about it ("password: hashed with bcrypt", `f(password=secret)`, `password: str`)."""

from __future__ import annotations

import re

from .secret_lookalikes import DESCRIPTIONS as _DESCRIPTIONS, TYPE as _TYPE, placeholder as _placeholder

ASSIGNED_MIN_CHARS = 6  # a shorter value after `password=` is an example, not a credential


# Words given to a password-named key: one (`sunflowerlagoon`), a passphrase (`correct-horse-battery-staple`), or
# digits (a wifi's `84920174`). Not `_` or `.`: those join a name in code (`args.password`), which is a reference.
_PASSPHRASE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*|\d+")
# The keys whose value is a password whatever it looks like; `pass` alone ends `bypass` and `compass`, `pwd`
# alone is the working directory, so those need a longer name (`DB_PWD`).
_PASSWORD_KEYS = frozenset(("password", "passwd", "passphrase", "client_secret"))
# The name a key word ends (`DB_` of `DB_PASSWORD`), read from the end: possessive, so a search from each
# start of a long word fails at once instead of retrying every shorter run (`"a"*40000 + " password: x"`).
_NAME_BEFORE = re.compile(r"(?<![\w.-])[\w.-]*+$")
_KEY_MAX_INDENT = 200


def spelled(text: str, word: re.Match[str], m: re.Match[str]) -> bool:
    """Whether words given to a password-named key are its password (`password=correct-horse-battery-staple`,
    `"db_password": "tulip-wagon-orbit-lemon"`, a config line `password: sunflowerlagoon`) rather than prose
    or code about it ("password: hashed with bcrypt", `f(password=secret)`, `password: str`)."""
    key, start, end = word.group(0), m.start(1), m.end(1)
    named = key in _PASSWORD_KEYS or key == "pwd" and word.start() > 0 and text[word.start() - 1] in "_-"
    # An environment's JWT_SECRET=..., DB_PASS=...: the tail of a capital name after '_'.
    named = named or (key in ("secret", "pass") and word.start() > 0 and text[word.start() - 1] == "_"
                      and text[word.start():word.end()].isupper())
    secret = key == "secret" and (word.start() == 0 or not (text[word.start() - 1].isalnum()
                                                            or text[word.start() - 1] in "_-"))
    value = m.group(1)
    if not (named or secret) or not _PASSPHRASE.fullmatch(value) or len(value) < ASSIGNED_MIN_CHARS:
        return False
    if value.isupper() or value.lower() in _DESCRIPTIONS or _placeholder(value) or _TYPE.fullmatch(value):
        return False
    if "\n" in text[word.end():start]:
        return False  # a prompt's "Password:" and the next line's first word
    line_start = text.rfind("\n", 0, word.start()) + 1
    if value.lower() in text[line_start:word.start()].lower():
        return False  # the service's own name as its default (`MYSQL_PASSWORD=mysql`)
    before, after = text[start - 1], text[end:end + 1]
    if before in "\"'`":
        return after == before  # a literal, quoted whole (`"must be long"` quotes prose)
    line_end = text.find("\n", end)
    rest = text[end:] if line_end == -1 else text[end:line_end]
    if before in "=:":  # glued: a shell's, a .env's or a URL's `KEY=value`; a call's `f(password=secret)` names one
        return not (rest[:1] in ",)" and "(" in text[line_start:word.start()])
    # With a space: a config line only, the key first on it and the value last ("Password: see the vault"
    # is prose). A `secret: name` line names a Kubernetes or CI Secret, not its value.
    if word.start() - line_start > _KEY_MAX_INDENT:
        return False  # far into a line: prose, not a config line's key (and not a scan of a long line per word)
    head = _NAME_BEFORE.sub("", text[line_start:word.start()], count=1)
    return not secret and not head.strip(" \t-#\"'") and not rest.strip(" \t,;")
