"""Keys and tokens that are no credential, by the word naming their kind (core/secrecy.py asks).

"Key" and "token" name data as often as secrets: a Kafka message key, a DynamoDB range key, a dedupe or an
idempotency key, a KMS key's id (it names a key that never leaves KMS), EC2's client token (an idempotency id),
a page's continuation or cursor token, MCP's progress token. Their values are UUIDs, hashes and base64 cursors,
the shapes a key has, so only the qualifier tells them apart. It must stand right before the key's word
(`message key`, `message_key`, `nextPageToken`): "the api key" stays a credential, and a provider's shape behind a
data key's name is refused by its shape, which is read before these words.
"""

from __future__ import annotations

import re

# Qualifiers of a key or a token that names data. Not `client` for a key (a TLS client key is a private key).
_EITHER = (r"message|partition|range|sort|primary|foreign|composite|hash|dedupe?|deduplication|idempotency"
           r"|idempotent|cache|object|s3|kms|routing|shard|lookup|row|index|unique")
_TOKEN_ONLY = r"client|continuation|page|pagination|cursor|next|progress|resume|sync|cancellation"
_QUALIFIED = re.compile(r"(?i)(?:(?:" + _EITHER + r")[ _-]?keys?|(?:" + _EITHER + "|" + _TOKEN_ONLY
                        + r")[ _-]?tokens?)$")
# A key's word, then what stands between it and its value: an id's word, a colon, `=`, "is", quotes and blanks.
_TO_VALUE = r"s?(?:[ _-]?ids?)?(?:\s*(?:is|was)\b|[\s\"'`:=()-])*"
_KEY_THEN = re.compile(r"(?i)(?:key|token)(?P<end>)" + _TO_VALUE + "$")
_THEN = re.compile(r"(?i)" + _TO_VALUE)
_BEFORE = 48  # characters before a value where its key's name is read
_HEAD = 24  # characters of a qualifier and its separator


def data_key_before(text: str, at: int) -> bool:
    """Whether the words right before `at` (where a value starts) name a key or a token of data, not a secret."""
    m = _KEY_THEN.search(text, max(0, at - _BEFORE), at)
    return m is not None and data_key_word(text, m.end("end"))


def data_key_value(text: str, end: int, at: int) -> bool:
    """Whether the value at `at` is given right after the key's word ending at `end` (`nextPageToken: <cursor>`)
    and that word names a key of data. A value further on is judged as any ("cursor tokens are base64 of ...")."""
    return _THEN.fullmatch(text, end, at) is not None and data_key_word(text, end)


def data_key_word(text: str, end: int) -> bool:
    """Whether the key's or token's word ending at `end` ends a data key's name (`message key`, `client_token`,
    `nextPageToken`): its qualifier stands alone before it or starts a word of camel case (not `strange key`)."""
    start = max(0, end - _HEAD)
    m = _QUALIFIED.search(text, start, end)
    if m is None:
        return False
    at = m.start()
    return at == 0 or not text[at - 1].isalpha() or text[at].isupper() and text[at - 1].islower()


# A GPG key's long or short id (`gpg --list-keys --keyid-format long`), published on key servers and in
# SECURITY.md: 16 or 8 hex digits of one case after "signing key". A key itself is longer.
_GPG_KEY_ID = re.compile(r"(?:0x)?(?:[0-9A-F]{16}|[0-9a-f]{16}|[0-9A-F]{8})")


def gpg_key_id(word: str, value: str) -> bool:
    """Whether `value`, given to the secret-named `word`, is a signing key's published id."""
    return word.startswith("signing") and _GPG_KEY_ID.fullmatch(value.strip("\"'`.:=")) is not None
