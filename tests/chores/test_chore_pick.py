"""What a chore does: one category, one or two targets, and the guards (held, declined, churning, recent)."""

from kg_actors.core.chore_pick import chore_prompt, pick_chore
from kg_actors.core.model import Edge, GraphData, Node

NOW = 1_800_000_000.0
DAY = 86_400.0
LONG = "Deploys pass the staging gate first and then wait for the canary. " * 6


def graph(*nodes, edges=()):
    g = GraphData("project", "/home/u/app")
    for n in nodes:
        g.set_node(n)
    for e in edges:
        g.set_edge(e)
    g.commit()
    return g


def test_oversized_gists_first_two_longest():
    g = graph(Node("deploy-gate", LONG), Node("canary-wait", LONG + "more"), Node("rollback", LONG[:320]),
              edges=[Edge("deploy-gate", "canary-wait", "precedes"), Edge("rollback", "deploy-gate", "undoes")])
    chore = pick_chore(g, (), NOW)
    assert chore.kind == "gist" and chore.targets == ("canary-wait", "deploy-gate") and chore.level == "project"
    prompt = chore_prompt(chore, "/home/u/app", "DEBT: HIGH (0.7)")
    assert "Category: gist. Targets: canary-wait, deploy-gate." in prompt and 'cwd="/home/u/app"' in prompt
    assert 'task_id="chore"' in prompt and "maintenance=true" in prompt and "ONE small action" in prompt


def test_guards_declined_recent_and_churning_are_skipped():
    churned = Node("deploy-gate", LONG, gist_ts=(NOW - 4 * DAY, NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY))
    g = graph(churned, Node("canary-wait", LONG), Node("rollback", LONG),
              edges=[Edge("deploy-gate", "canary-wait", "precedes"), Edge("rollback", "deploy-gate", "undoes")])
    assert pick_chore(g, (), NOW).targets == ("canary-wait", "rollback")  # changed 3 times in 30 days: left alone
    assert pick_chore(g, (), NOW, declined={"canary-wait"}).targets == ("rollback",)
    assert pick_chore(g, (), NOW, recent={"canary-wait", "rollback"}) is None
    # Written and changed twice in a month is still fine (the first stamp is its writing, no change).
    calm = Node("deploy-gate", LONG, gist_ts=(NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY))
    g2 = graph(calm, edges=[Edge("deploy-gate", "deploy-gate-2", "x")])
    assert pick_chore(g2, (), NOW).targets == ("deploy-gate",)


def test_a_held_node_is_never_renamed():
    long_id = "2026-03-01-the-deploy-that-broke-staging-twice"
    g = graph(Node(long_id, "short"), Node("other", "short"), edges=[Edge(long_id, "other", "x")])
    assert pick_chore(g, (), NOW).kind == "id"
    picked = pick_chore(g, (), NOW, held={long_id})
    assert picked is None  # the one eligible chore was that rename
