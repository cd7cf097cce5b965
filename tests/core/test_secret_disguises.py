"""Secrets in disguise: base64 of a key, a key split across lines or notes, a bare AWS secret beside its key
id. Each fake is assembled from parts at run time, so no file of this repository holds a whole key; the
look-alikes an outside audit checked stay storable.
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from kg_actors.core import secret_logs, secrecy
from kg_actors.core.secret_base64 import BASE64_MAX_CHARS, BASE64_MAX_RUNS, Budget, decoded_runs

RNG = random.Random(20261205)


def body(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def b64(text: str, urlsafe: bool = False) -> str:
    return (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(text.encode()).decode()


GHP = "ghp_" + body(36)
AKID = "AKIA" + body(16, string.ascii_uppercase + string.digits)
AWS_SECRET = body(13) + "/" + body(7) + "/" + body(18)
JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0." + body(43)
TOKENS = {  # what the audit's base64 run stored
    "aws key id": AKID,
    "aws secret": "aws_secret_access_key = " + AWS_SECRET,
    "ghp": GHP,
    "slack": "xoxb-" + body(12, string.digits) + "-" + body(13, string.digits) + "-" + body(24),
    "stripe": "sk_" + "live_" + body(24),
    "openai": "sk-" + "proj-" + body(48),
    "anthropic": "sk-" + "ant-api03-" + body(80),
    "jwt": JWT,
    "postgres url": "postgres://admin:" + body(12) + "@db.internal.example.com:5432/app",
    "bearer": "Authorization: Bearer " + body(32),
}


@pytest.mark.parametrize("name", TOKENS)
def test_base64_of_a_key_is_refused_as_base64_of_its_kind(name):
    secret = TOKENS[name]
    kind = secrecy.find(secret).kind  # the plain text's kind, named again under base64
    for encoded in (b64(secret), b64(secret).rstrip("="), b64(secret, urlsafe=True)):
        found = secrecy.find("Deploy note for staging: " + encoded)
        assert found is not None and found.kind == f"base64 of {kind}", (encoded, found)
        assert encoded[4:] not in found.preview
    assert secrecy.find(b64("GitHub token: " + GHP + "\nrotate monthly")).kind == "base64 of a GitHub token"


@pytest.mark.parametrize("plain", ["password=" + body(13), "API_KEY=" + body(24),
                                   "github_pat_" + body(22) + "_" + body(59), "sk-" + body(48)],
                         ids=["password", "api key", "github pat", "openai"])
def test_base64_of_an_assignment_or_an_older_key_shape_is_refused(plain):
    found = secrecy.find(f"value: {b64(plain)} (from the vault)")
    assert found is not None and found.kind.startswith("base64 of "), found


@pytest.mark.parametrize("text", [
    "base64 of the 1px gif is R0lGODlhAQAB" + "AIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "the header is " + b64("The quick brown fox jumps over the lazy dog, and the token expires hourly."),
    "encoded " + b64("password reset emails fail when the token expires after one hour"),
    "encoded " + b64("rotate the AWS key every 90 days; never commit API_KEY values"),
    "fixed in commit 3f7a9c2e1b8d4f6a0c5e9b2d7f1a3c8e4b6d9f01 and kg_actors_core_secrecy_disguises_module",
    "image digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "AWS docs use " + b64("AKIAIOSFODNN7EXAMPLE") + " as an example",
])
def test_base64_of_data_or_prose_and_long_names_are_stored(text):
    assert secrecy.find(text) is None


def test_a_long_field_of_base64_runs_is_read_in_bounded_runs():
    """A 20,000-character field of base64 runs is decoded a bounded number of runs and characters: the
    budget is counted, not timed."""
    runs = [b64(body(300, string.ascii_lowercase + " ")) for _ in range(50)]
    text = " ".join(runs)[:20_000]
    decoded = list(decoded_runs(text))
    assert 0 < len(decoded) <= BASE64_MAX_RUNS
    assert sum(len(d) for _, d in decoded) <= BASE64_MAX_CHARS


def _refusal(gist: str, notes: list[str] | None = None) -> str | None:
    try:
        secrecy.clean_node(gist, notes, None)
    except secrecy.SecretRefused as refused:
        return f"{refused.field}: {refused.finding.kind}"
    return None


def _split(text: str) -> str:
    return text[:len(text) // 2] + "\n" + text[len(text) // 2:]


@pytest.mark.parametrize("secret", [AKID, GHP, "github_pat_" + body(22) + "_" + body(59), "sk_" + "live_" + body(24),
                                    JWT, "postgres://admin:" + body(12) + "@db/app", "password=" + "Kx9mQ2v" + "Lp4Za7",
                                    "Authorization: Bearer " + body(32)],
                         ids=["aws", "ghp", "github pat", "stripe", "jwt", "postgres url", "password", "bearer"])
def test_a_key_split_across_a_gists_lines_is_refused_as_the_key(secret):
    """A gist's line break is folded into a space when stored: the key is read as it would be without it."""
    assert _refusal("Deploy note for staging: " + _split(secret)) is not None
    assert _refusal("Deploy note for staging", ["see:\n" + _split(secret)]) is not None


def test_a_key_split_across_notes_or_a_notes_lines_is_refused_naming_both():
    assert _refusal("split", [GHP[:20] + "\n" + GHP[20:]]) == "notes[0]: a GitHub token"
    assert _refusal("split", ["ok", GHP[:20], GHP[20:]]) == "notes[1] joined to notes[2]: a GitHub token"
    assert _refusal("token starts " + GHP[:12], [GHP[12:]]) == "gist joined to notes[0]: a GitHub token"
    assert _refusal("url", ["postgres://admin:\n" + "Tr0ub4dorQx7@db/app"]) == "notes[0]: a password in a URL"
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_notes(["via " + GHP[:20], GHP[20:] + " for ci"])
    assert refused.value.field == "notes[0] joined to notes[1]"


def test_a_key_in_three_or_four_pieces_or_around_a_note_is_refused_naming_them():
    assert _refusal("split", [GHP[:12], GHP[12:26], GHP[26:]]) == \
        "notes[0] joined to notes[1] joined to notes[2]: a GitHub token"
    assert _refusal("split", ["ok", GHP[:10], GHP[10:20], GHP[20:30], GHP[30:]]) == \
        "notes[1] joined to notes[2] joined to notes[3] joined to notes[4]: a GitHub token"
    assert _refusal("split", [GHP[:20], "a note between", GHP[20:]]) == "notes[0] joined to notes[2]: a GitHub token"
    assert _refusal("token starts " + AKID[:6], [AKID[6:12], AKID[12:]]) == \
        "gist joined to notes[0] joined to notes[1]: an AWS access key id"
    # Five pieces, or pieces around two notes, are not read as one: a run is four fields at most. The piece
    # holding the prefix is refused as part of a key once it is long enough to be no word (12 characters on).
    assert _refusal("split", [GHP[:8], GHP[8:16], GHP[16:24], GHP[24:32], GHP[32:]]) is None
    assert _refusal("split", [GHP[:20], "one note", "and another", GHP[20:]]) == "notes[0]: part of a GitHub token"
    # Two parts with words around each are read around a sentence between them (core/secret_pairs.py): the
    # refusal names the notes holding the parts, not the sentence the first part's end glues into.
    between = _refusal("split", [GHP[:20], "then type it at the prompt, never on the line", GHP[20:]])
    assert between == "notes[0] joined to notes[2]: a GitHub token", between


@pytest.mark.parametrize("notes", [
    ["step 1", "run make", "then deploy", "sk-", "ip: 10.0.0.1", "AKIA", "docs"],
    ["ghp_", "is GitHub's prefix", "AKIA", "is AWS's", "sk-ant-", "is Anthropic's"],
    ["{", "\"token\":", "\"<redacted>\"", "}"],
])
def test_short_notes_that_make_no_key_together_are_stored(notes):
    assert _refusal("a checklist", notes) is None


@pytest.mark.parametrize("notes", [
    ["rotate the AWS key every 90 days", "AKIAXXXXXXXXXXXXXXXX is the placeholder", "AKIAIOSFODNN7EXAMPLE too"],
    ["Stripe test keys look like sk_test_...", "fixed in commit 3f7a9c2e1b8d4f6a0c5e9b2d7f1a3c8e4b6d9f01"],
    ["tenant 123e4567-e89b-12d3-a456-426614174000", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
    ["set password=${DB_PASSWORD} and token: <your-token>", "send Authorization: Bearer <token>"],
    ["use postgres://user:password@localhost/db", "max_tokens=4096 and a token limit of 8000"],
    ["SECRET_KEY=os.getenv('SECRET_KEY')\nin settings.py", "JWT secret and token TTL"],
    ["DB_USER=admin\nDB_HOST=db", "token=dev", "Build2Run is the next step"],
    ["cat > .env <<EOF\nSTRIPE_SECRET=\nEOF", "base64 of the gif: R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"],
])
def test_the_audits_look_alikes_stay_storable_across_lines_and_notes(notes):
    assert _refusal("a lesson\nabout keys", notes) is None
    assert _refusal("\n".join(notes)) is None


def test_a_bare_aws_secret_beside_its_key_id_in_the_field_or_the_node_is_refused():
    assert _refusal(f"the key pair is AKIA... and {AWS_SECRET}") == (
        "gist: an AWS secret access key (beside its key id)")
    assert _refusal("AWS key pair for ci: ASIA… (a session key)", ["ok", AWS_SECRET]) == (
        "notes[1]: an AWS secret access key (beside its key id)")
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_notes([f"id AKIA..., secret {AWS_SECRET}"])
    assert AWS_SECRET[4:] not in str(refused.value)


@pytest.mark.parametrize(("gist", "notes"), [
    (f"a 40-character value alone: {AWS_SECRET}", None),  # no key id: 40 such characters may be anything
    ("AWS docs: AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", None),
    ("IAM docs show AKIAXXXXXXXXXXXXXXXX", ["fixed in commit 3f7a9c2e1b8d4f6a0c5e9b2d7f1a3c8e4b6d9f01",
                                           "the path src/components/Header/index/ButtonGroupItem", "AKIA rotation"]),
])
def test_forty_characters_alone_a_documented_example_or_a_commit_id_beside_a_key_id_are_stored(gist, notes):
    assert _refusal(gist, notes) is None


@pytest.mark.parametrize("text", ["key-" + body(32, string.ascii_lowercase + string.digits),
                                  "mailgun private key is key-" + "3ax6xnjp29jd6fds" + "4gc373sgvjxteol0",
                                  "key-" + body(32, "0123456789abcdef")])
def test_a_mailgun_key_of_letters_and_digits_is_refused_in_text_and_as_a_name(text):
    assert secrecy.find(text).kind == "a Mailgun key"
    with pytest.raises(secrecy.SecretRefused):
        secrecy.refuse_secret_names([("id", text.split()[-1])])


@pytest.mark.parametrize("name", ["key-rotation-runbook", "key-" + "a" * 32, "key-value-store-for-sessions-and-tokens",
                                  "key-internationalizationprocessing", "monkey-" + body(32, "abcdef0123456789")[:20]])
def test_a_slug_after_key_is_no_mailgun_key(name):
    assert secrecy.find(name, shapes_only=True) is None


@pytest.mark.parametrize(("text", "secret", "preview"), [
    ("password=" + "Kx9mQ2vLp4Za7", "Kx9mQ2vLp4Za7", "… (13 characters)"),
    ("the staging db password is " + "Tr0ub4dorQx7" + " for admin", "Tr0ub4dorQx7", "… (12 characters)"),
    ("aws key " + AKID + " in ~/.aws", AKID, "AKIA… (20 characters)"),  # the prefix names the kind
    ("curl -u admin:" + "Tr0ub4dorQx7xyzW" + " https://api.example.com", "Tr0ub4dorQx7xyzW", "… (16 characters)"),
])
def test_a_short_secrets_refusal_shows_none_of_its_characters_but_a_kinds_prefix(text, secret, preview):
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_node("how to connect", [text], None)
    message = str(refused.value)
    assert refused.value.finding.preview == preview
    assert "notes[0] holds what looks like" in message and secret[:2] not in message.replace("AKIA", "")


def test_a_long_secrets_refusal_shows_its_first_four_characters():
    assert secrecy.find("clone with " + GHP).preview == "ghp_… (40 characters)"
    assert secrecy.find("DB_PASSWORD=" + "Hn3Jk5Lm7Pq9Rs2Tv4WxYz6Ab").preview == "Hn3J… (25 characters)"


@pytest.mark.parametrize("prompt", ["how do I rotate the staging database credentials", "rotate the staging database keys",
                                    "how do I reset the api key and the password of the staging db",
                                    "why does the jwt token expiry break refresh", "the client secret rotation job fails"])
def test_a_prompt_that_names_a_secret_without_giving_one_keeps_its_words(prompt):
    words = prompt.split()
    assert secret_logs.loggable_terms(prompt, words) == words


@pytest.mark.parametrize("prompt", ["the db credentials are admin / Kx9mQ2vLp4Zt", "my password is hunter2",
                                    "das Passwort für staging ist hunter2", "the api key: 9f8e7d6c5b4a",
                                    "the pin for the yubikey is 482913"])
def test_a_prompt_that_gives_a_secret_keeps_none_of_its_words(prompt):
    assert secret_logs.loggable_terms(prompt, prompt.split()) == [secret_logs.WITHHELD]
    typed = "why does the deploy fail"  # a secret in the <private> block of the prompt withholds the typed words
    prompt = f"{typed} <private>{prompt}</private>"
    assert secret_logs.loggable_terms(typed, typed.split(), prompt) == [secret_logs.WITHHELD]


@pytest.mark.parametrize("state", [{"x": b64(GHP)}, {"x": b64("token=" + GHP)}, {"a": {"b": [b64(JWT)]}},
                                   {"x": b64("postgres://admin:" + body(12) + "@db.internal/app")}])
def test_base64_given_to_a_key_in_a_state_or_a_text_is_decoded(state):
    field, found = secrecy.check_fields(secrecy.strings_in(state, "state"))
    assert field.startswith("state.") and found.kind.startswith("base64 of "), found
    value = json_leaf(state)
    assert secrecy.find("the value was x=" + value) is not None


def json_leaf(value):
    while not isinstance(value, str):
        value = next(iter(value.values())) if isinstance(value, dict) else value[0]
    return value


@pytest.mark.parametrize("name", ["ghp", "aws key id", "jwt", "stripe"])
def test_base64_of_base64_of_a_key_is_refused_as_such(name):
    found = secrecy.find("blob " + b64(b64(TOKENS[name]), urlsafe=name == "jwt"))
    assert found is not None and found.kind.startswith("base64 of base64 of "), found


def test_a_second_layer_is_read_within_the_first_layers_budget():
    """The layers share one budget of runs and characters: counted, not timed."""
    text = " ".join(b64(b64(body(200, string.ascii_lowercase + " "))) for _ in range(40))
    budget = Budget()
    first = list(decoded_runs(text, budget))
    second = [d for _, outer in first for d in decoded_runs(outer, budget)]
    assert first and len(first) + len(second) <= BASE64_MAX_RUNS
    assert sum(len(d) for _, d in first) + sum(len(d) for _, d in second) <= BASE64_MAX_CHARS
    assert secrecy.find(b64(b64(b64(GHP)))) is None  # a third layer is not read


def test_a_key_spaced_one_character_apart_or_cut_by_hyphens_is_found_and_prose_so_cut_is_not():
    token = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
    hyphens = "-".join(token[i:i + 10] for i in range(0, len(token), 10))
    for text in (" ".join(token), f"the token: {' '.join(token)} (spaced)", hyphens, f"see {hyphens}."):
        found = secrecy.find(text)
        assert found is not None and found.kind == "a GitHub token" and token[4:14] not in found.preview, text
    half = secrecy.check_fields([("touches[0]", "cfg/" + "-".join((token[:10], token[10:20])))])
    assert half is None  # a part alone is no key: the write's rule for parts names it
    from kg_actors.core.secret_fragments import fragment_in
    assert fragment_in([("touches[0]", "cfg/" + "-".join((token[:10], token[10:20])))])[0] == "touches[0]"
    for prose in ("a b c d e f g h i j k l m n o p q r s", "state-of-the-art write-ahead-log", "src/my-app-v2/x",
                  "123e4567-e89b-12d3-a456-426614174000", "gh-pages-deploy-step", "g h p _ is GitHub's prefix"):
        assert secrecy.find(prose) is None and fragment_in([("x", prose)]) is None, prose


def test_a_key_cut_by_hyphens_with_one_before_after_or_doubled_is_found_and_look_alikes_are_not():
    token = "ghp_" + "R7dLq2Vx9NwBz4Kc" + "Yt1HmPa8SgEu6Jf0XiOo"
    cut = "-".join(token[i:i + 4] for i in range(4, len(token), 4))
    for text in (f"ghp_-{cut}-", f"ghp_-{cut}", f"ghp_{cut}-", f"-ghp_{cut}", f"see ghp_--{cut.replace('-', '--')}.",
                 f"(ghp_-{cut}-)"):
        found = secrecy.find(text)
        assert found is not None and found.kind == "a GitHub token", text
    with pytest.raises(secrecy.SecretRefused, match="gist holds what looks like a GitHub token"):
        secrecy.clean_node(f"ghp_-{cut}-", None, None)
    for prose in ("-state-of-the-art-", "--dry-run-mode--", "-x-y-z-", "a-b-c-d-e-f-g-h.txt", "--ghp_-helpers-"):
        assert secrecy.find(prose) is None, prose


def test_an_aws_key_id_split_across_touches_is_refused_as_across_notes_and_paths_beside_each_other_are_not():
    first, rest = AKID[:10], AKID[10:]
    with pytest.raises(secrecy.SecretRefused, match="touches.0. joined to touches.1. holds what looks like an AWS"):
        secrecy.clean_node("x", None, [first, rest])
    with pytest.raises(secrecy.SecretRefused, match="an AWS"):
        secrecy.clean_node("x", None, [f"cfg/{first}", f"{rest}/x.py"])
    clean = secrecy.clean_node("x", None, ["src/AKIA_notes.md", "docs/README.md", "src/ghp_helpers/a.py", "b.py"])
    assert clean.touches == ["src/AKIA_notes.md", "docs/README.md", "src/ghp_helpers/a.py", "b.py"]


# A placeholder key ending a line or a note, the next one going on in words: the two are read glued (a key split
# there is one key), but the words glued at the seam (`HERErestart`) are no piece of a key cut after its prefix.
@pytest.mark.parametrize("notes", [
    ["STRIPE_KEY=sk_test_YOUR_KEY_HERE", "then restart the worker"],
    ["Set in .env:\nSTRIPE_KEY=sk_test_YOUR_KEY_HERE\nthen restart the worker"],
    ["GITHUB_TOKEN=ghp_YOUR_TOKEN_GOES_HERE", "then rerun the deploy workflow by hand"],
    ["sk_test_YOUR_KEY_HERE", "sk_live_YOUR_KEY_HERE"],
])
def test_a_placeholder_key_before_a_line_or_note_of_words_is_stored(notes):
    assert _refusal("stripe setup", notes) is None
    assert _refusal("stripe setup\n" + "\n".join(notes)) is None


def test_a_key_cut_apart_and_split_across_notes_or_lines_is_refused_naming_them():
    cut = GHP[:4] + " ".join(GHP[i:i + 4] for i in range(4, len(GHP), 4))  # ghp_ and nine pieces of four
    assert _refusal("deploy", ["deploy with " + cut[:21], cut[21:] + " for ci"]) == \
        "notes[0] joined to notes[1]: a GitHub token"
    assert _refusal("deploy", ["deploy with " + cut[:21] + "\n" + cut[21:] + " for ci"]) == "notes[0]: a GitHub token"
    assert _refusal("deploy with " + cut[:21] + "\n" + cut[21:] + " for ci") == "gist: a GitHub token"


def test_a_refusal_shows_a_pem_header_line_but_masks_a_value_glued_to_its_dashes():
    from kg_actors.core.secret_findings import mask

    assert mask("-----BEGIN RSA PRIVATE KEY-----") == "-----BEGIN RSA PRIVATE KEY-----"
    glued = "-----BEGIN" + "Y6BzUZKC97i4xgciFnq9"
    assert mask(glued) == "----… (30 characters)"
    found = secrecy.find("password=" + glued)
    assert found is not None and "Y6Bz" not in found.preview


@pytest.mark.parametrize("kind, first, second", [
    ("an AWS access key id", "AKIAZ7QRT4", "XKLM2PW9BN"),
    ("an npm token", "npm_Lq2Vx9NwBz4KcXiOo", "Pp1234567890abCDefG"),
    ("a Google API key", "AIzaSyD8Vx9NwBz4KcXiOo", "Pp1234567890abCDe"),
    ("a SendGrid key", "SG.R7dLq2Vx9NwBz4KcXiOoPp.Vx9Nw", "Bz4KcXiOoPp1234567890abCDefGhIjKlMnOp"),
])
def test_halves_of_a_key_with_words_around_each_in_two_notes_or_gist_lines_are_refused_as_the_key(kind, first, second):
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_node("see notes", [f"first half {first}", f"second half {second}"], None)
    assert refused.value.field == "notes[0] joined to notes[1]" and refused.value.finding.kind == kind
    with pytest.raises(secrecy.SecretRefused) as refused:
        secrecy.clean_node(f"first half {first}\nsecond half {second}", None, None)
    assert refused.value.field == "gist" and refused.value.finding.kind == kind


def test_a_prefixs_word_of_prose_beside_a_next_notes_words_is_stored():
    for notes in (["install sk-learn", "then ColumnTransformer"], ["AKIA keys rotate", "every 90 days"],
                  ["npm_config_cache is read", "from the env"], ["see SG.docs", "section SendGrid2024"]):
        assert secrecy.clean_node("notes on keys", notes, None).notes == notes
