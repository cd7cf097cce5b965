"""Recall before a command runs (core/command_recall.py, issue #12): what names a command, and the cap."""

from __future__ import annotations

import pytest

from kg_actors.core import command_recall as cr
from kg_actors.core import constants as C
from kg_actors.core.model import GraphData, Node
from kg_actors.core.search import SearchIndex
from kg_actors.harness.shell import invocations


def views(nodes: list[Node], user: list[Node] = ()) -> dict:
    out = {}
    for kind, group in (("user", user), ("project", nodes)):
        graph = GraphData(kind, "/home/u/proj" if kind == "project" else None)
        for node in group:
            graph.set_node(node)
        out[kind] = (graph, SearchIndex.build(graph))
    return out


LESSONS = [
    Node("make-deploy-needs-context", "make deploy reads KUBE_CONTEXT and refuses prod without CONFIRM=1"),
    Node("deploy-target-guard", "the deploy target checks the branch first", touches=("Makefile:deploy",)),
    Node("release-script-tag-changelog", "bumps the version, writes the changelog, pushes the tag",
         touches=("scripts/release.sh",)),
    Node("npm-publish-provenance", "npm publish runs only from CI with --provenance"),
    Node("alembic-upgrade-lock-timeout", "alembic upgrade sets lock_timeout 5s so a blocked ALTER fails fast"),
    Node("alembic-autogenerate-review", "alembic autogenerate misses renames: review every file"),
    Node("git-history-rewrite", "never rewrite history on main", notes=("git push --force broke CI",)),
    Node("build-bundle-budget", "npm run build fails over 250 kB gzip"),
    Node("rollout-restart-pdb", "kubectl rollout restart waits on the PodDisruptionBudget: check it first"),
]


def decide(command: str | list, seen: frozenset[tuple[str, str]] = frozenset(),
           nodes: list[Node] = LESSONS) -> cr.Decision:
    return cr.decide(invocations(command), views(nodes), seen)


@pytest.mark.parametrize("command, expected", [
    ("alembic upgrade head", ["alembic-upgrade-lock-timeout"]),  # program and subcommand, not just "alembic"
    ("make deploy ENV=prod", ["make-deploy-needs-context", "deploy-target-guard"]),  # gist, or Makefile:target
    ("make -C infra deploy", ["make-deploy-needs-context", "deploy-target-guard"]),
    ("./scripts/release.sh 2.4.0", ["release-script-tag-changelog"]),
    ("sh scripts/release.sh --dry-run", ["release-script-tag-changelog"]),
    ("bash -lc 'cd web && npm publish --access public'", ["npm-publish-provenance"]),
    (["bash", "-lc", "FOO=1 nice -n 5 npm run build"], ["build-bundle-budget"]),
    ("cd web && npm run build", ["build-bundle-budget"]),
    # An option's value before the subcommand (which options take one is the program's to say).
    ("kubectl -n prod rollout restart deploy/api", ["rollout-restart-pdb"]),
    ("kubectl --context staging rollout restart deploy/api", ["rollout-restart-pdb"]),
    ("npm --prefix web run build", ["build-bundle-budget"]),
    ("watch -n 5 kubectl rollout restart deploy/api", ["rollout-restart-pdb"]),
    # A word that ends in '/' names no script: the rest of the command still counts (it raised, and lost it).
    ("make deploy && bash ./", ["make-deploy-needs-context", "deploy-target-guard"]),
    ("./ ; sudo bin/ ; env / ; make deploy", ["make-deploy-needs-context", "deploy-target-guard"]),
])
def test_lessons_that_name_the_command_arrive(command, expected):
    decision = decide(command)
    assert decision.reason == "injected"
    assert [i for _, i in decision.shown] == expected
    for node_id in expected:
        assert f"- [project] {node_id}: " in decision.text


@pytest.mark.parametrize("command", ["ls -la", "git status", "pytest -q tests/test_auth.py", "cat scripts/x.sh",
                                     "python -c 'print(1)'", "alembic history", "git push --force", "echo 'a",
                                     "", "cd /tmp"])
def test_commands_no_lesson_names_stay_silent(command):
    # "git push" sits only in a note: notes do not name a command (id, gist and touches do).
    assert decide(command).text is None


def test_at_most_two_nodes_within_800_characters_and_never_a_gist_twice():
    nodes = [Node(f"helm-upgrade-rule-{i}", f"helm upgrade rule {i}: " + "x" * 500) for i in range(4)]
    decision = decide("helm upgrade api ./chart", nodes=nodes)
    assert len(decision.shown) <= C.COMMAND_RECALL_MAX_NODES and len(decision.text) <= C.COMMAND_RECALL_CHAR_BUDGET
    assert not decision.cut  # each line shown whole
    # One gist longer than the budget: cut, ending with "…", and flagged as not seen whole.
    decision = decide("helm upgrade api ./chart", nodes=[Node("helm-upgrade-rule-0", "helm upgrade rule: " + "x" * 900)])
    assert decision.text.endswith("…") and decision.cut == set(decision.shown) and len(decision.shown) == 1
    seen = frozenset(decision.shown)
    again = decide("helm upgrade api ./chart", seen=seen, nodes=nodes)
    assert not seen & set(again.shown)
    everything = frozenset(("project", n.id) for n in nodes)
    assert decide("helm upgrade api ./chart", seen=everything, nodes=nodes).reason == "all_seen"


def test_program_and_subcommand_side_by_side_rank_first_and_user_lessons_count():
    nodes = [Node("terraform-state-locking", "Terraform state lives in S3; never apply from two laptops"),
             Node("terraform-apply-plan-file", "terraform apply only a saved plan file")]
    user = [Node("prefer-terraform-apply-review", "review every terraform apply with a second person")]
    decision = cr.decide(invocations("terraform apply -auto-approve"), views(nodes, user), frozenset())
    assert [i for _, i in decision.shown] == ["terraform-apply-plan-file", "prefer-terraform-apply-review"]


@pytest.mark.parametrize("command, keys", [
    # The shell's own words around a command (they were read as a program: "then echo", "do psql").
    ("if ! alembic upgrade head; then echo failed; exit 1; fi", ["alembic upgrade"]),
    ('for f in a b; do make deploy ENV="$f" || break; done', ["make deploy"]),
    # A heredoc's body is data; the command line still runs (a heredoc made the whole command count for nothing).
    ("kubectl apply -f - <<EOF\nkind: Job\nmetadata:\n  name: npm publish\nEOF\nhelm upgrade api ./chart",
     ["kubectl apply", "helm upgrade"]),
    # A wrapper's option that takes a value is not the program (`env -u NAME`).
    ("env -u DATABASE_URL RAILS_ENV=production bundle exec rake assets:precompile",
     ["bundle exec", "rake assets:precompile"]),
    ("sudo -E ./install.sh --prefix /usr/local", ["install.sh"]),
    # An interpreter's first operand is its script, suffix or not, and what follows is its subcommand.
    ("php artisan migrate --force", ["artisan", "artisan migrate"]),
    ("python manage.py migrate", ["manage.py", "manage.py migrate"]),
    ("python -m pytest -q", []),
    # A module in a package is the file it runs; what a runner's runner starts is run too.
    ("python -m app.jobs.backfill_regions --dry-run", ["backfill_regions.py"]),
    ("python3 -m http.server 8000", []),  # the standard library's modules are no file of the project
    ("python -m app.cli migrate", ["cli.py", "cli.py migrate"]),  # the module is no program of its own
    ("uv run python -m alembic upgrade head", ["uv run", "alembic upgrade"]),
    ("node server --port 3000", []),  # a bare word is no script name: "server" would recall every lesson on servers
    ("git add src/app.py", ["git add"]),  # a file it is given is file recall's, not a script it runs
    ("locust -f loadtests/locustfile.py --headless -u 200", ["locustfile.py"]),
    # Several targets or phases at once; a subcommand with a dot; a script given to a runner.
    ("make lint test", ["make lint", "make test"]),
    ("mvn clean verify -pl api -am", ["mvn clean", "mvn verify"]),
    ("mix deps.get && MIX_ENV=test mix ecto.migrate", ["mix deps.get", "mix ecto.migrate"]),
    ("bun run scripts/seed.ts", ["seed.ts"]),
    ("git bisect run ./scripts/repro.sh", ["git bisect", "repro.sh"]),
    ('npx cypress run --spec "cypress/e2e/**/*.cy.ts"', ["cypress run"]),  # a glob names no script; npx is the runner
    # A well-known program's valued global options are skipped: its subcommand follows them.
    ("kubectl --context gke-eu -n ingest scale deploy/consumer --replicas=0", ["kubectl scale"]),
    ("helm -n observability upgrade --install loki grafana/loki -f values.yaml", ["helm upgrade"]),
    ("./mvnw -pl order-service -am verify", ["mvnw", "mvnw verify"]),
    ("psql -U postgres -d app -f migrations/001.sql", []),  # its user is no subcommand
    ("kubectl -v 6 get pods", ["kubectl get"]),  # an option its table lacks: the next operand is the subcommand
    # Runners that start another program: heroku's one-off dynos, dart's package executables.
    ("heroku run --app reportly-staging rake data:backfill_regions", ["heroku run", "rake data:backfill_regions"]),
    ("dart run build_runner build --delete-conflicting-outputs", ["dart run", "build_runner build"]),
    ("uv run -s scripts/seed.py --tenant 4", ["uv run", "seed.py"]),  # uv's -s (--script) takes no value
    ("pnpx cypress run", ["cypress run"]),
    # What a container runs is run too, `sh -c` in it as well; a script's own subcommand names it.
    ("docker compose exec web python manage.py migrate", ["docker compose", "manage.py", "manage.py migrate"]),
    ("docker run --rm -v \"$PWD\":/app -w /app node:20 npm ci", ["docker run", "npm ci"]),
    ("kubectl exec -n prod deploy/api -- bin/rails db:migrate", ["kubectl exec", "rails", "rails db:migrate"]),
    ('docker compose exec web sh -c "python manage.py shell -c x"', ["docker compose", "manage.py", "manage.py shell"]),
    # Utilities take files and text, not subcommands.
    ("which -a python3 node go", []),
    ("head -n 40 Makefile; cat justfile", []),
])
def test_what_a_command_is_known_by(command, keys):
    assert [k.label() for k in cr.command_keys(invocations(command))] == keys
