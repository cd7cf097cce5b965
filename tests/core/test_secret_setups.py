"""Secrets as services, manifests and tools hand them out are refused (an outside audit found each stored): a
Sentry DSN's key, a Kubernetes Secret's values, sqlplus's user/password@, JDBC's password argument, MinIO's
`mc alias set`, a provider's key said in words, Wi-Fi keys and short logins, passwords said in other languages
and a PIN-like password. Each is paired with what looks like it and is no secret, which is stored."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

KEY32 = "3f9a1c2b4d5e6f70" + "8192a3b4c5d6e7f8"  # assembled: no file here holds a whole fake
SECRET32 = "9e8d7c6b5a4f3e2d" + "1c0b9a8f7e6d5c4b"


@pytest.mark.parametrize("text", [
    f"sentry dsn https://{KEY32}@o123456.ingest.sentry.io/4505",
    f"SENTRY_DSN=https://{KEY32}@o123456.ingest.sentry.io/4505",
    f'sentry_sdk.init(dsn="https://{KEY32}@o123456.ingest.us.sentry.io/4505")',
    f"https://{KEY32}:{SECRET32}@sentry.io/123",
    f"self-hosted: https://{KEY32}@sentry.example.com/7",
])
def test_a_sentry_dsn_is_found_by_its_key(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a Sentry DSN" and KEY32 not in found.preview, (text, found)


@pytest.mark.parametrize("text", [
    "https://examplePublicKey@o0.ingest.sentry.io/0", "SENTRY_DSN=${SENTRY_DSN}", "https://sentry.io/organizations/acme/",
    f"commit {KEY32} fixed https://sentry.io/issues/4505", "git clone https://git@example.com/org/repo",
])
def test_a_sentry_placeholder_or_a_url_without_a_key_is_stored(text):
    assert secrecy.find(text) is None, text


B64 = "c3VwZXJzZWNy" + "ZXQxMjM="  # base64 of a password, assembled
SECRET_HEAD = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\n"


@pytest.mark.parametrize("text", [
    SECRET_HEAD + f"data:\n  password: {B64}\n",
    SECRET_HEAD + f"data:\n  username: YWRtaW4=\n  db-url: {B64}\n",
    SECRET_HEAD + f'data:\n  # the app reads it at boot\n  "conn": "{B64}"\n',
    f"kind: Secret\nmetadata:\n  name: registry\ndata:\n  .dockerconfigjson: eyJhdXRocyI6e30{B64}\n",
    SECRET_HEAD + "stringData:\n  DB_URL_SUFFIX: Wx7pLm2q" + "Z9vK\n",
    f"---\nkind: ConfigMap\ndata:\n  mode: fast\n---\napiVersion: v1\nkind: Secret\ndata:\n  api: {B64}\n",
])
def test_a_kubernetes_secrets_values_are_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a value of a Kubernetes Secret", (text, found)


@pytest.mark.parametrize("text", [
    f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: {B64}\n  LOG_LEVEL: debug\n",
    SECRET_HEAD + "data:\n  password: {{ .Values.dbPassword | b64enc }}\n  user: ${DB_USER_B64}\n",
    SECRET_HEAD + "data:\n  username: YWRtaW4=\n",  # "admin": too short to be a secret
    SECRET_HEAD + "stringData:\n  host: db.internal\n  mode: fast\n",
    SECRET_HEAD + "data: {}\n",
    f"kind: Secret\nmetadata:\n  name: db\n---\nkind: ConfigMap\ndata:\n  mode: {B64}\n",
    "env:\n  - name: DB\n    valueFrom:\n      secretKeyRef: {name: db, key: password}\ndata:\n  mode: " + B64,
])
def test_a_config_map_a_template_or_a_secret_without_values_is_stored(text):
    assert secrecy.find(text) is None, text


PW = "Tiger2024" + "x"
MINIO_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY3vQ9sLk2"


@pytest.mark.parametrize("text", [
    f"sqlplus scott/{PW}@//db.example.com:1521/ORCL", "sqlplus system/" + "manager@XE",
    f"run sqlplus -s app_user/{PW}@prod @migrate.sql", f"sqlplus scott/{PW}",
])
def test_a_sqlplus_login_with_its_password_is_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a password on a command line", (text, found)


@pytest.mark.parametrize("text", [
    "sqlplus / as sysdba", "sqlplus /nolog", "sqlplus scott/$ORACLE_PW@XE", "sqlplus scott@XE (it asks for the password)",
    "sqlplus system/system@XE", "sqlplus -L user/tiger@XE",
])
def test_sqlplus_without_a_password_written_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    'DriverManager.getConnection("jdbc:postgresql://h/db", "admin", "Xk9#mPq2vL")',
    'conn = DriverManager.getConnection(url, System.getenv("DB_USER"), "sunflowerlagoon");',
    "DriverManager.getConnection(\n    DB_URL,\n    \"app\",\n    \"" + PW + "\")",
])
def test_a_jdbc_password_given_as_a_literal_is_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a password in a JDBC call", (text, found)


@pytest.mark.parametrize("text", [
    'DriverManager.getConnection("jdbc:postgresql://h/db", "admin", password)',
    'DriverManager.getConnection(url, user, pw)', 'DriverManager.getConnection(url, "admin", System.getenv("DB_PW"))',
    'DriverManager.getConnection("jdbc:h2:mem:test", "sa", "")', "DriverManager.getConnection(url, props)",
    'DriverManager.getConnection(url, "admin", "password")',
])
def test_a_jdbc_password_read_from_somewhere_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    f"mc alias set myminio http://localhost:9000 AKIAEXAMPLEKEY12 {MINIO_SECRET}",
    f"mc config host add prod https://s3.example.com ops-user '{PW}'",
])
def test_a_minio_alias_with_its_keys_is_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a MinIO client's secret key", (text, found)


@pytest.mark.parametrize("text", [
    "mc alias set myminio http://localhost:9000 minioadmin minioadmin",
    "mc alias set myminio http://localhost:9000 $MINIO_ACCESS_KEY $MINIO_SECRET_KEY",
    "mc alias set myminio http://localhost:9000 (it prompts for the keys)", "mc alias list",
])
def test_a_minio_alias_without_a_key_written_is_stored(text):
    assert secrecy.find(text) is None, text


TOKEN = "8fKq2LmZ9xPv4TnW" + "7sYb3HcR6dJe1AuG"


@pytest.mark.parametrize("text", [
    f"the Mistral key is {TOKEN}", f"the Mistral API key is {TOKEN}.", f"our cohere token is now '{TOKEN}'",
    f"the key for the scraper is {TOKEN}", f"the webhook secret was {TOKEN} until Monday",
])
def test_a_long_random_token_said_to_be_a_key_is_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "an API key said in words", (text, found)


@pytest.mark.parametrize("text", [
    "the key is idempotency", "the key is the user id", "the cache key is tenant_42_region_eu_west_1",
    "the key is AbstractSingletonProxyFactoryBean", "the key is org.springframework.boot.autoconfigure",
    "the key is /etc/ssl/private/server.key", "the GPG key is 99E81F9A4F2E84C1B7D3" + "A0C8E7A6B5D4C3B2A1F0",
    "the ssh key is AAAAC3NzaC1lZDI1NTE5AAAAIG" + "Qx9", "the sort key is created_at_then_id_desc_v2",
    "the primary key is a uuid7 so ordering follows insertion", "the key is to retry 5 times with backoff",
])
def test_a_key_said_to_be_a_word_a_name_a_path_or_a_public_key_is_stored(text):
    assert secrecy.find(text) is None, text


WIFI = "Wx7pLm2q" + "Z9"


@pytest.mark.parametrize("text", [
    f"psk: {WIFI}", f"wpa_passphrase={WIFI}", f'network={{\n  ssid="home"\n  psk="sunflowerlagoon"\n}}',
    "[wifi-security]\nkey-mgmt=wpa-psk\npsk=sunflowerlagoon\n", f"the office wifi psk = {WIFI}",
    f"wpa_psk={WIFI}", "wpa_passphrase=sunflowerlagoon",
])
def test_a_wifi_pre_shared_key_is_found(text):
    assert secrecy.find(text) is not None, text


@pytest.mark.parametrize("text", [
    "psk: true", "psk: required", "key-mgmt=wpa-psk", "psk: pre-shared key auth is what the AP uses",
    "wpa_passphrase=$WIFI_PASS", "psk is derived from the passphrase with PBKDF2", "psk=<your key>",
])
def test_wifi_settings_without_a_key_are_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    "u: admin p: Wx7pLm2qZ", "grafana u: admin / p: Tr0ub4dor3", "user: admin  p: Wx7pLm2qZ",
    "log in as admin:Wx7pLm2qZ on the box", "creds are deploy:Tiger2024x for staging", "admin:Wx7pLm2qZ",
])
def test_a_short_login_or_a_user_password_pair_in_prose_is_found(text):
    assert secrecy.find(text) is not None, text


@pytest.mark.parametrize("text", [
    "curl localhost:8080/health", "the map is key:value words", "std::vector<int> and std::map", "at 12:30:00 UTC",
    "see http://example.com and C:\\Users\\me", "FROM node:18", "image nginx:1.25.3-alpine", "docker pull ubuntu:jammy20240125",
    "pinned by sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "listen on [fe80::1ff:fe23:4567:890a]:80",
    "ipv6 2001:db8:85a3:0:0:8a2e:370:7334", "error:E0308 mismatched types", "ticket JIRA:PROJ1234",
    "u: admin p: hunter", "u: the user, p: the password", "nix sha256:1b3mk2qnzzqdj4svbvxlrrf0dmyy8r5mqx0l4pm8j8fn7wc41w7v",
    "tx:0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "style color:#ff00aa12",
])
def test_colons_of_ports_names_times_images_hashes_and_addresses_are_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    "comment = data[start+sizeEndCentDir:start+sizeEndCentDir+commentSize]", "new_bases[i+shift:i+shift+1] = new_base",
    "printer id MFG:HP;SN:US05N1J00XLG;CLS:PRINTER", "go.sum: h1:kXxtYzHN9UdvLhYgJ8NT07gq3XQJnHL6Q+0cb7Fk4ds=",
])
def test_a_slice_a_serial_number_or_a_go_sum_hash_is_no_user_and_password(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    "das Passwort für staging ist hunter2", "le mot de passe pour staging est hunter2",
    "la contraseña para staging es hunter2", "пароль для staging — hunter2", "het wachtwoord voor prod is hunter2",
    "das Passwort ist sonnenblume für prod", "le mot de passe est tournesol pour la prod",
    "la contraseña es girasoles en staging",
])
def test_a_password_said_in_another_language_is_found_as_in_english(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a password said in words", (text, found)


@pytest.mark.parametrize("text", [
    "das Passwort ist falsch", "das Passwort für staging ist falsch", "das Passwort ist sonnenblume",
    "das Passwort ist falsch für prod", "le mot de passe est incorrect pour ce compte",
    "la contraseña es incorrecta para este usuario", "das Passwort ist geändert", "das Passwort ist sonnenblümchen",
    "das Passwort ist sicher für alle Dienste", "le mot de passe est obligatoire pour tous",
])
def test_prose_about_a_password_in_another_language_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", [
    "the password is 8492", "the password is 8492.", "the router password is 84920 for the guest network",
    "the password is 8492 and the user is admin", "das Passwort ist 8492", "the password for the safe is 8492!",
])
def test_a_pin_like_password_of_four_or_five_digits_is_found(text):
    found = secrecy.find(text)
    assert found is not None and found.kind == "a password said in words", (text, found)


@pytest.mark.parametrize("text", [
    "the password is 8492 digits long? no: the pin is 1234 on the demo board", "the password is 2048 bits of entropy",
    "the password is 1234", "the password is 0000", "the password is 12 characters", "the pin is 8492",
    "the password is 4096 bytes at most",
])
def test_digits_that_count_something_or_an_example_pin_are_stored(text):
    assert secrecy.find(text) is None, text
