"""What looks like a name rather than a secret (core/secrecy.py asks): names in code, environment variables,
paths. A random key is made of no words: a capital or a lowercase letter stands alone inside it."""

from __future__ import annotations

import base64
import math
import re
from collections import Counter

# An environment variable's name: capital words joined by '_', a word perhaps ending in digits (KEYSTORE_B64,
# AWS_S3_BUCKET). It names where a secret lives, as the refusal itself advises writing.
ENV_NAME = re.compile(r"[A-Z]+[0-9]*(?:_[A-Z]+[0-9]*)+")
# A name in code, dotted or snake_case: words, camelCase humps, digits only at a part's end
# (`stripe.Webhook.construct_event`, `prepared_statement_cache_size`, `getServerSideProps`). A random key's
# parts are not (`4eC39HqLyjWDarjtT1zdp7dc`: digits strewn through, capitals side by side).
CODE_NAME = re.compile(r"_*[A-Za-z][a-z]*(?:[A-Z][a-z]+)*[0-9]*(?:[._-]+[A-Za-z][a-z]*(?:[A-Z][a-z]+)*[0-9]*)+_*")
# Words (`Token`, `token`, `HTTP`, `V2`) and numbers in a row, a last letter alone (`Encoder32x`, or a name the
# near-word window cut: `OperationalE`): a name, not a random string, which has a capital or a lowercase letter
# alone inside (`Qw7rT5`). Possessive: each piece is taken whole, so a failing match never tries other splits.
HUMPS = re.compile(r"(?:[A-Z][a-z]++|[a-z]{2,}+|[A-Z]{2,}+|[A-Z]?[0-9]++)++[A-Za-z]?")
# A header's name (`X-Api-Key`, `X-Auth-Token`, `X-API-Key`): capitalised words and short acronyms joined by '-',
# one word at least. `API_KEY_HEADER_NAME=X-Api-Key` names where a key is sent, not the key.
HEADER_NAME = re.compile(r"(?=[A-Z-]*[A-Z][a-z])(?:[A-Z][a-z]++|[A-Z]{1,4}+)(?:-(?:[A-Z][a-z]++|[A-Z]{1,4}+))++")
# A setting naming a key's id (a JWT's `kid=2024-06-rotation`, `key_id=...`): an id is published beside what it
# signs, it is no secret. Not `secret_id` (Vault's AppRole login is one).
KEY_ID_SETTING = re.compile(r"(?i)(?<![a-z])(?:kid|key[_-]?id)$")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")  # an identifier in code (`$` in JavaScript's)
_HUMP = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def code_path(value: str, dotted: bool) -> bool:
    """A name in code rather than a value: identifiers made of words joined by dots (`settings.DB_PASSWORD`,
    `AutoTokenizer.from_pretrained`, `import.meta.env.VITE_API_KEY`, `Config.DatabaseSettings.Password`), or,
    unless `dotted`, one name of two words or more (`DefaultAzureCredential`, `PasswordPolicyValidatorV2`). A
    random key's parts are not words (`Kx9mQ2vLp4Zt`: a lowercase letter alone), and a password given to a
    key is one name at most (`BlueElephant42`): only a dotted path counts there."""
    parts = re.split(r"[(\[]", value, maxsplit=1)[0].split(".")  # a call's or a subscript's name
    if dotted and len(parts) < 2:
        return False
    for part in parts:
        words = [w for w in re.split(r"[_$]+", part) if w]
        if not _IDENT.fullmatch(part) or not words or not all(HUMPS.fullmatch(w) for w in words):
            return False
    return len(parts) > 1 or sum(len(_HUMP.findall(w)) for w in words) >= 2


_SEPARATORS = re.compile(r"[^A-Za-z0-9]+")


def scrambled(value: str, min_chars: int = 16) -> bool:
    """A string of `min_chars` or more that is random, not a name: both cases and digits, and not made of
    words (`Qw7rT5yU3iO1pA9s`; not `MyTokenProvider2` or `Base64Encoder32x`)."""
    return (len(value) >= min_chars and any(c.islower() for c in value) and any(c.isupper() for c in value)
            and any(c.isdigit() for c in value)
            and not all(HUMPS.fullmatch(part) for part in _SEPARATORS.split(value) if part))


# A path's parts are names: lowercase words, words with digits only at their end (DbPassword, app2), short
# CAPITALS, file names (`config/Prod/keys.env`, `/run/secrets/grafana_admin`). A base64 secret's parts are
# not (`Zx9/Qm3kLp.../Nw8...`: an AWS secret access key holds a '/' half the time, digits strewn through).
_NAME_PART = re.compile(r"[a-z0-9._~-]*|[A-Za-z][A-Za-z._-]*[0-9]*|[A-Z0-9_]{1,12}|[\w.-]+\.[A-Za-z0-9]{1,5}")


def is_path(value: str) -> bool:
    """Whether a value with a '/' names a file or a vault path rather than being an opaque string (its
    first part may be what led up to it: `__FILE=/run/...`, `https:`)."""
    parts = value.strip("/").split("/")
    named = parts[1:] if len(parts) >= 3 else parts  # one '/' alone: both sides must be names
    return len(parts) >= 2 and all(_NAME_PART.fullmatch(part) for part in named)


_ASCII_CLASSES = tuple(re.compile(rx) for rx in ("[a-z]", "[A-Z]", "[0-9]", "[^A-Za-z0-9]"))


def classes(value: str) -> int:
    """How many of lowercase, capitals, digits and symbols a value holds (ASCII's by a scan each: a check reads
    one run after every secret-named word, and `token_` repeated has thousands)."""
    if value.isascii():
        return sum(1 for rx in _ASCII_CLASSES if rx.search(value))
    return sum((any(c.islower() for c in value), any(c.isupper() for c in value),
                any(c.isdigit() for c in value), any(not c.isalnum() for c in value)))


OPAQUE_MIN_ENTROPY = 3.5  # bits a character: random base64 scores ~5, words and paths under 3.5


def entropy(value: str) -> float:
    """Bits a character: random base64 scores about 5, words and paths under 3.5."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def user_password(value: str) -> bool:
    """Whether base64 decodes to `user:password` (docker's and npm's stored logins)."""
    try:
        plain = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    user, colon, password = plain.partition(":")
    return bool(colon and user and password) and plain.isprintable()


# A host's DNS name (`123456789012.dkr.ecr.ap-southeast-1.amazonaws.com`): lowercase labels and a top-level name
# of letters. It says where a login goes (`docker login ... --password-stdin HOST`), it is none.
HOST_NAME = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}")
# A URL that carries no password and no query: a user's name at most before its host (a Sentry DSN's public key).
_URL = re.compile(r"[a-z][a-z0-9+.-]{1,20}://(?:(?P<user>[^\s:/@?#]{1,256})@)?[a-z0-9.-]{1,253}(?::\d{1,5})?"
                  r"(?P<path>/[^\s?#@]{0,512})?/?", re.IGNORECASE)
_HEX_RUN = re.compile(r"[0-9a-fA-F]{32,}")


def plain_url(value: str) -> bool:
    """Whether `value` is a URL holding no credential: no password, no query, and no part (the user, a path's
    part) as random as a token (`https://<40 hex>@github.com/...` is a GitHub token given as the user)."""
    m = _URL.fullmatch(value)
    if m is None:
        return False
    parts = [m.group("user") or "", *(m.group("path") or "").split("/")]
    return not any(scrambled(p, 8) or _HEX_RUN.fullmatch(p) or len(p) >= 20 and entropy(p) >= 3.5
                   and classes(p) >= 3 for p in parts if p)
