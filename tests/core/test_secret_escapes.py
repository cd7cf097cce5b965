"""A key written as JSON `\\u` escapes or as the hex of its bytes is the key (as its base64 is); a hash, a commit
id and escaped prose stay stored. Both read in linear time on 100 KB of hostile text."""

from __future__ import annotations

import time

import pytest

from kg_actors.core.secrecy import find

STRIPE = "sk_live_" + "Aouhlf7EvEhxmOaSetcEGc3a483qxQMK1pvFplLjEUk1QylcN4uE"


@pytest.mark.parametrize("text", [
    "STRIPE_KEY_HEX=" + STRIPE.encode().hex(),
    "backup blob " + STRIPE.encode().hex().upper() + " restored",
    '{"stripe": "\\u0073\\u006b_live_' + STRIPE[8:] + '"}',
])
def test_an_escaped_or_hex_key_is_found(text):
    found = find(text)
    assert found is not None and "Stripe key" in found.kind and STRIPE[8:20] not in found.preview, (text, found)


@pytest.mark.parametrize("text", [
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 of the empty file",
    "commit 3f9a1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c fixed it",
    "hex of 'deploy notes for the team': " + b"deploy notes for the team".hex(),
    '{"msg": "caf\\u00e9 is \\u0041BC"}',
])
def test_hashes_ids_and_escaped_prose_are_stored(text):
    assert find(text) is None, (text, find(text))


@pytest.mark.parametrize("unit", ["\\u0041", "41", "736b5f6c6976655f", "\\u0073\\u006b_live_"])
def test_hostile_escapes_are_read_in_linear_time(unit):
    took = []
    for length in (10_000, 100_000):
        text = unit * (length // len(unit))
        start = time.process_time()
        find(text)
        took.append(time.process_time() - start)
    assert took[1] < 1.0 and took[1] < 30 * max(took[0], 0.005), took


def _hex(text: str) -> str:
    return text.encode().hex()


@pytest.mark.parametrize("text", [
    "the key " + _hex("The quick brown fox jumps over the lazy dog") + " in the fixture is just the pangram in hex",
    "token_hex " + _hex("password_reset_token_for_docs_example") + " is from the docs",
    "the signing key " + _hex("Hello World! This is a test") + " is what the fixture decodes",
])
def test_hex_that_spells_words_after_a_keys_name_is_stored(text):
    # Refused as an API key said in words: hex after "key" was judged random whatever its bytes spelled.
    assert find(text) is None, (text, find(text))


@pytest.mark.parametrize("text", [
    "the key " + _hex("Xk9#mQ2vLp4Za7bN"),  # a random password's bytes: printable, no words
    "the api key 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "the key " + _hex("sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
])
def test_hex_of_a_random_value_after_a_keys_name_stays_refused(text):
    assert find(text) is not None, text


KEY = "sk_live_51Hb8kLm" + "Q2vX9pZ7rT4nW6yE"
_PAIRS = [KEY.encode().hex()[i:i + 2] for i in range(0, 2 * len(KEY), 2)]


@pytest.mark.parametrize("text", [
    ":".join(_PAIRS), " ".join(_PAIRS), "b'" + "".join("\\x" + p for p in _PAIRS) + "'",
    "uint8_t k[] = {" + ",".join("0x" + p for p in _PAIRS) + "};", ", ".join("0x" + p.upper() for p in _PAIRS),
    "dump: " + "-".join(_PAIRS) + " end",
])
def test_a_keys_hex_bytes_with_separators_or_escapes_is_found(text):
    # Only an unbroken hex run was read as bytes: a dump's or a bytes literal's byte-by-byte form was stored.
    found = find(text)
    assert found is not None and found.kind == "hex of a Stripe key", (text, found)
    assert "Q2vX" not in found.preview


@pytest.mark.parametrize("text", [
    "sk_l\tive_\t51Hb\t8kLm\tQ2vX\t9pZ7\trT4n\tW6yE", "sk_l  ive_  51Hb  8kLm  Q2vX  9pZ7  rT4n  W6yE",
    "key:   sk_live_ \t 51Hb8kLm   Q2vX9pZ7   rT4nW6yE",
])
def test_a_key_in_groups_split_by_tabs_or_runs_of_spaces_is_found(text):
    found = find(text)
    assert found is not None and found.kind == "a Stripe key", (text, found)


_DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


@pytest.mark.parametrize("text", [
    "sha256 fingerprint " + ":".join(_DIGEST[i:i + 2] for i in range(0, 64, 2)),
    "macs 00:1a:2b:3c:4d:5e aa:bb:cc:dd:ee:ff 00:1a:2b:3c:4d:5f", "ipv6 2001:0db8:85a3:0000:0000:8a2e:0370:7334",
    "uuid 123e4567-e89b-12d3-a456-426614174000", " ".join(f"{b:02x}" for b in b"hello world, this is plain text!"),
    "b'" + "".join(f"\\x{b:02x}" for b in b"GET /index.html HTTP/1.1") + "'",
    "col1\tcol2\tcol3\tcol4\tcol5", "name   type     size\nlogs   dir      4096",
])
def test_dumps_of_no_key_macs_ipv6_uuids_and_digests_are_stored(text):
    assert find(text) is None, (text, find(text))


@pytest.mark.parametrize("unit", ["73:", "73 6b ", "\\x41", "0x41, ", "ab " * 15 + "g ", "sk_l\t", "ab  "])
def test_separated_hex_and_blanks_are_read_in_linear_time(unit):
    took = []
    for length in (2_000, 20_000):
        text = unit * (length // len(unit))
        start = time.process_time()
        find(text)
        took.append(time.process_time() - start)
    assert took[1] < 0.5 and took[1] < 30 * max(took[0], 0.005), took
