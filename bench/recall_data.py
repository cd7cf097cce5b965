"""The recall evaluation's fixed data: a project memory and the prompts asked of it (issue #12).

Written before any tuning and kept fixed after it (see bench/recall_eval.py). Lessons are
what agents write: a kebab id, a one-claim gist, a note of what happened, touches. Each
labelled lesson carries one prompt a person might type when they need it, phrased in
their own words rather than the gist's. Filler lessons are generated from per-domain
vocabulary (seeded), so the memory has the size and the shared words of a real one.

Prompt kinds: "relevant" (labelled with the lessons it needs), "unrelated" (nothing in the
memory answers it), "noise" (pasted machine output, or a bare continuation).
"""

from __future__ import annotations

import random

# id | gist | note | touches (comma-separated) | prompt a person types
LESSONS = {
    "backend": """
auth-refresh-token-rotation | Refresh tokens rotate on every use; reusing an old one revokes the whole token family | a mobile client retried a refresh after a timeout and logged every device out | src/auth/tokens.py:40-88 | users on the phone app keep getting kicked out after a flaky network retry, why
jwt-clock-skew-leeway | JWT verification allows 30 s of leeway for clock skew between api pods | tokens minted on one pod were rejected as not-yet-valid on another | src/auth/jwt.py | some requests fail with "token not yet valid" right after login, how come
rate-limiter-sliding-window | The API rate limiter is a redis sliding window keyed by api key, 600 requests per minute | a fixed window let bursts of 1200 through at the minute boundary | src/middleware/ratelimit.py | customers hit 429 too many requests much earlier than their plan says
celery-task-idempotency-key | Celery tasks that charge or email take an idempotency key, because acks_late redelivers on worker crash | a worker OOM sent the welcome email three times | src/tasks/base.py | the welcome mail went out twice to the same person after a worker died, what should I change
webhook-signature-raw-body | Verify webhook HMAC signatures over the raw request body before JSON parsing | parsing then re-serializing reordered keys and every signature check failed | src/webhooks/verify.py | stripe callbacks all fail verification even with the right secret
pagination-cursor-not-offset | List endpoints paginate with an opaque cursor on (created_at, id), never OFFSET | OFFSET pages skipped rows while inserts happened and got slow past page 500 | src/api/pagination.py | listing orders gets really slow deep into the pages and sometimes skips records
cors-credentials-explicit-origin | CORS with credentials needs an explicit origin list; the wildcard is rejected by browsers | the staging frontend could not send cookies with allow_origins=* | src/app.py:CORSMiddleware | the browser refuses to send the session cookie to the api from the staging site
request-timeout-upstream-budget | Outbound HTTP calls share the request's deadline: each gets min(5 s, remaining budget) | a slow geocoder held gunicorn workers for 60 s and the pool starved | src/http/client.py | the app hangs whenever the address lookup service is slow, all workers stuck
gunicorn-worker-preload-fork | Do not open DB connections before gunicorn forks; preload_app shares sockets across workers | workers read each other's query results through a shared connection | gunicorn.conf.py | weird bug: one worker sees query results that belong to another request
fastapi-dependency-session-scope | The DB session dependency yields per request and commits in the route, never in the dependency teardown | errors raised during teardown were swallowed and returned 200 | src/deps.py | a failed commit still returns 200 ok to the client, where does the session get closed
email-template-autoescape | Jinja email templates must keep autoescape on; the user display name is attacker controlled | a display name with a script tag rendered in the admin digest | templates/email/, src/mail/render.py | is it safe to render the customer's name straight into the notification html
uploads-presigned-put | File uploads go straight to S3 with a presigned PUT of 15 minutes; the api never proxies bytes | proxying 2 GB videos through the api pods blew the memory limit | src/uploads/presign.py | big video uploads crash the backend pods with out of memory
feature-flag-default-off | A feature flag that fails to load defaults to off, and the flag client caches for 30 s | the flag service outage turned on an unfinished checkout for everyone | src/flags/client.py | what happens to the new checkout toggle if the flag service goes down
graphql-dataloader-batching | GraphQL resolvers load relations through per-request dataloaders to avoid N+1 queries | the orders query ran 400 selects for one page | src/graphql/loaders.py | the orders graphql query fires hundreds of sql statements for one page
password-hash-argon2-params | Password hashing uses argon2id with 64 MiB memory and 3 passes; rehash on login when params change | bcrypt cost 10 fell behind the policy and needed a migration path | src/auth/passwords.py | how do we upgrade old password hashes to stronger settings without forcing resets
background-jobs-timezone-utc | Scheduled jobs run in UTC; local-time cron drifted twice a year with daylight saving | the nightly invoice run happened twice in October | src/scheduler/jobs.py | the nightly invoice batch ran two times last autumn, why
""",
    "infra": """
k8s-readiness-vs-liveness | Liveness probes must not check dependencies; a DB outage then restarts every pod in a loop | a postgres failover caused a cascade of CrashLoopBackOff across the api | deploy/k8s/api.yaml | when the database blips all our pods restart over and over
k8s-memory-limit-jvm-heap | Set the JVM max heap to 75% of the container memory limit, or the OOM killer ends the pod | the search service was OOMKilled with -Xmx equal to the limit | deploy/k8s/search.yaml | the java search service keeps getting OOMKilled although heap looks fine
helm-upgrade-atomic-timeout | Run helm upgrade with --atomic and a 10 minute timeout so a failed rollout rolls back by itself | a half-applied release left two versions serving traffic | deploy/helm/app/values.yaml, scripts/deploy.sh | a broken chart release left old and new versions running side by side
terraform-state-lock-dynamodb | Terraform state lives in S3 with a DynamoDB lock table; never run apply from two laptops | two concurrent applies corrupted the vpc state | infra/terraform/backend.tf | two of us ran terraform at the same time and now the state is broken
ingress-proxy-body-size | The nginx ingress caps request bodies at 1 MB unless the proxy-body-size annotation is raised | uploads over 1 MB failed with 413 before reaching the app | deploy/k8s/ingress.yaml | uploads larger than a megabyte get a 413 from somewhere in front of the app
pod-disruption-budget-drain | Every deployment with more than one replica has a PodDisruptionBudget of maxUnavailable 1 | a node pool upgrade drained all api replicas at once | deploy/k8s/pdb.yaml | during the cluster node upgrade the whole api went down at the same moment
secrets-sealed-not-plain | Kubernetes secrets are committed only as SealedSecrets; plain Secret manifests are rejected by CI | a base64 database password was pushed to the repo | deploy/k8s/secrets/ | can I just commit the secret yaml with the db password base64 encoded
hpa-cpu-requests-required | The HPA scales on CPU utilization only when the containers set cpu requests | the worker deployment never scaled because requests were missing | deploy/k8s/worker-hpa.yaml | autoscaling never kicks in for the workers no matter the load
dns-ndots-latency | Pods use ndots 2 in dnsConfig; the default 5 made every external lookup try four search domains first | external API calls had 40 ms of extra DNS latency | deploy/k8s/api.yaml:dnsConfig | every outgoing http call from the cluster seems to spend ages resolving names
docker-build-cache-order | Copy the lockfile and install dependencies before copying the source, so code changes keep the layer cache | every commit reinstalled all python packages in the image build | Dockerfile | our container image build reinstalls everything on each commit, takes forever
image-tag-immutable-sha | Deploy images by git sha tag, never latest; latest made rollbacks pull the broken image again | a rollback redeployed the same bad build | scripts/deploy.sh, deploy/helm/app/values.yaml | rolling back didn't help because it pulled the same broken image again
make-deploy-needs-context | make deploy reads KUBE_CONTEXT and refuses to run against prod without CONFIRM=1 | a deploy meant for staging went to prod from a stale kube context | Makefile:deploy | what guards stop me from shipping to production by accident
cronjob-concurrency-forbid | Kubernetes CronJobs set concurrencyPolicy Forbid and a startingDeadlineSeconds | the report job piled up 30 overlapping runs after the cluster was down | deploy/k8s/report-cronjob.yaml | after the outage dozens of copies of the report job ran at the same time
log-retention-loki-cost | Loki keeps logs 14 days; debug logging in production multiplied the bill by six | a debug flag left on for a week | deploy/observability/loki.yaml | the logging bill exploded this month, what is the retention and what happened
tls-cert-manager-renewal | cert-manager renews certificates 30 days ahead; a DNS01 solver needs the cloud DNS token secret | renewals silently failed after the dns token was rotated | deploy/k8s/cert-issuer.yaml | the https certificate expired even though we use automatic renewal
node-affinity-gpu-taint | GPU nodes are tainted; only pods with the gpu toleration and nodeSelector land there | a batch job without toleration stayed pending for hours | deploy/k8s/gpu-job.yaml | my training job just sits pending forever and never gets scheduled
""",
    "database": """
alembic-migration-lock-timeout | Alembic migrations set lock_timeout 5s so a blocked ALTER fails fast instead of freezing traffic | an ALTER TABLE waited behind a long query and blocked every write for minutes | migrations/env.py | the schema change hung and all writes to the users table stalled
postgres-index-concurrently | Create indexes on big tables with CREATE INDEX CONCURRENTLY, outside a transaction | a plain CREATE INDEX locked orders for twelve minutes | migrations/versions/ | adding an index to the orders table locked it for ages, how do we avoid that
alembic-autogenerate-review | Alembic autogenerate misses renames and emits drop plus add; review every generated file | a column rename became a drop that lost data in staging | migrations/versions/ | the generated migration wiped a column when I only renamed it
redis-eviction-noeviction-queue | The redis instance backing queues uses noeviction; allkeys-lru silently dropped queued jobs | jobs disappeared under memory pressure | deploy/redis/queue.conf | queued jobs vanish without errors when redis gets full
postgres-connection-pool-pgbouncer | App pools go through pgbouncer in transaction mode; prepared statements must be off | asyncpg prepared statements failed with 'does not exist' behind pgbouncer | src/db.py, deploy/pgbouncer.ini | we get prepared statement does not exist errors randomly in production
vacuum-autovacuum-hot-table | The events table needs aggressive autovacuum settings; bloat made seq scans ten times slower | table bloat reached 40 GB before anyone noticed | migrations/versions/0042_events_autovacuum.py | queries on the events table got slower and slower and disk usage keeps growing
read-replica-lag-writes | Never read-after-write from the replica: replication lag is up to 2 s under load | users saw their new comment missing right after posting | src/db/routing.py | people post a comment and it is not there when the page reloads
uuid-v7-primary-keys | New tables use UUIDv7 primary keys; random v4 keys fragmented the btree and bloated inserts | insert throughput halved on the audit table | src/models/base.py | inserts into the big audit table got much slower as it grew, is the key type the problem
timestamp-with-time-zone | All timestamps are timestamptz stored in UTC; naive timestamps shifted by the server zone | reports were off by an hour after moving the database region | src/models/ | the reports are an hour off since we moved the database to another region
sqlalchemy-lazy-load-async | With async SQLAlchemy, relationships must be eagerly loaded; a lazy load raises MissingGreenlet | an order's items access crashed the endpoint | src/models/order.py | accessing order.items in the async endpoint blows up with a greenlet error
db-backup-restore-drill | Backups are only trusted after the monthly restore drill; a pg_dump without --no-owner failed to restore | the first real restore failed on missing roles | scripts/restore_drill.sh | would our database dumps actually restore if we lost the primary
redis-key-ttl-sessions | Session keys in redis always get a TTL; keys without expiry filled the instance in a month | redis hit maxmemory from abandoned sessions | src/sessions/store.py | the cache server memory keeps climbing and never goes down
postgres-enum-migration | Adding a value to a postgres enum cannot run inside a transaction before PG 12; use a text column with a check instead | an enum change failed halfway through a deploy | migrations/versions/ | adding a new status value to the enum column fails in the migration
mongo-write-concern-majority | The Mongo event store writes with majority concern; w:1 lost writes on primary failover | events were missing after an election | src/events/mongo.py | after a mongo failover some events we had acknowledged were simply gone
sql-n-plus-one-detection | The test suite fails a request that runs more than 30 queries (nplusone guard in conftest) | an innocent template change added a query per row | tests/conftest.py | why does my test fail saying too many queries for the listing view
deadlock-order-consistent-locking | Lock account rows in ascending id order inside transfers; random order deadlocked under load | concurrent transfers between the same two accounts deadlocked | src/ledger/transfer.py | money transfers sometimes fail with a deadlock detected error
""",
    "ci": """
gha-cache-key-lockfile | The GitHub Actions dependency cache is keyed on the lockfile hash; keying on the branch restored stale packages | a removed package kept passing tests from the cache | .github/workflows/test.yml | CI still passes with a package we removed from the requirements
ci-flaky-test-quarantine | Flaky tests get the quarantine marker and a ticket; CI retries are forbidden because they hide real races | a retry loop hid a race in the payment test for a month | pytest.ini, .github/workflows/test.yml | a test fails randomly one run in ten, should I just add a retry
gha-pull-request-target-secrets | Never check out PR code in a pull_request_target workflow; it runs with repository secrets | a fork PR could have exfiltrated the deploy token | .github/workflows/label.yml | is it ok to run the tests from fork pull requests with our secrets available
ci-parallel-test-database | Parallel test workers each get their own database via pytest-xdist worker id | tests interfered through a shared schema when run with -n 4 | tests/conftest.py | when I run the tests in parallel they step on each other's data
release-script-tag-changelog | scripts/release.sh bumps the version, writes the changelog and pushes the tag; CI publishes on the tag | a manual tag without the changelog broke the docs build | scripts/release.sh | what does cutting a new version involve, is there a script
npm-publish-provenance | npm publish runs only from CI with --provenance and the automation token; local publishes are blocked by 2FA | a local publish shipped an unbuilt dist folder | .github/workflows/publish.yml, package.json | can I push the package to the npm registry from my machine
ci-docker-layer-buildx-cache | Image builds in CI use buildx with the registry cache; the local cache was empty on every runner | image builds took 14 minutes on each pipeline | .github/workflows/image.yml | the container build in the pipeline never reuses anything and takes a quarter hour
pre-commit-ruff-version-pin | The ruff version in pre-commit is pinned to the one in the dev dependencies; a mismatch reformatted files back and forth | two developers kept flipping the same import order | .pre-commit-config.yaml, pyproject.toml | the linter keeps reordering imports differently on my laptop and in the pipeline
ci-required-checks-names | Branch protection requires checks by job name; renaming a job left merges blocked forever | renaming test to tests made every PR wait for a check that never ran | .github/workflows/test.yml | my pull request is stuck waiting for a status check that never starts
coverage-threshold-ratchet | Coverage may not drop below the main branch value; the threshold ratchets up automatically | a big refactor lowered coverage by 8 points unnoticed | .github/workflows/coverage.yml | the pipeline fails saying coverage decreased, how is the limit decided
dependabot-grouped-updates | Dependabot groups minor and patch updates weekly; one PR per package buried the team | forty dependency PRs a week were ignored | .github/dependabot.yml | we are drowning in automated dependency bump pull requests
ci-timeout-minutes-jobs | Every CI job sets timeout-minutes; a hung integration test burned six hours of runner time | a deadlocked test ran until the default 360 minute limit | .github/workflows/test.yml | a stuck job ran for hours and ate our actions minutes
e2e-tests-seeded-data | End-to-end tests seed their own data through the API and never depend on staging contents | e2e broke whenever someone cleaned staging | e2e/fixtures.ts | the browser tests break whenever someone tidies up the staging environment
matrix-python-versions | The test matrix covers the oldest and newest supported Python only; the full matrix cost 5x for no bugs found | the matrix had 6 versions and 3 OSes | .github/workflows/test.yml | do we really need to test every python version on every push
artifact-retention-days | Build artifacts are kept 7 days; the default 90 days filled the storage quota | artifact storage hit the org limit | .github/workflows/image.yml | actions storage is full, what keeps all those old build files
codeowners-review-required | CODEOWNERS routes migrations and deploy files to the platform team; their review is required | an unreviewed migration dropped an index in production | .github/CODEOWNERS | who has to approve changes to the database migrations folder
""",
    "frontend": """
react-query-stale-time | React Query defaults refetch on window focus; list views set staleTime 30 s to stop refetch storms | switching tabs refetched twelve queries at once | web/src/api/queryClient.ts | every time I switch back to the browser tab the app hammers the backend
vite-env-prefix-exposed | Only VITE_ prefixed variables reach the browser bundle; never put secrets behind that prefix | an API secret was bundled into the public js | web/.env.example, web/vite.config.ts | an environment variable I set is undefined in the frontend code
css-zindex-scale-tokens | z-index values come from the token scale (modal 400, toast 500); ad-hoc 9999 values fought each other | a dropdown appeared above the modal overlay | web/src/styles/tokens.css | the dropdown menu shows on top of the dialog backdrop
react-useeffect-cleanup-abort | Effects that fetch must abort on cleanup; late responses overwrote newer state | typing fast in search showed results for an older query | web/src/hooks/useSearch.ts | search results flicker and sometimes show results for what I typed before
i18n-plural-icu-messages | Translations use ICU plural messages; string concatenation broke languages with several plural forms | Polish showed wrong plural forms for counts | web/src/i18n/ | the item count label is grammatically wrong in some languages
bundle-size-budget-lazy-routes | Routes are lazy loaded and CI fails when the main bundle exceeds 250 kB gzip | the charting library doubled first load time | web/vite.config.ts, .github/workflows/web.yml | the first page load got much slower after we added the charts
form-validation-zod-shared | Form validation uses the same zod schemas as the API client so rules never diverge | the signup form accepted passwords the api rejected | web/src/schemas/ | the signup form says the password is fine but the server then rejects it
image-lazy-loading-lcp | The hero image must not be lazy loaded; lazy loading it hurt LCP by 1.2 s | lighthouse performance dropped after a blanket loading=lazy | web/src/components/Hero.tsx | our page speed score got worse after the image optimisation change
websocket-reconnect-backoff | The live feed reconnects with jittered exponential backoff capped at 30 s | a server restart was hit by 20k clients reconnecting at once | web/src/live/socket.ts | when the server restarts all browsers reconnect at the same instant and knock it over
date-formatting-intl-timezone | Format dates with Intl.DateTimeFormat in the user's timezone; moment was removed for size | dates showed in UTC for users in Asia | web/src/utils/dates.ts | users in Japan see times that are off by hours
storybook-visual-regression | Components get a Storybook story and a Chromatic snapshot; visual diffs block merge | a padding change broke every card | web/.storybook/, web/src/components/ | how do we catch layout changes in components before release
accessibility-focus-trap-modal | Modals trap focus and return it to the opener; screen reader users got lost behind dialogs | keyboard users tabbed into the page behind a modal | web/src/components/Modal.tsx | keyboard navigation escapes the popup and goes to the page behind it
service-worker-cache-busting | The service worker uses a versioned cache and skipWaiting on deploy; users were stuck on old builds | a hotfix did not reach users for days | web/src/sw.ts | users still run the old version of the app days after we deployed the fix
tailwind-purge-dynamic-classes | Tailwind purges class names built by string concatenation; write full class names | colors built as text-${color}-500 vanished in production | web/tailwind.config.js | some colours work locally but are missing in the production build
state-url-search-params | Filters live in the URL search params so views are shareable; local state lost them on reload | support could not reproduce filtered views from customers | web/src/hooks/useFilters.ts | when I reload the page all the filters reset
next-image-domains-config | Remote images need their host in the image domains config or the optimizer returns 400 | avatars from the cdn failed in production | web/next.config.js | profile pictures from our cdn show broken in prod
""",
    "python": """
uv-lockfile-sync-ci | CI installs with uv sync --frozen; a lockfile out of date with pyproject must fail, not re-resolve | CI resolved a newer pydantic than local and broke validation | pyproject.toml, uv.lock | CI picked a different library version than my machine and tests broke
pytest-fixture-scope-db | The database fixture is session scoped with a per-test transaction rollback; function-scoped schema creation took 4 minutes | the suite took 11 minutes before the change | tests/conftest.py | the test suite is very slow and most time goes into setting up the database
mypy-strict-new-modules | New modules are type checked with mypy strict via per-module overrides; the legacy code stays lenient | strict everywhere produced 3,000 errors | pyproject.toml:[tool.mypy] | can we enable strict type checking without fixing the whole codebase
asyncio-blocking-call-detect | Blocking calls in async code are caught with asyncio debug mode in tests (slow callback 100 ms) | a sync requests call froze the event loop | tests/conftest.py | the async service stalls for everyone when one request does something slow
logging-structlog-json | Logs are structlog JSON with the request id bound in middleware; f-string messages broke log search | nobody could filter logs by request | src/logging.py | how do I find all the log lines for one request
python-version-pin-runtime | The runtime image pins Python 3.12.x; 3.13 changed a C extension ABI we depend on | the image rebuilt with 3.13 and crashed at import | Dockerfile, .python-version | the service crashed at import after the base image update
pydantic-v2-model-config | Pydantic v2 models use model_config with extra forbid; v1 Config classes are silently ignored | unknown fields passed validation after the upgrade | src/schemas/ | after upgrading the validation library, unexpected fields are no longer rejected
poetry-to-uv-migration | The project moved from poetry to uv; poetry.lock is gone and scripts call uv run | an old Makefile target still called poetry install | Makefile, pyproject.toml | make setup fails complaining about a missing tool from the old packaging setup
pytest-randomly-order | pytest-randomly shuffles test order; tests that depend on order are bugs to fix, not to pin | a test passed only after another created a user | pytest.ini | tests pass alone but fail when the whole suite runs in a different order
ruff-rules-selected | Ruff enforces E, F, I, B and UP; the B008 rule is ignored for FastAPI dependencies | Depends() defaults triggered hundreds of warnings | pyproject.toml:[tool.ruff] | the linter complains about function calls in default arguments in all the route handlers
subprocess-timeout-always | Every subprocess.run call passes a timeout; a hung git fetch blocked a worker forever | the sync worker hung on a credential prompt | src/git/sync.py | the repository sync worker hangs forever sometimes
dataclass-slots-memory | Hot path value objects use dataclass slots=True; it cut memory of the cache by 40% | the price cache used 3 GB | src/pricing/cache.py | the pricing cache uses way too much memory, any cheap win
packaging-entry-points-cli | The CLI is installed through a project.scripts entry point; the old setup.py console_scripts was removed | pip install -e stopped creating the command | pyproject.toml:[project.scripts] | after installing the package in editable mode the command line tool is not found
hypothesis-deadline-ci | Hypothesis deadline is disabled in CI profiles; shared runners timed out property tests randomly | flaky DeadlineExceeded errors | tests/conftest.py | property based tests fail with deadline exceeded only on the build server
venv-in-project-dotvenv | Virtualenvs live in .venv in the project; editors and scripts look there | a global virtualenv shadowed the project's packages | .gitignore, Makefile | my editor picks up the wrong interpreter and cannot find the packages
import-cycles-lazy-imports | Import cycles between models and services are broken with function-level imports, documented at the import | a circular import appeared only under gunicorn preload | src/services/ | partially initialized module error only when the app runs under the production server
""",
    "observability": """
prometheus-label-cardinality | Never put user ids or urls with ids in Prometheus labels; cardinality blew up the TSDB | a path label with order ids created 2 million series | src/metrics.py | prometheus memory went through the roof after we added the new metric
sentry-sample-rate-traces | Sentry traces sample at 5% in production, errors at 100%; full tracing cost more than the servers | the monitoring bill passed the hosting bill | src/observability/sentry.py | error tracking costs are exploding, what sampling do we use
alert-on-symptoms-slo | Page only on SLO burn rate symptoms; cause alerts like high CPU go to a ticket queue | on-call was paged 40 times a week for CPU spikes | deploy/observability/alerts.yaml | on-call is exhausted from being woken up for cpu alerts that mean nothing
otel-trace-context-propagation | Trace context crosses the queue in message headers; without it worker spans started new traces | traces ended at the celery boundary | src/tasks/base.py, src/observability/tracing.py | distributed traces stop at the background worker and start a new trace there
healthcheck-endpoint-cheap | The /healthz endpoint does no IO; the deep check lives at /readyz for humans | the load balancer overloaded the database through health checks | src/api/health.py | our load balancer health checks are hitting the database hard
grafana-dashboard-as-code | Dashboards are JSON in the repo, provisioned by grafana; edits in the UI are overwritten on deploy | someone's dashboard tweaks vanished | deploy/observability/dashboards/ | I edited a panel in grafana and my change disappeared after the release
log-pii-redaction | Log processors redact emails and tokens before shipping; the auth header was logged in full once | tokens appeared in the log search | src/logging.py | could passwords or api tokens end up in our logs
statsd-to-otel-metrics | Metrics moved from statsd to OpenTelemetry; the statsd client is a no-op shim kept for old imports | new counters did not show up in grafana | src/metrics.py | my new counter never shows up on the dashboard
uptime-check-from-outside | Uptime checks run from outside the cloud provider; internal checks stayed green during a region outage | customers noticed the outage before we did | deploy/observability/uptime.yaml | the site was down for an hour and our monitoring said everything was fine
error-budget-freeze | When the monthly error budget is spent, feature deploys freeze until it recovers | three risky releases in a week burned the budget | docs/slo-policy.md | are we allowed to release new features this week after all the incidents
""",
    "payments": """
stripe-idempotency-header | Every Stripe POST sends an Idempotency-Key derived from our order id | a network retry created a duplicate charge | src/billing/stripe_client.py | a customer was charged twice for one order after a timeout
money-integer-minor-units | Money is stored as integer minor units with a currency code; floats lost cents in invoice sums | invoice totals were off by a cent | src/billing/money.py | invoice totals are sometimes one cent off
vat-rounding-per-line | VAT is rounded per invoice line, as tax authorities require, not on the total | an audit found rounding differences | src/billing/tax.py | the tax on the invoice does not match what the accountant calculates
subscription-proration-webhooks | Plan changes are applied from the invoice.paid webhook, never from the redirect after checkout | users who closed the tab never got their upgrade | src/billing/webhooks.py | some customers pay for the upgrade but their plan stays the same
refund-partial-ledger-entry | Partial refunds create a negative ledger entry linked to the original charge, never edit it | edited charges broke the revenue report | src/ledger/refunds.py | how should I record giving back part of the money for an order
currency-conversion-daily-rate | Currency conversion uses the ECB rate of the invoice date, stored on the invoice | re-converting old invoices changed reported revenue | src/billing/fx.py | the revenue numbers for last quarter changed by themselves this week
dunning-retry-schedule | Failed renewals retry on days 1, 3, 5 and 7, then the subscription pauses, not cancels | cancelling on first failure lost recoverable customers | src/billing/dunning.py | what happens when a renewal card payment is declined
payout-reconciliation-daily | Payouts are reconciled daily against bank statements; mismatches open a finance ticket | a missing payout went unnoticed for a month | src/finance/reconcile.py | how would we notice if the payment provider didn't send us money
""",
}

# Hubs: what a domain's lessons are about, linked to several of them (they become connectors).
HUBS = {
    "backend": ("api-service-overview", "The api service: FastAPI app, celery workers, auth and webhooks"),
    "infra": ("cluster-deploy-overview", "Production runs on one Kubernetes cluster deployed by helm"),
    "database": ("postgres-main-database", "The main Postgres database, its migrations and replicas"),
    "ci": ("github-actions-pipeline", "CI runs on GitHub Actions: tests, images, releases"),
    "frontend": ("web-app-frontend", "The web app: React, Vite, deployed as static files"),
    "python": ("python-tooling-setup", "Python tooling: uv, pytest, ruff, mypy"),
    "observability": ("monitoring-stack-overview", "Monitoring: Prometheus, Grafana, Loki, Sentry"),
    "payments": ("billing-system-overview", "Billing: Stripe subscriptions, invoices and the ledger"),
}

# Filler vocabulary per domain: (subjects, aspects, claims). Lessons nobody asks about here.
FILLER = {
    "backend": (["api", "auth", "session", "webhook", "celery", "email", "upload", "search endpoint", "admin panel",
                 "serializer", "middleware", "router"],
                ["naming", "errors", "retries", "logging", "defaults", "validation", "versioning", "tests"],
                ["returns problem+json bodies with a stable code", "keeps handlers thin and moves logic to services",
                 "logs the request id with every error", "documents every status code in the openapi schema",
                 "validates input at the boundary only", "has a test per public route",
                 "uses explicit timeouts on outbound calls", "never leaks stack traces to clients"]),
    "infra": (["helm chart", "namespace", "ingress", "node pool", "service mesh", "configmap", "deployment",
               "terraform module", "vpc", "load balancer", "registry", "bastion"],
              ["labels", "limits", "rollout", "ownership", "naming", "costs", "access", "upgrades"],
              ["carries team and cost-center labels", "is reviewed by the platform team",
               "is upgraded one minor version at a time", "has resource requests on every container",
               "is created from the shared module only", "keeps staging and production values in one file",
               "is documented in the runbook", "is tagged with the environment name"]),
    "database": (["orders table", "users table", "events table", "read replica", "migration", "index", "redis cache",
                  "connection pool", "backup", "audit log", "search index", "schema"],
                 ["naming", "ownership", "retention", "locking", "constraints", "performance", "access", "defaults"],
                 ["uses snake_case plural names", "keeps a created_at and updated_at column",
                  "has a foreign key for every reference", "is owned by the data team",
                  "keeps 30 days of history", "is checked in the weekly review",
                  "uses not-null with defaults where possible", "documents every column comment"]),
    "ci": (["workflow", "runner", "release", "pipeline", "test job", "lint job", "image build", "artifact",
            "branch protection", "secret", "environment", "cache"],
           ["naming", "ownership", "duration", "permissions", "triggers", "retention", "notifications", "costs"],
           ["uses the least permissions token", "posts failures to the team channel",
            "runs on the self-hosted runner group", "is triggered on pull requests only",
            "keeps the job under ten minutes", "is named after what it checks",
            "pins third-party actions by sha", "uploads junit reports"]),
    "frontend": (["component", "page", "route", "form", "table", "modal", "theme", "icon set", "build",
                  "storybook", "hook", "store"],
                 ["naming", "styling", "tests", "accessibility", "performance", "state", "props", "layout"],
                 ["uses PascalCase file names", "keeps styles in a css module next to it",
                  "has a testing-library test for the main path", "exposes aria labels for icons",
                  "memoizes expensive selectors", "keeps server state out of the global store",
                  "takes typed props with defaults", "uses the spacing scale only"]),
    "python": (["package", "module", "test suite", "fixture", "type hints", "formatter", "dependency", "script",
                "cli", "notebook", "config loader", "settings"],
               ["layout", "naming", "tests", "typing", "imports", "docs", "versioning", "errors"],
               ["follows the src layout", "exports a small public api in __init__",
                "keeps docstrings in google style", "raises domain errors, not bare Exception",
                "has one test module per source module", "reads settings from the environment once",
                "avoids star imports", "pins direct dependencies with a compatible range"]),
    "observability": (["dashboard", "alert", "metric", "trace", "log stream", "slo", "runbook", "on-call rota",
                       "status page", "incident review"],
                      ["naming", "ownership", "thresholds", "retention", "routing", "format"],
                      ["names the owning team", "links the runbook", "is reviewed after each incident",
                       "uses seconds as the base unit", "routes to the team's pager", "keeps a short description"]),
    "payments": (["invoice", "subscription", "ledger", "refund", "payout", "coupon", "tax rate", "price list"],
                 ["naming", "rounding", "audit", "exports", "permissions", "emails"],
                 ["is immutable once issued", "is exported to accounting nightly", "is visible to finance only",
                  "keeps an audit trail of every change", "sends a receipt email", "uses the plan code as key"]),
}

FILLER_PER_DOMAIN = {"backend": 26, "infra": 26, "database": 26, "ci": 24, "frontend": 24, "python": 24,
                     "observability": 16, "payments": 14}

# Prompts nothing in the memory answers (some technical, in the memory's neighbourhood).
UNRELATED = [
    "write me a haiku about the first snow of winter",
    "what is the difference between a list and a tuple in python",
    "explain big O notation to a beginner",
    "can you help me draft a polite email declining a meeting",
    "reverse a linked list in rust, iterative version please",
    "what does the SOLID acronym stand for",
    "summarize the plot of moby dick in three sentences",
    "convert this recipe from cups to grams: 2 cups flour, 1 cup sugar",
    "how many days are there between march 3 and june 17",
    "suggest a name for a cat that likes to sleep on keyboards",
    "what is a monad, in plain words",
    "write a regular expression that matches a hex colour like #a1b2c3",
    "how does a bloom filter work",
    "give me a bash one-liner to count lines in all markdown files",
    "what's a good book on distributed systems for someone new",
    "explain the difference between git merge and git rebase",
    "help me write a limerick about a programmer who hates mondays",
    "what's the capital of australia",
    "implement fizzbuzz in haskell",
    "how do vaccines train the immune system",
    "draw an ascii art rocket",
    "what are the rules of chess castling",
    "translate 'good morning, how are you' into italian",
    "what is the time complexity of heapsort",
    "explain how public key cryptography works to a ten year old",
    "add a docstring to this function: def add(a, b): return a + b",
    "what's the difference between concurrency and parallelism",
    "write a short bedtime story about a robot and a fox",
    "how do I make sourdough starter",
    "rename the variable tmp to total in this snippet: tmp = a + b; print(tmp)",
    "what is the derivative of x squared times sine x",
    "plan a three day trip to lisbon",
    "which is faster for lookups, a hash map or a sorted array, and why",
    "explain what a closure is in javascript",
    "generate ten fun team names for a hackathon",
    "what does idempotent mean in mathematics",
    "how do I center text in a markdown table",
    "what are good stretches after a long day at the desk",
    "write a sql query that returns the second highest salary",
    "tell me a joke about compilers",
    "sort these words alphabetically: pear apple fig banana",
    "what is the halting problem",
    "how does a refrigerator keep things cold",
    "write a python function that checks if a string is a palindrome",
    "what are the phases of the moon",
    "recommend a keyboard layout for programming",
    "how do I compute a moving average in excel",
    "what was the first programming language",
    "explain recursion with an example about russian dolls",
    "list three differences between http 1.1 and http 2",
    "what's a good way to learn touch typing",
    "explain the monty hall problem",
    "write a cron expression for every tuesday at 3pm",
    "how do noise cancelling headphones work",
    "give me a study plan for learning linear algebra",
    "what is the difference between weather and climate",
    "write a tiny tic tac toe game in javascript",
    "what rhymes with orange",
    "how do I politely ask my neighbour to turn the music down",
    "explain what a hash collision is",
]

CONTINUATIONS = ["continue", "go on", "yes", "ok do it", "keep going", "sounds good, proceed", "next", "y",
                 "ok", "thanks!", "do it", "yes please continue", "lgtm", "go ahead"]


def _noise_outputs(rng: random.Random) -> list[str]:
    """Pasted output of many tools, each a block as a terminal prints it (no typed question)."""
    sha = lambda: "".join(rng.choice("0123456789abcdef") for _ in range(7))  # noqa: E731
    out = [
        "On branch feature/rate-limit\nYour branch is up to date with 'origin/feature/rate-limit'.\n\n"
        "Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n"
        "\tmodified:   src/middleware/ratelimit.py\n\tmodified:   src/auth/tokens.py\n\tmodified:   tests/conftest.py\n\n"
        "Untracked files:\n\tmigrations/versions/0043_add_index.py\n",
        "\n".join(f"{sha()} {m}" for m in [
            "Fix refresh token rotation on retry", "Add lock_timeout to alembic env", "Bump ruff to 0.6.9",
            "helm: atomic upgrades", "Merge pull request #812 from org/cache-keys", "webhooks: verify raw body"]),
        "commit 3f9a1c2e7b5d4a8f9e0c1b2a3d4e5f6a7b8c9d0e\nAuthor: Dana Lee <dana@example.com>\n"
        "Date:   Mon Nov 30 14:02:11 2026 +0100\n\n    Use pgbouncer transaction mode for api pools\n\n"
        "commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\nAuthor: Sam Ng <sam@example.com>\n"
        "Date:   Sun Nov 29 09:45:03 2026 +0100\n\n    Celery tasks take idempotency keys\n",
        "============================= test session starts ==============================\n"
        "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\n"
        "rootdir: /home/dev/api\nconfigfile: pytest.ini\nplugins: randomly-3.15.0, xdist-3.6.1, asyncio-0.24.0\n"
        "collected 1342 items\n\ntests/test_auth.py ........................ [  2%]\n"
        "tests/test_billing.py ...........F...... [  3%]",
        "NAME                          READY   STATUS             RESTARTS      AGE\n"
        "api-7d9f8b6c5-2xkqp           0/1     CrashLoopBackOff   12 (3m ago)   41m\n"
        "api-7d9f8b6c5-8mz4t           1/1     Running            0             41m\n"
        "worker-5c6d7e8f9-qq7rs        1/1     Running            3 (20m ago)   2d\n"
        "search-6b7c8d9e0-lp2ws        0/1     OOMKilled          5 (1m ago)    3h\n"
        "redis-0                       1/1     Running            0             12d",
        "[+] Running 5/6\n ⠿ Network api_default        Created        0.1s\n"
        " ⠿ Container api-postgres-1  Healthy        5.3s\n ⠿ Container api-redis-1     Started        0.9s\n"
        " ⠿ Container api-worker-1    Started        6.1s\n ⠿ Container api-web-1       Starting       6.2s",
        "Terraform will perform the following actions:\n\n  # aws_db_instance.main will be updated in-place\n"
        "  ~ resource \"aws_db_instance\" \"main\" {\n        id                      = \"prod-main\"\n"
        "      ~ instance_class          = \"db.r6g.large\" -> \"db.r6g.xlarge\"\n        # (42 unchanged attributes hidden)\n"
        "    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.",
        "Traceback (most recent call last):\n  File \"/app/src/api/orders.py\", line 88, in list_orders\n"
        "    items = await order.items\n  File \"/app/.venv/lib/python3.12/site-packages/sqlalchemy/ext/asyncio/session.py\", "
        "line 412, in greenlet_spawn\n    raise exc\nsqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called; "
        "can't call await_only() here.",
        "diff --git a/src/auth/jwt.py b/src/auth/jwt.py\nindex 4b1c2d3..9e8f7a6 100644\n--- a/src/auth/jwt.py\n"
        "+++ b/src/auth/jwt.py\n@@ -12,7 +12,7 @@ def verify(token: str) -> Claims:\n-    leeway = 0\n+    leeway = 30\n"
        "     return jwt.decode(token, KEY, algorithms=[\"RS256\"], leeway=leeway)",
        '{"level":"error","ts":"2026-11-30T10:14:22.481Z","request_id":"a81f2c","msg":"upstream timeout",'
        '"service":"geocoder","duration_ms":5003,"path":"/api/orders","status":504}\n'
        '{"level":"warn","ts":"2026-11-30T10:14:22.902Z","request_id":"a81f2d","msg":"rate limited","key":"k_29f",'
        '"limit":600,"status":429}',
        "Nov 30 10:02:11 web-01 nginx[812]: 10.0.3.4 - - [30/Nov/2026:10:02:11 +0000] \"POST /api/upload HTTP/1.1\" 413 "
        "176 \"-\" \"Mozilla/5.0\"\nNov 30 10:02:13 web-01 nginx[812]: 10.0.3.9 - - [30/Nov/2026:10:02:13 +0000] "
        "\"GET /healthz HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.30\"",
        "2026-11-30 10:15:02.118 UTC [4121] ERROR:  deadlock detected\n2026-11-30 10:15:02.118 UTC [4121] DETAIL:  "
        "Process 4121 waits for ShareLock on transaction 99812; blocked by process 4133.\n"
        "2026-11-30 10:15:02.119 UTC [4121] STATEMENT:  UPDATE accounts SET balance = balance - 100 WHERE id = 7",
        " id  |  status  | total_cents |       created_at\n-----+----------+-------------+------------------------\n"
        " 101 | paid     |        4999 | 2026-11-29 10:00:01+00\n 102 | refunded |        1999 | 2026-11-29 11:12:40+00\n"
        " 103 | pending  |       12000 | 2026-11-30 08:30:00+00\n(3 rows)",
        "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\n"
        "npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported\n\n"
        "added 1287 packages, and audited 1288 packages in 41s\n\n213 packages are looking for funding\n"
        "  run `npm fund` for details\n\n4 moderate severity vulnerabilities",
        "Collecting pydantic>=2.7\n  Downloading pydantic-2.9.2-py3-none-any.whl (434 kB)\n"
        "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 434.9/434.9 kB 8.1 MB/s eta 0:00:00\n"
        "Requirement already satisfied: typing-extensions>=4.6.1 in ./.venv/lib/python3.12/site-packages\n"
        "Installing collected packages: pydantic-core, pydantic\nSuccessfully installed pydantic-2.9.2 pydantic-core-2.23.4",
        "vite v5.4.8 building for production...\n✓ 1432 modules transformed.\n"
        "dist/index.html                   0.46 kB │ gzip:   0.30 kB\n"
        "dist/assets/index-4f9c2a1b.css   38.12 kB │ gzip:   7.01 kB\n"
        "dist/assets/index-9a8b7c6d.js   612.45 kB │ gzip: 198.33 kB\n"
        "(!) Some chunks are larger than 500 kB after minification.\n✓ built in 9.81s",
        "src/api/orders.py:42: error: Argument 1 to \"paginate\" has incompatible type \"int\"; expected \"Cursor\"  [arg-type]\n"
        "src/billing/money.py:17: error: Returning Any from function declared to return \"int\"  [no-any-return]\n"
        "Found 2 errors in 2 files (checked 212 source files)",
        "src/deps.py:12:5: B008 Do not perform function call `Depends` in argument defaults\n"
        "src/app.py:3:1: I001 [*] Import block is un-sorted or un-formatted\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.",
        "web/src/hooks/useSearch.ts(14,7): error TS2345: Argument of type 'string | undefined' is not assignable to "
        "parameter of type 'string'.\nweb/src/live/socket.ts(88,3): error TS7006: Parameter 'ev' implicitly has an 'any' type.",
        "   Compiling serde v1.0.210\n   Compiling tokio v1.40.0\n   Compiling api-gateway v0.3.1 (/home/dev/gw)\n"
        "    Finished `release` profile [optimized] target(s) in 1m 12s",
        "--- FAIL: TestRateLimiter (0.02s)\n    limiter_test.go:41: expected 429, got 200\nFAIL\n"
        "FAIL\tgithub.com/org/gw/limiter\t0.211s\nok  \tgithub.com/org/gw/auth\t0.118s",
        "make: *** [Makefile:42: deploy] Error 1\nerror: context \"prod-eu\" does not exist\n",
        "total 48\ndrwxr-xr-x  8 dev dev 4096 Nov 30 10:01 .\ndrwxr-xr-x 12 dev dev 4096 Nov 29 18:22 ..\n"
        "-rw-r--r--  1 dev dev  812 Nov 30 09:58 Dockerfile\n-rw-r--r--  1 dev dev 2211 Nov 30 10:01 Makefile\n"
        "drwxr-xr-x  4 dev dev 4096 Nov 28 12:00 migrations\n-rw-r--r--  1 dev dev 1403 Nov 30 09:40 pyproject.toml",
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n"
        "dev       41213 98.2 12.1 2931200 982112 ?     Rl   10:01   3:12 celery -A app worker -c 8\n"
        "postgres   1021  4.1  3.2  412332 261120 ?     Ss   Nov29   9:41 postgres: checkpointer",
        "Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p1  100G   97G  3.0G  98% /\n"
        "tmpfs           7.8G     0  7.8G   0% /dev/shm\n/dev/nvme1n1    500G  412G   88G  83% /var/lib/postgresql",
        "*   Trying 10.0.4.12:443...\n* Connected to api.internal (10.0.4.12) port 443\n> POST /v1/webhooks/stripe HTTP/2\n"
        "> content-type: application/json\n< HTTP/2 400\n< content-length: 43\n{\"error\":\"signature verification failed\"}",
        "NAME        NAMESPACE  REVISION  UPDATED                                  STATUS    CHART       APP VERSION\n"
        "api         prod       57        2026-11-30 10:01:33.412 +0000 UTC         failed    api-1.8.2   2026.11.30\n"
        "worker      prod       41        2026-11-29 18:20:01.002 +0000 UTC         deployed  worker-1.3  2026.11.29",
        "{\n  \"Reservations\": [\n    {\n      \"Instances\": [\n        {\n          \"InstanceId\": \"i-0abc123def4567890\",\n"
        "          \"InstanceType\": \"m6i.large\",\n          \"State\": {\"Code\": 16, \"Name\": \"running\"}\n        }\n"
        "      ]\n    }\n  ]\n}",
        "id,email,plan,mrr_cents,created_at\n1,a@example.com,pro,4900,2026-01-02\n2,b@example.com,team,19900,2026-02-11\n"
        "3,c@example.com,pro,4900,2026-03-09",
        "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)\n"
        "\tat org.elasticsearch.index.IndexService.createShard(IndexService.java:482)\n\tat org.example.search.Indexer.run(Indexer.java:77)",
        "TypeError: Cannot read properties of undefined (reading 'map')\n    at OrdersTable (webpack-internal:///./src/components/OrdersTable.tsx:41:23)\n"
        "    at renderWithHooks (react-dom.development.js:16305:18)\n    at mountIndeterminateComponent (react-dom.development.js:20074:13)",
        "Events:\n  Type     Reason            Age                 From               Message\n  ----     ------            ----                ----               -------\n"
        "  Warning  FailedScheduling  3m (x12 over 58m)   default-scheduler  0/9 nodes are available: 3 node(s) had untolerated "
        "taint {nvidia.com/gpu: present}, 6 Insufficient memory.",
        "level=warn ts=2026-11-30T10:20:01.221Z caller=scrape.go:1313 component=\"scrape manager\" msg=\"Append failed\" "
        "err=\"out of bounds\" series=1984221\nlevel=info ts=2026-11-30T10:20:04.002Z caller=head.go:812 msg=\"Head GC completed\" duration=2.41s",
        "Run actions/cache@v4\nCache restored from key: Linux-pip-3f9a1c2e7b5d\nRun uv sync --frozen\n"
        "error: The lockfile at `uv.lock` needs to be updated, but `--frozen` was provided.\nError: Process completed with exit code 2.",
        "  ✓ renders the hero (41 ms)\n  ✓ focus trap returns focus (12 ms)\n  ✕ shows toast above modal (33 ms)\n\n"
        "Test Suites: 1 failed, 12 passed, 13 total\nTests:       1 failed, 144 passed, 145 total\nTime:        6.221 s",
        "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume "
        "transactional DDL.\nINFO  [alembic.runtime.migration] Running upgrade 0042 -> 0043, add index on orders.created_at",
        "redis 127.0.0.1:6379> INFO memory\n# Memory\nused_memory:4294967296\nused_memory_human:4.00G\nmaxmemory:4294967296\n"
        "maxmemory_human:4.00G\nmaxmemory_policy:noeviction\nevicted_keys:0",
        "2026-11-30T10:31:12.004Z [worker-3] INFO  task=send_welcome_email id=81f2 retries=0 status=started\n"
        "2026-11-30T10:31:12.511Z [worker-3] INFO  task=send_welcome_email id=81f2 status=succeeded runtime=0.507s\n"
        "2026-11-30T10:31:40.118Z [worker-1] WARN  task=charge_invoice id=81f9 retries=2 status=retrying",
        "Step 7/12 : RUN pip install -r requirements.txt\n ---> Running in 4b2c1d0e9f8a\nCollecting fastapi==0.115.0\n"
        "Step 8/12 : COPY . /app\n ---> 9c8b7a6d5e4f\nSuccessfully built 9c8b7a6d5e4f\nSuccessfully tagged api:latest",
        "   ┌──────────┬─────────┬────────┐\n   │ route    │ p95 ms  │ errors │\n   ├──────────┼─────────┼────────┤\n"
        "   │ /orders  │   812   │  0.4%  │\n   │ /login   │   103   │  0.0%  │\n   └──────────┴─────────┴────────┘",
        "> Task :app:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\n"
        "Execution failed for task ':app:compileJava'.\n> Compilation failed; see the compiler error output for details.\n\n"
        "BUILD FAILED in 14s\n3 actionable tasks: 3 executed",
        "● api.service - API server\n     Loaded: loaded (/etc/systemd/system/api.service; enabled; preset: enabled)\n"
        "     Active: failed (Result: exit-code) since Mon 2026-11-30 10:02:11 UTC; 3min ago\n"
        "    Process: 812 ExecStart=/opt/api/.venv/bin/gunicorn app:app (code=exited, status=3)\n   Main PID: 812 (code=exited, status=3)",
        "[12345.678901] Out of memory: Killed process 41213 (celery) total-vm:2931200kB, anon-rss:982112kB, file-rss:0kB\n"
        "[12345.701122] oom_reaper: reaped process 41213 (celery), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB",
        " src/auth/tokens.py        | 14 ++++++++------\n src/middleware/ratelimit.py | 40 +++++++++++++++++++++++++++++-----\n"
        " tests/test_ratelimit.py   | 22 ++++++++++++++++++++++\n 3 files changed, 62 insertions(+), 14 deletions(-)",
        "alembic==1.13.3\nanyio==4.6.0\ncelery==5.4.0\nfastapi==0.115.0\ngunicorn==23.0.0\npsycopg==3.2.3\n"
        "pydantic==2.9.2\nredis==5.1.1\nsqlalchemy==2.0.35\nstructlog==24.4.0",
        "PLAY [web] *********************************************************************\n\nTASK [Gathering Facts] "
        "*********************************************************\nok: [web-01]\nok: [web-02]\n\nTASK [nginx : install] "
        "*********************************************************\nchanged: [web-01]\nok: [web-02]\n\nPLAY RECAP "
        "*********************************************************************\nweb-01 : ok=12 changed=3 unreachable=0 failed=0",
        " Seq Scan on events  (cost=0.00..412331.20 rows=9821 width=120) (actual time=0.021..3121.442 rows=10211 loops=1)\n"
        "   Filter: ((tenant_id = 42) AND (created_at > '2026-11-01 00:00:00+00'::timestamp with time zone))\n"
        "   Rows Removed by Filter: 18211940\n Planning Time: 0.211 ms\n Execution Time: 3122.918 ms",
        "2026-11-30 10:00:01     412331 backups/pg/2026-11-30.dump\n2026-11-29 10:00:02     409812 backups/pg/2026-11-29.dump\n"
        "2026-11-28 10:00:01     401102 backups/pg/2026-11-28.dump",
        "/home/dev/web/src/components/Modal.tsx\n  12:7   warning  'useRef' is defined but never used   @typescript-eslint/no-unused-vars\n"
        "  41:15  error    Missing dependency: 'onClose'          react-hooks/exhaustive-deps\n\n✖ 2 problems (1 error, 1 warning)",
        "Failures:\n\n  1) Invoice#total rounds VAT per line\n     Failure/Error: expect(invoice.total).to eq(1190)\n\n"
        "       expected: 1190\n            got: 1189\n     # ./spec/models/invoice_spec.rb:22:in `block (2 levels) in <top (required)>'\n\n"
        "Finished in 2.41 seconds (files took 1.12 seconds to load)\n48 examples, 1 failure",
        "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by "
        "'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/celery/",
        "Error from server (Forbidden): pods is forbidden: User \"dev@example.com\" cannot list resource \"pods\" in API group \"\" "
        "in the namespace \"prod\"",
    ]
    return out


# Questions typed around a pasted block: the question names the lesson; the paste is noise around it.
PASTE_QUESTIONS = [
    ("k8s-memory-limit-jvm-heap", "the java search service keeps dying, what's our rule for the heap vs the limit?", 4),
    ("sqlalchemy-lazy-load-async", "this blows up when the endpoint touches the related rows, why?", 7),
    ("deadlock-order-consistent-locking", "money transfers fail like this under load, what did we learn last time?", 11),
    ("webhook-signature-raw-body", "the payment provider callbacks get rejected like this, even with the right secret", 25),
    ("node-affinity-gpu-taint", "my training job is stuck pending forever, see events:", 31),
    ("uv-lockfile-sync-ci", "the pipeline fails installing dependencies, what is the policy here?", 33),
    ("helm-upgrade-atomic-timeout", "the chart release failed and left things half applied:", 27),
    ("prometheus-label-cardinality", "prometheus memory is exploding after my new metric, log below", 32),
    ("rate-limiter-sliding-window", "customers complain about too many requests errors way below their plan:", 9),
    ("jwt-clock-skew-leeway", "is 30 seconds the right amount of tolerance for the token time check? my change:", 8),
    ("redis-eviction-noeviction-queue", "is this eviction setting right for the instance that holds our job queue?", 37),
    ("ingress-proxy-body-size", "big uploads never reach the app, the proxy logs show this", 10),
]


def _filler(rng: random.Random) -> list[dict]:
    nodes = []
    for domain, count in FILLER_PER_DOMAIN.items():
        subjects, aspects, claims = FILLER[domain]
        made: set[str] = set()
        while len([n for n in nodes if n["domain"] == domain]) < count:
            subject, aspect, claim = rng.choice(subjects), rng.choice(aspects), rng.choice(claims)
            node_id = f"{subject.replace(' ', '-')}-{aspect}-rule"
            if node_id in made:
                continue
            made.add(node_id)
            nodes.append({"domain": domain, "id": node_id, "gist": f"The {subject} {aspect} rule: it {claim}",
                          "notes": [f"agreed in the {domain} review"], "touches": []})
    return nodes


def parse_lessons(blocks: dict[str, str]) -> list[dict]:
    """Lesson lines (per domain) as nodes with their prompt and intended tier.

    Tiers: a third orphaned, a third archived, a third left to compaction (most end up archived,
    some active, and an active one is already in context after the full read).
    """
    lessons = []
    for domain, block in blocks.items():
        for line in block.strip().splitlines():
            node_id, gist, note, touches, prompt = (part.strip() for part in line.split(" | "))
            lessons.append({"domain": domain, "id": node_id, "gist": gist, "notes": [note],
                            "touches": [t.strip() for t in touches.split(",") if t.strip()], "prompt": prompt})
    for i, lesson in enumerate(lessons):
        lesson["tier"] = ("orphaned", "archived", "auto")[i % 3]
    return lessons


def build(seed: int = 12) -> dict:
    """The whole evaluation: nodes (with intended tier), edges, prompts with labels, commands."""
    rng = random.Random(seed)
    lessons = parse_lessons(LESSONS)
    hubs = [{"domain": d, "id": i, "gist": g, "notes": [], "touches": [], "tier": "auto"} for d, (i, g) in HUBS.items()]
    fillers = [{**n, "tier": "auto"} for n in _filler(rng)]
    edges = []
    for lesson in lessons:
        if lesson["tier"] != "orphaned":  # an orphan is connected to nothing live
            edges.append((lesson["id"], HUBS[lesson["domain"]][0], "part-of"))
    for n in fillers:
        if rng.random() < 0.5:
            edges.append((n["id"], HUBS[n["domain"]][0], "part-of"))
    prompts = [{"kind": "relevant", "text": l["prompt"], "labels": [l["id"]]} for l in lessons]
    noise_blocks = _noise_outputs(rng)
    for node_id, question, block in PASTE_QUESTIONS:
        paste = noise_blocks[block % len(noise_blocks)]
        text = f"{question}\n\n{paste}" if rng.random() < 0.6 else f"{paste}\n\n{question}"
        prompts.append({"kind": "relevant", "text": text, "labels": [node_id], "pasted": True})
    prompts += [{"kind": "unrelated", "text": t, "labels": []} for t in UNRELATED]
    prompts += [{"kind": "noise", "text": t, "labels": []} for t in noise_blocks]
    prompts += [{"kind": "noise", "text": t, "labels": []} for t in CONTINUATIONS]
    return {"nodes": lessons + hubs + fillers, "edges": edges, "prompts": prompts, "commands": COMMANDS}


# Commands about to run (PreToolUse): labelled with the lessons that name their program and
# subcommand, script or build target; None where no lesson is about the command.
COMMANDS = [
    ("alembic upgrade head", ["alembic-migration-lock-timeout", "alembic-autogenerate-review"]),
    ("make deploy ENV=prod", ["make-deploy-needs-context"]),
    ("./scripts/release.sh 2.4.0", ["release-script-tag-changelog"]),
    ("npm publish --access public", ["npm-publish-provenance"]),
    ("helm upgrade api deploy/helm/app -n prod", ["helm-upgrade-atomic-timeout"]),
    ("terraform apply -auto-approve", ["terraform-state-lock-dynamodb"]),
    ("sh scripts/restore_drill.sh latest", ["db-backup-restore-drill"]),
    ("uv sync", ["uv-lockfile-sync-ci"]),
    ("ls -la", None),
    ("git status", None),
    ("pytest -q tests/test_auth.py", None),
    ("cat src/auth/jwt.py", None),
    ("grep -rn leeway src/", None),
    ("python -c 'print(1)'", None),
    ("docker ps", None),
    ("kubectl get pods -n prod", None),
    ("echo hello", None),
    ("cd web && npm run build", None),
]
