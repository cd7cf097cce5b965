"""A random key given to a word that names it is refused however it is said ("the webhook secret <hex>", "... is
<hex>", `WEBHOOK_SECRET=<hex>`, "storage account key: <base64>"): the wording is incidental. What such words
stand beside that is no key (a hash the words say is one, a cache's or a build's key, a key's id) is stored."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

HEX = "790a87f079abd980c540c9fa7364f561" + "c8040ce988bd1809fcec6ea2a7dd04a6"  # `openssl rand -hex 32`'s shape
AZURE = "b7g+w4YxU14ErC6vojbPYUeRXlHA1BVHeOaG0XZVWsVrCD8C1Z1Pv9Xk" + "h3z3XQAS0e74hAhbIyD7ZNreQ1x2Yk8Rzw=="
RANDOM = "Ffq7JCafB4YXwtw2hJYN" + "ey79DslFLmhIAUDcKSo2"

SAID = {
    "a webhook secret": [f"the webhook secret {HEX}", f"the webhook secret is {HEX}", f"the webhook secret: {HEX}",
                         f"WEBHOOK_SECRET={HEX}"],
    "a client or signing secret": [f"the client secret {HEX}", f"JWT signing secret {HEX}"],
    "an account key": [f"the storage account key: {AZURE}", f"storage account key {AZURE}", f"AccountKey {AZURE}"],
    "a provider's key": [f"the stripe key: {RANDOM}", f"the api key: {RANDOM}", f"openai key {RANDOM}{RANDOM[:8]}"],
    "a name given hex": [f"RAILS_MASTER_KEY {HEX[:32]}", f"token {HEX}", f"secret_key_base {HEX}{HEX}",
                         f"SECRET_KEY_BASE={HEX}{HEX}"],
}
STORED = [
    f"the file's sha256 checksum {HEX}",
    f"the release commit sha {HEX[:40]}",
    f"the public key fingerprint {HEX[:40]}",
    f"the cache key {HEX[:32]} is rebuilt nightly",
    "Cache restored from key: Linux-pip-3f9a1c2e7b5d",
    "Build matrix key: ubuntu22_python311_x64 runs the slow suite nightly.",
    "the token kid=2024-06-rotation names the signing key",
    "the api key rotation runbook lives in docs/ops/keys.md",
    f"token_hash {HEX} is what the table keeps",
    f"api_key_id {HEX[:32]} names the key in the console",
]


@pytest.mark.parametrize(("what", "text"), [(w, t) for w, texts in SAID.items() for t in texts])
def test_a_random_key_after_a_word_naming_it_is_refused_however_it_is_said(what, text):
    found = secrecy.find(text)
    assert found is not None, (what, text)
    assert HEX[8:20] not in found.preview and AZURE[8:20] not in found.preview and RANDOM[8:20] not in found.preview


@pytest.mark.parametrize("text", STORED)
def test_hashes_ids_and_names_beside_such_words_are_stored(text):
    assert secrecy.find(text) is None
