"""Typed prompts for the typed-or-pasted check, a second set (bench/typed_eval.py --typed typed_data_typed2): 150
prompts a person typed. Written blind on 2026-12-04, after every rule of core/typed.py at 20a0dc9 was chosen, by a helper
session that saw no code of this repository; run as written, nothing chosen on it."""

CASES = [
    {'text': "why does `useEffect` fire twice in dev but not in prod? react 18.2, StrictMode is on in main.tsx"},
    {'text': """ok so the migration in db/migrations/0042_add_tenant_id.py is failing on staging but not locally.

can you check whether we need `op.batch_alter_table` here? local is sqlite, staging is postgres 15.4. my guess is the `server_default=sa.text('now()')` bit, sqlite doesnt have now()"""},
    {'text': "rename getUserById to fetchUserById everywhere in packages/api, but keep the old name exported as a deprecated alias for one more release"},
    {'text': "the pod keeps getting OOMKilled at around 480Mi even though the limit is 512Mi. should I just bump it to 1Gi or is something leaking? it's a go service and GOMEMLIMIT isn't set anywhere"},
    {'text': "fix the typo in the README lol"},
    {'text': """can you make the retry config match this:

| env | max_retries | backoff |
|-----|-------------|---------|
| dev | 1 | 0s |
| staging | 3 | 2s |
| prod | 5 | 5s, exponential |

right now the values live in config/retry.yaml but I want them on the `Settings` class instead, with env overrides"""},
    {'text': "`cargo build` works but `cargo test` fails with a lifetime error at src/parser/mod.rs:118, something about `'a` not living long enough when I return a `&str` from inside the closure. can you explain what's actually going on before changing anything? I want to understand it this time"},
    {'text': "quick q: is `a ?? b` the same as `a || b` when a is 0?"},
    {'text': "We're on terraform 1.5.7 with the aws provider 5.31. I want to split the giant main.tf into modules/network, modules/eks and modules/rds without destroying anything — plan should show 0 to destroy. Use `moved` blocks, not `terraform state mv`, so it's reviewable in the PR."},
    {'text': "pls add a --dry-run flag to scripts/cleanup_s3.sh. it should just echo the `aws s3 rm` commands instead of running them"},
    {'text': "tests in tests/test_billing.py are flaky, maybe 1 in 10 runs. I suspect freezegun + the fact that InvoiceService.__init__ calls datetime.now() directly instead of taking a clock. refactor so a Clock gets injected and the tests pass a FakeClock"},
    {'text': "ship it 🚀 just bump the version to v2.3.1 in package.json and pyproject.toml, add a CHANGELOG entry, and tag it. don't push yet"},
    {'text': "`kubectl get pods -n prod` shows everything Running but the ingress returns 502 for /api. ingress-nginx controller v1.9.4. where should I look first, service selector? targetPort?"},
    {'text': """Plan for today:
1. finish pagination for /api/v2/orders (cursor based, not offset)
2. add an index on orders(created_at, id)
3. tests for empty page + last page
4. update the openapi spec

start with 1 and ask me before you touch the db schema"""},
    {'text': "why would `git rebase -i HEAD~5` show commits that aren't mine?? I'm on feature/payments-retry which I branched off main at 4f2a9c1"},
    {'text': "put REDIS_URL=redis://localhost:6379/2 in .env.example and make the app fail loudly on startup if it's missing\ninstead of silently defaulting to db 0"},
    {'text': "hey, can you look at why jest hangs after all tests pass? I think it's an open handle from the pg Pool in src/db/pool.ts but `--detectOpenHandles` doesn't print anything useful.\nmaybe we need a globalTeardown that calls pool.end()"},
    {'text': "convert `process_batch` (lib/sync/worker.rb:77) to use the async gem. it spawns Thread.new for every record right now and we hit the connection pool limit of 5 constantly"},
    {'text': "what's the actual difference between `uv pip install -e .` and `uv sync`? we moved off poetry last week and half the team is doing one and half the other"},
    {'text': "getting \"TypeError: Cannot read properties of undefined (reading 'map')\" on the dashboard, but only for users with zero projects. I could add a fallback on `projects.data.map` but I'd rather fix the API so it always returns [] instead of null.\n\ndo that"},
    {'text': "write a query for daily active users over the last 30 days from the events table — count distinct user_id where event_type in ('login', 'page_view'). postgres. days should be bucketed in America/New_York, not UTC"},
    {'text': "ruff is complaining about E501 all over the place since we set line-length = 100. run `ruff format` and then fix the remaining ones by hand, no `# noqa` please"},
    {'text': "docker build takes 9 minutes on CI because every change busts the cache at `COPY . .`. restructure the Dockerfile so deps get installed before copying src. node 20, pnpm 8, multi-stage would be nice"},
    {'text': "short answer pls: with noUncheckedIndexedAccess on, does indexing a `Record<string, T>` give me `T | undefined`?"},
    {'text': "can u add a /healthz endpoint that returns 200 with {\"status\": \"ok\"} and actually checks db connectivity with a 2s timeout. return 503 if the db check fails"},
    {'text': """Context: monorepo with turborepo. apps/web (next 14), apps/admin (vite + react 18), packages/ui, packages/config.

Building admin somehow pulls in next as a transitive dep and the bundle ends up at 2.4MB. I want to find out which import is dragging it in. Don't fix anything yet, just trace it and tell me the chain. My bet is something in packages/ui re-exporting from next/link or next/image. If that's it, suggest whether we should split the package into ui-core and ui-next, or use conditional exports in package.json. I'm leaning towards the split because conditional exports confused everyone last time we tried."""},
    {'text': "journalctl -u myapp shows it restarting every 30s forever. unit file is /etc/systemd/system/myapp.service. I think Restart=always plus the healthcheck script exiting 1 makes a loop. how do I get it to back off and eventually give up? RestartSec? StartLimitBurst + StartLimitIntervalSec?"},
    {'text': "mvn clean install is skipping tests and I never passed -DskipTests. can you check the pom (and the parent pom) for a surefire config doing that"},
    {'text': "add type hints to everything in utils/dates.py. we target python 3.12 so use `list[str]` and `X | None`, not `Optional[X]` or `List`"},
    {'text': "Sentry issue PAYMENTS-4F2: KeyError: 'currency' in process_refund. pretty sure it happens when the stripe webhook is a partial refund, the payload is slimmer. can you handle a missing currency by looking up the original charge instead of crashing?"},
    {'text': "make the submit button blue"},
    {'text': "no, revert that. the old behavior was correct, I misread the ticket. sorry 🙏"},
    {'text': "why does `SELECT count(*) FROM orders` take 14s? the table has ~80M rows.\n\nis there a faster approximate way in postgres? it's just for an admin dashboard counter, ±5% is totally fine"},
    {'text': "go test ./... passes locally but fails in GitHub Actions with a data race. can you run it with `-race -count=10` and look at internal/cache/lru.go? I bet the eviction goroutine touches the map without holding mu"},
    {'text': "replace every `console.log` under src/ with the logger from src/lib/log.ts. pick sensible levels, the noisy ones in the poller should be debug"},
    {'text': "bump fastapi from 0.104 to 0.115 and fix whatever breaks. I know the lifespan stuff changed, we're still using @app.on_event(\"startup\") in main.py and two routers"},
    {'text': "Is it fine to keep the JWT in localStorage or should it be an httpOnly cookie? frontend is app.example.com and the api is api.example.com. would SameSite=Lax be enough or do we need Strict + CSRF tokens"},
    {'text': "the nightly backup cron is `0 3 * * *` but the server is UTC and the team wants 3am Berlin time. just change it to the right UTC hour and leave a comment, don't bother handling DST"},
    {'text': "k9s says the worker deployment is 0/3 ready. describe shows the readiness probe failing on :8080/ready, but I'm pretty sure the app listens on 8000. check deploy/k8s/worker.yaml against the EXPOSE in the Dockerfile and the PORT env var"},
    {'text': "write me a one-liner that finds every blob > 100MB anywhere in git history. something with `git rev-list --objects --all` piped into `git cat-file --batch-check` I think, then sort by size"},
    {'text': "tsc is slow af, like 45s even incremental, ~1200 files. are project references worth the pain? or should we just do `isolatedModules` + swc for builds and only run `tsc --noEmit` in CI"},
    {'text': """few things on the PR:
- the new `parse_config()` swallows exceptions, please re-raise as ConfigError with the filename
- MAX_WORKERS should come from env, default 4
- you left a print() at cli.py:210
- need a test for an empty yaml file

otherwise lgtm"""},
    {'text': "what's the idiomatic way in rust to turn a `Vec<Result<T, E>>` into `Result<Vec<T>, E>`? I keep writing a for loop with early return and it feels wrong"},
    {'text': "htop shows one core pinned at 100% and the other 7 idle. it's the python worker, so the GIL I assume. should I move to multiprocessing or just run more processes with `gunicorn -w 4`?\n(it's mostly pandas transforms if that matters)"},
    {'text': "delete the feature flag ENABLE_NEW_CHECKOUT, it's been at 100% since march. remove the old code paths too and the tests that only cover the old flow"},
    {'text': "can you explain what `grep -v '^#' .env | awk -F= '{print $1}' | xargs` does? found it in setup.sh and nobody on the team knows why it's there"},
    {'text': "webpack → vite migration question: we have a bunch of `require.context('./svg', false, /\\.svg$/)` calls in src/icons/index.js. what's the vite equivalent, `import.meta.glob`? eager or not?"},
    {'text': "df -h says / is at 97% on the build box. what are the usual suspects? docker images probably. give me safe cleanup commands, I do NOT want to nuke the named volumes"},
    {'text': "redis is at 3.8GB out of 4GB maxmemory and the policy is noeviction, so writes will start failing soon. how do I find the big keys? is `redis-cli --bigkeys` safe on prod or does it block like KEYS *"},
    {'text': "eslint keeps flagging react-hooks/exhaustive-deps on the useCallback at Search.tsx:64. adding `filters` to the deps array causes an infinite render loop. what's the right fix here, useRef? useMemo on filters upstream?"},
    {'text': "Could you write a GitHub Actions workflow that runs pytest on 3.10, 3.11 and 3.12 as a matrix, caches pip, and uploads coverage to codecov only from the 3.12 job?"},
    {'text': "psql connects fine with `psql -h db.internal -U app appdb` but the app gets 'FATAL: password authentication failed for user \"app\"' with the exact same creds from the same k8s secret. what am I missing? pg_hba? scram-sha-256 vs md5? trailing newline in the secret maybe"},
    {'text': "add pagination to the listUsers resolver. default limit 20, max 100"},
    {'text': "pretty sure there's an off by one in `for i in range(1, len(items))` at batching.py:33 — the first item is always skipped. confirm, fix it, add a regression test"},
    {'text': "gcloud run deploy keeps serving the old image even though I pushed a new one tagged latest. should I deploy by digest? how do I get the digest out of `gcloud artifacts docker images list`"},
    {'text': "we need rate limiting on POST /login: 5 attempts per 15 min per IP, and 10 per hour per username. express + redis. don't pull in some npm package that hasn't been touched since 2019"},
    {'text': "what does `?` do on an Option inside a fn that returns Result? the compiler yells at me about From not being implemented"},
    {'text': """Here's how perf looks after your change (ran each 3x myself with k6 and averaged):

| endpoint | p95 before | p95 after |
| --- | --- | --- |
| GET /feed | 340ms | 120ms |
| GET /profile | 95ms | 90ms |
| POST /comment | 210ms | 480ms |

feed is great but POST /comment got way worse. my guess is the new SERIALIZABLE isolation level on that transaction. can you check?"""},
    {'text': "curl works but the same request from axios gets a CORS error. server sends `Access-Control-Allow-Origin: *` but we're sending credentials, I know that's the problem. just make the server echo the Origin back if it's in an allowlist from CORS_ORIGINS"},
    {'text': "hi! first time using this 👋 I have a flask app, one app.py with ~400 lines, and I'd like to split it into blueprints. where do I start? I don't want to break the existing urls"},
    {'text': "poetry lock takes forever (20+ min) resolving boto3/botocore. should I pin botocore to something specific? we're on boto3 1.34.x"},
    {'text': "the `@Transactional` on OrderService.placeOrder doesn't roll back when InventoryException is thrown. it's a checked exception. is this the rollbackFor thing?"},
    {'text': "make `make test` run just the unit tests, and add a `make test-integration` target for the rest. integration tests are marked with @pytest.mark.integration"},
    {'text': "what's 99.9% uptime in minutes per month again? need it for the SLO doc. and 99.95%"},
    {'text': "Refactor the big switch in reducer.ts into a map of handlers keyed by `action.type`. Keep an exhaustiveness check with `never` so TS complains if someone adds an action and forgets the handler."},
    {'text': "can you check if we're leaking goroutines in the websocket hub? runtime.NumGoroutine() climbs from ~50 to 12k over a day. files are hub.go and client.go, I suspect writePump never exits when the client disconnects uncleanly"},
    {'text': "`FOO=bar npm run dev` doesn't work on windows for my coworker. cross-env or dotenv? we already have dotenv in deps"},
    {'text': "update the nginx config: /api/ should proxy to localhost:3001, everything else serves /var/www/app/dist with try_files falling back to /index.html. also gzip for js/css/svg and client_max_body_size 20m"},
    {'text': "ugh ok the staging deploy broke again. last good commit is a1b2c3d, first bad is 9e8f7d6, about 14 commits between. can you git bisect using `npm run test:e2e -- --grep checkout` as the check"},
    {'text': "doesn't mypy narrow after `if not isinstance(x, str): raise TypeError(...)`? I thought it did. then why does it complain about x at models.py:88"},
    {'text': "Write a ruby method that takes a hash like `{ a: 1, b: { c: 2, d: { e: 3 } } }` and flattens it to `{ 'a' => 1, 'b.c' => 2, 'b.d.e' => 3 }`. recursion is fine, arrays can stay as values"},
    {'text': "please don't use `any` in the new types. `unknown` and narrow it"},
    {'text': "stop adding a comment on every single line 😅 only comment the non-obvious stuff"},
    {'text': "our ALB health checks are interval 30s, healthy threshold 2, timeout 5s, and deregistration delay is the default 300s. deploys take forever. what's reasonable for a service that boots in about 8s?"},
    {'text': "vitest: `vi.mock('../api')` doesn't seem to apply when the component imports from the barrel file src/api/index.ts. the real module runs. ideas?\n\nwe're on vitest 1.6 if it matters"},
    {'text': "gradle build fails only on the arm64 CI runner. jdk 21, gradle 8.5, protobuf plugin 0.9.4 with protoc 3.25.1. any known issue with protoc artifacts on aarch64 linux?"},
    {'text': "In `UserRepo.find_by_email` we lowercase the input, but the column has mixed-case emails from the old import. Add a migration that lowercases existing emails and adds a unique index on lower(email). \nWatch out for dupes — log them, don't delete anything."},
    {'text': "wait why did you change the port to 8080? I said keep 3000"},
    {'text': "can you write a small go CLI with cobra: `sync --from s3://bucket/prefix --to ./local --concurrency 8`. show a progress bar, skip files whose etag matches the local md5"},
    {'text': "add retries to `fetchJson` in lib/http.ts: 3 attempts, exponential backoff starting at 200ms with jitter, only on 5xx and network errors, never on 4xx"},
    {'text': "docker compose stack won't come up. postgres container is healthy but the api container exits with code 137. that's OOM right? docker desktop only has 2GB allocated"},
    {'text': """Rewrite the install section of the README. steps should be:
1. clone
2. `cp .env.example .env`
3. `docker compose up -d db`
4. `uv sync`
5. `uv run alembic upgrade head`
6. `uv run uvicorn app.main:app --reload`

mention python 3.11+ is required and that port 8000 must be free"""},
    {'text': "bug: `price * quantity` gives 19.999999999 for 3 × 6.6667. we should be using Decimal for money everywhere under checkout/. find all the floats and tell me before changing them"},
    {'text': "what is `Box<dyn Error + Send + Sync + 'static>` actually, and when do I need all of those bounds vs just `Box<dyn Error>`"},
    {'text': "set up pre-commit with ruff, ruff-format, mypy (strict only for src/core), and a hook that stops anyone committing .env files"},
    {'text': "the aws cli says my session token expired but I literally just ran `aws sso login --profile dev` a minute ago. AWS_PROFILE=dev is exported, ~/.aws/config has an sso_session block. what gives? could an old AWS_ACCESS_KEY_ID in my shell be winning?"},
    {'text': "let's do the thing we talked about yesterday: move feature flags off LaunchDarkly into our own table. schema only for now, no code"},
    {'text': "in the Sidebar component the collapsed state should persist in localStorage under `sidebar:collapsed`. default expanded on desktop (>= 1024px), collapsed on mobile.\nalso don't flash on first render"},
    {'text': "top shows load average ~24 on a 4 vCPU box but cpu usage is only 30%. that's io wait right? how do I confirm, iostat -x? which column"},
    {'text': "generate a k8s CronJob that runs `python -m jobs.reindex` every 6h. concurrencyPolicy: Forbid, backoffLimit: 2, requests 250m/256Mi, limits 1 cpu/1Gi. namespace search"},
    {'text': """repro for the 2FA bug:
1. log in as a user with 2FA enabled
2. go to /settings/security
3. click "disable 2FA"
4. enter a wrong code
5. enter the right code

→ step 5 also says "invalid code", it only works after a page refresh. probably the nonce isn't regenerated after a failed attempt. look at auth/twofa.py"""},
    {'text': "what's the least ugly way to do `a?.b?.c` in Go? I've got like 4 levels of nested pointer structs from the generated protobuf code. the GetX() getters handle nil right?"},
    {'text': "make the errors on the signup form human friendly. \"ValidationError: email must match pattern\" is not something a user should ever see"},
    {'text': "explain to me like I'm a frontend dev what the WAL is and why our postgres disk filled up with pg_wal when the replica went down for a weekend"},
    {'text': "for the csv export: use ; as the delimiter when the locale is de-DE and , otherwise. excel in germany chokes on commas. also prepend a UTF-8 BOM so umlauts don't break"},
    {'text': "i need a regex for semver: should match 1.2.3, v1.2.3, 1.2.3-rc.1, 1.2.3+build.5 but not 1.2 or 01.2.3"},
    {'text': "we get 429s from the github api in the release script. it uses the GITHUB_TOKEN from actions which is 1000 req/hr and we make maybe 300 calls. secondary rate limit? add handling that respects retry-after and x-ratelimit-reset"},
    {'text': "Add a `--json` flag to `mytool status` that prints machine readable output. keys: version, uptime_seconds, healthy (bool), checks (list of {name, ok, message}). exit code stays the same"},
    {'text': "sorry one more: the date picker shows yesterday for users west of UTC. is this the classic `new Date('2024-03-10')` parsing as UTC midnight thing?"},
    {'text': "🔥 PROD IS DOWN. 503 on everything. last deploy was 12 min ago, commit 7c3e1f0. roll back first, investigate after. `kubectl rollout undo deployment/api -n prod` is enough or do I need --to-revision?"},
    {'text': "let's build a generic `Result<T, E>` type in TS like rust's, with map, andThen, unwrapOr, match. no classes — discriminated union on `ok: true | false` plus plain functions"},
    {'text': "could `session.commit()` inside the loop in import_users.py be why it's so slow? 50k rows takes 40 minutes. bulk_insert_mappings? or commit every 1000"},
    {'text': "In the Makefile, `deploy` depends on `build`, but `build` isn't in .PHONY, so make skips it if a file called build exists... which it now does because someone added a build/ directory.\n\nfix it"},
    {'text': "the ruby 3.3 upgrade broke a bunch of specs with `ArgumentError: wrong number of arguments (given 1, expected 0)` wherever we do `OpenStruct.new(hash)` through our wrapper. is it the keyword args separation thing? spec/support/fake_response.rb is where the wrapper lives"},
    {'text': "translate the strings in src/locales/en.json into es and pt-BR. leave the {{placeholders}} untouched and keep the keys in the same order so diffs stay readable"},
    {'text': "hmm the numbers look off. the dashboard says 1,204 signups last week but your query gives 1,391. are you counting soft-deleted users? add `deleted_at IS NULL`"},
    {'text': "I'd like a script that checks TLS certs for all our domains and warns if any expire in < 21 days. domain list is infra/domains.txt, one per line. use `openssl s_client` + `openssl x509 -enddate`, post warnings to the slack webhook in SLACK_WEBHOOK_URL"},
    {'text': "terraform plan wants to REPLACE the rds instance because engine_version went 15.4 → 15.5. I don't want a replace!!\nit's a minor version, why isn't it update-in-place? apply_immediately? auto_minor_version_upgrade fighting with us?"},
    {'text': "look through src/server/routes/*.ts and list every route that doesn't go through the requireAuth middleware. don't change anything, just give me the list with file:line"},
    {'text': "good defaults for pool_size and max_overflow in sqlalchemy with 4 gunicorn workers and postgres max_connections=100? there's also celery with concurrency=8 on 2 boxes hitting the same db"},
    {'text': "laravel question — `php artisan migrate` on prod says \"Nothing to migrate\" but the column clearly isn't there. the migrations table says it ran. someone must've rolled back by hand. how do I force just that one migration to rerun"},
    {'text': "elixir: my GenServer handle_call times out after the default 5000ms when the db is slow. bump the timeout, or switch to cast + GenServer.reply later? the caller does need the result"},
    {'text': "our .github/workflows/deploy.yml runs on every push to every branch. it should only run for main and tags matching v*. also add `concurrency: deploy-${{ github.ref }}` so two deploys can't overlap"},
    {'text': "For the job queue table, do we want `SELECT ... FOR UPDATE SKIP LOCKED` or advisory locks? ~200 jobs/sec, 10 workers, postgres 16"},
    {'text': "I profiled it in speedscope and ~60% of the request time is in json.dumps. switch to orjson? any gotchas with datetime, Decimal, or our custom JSONEncoder subclass"},
    {'text': "ok that worked. now do the same for the other 3 services"},
    {'text': "I'm getting \"ModuleNotFoundError: No module named 'app'\" when running pytest from the repo root, but not from inside src/. pythonpath in pyproject? conftest.py at the root? what's the cleanest"},
    {'text': "write a systemd timer that runs /opt/backup/run.sh daily at 02:30 with Persistent=true so it catches up after a reboot. plus the matching .service with User=backup and a sane TimeoutStartSec"},
    {'text': "how should I structure error handling in the new axum service? thiserror for library errors and anyhow at the edges? and `impl IntoResponse for AppError` mapping to status codes"},
    {'text': """help me write the incident summary for yesterday. timeline:
- 14:02 UTC redis cache cluster failover
- 14:02–14:19 elevated latency, p99 up to 4.2s
- 14:19 recovered

root cause: maxmemory-policy got reset to the default after the 7.2 upgrade. action items TBD. keep it short and non-blamey"""},
    {'text': "is it normal that `npm ci` takes 4 min and `pnpm install --frozen-lockfile` takes 40s on the same repo? want some ammo for switching in the eng meeting on thursday"},
    {'text': "make sure `DELETE /projects/:id` is a soft delete (sets deleted_at) and every list query filters those out. is there a default-scope thing in prisma or do we need a middleware / client extension"},
    {'text': """help me decide, I put this together:

| option | cost/mo | effort | risk |
|---|---|---|---|
| RDS Multi-AZ | ~$420 | low | low |
| Aurora Serverless v2 | $200-600 | medium | medium |
| self-hosted pg on EC2 | ~$150 | high | high |

we're 3 devs, no dedicated ops person, and traffic is spiky (10x at 9am). what would you pick and why"""},
    {'text': "\"AbortError: The user aborted a request.\" shows up in Sentry thousands of times a day, it's just people navigating away mid-fetch. filter it in beforeSend, but ONLY that one, not other AbortErrors from our own timeouts"},
    {'text': "add `--since` support to the log viewer, parse durations like 30s, 5m, 2h, 1d, and reject garbage like 5x or -3m with a clear message"},
    {'text': "can you sanity check my approach? cache getPermissions(userId) in-process with a 60s TTL (LRU, max 10k entries) and bust it via redis pubsub when roles change. too clever? what happens if a pubsub message is dropped"},
    {'text': """long-ish one. building a webhook receiver in Go. requirements:
- verify the HMAC-SHA256 signature from the X-Signature header (hex), secret in WEBHOOK_SECRET
- reject if X-Timestamp is older than 5 min
- idempotency: dedupe on X-Event-Id, store seen ids in redis with a 24h TTL
- respond 202 fast, process async via a buffered channel (size 1000)
- graceful shutdown drains the channel, max 30s
- use hmac.Equal, not ==

net/http only, no frameworks. put it in cmd/webhooks/main.go + internal/webhooks/"""},
    {'text': "lol the test literally asserts `expect(true).toBe(true)`. who wrote this. write real tests for formatCurrency, including negative numbers and JPY (no decimals)"},
    {'text': "Can you double check the math in calcProration? if someone upgrades on day 10 of a 30 day cycle from the $20 plan to the $50 plan they should pay (50 - 20) * 20/30 = $20. I think we're charging $30, i.e. not prorating at all"},
    {'text': "for an 8GB box, is `max_connections = 200` and `shared_buffers = 2GB` sane in postgresql.conf? what about work_mem, I've seen people say 64MB and others say that's insane with 200 conns"},
    {'text': "status check: what's left on the list? I think we finished auth + billing but not notifications"},
    {'text': "see https://github.com/vercel/next.js/discussions/46722 — is that the same issue we have with `revalidatePath` not clearing the router cache? we're on next 14.1.0, app router"},
    {'text': "the docs at https://docs.python.org/3/library/asyncio-task.html#asyncio.TaskGroup say the group cancels the rest when one task fails. I want the opposite, let them all finish and collect errors. gather(return_exceptions=True)? or ExceptionGroup + except*"},
    {'text': "hola, sorry my english. the endpoint /v1/invoices/{id}/pdf return 500 only for invoices with accents in the customer name (like José). i think is the Content-Disposition header encoding. can you fix using filename* = UTF-8''..."},
    {'text': "WHY does prettier and eslint keep fighting over trailing commas. install eslint-config-prettier and remove every formatting rule from .eslintrc.cjs.\n\nI'm done 🙃"},
    {'text': """Some background before you start, because this one is subtle.

We have an `OrderAggregate` in services/orders/domain/aggregate.go that gets rebuilt from events on every request. It was fine at 20 events per order but some B2B orders now have 3000+ events (every line item edit is an event), and loading one takes ~900ms. I'd like to add snapshots: every 100 events, persist the aggregate state to an order_snapshots table with (order_id, version, state jsonb, created_at), and on load start from the latest snapshot and replay only newer events.

Constraints: the snapshot schema has to be versioned (SnapshotVersion = 1) so we can change the struct later without breaking old rows, and if deserializing a snapshot fails we fall back to a full replay and log a warning rather than erroring. Don't touch the event store interface. Write tests for the fallback path too."""},
    {'text': "one thing I don't get — in the helm chart why is `replicaCount: 3` in values.yaml but we end up with 5 pods? is the HPA overriding it? minReplicas is 5 in templates/hpa.yaml i think"},
    {'text': "Can you add a `--parallel N` option to run_migrations.py? tenants are independent so we can migrate them concurrently, but cap it at 8 because each one opens 2 connections and RDS max is ~90"},
    {'text': "i keep seeing `SIGPIPE` kill my script when I do `./gen.sh | head -n 5`. set -o pipefail is on. is that why? how do I make it not care"},
    {'text': "Could you write a short ADR (docs/adr/0007-use-sqlc.md) about switching from gorm to sqlc? reasons: we hit N+1s constantly, gorm hooks surprised us twice in prod, and we want compile time checked queries. mention the downside that dynamic filters get annoying"},
    {'text': "remove the `// @ts-ignore` at src/components/Chart.tsx:12 and fix the actual type. it's because recharts' Tooltip formatter is typed as `(value: ValueType, name: NameType) => ...`"},
    {'text': "thx! that's exactly what I wanted 👍"},
    {'text': "mypy --strict on src/core gives like 140 errors. don't fix them all, just do src/core/pricing/ first and add the rest to a per-module ignore_errors = true override so CI goes green, we'll chip away at it"},
    {'text': "what's the difference between SIGTERM and SIGKILL from k8s' perspective, and how long is terminationGracePeriodSeconds by default? our uvicorn workers drop in-flight requests on deploy"},
    {'text': "Please make the `/search` endpoint debounce-friendly on the server side: if the same user sends a new query, cancel the in-flight one. we use FastAPI + asyncpg. ctx cancellation pattern like in Go would be nice but idk how in python"},
    {'text': "can you check what version of openssl the python in the docker image links against? `python -c \"import ssl; print(ssl.OPENSSL_VERSION)\"` I mean, run it and tell me. we need >= 3.0 for the new cipher config"},
    {'text': """I need to think through multi-tenancy for the new Next.js app before we write more code, so treat this as a design conversation, not an implementation task yet.

Current state: single Postgres db, every table has an org_id column, and we filter by it manually in each query in src/server/db/*.ts. Twice now someone forgot the `where(eq(t.orgId, ctx.orgId))` and we leaked data between orgs in staging (thankfully not prod). Auth is next-auth v5 with the org id stuffed into the session token.

Options I can see:
1. Postgres row level security with `SET app.current_org = ...` per transaction
2. a wrapper around drizzle that injects the org filter automatically
3. schema-per-tenant (we have ~300 orgs, expected 2k by end of year)

I'm leaning towards 1 because it fails closed, but I'm worried about connection pooling with pgbouncer in transaction mode and whether SET LOCAL plays nicely with that. Also not sure how painful migrations get. Can you lay out the tradeoffs honestly, tell me what you'd pick, and list what would have to change in the codebase? Keep it under a page if you can."""},
    {'text': """release checklist for v4.0.0, go through it with me and do the ones you can:

- [ ] bump version in Cargo.toml (workspace + all 6 crates)
- [ ] update MSRV to 1.75 in README and clippy.toml
- [ ] regenerate CHANGELOG from conventional commits since v3.9.2
- [ ] remove the deprecated `Client::connect_insecure`
- [ ] make sure `cargo publish --dry-run` works for each crate in dependency order
- [ ] docs.rs feature flags: all-features = true
- [ ] write the migration guide section for the `Error` enum becoming #[non_exhaustive]

skip the crates.io publish itself, I'll do that by hand
thanks!"""},
    {'text': """settings for the load test:
users=500
spawn_rate=25
duration=10m
host=https://staging.example.com

write a locustfile that logs in once per user (POST /api/login) and then loops GET /api/feed and GET /api/notifications with a 1-3s wait. read creds from LOADTEST_USER / LOADTEST_PASS"""},
    {'text': "just run `pnpm lint --fix` pls"},
]
