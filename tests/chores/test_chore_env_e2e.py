"""What the server reads of KG_CHORES and chores.json, said where a user looks, through a real `kg serve` and a
real `kg doctor`: a word that is neither on nor off is read as off (KG_CHORES=never switched quota-spending runs
on, without a word), a misspelt setting is named, and doctor tells what the running server does."""

import json
import urllib.request

import test_chores_e2e  # noqa: F401 (puts tests/e2e on the path)
from e2e_helpers import kg  # noqa: E402

from kg_actors.testing import ServerProcess


def _served(srv: ServerProcess) -> dict:
    with urllib.request.urlopen(f"{srv.url}/api/chores", timeout=10) as reply:
        return json.loads(reply.read())


def _doctor_env(srv: ServerProcess) -> dict:
    """The user's shell, where doctor runs: not the server's environment."""
    return {k: v for k, v in srv.env.items() if k != "KG_CHORES"}


def test_a_kg_chores_word_that_is_neither_on_nor_off_keeps_chores_off_and_is_said(tmp_path):
    srv = ServerProcess(tmp_path, {"KG_CHORES": "never"})
    srv.store.mkdir(parents=True)
    (srv.store / "chores.json").write_text('{"enabled": true}')
    srv.start("--no-editor")
    try:
        served = _served(srv)
        said = "KG_CHORES='never' is neither on (1, true, yes, on) nor off (0, false, no, off): read as off"
        assert served["enabled"] is False and said in served["ignored"], served
        doctor = kg(["doctor"], _doctor_env(srv)).stdout
        assert f"WARN  Background chores: {said}" in doctor, doctor
        assert "off in the running server (KG_CHORES in its environment), though chores.json switches them on" in doctor
        srv.logs_written()
        assert srv.log.read_text().count(said) == 1, srv.log.read_text()[-2000:]
    finally:
        assert srv.stop() == 0


def test_doctor_says_chores_run_when_the_servers_environment_switches_them_on(tmp_path):
    srv = ServerProcess(tmp_path, {"KG_CHORES": "1"}).start("--no-editor")
    try:
        assert _served(srv)["enabled"] is True and _served(srv)["ignored"] is None
        doctor = kg(["doctor"], _doctor_env(srv)).stdout
        assert "on in the running server (KG_CHORES in its environment), though chores.json leaves them off" in doctor
    finally:
        assert srv.stop() == 0


def test_a_misspelt_setting_in_chores_json_is_named_with_the_one_it_likely_means(tmp_path):
    srv = ServerProcess(tmp_path)
    srv.env.pop("KG_CHORES", None)
    srv.store.mkdir(parents=True)
    (srv.store / "chores.json").write_text('{"enabled": true, "max5h": 10}')
    srv.start("--no-editor")
    try:
        said = "'max5h' (did you mean max_5h?) is not a setting: ignored"
        assert said in _served(srv)["ignored"]
        doctor = kg(["doctor"], srv.env).stdout
        assert f"WARN  chores: {srv.store / 'chores.json'}: {said}" in doctor, doctor
        assert "Background chores: on" in doctor
    finally:
        assert srv.stop() == 0
