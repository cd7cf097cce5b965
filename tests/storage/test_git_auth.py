"""A URL's password or token, taken out of git's command line and handed over by an askpass script."""

import os
import stat
import subprocess

from kg_actors.storage.git_auth import hidden, split

TOKEN = "ghp_R7kQ2mX9vL4pZ8nW3tY6bC1dF5gH0jK2aS4e"


def test_a_password_or_a_token_user_is_taken_out_and_decoded_a_plain_user_or_path_stays():
    assert split("https://bob:p%40ss%20w@host/x.git") == ("https://bob@host/x.git", "bob", "p@ss w")
    assert split(f"https://{TOKEN}@github.com/me/mem.git") == ("https://github.com/me/mem.git", TOKEN, "")
    for url in ("https://bob@host/x.git", "git@github.com:me/mem.git", "/srv/mem.git", "origin"):
        assert split(url) is None


def test_the_askpass_script_answers_git_and_its_folder_is_this_accounts_alone_and_goes_after():
    with hidden(("push", "-q", "https://bob:s3cret@host/x.git", "HEAD:refs/heads/main")) as (args, env):
        assert args == ("push", "-q", "https://bob@host/x.git", "HEAD:refs/heads/main")
        folder = os.path.dirname(env["GIT_ASKPASS"])
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        asked = {**os.environ, **env}
        for prompt, answer in (("Password for 'https://bob@host': ", "s3cret"), ("Username for 'x': ", "bob")):
            out = subprocess.run([env["GIT_ASKPASS"], prompt], env=asked, capture_output=True, text=True, timeout=10)
            assert out.stdout == answer + "\n"
        assert "s3cret" not in open(env["GIT_ASKPASS"]).read()
    assert not os.path.exists(folder)
    with hidden(("fetch", "/srv/mem.git")) as (args, env):
        assert args == ("fetch", "/srv/mem.git") and env == {}
