"""Passwords, logins and keys said in prose (core/secrecy.py asks): the sentences, and whether the word they
give is a secret.

Engineering notes talk of passwords all day ("the password is hashed with argon2id", "password utf8mb4
collation", "the password is misread by the driver"), and people write one down the same way ("the password is
hunter2"). So a value after the linking words is a password by its shape: letters and digits in one word, a
passphrase of three words or more, six digits or more, or four or five where no word after says what they count
("the password is 8492", not "... 2048 bits"). Names of schemes, charsets and versions (`sha256`,
`utf8mb4`, `v2.1`) and compounds (`pbkdf2_sha256`, `2fa-protected`) have that shape and are none. A plain word
is a password only where the sentence goes on to the place it opens ("the password is swordfish for prod");
ending the sentence or going on otherwise it is prose ("the password is gone", "... cleartext"): without a
dictionary a plain word cannot be told from an adjective there, and refusing every such note would refuse
ordinary lessons. Every scan is bounded: a text repeating "password " costs no more than its length.
"""

from __future__ import annotations

import re

# "the password for the vault is ...": what it is the password for, a few words at most.
_FOR = r"(?:\s+(?:for|of|on|to|in)(?:\s+[\w.@-]{1,40}){1,3}?)?"
_IS = r"\s+(?:is|was|has\s+been|will\s+be|became|remains|stays)(?:\s+(?:now|still|currently|again))?\s+"
_TO = r"\s+(?:(?:is|was|has\s+been|got)\s+)?(?:now\s+)?(?:changed|set|reset|updated|rotated)\s+to\s+"
_VALUE = r"[\"'`]?(?P<value>[^\s\"'`]{4,64})"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_KEY_VALUE = r"[\"'`]?(?P<value>" + _UUID + r"|[0-9a-fA-F]{32,128})(?![\w-])"
# How a value is given to the word naming it: "is", a colon or `=`, or a blank alone ("the webhook secret <hex>",
# "storage account key: <base64>"): the wording is incidental, the value is the key however it is said.
_GIVEN = r"(?:" + _IS + r"|\s*[:=]\s*|\s+)"

# The word before a key's, naming whose key it is ("the Mistral key", "our cohere API token"); not a key that is
# a name in data (a cache's, a table's) or a public one (a GPG fingerprint, an ssh or a host key).
_KEY_NAMED = (r"(?!(?:cache|idempotency|partition|primary|foreign|sort|lookup|object|row|dedup|public|hash|gpg|pgp|ssh"
              r"|sha\d*|md5|checksum|digest|fingerprint|integrity|etag|commit"
              r"|host|composite|unique|index|shard|routing)\b)[a-z0-9]{2,20}")
# "the Mistral key is <a long random token>": 20 characters or more, judged random as a key is (both cases and
# digits strewn through, or long and of high entropy; not a name in code, a path or a word).
_RANDOM_VALUE = r"[\"'`]?(?P<value>[A-Za-z0-9+/_=.-]{20,256})(?![^\s\"'`,;)\]])"
# Said with "is" (`the stripe_key is …`), or in prose with a colon or a blank alone (`the stripe key: …`, `storage
# account key …`): judged "loose" there, random with no word among its parts (`from key: Linux-pip-3f9a…` is a
# cache's key, `matrix key: ubuntu22_python311_x64` a build's). A name in code given one (`private_key: "…"`) is
# an assignment's (core/secrecy.py).
_RANDOM_SAID = tuple(rule for word in ("key", "token", "secret") for rule in (
    ("an API key said in words", word, r"(?i)\b" + _KEY_NAMED + r"[ _-](?:api[ _-])?" + word + _FOR + _IS + _RANDOM_VALUE,
     "random"),
    ("an API key said in words", word, r"(?i)\b" + _KEY_NAMED + r" (?:api )?" + word + _FOR + r"(?:\s*:\s*|\s+)"
     + _RANDOM_VALUE, "loose")))
# (kind, what the lowercased text must hold, the pattern, how its value is judged), as secret_shapes.SAID_RULES.
# "prose": a password's shape, or a plain word before its place; "shaped": a password's shape only (after
# "set ... to", "changed to": "set the password to expire after 90 days" is a rule, not a password); "bare":
# letters and digits or symbols in one word, right after the word ("password hunter2"); "digits": six or more.
_LINKED = tuple(rule for trigger, word in (("pass", r"\bpass(?:word|wd|phrase|code)\b"), ("pw", r"\bpwd?\b"))
                for rule in (
                    ("a password said in words", trigger, r"(?i)" + word + _FOR + _IS + _VALUE, "prose"),
                    ("a password said in words", trigger, r"(?i)" + word + _FOR + _TO + _VALUE, "shaped"),
                    ("a password said in words", trigger, r"(?i)\bset\s+(?:[\w.@-]{1,40}\s+){0,4}?" + word
                     + r"(?:\s+for\s+[\w.@-]{1,40})?\s+to\s+" + _VALUE, "shaped"),
                    ("a password said in words", trigger, r"(?i)" + word + r"\s+" + _VALUE, "bare"),
                    # "the wifi password: 84920174": digits only (a word after a colon is judged as assigned).
                    ("a password said in words", trigger, r"(?i)" + word + r"\s*[:=]\s*" + _VALUE, "digits")))
# Other languages' password words, with what it is the password for, and their linking words or a colon. Judged
# as in English ("prose"): a password's shape, or a plain word before its place ("ist sonnenblume für prod"). A
# value is read whole: one cut before a letter it cannot hold (`sonnenbl` of `sonnenblümchen`) is none.
_ASCII_VALUE = r"[\"'`]?(?P<value>[A-Za-z0-9!#$%&*@^~+=._-]{4,64})(?![\u00c0-\u024f])"
_FOREIGN_FOR = (r"(?:\s+(?:für|von|auf|bei|pour|de|du|sur|para|del|en|для|от|на|voor|van|dla|do|da)"
                r"(?:\s+[\w.@-]{1,40}){1,3}?)?")
_FOREIGN = tuple(
    ("a password said in words", trigger, r"(?i)" + word + _FOREIGN_FOR + r"(?:\s*[:：=]\s*|\s*(?:" + links + r")\s*)"
     + _ASCII_VALUE, "prose")
    for trigger, word, links in (
        ("passwort", r"\bpasswort\b", r"\s(?:ist|lautet)\s"), ("mot de passe", r"\bmot de passe\b", r"\s(?:est)\s"),
        ("contrase", r"\bcontrase[ñn]a\b", r"\s(?:es)\s"), ("пароль", r"пароль", r"\s(?:это|—|-)\s"),
        ("密码", r"密码", r"是|为"), ("パスワード", r"パスワード", r"は"), ("비밀번호", r"비밀번호", r"는|은"),
        ("wachtwoord", r"\bwachtwoord\b", r"\s(?:is)\s"), ("has", r"\bhas[łl]o\b", r"\s(?:to|jest)\s"),
        ("senha", r"\bsenha\b", r"\s(?:é|e)\s")))
PROSE_RULES: tuple[tuple[str, str, str, str], ...] = (
    *_LINKED, *_FOREIGN,
    # "admin password for grafana: Tr0ub4dor&3", "use Kx9... as the password for ...", "user admin pass Kx9...".
    ("a password said in words", "pass", r"(?i)\bpass(?:word|wd|phrase)?\b" + _FOR + r"\s*:\s*" + _VALUE, "shaped"),
    ("a password said in words", "pass", r"(?i)\buse\s+" + _VALUE + r"[\"'`]?\s+as\s+(?:the\s+|a\s+|its\s+)?"
     r"(?:[\w-]{1,40}\s+)?pass(?:word|phrase)\b", "shaped"),
    ("a password said in words", "pass", r"(?i)\buser(?:name)?\s+[\w.@-]{1,64}\s+(?:pass(?:word|wd)?|pwd?)\s+" + _VALUE,
     "shaped"),
    # "u: admin p: Wx7pLm2qZ": a short `p:` after a `u:` (alone, `p:` is a paragraph's or a tag's).
    ("a password said in words", "p:", r"(?i)\bu(?:ser(?:name)?)?[ \t]*:[ \t]*[\w.@+-]{1,64}[ \t]*[,;/|]?[ \t]+p:[ \t]*"
     + _VALUE, "shaped"),
    # "log in as admin:Wx7pLm2qZ": a name, a colon, then letters and digits strewn together ("interleaved"). Not a
    # hash's or an id's name before it (`sha256:...`, `tx:0x...`), a port, a time, a path, a tag, nor `a::b`.
    ("a user's password", ":", r"(?<![\w.:@/\\[+*-])(?!(?i:sha|md|blake|crc|xxh|sri|h|hash|digest|checksum|etag|sig|tx|commit"
     r"|rev|ref|ulid|uuid|id|nonce|salt|iv)\d*:)[A-Za-z][\w.-]{1,31}:(?P<value>[A-Za-z0-9][A-Za-z0-9!#$%&*+=^~]{7,63})"
     r"(?=[\s,;)\]}'\"`]|[.!?](?:\s|$)|$)", "interleaved"),
    # "the PIN for the yubikey is 482913": six digits or more (four are too short to tell from prose).
    ("a PIN said in words", "pin", r"(?i)\bpin" + _FOR + _IS + _VALUE, "digits"),
    ("a password said in words", "psk", r"(?i)\b(?:psk|pre-?shared\s+key)" + _IS + _VALUE, "shaped"),
    ("an API key said in words", "secret", r"(?i)\bsecret" + _GIVEN + _KEY_VALUE, "key in words"),
    # A name ending in a secret's word given a key's hex or UUID: `token <64 hex>`, `secret_key_base <128 hex>`,
    # `RAILS_MASTER_KEY <32 hex>` (not a key's id or name, nor what the hash words say is a hash).
    # The name's first part that is the word is taken, once (atomic), and the parts after it whole (possessive):
    # any other choice reads the same name, and trying each made `token_` repeated cost the square of its length.
    *(("an API key said in words", trigger, r"(?i)(?<![\w.-])(?>(?:[a-z0-9]+_)*?" + word + r"(?![a-z0-9]))"
       r"(?:_(?!ids?\b|names?\b)[a-z0-9]+)*+(?:\s*[:=]\s*|\s+)" + _KEY_VALUE, "key in words")
      for trigger, word in (("secret", "secret"), ("token", "token"),
                            ("key", r"(?:api|access|account|master|secret|encryption|signing|auth|app|hmac|jwt)_?key"))),
    # "the deploy token is <40 hex>", "twilio auth token <32 hex>", "mailgun key is <32 hex>"; not a cache's key.
    ("an API key said in words", "key", r"(?i)\b" + _KEY_NAMED + r"\s+(?:key|token)" + _GIVEN + _KEY_VALUE,
     "key in words"),
    ("an API key said in words", "token", r"(?i)\b" + _KEY_NAMED + r"\s+token" + _GIVEN + _KEY_VALUE,
     "key in words"),
    *_RANDOM_SAID,
    # "login for grafana: admin / hunter2", "grafana login: admin / hunter2", "the db login is admin / x".
    # Its groups tell "login for X: user / word" (`judged_as`), where a plain word is the password too.
    ("a user's password", "log", r"(?i)\blog(?:-?in|on)s?\b(?:\s+(?P<prep>for|to|on|at|of)\s+(?:the\s+)?[\w.@/-]{1,64})?"
     r"(?P<link>\s*:|\s+is)?\s*(?P<user>[\w.@+-]{1,64})(?P<sep>\s*:\s*|\s+/\s+|/)" + _VALUE, "login"),
    # `Basic <base64 of user:password>` without its Authorization header; "basic auth: ...", "... with ...".
    ("basic auth credentials (base64 of user:password)", "basic",
     # Spaces taken whole (`\s*+`): `\s*:?\s+` split a long run of spaces every way (quadratic).
     r"(?i)\bbasic(?:[ _-]?auth(?:entication|orization)?)?(?:\s*+[:=]\s*+|\s+(?:with|is|header|creds|credentials)"
     r"(?:\s*+:)?\s++|\s++)[\"']?(?P<value>[A-Za-z0-9+/]{8,256}={0,2})(?![A-Za-z0-9+/=])", "basic"),
    # An API key of a UUID's or 32 hex digits' shape, said in words ("the api key is now <uuid>").
    ("an API key said in words", "key", r"(?i)\b(?:api|access|secret|license|licence|auth|account|client|master"
     r"|encryption|signing)[ _-]?key(?:" + _GIVEN + "|" + _TO + ")" + _KEY_VALUE, "key in words"),
    ("an API key said in words", "token", r"(?i)\b(?:api|access|auth|bearer|bot)[ _-]?token(?:" + _GIVEN + "|" + _TO
     + ")" + _KEY_VALUE, "key in words"),
)

# Names with a password's shape: schemes, hashes, ciphers, charsets, protocols, versions (`sha256-hashed`,
# `utf8mb4`, `argon2id`, `pbkdf2_sha256`, `x25519`, `2fa`, `v2`, `1.2.3`).
_NAMED = re.compile(r"(?i)(?:sha|md|aes|des|rc|argon|pbkdf|bcrypt|scrypt|utf|ucs|latin|iso|cp|win|base|rot|crc"
                    r"|blake|ntlm|tls|ssl|rsa|ecdsa|ec|ed|x|hs|rs|es|ps|ipv|oauth|http|saml|krb|hmac|chacha|poly"
                    r"|curve|secp|p|pg|py|python|node|java|php|mysql|postgres|ubuntu|debian|windows)\d+[\w.-]*"
                    r"|\d+fa\b[\w-]*|v?\d+(?:\.\d+)+[\w.-]*|v\d+")
_MIXED = re.compile(r"(?=\S{6})(?=[^\s\d]*\d)(?=[^\sA-Za-z]*[A-Za-z])[^\W_]*(?:[!?#$%&*@^~+=][^\W_]*)*", re.ASCII)
_DIGITS = re.compile(r"\d{6,64}")
# A password of four or five digits: only where the sentence ends or goes on to something else ("8492 for the
# router", "8492 and the user is admin"), not where a word says what the number counts ("2048 bits", "12 digits").
_PIN = re.compile(r"\d{4,5}!?")
_GOES_ON = re.compile(r"\s*(?:$|\n|[-–—(]|(?:and|but|so|or|then|with|while|until|und|et|y)\b)", re.IGNORECASE)
# A word after a number that says what it counts: the number is a setting, not a password.
_COUNTED = re.compile(r"\s*(?:[a-z]+\s+)?(?:characters?|chars?|digits?|letters?|bits?|bytes?|rounds?|iterations?|"
                      r"times?|attempts?|tries|days?|hours?|minutes?|seconds?|ms|s|users?|entries|rows?|words?)\b",
                      re.IGNORECASE)
# A word after a number that says what it is, or what it means: an identifier of a ticket, a migration, a build,
# an error ("password 482913 ticket", "password 401002 means locked"). A password written down is followed by
# where it works, a conjunction or the sentence's end ("Wi-Fi password 84920174 for the office").
_IDENTIFIED = re.compile(r"\s*(?:ids?|tickets?|issues?|bugs?|prs?|mrs?|migrations?|releases?|versions?|builds?|codes?|"
                         r"errors?|jobs?|runs?|commits?|revisions?|rev|changesets?|tasks?|cases?|incidents?|orders?|"
                         r"invoices?|requests?|records?|ports?|pids?|lines?|status|timestamps?|"
                         r"means|meant|denotes|indicates|signals|refers)\b", re.IGNORECASE)
# A noun above that is a verb too, said as one: what the password does ("runs out on Friday", "lines up with the
# sticker", "requests a reset"), a particle, a preposition or an article after it. The password's sentence,
# not an identifier's ("password 482913 runs were retried"). Verbs alone (maps to, stands, works) name nothing.
_DOES = re.compile(r"\s*(?:runs|requests|lines|orders|records|codes|builds|issues|errors|tasks|cases|jobs)\s+"
                   r"(?:out|up|down|to|into|until|till|on|off|with|for|at|in|after|over|through|a|an|the|its|every|"
                   r"each|any|all|your|our|their)\b", re.IGNORECASE)
_EXAMPLE_PINS = frozenset(("1234", "12345", "4321", "54321"))
_RUNS = re.compile(r"[A-Za-z]+|\d+")
_HEX = re.compile(r"[0-9a-f]+")
_SYMBOLS = re.compile(r"[^A-Za-z0-9]+")
_PHRASE = re.compile(r"[A-Za-z]{3,}(?:-[A-Za-z]{3,}){2,}")
_JOINERS = frozenset("and the for non one two per pre use self time only read write never always each all any "
                     "end out off way side".split())
_SEPARATOR = re.compile(r"[-_./\\:]")
_WORD = re.compile(r"[A-Za-z]{6,64}")
# A capitalised word and the symbols a password rule asks for: not `?` nor `.`, which end a sentence.
_SYMBOLED = re.compile(r"([A-Z][a-z]{5,63})[!#$%&*@^~+=]{1,3}")
# What a plain word ends with as an adjective or a participle ("stored", "hidden", "visible", "different"), and
# such words of no telling ending: these describe the password, they are not it.
_DESCRIBES = ("ed", "en", "ing", "ive", "ble", "al", "ous", "ful", "less", "ic", "ent", "ant", "ary", "ory", "ly",
              "ise", "ize", "own")
_PROSE_WORDS = frozenset("""
lowercase uppercase strong secret public private unique common always broken cached reused shared correct
weird simple complex random static single double exactly simply nowhere somewhere elsewhere because before
behind inside outside within without either neither rather really usually already another whatever
""".split())
# The same in the other languages the rules read (their plain words before a place: "ist falsch für prod").
_FOREIGN_PROSE_WORDS = frozenset("""
falsch richtig korrekt ungueltig gesperrt geheim sicher unsicher schwach bekannt abgelaufen vergessen gleich
correct incorrect valide invalide requis faible robuste identique oublie obligatoire
correcta incorrecta correcto incorrecto valida invalida segura insegura debil fuerte caducada requerida obligatoria
correta incorreta fraca forte obrigatoria juist onjuist geldig ongeldig zwak sterk veilig verlopen
poprawne niepoprawne bledne silne slabe
""".split())
# Where a plain word is the password for: "for prod", "in staging", "on the router". Not a count or a time.
_PLACE = re.compile(r",?\s+(?:for|in|on|at|für|auf|bei|pour|dans|sur|en|para|voor|op|dla|em)\s+"
                    r"(?:the\s+|our\s+|my\s+|its\s+|this\s+|that\s+|la\s+|le\s+|les\s+|el\s+|die\s+|den\s+|het\s+)?"
                    r"(?P<place>[A-Za-z][\w.-]*)")
_NOT_PLACES = frozenset("""
a an all any each every some case order general particular short plain clear text memory transit use now ever
good time days hours minutes weeks months years seconds sync line lines place places front advance full most
alle jede jeden jedes tous toutes chaque ce cet cette todos todas cada este esta dieses diesen immer
""".split())


def judged_as(judge: str, m: re.Match[str]) -> str:
    """How a rule's value is judged (`is_password`'s `how`): a login's as a password's shape, except after
    "login for X: user /", which introduces a login whole, so a plain word there is its password ("login")."""
    if judge != "login":
        return judge
    introduced = (m.group("prep") or "").lower() == "for" and ":" in (m.group("link") or "") and "/" in m.group("sep")
    return "login" if introduced else "shaped"


def is_password(value: str, how: str, after: str) -> bool:
    """Whether `value`, said after a password's linking words (`how`: a rule's judge above), is the password.
    `after`: the text that follows it. The caller has ruled out placeholders, descriptions and paths."""
    if how == "interleaved":  # `Tiger2024x`: not a name and its number (`jammy20240125`), hex, nor a serial number
        alnum = _SYMBOLS.sub("", value)  # `i+shift+1` is a slice's bounds, not three runs
        return (len(_RUNS.findall(alnum)) >= 3 and any(c.islower() for c in alnum)
                and not _HEX.fullmatch(alnum.lower().removeprefix("0x")))
    if how == "prose" and _PIN.fullmatch(value):  # "the password is 8492": four or five digits, where no word says
        return value.rstrip("!") not in _EXAMPLE_PINS and (_GOES_ON.match(after) is not None or _before_place(after))
    if how == "digits" or _NAMED.fullmatch(value):
        return how == "digits" and bool(_DIGITS.fullmatch(value))
    if _SEPARATOR.search(value):  # compounds and names; a passphrase's hyphens are words
        return how != "bare" and bool(_PHRASE.fullmatch(value)) and not any(
            w.lower() in _JOINERS for w in value.split("-"))
    if _MIXED.fullmatch(value):
        return True
    if _DIGITS.fullmatch(value):  # "Wi-Fi password 84920174 for the office"; not "password 100000 iterations",
        # nor "password 482913 ticket was closed"
        return how != "bare" or _COUNTED.match(after) is None and (
            _IDENTIFIED.match(after) is None or _DOES.match(after) is not None)
    symboled = _SYMBOLED.fullmatch(value)  # "Sunflowerlagoon!": a word made a password by a rule's symbol
    if symboled is not None:
        return how != "bare" and _plain(symboled.group(1))
    return (how == "prose" and _plain(value) and _before_place(after)
            or how == "login" and _plain(value))


def _plain(value: str) -> bool:
    """A plain word of six letters or more that is no adjective or word of prose ("stored", "gone")."""
    word = value.lower()
    return (bool(_WORD.fullmatch(word)) and word not in _PROSE_WORDS and word not in _FOREIGN_PROSE_WORDS
            and not word.endswith(_DESCRIBES))


def _before_place(after: str) -> bool:
    place = _PLACE.match(after)
    return place is not None and place.group("place").lower() not in _NOT_PLACES
