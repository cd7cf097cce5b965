"""The environment read once: a host other machines could reach is refused, naming the variable."""

from __future__ import annotations

import pytest

from kg_actors.config import Config, ConfigError


@pytest.mark.parametrize("host, served", [("127.0.0.1", "127.0.0.1"),
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


def test_another_loopback_address_is_refused_the_hooks_reach_127_0_0_1_only():
    # 127.0.0.2 was served, and every hook and plugin, which post to 127.0.0.1, reached nothing.
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_HTTP_HOST": "127.0.0.2"})
    assert str(caught.value) == ("KG_HTTP_HOST='127.0.0.2' is not 127.0.0.1: the hooks reach the server there only; "
                                 "unset it, or set it to 127.0.0.1 (or localhost)")


@pytest.mark.parametrize("name, raw, rule", [
    ("KG_SAVE_INTERVAL", "nan", "is not a finite number"), ("KG_AUTOCOMMIT_INTERVAL", "nan", "is not a finite number"),
    ("KG_SAVE_INTERVAL", "inf", "is not a finite number"),
    ("KG_HTTP_PORT", "\uff11\uff18\uff18\uff16\uff10", "is not a port"),  # fullwidth digits: curl reads none
])
def test_a_number_that_is_no_plain_finite_number_is_refused_naming_the_variable(name, raw, rule):
    """nan passed every bound and failed as a traceback at the first deadline; fullwidth digits were a port
    Python read and the hooks' curl did not."""
    with pytest.raises(ConfigError, match=f"{name}='{raw}' {rule}"):
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", name: raw})


@pytest.mark.parametrize("name", ["KG_HTTP_PORT", "KG_EDITOR_PORT"])
@pytest.mark.parametrize("raw", ["+8765", " 8765", "8765 ", "\uff18\uff17\uff16\uff15", "  ", "-1", "8765.0"])
def test_a_port_the_hooks_url_could_not_carry_is_refused_naming_the_variable_and_the_rule(name, raw):
    """Python read "+8765" and " 8765" as 8765: the server listened there and the hooks, putting the value in
    their URL as it is, reached nothing."""
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", name: raw})
    assert str(caught.value) == f"{name}={raw!r} is not a port: digits 0-9 only, no sign or spaces (default " \
        f"{8765 if name == 'KG_HTTP_PORT' else 8766})"


def test_a_port_of_plain_digits_or_unset_is_taken():
    assert Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_HTTP_PORT": "18765"}).port == 18765
    assert Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_HTTP_PORT": ""}).port == 8765


@pytest.mark.parametrize("raw", ["0", "-1", "abc", "0.5", "30.5", "1e3", "1_0", "+30", "\uff13\uff10"])
def test_an_orphan_grace_that_is_no_whole_number_of_days_of_at_least_one_is_refused_naming_the_rule(raw):
    """0 was taken, and read by many as "keep forever": within one tick every orphan of every graph was deleted."""
    with pytest.raises(ConfigError) as caught:
        Config.from_env({"KG_HOME": "/tmp/kg-config-test", "KG_ORPHAN_GRACE_DAYS": raw})
    assert str(caught.value) == (f"KG_ORPHAN_GRACE_DAYS={raw!r} is not a grace period: a whole number of days, "
                                 "at least 1 (default 365; an orphaned node is deleted once it has been "
                                 "orphaned that long)")


@pytest.mark.parametrize("raw, days", [("1", 1), ("30", 30), (" 730 ", 730), ("", 365), (None, 365)])
def test_an_orphan_grace_of_whole_days_is_taken(raw, days):
    env = {"KG_HOME": "/tmp/kg-config-test"} | ({} if raw is None else {"KG_ORPHAN_GRACE_DAYS": raw})
    assert Config.from_env(env).orphan_grace_days == days
