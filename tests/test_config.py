"""The environment read once: a host other machines could reach is refused, naming the variable."""

from __future__ import annotations

import pytest

from kg_actors.config import Config, ConfigError


@pytest.mark.parametrize("host, served", [("127.0.0.1", "127.0.0.1"), ("127.0.0.2", "127.0.0.2"),
                                          ("localhost", "localhost"), (" 127.0.0.1 ", "127.0.0.1"),
                                          ("", "127.0.0.1"), ("  ", "127.0.0.1")])
def test_a_loopback_host_is_served(host, served):
    assert Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_HTTP_HOST": host}).host == served


@pytest.mark.parametrize("host, rule", [("0.0.0.0", "not a loopback address"),
                                        ("192.168.1.5", "not a loopback address"),
                                        ("::", "not an IPv4 address or localhost"),
                                        ("example.com", "not an IPv4 address or localhost")])
def test_a_host_other_machines_could_reach_is_refused(host, rule):
    with pytest.raises(ConfigError, match=f"KG_HTTP_HOST='{host}' is {rule}"):
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_HTTP_HOST": host})


@pytest.mark.parametrize("name, raw, rule", [
    ("KG_SAVE_INTERVAL", "nan", "is not a finite number"), ("KG_AUTOCOMMIT_INTERVAL", "nan", "is not a finite number"),
    ("KG_SAVE_INTERVAL", "inf", "is not a finite number"),
    ("KG_HTTP_PORT", "\uff11\uff18\uff18\uff16\uff10", "is not a whole number"),  # fullwidth digits: curl reads none
    ("KG_ORPHAN_GRACE_DAYS", "1_0", "is not a number"),
])
def test_a_number_that_is_no_plain_finite_number_is_refused_naming_the_variable(name, raw, rule):
    """nan passed every bound and failed as a traceback at the first deadline; fullwidth digits were a port
    Python read and the hooks' curl did not."""
    with pytest.raises(ConfigError, match=f"{name}='{raw}' {rule}"):
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", name: raw})
