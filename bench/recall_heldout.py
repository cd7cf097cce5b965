"""A second, held-out split for the recall evaluation (issue #12), written before the vocabulary work.

bench/recall_data.py is what recall was tuned on. This split was written afterwards but before
any of the vocabulary mechanisms (stem families, related terms, graph co-occurrence) were built
or tuned, and is not edited after: 48 new lessons on other topics in the same eight domains,
each with one prompt as a person might type it (some in the lesson's words, most not), added to
the whole memory of recall_data (its 302 nodes stay as distractors); 30 new unrelated prompts
and 12 new noise prompts. Run it with

    .venv/bin/python bench/recall_eval.py --data recall_heldout --out bench/RESULTS-recall-heldout.md
"""

from __future__ import annotations

import recall_data

# id | gist | note | touches (comma-separated) | prompt a person types
LESSONS = {
    "backend": """
api-error-envelope-problem-json | Error responses use RFC 7807 problem+json with a stable type URI per error | mobile clients parsed the message text and broke when it was reworded | src/api/errors.py | the android app crashes when we change the wording of an error message
sse-proxy-buffering-off | Server-sent event endpoints set X-Accel-Buffering no; nginx buffered the stream for a minute | live notifications arrived in bursts long after they were sent | src/notify/stream.py, deploy/k8s/ingress.yaml | notifications show up in big batches a minute late instead of live
bulk-import-chunked-commits | CSV imports commit every 1,000 rows and resume from the last committed chunk | a 2 million row import died at 90% and had to start over | src/imports/csv_loader.py | the customer spreadsheet upload died near the end and restarted from zero
search-query-escape-user-input | User search text is passed as a bound parameter to to_tsquery via plainto_tsquery, never concatenated | a search for an apostrophe raised a syntax error and returned 500 | src/search/fulltext.py | searching for O'Brien gives an internal server error
api-versioning-header-sunset | Old API versions announce retirement with Sunset and Deprecation headers six months ahead | a partner integration broke on a removed v1 endpoint with no warning | src/api/versioning.py | how do we tell integrators that the v1 endpoints are going away
admin-impersonation-audit | Support staff impersonation is time boxed to 30 minutes and every action is written to the audit log | an impersonated session changed a customer's payout account unnoticed | src/admin/impersonate.py | can support log in as a customer to debug their account, and is that tracked
""",
    "infra": """
nat-gateway-egress-cost | Pull container images through the VPC endpoint; NAT gateway egress for image pulls cost more than the cluster | the cloud bill showed 9 TB of NAT traffic from image pulls | infra/terraform/vpc.tf | why is our network transfer charge bigger than the compute bill
spot-nodes-stateless-only | Spot node pools run only stateless workloads; stateful sets stay on on-demand nodes | a spot reclaim took down the redis stateful set during a sale | deploy/k8s/nodepools.yaml | the cheap preemptible machines got taken away and redis went with them
configmap-rollout-checksum | Deployments carry a checksum annotation of their ConfigMap so a config change restarts the pods | a config edit was applied but pods kept the old values for days | deploy/helm/app/templates/deployment.yaml | I changed the config values but the running pods still use the old ones
egress-network-policy-default-deny | Namespaces default-deny egress; each service lists the hosts it may call in a NetworkPolicy | a compromised dependency could have phoned home from any pod | deploy/k8s/netpol.yaml | my new service can't reach the payment api from inside the cluster, connection just times out
backup-bucket-object-lock | Backup buckets use S3 object lock in compliance mode for 35 days | ransomware drills showed an admin key could delete every backup | infra/terraform/backups.tf | could someone with admin access wipe all our backups
graceful-shutdown-prestop-sleep | Pods sleep 10 s in a preStop hook so the load balancer drops them before SIGTERM | every deploy produced a burst of 502s from connections to terminating pods | deploy/k8s/api.yaml | we see a spike of bad gateway errors during every rollout
""",
    "database": """
long-transaction-idle-timeout | Sessions set idle_in_transaction_session_timeout 60s; an idle open transaction blocked vacuum for a day | a notebook left a transaction open over the weekend | deploy/postgres/postgresql.conf | someone's open console session seems to block cleanup of the whole database
json-column-gin-index | Queries filtering on JSONB keys need a GIN index with jsonb_path_ops | attribute filters on products scanned the whole table | migrations/versions/0051_products_gin.py | filtering products by a field inside the jsonb attributes column is very slow
soft-delete-unique-partial-index | Soft-deleted rows are excluded from unique constraints with a partial unique index WHERE deleted_at IS NULL | a user could not sign up again with the email of a deleted account | migrations/versions/0037_users_email_unique.py | a person who deleted their account can't register again with the same email
sequence-exhaustion-bigint | Id columns are bigint; the int4 sequence of events ran out at 2.1 billion | inserts into events failed for an hour when the sequence hit its maximum | src/models/base.py | inserts suddenly fail with integer out of range on the events table
redis-cluster-hash-tags | Keys used together in one redis transaction share a hash tag so they land in one cluster slot | MULTI across two slots failed with CROSSSLOT after the move to cluster mode | src/cache/keys.py | after switching redis to cluster mode our transactions fail with a CROSSSLOT error
query-statement-timeout-reports | Reporting queries run on the replica with statement_timeout 30s | an ad hoc report query ran for two hours and held a snapshot | src/reports/db.py | an analyst's query has been running for hours, can we stop those automatically
""",
    "ci": """
ci-secrets-oidc-not-keys | CI deploys authenticate to the cloud with OIDC federation, never stored access keys | a long lived key leaked through a debug log in a forked build | .github/workflows/deploy.yml | should I put the aws access key in the repository secrets for the deploy job
merge-queue-main-green | Merges go through the merge queue so main is tested with every change combined | two green pull requests broke main together | .github/settings.yml | two PRs passed on their own but main is red after both merged
test-shard-by-timing | The test job is split into shards by recorded timings, not by file count | one shard ran 18 minutes while the others took 3 | .github/workflows/test.yml, tests/.timings.json | one of the parallel test jobs always takes way longer than the rest
ci-concurrency-cancel-stale | Workflows use a concurrency group per branch with cancel-in-progress | every push to a branch queued another full run behind the old ones | .github/workflows/test.yml | pushing several commits quickly makes the runs pile up for an hour
snapshot-tests-review-update | Snapshot files are updated only with --snapshot-update in a separate commit that is reviewed | a bulk snapshot update hid a real regression in the invoice pdf | tests/snapshots/ | is it fine to just regenerate all the snapshots to make the build pass
license-check-dependencies | CI fails on new dependencies with GPL or unknown licenses (license-checker allowlist) | a copyleft package was shipped in the desktop build | .github/workflows/licenses.yml, .licenses.allow | legal asked whether any of our packages are under a copyleft license
""",
    "frontend": """
csp-nonce-inline-scripts | The Content-Security-Policy uses per-request nonces; unsafe-inline is not allowed | an injected analytics snippet ran because of unsafe-inline | src/server/csp.ts | the browser blocks my inline script with a content security policy error
optimistic-update-rollback | Optimistic UI updates keep the previous value and roll back when the mutation fails | a failed like left the counter wrong until reload | src/hooks/useOptimistic.ts | when saving fails the screen still shows the new value as if it worked
font-display-swap-preload | Web fonts use font-display swap and the main font is preloaded | text stayed invisible for three seconds on slow phones | src/styles/fonts.css, index.html | on slow mobile connections the page shows no text for a few seconds
list-virtualization-long-tables | Tables over 500 rows render through a virtualized list | the audit table with 20,000 rows froze the tab | src/components/DataTable.tsx | the audit page freezes the browser when there are lots of rows
hydration-mismatch-dates | Dates are rendered on the client only; server rendering used the server's zone and caused hydration mismatches | a text content mismatch warning on every order page | src/components/OrderDate.tsx | react warns that the text content does not match the server rendered html
feature-flags-frontend-bootstrap | The frontend gets its flags in the initial html payload so the first paint never flickers between variants | the old and new checkout flashed one after the other | src/app/bootstrap.ts | the page briefly shows the old checkout before switching to the new one
""",
    "python": """
datetime-utcnow-deprecated | Use datetime.now(timezone.utc); utcnow returns naive datetimes and is deprecated in 3.12 | naive and aware datetimes compared and raised TypeError in the scheduler | src/util/clock.py | can't compare offset-naive and offset-aware datetimes error in the scheduler
mutable-default-arguments | Never use a mutable default argument; the shared list leaked tags between requests | tags from one request showed up on the next one | src/api/tagging.py | tags from a previous call keep showing up in the next result, spooky
pickle-untrusted-never | Never unpickle data from the cache or queue that a client can write; use JSON | a pentest got code execution through a pickled cookie | src/sessions/codec.py | is it ok to store the session object in the cookie with pickle
threadpool-size-io-bound | The IO thread pool has 32 workers; the default of cpu count starved the S3 uploads | uploads queued behind four threads on the 4 core pods | src/storage/pool.py | uploads to s3 are slow even though the pods are mostly idle
regex-catastrophic-backtracking | User-supplied text never meets nested quantifier regexes; the email validator hung a worker on one input | a crafted 50 character email pinned a cpu at 100% | src/validation/email.py | one signup request made a worker spin at full cpu and never finish
decimal-context-rounding | Money math uses Decimal with ROUND_HALF_EVEN and quantize to cents; float sums drifted | the monthly totals were off by a cent | src/billing/amounts.py | the totals in the export are a cent off compared to the invoices
""",
    "observability": """
histogram-buckets-latency | Latency histograms use explicit buckets up to 10 s; the default buckets hid slow requests above 1 s | p99 looked flat while users saw 4 second pages | src/metrics/http.py | our p99 graph looks fine but users say pages take several seconds
log-sampling-debug-burst | Debug logs are sampled at 1 in 100 under load; a loop logging per item filled the disk | a node ran out of disk from one chatty worker | src/logging/setup.py | a single service produced so many log lines that the disk filled up
alert-routing-ownership-labels | Every alert carries a team label; unlabelled alerts go to a catch-all channel nobody watches | a disk alert fired for a week in the catch-all channel | deploy/observability/alertmanager.yml | an alert fired for days and nobody got notified
synthetic-checkout-probe | A synthetic probe runs the checkout end to end every 5 minutes with a test card | checkout was broken for six hours on a Sunday with all services green | monitoring/synthetics/checkout.js | how would we find out if buying something on the site stops working at night
trace-id-in-error-responses | Error responses include the trace id so support can find the request | support spent hours matching a customer's complaint to server logs | src/api/errors.py, src/middleware/tracing.py | when a customer reports an error how can support find what happened on our side
metrics-cardinality-budget-team | Each team has a budget of active series; the ingester rejects series over it | a new label on request paths created 2 million series | deploy/observability/mimir.yaml | my new metric shows up in the code but never appears in grafana
""",
    "payments": """
chargeback-evidence-deadline | Disputes must get evidence submitted within 7 days; the dispute webhook opens a ticket | three chargebacks were lost because nobody saw them in time | src/payments/disputes.py | a customer disputed a charge with their bank, what do we need to do and by when
tax-exempt-customer-ids | Tax-exempt customers are identified by a verified tax id on the account, not by a checkbox | an unverified checkbox let a customer skip VAT for a year | src/billing/tax.py | a business customer says they should not be charged sales tax, how do we handle it
trial-end-card-required | Trials end with a reminder 3 days before; no card on file cancels instead of charging | customers were charged without warning after the free period | src/billing/trials.py | people complain about being billed right after the free period without notice
invoice-number-gapless | Invoice numbers are gapless per legal entity and assigned at finalization, not at draft | deleted drafts left gaps that the auditor flagged | src/billing/numbering.py | the accountant noticed missing numbers in our invoice sequence
price-change-grandfathering | A price change applies to existing subscribers only at their next renewal and after a 30 day notice | an immediate price change on renewal broke consumer law in the EU | src/billing/prices.py | if we raise prices can we charge existing customers the new price right away
payment-method-3ds-retry | Off-session charges that need 3-D Secure email the customer a link instead of retrying silently | renewals failed repeatedly with authentication_required | src/payments/renewals.py | renewal payments keep failing with authentication required for european cards
""",
}

UNRELATED = [
    "what's a good name for a pet turtle",
    "explain how a b-tree differs from a binary search tree",
    "write a haskell function that sums a list with foldr",
    "how do I make cold brew coffee at home",
    "what is the pythagorean theorem",
    "give me five interview questions for a junior frontend developer",
    "explain tail call optimisation",
    "how long should I boil an egg for a soft yolk",
    "what is the difference between tcp and udp",
    "write a limerick about a cat on a keyboard",
    "summarise the rules of sudoku",
    "what does the yield keyword do in a generator",
    "convert 72 fahrenheit to celsius",
    "what is the difference between a process and a thread",
    "write a go function that reverses a string with unicode runes",
    "recommend three podcasts about history",
    "what is dijkstra's algorithm used for",
    "write a short poem about autumn leaves",
    "explain what a virtual dom is in simple terms",
    "how many bytes are in a kilobyte versus a kibibyte",
    "what are the main causes of the french revolution",
    "write a css rule that makes an element a perfect circle",
    "explain the birthday paradox",
    "how do I prune a tomato plant",
    "what is a trie and when would I use one",
    "tell me a fun fact about octopuses",
    "explain dependency injection like I am five",
    "what's the best way to memorise a speech",
    "how does garbage collection work in java, roughly",
    "write a one line awk command that prints the second column",
]

NOISE = [
    "yep, carry on", "k", "proceed", "sure, go for it", "continue please", "ok next one",
    "$ docker compose up -d\n[+] Running 4/4\n ✔ Network app_default  Created   0.1s\n ✔ Container app-db-1  "
    "Started   0.6s\n ✔ Container app-redis-1  Started   0.7s\n ✔ Container app-api-1  Started   1.2s\n",
    "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\n"
    "npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported\n\n"
    "added 1423 packages, and audited 1424 packages in 38s\n\n212 packages are looking for funding\n"
    "  run `npm fund` for details\n\n6 vulnerabilities (2 moderate, 4 high)\n",
    "NAME                                READY   STATUS             RESTARTS      AGE\n"
    "api-7d9f8c6b5-2xkqv                 1/1     Running            0             3d\n"
    "worker-5c8d7f9b4-h7jzp              0/1     CrashLoopBackOff   12 (2m ago)   41m\n"
    "redis-0                             1/1     Running            0             12d\n",
    "2026-11-30T09:12:44.120Z INFO  request_id=8f1c2 method=GET path=/api/orders status=200 dur_ms=41\n"
    "2026-11-30T09:12:44.311Z WARN  request_id=8f1c3 method=POST path=/api/checkout status=402 dur_ms=388\n"
    "2026-11-30T09:12:45.002Z ERROR request_id=8f1c4 method=GET path=/api/invoices status=500 dur_ms=30012\n",
    "FAILED tests/test_billing.py::test_proration_upgrade - AssertionError: assert 1999 == 2000\n"
    "FAILED tests/test_tax.py::test_exempt_customer - KeyError: 'tax_id'\n"
    "========= 2 failed, 318 passed, 4 skipped in 41.27s =========\n",
    "Plan: 3 to add, 1 to change, 0 to destroy.\n\n  # aws_s3_bucket.backups will be updated in-place\n"
    "  ~ resource \"aws_s3_bucket\" \"backups\" {\n        id     = \"acme-backups\"\n"
    "      ~ tags   = {\n          + \"team\" = \"platform\"\n        }\n    }\n",
]


def build() -> dict:
    """recall_data's memory plus this split's lessons; only this split's prompts are asked."""
    base = recall_data.build()
    lessons = recall_data.parse_lessons(LESSONS)
    edges = list(base["edges"])
    for lesson in lessons:
        if lesson["tier"] != "orphaned":
            edges.append((lesson["id"], recall_data.HUBS[lesson["domain"]][0], "part-of"))
    prompts = [{"kind": "relevant", "text": l["prompt"], "labels": [l["id"]]} for l in lessons]
    prompts += [{"kind": "unrelated", "text": t, "labels": []} for t in UNRELATED]
    prompts += [{"kind": "noise", "text": t, "labels": []} for t in NOISE]
    return {"nodes": base["nodes"] + lessons, "edges": edges, "prompts": prompts, "commands": []}


def asking(cases: list[dict]) -> dict:
    """This split's memory (recall_data's and its own lessons), asking only `cases` (the splits written later)."""
    return {**build(), "prompts": [dict(case) for case in cases], "commands": []}
