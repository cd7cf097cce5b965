"""Secrets never reach the memory: what a write may not carry, decided by shape.

Every session of every project reads the memory, and its files are plain JSON
that people commit and sync, so a key written once leaks everywhere. Two rules:

- Text inside `<private>...</private>` is cut out before anything is stored
  (an unclosed `<private>` hides the rest of the field). The tag is read as
  markup: `<private name=value>` and fullwidth brackets are tags, while
  `<private key file>` is text.
- A value shaped like a credential is refused whole, naming the field and the
  kind of secret and showing only a masked preview: provider key formats,
  private key blocks, webhook URLs, credentials inside URLs, authorization
  headers, passwords on command lines (`sshpass -p`, `--token X`), in .netrc
  entries and registry logins, and `password=`/`token=`-style assignments or
  high-entropy strings right after such a word. Words given to a password-named
  key are its password (`password=correct-horse-battery-staple`); passwords,
  logins and keys said in prose are judged in core/secret_prose.py, a
  Kubernetes Secret's values are read in core/secret_manifests.py. Look-alikes
  pass: hashes (a password's too, `$argon2id$…`, `$2b$…`: no password), commit ids and UUIDs on their own, placeholders (`${TOKEN}`,
  `<password>`, `****`), code that reads a secret from somewhere
  (`os.environ["API_KEY"]`, `password=args.password`), type annotations
  (`password: str`), ports (`ssh -p 2222`), and prose about keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from .errors import InvalidInput, KGError
from .plain_text import BLANK_TOUCH, check_note
from .private_text import items_without_private, strip_private
from .secret_names import CODE_NAME as _CODE_NAME, ENV_NAME as _ENV_NAME, code_path as _code_path, is_path as _is_path
from .secret_names import HEADER_NAME as _HEADER_NAME, KEY_ID_SETTING as _KEY_ID_SETTING, classes as _classes
from .secret_base64 import BASE64_LAYERS, Budget, decoded_runs, in_place, text_at
from .secret_forms import FORM_RULES
from .joined_parts import real_parts
from .secret_joins import Joined, joined_texts
from .secret_manifests import kube_secret
from .secret_names import OPAQUE_MIN_ENTROPY, entropy as _entropy, scrambled as _scrambled, user_password as _user_password
from .secret_names import HOST_NAME as _HOST_NAME, plain_url as _plain_url
from .secret_prose import PROSE_RULES, is_password, judged_as
from .secret_fragments import fragment_in, fragments_in
from .secret_cuts import cut_runs, worded_key
from .secret_shapes import DISCORD, GATES, HEADERS, NAMED_BY_PREFIX, SAID_RULES, SHAPES
from .secret_shapes import DOCUMENTED_EXAMPLES, named_in_code
from .secret_lookalikes import CODE_REF as _CODE_REF, DESCRIPTIONS as _DESCRIPTIONS, TYPE as _TYPE, placeholder as _placeholder
from .secret_lookalikes import annotated as _annotated, default_login, hex_labelled, in_expansion, in_password_hash
from .secret_aws import aws_secret as _aws_secret, beside as aws_beside, key_id_said
from .secret_findings import MASK_SHOWN_MIN_CHARS, Finding, mask as _mask
from .secret_plain import plain as _plain
from .secret_kinds import data_key_before, data_key_value, gpg_key_id
from .secret_places import in_arn, names_member
from .secret_seams import cut_at, glued_only_at, plain_join
from .secret_escapes import hex_of_words, hex_spelled, unescaped
from .secret_spelled import ASSIGNED_MIN_CHARS, spelled as _spelled


_SAID = tuple((kind, trigger, re.compile(rx), judge) for kind, trigger, rx, judge in (*SAID_RULES, *FORM_RULES,
                                                                                          *PROSE_RULES))
_HEX_ABOUT = re.compile(r"(?i)sha|hash|fingerprint|digest|checksum|public|address")

# `password=...`, `"api_key": "..."`, `token: ...`: the word, a separator, then the value. The word
# may end a longer name (DB_PASSWORD): no prefix is matched, the search finds the word inside it.
# Two-word names are written with a space too ("Sendgrid API key: ...", "wallet private key: ..."); `secret_key`
# is one name, so `SECRET_KEY=...` is read as assigned, not as `secret` followed by `_KEY`.
_WORDS = (r"p(?:ass(?:word|wd|phrase|code)?|wd|w(?![a-z])|riv(?:ate)?[ _-]?key)|"
          r"s(?:ecret(?:[ _-]?key)?|ession[_-]?key|igning[ _-]?key)|token|"
          r"a(?:pi[ _-]?key|ccess[ _-]?key|ccount[_-]?key|uth[_-]?key)|c(?:lient[ _-]?secret|redentials?|reds?(?![a-z]))|"
          r"(?:encryption|master)[ _-]?key|(?:hmac|jwt|app)[_-]?key")
_KEYWORD = re.compile(_WORDS)  # factored by first letter (twice as fast); run over the lowercased text
_ROOTS = ("pass", "pw", "secret", "token", "key", "cred")
# The words after which a shorter random string is a password: `password for staging: Kx9mQ2vLp4Za`,
# `use password Kx9mQ2vLp4Zb for the admin user`, `creds: admin / Kx9mQ2vLp4Zt`. Not a token's or a key's
# words: prose names ids beside those (`token for tenant Ab3dE9xZ`). Whole words only: `passed`, `credits`.
_PASSWORD_WORDS = frozenset(("password", "passwd", "passphrase", "passcode", "pw", "pwd", "cred", "creds",
                             "credential", "credentials"))
_SHORT = re.compile(r"[^\s\"'`,;<>]{8,}")
# A word after `name: ` that a sentence goes on from (two more words): prose, as an error message is.
_PROSE_AFTER = re.compile(r"\s*:\s+[A-Za-z][a-z]+ [a-z]+ [a-z]+")
# A value is read to its first 256 characters: a longer run is no less a secret, and an unbounded one made a
# text of `pass:` repeated cost the square of its length.
_ASSIGNED = re.compile(r"[\"']?\s*(?::=|=>|[:=])\s*[\"'`]?([^\s\"'`,;)\]}]{1,256})")
# A value cut at an apostrophe with letters after it is a word of prose: AWS's "InvalidIdentityToken: Couldn't
# retrieve ..." gives `Couldn` (a lesson of a memory written blind was refused for it).
_CONTRACTION = re.compile(r"'[A-Za-z]")
_NEAR_WINDOW = 60  # characters after a secret-named word where an opaque string counts
_OPAQUE = re.compile(r"(?<![A-Za-z0-9_/.-])[A-Za-z0-9+/_=.-]{16,}")  # 16 to 19: only scrambled (`_credential`)

_BASE64ISH = re.compile(r"[0-9=+/]|[a-z][A-Z]")  # base64 of `user:pass`: a digit, padding or a case change
_PERCENT = re.compile(r"%([2-7][0-9A-Fa-f])")  # a URL's escapes of printable ASCII (what keys are made of)
_HEX = re.compile(r"[0-9a-fA-F]+")
# What follows a PEM header that holds a key: its base64 body (not a word: a digit, a sign or a case change in
# it), or an encrypted key's `Proc-Type:`, past blanks and a JSON string's `\n`. A header alone names the format.
_PEM_BODY = re.compile(r"(?:\s|\\[nr])*(?:Proc-Type:|(?=[A-Za-z0-9+/]{0,63}(?:[0-9+/]|[a-z][A-Z]))[A-Za-z0-9+/]{8})")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_PARTS = re.compile(r"[-_.=]+")
_WORD_PART = re.compile(r"[A-Za-z]?[a-z]{2,}[0-9]*|[A-Z]{2,}[a-z]?[0-9]*")  # `Linux`, `pip`, `ubuntu22`, `kid`



def find(text: str, shapes_only: bool = False, decode: bool = True, seams: str | None = None) -> Finding | None:
    """The first secret in `text`, or None. Cheap tests first: most text has no key prefix,
    no URL, and no secret-named word, and then no pattern runs at all. `shapes_only`: provider
    formats alone, for names (an id, a rel, a path): `jwt-token-normalizer` says "token" beside an
    opaque-looking word by design, and is no credential.

    A key hidden by invisible characters, written in fullwidth or look-alike letters or percent-encoded is
    the same key, and the finding is the one of the text with those undone (its preview neither counts an
    invisible character nor shows more of the secret for it); the text as written is read too, for what the
    undoing would hide. Most text is plain ASCII, and is read once. Base64 runs are decoded and read too
    (`decode`; two layers), their finding said as base64 of its kind. `seams`: `text` with a space where it
    glues two fields or lines (core/secret_joins.py), in which keys cut after their prefix are read: a glued
    text's words are cut there, not one word of a key (`…_KEY_HERE` and `then restart` make no `HEREthen`)."""
    plain = _plain(text)
    found = _find(plain, shapes_only)
    if found is None and plain != text:
        found = _find(text, shapes_only)
    if found is None and "%" in plain:
        decoded = _PERCENT.sub(lambda m: chr(int(m.group(1), 16)), plain)
        if decoded != plain:
            found = _find(decoded, shapes_only)
    if found is None and (escaped := unescaped(plain)) != plain:  # `\u0073\u006b_live_…` (secret_escapes.py)
        found = _find(escaped, shapes_only)
    for run, spelled in hex_spelled(plain) if found is None and decode else ():  # a key's bytes in hex
        inner = _find(spelled, True)
        if inner is not None:
            return Finding(f"hex of {inner.kind}", _mask(run))
    anchored_in = plain if seams is None else _plain(seams)
    for run in cut_runs(plain, anchored_in) if found is None else ():  # spaced or hyphenated apart (secret_cuts.py)
        found = _find(run, True)
        if found is not None:
            return found
    return found if found is not None or not decode else _in_base64(plain, shapes_only)


def _in_base64(text: str, shapes_only: bool, budget: Budget | None = None, layers: int = BASE64_LAYERS) -> Finding | None:
    """A secret inside a base64 run of `text` (up to `layers` deep, one budget for all): its kind said as base64
    of it, the run masked. Each run's text is read alone, then in its place (`the token is <base64 of a random
    string>`): a run of text is not judged as a random string itself (base64 of an id beside "token")."""
    budget = budget if budget is not None else Budget()
    runs: list[tuple[str, str]] = []
    for run, decoded in decoded_runs(text, budget):
        if run.rstrip("=") in DOCUMENTED_EXAMPLES:
            continue
        inner = find(decoded, shapes_only, decode=False)
        if inner is None and layers > 1:
            inner = _in_base64(decoded, shapes_only, budget, layers - 1)
        if inner is not None:
            return Finding(f"base64 of {inner.kind}", _mask(run))
        runs.append((run, decoded))
    inner = find(in_place(text, runs), shapes_only, decode=False) if runs else None
    return None if inner is None else Finding(f"base64 of {inner.kind}", _mask(runs[0][0]))


# Each provider format with what its matches hold (read once here: an enum's `&` per format and call cost more
# than the scans); and one scan for any of them, so a text holding none (most prompts, every word) tries none.
_TRIES = tuple((kind, pattern, bool(pattern.flags & re.IGNORECASE), GATES[kind]) for kind, pattern in SHAPES[1:])
_ANY_GATE = re.compile("|".join(re.escape(g) for _, _, blind, gates in _TRIES if not blind for g in gates))
_ANY_BLIND_GATE = re.compile("|".join(re.escape(g) for _, _, blind, gates in _TRIES if blind for g in gates))


def _find(text: str, shapes_only: bool) -> Finding | None:
    lower = text.lower()
    if "private" in lower and "key" in lower or "PuTTY-User-Key-File" in text:
        for header in SHAPES[0][1].finditer(text):
            if header.group(0).startswith("PuTTY") or _PEM_BODY.match(text, header.end()):
                return Finding(SHAPES[0][0], header.group(0))
    if text.count(".") >= 2:
        m = DISCORD.search(text)
        if m is not None and not named_in_code(m.group(0)):  # `Orders.Services.ReserveInventoryAsync`: a name
            return Finding("a Discord bot token", _mask(m.group(0)))
    tries = _TRIES if _ANY_GATE.search(text) or _ANY_BLIND_GATE.search(lower) else ()
    for kind, pattern, blind, gates in tries:
        held = lower if blind else text
        if not any(gate in held for gate in gates):
            continue
        for m in pattern.finditer(text):
            value = m.groupdict().get("value") or m.group(0)
            if kind in HEADERS and not _BASE64ISH.search(value):
                continue  # "Authorization: Basic credentials are sent...": a word, not base64
            if kind == "a password in a URL" and default_login(m.group(0), value):
                continue
            if not _placeholder(value) and not worded_key(value, gates):  # `sk-learn-2024-guide`: a docs name
                return _named(kind, value, gates)
    if shapes_only:
        return None
    if key_id_said(text):
        found = _aws_secret(text)
        if found is not None:
            return found
    manifest = kube_secret(text, lambda v: _credential(v, assigned=True)) if "kind:" in text else None
    if manifest is not None:
        return _named("a value of a Kubernetes Secret", manifest)
    for kind, trigger, pattern, judge in _SAID:
        if trigger in lower or trigger == "::" and text.count(":") >= 4:
            for m in pattern.finditer(text):
                if _said(judge, m):
                    return _named(kind, m.group("value").strip("\"'`."))
    if not any(root in lower for root in _ROOTS):
        return None
    if len(lower) != len(text):  # a few non-ASCII letters lowercase to two: keep offsets aligned
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    for word in _KEYWORD.finditer(lower):
        if in_arn(text, word.start()) and not text.startswith("=", word.end()):
            continue  # `arn:aws:secretsmanager:…:secret:prod/db-password-AbC1dE`: where a secret lives; not
            # `arn:aws:s3:::bucket/DB_PASSWORD=<value>`, a value given to a key glued onto an ARN
        m = _ASSIGNED.match(text, word.end())
        if m is not None and (data_key_value(text, word.end(), m.start(1)) or gpg_key_id(word.group(0), m.group(1))):
            m = None  # `nextPageToken: <cursor>`, `client_token: <uuid>`: a key of data; `signing key: <GPG id>`
        if m is not None and in_expansion(text, word.start()):
            m = None  # `${DB_PASSWORD:-changeme}`: the name of a variable and its default, no value given
        if m is not None and _PROSE_AFTER.match(m.group(0) + text[m.end():m.end() + 80]):
            m = None  # "passwd: Authentication token manipulation error": a word and a sentence, no value
        typed = _annotated(text, m.start(1)) if m is not None else None
        if typed is not None:  # `private_key: RSAPrivateKey = load(...)`: code; the value, if any, is after `=`
            m = _ASSIGNED.match(text, typed) if text.startswith("=", typed) else None
        if m is not None and not _CONTRACTION.match(text, m.end()) and (
                _credential(m.group(1), assigned=True) or _spelled(text, word, m)
                or _UUID.fullmatch(m.group(1).strip("\"'`."))):  # a UUID given to a key (Heroku's, npm's) is the key
            return _named("a credential assigned to a secret-named key", m.group(1))
        window = text[word.end():word.end() + _NEAR_WINDOW].split("\n", 1)[0]
        for near in _OPAQUE.finditer(window):
            # Read whole, past the window (to 256 characters): a UUID the window cut is no UUID.
            start = word.end() + near.start()
            opaque = _OPAQUE.match(text, start, start + 256) or near
            # 16 to 19 characters count only when scrambled: `--mount=type=secret` is a flag and its setting.
            # A run glued to the word by '/' is a path's next part (`config/credentials/ProdSettingsV2`): read
            # with the folder, it is judged as a path, as a random part (`credentials/<key>`) is not.
            glued = near.start() == 0 and opaque.group(0).startswith("/")
            if ((len(opaque.group(0)) >= 20 or _scrambled(opaque.group(0))) and _credential(opaque.group(0), assigned=False)
                    and not in_password_hash(text, start)
                    and not (glued and _is_path(text[word.start():start] + opaque.group(0)))
                    and not (near.start() == 0 and names_member(opaque.group(0)))  # `secrets.NAME`: a place
                    and not data_key_value(text, word.end(), start) and not gpg_key_id(word.group(0), opaque.group(0))
                    and not _base64_text(text, start, start + len(opaque.group(0)))):
                return _named("a credential-like string next to a secret-named word", opaque.group(0))
        if word.group(0) in _PASSWORD_WORDS and not (lower[word.start() - 1:word.start()].isalpha()
                                                     or lower[word.end():word.end() + 1].isalpha()):
            for short in _SHORT.finditer(window):
                value = short.group(0).rstrip(".!?)")
                if (_scrambled(value, 8) and not _placeholder(short.group(0)) and not _UUID.search(value)
                        and not _is_path(value) and not in_password_hash(text, word.end() + short.start())):
                    return _named("a password next to a password word", value)
    return None


def _base64_text(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies in a base64 run of printable text: `find` reads that text in its place."""
    run = text_at(text, start)
    return run is not None and run[0] >= end


def check_fields(fields: Iterable[tuple[str, str]], shapes_only: bool = False) -> tuple[str, Finding] | None:
    """The first (field, finding) among named text fields, or None."""
    for name, text in fields:
        if text:
            found = find(text, shapes_only)
            if found is not None:
                return name, found
    return None


def strings_in(value: object, name: str) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value, named by its path (`state.env[2]`)."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for i, (key, inner) in enumerate(value.items()):
            # A key is stored too; one that is a secret is named by its place, never echoed.
            path = f"{name}.{key}" if find(str(key)) is None else f"{name}.<key {i + 1}>"
            if isinstance(inner, str):
                yield path, f"{key}={inner}"
            else:
                # A key is text as a value is (`{"DB_PASSWORD=<value>": true}` stores the value), read whole; a
                # number or a flag given to it is its value (`{"password": 84920174}` as `password=84920174`).
                scalar = isinstance(inner, int | float) and not isinstance(inner, bool)
                yield path, f"{key}={inner}" if scalar else str(key)
                if isinstance(inner, list | tuple):
                    yield from _items_of(key, inner, path)
                else:
                    yield from strings_in(inner, path)
    elif isinstance(value, list | tuple):
        for i, inner in enumerate(value):
            yield from strings_in(inner, f"{name}[{i}]")


def _items_of(key: object, items: list[Any] | tuple[Any, ...], name: str) -> Iterator[tuple[str, str]]:
    """A list's strings under a key, each read as that key's value: `{"password": ["Xk3v9QmZ2aB7"]}` gives one."""
    for i, inner in enumerate(items):
        path = f"{name}[{i}]"
        if isinstance(inner, str):
            yield path, f"{key}={inner}"
        elif isinstance(inner, list | tuple):
            yield from _items_of(key, inner, path)
        else:
            yield from strings_in(inner, path)


# Validation rules given to a password field (Laravel's `'password' => 'required|string|min:8'`).
_RULES = re.compile(r"[a-z_]+(?::[\w.,]*)?(?:\|[a-z_]+(?::[\w.,]*)?)+")


def _credential(value: str, assigned: bool) -> bool:
    """Whether a value found after a secret-named word is itself a secret."""
    value = value.strip("\"'`.")
    if not assigned and "=" not in value and _classes(value) < 3:
        return False  # cheap first (prose's rule below says no too): the run after each of thousands of secret words
    if assigned and (len(value) < ASSIGNED_MIN_CHARS or value[0] in ":="):
        return False  # short: an example; a separator first: an empty field (`user:pass:::upload`), then the next
    if (_placeholder(value) or _UUID.fullmatch(value) or _ENV_NAME.fullmatch(value) or _TYPE.fullmatch(value)
            or _HEADER_NAME.fullmatch(value)  # `TOKEN_HEADER=X-Auth-Token`: where a token is sent
            or _plain_url(value)):  # "the DSN's public key is not a secret: https://abc123@o1.ingest.sentry.io/5"
        return False
    if _code_path(value, dotted=assigned):
        return False
    if not assigned:
        # Prose: only a long opaque run counts; hex alone may be a hash or a commit id. A setting given its
        # value there (`statement_cache_size=0`) is judged by the value; a name in code is none.
        # The last setting's value: `--from-literal=log_level=debug` gives `debug`, not `log_level=debug`.
        setting, equals, rest = value.rstrip("=").rpartition("=")
        if equals:  # a key's id (`kid=2024-06-rotation`) is published with what it signs
            return (not _code_path(rest, dotted=False) and not _KEY_ID_SETTING.search(setting)
                    and not data_key_before(value, len(setting) + 1)  # "pass next_page_token=<cursor> …"
                    and _credential(rest, assigned=True))
        return ((len(value) >= 20 or _scrambled(value)) and not _HEX.fullmatch(value) and not _is_path(value)
                and not _CODE_NAME.fullmatch(value) and not _HOST_NAME.fullmatch(value)
                and _entropy(value) >= OPAQUE_MIN_ENTROPY and _classes(value) >= 3)
    if re.fullmatch(r"[a-z_]+|[A-Z_]+|[a-z]+(?:[-_.][a-z]+)*", value):
        return False  # a name (an env var, a setting, a word), not a value
    if _RULES.fullmatch(value):
        return False  # validation rules, not a value
    # `./pw.txt` (its `.` stripped above) too: `--from-file=password=./pw.txt` names the file holding it.
    if re.fullmatch(r"[\w./~-]*\.(?:json|ya?ml|toml|env|txt|pem|key|ini|cfg)", value) or _is_path(value):
        return False  # a file that holds the secret, not the secret
    return _classes(value) >= 2 or len(value) >= 16


def _said(judge: str, m: re.Match[str]) -> bool:
    """Whether a value a command line or a file format names (`_SAID`) is a secret, by its rule's judge."""
    value = m.group("value")
    if value.strip("\"'`").rstrip("=") in DOCUMENTED_EXAMPLES:
        return False  # a standard's own example, quoted
    if judge in ("prose", "shaped", "bare", "digits", "login", "interleaved"):  # "the password is wrong" names none
        v = value.strip("\"'`").rstrip(".,;:)?")
        if (_placeholder(v) or v.lower().rstrip("!") in _DESCRIPTIONS or _ENV_NAME.fullmatch(v) or _is_path(v)
                or _CODE_REF.search(v) or judge == "login" and v.lower() == m.group("user").lower()):
            return False
        return is_password(v, judged_as(judge, m), m.string[m.end():m.end() + 80])
    if judge in ("key in words", "random", "loose", "hex") and (data_key_before(m.string, m.start("value"))
                                                                 or hex_of_words(value.strip("\"'`."))):
        return False  # "the message key <uuid>", "next page token: <cursor>": data named by its kind; hex of text
    if judge == "key in words":  # a digest, or a hex value named as an id (`trace id`, `md5`, `commit`)
        return not _HEX_ABOUT.search(m.group(0)) and not hex_labelled(m.string, m.start("value"))
    if judge == "password":
        v = value.strip("\"'`")
        return _credential(v, assigned=True) or (
            len(v) >= ASSIGNED_MIN_CHARS and not _placeholder(v) and v.lower() not in _DESCRIPTIONS)
    if judge == "basic":
        return _user_password(value)
    if judge == "hex":
        return not _HEX_ABOUT.search(m.group(0)) and _credential(value, assigned=True)
    if judge == "loose" and any(_WORD_PART.fullmatch(p) for p in _PARTS.split(value.strip("\"'`."))):
        return False  # a word among its parts: a name (`Linux-pip-3f9a…`, `ubuntu22_python311_x64`), no key
    if judge in ("random", "loose"):  # random as a key is: scrambled, long hex, or long and of high entropy
        v = value.strip("\"'`.")
        return _credential(v, assigned=True) and (
            _scrambled(v, 12) or bool(_HEX.fullmatch(v)) and len(v) >= 24
            or len(v) >= 20 and _entropy(v) >= OPAQUE_MIN_ENTROPY and not _is_path(v) and not _code_path(v, dotted=False))
    return _credential(value, assigned=True)


def _named(kind: str, value: str, prefixes: tuple[str, ...] = ()) -> Finding:
    """The finding of `value` by a rule of `kind`; a value that opens with a provider's prefix is named for it."""
    bare = value.strip("\"'`")
    for prefix, provider in NAMED_BY_PREFIX:
        if bare.startswith(prefix):
            return Finding(provider, _mask(bare, (prefix,)))
    return Finding(kind, _mask(value, prefixes))


@attrs.frozen
class CleanNode:
    gist: str
    notes: list[str] | None
    touches: list[str] | None
    cut: tuple[str, ...]  # the fields `<private>` text was cut from: the reply says so


def clean_node(gist: str, notes: list[str] | None, touches: list[str] | None) -> CleanNode:
    """A node's text as it may be stored: private parts cut out, refused if a secret remains."""
    cut: list[str] = []
    if isinstance(gist, str):
        plain = strip_private(gist)
        if plain != gist:  # only a field that held a tag is touched: an untagged one is stored as written
            gist = plain.strip()
            cut.append("gist")
            if not gist:
                raise InvalidInput("gist", "is empty once its <private> text is removed")
        elif not gist:
            raise InvalidInput("gist", "must be a non-empty string")
    for i, touch in enumerate(touches or []):  # refused here: an empty one would be dropped below, unsaid
        if isinstance(touch, str) and not touch.strip():
            raise InvalidInput(f"touches[{i}]", BLANK_TOUCH)
    _refuse_blank_notes(notes)
    sent = {"notes": notes, "touches": touches}
    notes, touches = items_without_private(notes, "notes", cut), items_without_private(touches, "touches", cut)

    def check() -> None:
        refuse_secrets([("gist", gist), *_numbered("notes", notes), *_numbered("touches", touches)])
        refuse_joined(gist, notes)
        # A key split across touches (`AKIAIOSFOD`, `NN7…`) as across notes, and a path cut at a key (`cfg/ghp_…`).
        refuse_joined(None, touches, "touches")

    _named_as_sent(sent, check)
    return CleanNode(gist, notes, touches, tuple(cut))


_ITEM = re.compile(r"\b([a-z_]+)\[(\d+)\]")


def _named_as_sent(sent: dict[str, list[Any] | None], check: Callable[[], None]) -> None:
    """`check()`, its refusal naming items by their place in the list the caller sent, not in the list left once
    the items all `<private>` were dropped (`notes[1]` is the second note sent, whatever the first held)."""
    try:
        check()
    except SecretRefused as refused:
        kept = {name: [i for i, item in enumerate(items or ()) if not isinstance(item, str) or strip_private(item).strip()]
                for name, items in sent.items()}
        field = _ITEM.sub(lambda m: f"{m.group(1)}[{_sent_index(kept.get(m.group(1)), int(m.group(2)))}]", refused.field)
        if field == refused.field:
            raise
        raise SecretRefused(field, refused.finding) from None


def _sent_index(kept: list[int] | None, i: int) -> int:
    return kept[i] if kept is not None and i < len(kept) else i


def _refuse_blank_notes(notes: list[Any] | None, name: str = "notes") -> None:
    """Before the private cut, which drops a note it leaves empty: an empty note sent is refused, not dropped."""
    for i, note in enumerate(notes or []):
        if isinstance(note, str) and not note.strip():
            check_note(note, f"{name}[{i}]")


def clean_notes(notes: list[str] | None, name: str = "notes") -> tuple[list[str] | None, tuple[str, ...]]:
    """Edge notes: the same rules as a node's. With the fields `<private>` text was cut from."""
    cut: list[str] = []
    _refuse_blank_notes(notes, name)
    sent = {name: notes}
    notes = items_without_private(notes, name, cut)

    def check() -> None:
        refuse_secrets(_numbered(name, notes))
        refuse_joined(None, notes, name)

    _named_as_sent(sent, check)
    return notes, tuple(cut)


def refuse_joined(gist: object, notes: list[Any] | None, name: str = "notes") -> None:
    """A key split across lines or notes, refused as whole (core/secret_joins.py): the gist as stored by every
    rule, the texts joined by the fixed shapes of keys alone."""
    for joined, found in joined_findings(gist, notes, name):
        raise SecretRefused(joined.field, found)
    refuse_parts([("gist", gist), *_numbered(name, notes)])  # after the whole keys


def joined_findings(gist: object, notes: list[Any] | tuple[Any, ...] | None,
                    name: str = "notes") -> Iterator[tuple[Joined, Finding]]:
    """Each text made whole across lines or fields that holds a key, with what it holds: the one list a write
    refuses by and a load's, a commit's and a sync's scan withhold by (core/joined_held.py, secret_state.py), so
    that no text a write stored is found holding a key afterwards. Texts each a placeholder or prose make none
    (an .env.example's `sk_test_xxxx…` then `JWT_SECRET=changeme`, core/secret_seams.py)."""
    found = [(joined, finding) for joined in joined_texts(gist, list(notes or ()), name)
             if (finding := _joined_finding(joined)) is not None and not plain_join(joined.parts)]
    yield from real_parts(found, gist, notes, name)  # the readings naming the fields that hold the parts


def refuse_parts(fields: Iterable[tuple[str, object]]) -> None:
    """A part of a key with words around it (core/secret_fragments.py), after every rule of a whole key."""
    if (part := fragment_in(fields)) is not None:
        raise SecretRefused(part[0], part_finding(part[1], part[2]))


def part_finding(kind: str, part: str) -> Finding:
    """What a refusal says of a part of a key (secret_fragments.py): its kind, the part masked."""
    return _named(kind, part)


def _joined_finding(joined: Joined) -> Finding | None:
    """What a text made whole across fields holds, by the rules a write reads it with: the fixed shapes of keys
    glued (`ghp_…` cut at a seam), or with a space at each seam (`Authorization: Basic` then its value); every
    rule where a seam cuts a word apart (`pass` then `word is …`, `-p9r` then `iwmf…`) and the text read with
    a space there holds none (two sentences a seam falls between are not read as one word)."""
    if joined.as_stored:
        return find(joined.text)
    found = _fixed_shape(joined.text, joined.spaced)
    if found is None and joined.spaced != joined.text and _SPACED_SHAPE.search(joined.spaced):
        found = find(joined.spaced, shapes_only=True, decode=False)
    cut = (cut_at(joined.text, joined.seams, _SEAM_WORDS)
           if found is None and joined.seams and _SEAM_READ.search(joined.text.lower()) is not None else ())
    if cut and find(joined.spaced) is None:
        found = find(glued_only_at(joined.text, joined.seams, cut))
    return found


# What a glued text must hold for a rule beyond the fixed shapes to find anything in it: a secret's word or a
# rule's trigger (`word12` then `word13`, a list's items, hold none and are read no further).
_SEAM_READ = re.compile("|".join(sorted({re.escape(t) for t in (*_ROOTS, *(tr for _, tr, _, _ in _SAID))
                                         if len(t) >= 2}, key=len, reverse=True)))
# The shapes a space belongs in (a header's scheme and its value, a URL's parts): what a spaced join is read for.
_SPACED_SHAPE = re.compile(r"(?i)authoriz|bearer|basic|token|://")
# A secret's words a seam may cut (`pass` then `word`, `Beare` then `r`, `TOKE` then `N=`).
_SEAM_WORDS = tuple(sorted({*_ROOTS, *_PASSWORD_WORDS, "bearer", "basic", "authorization", "login", "docker", "mysql", "sshpass",
                            *(trigger for _, trigger, _, _ in _SAID if len(trigger) >= 4 and trigger.isalpha())}))


def _fixed_shape(text: str, spaced: str) -> Finding | None:
    """A provider's key, a JWT, a URL's password, or a random value after a secret-named key (`password=`)."""
    found = find(text, shapes_only=True, seams=spaced)
    for word in _KEYWORD.finditer(text.lower()) if found is None else ():
        m = _ASSIGNED.match(text, word.end())
        m = None if m is None or data_key_value(text, word.end(), m.start(1)) or in_arn(text, word.start()) else m
        value = m.group(1).strip("\"'`.") if m is not None else ""
        if _scrambled(value, 8) and _credential(value, assigned=True):
            return _named("a credential assigned to a secret-named key", value)
    return found


def refuse_secrets(fields: Iterable[tuple[str, object]]) -> None:
    texts = [(name, text) for name, text in fields if isinstance(text, str)]
    found = check_fields(texts)
    if found is not None:
        raise SecretRefused(*found)
    for name, bare in aws_beside(texts).items():  # a key id in one field, its secret in another (secret_aws.py)
        raise SecretRefused(name, bare)


def refuse_secret_names(fields: Iterable[tuple[str, object]]) -> None:
    """Ids, rels, edge ends and task ids: refused for a provider key's shape (`AKIA…`, `ghp_…`), not for
    the secret-named words ids are made of (`api-token-rotation`)."""
    texts = [(name, text) for name, text in fields if isinstance(text, str)]
    found = check_fields(texts, shapes_only=True)
    if found is not None:
        raise SecretRefused(*found)
    refuse_parts(texts)  # an edge's two ends holding a key's two halves (`src/ghp_…`, `src/…`)


def name_finding(text: str) -> Finding | None:
    """A name (an id, a rel, an edge's end, a touch) holding a key's shape or a part of one, as a write refuses."""
    found = find(text, shapes_only=True)
    if found is None and (part := fragment_in([("", text)])) is not None:
        found = _named(part[1], part[2])
    return found


def parts_held(fields: Iterable[tuple[str, object]]) -> dict[str, str]:
    """Each field holding a part of a key (secret_fragments.py), with its kind."""
    return {name: kind for name, kind, _ in fragments_in(fields)}


def _numbered(name: str, items: list[Any] | None) -> list[tuple[str, object]]:
    return [(f"{name}[{i}]", item) for i, item in enumerate(items or ())]


class SecretRefused(KGError):
    """A write that carries a secret: refused whole, the secret never echoed."""

    def __init__(self, field: str, finding: Finding):
        self.field = field
        self.finding = finding
        super().__init__(
            f"NOT WRITTEN: {field} holds what looks like {finding.kind} ({finding.preview}); secrets are never "
            "stored in memory. Write where the secret lives instead (an environment variable's name, a vault "
            "path), or wrap text that must stay out of memory in <private>...</private>")
