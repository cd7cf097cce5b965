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
