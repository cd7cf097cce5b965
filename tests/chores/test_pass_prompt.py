"""The chore pass's prompt lists the live context's ids, less any that holds a secret (core/held_names.py)."""

from kg_actors.chores.prompts import pass_prompt

GHP = "ghp_" + "Zq8Xw2Lk9Vb4Nm7Rt1Yp" + "3Hs6Dj0Fg5Ca8Ue2"  # assembled: no file holds a whole one


def test_an_id_holding_a_secret_is_left_out_of_the_live_context_and_the_others_are_listed():
    prompt = pass_prompt("user", None, "DEBT: none", ["release-steps", GHP, f"scripts/{GHP}.sh"])
    live = next(line for line in prompt.splitlines() if line.startswith("LIVE CONTEXT"))
    assert live.endswith(": release-steps"), live
    assert GHP not in prompt and GHP[4:20] not in prompt
