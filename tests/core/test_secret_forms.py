"""Secrets as file formats, shells and client libraries write them are refused (an outside audit found each
stored); what those formats hold when no secret is there passes."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

PW = "u8jzPde0" + "IgxL"  # assembled: no file here holds a whole fake

REFUSED = [
    f"- name: DB_PASSWORD\n  value: {PW}",
    f'<add key="DbPassword" value="{PW}"/>',
    "<password>sunflowerlagoon</password>",
    f"requirepass {PW}", f"masterauth {PW}",
    f'[{{"ParameterKey": "DBPassword", "ParameterValue": "{PW}"}}]',
    f"sqlcmd -S db -U sa -P {PW}",
    f'echo "deploy:{PW}" | chpasswd',
    f"echo '{PW}' | docker login --password-stdin",
    f"echo {PW} | sudo -S apt update",
    f"jdbc:oracle:thin:scott/{PW}@db:1521:orcl",
    f'requests.get(url, auth=("admin", "{PW}"))',
    f"smbclient -U deploy%{PW} //fs/share",
    f"lftp -u deploy,{PW} ftp.example.org",
    rf"net use Z: \\fs\share {PW} /user:deploy",
    "vault login s.Ab3dE9xZq7Lm2N" + "c8Vb4Tr6Wy",
]

PASSED = [
    "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}",
    '<add key="DbPassword" value="%DB_PASSWORD%"/>',
    "<password>${DB_PASSWORD}</password>",
    "requirepass is set in redis.conf; masterauth must match it on replicas",
    "echo $REGISTRY_TOKEN | docker login --password-stdin ghcr.io",
    'requests.get(url, auth=(user, os.environ["API_PASSWORD"]))',
    "net use Z: \\\\fs\\share /user:deploy *",
    "vault login -method=oidc",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_secret_in_a_format_is_found(text):
    assert secrecy.find(text) is not None, text


@pytest.mark.parametrize("text", PASSED)
def test_the_same_format_without_a_secret_passes(text):
    assert secrecy.find(text) is None, text


HEX32 = "9f86d081884c7d65" + "9a2feaa0c55ad015"
SAID = [
    "admin password for grafana: Tr0ub4dor&3", f"use {PW} as the password for the staging admin",
    "the secret is 3f2b8c1e-9a4d-4e6f-" + "b2c7-5d8e9f0a1b2c", f"the vpn psk is {PW}", f"user admin pass {PW}",
    f"the deploy token is {HEX32}a3bf4f1b", f"twilio auth token {HEX32}", f"mailgun key is {HEX32}",
    f"Passwort: {PW}", f"das Passwort ist {PW}", f"mot de passe : {PW}", f"le mot de passe est {PW}",
    f"contraseña: {PW}", f"пароль: {PW}", f"密码: {PW}", f"パスワードは{PW}です", f"비밀번호: {PW}",
    f"wachtwoord is {PW}", f"hasło: {PW}", f"senha: {PW}",
]
SAID_BENIGN = ["the password for grafana: hashed with bcrypt", "das Passwort ist falsch",
               f"the cache key is {HEX32}", "use the vault as the password store", "Passwort: siehe Vault"]


@pytest.mark.parametrize("text", SAID)
def test_a_password_or_key_said_in_words_is_found(text):
    assert secrecy.find(text) is not None, text


@pytest.mark.parametrize("text", SAID_BENIGN)
def test_talk_about_passwords_passes(text):
    assert secrecy.find(text) is None, text
