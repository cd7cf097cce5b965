"""Gemini CLI's folder trust, decided as Gemini 0.61 decides it (harness/gemini_trust.py)."""

import json

from kg_actors.harness.gemini_trust import folder_trusted, trusted


def same(p: str) -> str:
    return p


def test_the_longest_matching_rule_wins_and_no_rule_is_not_trusted():
    rules = {"/home/u/work": "TRUST_FOLDER", "/home/u/work/vendor": "DO_NOT_TRUST", "/home/u/a/b": "TRUST_PARENT"}
    assert trusted("/home/u/work/app", rules, True, {}, same)
    assert not trusted("/home/u/work/vendor/x", rules, True, {}, same)
    assert trusted("/home/u/a/c", rules, True, {}, same)  # TRUST_PARENT trusts the rule's parent folder
    assert not trusted("/home/u/workshop", rules, True, {}, same)  # a prefix of the name is not a parent
    assert not trusted("/home/u/other", rules, True, {}, same)


def test_the_setting_and_the_environment_override_the_rules():
    assert trusted("/x", {}, False, {}, same)  # folder trust turned off: every folder runs the tools
    assert trusted("/x", {}, True, {"GEMINI_CLI_TRUST_WORKSPACE": "true"}, same)
    assert not trusted("/x", {"/x": "TRUST_FOLDER"}, True, {"GEMINI_CLI_TRUST_WORKSPACE": "false"}, same)
    assert not trusted("/x", {"/x": "TRUST_FOLDER"}, False, {"GEMINI_RESTRICTED_MODE": "true"}, same)


def test_the_files_are_read_as_gemini_reads_them(tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    (home / ".gemini").mkdir(parents=True)
    work.mkdir()
    assert not folder_trusted(str(work), {}, str(home))  # no file, no rule: not trusted (the default)
    (home / ".gemini" / "settings.json").write_text('{// mine\n"security": {"folderTrust": {"enabled": false}}}')
    assert folder_trusted(str(work), {}, str(home))  # comments allowed; trust turned off
    (home / ".gemini" / "settings.json").write_text("{}")
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(work): "TRUST_FOLDER"}))
    assert folder_trusted(str(work), {}, str(home))
    (home / ".gemini" / "trustedFolders.json").write_text("not json")
    assert folder_trusted(str(work), {}, str(home))  # unsure: nothing said
    other = tmp_path / "rules.json"
    other.write_text(json.dumps({str(work): "DO_NOT_TRUST"}))
    assert not folder_trusted(str(work), {"GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(other)}, str(home))


def test_the_untrusted_preload_names_only_tools_that_exist():
    # It named a kg_write, which no client can call.
    import re

    from kg_actors.harness.gemini_trust import UNTRUSTED
    from kg_actors.http.schemas import SCHEMAS

    named = set(re.findall(r"\bkg_[a-z_]+", UNTRUSTED))
    assert named and named <= set(SCHEMAS), named - set(SCHEMAS)


def test_a_trust_file_over_the_read_limit_is_unsure_not_read_in_part(tmp_path):
    from kg_actors.harness.gemini_trust import READ_LIMIT

    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / ".gemini").mkdir()
    rules = {f"/nowhere/{i:07d}": "TRUST_FOLDER" for i in range(READ_LIMIT // 20)} | {str(work): "DO_NOT_TRUST"}
    (tmp_path / ".gemini" / "trustedFolders.json").write_text(json.dumps(rules))
    assert (tmp_path / ".gemini" / "trustedFolders.json").stat().st_size > READ_LIMIT
    assert folder_trusted(str(work), {}, str(tmp_path))  # unsure (too big to read): trusted, as Gemini's docs allow
