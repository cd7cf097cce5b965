"""A third split for the recall evaluation (issue #12): questions typed around pasted output.

Written blind on 2026-12-02 by a session that saw neither this repository nor the other splits' prompts,
only the lessons of bench/recall_data.py: for 16 lessons none of whose prompts had a paste, one
prompt each made of a person's question and the output they would paste (tracebacks, CI and test
logs, kubectl, terraform, curl, Mongo logs, diffs), and 16 unrelated prompts of the same shape about
everyday problems no lesson is about (a Rust borrow error, a LaTeX build, a pandas warning, a Go nil
map, an Xcode signing failure...). The memory is recall_data's, whole. Not edited after; run it with

    .venv/bin/python bench/recall_eval.py --data recall_pasted --out bench/RESULTS-recall-pasted.md
"""

from __future__ import annotations

import recall_data

CASES = [{'kind': 'relevant',
  'labels': ['request-timeout-upstream-budget'],
  'text': 'api was basically dead for ~10 min around noon, every request hung and then the LB started handing out '
          '502s. this is from one of the pods:\n'
          '\n'
          '[2024-05-14 12:03:41 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:38)\n'
          '[2024-05-14 12:03:41 +0000] [38] [ERROR] Error handling request /api/v1/stores/nearby?lat=52.37&lng=4.89\n'
          'Traceback (most recent call last):\n'
          '  File "/usr/local/lib/python3.12/site-packages/gunicorn/workers/sync.py", line 135, in handle\n'
          '    self.handle_request(listener, req, client, addr)\n'
          '  File "/usr/local/lib/python3.12/site-packages/gunicorn/workers/sync.py", line 178, in handle_request\n'
          '    respiter = self.wsgi(environ, resp.start_response)\n'
          '  File "/app/src/api/stores.py", line 88, in nearby\n'
          '    place = geocode(lat, lng)\n'
          '  File "/app/src/http/client.py", line 41, in geocode\n'
          '    resp = session.get(GEOCODER_URL, params=params)\n'
          '  File "/usr/local/lib/python3.12/site-packages/requests/sessions.py", line 602, in get\n'
          '    return self.request("GET", url, allow_redirects=allow_redirects, **kwargs)\n'
          '  File "/usr/local/lib/python3.12/ssl.py", line 1251, in recv_into\n'
          '    return self.read(nbytes, buffer)\n'
          '  File "/usr/local/lib/python3.12/site-packages/gunicorn/workers/base.py", line 204, in handle_abort\n'
          '    sys.exit(1)\n'
          'SystemExit: 1\n'
          '[2024-05-14 12:03:41 +0000] [38] [INFO] Worker exiting (pid: 38)\n'
          '[2024-05-14 12:03:42 +0000] [52] [INFO] Booting worker with pid: 52\n'
          '[2024-05-14 12:03:43 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:41)\n'
          '[2024-05-14 12:03:43 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:44)\n'
          '\n'
          'the geocoder vendor\'s status page says they were "degraded" at that time but why does that take down '
          'literally everything on our side?'},
 {'kind': 'relevant',
  'labels': ['pod-disruption-budget-drain'],
  'text': 'the gke node upgrade this morning took the api completely offline for ~2 min. i drained the next node by '
          'hand to watch what happens:\n'
          '\n'
          '$ kubectl drain gke-prod-pool-2-8f3a1c2e-x7kq --ignore-daemonsets --delete-emptydir-data\n'
          'node/gke-prod-pool-2-8f3a1c2e-x7kq cordoned\n'
          'Warning: ignoring DaemonSet-managed Pods: kube-system/fluentbit-gke-4bq9z, '
          'kube-system/gke-metrics-agent-v2d8m, kube-system/pdcsi-node-7tq2k\n'
          'evicting pod prod/api-7d9f8b6c5-2xkqp\n'
          'evicting pod prod/api-7d9f8b6c5-9mzt4\n'
          'evicting pod prod/api-7d9f8b6c5-hq7wn\n'
          'evicting pod prod/worker-5c6b7d8f9-lp2rs\n'
          'pod/api-7d9f8b6c5-2xkqp evicted\n'
          'pod/api-7d9f8b6c5-9mzt4 evicted\n'
          'pod/api-7d9f8b6c5-hq7wn evicted\n'
          'pod/worker-5c6b7d8f9-lp2rs evicted\n'
          'node/gke-prod-pool-2-8f3a1c2e-x7kq drained\n'
          '\n'
          '$ kubectl get pods -n prod -l app=api\n'
          'NAME                  READY   STATUS              RESTARTS   AGE\n'
          'api-7d9f8b6c5-4kd8s   0/1     ContainerCreating   0          9s\n'
          'api-7d9f8b6c5-b7xqj   0/1     ContainerCreating   0          9s\n'
          'api-7d9f8b6c5-rr2nm   0/1     Pending             0          9s\n'
          '\n'
          'all three gone in the same second. how do people do node upgrades without an outage?'},
 {'kind': 'relevant',
  'labels': ['state-url-search-params'],
  'text': 'support can never reproduce what customers see on the orders page when they send us a link. wrote a quick '
          'playwright test and yep, after a reload the filter just resets:\n'
          '\n'
          '  1) [chromium] › orders/filters.spec.ts:24:7 › orders list › keeps status filter after reload ──────\n'
          '\n'
          '    Error: Timed out 5000ms waiting for expect(locator).toHaveValue(expected)\n'
          '\n'
          "    Locator: getByRole('combobox', { name: 'Status' })\n"
          '    Expected string: "refunded"\n'
          '    Received string: "all"\n'
          '    Call log:\n'
          '      - expect.toHaveValue with timeout 5000ms\n'
          "      - waiting for getByRole('combobox', { name: 'Status' })\n"
          '      -   locator resolved to <select id="status-filter" name="status">…</select>\n'
          '      -   unexpected value "all"\n'
          '\n'
          '      30 |     await page.reload();\n'
          '      31 |\n'
          "    > 32 |     await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('refunded');\n"
          '         |                                                                  ^\n'
          "      33 |     await expect(page.getByTestId('order-row')).toHaveCount(3);\n"
          '      34 |   });\n'
          '\n'
          '        at /home/dev/shop/web/e2e/orders/filters.spec.ts:32:66\n'
          '\n'
          '  1 failed\n'
          '    [chromium] › orders/filters.spec.ts:24:7 › orders list › keeps status filter after reload\n'
          '\n'
          "the filter values come from our useFilters hook. what's the right way to make this survive?"},
 {'kind': 'relevant',
  'labels': ['pre-commit-ruff-version-pin'],
  'text': '$ git commit -m "add csv export endpoint"\n'
          'ruff.....................................................................Failed\n'
          '- hook id: ruff\n'
          '- files were modified by this hook\n'
          '\n'
          'Found 1 error (1 fixed, 0 remaining).\n'
          '\n'
          'ruff-format..............................................................Passed\n'
          'check yaml...........................................(no files to check)Skipped\n'
          '\n'
          '$ git diff\n'
          'diff --git a/src/reports/export.py b/src/reports/export.py\n'
          'index 3c1e9a2..7b40d11 100644\n'
          '--- a/src/reports/export.py\n'
          '+++ b/src/reports/export.py\n'
          '@@ -1,9 +1,9 @@\n'
          ' from __future__ import annotations\n'
          '\n'
          ' import datetime as dt\n'
          ' \n'
          ' import orjson\n'
          '-from src.reports import csv_writer\n'
          ' \n'
          '+from src.reports import csv_writer\n'
          ' from src.reports.models import ReportRow\n'
          '\n'
          "this is like the 5th time this week. the hook moves these imports, then priya's next PR moves them back, "
          "then mine flips them again. `uv run ruff check .` locally says all good 🤷 who's right?"},
 {'kind': 'relevant',
  'labels': ['ci-timeout-minutes-jobs'],
  'text': 'who ate all our actions minutes?? found this integration run from monday, it just sat on one test for ~6 '
          'hours:\n'
          '\n'
          'integration-tests / integration (ubuntu-latest)\n'
          'Cancelled after 6h 0m 31s\n'
          '\n'
          '2024-06-03T09:14:21.7310551Z tests/integration/test_ledger_sync.py::test_sync_single_account PASSED [ '
          '60%]\n'
          '2024-06-03T09:14:22.4810273Z tests/integration/test_ledger_sync.py::test_sync_handles_concurrent_refunds '
          'PASSED [ 61%]\n'
          '2024-06-03T09:14:22.9920417Z tests/integration/test_ledger_sync.py::test_sync_parallel_accounts \n'
          '2024-06-03T15:02:51.0871443Z ##[error]The job running on runner GitHub Actions 14 has exceeded the '
          'maximum execution time of 360 minutes.\n'
          '2024-06-03T15:02:51.1290063Z ##[error]The operation was canceled.\n'
          '2024-06-03T15:02:51.1372990Z Post job cleanup.\n'
          '2024-06-03T15:02:51.1829110Z Cleaning up orphan processes\n'
          '2024-06-03T15:02:51.1901337Z Terminate orphan process: pid (2291) (python)\n'
          '2024-06-03T15:02:51.1955020Z Terminate orphan process: pid (2318) (postgres)\n'
          '\n'
          'nobody noticed because it never went red, just yellow the whole day. how do we stop this from happening '
          'again?'},
 {'kind': 'relevant',
  'labels': ['vite-env-prefix-exposed'],
  'text': 'ran gitleaks over the build artifact for the security review and it found a live stripe key in the '
          'frontend js?? the key only lives in web/.env\n'
          '\n'
          '$ gitleaks detect --no-git --source web/dist -v\n'
          '\n'
          '    ○\n'
          '    │╲\n'
          '    │ ○\n'
          '    ○ ░\n'
          '    ░    gitleaks\n'
          '\n'
          'Finding:     ...,Y5="https://api.shop.example",K8="sk_live_51NxQ2LJr8...\n'
          'Secret:      sk_live_51NxQ2LJr8Zk0pT4vW9mBq7cXeH3dYs\n'
          'RuleID:      stripe-access-token\n'
          'Entropy:     4.871223\n'
          'File:        web/dist/assets/index-4f9c2a1b.js\n'
          'Line:        1\n'
          'Fingerprint: web/dist/assets/index-4f9c2a1b.js:stripe-access-token:1\n'
          '\n'
          '10:42AM INF scan completed in 61.3ms\n'
          '10:42AM WRN leaks found: 1\n'
          '\n'
          '$ grep -rn "import.meta.env" web/src/lib/payments.ts\n'
          'web/src/lib/payments.ts:4:const stripeKey = import.meta.env.VITE_STRIPE_SECRET_KEY\n'
          '\n'
          'how does that even end up in dist?'},
 {'kind': 'relevant',
  'labels': ['sql-n-plus-one-detection'],
  'text': 'all i did was add the customer name column to the admin orders table and now this blows up. flaky or '
          'real?\n'
          '\n'
          '$ uv run pytest tests/api/test_orders.py -x\n'
          '============================= test session starts ==============================\n'
          'collected 14 items\n'
          '\n'
          'tests/api/test_orders.py .......F\n'
          '\n'
          '=================================== FAILURES ===================================\n'
          '_____________________ test_admin_orders_list_renders_rows ______________________\n'
          'tests/api/test_orders.py:57: in test_admin_orders_list_renders_rows\n'
          '    resp = client.get("/admin/orders?page_size=50")\n'
          '.venv/lib/python3.12/site-packages/starlette/testclient.py:499: in get\n'
          '    return super().get(\n'
          'tests/conftest.py:112: in _check_query_count\n'
          '    raise QueryBudgetExceeded(\n'
          'E   tests.conftest.QueryBudgetExceeded: GET /admin/orders executed 53 SQL queries (max 30)\n'
          'E     most repeated (x50): SELECT customers.id, customers.name, customers.email\n'
          'E       FROM customers WHERE customers.id = %(pk_1)s::UUID\n'
          '=========================== short test summary info ============================\n'
          'FAILED tests/api/test_orders.py::test_admin_orders_list_renders_rows - '
          'tests.conftest.QueryBudgetExceeded: GET /admin/orders executed 53 SQL queries (max 30)\n'
          '!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n'
          '========================= 1 failed, 7 passed in 3.81s =========================='},
 {'kind': 'relevant',
  'labels': ['subscription-proration-webhooks'],
  'text': "customer paid for pro on monday, stripe shows the invoice as paid, but they're still on starter in our "
          "db. here's everything we logged for them:\n"
          '\n'
          '$ kubectl logs -n prod deploy/api --since=48h | grep cus_Q2hT8sLk1\n'
          '2024-05-20T14:31:07Z INFO  POST /billing/checkout 200 customer=cus_Q2hT8sLk1 plan=pro '
          'session=cs_live_a1B2c3D4e5\n'
          '2024-05-20T14:32:18Z INFO  POST /webhooks/stripe 200 event=checkout.session.completed '
          'customer=cus_Q2hT8sLk1\n'
          '2024-05-20T14:32:19Z INFO  POST /webhooks/stripe 200 event=invoice.paid customer=cus_Q2hT8sLk1 '
          'handled=ignored\n'
          '2024-05-20T14:32:19Z INFO  POST /webhooks/stripe 200 event=customer.subscription.updated '
          'customer=cus_Q2hT8sLk1 handled=ignored\n'
          '\n'
          "app=> select id, email, plan, plan_updated_at from accounts where stripe_customer_id = 'cus_Q2hT8sLk1';\n"
          '  id   |       email       |  plan   |    plan_updated_at\n'
          '-------+-------------------+---------+------------------------\n'
          ' 48213 | ops@brightlane.io | starter | 2024-01-09 10:12:44+00\n'
          '(1 row)\n'
          '\n'
          "every other upgrade that day went through fine. what's different about this one?"},
 {'kind': 'relevant',
  'labels': ['log-retention-loki-cost'],
  'text': 'the storage bill for logs is ~6x last month and finance is asking me why. broke the last 24h down by '
          'app/level:\n'
          '\n'
          '$ logcli instant-query \'sum by (app, level) (bytes_over_time({env="production"}[24h]))\'\n'
          '[\n'
          '  {\n'
          '    "metric": { "app": "api", "level": "debug" },\n'
          '    "value": [ 1716192000, "1873420118016" ]\n'
          '  },\n'
          '  {\n'
          '    "metric": { "app": "worker", "level": "debug" },\n'
          '    "value": [ 1716192000, "612984337408" ]\n'
          '  },\n'
          '  {\n'
          '    "metric": { "app": "api", "level": "info" },\n'
          '    "value": [ 1716192000, "288113504256" ]\n'
          '  },\n'
          '  {\n'
          '    "metric": { "app": "api", "level": "error" },\n'
          '    "value": [ 1716192000, "1932735283" ]\n'
          '  }\n'
          ']\n'
          '\n'
          'is that debug stuff supposed to be there in prod? and how long does all of this stick around anyway?'},
 {'kind': 'relevant',
  'labels': ['grafana-dashboard-as-code'],
  'text': 'spent an hour yesterday fixing the panels on the API latency dashboard (units, p99 thresholds), hit save, '
          "and this morning everything's back to the old version. version history:\n"
          '\n'
          '$ curl -s -H "Authorization: Bearer $GRAFANA_TOKEN" '
          "https://grafana.internal/api/dashboards/uid/api-latency/versions | jq '.[0:3]'\n"
          '[\n'
          '  {\n'
          '    "id": 311,\n'
          '    "dashboardId": 27,\n'
          '    "version": 15,\n'
          '    "created": "2024-05-21T08:02:13Z",\n'
          '    "createdBy": "Anonymous",\n'
          '    "message": ""\n'
          '  },\n'
          '  {\n'
          '    "id": 309,\n'
          '    "dashboardId": 27,\n'
          '    "version": 14,\n'
          '    "created": "2024-05-20T16:44:51Z",\n'
          '    "createdBy": "jkowalski",\n'
          '    "message": "fix p99 panel units + thresholds"\n'
          '  }\n'
          ']\n'
          '\n'
          '08:02 is exactly when the deploy ran. did the deploy wipe it? can i get v14 back?'},
 {'kind': 'relevant',
  'labels': ['statsd-to-otel-metrics'],
  'text': 'shipped a coupon counter on tuesday. coupons are definitely being used (orders table has hundreds since) '
          "but there's nothing in prometheus / grafana and no errors anywhere.\n"
          '\n'
          'diff --git a/src/billing/coupons.py b/src/billing/coupons.py\n'
          'index 9d2c1f0..e41a7b3 100644\n'
          '--- a/src/billing/coupons.py\n'
          '+++ b/src/billing/coupons.py\n'
          '@@ -3,6 +3,7 @@ from decimal import Decimal\n'
          ' \n'
          ' from src.billing.models import Coupon\n'
          '+from src.metrics import statsd\n'
          ' \n'
          '@@ -41,6 +42,7 @@ def apply_coupon(order, code: str) -> Decimal:\n'
          '     discount = coupon.discount_for(order.subtotal)\n'
          '+    statsd.incr("billing.coupon_applied")\n'
          '     return discount\n'
          '\n'
          "$ curl -s 'http://prometheus.monitoring:9090/api/v1/query?query=billing_coupon_applied_total' | jq\n"
          '{\n'
          '  "status": "success",\n'
          '  "data": {\n'
          '    "resultType": "vector",\n'
          '    "result": []\n'
          '  }\n'
          '}\n'
          '\n'
          'copied the pattern from the old checkout code, which i thought had working graphs. what am i missing?'},
 {'kind': 'relevant',
  'labels': ['terraform-state-lock-dynamodb'],
  'text': '$ terraform apply -target=module.vpc\n'
          'Acquiring state lock. This may take a few moments...\n'
          '╷\n'
          '│ Error: Error acquiring the state lock\n'
          '│ \n'
          '│ Error message: operation error DynamoDB: PutItem, https response error StatusCode: 400, RequestID:\n'
          '│ 8QH3J0M2KLR7V9SA1B4C6D8E0FG2HIJ4KLMNOPQRSTUVWXYZ, ConditionalCheckFailedException: The conditional '
          'request\n'
          '│ failed\n'
          '│ Lock Info:\n'
          '│   ID:        4b1e2c9a-77f0-1d3e-9a5b-0c2e8f41d6a7\n'
          '│   Path:      acme-tfstate-prod/network/terraform.tfstate\n'
          '│   Operation: OperationTypeApply\n'
          '│   Who:       marco@marco-mbp.local\n'
          '│   Version:   1.7.5\n'
          '│   Created:   2024-05-22 09:41:17.902134 +0000 UTC\n'
          '│   Info:      \n'
          '│ \n'
          '│ \n'
          '│ Terraform acquires a state lock to protect the state from being written\n'
          '│ by multiple users at the same time. Please resolve the issue above and try\n'
          '│ again. For most commands, you can disable locking with the "-lock=false"\n'
          '│ flag, but this is not recommended.\n'
          '╵\n'
          '\n'
          "marco says he ctrl-c'd his apply an hour ago. can i just rerun with -lock=false? need the subnet change "
          'out before lunch'},
 {'kind': 'relevant',
  'labels': ['k8s-readiness-vs-liveness'],
  'text': 'postgres failed over at 03:12 (~40s according to the RDS events) but the api stayed down until ~03:25 '
          'with every pod restarting over and over:\n'
          '\n'
          '$ kubectl get pods -n prod -l app=api\n'
          'NAME                  READY   STATUS             RESTARTS      AGE\n'
          'api-6b8d9c7f4-2hxlw   0/1     CrashLoopBackOff   6 (41s ago)   3d4h\n'
          'api-6b8d9c7f4-7qmzr   0/1     CrashLoopBackOff   6 (38s ago)   3d4h\n'
          'api-6b8d9c7f4-kd9vn   0/1     Running            7 (12s ago)   3d4h\n'
          'api-6b8d9c7f4-x2p8t   0/1     CrashLoopBackOff   6 (55s ago)   3d4h\n'
          '\n'
          '$ kubectl describe pod api-6b8d9c7f4-2hxlw -n prod | tail -n 8\n'
          'Events:\n'
          '  Type     Reason     Age                 From     Message\n'
          '  ----     ------     ----                ----     -------\n'
          '  Warning  Unhealthy  11m (x9 over 13m)   kubelet  Liveness probe failed: HTTP probe failed with '
          'statuscode: 503\n'
          '  Normal   Killing    11m (x3 over 13m)   kubelet  Container api failed liveness probe, will be '
          'restarted\n'
          '  Warning  Unhealthy  10m (x14 over 13m)  kubelet  Readiness probe failed: HTTP probe failed with '
          'statuscode: 503\n'
          '  Warning  BackOff    2m (x31 over 9m)    kubelet  Back-off restarting failed container api in pod '
          'api-6b8d9c7f4-2hxlw_prod(3f0c9d2e-1a7b-4c55-9e61-2b8f0d4a7c13)\n'
          '\n'
          "why didn't they just recover once the db was back?"},
 {'kind': 'relevant',
  'labels': ['fastapi-dependency-session-scope'],
  'text': "frontend got a 201 back with the new project in the body, but the project isn't in the db. this shows up "
          'in the logs right after the request:\n'
          '\n'
          'INFO:     10.2.1.15:51234 - "POST /api/v1/projects HTTP/1.1" 201 Created\n'
          'ERROR:    Exception in ASGI application\n'
          'Traceback (most recent call last):\n'
          '  File "/app/.venv/lib/python3.12/site-packages/uvicorn/protocols/http/httptools_impl.py", line 411, in '
          'run_asgi\n'
          '    result = await app(  # type: ignore[func-returns-value]\n'
          '  File "/app/.venv/lib/python3.12/site-packages/fastapi/applications.py", line 1054, in __call__\n'
          '    await super().__call__(scope, receive, send)\n'
          '  File "/app/.venv/lib/python3.12/site-packages/fastapi/concurrency.py", line 36, in '
          'contextmanager_in_threadpool\n'
          '    await anyio.to_thread.run_sync(cm.__exit__, None, None, None)\n'
          '  File "/app/src/deps.py", line 24, in get_db\n'
          '    db.commit()\n'
          '  File "/app/.venv/lib/python3.12/site-packages/sqlalchemy/orm/session.py", line 1969, in commit\n'
          '    trans.commit(_to_root=True)\n'
          '  File "/app/.venv/lib/python3.12/site-packages/sqlalchemy/engine/default.py", line 924, in do_execute\n'
          '    cursor.execute(statement, parameters)\n'
          'sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) duplicate key value violates unique '
          'constraint "projects_slug_key"\n'
          'DETAIL:  Key (slug)=(q3-roadmap) already exists.\n'
          '[SQL: INSERT INTO projects (id, name, slug, owner_id, created_at) VALUES (%(id)s::UUID, %(name)s, '
          '%(slug)s, %(owner_id)s::UUID, now())]\n'
          '(Background on this error at: https://sqlalche.me/e/20/gkpj)\n'
          '\n'
          "shouldn't that have been a 409 or at least a 500 to the client?"},
 {'kind': 'relevant',
  'labels': ['currency-conversion-daily-rate'],
  'text': "finance pinged me: the Q1 revenue number doesn't match what they exported in april anymore. nobody edited "
          'those invoices. reran the report and diffed it:\n'
          '\n'
          '$ uv run python -m scripts.revenue_report --quarter 2024Q1 --currency EUR > /tmp/q1_now.csv\n'
          '$ diff -u exports/q1_revenue_2024-04-03.csv /tmp/q1_now.csv\n'
          '--- exports/q1_revenue_2024-04-03.csv\t2024-04-03 10:14:02.000000000 +0200\n'
          '+++ /tmp/q1_now.csv\t2024-06-11 16:40:55.000000000 +0200\n'
          '@@ -1,10 +1,10 @@\n'
          ' invoice_no,issued_on,currency,amount,amount_eur\n'
          ' INV-2024-0113,2024-01-08,EUR,1200.00,1200.00\n'
          '-INV-2024-0127,2024-01-15,USD,4500.00,4121.71\n'
          '+INV-2024-0127,2024-01-15,USD,4500.00,4160.51\n'
          ' INV-2024-0140,2024-01-22,EUR,860.00,860.00\n'
          '-INV-2024-0162,2024-02-02,GBP,2300.00,2693.34\n'
          '+INV-2024-0162,2024-02-02,GBP,2300.00,2684.12\n'
          '-INV-2024-0198,2024-03-14,CHF,3100.00,3232.86\n'
          '+INV-2024-0198,2024-03-14,CHF,3100.00,3178.93\n'
          ' INV-2024-0203,2024-03-19,EUR,2750.00,2750.00\n'
          ' ...\n'
          '-TOTAL,,,,184220.50\n'
          '+TOTAL,,,,186011.73\n'
          '\n'
          'only the non-EUR rows move. is the report broken?'},
 {'kind': 'relevant',
  'labels': ['mongo-write-concern-majority'],
  'text': 'after the primary election on the events replica set on tuesday, ~400 events from around that minute are '
          'just gone. the app never got an error on insert. this is from the old primary once it came back:\n'
          '\n'
          '{"t":{"$date":"2024-05-28T02:17:44.102+00:00"},"s":"I",  "c":"REPL",     "id":21358,   '
          '"ctx":"ReplCoord-3","msg":"Replica set state '
          'transition","attr":{"newState":"ROLLBACK","oldState":"SECONDARY"}}\n'
          '{"t":{"$date":"2024-05-28T02:17:44.118+00:00"},"s":"I",  "c":"ROLLBACK", "id":21593,   '
          '"ctx":"BackgroundSync","msg":"Transition to ROLLBACK"}\n'
          '{"t":{"$date":"2024-05-28T02:17:44.231+00:00"},"s":"I",  "c":"ROLLBACK", "id":21604,   '
          '"ctx":"BackgroundSync","msg":"Rollback common '
          'point","attr":{"commonPointOpTime":{"ts":{"$timestamp":{"t":1716862651,"i":14}},"t":41}}}\n'
          '{"t":{"$date":"2024-05-28T02:17:44.402+00:00"},"s":"I",  "c":"ROLLBACK", "id":21630,   '
          '"ctx":"BackgroundSync","msg":"Preparing to write deleted documents to a rollback '
          'file","attr":{"namespace":"events.event_log","uuid":{"uuid":{"$uuid":"9b1f3c2a-5d4e-4f60-8a7b-1c2d3e4f5a6b"}},"file":"/data/db/rollback/9b1f3c2a-5d4e-4f60-8a7b-1c2d3e4f5a6b/removed.2024-05-28T02-17-44.0.bson"}}\n'
          '{"t":{"$date":"2024-05-28T02:17:44.655+00:00"},"s":"I",  "c":"ROLLBACK", "id":21612,   '
          '"ctx":"BackgroundSync","msg":"Rollback '
          'summary","attr":{"startTime":{"$date":"2024-05-28T02:17:44.118Z"},"endTime":{"$date":"2024-05-28T02:17:44.650Z"},"syncSource":"mongo-events-1.mongo:27017","rbid":3,"lastOptimeRolledBack":{"ts":{"$timestamp":{"t":1716862657,"i":96}},"t":41},"commonPoint":{"ts":{"$timestamp":{"t":1716862651,"i":14}},"t":41},"wallClockTimeDiff":6,"rollbackCommandCounts":{"insert":412},"totalEntriesRolledBackIncludingTransactions":412}}\n'
          '{"t":{"$date":"2024-05-28T02:17:44.661+00:00"},"s":"I",  "c":"REPL",     "id":21358,   '
          '"ctx":"BackgroundSync","msg":"Replica set state '
          'transition","attr":{"newState":"RECOVERING","oldState":"ROLLBACK"}}\n'
          '\n'
          'where did they go, and why did our insert_one calls all say ok?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'trying to split items that are over capacity into a second entry while i loop over them. how do i do this '
          'without the compiler yelling at me\n'
          '\n'
          'error[E0502]: cannot borrow `self.items` as mutable because it is also borrowed as immutable\n'
          '  --> src/inventory.rs:42:17\n'
          '   |\n'
          '39 |         for item in self.items.iter() {\n'
          '   |                     -----------------\n'
          '   |                     |\n'
          '   |                     immutable borrow occurs here\n'
          '   |                     immutable borrow later used here\n'
          '...\n'
          '42 |                 self.items.push(item.split_excess(self.capacity));\n'
          '   |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n'
          '\n'
          'For more information about this error, try `rustc --explain E0502`.\n'
          'error: could not compile `stockroom` (lib) due to 1 previous error'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'the filename in the sidebar row won\'t truncate with "..." — a long name pushes the delete button past '
          "the right edge (screenshot: row is 240px wide, the × button is cut off halfway and there's a horizontal "
          'scrollbar on the sidebar). markup + css:\n'
          '\n'
          '<div class="file-row">\n'
          '  <span class="icon"></span>\n'
          '  <div class="meta">\n'
          '    <span class="name">quarterly_report_final_v3_reviewed_by_legal.pdf</span>\n'
          '    <span class="size">2.4 MB</span>\n'
          '  </div>\n'
          '  <button class="delete">×</button>\n'
          '</div>\n'
          '\n'
          '.file-row { display: flex; align-items: center; gap: 8px; width: 240px; }\n'
          '.file-row .meta { flex: 1; display: flex; flex-direction: column; }\n'
          '.file-row .name { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }\n'
          '\n'
          'devtools computed for .meta:  width: 391.2px   flex-grow: 1   flex-shrink: 1   flex-basis: 0%\n'
          '\n'
          "why is .meta wider than its parent when it's supposed to shrink?"},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'does this warning actually matter? the column looks right when i print `active`, but the summary at the '
          'end still counts NaNs\n'
          '\n'
          '/home/ana/proj/analysis/clean.py:27: SettingWithCopyWarning: \n'
          'A value is trying to be set on a copy of a slice from a DataFrame.\n'
          'Try using .loc[row_indexer,col_indexer] = value instead\n'
          '\n'
          'See the caveats in the documentation: '
          'https://pandas.pydata.org/pandas-docs/stable/user_guide/indexing.html#returning-a-view-versus-a-copy\n'
          '  active["score"] = active["score"].fillna(0)\n'
          '\n'
          '>>> df[df.status == "active"].score.isna().sum()\n'
          '37\n'
          '>>> active.score.isna().sum()\n'
          '0\n'
          '>>> pd.__version__\n'
          "'2.1.4'"},
 {'kind': 'unrelated',
  'labels': [],
  'text': "go newbie. the struct has a map field, why can't i write to it?\n"
          '\n'
          '$ go run .\n'
          'panic: assignment to entry in nil map\n'
          '\n'
          'goroutine 1 [running]:\n'
          'main.(*Counter).Add(...)\n'
          '\t/home/lee/dev/wordfreq/counter.go:18\n'
          'main.main()\n'
          '\t/home/lee/dev/wordfreq/main.go:31 +0x1a5\n'
          'exit status 2\n'
          '\n'
          '// counter.go\n'
          'type Counter struct {\n'
          '\tcounts map[string]int\n'
          '}\n'
          '\n'
          'func (c *Counter) Add(word string) {\n'
          '\tc.counts[word]++   // line 18\n'
          '}\n'
          '\n'
          '// main.go\n'
          '\tvar c Counter\n'
          '\tfor _, w := range strings.Fields(text) {\n'
          '\t\tc.Add(strings.ToLower(w))\n'
          '\t}'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'new macbook, cloned the app, signed into xcode with my apple id, and the build fails instantly. the old '
          'laptop builds fine.\n'
          '\n'
          "$ xcodebuild -scheme Trailmap -destination 'platform=iOS,name=Sam iPhone' build\n"
          'Command line invocation:\n'
          '    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -scheme Trailmap -destination '
          '"platform=iOS,name=Sam iPhone" build\n'
          '\n'
          'User defaults from command line:\n'
          '    IDEPackageSupportUseBuiltinSCM = YES\n'
          '\n'
          '/Users/sam/Projects/Trailmap/Trailmap.xcodeproj: error: No signing certificate "iOS Development" found: '
          'No "iOS Development" signing certificate matching team ID "7QK2L9X4AB" with a private key was found. (in '
          "target 'Trailmap' from project 'Trailmap')\n"
          '/Users/sam/Projects/Trailmap/Trailmap.xcodeproj: error: No signing certificate "iOS Development" found: '
          'No "iOS Development" signing certificate matching team ID "7QK2L9X4AB" with a private key was found. (in '
          "target 'TrailmapWidgetExtension' from project 'Trailmap')\n"
          '\n'
          '** BUILD FAILED **\n'
          '\n'
          'do i need to export something from the old machine?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'thesis stopped compiling after i added the notation section, no idea what it wants from me\n'
          '\n'
          '(./chapters/03-method.tex\n'
          '! Missing $ inserted.\n'
          '<inserted text> \n'
          '                $\n'
          'l.142 where $\\alpha$ is the learning rate and x_\n'
          '                                                 i the $i$-th input sample.\n'
          '? \n'
          '! Missing $ inserted.\n'
          '<inserted text> \n'
          '                $\n'
          'l.143 \n'
          '      \n'
          '? x\n'
          'No pages of output.\n'
          'Transcript written on main.log.\n'
          'Latexmk: Errors, so I did not complete making target files\n'
          'Collected error summary (may duplicate other messages):\n'
          "  pdflatex: Command for 'pdflatex' gave return code 1"},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'my regex is r\'"(.*)"\' and it grabs everything between the first and the last quote instead of each '
          'value:\n'
          '\n'
          '$ pytest tests/test_parse.py -q\n'
          'F.                                                                       [100%]\n'
          '=================================== FAILURES ===================================\n'
          '__________________________ test_extract_quoted_values __________________________\n'
          '\n'
          '    def test_extract_quoted_values():\n'
          '>       assert extract_quoted(\'name="alice" role="admin"\') == ["alice", "admin"]\n'
          'E       assert [\'alice" role="admin\'] == [\'alice\', \'admin\']\n'
          'E         \n'
          'E         At index 0 diff: \'alice" role="admin\' != \'alice\'\n'
          "E         Right contains one more item: 'admin'\n"
          'E         Use -v to get more diff\n'
          '\n'
          'tests/test_parse.py:8: AssertionError\n'
          '=========================== short test summary info ============================\n'
          'FAILED tests/test_parse.py::test_extract_quoted_values - assert [\'alice" role="admin\'] == [\'alice\', '
          "'admin']\n"
          '1 failed, 1 passed in 0.04s\n'
          '\n'
          'how do i make it stop at the next quote?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': '$ git merge origin/main\n'
          'Auto-merging src/text/slugify.py\n'
          'CONFLICT (content): Merge conflict in src/text/slugify.py\n'
          'Automatic merge failed; fix conflicts and then commit the result.\n'
          '\n'
          '$ git diff\n'
          'diff --cc src/text/slugify.py\n'
          'index 1a2b3c4,5d6e7f8..0000000\n'
          '--- a/src/text/slugify.py\n'
          '+++ b/src/text/slugify.py\n'
          '@@@ -12,9 -12,8 +12,15 @@@ def slugify(value: str) -> str\n'
          '      value = unicodedata.normalize("NFKD", value)\n'
          '++<<<<<<< HEAD\n'
          ' +    value = value.encode("ascii", "ignore").decode("ascii")\n'
          ' +    value = re.sub(r"[^\\w\\s-]", "", value.lower())\n'
          '++=======\n'
          '+     value = re.sub(r"[^\\w\\s-]", "", value, flags=re.UNICODE).lower()\n'
          '++>>>>>>> origin/main\n'
          '      return re.sub(r"[-\\s]+", "-", value).strip("-_")\n'
          '\n'
          'which side do i keep? mine strips accents, main\'s keeps unicode letters. product wants "Café Münch" -> '
          '"cafe-munch" '},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'trying to normalize each row to zero mean / unit std. it worked on my toy example (which was square lol)\n'
          '\n'
          'Traceback (most recent call last):\n'
          '  File "/home/kim/ml/normalize.py", line 14, in <module>\n'
          '    X_norm = (X - X.mean(axis=1)) / X.std(axis=1)\n'
          '              ~~^~~~~~~~~~~~~~~~~\n'
          'ValueError: operands could not be broadcast together with shapes (128,64) (128,) \n'
          '\n'
          '>>> X.shape\n'
          '(128, 64)\n'
          '>>> X.mean(axis=1).shape\n'
          '(128,)'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.trim()" because the '
          'return value of "com.acme.library.Book.getSubtitle()" is null\n'
          '\tat com.acme.library.CatalogPrinter.formatTitle(CatalogPrinter.java:37)\n'
          '\tat com.acme.library.CatalogPrinter.print(CatalogPrinter.java:21)\n'
          '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)\n'
          '\tat com.acme.library.CatalogPrinter.printAll(CatalogPrinter.java:15)\n'
          '\tat com.acme.library.Main.main(Main.java:12)\n'
          '\n'
          "only happens for some of the books that came in from the csv import. what's the clean way to handle a "
          'missing subtitle in java 17 — Optional? or just a null check?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': "header compiles fine and circle.cpp has the area() override. what's a vtable and why is it undefined?\n"
          '\n'
          '[ 33%] Building CXX object CMakeFiles/shapes.dir/src/main.cpp.o\n'
          '[ 66%] Linking CXX executable shapes\n'
          "/usr/bin/ld: CMakeFiles/shapes.dir/src/main.cpp.o: in function `Circle::Circle(double)':\n"
          "main.cpp:(.text._ZN6CircleC2Ed[_ZN6CircleC5Ed]+0x1f): undefined reference to `vtable for Circle'\n"
          "/usr/bin/ld: CMakeFiles/shapes.dir/src/main.cpp.o: in function `Circle::~Circle()':\n"
          "main.cpp:(.text._ZN6CircleD2Ev[_ZN6CircleD5Ev]+0x13): undefined reference to `vtable for Circle'\n"
          'collect2: error: ld returned 1 exit status\n'
          'gmake[2]: *** [CMakeFiles/shapes.dir/build.make:113: shapes] Error 1\n'
          'gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/shapes.dir/all] Error 2\n'
          'gmake: *** [Makefile:91: all] Error 2\n'
          '\n'
          'CMakeLists just has add_executable(shapes src/main.cpp)'},
 {'kind': 'unrelated',
  'labels': [],
  'text': '$ npx tsc --noEmit\n'
          "src/utils/colors.ts:14:10 - error TS7053: Element implicitly has an 'any' type because expression of type "
          "'string' can't be used to index type '{ red: string; green: string; blue: string; }'.\n"
          "  No index signature with a parameter of type 'string' was found on type '{ red: string; green: string; "
          "blue: string; }'.\n"
          '\n'
          '14   return palette[name] ?? palette.blue;\n'
          '            ~~~~~~~~~~~~~\n'
          '\n'
          '\n'
          'Found 1 error in src/utils/colors.ts:14\n'
          '\n'
          'name comes in as a plain string from a config file. is there a way to type this without sprinkling `as '
          'any` everywhere?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'csv exported from excel by the sales team. opens fine in excel, my import script dies on row ~40:\n'
          '\n'
          'Traceback (most recent call last):\n'
          '  File "/Users/dana/scripts/import_contacts.py", line 22, in <module>\n'
          '    for row in reader:\n'
          '               ^^^^^^\n'
          '  File "<frozen codecs>", line 322, in decode\n'
          "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1187: invalid continuation byte\n"
          '\n'
          '$ file contacts_may.csv\n'
          'contacts_may.csv: ISO-8859 text, with CRLF line terminators\n'
          '\n'
          'how do i read it without asking them to re-export every time?'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'works on my other folders but not this one:\n'
          '\n'
          '$ ./rename_photos.sh ~/Pictures/Trip\\ 2023\n'
          './rename_photos.sh: line 9: [: too many arguments\n'
          './rename_photos.sh: line 9: [: too many arguments\n'
          "mv: cannot stat '/Users/jo/Pictures/Trip': No such file or directory\n"
          "mv: cannot stat '2023/IMG_0412.JPG': No such file or directory\n"
          "mv: cannot stat '/Users/jo/Pictures/Trip': No such file or directory\n"
          "mv: cannot stat '2023/IMG_0413.JPG': No such file or directory\n"
          '\n'
          '$ sed -n 5,12p rename_photos.sh\n'
          'dir=$1\n'
          'i=1\n'
          'for f in $dir/*.JPG; do\n'
          '  new=$dir/photo_$(printf "%03d" $i).jpg\n'
          '  if [ -f $new ]; then echo "skip $new"; continue; fi\n'
          '  mv $f $new\n'
          '  i=$((i+1))\n'
          'done'},
 {'kind': 'unrelated',
  'labels': [],
  'text': "only thing i changed was bumping androidx.lifecycle to 2.6.2 and now the debug build won't go through\n"
          '\n'
          '> Task :app:checkDebugDuplicateClasses FAILED\n'
          '\n'
          'FAILURE: Build failed with an exception.\n'
          '\n'
          '* What went wrong:\n'
          "Execution failed for task ':app:checkDebugDuplicateClasses'.\n"
          '> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckDuplicatesRunnable\n'
          '   > Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 '
          '(org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk8-1.7.10 '
          '(org.jetbrains.kotlin:kotlin-stdlib-jdk8:1.7.10)\n'
          '     Duplicate class kotlin.internal.jdk7.JDK7PlatformImplementations found in modules '
          'kotlin-stdlib-1.8.22 (org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk7-1.7.10 '
          '(org.jetbrains.kotlin:kotlin-stdlib-jdk7:1.7.10)\n'
          '\n'
          '     Go to the documentation to learn how to <a href="d.android.com/r/tools/classpath-sync-errors">Fix '
          'dependency resolution errors</a>.\n'
          '\n'
          '* Try:\n'
          '> Run with --stacktrace option to get the stack trace.\n'
          '> Run with --info or --debug option to get more log output.\n'
          '\n'
          'BUILD FAILED in 14s\n'
          '23 actionable tasks: 2 executed, 21 up-to-date'},
 {'kind': 'unrelated',
  'labels': [],
  'text': 'sortScores just calls .sort() on the array, why on earth does 10 come first?\n'
          '\n'
          ' FAIL  src/utils/__tests__/ranking.test.js\n'
          '  ● sortScores › returns scores in ascending order\n'
          '\n'
          '    expect(received).toEqual(expected) // deep equality\n'
          '\n'
          '    - Expected  - 2\n'
          '    + Received  + 2\n'
          '\n'
          '      Array [\n'
          '    -   2,\n'
          '    -   9,\n'
          '        10,\n'
          '    +   2,\n'
          '        25,\n'
          '    +   9,\n'
          '      ]\n'
          '\n'
          "      10 |   it('returns scores in ascending order', () => {\n"
          '      11 |     const scores = [25, 9, 10, 2];\n'
          '    > 12 |     expect(sortScores(scores)).toEqual([2, 9, 10, 25]);\n'
          '         |                                ^\n'
          '      13 |   });\n'
          '      at Object.toEqual (src/utils/__tests__/ranking.test.js:12:32)\n'
          '\n'
          'Tests:       1 failed, 3 passed, 4 total'}]


def build() -> dict:
    data = recall_data.build()
    return {**data, "prompts": [{**case, "pasted": True} for case in CASES], "commands": []}
