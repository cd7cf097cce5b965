"""What stands where a secret would and is none (core/secrecy.py asks): placeholders and test fakes, the words
schemas and docs give a password field, type annotations (and where an annotated variable's value starts), code
that reads a secret from somewhere, and the examples standards print."""

from __future__ import annotations

import re

from .secret_names import HUMPS, scrambled
from .secret_shapes import DOCUMENTED_EXAMPLES

_PLACEHOLDERS = frozenset("""
password passwd secret token changeme change_me example redacted hidden none null nil undefined
your_token your_password your_api_key yourpassword mypassword mysecret dummy placeholder todo tbd xxx
changeit abc123 123456 12345678 password123 secret123 letmein
""".split())
# What a password-named key is given in schemas, docs and code when it is no password: a type, a rule, a state,
# or a local database's documented default (`POSTGRES_PASSWORD: postgres`, `mysecretpassword`). Only for words
# given as a value (`_spelled`); a value with digits or symbols is judged by its shape.
DESCRIPTIONS = frozenset("""
required optional hashed encrypted encoded masked hidden sensitive protected redacted omitted ignored empty blank
missing invalid incorrect wrong expired unchanged changed updated rotated reset unset default random generated
prompt prompted stdin string strings text bytes secretstr secretstring securestring secretbytes object boolean
integer plaintext cleartext bcrypt scrypt argon pbkdf hash salted inherit inherited enabled disabled false true
supported allowed forbidden needed unknown anything nothing whatever something another
postgres mysql mariadb redis mongo root admin administrator guest tester testing sample local development
mysecretpassword rootpassword adminpassword secretpassword supersecret
""".split())
# Type annotations: `password: SecretStr`, `password: Option<String>`, `password: &str` (types, not values).
TYPE = re.compile(r"(?:[A-Za-z_][\w.]*[<\[])*&?(?:str|String|string|SecretStr|SecretString|SecureString|SecretBytes"
                   r"|bytes|Password|PasswordStr|Text|CharSequence)[>\]]*\??")
# A type annotation in code: a type named in words (a key is made of none), dotted perhaps, and after it a union
# (`Ed25519PrivateKey | Ed448PrivateKey`) or an assignment (`PrivateKeyTypes = load_pem_private_key(...)`). A type
# alone is not read as one: a config line's `password: Summer2024` is a value. Digits in a type's name end a word
# (`Ed448PrivateKey`, `TokenV2`); a password's are strewn through one (`Tr0ub4dor`).
_TYPE_NAME = r"(?:[A-Za-z_]\w*\.)*(?=[A-Z])(?!\w*[0-9][a-z])(?:" + HUMPS.pattern + r")(?![\w.(\[])"
# A union ends its line, a parameter or an assignment's type: `token: <key> | Stripe |` is a table's row.
_ANNOTATION = re.compile(r"(?<![\"'`])" + _TYPE_NAME + r"(?P<union>(?:[ \t]*\|[ \t]*" + _TYPE_NAME
                         + r")+(?=[ \t]*(?:[\n=),\]]|\Z)))?[ \t]*(?P<eq>=(?![=>]))?")


def annotated(text: str, at: int) -> int | None:
    """Whether the value at `at` is a type annotation rather than a value: None if not; else where its value
    starts (its `=`), or the annotation's end when it gives none (`private_key: RSAPrivateKey | None`)."""
    m = _ANNOTATION.match(text, at)
    if m is None or not (m.group("union") or m.group("eq")):
        return None
    return m.start("eq") if m.group("eq") else m.end()


# Code that reads a secret from somewhere: a reference at the start (`$X`, `<key>`, `[x]`), a template's
# (`${x}`, `$(x)`, `$NAME`, `%{x}`, `%(x)s`, `%NAME%`, `#{x}`, `{{x}}`, `((x))`), a call or a subscript
# (`get_secret(`, `cfg[`), or a store's name. Not any `$`, `%`, bracket or brace: a password holds those
# (`Tr0ub4dor$3x`, `Xk3v9(QmZ2aC7`, `R8v{{kL2q}}9`), as a URL's percent-encoded one does (`p%40ss`). So a
# template's or a call's name must be a name (letters, `_` and `.`, digits only at a part's end), and a
# template opens the value or holds a lowercase name; a call's name starts the value (or follows `=`, `:` or
# a bracket) and is three characters long at least.
_REF_NAME = r"(?=[\w.]{3})[A-Za-z_]+[0-9]*(?:\.[A-Za-z_]+[0-9]*)*"
CODE_REF = re.compile(r"^[$<{\[]|\$[{(]|\$[A-Z_][A-Z0-9_]+(?![A-Za-z0-9])|%[{(]|%[A-Za-z_]{3,}[0-9]*%"
                       r"|#\{[A-Za-z_@$]|^(?:\{\{|\(\()|(?:\{\{|\(\()\s*[a-z_][a-z0-9_.]*\s*(?:\}\}|\)\))"
                       r"|(?:^|[=:(\[{])" + _REF_NAME + r"[(\[](?:[\"'$\w)\]]|$)"
                       r"|(?i:environ|getenv|process\.env|secrets\.|vault:|^!vault|keychain)|\.\.\.|…"
                       r"|<[A-Za-z_ -]+>")  # `ya29.<redacted>`: what stood there is gone
# A placeholder or a test's fake, spelled in words: `your-api-key`, `my_secret_here`, `test-password`,
# `fake_token`, `not-a-real-secret`, `test_api_key_123` (no random run in it).
_FAKE_STARTS = ("test", "fake", "dummy", "mock", "sample", "not-a", "not_a", "notreal", "invalid")
_FAKE = re.compile(r"[a-z]+(?:[-_.][a-z0-9]+)*")


def placeholder(value: str) -> bool:
    """Whether a value is a placeholder, a test's fake, a reference in code or a standard's example."""
    v = value.strip("\"'`").lower()
    return (v in _PLACEHOLDERS or len(set(v)) <= 2 or bool(CODE_REF.search(value.strip("\"'`")))
            or value.strip("\"'`").rstrip("=") in DOCUMENTED_EXAMPLES  # RFC 7617's Basic `Aladdin:open sesame`
            or v.endswith(("example", "examplekey"))  # AWS's documented keys: AKIAIOSFODNN7EXAMPLE
            or len(set(v[-12:])) <= 2 and len(v) >= 16  # a shape filled in with x's: sk_test_xxxxxxxxxxxx
            or v.startswith(_FAKE_STARTS) and bool(_FAKE.fullmatch(v))
            or (v.startswith(("your", "my-", "my_", "example")) or v.endswith("here")) and bool(_FAKE.fullmatch(v))
            and not scrambled(value.strip("\"'`"), 8))  # `my-k8s-secret-name`, not `mY-9kQ2xLp7Z`


# A password hash in the modular crypt or PHC format (`$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>`, bcrypt's
# `$2b$12$…`, `$6$…`): what a database keeps in the password's place, printed beside it in docs and RFCs. It is
# no password, wherever it stands (after "A password hash:" too): none of its parts is read as one.
_CRYPT_HASH = re.compile(r"\$(?:argon2(?:id|i|d)|2[abxy]?|[156]|y|gy|7|scrypt|pbkdf2(?:-sha\d+)?|sha\d+|md5)\$"
                         r"[^\s\"'`]{8,512}")
_HASH_REACH = 600  # characters before a value where a hash holding it may start: one is shorter


def in_password_hash(text: str, at: int) -> bool:
    """Whether text position `at` lies inside a password hash's string (bounded: a long text costs no more)."""
    if "$" not in text:
        return False
    return any(m.start() <= at < m.end() for m in _CRYPT_HASH.finditer(text, max(0, at - _HASH_REACH), at + 1 + 512))


def in_expansion(text: str, at: int) -> bool:
    """Whether `at` is inside a shell's `${...}`."""
    opened = text.rfind("${", max(0, at - 80), at)
    return opened != -1 and "}" not in text[opened:at]


def default_login(url: str, password: str) -> bool:
    """A local service's documented login (`postgres:postgres@localhost`, RabbitMQ's `guest:guest`,
    `root:root`), or a password that repeats the user's name: an example, as `POSTGRES_PASSWORD: postgres` is."""
    user = url.split("://", 1)[1].split(":", 1)[0].lower()
    plain = password.strip("\"'`").lower()
    return plain == user or plain in DESCRIPTIONS or plain in ("pass", "pw", "devpassword", "secret")


# The words that name a hex value as what it is, no key: an id traced or logged, a digest, a commit.
_HEX_LABELS = frozenset("""
trace traceid trace_id traceparent span spanid span_id request requestid request_id req correlation correlationid
md5 md5sum sha sha1 sha256 sha512 hash checksum digest etag commit rev revision
""".split())
_LABEL_FILLER = frozenset(("id", "is", "was", "of", "the", "a"))
_LABEL_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def hex_labelled(text: str, start: int) -> bool:
    """Whether the hex value at `start` is named by the word before it as what it is (`trace id 4bf9…`,
    `md5 9e10…`, `commit 0a1b…`, `x-request-id: …`), not as a key (`auth token …`, `Client('AC…', '…')`)."""
    words = [w.lower() for w in _LABEL_WORD.findall(text[max(0, start - 40):start])]
    while words and words[-1] in _LABEL_FILLER:
        words.pop()
    return bool(words) and any(part in _HEX_LABELS for part in (words[-1], *re.split(r"[-_]", words[-1])))
