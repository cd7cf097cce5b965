"""Lessons about secrets that hold none pass the detector, and their neighbours that hold one do not: a host name
after a password word, a URL with a user and no password, base64 of text beside "token", a PEM header without its
body, a standard's documented example credential. Fakes are assembled at run time.
"""

from __future__ import annotations

import base64

import pytest

from kg_actors.core import secrecy

RANDOM = "Kx9mQ2vLp4Za7" + "Rt5Wq8Ny3Bc6"
HEX40 = "3f7a9c2e1b8d4f6a" + "0c5e9b2d7f1a3c8e4b6d9f01"
# jwt.io's example token (HS256, "John Doe"), printed on its front page and in countless docs.
JWT_IO = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
          ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize("text", [
    "docker login --username AWS --password-stdin 123456789012.dkr.ecr.ap-southeast-1.amazonaws.com",
    "the password lives on vault-01.prod.internal.example.com for now",
    "The DSN's public key is not a secret: https://abc123@o123456.ingest.sentry.io/4505 is safe.",
    "token: https://auth.example.com/oauth2/v1/token",
    "Cursor tokens are base64 of the last id: " + b64("304fd18e-4b6c-4b91-a52f-f0e04dbfa8c7"),
    "the token holds base64 of its scope: " + b64("read:repo write:issues"),
    "Only the private key file (-----BEGIN OPENSSH PRIVATE KEY-----) must stay out of git.",
    "-----BEGIN PRIVATE KEY----- followed by the body, then -----END PRIVATE KEY-----",
    "RFC 7617's example: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== (Aladdin:open sesame).",
    "RFC 6749: Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW, then Bearer 2YotnFZFEjr1zCsicMWpAA",
    "jwt.io's example token: " + JWT_IO,
    "Authorization: Bearer " + JWT_IO + " is what the docs send",
    "decode it at jwt.io: " + base64.b64encode(JWT_IO.encode()).decode(),
])
def test_a_lesson_that_names_a_secret_without_one_passes(text):
    assert secrecy.find(text) is None


@pytest.mark.parametrize("text, kind", [
    ("the password is on 1.2.3.4: " + RANDOM, "a credential-like string next to a secret-named word"),
    ("token: https://" + HEX40 + "@github.com/org/repo.git", "a credential assigned to a secret-named key"),
    ("token: https://" + RANDOM + "@github.com/org/repo.git", "a credential assigned to a secret-named key"),
    ("secret: https://api.example.com/hook/" + RANDOM, "a credential assigned to a secret-named key"),
    ("secret: https://abc123:" + RANDOM + "@o1.ingest.sentry.io/4505", "a password in a URL"),
    ("the token (base64): " + b64(RANDOM), "base64 of a credential-like string next to a secret-named word"),
    ("DB_PASSWORD=" + b64(RANDOM), "a credential assigned to a secret-named key"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5v", "a private key"),
    ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED", "a private key"),
    ('"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0B"', "a private key"),
    ("Authorization: Basic " + b64("deploy:" + RANDOM), "a basic auth header"),
    ("the session token: " + JWT_IO[:-12] + RANDOM[:12], "a JSON web token"),  # another signature: a real token
])
def test_its_neighbour_that_holds_a_secret_is_refused(text, kind):
    found = secrecy.find(text)
    assert found is not None and found.kind == kind, found


# A file under a folder named for secrets: the path's next part is a name, not a credential (an audit found these
# refused as "a credential-like string next to a secret-named word").
@pytest.mark.parametrize("text", [
    "AKIAIOSFODNN7EXAMPLE appears in docs/aws/credentials/ExampleConfigurationFile.md",
    "docs/aws/credentials/ExampleConfigurationFile.md",
    "The credentials file lives at config/credentials/ProductionDatabaseSettingsV2",
    "credentials/ProductionDatabaseSettingsV2 holds no secret itself",
    "the loader reads secrets/ApiKeyLoaderImplementationV3.ts at start",
])
def test_a_path_under_a_secret_named_folder_passes(text):
    assert secrecy.find(text) is None


@pytest.mark.parametrize("text, kind", [
    ("credentials: " + RANDOM, "a credential assigned to a secret-named key"),
    ("credentials=" + RANDOM, "a credential assigned to a secret-named key"),
    ("the value is config/credentials/" + RANDOM, "a credential-like string next to a secret-named word"),
    ("credentials/" + RANDOM, "a credential-like string next to a secret-named word"),
])
def test_a_random_string_after_a_secret_named_word_or_folder_stays_refused(text, kind):
    found = secrecy.find(text)
    assert found is not None and found.kind == kind, found


# Python with type annotations: a key-named variable given a type, then perhaps a value (an audit found a corpus's
# code refused as "a credential assigned to a secret-named key" for the type's name).
LOADER = ("if key_bytes.startswith(b\"ssh-rsa\"):\n    public_key: PublicKeyTypes = load_ssh_public_key(key_bytes)\n"
          "else:\n    private_key: PrivateKeyTypes = load_pem_private_key(\n        key_bytes, password=None\n    )\n"
          "    return cast(RSAPrivateKey, private_key)")
EDWARDS = ("private_key: Ed25519PrivateKey | Ed448PrivateKey\nif curve == \"Ed25519\":\n"
           "    private_key = Ed25519PrivateKey.from_private_bytes(d)\nelse:\n"
           "    private_key = Ed448PrivateKey.from_private_bytes(d)")


@pytest.mark.parametrize("text", [
    "public_key: PublicKeyTypes = load_ssh_public_key(key_bytes)",
    "private_key: PrivateKeyTypes = load_pem_private_key(key_bytes, password=None)",
    "private_key: Ed25519PrivateKey | Ed448PrivateKey",
    "private_key: RSAPrivateKey | None = None",
    "private_key: rsa.RSAPrivateKey = serialization.load_pem_private_key(data, password=None)",
    "api_key: ApiKey = get_api_key()",
    "token: AccessToken = credential.get_token(scope)",
    "self.secret_key: SecretKey | None = None",
    "access_key: AccessKey = AccessKey(id=key_id)",
    "def sign(private_key: RSAPrivateKey = DEFAULT_KEY) -> bytes:",
    LOADER,
    EDWARDS,
])
def test_python_with_a_typed_key_variable_passes(text):
    assert secrecy.find(text) is None


@pytest.mark.parametrize("text, kind", [
    ('private_key: "' + RANDOM + '"', "a credential assigned to a secret-named key"),
    ('api_key = "' + RANDOM + '"', "a credential assigned to a secret-named key"),
    ('api_key: ApiKey = "' + RANDOM + '"', "a credential assigned to a secret-named key"),
    ("token: TokenV2 = " + RANDOM, "a credential assigned to a secret-named key"),
    ("private_key: RSAPrivateKey | None = '" + RANDOM + "'", "a credential assigned to a secret-named key"),
    ("api_key: " + RANDOM[:10] + " = x", "a credential assigned to a secret-named key"),  # no type: a random value
])
def test_a_typed_key_variable_given_a_secret_stays_refused(text, kind):
    found = secrecy.find(text)
    assert found is not None and found.kind == kind, found


def test_a_password_with_digits_strewn_through_is_no_type_name():
    found = secrecy.find("api_key: Tr0ub4dor = x")
    assert found is not None and found.kind == "a credential assigned to a secret-named key", found


def test_a_key_in_a_table_row_is_no_union_of_types():
    found = secrecy.find("| Stripe | token: " + "KxQmVpZaRtWqNyBc" + " | Prod |")
    assert found is not None and found.kind == "a credential assigned to a secret-named key", found
