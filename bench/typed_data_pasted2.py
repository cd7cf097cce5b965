"""Pasted output for the typed-or-pasted check, a second set (bench/typed_eval.py --pasted typed_data_pasted2): 80
raw pastes and 50 prompts of typed lines around a paste. Written blind on 2026-12-04, after every rule of core/typed.py
at 20a0dc9 was chosen, by a helper session that saw no code of this repository; run as written, nothing chosen on it."""

CASES = [
# ---------------------------------------------------------------- pastes
{'kind': 'paste', 'text': r'''On branch feature/invoice-export
Your branch is ahead of 'origin/feature/invoice-export' by 2 commits.
  (use "git push" to publish your local commits)

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
        modified:   app/services/invoice_exporter.rb
        modified:   spec/services/invoice_exporter_spec.rb

Untracked files:
  (use "git add <file>..." to include in what will be committed)
        tmp/export-sample.csv

no changes added to commit (use "git add" and/or "git commit -a")'''},

{'kind': 'paste', 'text': r'''To github.com:acme-labs/billing-api.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:acme-labs/billing-api.git'
hint: Updates were rejected because the remote contains work that you do not
hint: have locally. This is usually caused by another repository pushing
hint: to the same ref. You may want to first integrate the remote changes
hint: (e.g., 'git pull ...') before pushing again.
hint: See the 'Note about fast-forwards' in 'git push --help' for details.'''},

{'kind': 'paste', 'text': r'''Auto-merging src/lib/auth/session.ts
CONFLICT (content): Merge conflict in src/lib/auth/session.ts
Auto-merging package.json
CONFLICT (content): Merge conflict in package.json
Auto-merging pnpm-lock.yaml
CONFLICT (content): Merge conflict in pnpm-lock.yaml
error: could not apply 3f9c2ab... refactor session refresh to use jose
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the state before "git rebase", run "git rebase --abort".
Could not apply 3f9c2ab... refactor session refresh to use jose'''},

{'kind': 'paste', 'text': r'''*   a41c9e0 (HEAD -> main, origin/main, origin/HEAD) Merge pull request #482 from acme-labs/fix/retry-backoff
|\
| * 7be21d4 (origin/fix/retry-backoff) use jittered backoff in webhook retries
| * 0c93f11 add failing test for retry storm
|/
* 19dd2f5 bump golang.org/x/net to v0.23.0
* e5a0b7c Merge pull request #479 from acme-labs/chore/ci-cache
|\
| * 4f6e2a8 cache go build dir in actions
|/
* 8812ac3 fix nil deref when tenant has no plan
* 2b7c0d9 revert "switch to pgx v5 pool" (breaks migrations)
* d03e6f1 switch to pgx v5 pool
* 91aa7c2 docs: describe webhook signing'''},

{'kind': 'paste', 'text': r'''diff --git a/internal/webhook/retry.go b/internal/webhook/retry.go
index 3c1e2a4..9f0b7d2 100644
--- a/internal/webhook/retry.go
+++ b/internal/webhook/retry.go
@@ -14,17 +14,22 @@ import (
 const maxAttempts = 8
 
 func backoff(attempt int) time.Duration {
-	d := time.Duration(1<<attempt) * time.Second
-	if d > 5*time.Minute {
-		d = 5 * time.Minute
-	}
-	return d
+	base := time.Duration(1<<attempt) * 500 * time.Millisecond
+	if base > 5*time.Minute {
+		base = 5 * time.Minute
+	}
+	// full jitter: random between 0 and base
+	return time.Duration(rand.Int63n(int64(base)))
 }
 
 func (r *Retrier) Schedule(ctx context.Context, ev Event) error {
-	if ev.Attempt >= maxAttempts {
+	if ev.Attempt >= maxAttempts || ev.Tenant == nil {
 		return ErrGiveUp
 	}
+	r.metrics.Retries.WithLabelValues(ev.Tenant.ID).Inc()
 	delay := backoff(ev.Attempt)
 	return r.queue.EnqueueAt(ctx, ev, time.Now().Add(delay))
 }'''},

{'kind': 'paste', 'text': r'''npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.
npm WARN deprecated rimraf@3.0.2: Rimraf versions prior to v4 are no longer supported
npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported
npm WARN deprecated @humanwhocodes/config-array@0.11.14: Use @eslint/config-array instead

added 1287 packages, and audited 1288 packages in 41s

214 packages are looking for funding
  run `npm fund` for details

8 vulnerabilities (2 low, 3 moderate, 3 high)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force

Run `npm audit` for details.'''},

{'kind': 'paste', 'text': r''' WARN  deprecated eslint@8.57.0: This version is no longer supported. Please see https://eslint.org/version-support for other options.
 WARN  6 deprecated subdependencies found: @humanwhocodes/config-array@0.11.14, @humanwhocodes/object-schema@2.0.3, glob@7.2.3, inflight@1.0.6, rimraf@2.7.1, rimraf@3.0.2
Packages: +642
++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
Progress: resolved 701, reused 598, downloaded 44, added 642, done
 WARN  Issues with peer dependencies found
apps/web
├─┬ @storybook/react 7.6.17
│ ├── ✕ unmet peer react@"^16.8.0 || ^17.0.0 || ^18.0.0": found 19.0.0-rc-f994737d14-20240522
│ └── ✕ unmet peer react-dom@"^16.8.0 || ^17.0.0 || ^18.0.0": found 19.0.0-rc-f994737d14-20240522
└─┬ react-day-picker 8.10.1
  └── ✕ unmet peer date-fns@"^2.28.0 || ^3.0.0": found 4.1.0

dependencies:
+ next 15.0.0-rc.0
+ react 19.0.0-rc-f994737d14-20240522
+ react-dom 19.0.0-rc-f994737d14-20240522

devDependencies:
+ @types/node 20.14.2
+ typescript 5.4.5

Done in 12.8s'''},

{'kind': 'paste', 'text': r'''➤ YN0000: ┌ Resolution step
➤ YN0000: └ Completed in 0s 412ms
➤ YN0000: ┌ Fetch step
➤ YN0000: └ Completed in 1s 87ms
➤ YN0000: ┌ Link step
➤ YN0007: │ esbuild@npm:0.20.2 must be built because it never has been before or the last one failed
➤ YN0007: │ sharp@npm:0.33.4 must be built because it never has been before or the last one failed
➤ YN0009: │ sharp@npm:0.33.4 couldn't be built successfully (exit code 1, logs can be found here: /tmp/xfs-5c1f0a2e/build.log)
➤ YN0000: └ Completed in 9s 631ms
➤ YN0000: · Failed with errors in 11s 190ms'''},

{'kind': 'paste', 'text': r'''error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try apt install
    python3-xyz, where xyz is the package you are trying to
    install.
    
    If you wish to install a non-Debian-packaged Python package,
    create a virtual environment using python3 -m venv path/to/venv.
    Then use path/to/venv/bin/python and path/to/venv/bin/pip. Make
    sure you have python3-full installed.
    
    If you wish to install a non-Debian packaged Python application,
    it may be easiest to use pipx install xyz, which will manage a
    virtual environment for you. Make sure you have pipx installed.
    
    See /usr/share/doc/python3.12/README.venv for more information.

note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
hint: See PEP 668 for the detailed specification.'''},

{'kind': 'paste', 'text': r'''Collecting pandas==1.5.3
  Using cached pandas-1.5.3-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (12.0 MB)
Requirement already satisfied: numpy>=1.21.0 in ./.venv/lib/python3.11/site-packages (from pandas==1.5.3) (2.0.1)
Requirement already satisfied: python-dateutil>=2.8.1 in ./.venv/lib/python3.11/site-packages (from pandas==1.5.3) (2.9.0.post0)
Installing collected packages: pandas
  Attempting uninstall: pandas
    Found existing installation: pandas 2.2.2
    Uninstalling pandas-2.2.2:
      Successfully uninstalled pandas-2.2.2
ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
great-expectations 0.18.12 requires pandas>=1.3.0; python_version >= "3.9", but you have pandas 1.5.3 which is incompatible.
streamlit 1.36.0 requires pandas<3,>=1.4.0, but you have pandas 1.5.3 which is incompatible.
Successfully installed pandas-1.5.3

[notice] A new release of pip is available: 24.0 -> 24.2
[notice] To update, run: pip install --upgrade pip'''},

{'kind': 'paste', 'text': r'''Using CPython 3.12.4 interpreter at: /opt/homebrew/opt/python@3.12/bin/python3.12
Creating virtual environment at: .venv
  × No solution found when resolving dependencies:
  ╰─▶ Because only the following versions of torch are available:
          torch<=2.2.2
          torch==2.3.0
          torch==2.3.1
      and torch>=2.3.0 has no wheels with a matching platform tag (e.g., `macosx_14_0_x86_64`), we can conclude that torch>=2.3.0 cannot be used.
      And because your project depends on torch>=2.3.0, we can conclude that your project's requirements are unsatisfiable.

      hint: Wheels are available for `torch` (v2.3.1) on the following platforms: `manylinux1_x86_64`, `manylinux2014_aarch64`, `macosx_11_0_arm64`, `win_amd64`'''},

{'kind': 'paste', 'text': r'''Updating dependencies
Resolving dependencies... (3.4s)

Because no versions of fastapi match >0.110.0,<0.111.0
 and fastapi (0.110.0) depends on starlette (>=0.36.3,<0.37.0), fastapi (>=0.110.0,<0.111.0) requires starlette (>=0.36.3,<0.37.0).
And because sse-starlette (2.1.2) depends on starlette (>=0.37.2)
 and no versions of sse-starlette match >2.1.2,<3.0.0, fastapi (>=0.110.0,<0.111.0) is incompatible with sse-starlette (>=2.1.2,<3.0.0).
So, because chat-gateway depends on both fastapi (^0.110.0) and sse-starlette (^2.1.2), version solving failed.'''},

{'kind': 'paste', 'text': r'''============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/dana/src/ledger
configfile: pyproject.toml
plugins: anyio-4.4.0, cov-5.0.0, mock-3.14.0
collected 57 items

tests/test_parser.py ........                                            [ 14%]
tests/test_reconcile.py ....F....                                        [ 29%]
tests/test_rates.py ........................................             [100%]

=================================== FAILURES ===================================
__________________________ test_reconcile_partial_refund __________________________

    def test_reconcile_partial_refund():
        ledger = Ledger.from_rows(load_fixture("partial_refund.csv"))
        result = reconcile(ledger, currency="EUR")
>       assert result.balance == Decimal("12.40")
E       AssertionError: assert Decimal('12.39') == Decimal('12.40')
E        +  where Decimal('12.39') = ReconcileResult(balance=Decimal('12.39'), unmatched=[]).balance
E        +  and   Decimal('12.40') = Decimal('12.40')

tests/test_reconcile.py:48: AssertionError
=========================== short test summary info ============================
FAILED tests/test_reconcile.py::test_reconcile_partial_refund - AssertionError: assert Decimal('12.39') == Decimal('12.40')
========================= 1 failed, 56 passed in 2.31s ========================='''},

{'kind': 'paste', 'text': r'''FAIL src/components/__tests__/CartSummary.test.tsx
  ● CartSummary › shows discount line when coupon applied

    TestingLibraryElementError: Unable to find an element with the text: /discount/i. This could be because the text is broken up by multiple elements. In this case, you can provide a function for your text matcher to make your matcher more flexible.

    Ignored nodes: comments, script, style
    <body>
      <div>
        <section
          class="cart-summary"
        >
          <p>
            Subtotal: $42.00
          </p>
          <p>
            Total: $37.80
          </p>
        </section>
      </div>
    </body>

      31 |     render(<CartSummary items={items} coupon={{ code: "SPRING10", pct: 10 }} />);
      32 |
    > 33 |     expect(screen.getByText(/discount/i)).toBeInTheDocument();
         |                   ^
      34 |   });
      35 | });

      at Object.getElementError (node_modules/@testing-library/dom/dist/config.js:37:19)
      at src/components/__tests__/CartSummary.test.tsx:33:19

Test Suites: 1 failed, 23 passed, 24 total
Tests:       1 failed, 187 passed, 188 total
Snapshots:   4 passed, 4 total
Time:        9.142 s
Ran all test suites.'''},

{'kind': 'paste', 'text': r''' RUN  v1.6.0 /Users/kenji/work/dashboard

 ✓ src/utils/format.test.ts (12)
 ✓ src/hooks/useDebounce.test.ts (3) 1204ms
 ❯ src/api/client.test.ts (6)
   ✓ client > attaches auth header
   ✓ client > retries on 503
   × client > refreshes token on 401
   ✓ client > gives up after 3 retries
   ✓ client > serializes query params
   ✓ client > handles empty body

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/api/client.test.ts > client > refreshes token on 401
AssertionError: expected "spy" to be called 1 times, but got 2 times
 ❯ src/api/client.test.ts:58:31
     56|     await client.get("/me");
     57|
     58|     expect(refreshSpy).toHaveBeenCalledTimes(1);
       |                               ^
     59|   });
     60|

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 2 passed (3)
      Tests  1 failed | 20 passed (21)
   Start at  14:02:51
   Duration  2.87s (transform 211ms, setup 0ms, collect 640ms, tests 1.41s, environment 1ms, prepare 388ms)'''},

{'kind': 'paste', 'text': r'''   Compiling tiler v0.4.1 (/home/ola/code/tiler)
error[E0502]: cannot borrow `self.cache` as mutable because it is also borrowed as immutable
  --> src/render.rs:87:17
   |
84 |         let tile = self.cache.get(&key);
   |                    ---------- immutable borrow occurs here
...
87 |                 self.cache.insert(key, fresh);
   |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here
88 |             }
89 |             tile.map(|t| t.bytes.len())
   |             ---- immutable borrow later used here

error[E0308]: mismatched types
   --> src/render.rs:112:25
    |
112 |         let zoom: u8 = req.zoom;
    |                   --   ^^^^^^^^ expected `u8`, found `u32`
    |                   |
    |                   expected due to this
    |
help: you can convert a `u32` to a `u8` and panic if the converted value doesn't fit
    |
112 |         let zoom: u8 = req.zoom.try_into().unwrap();
    |                                ++++++++++++++++++++

Some errors have detailed explanations: E0308, E0502.
For more information about an error, try `rustc --explain E0308`.
error: could not compile `tiler` (bin "tiler") due to 2 previous errors'''},

{'kind': 'paste', 'text': r'''running 14 tests
test geom::tests::bbox_contains_point ... ok
test geom::tests::bbox_union ... ok
test geom::tests::haversine_known_distance ... ok
test parse::tests::rejects_empty ... ok
test parse::tests::parses_crlf ... ok
test parse::tests::parses_quoted_fields ... FAILED
test store::tests::roundtrip ... ok
test store::tests::compaction_keeps_latest ... ok
test store::tests::concurrent_writers ... ignored, flaky on CI
test tile::tests::xyz_to_quadkey ... ok

failures:

---- parse::tests::parses_quoted_fields stdout ----
thread 'parse::tests::parses_quoted_fields' panicked at src/parse.rs:203:9:
assertion `left == right` failed
  left: ["a", "b,c\"", "d"]
 right: ["a", "b,c", "d"]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    parse::tests::parses_quoted_fields

test result: FAILED. 12 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.04s

error: test failed, to rerun pass `--lib`'''},

{'kind': 'paste', 'text': r'''--- FAIL: TestOrderService_Cancel (0.00s)
panic: runtime error: invalid memory address or nil pointer dereference [recovered]
	panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1029c3e54]

goroutine 23 [running]:
testing.tRunner.func1.2({0x102b21a40, 0x102e6f2d0})
	/usr/local/go/src/testing/testing.go:1631 +0x1c4
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1634 +0x33c
panic({0x102b21a40?, 0x102e6f2d0?})
	/usr/local/go/src/runtime/panic.go:770 +0x124
github.com/shopline/orders/internal/service.(*OrderService).Cancel(0x14000132f00, {0x102b76c88, 0x140001a4000}, {0x102a0f3e1, 0x8})
	/Users/mira/dev/orders/internal/service/order.go:142 +0x54
github.com/shopline/orders/internal/service.TestOrderService_Cancel(0x140001b2820)
	/Users/mira/dev/orders/internal/service/order_test.go:77 +0x1a8
testing.tRunner(0x140001b2820, 0x102b6e8d8)
	/usr/local/go/src/testing/testing.go:1689 +0xec
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:1742 +0x318
FAIL	github.com/shopline/orders/internal/service	0.412s
FAIL'''},

{'kind': 'paste', 'text': r'''# github.com/shopline/orders/internal/api
internal/api/handlers.go:58:2: declared and not used: total
internal/api/handlers.go:91:19: cannot use req.Quantity (variable of type string) as int value in argument to svc.Reserve
internal/api/middleware.go:12:2: "net/http/httputil" imported and not used
internal/api/routes.go:33:30: undefined: handleRefund
FAIL	github.com/shopline/orders/cmd/server [build failed]
?   	github.com/shopline/orders/internal/config	[no test files]
ok  	github.com/shopline/orders/internal/money	0.183s
ok  	github.com/shopline/orders/internal/store	1.904s'''},

{'kind': 'paste', 'text': r'''[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  18.432 s
[INFO] Finished at: 2024-06-11T09:41:27+02:00
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project inventory-service: Compilation failure: Compilation failure: 
[ERROR] /home/jenkins/workspace/inventory-service/src/main/java/com/northwind/inventory/StockController.java:[47,35] cannot find symbol
[ERROR]   symbol:   method findBySkuIgnoreCase(java.lang.String)
[ERROR]   location: variable repository of type com.northwind.inventory.StockRepository
[ERROR] /home/jenkins/workspace/inventory-service/src/main/java/com/northwind/inventory/StockMapper.java:[22,16] incompatible types: java.util.Optional<com.northwind.inventory.Stock> cannot be converted to com.northwind.inventory.Stock
[ERROR] -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException'''},

{'kind': 'paste', 'text': r'''> Task :app:compileDebugKotlin FAILED
e: file:///Users/priya/AndroidStudioProjects/Pantry/app/src/main/java/com/pantry/ui/ScanScreen.kt:64:13 Unresolved reference: rememberCameraPermissionState
e: file:///Users/priya/AndroidStudioProjects/Pantry/app/src/main/java/com/pantry/ui/ScanScreen.kt:88:5 @Composable invocations can only happen from the context of a @Composable function

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileDebugKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.
> Run with --scan to get full insights.
> Get more help at https://help.gradle.org.

BUILD FAILED in 23s
31 actionable tasks: 4 executed, 27 up-to-date'''},

{'kind': 'paste', 'text': r'''2024-06-11T10:02:44.318+02:00 ERROR 48213 --- [inventory-service] [nio-8080-exec-3] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: org.springframework.dao.DataIntegrityViolationException: could not execute statement [ERROR: duplicate key value violates unique constraint "stock_sku_warehouse_key"
  Detail: Key (sku, warehouse_id)=(TSH-BLK-M, 4) already exists.] [insert into stock (quantity,sku,updated_at,warehouse_id,id) values (?,?,?,?,?)]; SQL [insert into stock (quantity,sku,updated_at,warehouse_id,id) values (?,?,?,?,?)]; constraint [stock_sku_warehouse_key]] with root cause

org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint "stock_sku_warehouse_key"
  Detail: Key (sku, warehouse_id)=(TSH-BLK-M, 4) already exists.
	at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725) ~[postgresql-42.7.3.jar:42.7.3]
	at org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2412) ~[postgresql-42.7.3.jar:42.7.3]
	at org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:371) ~[postgresql-42.7.3.jar:42.7.3]
	at org.postgresql.jdbc.PgStatement.executeInternal(PgStatement.java:502) ~[postgresql-42.7.3.jar:42.7.3]
	at org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:152) ~[postgresql-42.7.3.jar:42.7.3]
	at com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeUpdate(HikariProxyPreparedStatement.java) ~[HikariCP-5.0.1.jar:na]
	at org.hibernate.engine.jdbc.internal.ResultSetReturnImpl.executeUpdate(ResultSetReturnImpl.java:194) ~[hibernate-core-6.4.4.Final.jar:6.4.4.Final]
	at org.hibernate.engine.jdbc.mutation.internal.AbstractMutationExecutor.performNonBatchedMutation(AbstractMutationExecutor.java:108) ~[hibernate-core-6.4.4.Final.jar:6.4.4.Final]
	at com.northwind.inventory.StockService.receive(StockService.java:61) ~[classes/:na]
	at com.northwind.inventory.StockController.receive(StockController.java:52) ~[classes/:na]
	at java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103) ~[na:na]
	at java.base/java.lang.reflect.Method.invoke(Method.java:580) ~[na:na]'''},

{'kind': 'paste', 'text': r'''Internal Server Error: /api/reports/monthly/
Traceback (most recent call last):
  File "/srv/app/.venv/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
               ^^^^^^^^^^^^^^^^^^^^^
  File "/srv/app/.venv/lib/python3.11/site-packages/django/core/handlers/base.py", line 197, in _get_response
    response = wrapped_callback(request, *callback_args, **callback_kwargs)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/app/.venv/lib/python3.11/site-packages/rest_framework/views.py", line 509, in dispatch
    response = self.handle_exception(exc)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/app/reports/views.py", line 88, in get
    rows = build_monthly(org=request.user.org, month=month)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/app/reports/builders.py", line 41, in build_monthly
    start = date(month.year, month.month, 1)
                 ^^^^^^^^^^
AttributeError: 'str' object has no attribute 'year'
[11/Jun/2024 10:15:03] "GET /api/reports/monthly/?month=2024-05 HTTP/1.1" 500 145'''},

{'kind': 'paste', 'text': r'''/Users/sam/projects/notes-sync/src/sync/merge.js:73
  const remoteIds = new Set(remote.items.map((i) => i.id));
                                        ^

TypeError: Cannot read properties of undefined (reading 'map')
    at mergeNotes (/Users/sam/projects/notes-sync/src/sync/merge.js:73:41)
    at SyncWorker.run (/Users/sam/projects/notes-sync/src/sync/worker.js:118:22)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async Promise.all (index 2)
    at async main (/Users/sam/projects/notes-sync/src/index.js:29:3)

Node.js v20.14.0'''},

{'kind': 'paste', 'text': r'''thread 'tokio-runtime-worker' panicked at src/ingest/kafka.rs:142:38:
called `Result::unwrap()` on an `Err` value: Message consumption error: BrokerTransportFailure (Local: Broker transport failure)
stack backtrace:
   0: rust_begin_unwind
             at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/std/src/panicking.rs:652:5
   1: core::panicking::panic_fmt
             at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/panicking.rs:72:14
   2: core::result::unwrap_failed
             at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/result.rs:1654:5
   3: core::result::Result<T,E>::unwrap
             at /rustc/129f3b9964af4d4a709d1383930ade12dfe7c081/library/core/src/result.rs:1077:23
   4: eventpipe::ingest::kafka::Consumer::run::{{closure}}
             at ./src/ingest/kafka.rs:142:38
   5: tokio::runtime::task::core::Core<T,S>::poll::{{closure}}
             at /home/ci/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/runtime/task/core.rs:328:17
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.'''},

{'kind': 'paste', 'text': r'''Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
  ~ update in-place
-/+ destroy and then create replacement

Terraform will perform the following actions:

  # aws_db_instance.main must be replaced
-/+ resource "aws_db_instance" "main" {
      ~ address                               = "prod-main.c9xk2ab1cdef.eu-west-1.rds.amazonaws.com" -> (known after apply)
      ~ arn                                   = "arn:aws:rds:eu-west-1:123456789012:db:prod-main" -> (known after apply)
      ~ engine_version                        = "15.4" -> "16.3" # forces replacement
      ~ id                                    = "db-7QW2ZJ4XK5LMNOPQ" -> (known after apply)
        # (41 unchanged attributes hidden)
    }

  # aws_security_group_rule.db_ingress will be created
  + resource "aws_security_group_rule" "db_ingress" {
      + cidr_blocks              = [
          + "10.20.0.0/16",
        ]
      + from_port                = 5432
      + protocol                 = "tcp"
      + to_port                  = 5432
      + type                     = "ingress"
    }

Plan: 2 to add, 0 to change, 1 to destroy.

─────────────────────────────────────────────────────────────────────────────

Note: You didn't use the -out option to save this plan, so Terraform can't
guarantee to take exactly these actions if you run "terraform apply" now.'''},

{'kind': 'paste', 'text': r'''aws_iam_role.lambda_exec: Refreshing state... [id=thumbnailer-exec]
aws_s3_bucket.uploads: Refreshing state... [id=acme-uploads-prod]
aws_lambda_function.thumbnailer: Modifying... [id=thumbnailer]
╷
│ Error: updating Lambda Function (thumbnailer) code: operation error Lambda: UpdateFunctionCode, https response error StatusCode: 400, RequestID: 5f0c2d6e-8a1b-4f3e-9c77-1d2e3f4a5b6c, InvalidParameterValueException: Unzipped size must be smaller than 262144000 bytes
│ 
│   with aws_lambda_function.thumbnailer,
│   on lambda.tf line 12, in resource "aws_lambda_function" "thumbnailer":
│   12: resource "aws_lambda_function" "thumbnailer" {
│ 
╵'''},

{'kind': 'paste', 'text': r'''NAMESPACE       NAME                                        READY   STATUS             RESTARTS        AGE
cert-manager    cert-manager-7d9f8c6b5d-xk2lp               1/1     Running            0               12d
cert-manager    cert-manager-webhook-6c77d9d7f-4wqzn        1/1     Running            0               12d
default         api-gateway-5b8f7c9d44-2mnbv                1/1     Running            0               3h11m
default         api-gateway-5b8f7c9d44-q7xrt                1/1     Running            0               3h11m
default         orders-worker-6f4d8b7c59-hk9sd              0/1     CrashLoopBackOff   37 (2m4s ago)   3h11m
default         orders-worker-6f4d8b7c59-wz2fn              0/1     CrashLoopBackOff   37 (94s ago)    3h11m
default         redis-master-0                              1/1     Running            0               40d
ingress-nginx   ingress-nginx-controller-6bd9d4cd8b-fl8vz   1/1     Running            2 (6d ago)      40d
kube-system     coredns-5dd5756b68-6hjwq                    1/1     Running            0               40d
kube-system     coredns-5dd5756b68-ns5rb                    1/1     Running            0               40d
kube-system     metrics-server-7f8c9d5b6-9p2gq              0/1     Pending            0               14m'''},

{'kind': 'paste', 'text': r'''Name:             orders-worker-6f4d8b7c59-hk9sd
Namespace:        default
Priority:         0
Service Account:  orders
Node:             ip-10-20-3-117.eu-west-1.compute.internal/10.20.3.117
Start Time:       Tue, 11 Jun 2024 07:02:19 +0200
Labels:           app=orders-worker
                  pod-template-hash=6f4d8b7c59
Status:           Running
IP:               10.20.3.201
Containers:
  worker:
    Image:          123456789012.dkr.ecr.eu-west-1.amazonaws.com/orders:2024.06.11-3
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Tue, 11 Jun 2024 10:11:52 +0200
      Finished:     Tue, 11 Jun 2024 10:12:31 +0200
    Ready:          False
    Restart Count:  37
    Limits:
      memory:  256Mi
    Requests:
      cpu:     100m
      memory:  128Mi
Events:
  Type     Reason   Age                    From     Message
  ----     ------   ----                   ----     -------
  Normal   Pulled   12m (x37 over 3h10m)   kubelet  Container image "123456789012.dkr.ecr.eu-west-1.amazonaws.com/orders:2024.06.11-3" already present on machine
  Warning  BackOff  2m1s (x812 over 3h9m)  kubelet  Back-off restarting failed container worker in pod orders-worker-6f4d8b7c59-hk9sd_default(0b9d2c1e-55aa-4c1e-b1f0-3d7f9e2a8c41)'''},

{'kind': 'paste', 'text': r'''CONTAINER ID   IMAGE                  COMMAND                  CREATED          STATUS                      PORTS                                       NAMES
9f1c2e7a0b3d   myapp-web              "docker-entrypoint.s…"   4 minutes ago    Up 4 minutes                0.0.0.0:3000->3000/tcp, :::3000->3000/tcp   myapp-web-1
3b7e8d1f2c4a   postgres:16-alpine     "docker-entrypoint.s…"   4 minutes ago    Up 4 minutes (healthy)      0.0.0.0:5432->5432/tcp, :::5432->5432/tcp   myapp-db-1
c0a9d8e7f6b5   redis:7                "docker-entrypoint.s…"   4 minutes ago    Up 4 minutes                6379/tcp                                    myapp-redis-1
a1b2c3d4e5f6   mailhog/mailhog        "MailHog"                4 minutes ago    Up 4 minutes                1025/tcp, 0.0.0.0:8025->8025/tcp            myapp-mail-1
77de12aa09cc   myapp-worker           "bundle exec sidekiq"    4 minutes ago    Restarting (1) 3 seconds ago                                            myapp-worker-1'''},

{'kind': 'paste', 'text': r'''[+] Building 38.4s (11/14)                                                                docker:desktop-linux
 => [internal] load build definition from Dockerfile                                                     0.0s
 => => transferring dockerfile: 812B                                                                     0.0s
 => [internal] load metadata for docker.io/library/python:3.12-slim                                      1.2s
 => [internal] load .dockerignore                                                                        0.0s
 => => transferring context: 142B                                                                        0.0s
 => [base 1/5] FROM docker.io/library/python:3.12-slim@sha256:2be8daddbb82756f7d1f2c7ece706aadcb284bf6ab6d769ea695cc3ed6016743  0.0s
 => [internal] load build context                                                                        0.4s
 => => transferring context: 2.31MB                                                                      0.4s
 => CACHED [base 2/5] WORKDIR /app                                                                       0.0s
 => CACHED [base 3/5] RUN apt-get update && apt-get install -y --no-install-recommends build-essential   0.0s
 => ERROR [base 4/5] RUN pip install --no-cache-dir -r requirements.txt                                 36.6s
------
 > [base 4/5] RUN pip install --no-cache-dir -r requirements.txt:
34.21       error: subprocess-exited-with-error
34.21       
34.21       × Building wheel for psycopg2 (pyproject.toml) did not run successfully.
34.21       │ exit code: 1
34.21       ╰─> [23 lines of output]
34.22           Error: pg_config executable not found.
34.22           
34.22           pg_config is required to build psycopg2 from source.  Please add the directory
34.22           containing pg_config to the $PATH or specify the full executable path with the
34.22           option:
------
Dockerfile:9
--------------------
   7 |     
   8 |     COPY requirements.txt .
   9 | >>> RUN pip install --no-cache-dir -r requirements.txt
  10 |     
  11 |     COPY . .
--------------------
ERROR: failed to solve: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1'''},

{'kind': 'paste', 'text': r'''db-1      | 
db-1      | PostgreSQL Database directory appears to contain a database; Skipping initialization
db-1      | 
db-1      | 2024-06-11 08:21:07.412 UTC [1] LOG:  starting PostgreSQL 16.3 on x86_64-pc-linux-musl, compiled by gcc (Alpine 13.2.1_git20240309) 13.2.1 20240309, 64-bit
db-1      | 2024-06-11 08:21:07.413 UTC [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432
db-1      | 2024-06-11 08:21:07.419 UTC [1] LOG:  listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"
db-1      | 2024-06-11 08:21:07.428 UTC [29] LOG:  database system was shut down at 2024-06-10 19:44:52 UTC
db-1      | 2024-06-11 08:21:07.437 UTC [1] LOG:  database system is ready to accept connections
web-1     | 
web-1     | > myapp@0.1.0 dev
web-1     | > prisma migrate deploy && next dev
web-1     | 
web-1     | Prisma schema loaded from prisma/schema.prisma
web-1     | Datasource "db": PostgreSQL database "myapp", schema "public" at "db:5432"
web-1     | 
web-1     | Error: P1000: Authentication failed against database server at `db`, the provided database credentials for `postgres` are not valid.
web-1     | 
web-1     | Please make sure to provide valid database credentials for the database server at `db`.
db-1      | 2024-06-11 08:21:09.002 UTC [36] FATAL:  password authentication failed for user "postgres"
db-1      | 2024-06-11 08:21:09.002 UTC [36] DETAIL:  Connection matched file "/var/lib/postgresql/data/pg_hba.conf" line 128: "host all all all scram-sha-256"
web-1 exited with code 1'''},

{'kind': 'paste', 'text': r''' id  |       email        |  plan   | seats |        created_at         | churned_at
-----+--------------------+---------+-------+---------------------------+------------
 101 | ops@brightlane.io  | team    |    12 | 2023-02-14 09:12:44.12+00 |
 117 | it@kovacs-law.hu   | starter |     3 | 2023-03-01 15:40:02.88+00 |
 142 | admin@nordfjord.no | team    |    25 | 2023-05-22 11:03:19.04+00 |
 188 | dev@paperplane.dev | pro     |     1 | 2023-09-09 20:55:31.67+00 | 2024-01-03
 203 | finance@lumos.co   | team    |     8 | 2023-11-30 08:17:50.29+00 |
(5 rows)
'''},

{'kind': 'paste', 'text': r'''                                        Table "public.subscriptions"
     Column      |           Type           | Collation | Nullable |                  Default
-----------------+--------------------------+-----------+----------+-------------------------------------------
 id              | bigint                   |           | not null | nextval('subscriptions_id_seq'::regclass)
 account_id      | bigint                   |           | not null |
 plan            | text                     |           | not null | 'starter'::text
 seats           | integer                  |           | not null | 1
 status          | subscription_status      |           | not null | 'trialing'::subscription_status
 current_period  | tstzrange                |           |          |
 created_at      | timestamp with time zone |           | not null | now()
Indexes:
    "subscriptions_pkey" PRIMARY KEY, btree (id)
    "subscriptions_account_id_idx" btree (account_id)
    "subscriptions_active_uniq" UNIQUE, btree (account_id) WHERE status = ANY (ARRAY['active'::subscription_status, 'trialing'::subscription_status])
Foreign-key constraints:
    "subscriptions_account_id_fkey" FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE
Referenced by:
    TABLE "invoices" CONSTRAINT "invoices_subscription_id_fkey" FOREIGN KEY (subscription_id) REFERENCES subscriptions(id)'''},

{'kind': 'paste', 'text': r'''# Memory
used_memory:1073741824
used_memory_human:1.00G
used_memory_rss:1288490188
used_memory_rss_human:1.20G
used_memory_peak:1105954816
used_memory_peak_human:1.03G
used_memory_peak_perc:97.09%
used_memory_overhead:53689344
used_memory_startup:865400
used_memory_dataset:1020052480
used_memory_dataset_perc:95.08%
total_system_memory:8232951808
total_system_memory_human:7.67G
maxmemory:1073741824
maxmemory_human:1.00G
maxmemory_policy:noeviction
allocator_frag_ratio:1.02
mem_fragmentation_ratio:1.20
mem_allocator:jemalloc-5.3.0'''},

{'kind': 'paste', 'text': r'''
An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::123456789012:assumed-role/github-actions-deploy/GitHubActions is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::acme-static-prod/assets/app.3f9a1c.js" with an explicit deny in a service control policy
upload failed: dist/assets/app.3f9a1c.js to s3://acme-static-prod/assets/app.3f9a1c.js An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::123456789012:assumed-role/github-actions-deploy/GitHubActions is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::acme-static-prod/assets/app.3f9a1c.js" with an explicit deny in a service control policy
upload: dist/index.html to s3://acme-static-prod/index.html
upload: dist/favicon.ico to s3://acme-static-prod/favicon.ico
upload failed: dist/assets/vendor.b71e0d.js to s3://acme-static-prod/assets/vendor.b71e0d.js An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::123456789012:assumed-role/github-actions-deploy/GitHubActions is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::acme-static-prod/assets/vendor.b71e0d.js" with an explicit deny in a service control policy'''},

{'kind': 'paste', 'text': r'''Deploying container to Cloud Run service [invoice-renderer] in project [acme-billing-prod] region [europe-west1]
X Deploying new service...
  - Creating Revision...
  . Routing traffic...
Deployment failed
ERROR: (gcloud.run.deploy) Revision 'invoice-renderer-00014-vaq' is not ready and cannot serve traffic. The user-provided container failed to start and listen on the port defined provided by the PORT=8080 environment variable within the allocated timeout. This can happen when the container port is misconfigured or if the timeout is too short. The health check timeout can be extended. Logs for this revision might contain more information.

Logs URL: https://console.cloud.google.com/logs/viewer?project=acme-billing-prod&resource=cloud_run_revision/service_name/invoice-renderer/revision_name/invoice-renderer-00014-vaq&advancedFilter=resource.type%3D%22cloud_run_revision%22%0Aresource.labels.service_name%3D%22invoice-renderer%22%0Aresource.labels.revision_name%3D%22invoice-renderer-00014-vaq%22 
For more troubleshooting guidance, see https://cloud.google.com/run/docs/troubleshooting#container-failed-to-start'''},

{'kind': 'paste', 'text': r'''*   Trying 203.0.113.42:443...
* Connected to api.staging.fernhill.app (203.0.113.42) port 443
* ALPN: curl offers h2,http/1.1
* (304) (OUT), TLS handshake, Client hello (1):
* (304) (IN), TLS handshake, Server hello (2):
* (304) (IN), TLS handshake, Unknown (8):
* (304) (IN), TLS handshake, Certificate (11):
* (304) (IN), TLS handshake, CERT verify (15):
* (304) (IN), TLS handshake, Finished (20):
* (304) (OUT), TLS handshake, Finished (20):
* SSL connection using TLSv1.3 / AEAD-AES256-GCM-SHA384
* ALPN: server accepted h2
* Server certificate:
*  subject: CN=*.staging.fernhill.app
*  start date: May  2 00:00:00 2024 GMT
*  expire date: Jul 31 23:59:59 2024 GMT
*  subjectAltName: host "api.staging.fernhill.app" matched cert's "*.staging.fernhill.app"
*  issuer: C=US; O=Let's Encrypt; CN=R3
*  SSL certificate verify ok.
> POST /v2/uploads HTTP/2
> Host: api.staging.fernhill.app
> User-Agent: curl/8.4.0
> Accept: */*
> Content-Type: application/json
> Content-Length: 58
> 
< HTTP/2 413 
< server: nginx/1.25.4
< date: Tue, 11 Jun 2024 08:44:10 GMT
< content-type: text/html
< content-length: 183
< 
<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx/1.25.4</center>
</body>
</html>
* Connection #0 to host api.staging.fernhill.app left intact'''},

{'kind': 'paste', 'text': r'''2024/06/11 08:50:12 [error] 2211#2211: *48813 connect() failed (111: Connection refused) while connecting to upstream, client: 198.51.100.23, server: app.fernhill.app, request: "GET /api/health HTTP/1.1", upstream: "http://127.0.0.1:8000/api/health", host: "app.fernhill.app"
2024/06/11 08:50:12 [warn] 2211#2211: *48813 upstream server temporarily disabled while connecting to upstream, client: 198.51.100.23, server: app.fernhill.app, request: "GET /api/health HTTP/1.1", upstream: "http://127.0.0.1:8000/api/health", host: "app.fernhill.app"
2024/06/11 08:50:13 [error] 2211#2211: *48815 no live upstreams while connecting to upstream, client: 198.51.100.77, server: app.fernhill.app, request: "POST /api/login HTTP/1.1", upstream: "http://backend/api/login", host: "app.fernhill.app", referrer: "https://app.fernhill.app/login"
2024/06/11 08:50:19 [error] 2212#2212: *48830 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 192.0.2.9, server: app.fernhill.app, request: "GET /api/reports/export?format=xlsx HTTP/1.1", upstream: "http://127.0.0.1:8001/api/reports/export?format=xlsx", host: "app.fernhill.app"
2024/06/11 08:50:31 [crit] 2212#2212: *48851 SSL_do_handshake() failed (SSL: error:0A00006C:SSL routines::bad key share) while SSL handshaking, client: 203.0.113.190, server: 0.0.0.0:443'''},

{'kind': 'paste', 'text': r'''nginx: [emerg] "proxy_pass" directive is not allowed here in /etc/nginx/sites-enabled/fernhill.conf:41
nginx: configuration file /etc/nginx/nginx.conf test failed

● nginx.service - A high performance web server and a reverse proxy server
     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; vendor preset: enabled)
     Active: failed (Result: exit-code) since Tue 2024-06-11 08:58:02 UTC; 6s ago
       Docs: man:nginx(8)
    Process: 30412 ExecStartPre=/usr/sbin/nginx -t -q -g daemon on; master_process on; (code=exited, status=1/FAILURE)
        CPU: 14ms

Jun 11 08:58:02 web-01 systemd[1]: Starting A high performance web server and a reverse proxy server...
Jun 11 08:58:02 web-01 nginx[30412]: nginx: [emerg] "proxy_pass" directive is not allowed here in /etc/nginx/sites-enabled/fernhill.conf:41
Jun 11 08:58:02 web-01 nginx[30412]: nginx: configuration file /etc/nginx/nginx.conf test failed
Jun 11 08:58:02 web-01 systemd[1]: nginx.service: Control process exited, code=exited, status=1/FAILURE
Jun 11 08:58:02 web-01 systemd[1]: nginx.service: Failed with result 'exit-code'.
Jun 11 08:58:02 web-01 systemd[1]: Failed to start A high performance web server and a reverse proxy server.'''},

{'kind': 'paste', 'text': r'''Jun 11 03:14:07 build-box-2 gitlab-runner[1187]: WARNING: Job failed: exit code 137                           duration_s=1834.22 job=7712904 project=311 runner=xZ4rT9qa
Jun 11 03:14:07 build-box-2 gitlab-runner[1187]: WARNING: Failed to process runner                             builds=1 error=exit code 137 executor=docker runner=xZ4rT9qa
Jun 11 03:14:09 build-box-2 kernel: [884213.552101] Memory cgroup out of memory: Killed process 229814 (java) total-vm:9854312kB, anon-rss:7823412kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:15892kB oom_score_adj:0
Jun 11 03:14:10 build-box-2 systemd[1]: docker-5e1a9b7c2d.scope: A process of this unit has been killed by the OOM killer.
Jun 11 03:14:10 build-box-2 systemd[1]: docker-5e1a9b7c2d.scope: Deactivated successfully.
Jun 11 03:14:10 build-box-2 systemd[1]: docker-5e1a9b7c2d.scope: Consumed 41min 12.884s CPU time.
Jun 11 03:15:00 build-box-2 CRON[230001]: (root) CMD (/usr/local/bin/prune-docker.sh >/dev/null 2>&1)
Jun 11 03:15:02 build-box-2 dockerd[902]: time="2024-06-11T03:15:02.114509871Z" level=info msg="ignoring event" container=5e1a9b7c2d module=libcontainerd namespace=moby topic=/tasks/delete type="*events.TaskDelete"'''},

{'kind': 'paste', 'text': r'''2024-06-11T07:31:02.4418210Z ##[group]Run pnpm install --frozen-lockfile
2024-06-11T07:31:02.4419033Z pnpm install --frozen-lockfile
2024-06-11T07:31:02.4455176Z shell: /usr/bin/bash -e {0}
2024-06-11T07:31:02.4455590Z env:
2024-06-11T07:31:02.4455880Z   PNPM_HOME: /home/runner/setup-pnpm/node_modules/.bin
2024-06-11T07:31:02.4456301Z ##[endgroup]
2024-06-11T07:31:03.1120871Z Scope: all 7 workspace projects
2024-06-11T07:31:03.2985529Z  ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/packages/ui/package.json
2024-06-11T07:31:03.2986904Z 
2024-06-11T07:31:03.2987522Z Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"
2024-06-11T07:31:03.2988101Z 
2024-06-11T07:31:03.2988480Z   Failure reason:
2024-06-11T07:31:03.2989031Z   specifiers in the lockfile ({"clsx":"^2.1.0","react":"^18.3.1"}) don't match specs in package.json ({"clsx":"^2.1.1","react":"^18.3.1","tailwind-merge":"^2.3.0"})
2024-06-11T07:31:03.3190442Z ##[error]Process completed with exit code 1.'''},

{'kind': 'paste', 'text': r'''TypeError
Cannot read properties of null (reading 'getBoundingClientRect')
app/static/js/chunk-vendors.8c1f2a.js in HTMLDivElement.onScroll at line 2:48213
Unhandled
Issues
Events: 1,482
Users: 311
First seen: 3 days ago
Last seen: 2 minutes ago
Release: web@2024.06.10-2
Environment: production

Stack Trace
Most Relevant | Full Stack Trace

./src/components/VirtualList.vue in onScroll at line 118:34
  const rect = container.value.getBoundingClientRect()
./node_modules/@vueuse/core/index.mjs in throttled at line 612:7
./node_modules/@vueuse/shared/index.mjs in invoke at line 301:12

Breadcrumbs
ui.click   div.list-row > span.title
navigation from /inbox to /inbox/archived
ui.scroll  div.virtual-list

Tags
browser Chrome 125.0.0
os Windows 10
url https://app.quillmail.io/inbox/archived'''},

{'kind': 'paste', 'text': r'''src/fetchers/rss.py:3:8: F401 [*] `os` imported but unused
src/fetchers/rss.py:41:5: E722 Do not use bare `except`
src/fetchers/rss.py:77:89: E501 Line too long (112 > 88)
src/models.py:12:1: I001 [*] Import block is un-sorted or un-formatted
src/models.py:58:24: UP007 [*] Use `X | Y` for type annotations
src/cli.py:19:9: B006 Do not use mutable data structures for argument defaults
src/cli.py:102:16: SIM108 Use ternary operator `level = "debug" if verbose else "info"` instead of `if`-`else`-block
Found 7 errors.
[*] 4 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).'''},

{'kind': 'paste', 'text': r'''
/home/lucia/code/kiosk/src/pages/Checkout.tsx
   14:10  error    'useMemo' is defined but never used                                                                  @typescript-eslint/no-unused-vars
   52:6   warning  React Hook useEffect has a missing dependency: 'fetchTotals'. Either include it or remove the dependency array  react-hooks/exhaustive-deps
   88:23  error    Unexpected any. Specify a different type                                                             @typescript-eslint/no-explicit-any

/home/lucia/code/kiosk/src/lib/printer.ts
    7:1   error    Import "escpos" is not in the dependencies list                                                      import/no-extraneous-dependencies
   33:15  error    Promise returned in function argument where a void return was expected                               @typescript-eslint/no-misused-promises

✖ 5 problems (4 errors, 1 warning)
'''},

{'kind': 'paste', 'text': r'''src/scheduler/jobs.py:34: error: Item "None" of "Optional[datetime]" has no attribute "astimezone"  [union-attr]
src/scheduler/jobs.py:58: error: Argument 1 to "enqueue" of "Queue" has incompatible type "dict[str, object]"; expected "Job"  [arg-type]
src/scheduler/cron.py:21: error: Incompatible return value type (got "list[str] | None", expected "list[str]")  [return-value]
src/scheduler/cron.py:22: note: Revealed type is "builtins.list[builtins.str] | None"
src/api/deps.py:9: error: Skipping analyzing "redis.asyncio": module is installed, but missing library stubs or py.typed marker  [import-untyped]
src/api/deps.py:9: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports
Found 4 errors in 3 files (checked 46 source files)'''},

{'kind': 'paste', 'text': r'''src/routes/api/orders/+server.ts:22:29 - error TS2345: Argument of type 'string | null' is not assignable to parameter of type 'string'.
  Type 'null' is not assignable to type 'string'.

22   const order = await getOrder(url.searchParams.get('id'));
                               ~~~~~~~~~~~~~~~~~~~~~~~~~~~

src/lib/db/schema.ts:61:3 - error TS2322: Type '{ id: number; total: string; }' is not assignable to type 'Order'.
  Property 'currency' is missing in type '{ id: number; total: string; }' but required in type 'Order'.

61   return { id: row.id, total: row.total };
     ~~~~~~

  src/lib/types.ts:14:3
    14   currency: Currency;
         ~~~~~~~~
    'currency' is declared here.


Found 2 errors in 2 files.

Errors  Files
     1  src/lib/db/schema.ts:61
     1  src/routes/api/orders/+server.ts:22'''},

{'kind': 'paste', 'text': r'''assets by status 1.84 MiB [cached] 12 assets
orphan modules 412 KiB [orphan] 88 modules
runtime modules 34.2 KiB 17 modules
cacheable modules 2.61 MiB
  modules by path ./node_modules/ 2.31 MiB 241 modules
  modules by path ./src/ 301 KiB 97 modules

ERROR in ./src/legacy/charts/index.js 14:0-45
Module not found: Error: Can't resolve 'crypto' in '/Users/ben/work/portal/src/legacy/charts'

BREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.
This is no longer the case. Verify if you need this module and configure a polyfill for it.

If you want to include a polyfill, you need to:
        - add a fallback 'resolve.fallback: { "crypto": require.resolve("crypto-browserify") }'
        - install 'crypto-browserify'
If you don't want to include a polyfill, you can use an empty module like this:
        resolve.fallback: { "crypto": false }

webpack 5.91.0 compiled with 1 error in 7412 ms'''},

{'kind': 'paste', 'text': r'''
  VITE v5.2.11  ready in 612 ms

  ➜  Local:   http://localhost:5173/
  ➜  Network: use --host to expose
  ➜  press h + enter to show help
10:21:44 AM [vite] Internal server error: Failed to resolve import "@/components/ui/dialog" from "src/features/settings/DeleteAccount.tsx". Does the file exist?
  Plugin: vite:import-analysis
  File: /home/ren/code/panel/src/features/settings/DeleteAccount.tsx:3:51
  1  |  import { useState } from "react";
  2  |  import { Button } from "@/components/ui/button";
  3  |  import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
     |                                                    ^
  4  |  import { useDeleteAccount } from "../api";
  5  |  
      at formatError (file:///home/ren/code/panel/node_modules/vite/dist/node/chunks/dep-cNe07EU9.js:50863:46)
      at TransformContext.error (file:///home/ren/code/panel/node_modules/vite/dist/node/chunks/dep-cNe07EU9.js:50857:19)
      at normalizeUrl (file:///home/ren/code/panel/node_modules/vite/dist/node/chunks/dep-cNe07EU9.js:66092:33)'''},

{'kind': 'paste', 'text': r''' Context: prod-eu-west-1                        <0> all       <a>      Attach     <l>       Logs            ____  __.________
 Cluster: arn:aws:eks:eu-west-1:123456789012:cl <1> default   <ctrl-d> Delete     <p>       Logs Previous  |    |/ _/   __   \______
 User:    arn:aws:eks:eu-west-1:123456789012:cl             <d>      Describe   <shift-f> Port-Forward   |      < \____    /  ___/
 K9s Rev: v0.32.4                                           <e>      Edit       <s>       Shell          |    |  \   /    /\___ \
 K8s Rev: v1.29.4-eks-036c24b                               <?>      Help       <n>       Show Node      |____|__ \ /____//____  >
 CPU:     38%                                               <ctrl-k> Kill       <f>       Show PortForward       \/            \/
 MEM:     71%
┌──────────────────────────────────────────── Pods(payments)[6] ─────────────────────────────────────────────┐
│ NAME↑                                   PF READY STATUS           RESTARTS CPU  MEM  %CPU/R %MEM/R IP           │
│ ledger-api-7c9d6f5b8-4kq2x              ●  1/1   Running                 0  212  688     106    134 10.1.44.18   │
│ ledger-api-7c9d6f5b8-9zvmt              ●  1/1   Running                 0  198  702      99    137 10.1.45.201  │
│ ledger-api-7c9d6f5b8-tx8wd              ●  1/1   Running                 0  205  691     102    134 10.1.46.77   │
│ payout-scheduler-5f8b4d7c6-m2lhj        ●  0/1   Error                   4    0    0       0      0 10.1.44.92   │
│ pg-bouncer-6d7c8f9b5-wc4rf              ●  1/1   Running                 0   12   31       6     12 10.1.45.13   │
│ stripe-webhooks-84b6c9d7f-qp7nb         ●  1/1   Running                 1   44  190      22     74 10.1.46.5    │
│                                                                                                                 │
└─────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
  <pod>'''},

{'kind': 'paste', 'text': r'''    0[||||||||||||||||||||||||||||||||||||||||||||100.0%]   4[||||||||                                   14.6%]
    1[||||||||||||||||||||||||||||||||||||||||||||100.0%]   5[|||||                                       9.3%]
    2[|||||||||||||                                 24.8%]   6[|||||||                                    12.1%]
    3[||||||                                        10.2%]   7[||||                                        7.0%]
  Mem[|||||||||||||||||||||||||||||||||||||||13.9G/15.5G]   Tasks: 312, 1471 thr; 4 running
  Swp[||||||||||||||||||||                    1.84G/4.00G]   Load average: 4.81 3.97 2.66
                                                            Uptime: 6 days, 03:12:48

    PID USER      PRI  NI  VIRT   RES   SHR S CPU%▽MEM%   TIME+  Command
 184422 alex       20   0 12.1G  6.4G 88412 R 198.  41.3 47:12.09 node --max-old-space-size=8192 node_modules/.bin/next build
 184507 alex       20   0 1521M  412M 42100 S  21.4  2.6  3:01.55 /usr/lib/code/code --type=renderer
   2231 alex       20   0 4012M  981M  201M S   9.8  6.2  2h11:40 /opt/google/chrome/chrome
   1944 root       20   0 2419M  220M 71520 S   4.1  1.4 38:04.22 /usr/bin/dockerd -H fd://
 184455 alex       20   0 1188M  342M 39808 S   3.3  2.2  0:58.71 node node_modules/.bin/tsc --noEmit --watch
F1Help  F2Setup F3SearchF4FilterF5Tree  F6SortByF7Nice -F8Nice +F9Kill  F10Quit'''},

{'kind': 'paste', 'text': r'''top - 11:02:17 up 41 days,  2:44,  2 users,  load average: 7.92, 6.31, 4.05
Tasks: 198 total,   3 running, 195 sleeping,   0 stopped,   0 zombie
%Cpu(s): 71.4 us,  9.2 sy,  0.0 ni,  4.1 id, 14.6 wa,  0.0 hi,  0.7 si,  0.0 st
MiB Mem :   7941.2 total,    182.4 free,   7021.9 used,    736.9 buff/cache
MiB Swap:   2048.0 total,     12.0 free,   2036.0 used.    611.3 avail Mem 

    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
  19211 www-data  20   0 1843212 902144  11264 R  96.3  11.1  88:14.02 php-fpm8.2
  19240 www-data  20   0 1840016 897532  11108 R  94.7  11.0  86:50.77 php-fpm8.2
   1022 mysql     20   0 4210044   2.1g  21472 S  61.2  27.1   1902:41 mysqld
  19377 www-data  20   0 1791220 845612  11036 D  22.5  10.4  12:03.55 php-fpm8.2
     88 root      20   0       0      0      0 S   3.0   0.0  41:19.20 kswapd0
    711 root      20   0  236412  18320  14872 S   0.7   0.2   8:12.91 redis-server
      1 root      20   0  167612  11232   8080 S   0.0   0.1   1:44.18 systemd'''},

{'kind': 'paste', 'text': r'''USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root           1  0.0  0.1 167508 11520 ?        Ss   May31   0:41 /sbin/init
deploy      4411  0.3  4.1 1248812 331204 ?      Sl   May31  52:08 /usr/bin/python3 /srv/pulse/.venv/bin/gunicorn pulse.wsgi:application -w 4 -b 127.0.0.1:8000
deploy      4415  1.2  6.8 1401220 551880 ?      Sl   May31 201:44 /usr/bin/python3 /srv/pulse/.venv/bin/gunicorn pulse.wsgi:application -w 4 -b 127.0.0.1:8000
deploy      4416  1.1  6.9 1402316 559012 ?      Sl   May31 198:20 /usr/bin/python3 /srv/pulse/.venv/bin/gunicorn pulse.wsgi:application -w 4 -b 127.0.0.1:8000
deploy      4417 88.9 19.7 2610452 1598812 ?     Rl   May31 9611:03 /usr/bin/python3 /srv/pulse/.venv/bin/gunicorn pulse.wsgi:application -w 4 -b 127.0.0.1:8000
deploy      4418  1.0  6.7 1399964 547120 ?      Sl   May31 196:51 /usr/bin/python3 /srv/pulse/.venv/bin/gunicorn pulse.wsgi:application -w 4 -b 127.0.0.1:8000
deploy      5120  0.0  1.9 402216 154412 ?       Sl   May31   9:12 /usr/bin/python3 /srv/pulse/.venv/bin/celery -A pulse worker -l info -c 2
deploy     28871  0.0  0.0   9216  2304 pts/0    S+   11:05   0:00 grep --color=auto gunicorn'''},

{'kind': 'paste', 'text': r'''Filesystem      Size  Used Avail Use% Mounted on
udev            3.9G     0  3.9G   0% /dev
tmpfs           794M  1.7M  792M   1% /run
/dev/nvme0n1p1   97G   97G     0 100% /
tmpfs           3.9G     0  3.9G   0% /dev/shm
tmpfs           5.0M     0  5.0M   0% /run/lock
/dev/nvme0n1p15 105M  6.1M   99M   6% /boot/efi
/dev/nvme1n1    492G  311G  156G  67% /var/lib/postgresql
overlay          97G   97G     0 100% /var/lib/docker/overlay2/4c9e1f7a2b3d/merged
tmpfs           794M  4.0K  794M   1% /run/user/1000'''},

{'kind': 'paste', 'text': r'''Connection timed out
Error code 522
Visit cloudflare.com for more information.
2024-06-11 09:12:44 UTC
You

Browser
Working
Amsterdam

Cloudflare
Working
shop.tidewater.co

Host
Error
What happened?
The initial connection between Cloudflare's network and the origin web server timed out. As a result, the web page can not be displayed.

What can I do?
If you're a visitor of this website:
Please try again in a few minutes.

If you're the owner of this website:
Contact your hosting provider letting them know your web server is not completing requests. An Error 522 means that the request was able to connect to your web server, but that the request didn't finish. The most likely cause is that something on your server is hogging resources. Additional troubleshooting information here.

Cloudflare Ray ID: 892f1c4e8b7a0d3e • Your IP: Click to reveal • Performance & security by Cloudflare'''},

{'kind': 'paste', 'text': r'''{
  "error": {
    "code": "resource_missing",
    "doc_url": "https://stripe.com/docs/error-codes/resource-missing",
    "message": "No such customer: 'cus_Q8fzL2mXkP0aB1'; a similar object exists in test mode, but a live mode key was used to make this request.",
    "param": "customer",
    "request_log_url": "https://dashboard.stripe.com/logs/req_7hKd93LmQpXz2a?t=1718097301",
    "type": "invalid_request_error"
  }
}'''},

{'kind': 'paste', 'text': r'''apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "14"
  labels:
    app: search-indexer
  name: search-indexer
  namespace: catalog
spec:
  progressDeadlineSeconds: 600
  replicas: 2
  selector:
    matchLabels:
      app: search-indexer
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      labels:
        app: search-indexer
    spec:
      containers:
      - env:
        - name: OPENSEARCH_URL
          value: https://search.catalog.svc:9200
        - name: BATCH_SIZE
          value: "500"
        image: ghcr.io/tidewater/search-indexer:1.18.2
        name: indexer
        resources:
          limits:
            cpu: "1"
            memory: 1Gi
status:
  availableReplicas: 1
  unavailableReplicas: 1'''},

{'kind': 'paste', 'text': r'''                                                                      QUERY PLAN
------------------------------------------------------------------------------------------------------------------------------------------------------
 Limit  (cost=1000.58..48213.77 rows=50 width=212) (actual time=3811.402..3904.118 rows=50 loops=1)
   ->  Gather Merge  (cost=1000.58..9213448.21 rows=9752 width=212) (actual time=3811.400..3904.101 rows=50 loops=1)
         Workers Planned: 2
         Workers Launched: 2
         ->  Nested Loop  (cost=0.56..9211321.07 rows=4063 width=212) (actual time=2410.551..3715.882 rows=19 loops=3)
               ->  Parallel Index Scan Backward using events_created_at_idx on events e  (cost=0.44..8612003.12 rows=1840221 width=180) (actual time=0.041..3102.377 rows=1612004 loops=3)
                     Filter: ((payload ->> 'kind'::text) = 'checkout'::text)
                     Rows Removed by Filter: 2210887
               ->  Index Scan using users_pkey on users u  (cost=0.12..0.32 rows=1 width=40) (actual time=0.000..0.000 rows=0 loops=4836012)
                     Index Cond: (id = e.user_id)
                     Filter: (org_id = 42)
                     Rows Removed by Filter: 1
 Planning Time: 0.612 ms
 Execution Time: 3904.301 ms
(14 rows)'''},

{'kind': 'paste', 'text': r'''+----+-----------------+---------------------+--------+------------+
| id | sku             | name                | stock  | updated_at |
+----+-----------------+---------------------+--------+------------+
|  7 | MUG-CER-WHT-12  | Ceramic mug, white  |     -3 | 2024-06-10 |
| 12 | TEE-ORG-BLK-L   | Organic tee L black |     -1 | 2024-06-09 |
| 31 | CAP-WOOL-NVY    | Wool cap navy       |    -12 | 2024-06-11 |
| 48 | BAG-TOTE-NAT    | Tote bag natural    |     -2 | 2024-06-07 |
+----+-----------------+---------------------+--------+------------+
4 rows in set (0.03 sec)
'''},

{'kind': 'paste', 'text': r'''Failures:

  1) Subscriptions::Renew when card is declined marks the subscription past_due
     Failure/Error: expect(subscription.reload.status).to eq("past_due")

       expected: "past_due"
            got: "active"

       (compared using ==)
     # ./spec/services/subscriptions/renew_spec.rb:42:in `block (3 levels) in <top (required)>'
     # ./spec/support/stripe_mock.rb:18:in `block (2 levels) in <top (required)>'

  2) Subscriptions::Renew sends the dunning email
     Failure/Error: DunningMailer.with(subscription: subscription).first_notice.deliver_later

     NoMethodError:
       undefined method `first_notice' for DunningMailer:Class
     # ./app/services/subscriptions/renew.rb:31:in `call'
     # ./spec/services/subscriptions/renew_spec.rb:55:in `block (2 levels) in <top (required)>'

Finished in 4.82 seconds (files took 3.11 seconds to load)
38 examples, 2 failures

Failed examples:

rspec ./spec/services/subscriptions/renew_spec.rb:38 # Subscriptions::Renew when card is declined marks the subscription past_due
rspec ./spec/services/subscriptions/renew_spec.rb:51 # Subscriptions::Renew sends the dunning email'''},

{'kind': 'paste', 'text': r'''Fetching gem metadata from https://rubygems.org/.........
Resolving dependencies...
Fetching nokogiri 1.16.5 (arm64-darwin)
Installing nokogiri 1.16.5 (arm64-darwin)
Fetching mysql2 0.5.6
Installing mysql2 0.5.6 with native extensions
Gem::Ext::BuildError: ERROR: Failed to build gem native extension.

    current directory: /Users/jo/.rbenv/versions/3.3.1/lib/ruby/gems/3.3.0/gems/mysql2-0.5.6/ext/mysql2
/Users/jo/.rbenv/versions/3.3.1/bin/ruby extconf.rb
checking for rb_absint_size()... yes
checking for rb_absint_singlebit_p()... yes
checking for rb_gc_mark_movable()... yes
checking for rb_wait_for_single_fd()... yes
checking for -lmysqlclient... no
-----
mysql client is missing. You may need to 'brew install mysql' or 'port install mysql', and try again.
-----
*** extconf.rb failed ***
Could not create Makefile due to some reason, probably lack of necessary
libraries and/or headers.  Check the mkmf.log file for more details.  You may
need configuration options.

An error occurred while installing mysql2 (0.5.6), and Bundler cannot continue.

In Gemfile:
  mysql2'''},

{'kind': 'paste', 'text': r'''Started POST "/admin/imports" for 127.0.0.1 at 2024-06-11 11:20:33 +0200
Processing by Admin::ImportsController#create as TURBO_STREAM
  Parameters: {"authenticity_token"=>"[FILTERED]", "import"=>{"file"=>#<ActionDispatch::Http::UploadedFile:0x000000012b3c9e10 @tempfile=#<Tempfile:/var/folders/7x/tmp/RackMultipart20240611-51234-1k2j3l.csv>, @content_type="text/csv", @original_filename="members-june.csv">}, "commit"=>"Upload"}
  User Load (0.4ms)  SELECT "users".* FROM "users" WHERE "users"."id" = $1 LIMIT $2  [["id", 1], ["LIMIT", 1]]
  ↳ app/controllers/application_controller.rb:14:in `current_user'
  TRANSACTION (0.1ms)  BEGIN
  Import Create (1.2ms)  INSERT INTO "imports" ("status", "filename", "user_id", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5) RETURNING "id"  [["status", "pending"], ["filename", "members-june.csv"], ["user_id", 1], ["created_at", "2024-06-11 09:20:33.512210"], ["updated_at", "2024-06-11 09:20:33.512210"]]
  ↳ app/controllers/admin/imports_controller.rb:9:in `create'
  TRANSACTION (0.6ms)  COMMIT
[ActiveJob] Enqueued ImportMembersJob (Job ID: 3f2b1c9a-7d6e-4f5a-8b9c-0d1e2f3a4b5c) to Sidekiq(default) with arguments: #<GlobalID:0x000000012c0a1b28 @uri=#<URI::GID gid://clubhouse/Import/88>>
Completed 500 Internal Server Error in 41ms (ActiveRecord: 2.3ms | Allocations: 11873)


  
ActionView::Template::Error (undefined local variable or method `import_path' for an instance of #<Class:0x000000012a9f7c30>):
    1: <%= turbo_stream.replace "import_form" do %>
    2:   <%= render "form", import: Import.new %>
    3: <% end %>
    4: <%= turbo_stream.prepend "imports", partial: "row", locals: { import: @import, url: import_path(@import) } %>
  
app/views/admin/imports/create.turbo_stream.erb:4'''},

{'kind': 'paste', 'text': r'''66.249.66.12 - - [11/Jun/2024:09:31:02 +0000] "GET /products/wool-cap-navy HTTP/1.1" 200 18233 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
203.0.113.77 - - [11/Jun/2024:09:31:02 +0000] "POST /cart/add HTTP/2.0" 302 0 "https://shop.tidewater.co/products/tote-bag" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
203.0.113.77 - - [11/Jun/2024:09:31:03 +0000] "GET /cart HTTP/2.0" 500 612 "https://shop.tidewater.co/products/tote-bag" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
198.51.100.4 - - [11/Jun/2024:09:31:04 +0000] "GET /wp-login.php HTTP/1.1" 404 153 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64)"
198.51.100.4 - - [11/Jun/2024:09:31:04 +0000] "GET /.env HTTP/1.1" 404 153 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64)"
192.0.2.55 - - [11/Jun/2024:09:31:06 +0000] "GET /cart HTTP/2.0" 500 612 "https://shop.tidewater.co/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36"
192.0.2.55 - - [11/Jun/2024:09:31:09 +0000] "GET /cart HTTP/2.0" 500 612 "https://shop.tidewater.co/cart" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36"'''},

{'kind': 'paste', 'text': r'''{"level":"info","ts":"2024-06-11T09:40:01.002Z","caller":"server/http.go:88","msg":"request","method":"GET","path":"/v1/feeds/42","status":200,"latency_ms":14,"req_id":"01J05X4K6Q1R"}
{"level":"info","ts":"2024-06-11T09:40:01.118Z","caller":"server/http.go:88","msg":"request","method":"POST","path":"/v1/feeds/42/refresh","status":202,"latency_ms":3,"req_id":"01J05X4K9T2M"}
{"level":"warn","ts":"2024-06-11T09:40:01.409Z","caller":"fetch/client.go:131","msg":"upstream slow","url":"https://blog.example.org/feed.xml","elapsed_ms":2874,"attempt":1}
{"level":"error","ts":"2024-06-11T09:40:04.411Z","caller":"fetch/client.go:140","msg":"fetch failed","url":"https://blog.example.org/feed.xml","error":"context deadline exceeded (Client.Timeout exceeded while awaiting headers)","attempt":2}
{"level":"error","ts":"2024-06-11T09:40:04.412Z","caller":"worker/refresh.go:57","msg":"refresh aborted","feed_id":42,"error":"fetch: giving up after 2 attempts","stacktrace":"github.com/pollen/feeds/worker.(*Refresher).Run\n\t/src/worker/refresh.go:57\nmain.main.func2\n\t/src/cmd/feeds/main.go:74"}
{"level":"info","ts":"2024-06-11T09:40:05.030Z","caller":"server/http.go:88","msg":"request","method":"GET","path":"/healthz","status":200,"latency_ms":0,"req_id":"01J05X4P0A7C"}'''},

{'kind': 'paste', 'text': r'''               total        used        free      shared  buff/cache   available
Mem:            3820        3507         101          12         211          86
Swap:              0           0           0
procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----
 r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st
 6  2      0 103412   2104 214880    0    0 41022   312 4102 8811 22 31  3 44  0
 4  3      0 101220   1988 212004    0    0 52240   188 4388 9120 19 35  2 44  0
 7  2      0  99876   1804 209312    0    0 49812   204 4251 9002 21 33  1 45  0
 5  4      0  98004   1720 207778    0    0 55601   166 4420 9341 18 36  1 45  0'''},

{'kind': 'paste', 'text': r'''[1290331.412887] node invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[1290331.412899] CPU: 1 PID: 77123 Comm: node Not tainted 6.1.0-21-cloud-amd64 #1  Debian 6.1.90-1
[1290331.412902] Hardware name: Amazon EC2 t3.medium/, BIOS 1.0 10/16/2017
[1290331.412904] Call Trace:
[1290331.412906]  <TASK>
[1290331.412909]  dump_stack_lvl+0x44/0x5c
[1290331.412917]  dump_header+0x4a/0x211
[1290331.412921]  oom_kill_process.cold+0xb/0x10
[1290331.412924]  out_of_memory+0x1fd/0x4c0
[1290331.412930]  __alloc_pages_slowpath.constprop.0+0xcb4/0xe10
[1290331.412941]  </TASK>
[1290331.412983] Mem-Info:
[1290331.412987] active_anon:712003 inactive_anon:201118 isolated_anon:0
[1290331.413102] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
[1290331.413109] [  77123]  1000 77123 11823104   902211 10338304        0             0 node
[1290331.413113] [  77201]  1000 77201   612080    48211   839680        0             0 node
[1290331.413119] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice/session-4.scope,task=node,pid=77123,uid=1000
[1290331.413151] Out of memory: Killed process 77123 (node) total-vm:47292416kB, anon-rss:3608844kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:10096kB oom_score_adj:0'''},

{'kind': 'paste', 'text': r'''Release "grafana" does not exist. Installing it now.
coalesce.go:289: warning: destination for grafana.grafana.ini.server is a table. Ignoring non-table value ()
Error: INSTALLATION FAILED: 1 error occurred:
	* Deployment.apps "grafana" is invalid: spec.template.spec.containers[0].env[3].valueFrom.secretKeyRef.name: Invalid value: "Grafana_Admin": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
'''},

{'kind': 'paste', 'text': r'''CONNECTED(00000003)
depth=0 CN = mail.harborline.net
verify error:num=20:unable to get local issuer certificate
verify return:1
depth=0 CN = mail.harborline.net
verify error:num=21:unable to verify the first certificate
verify return:1
depth=0 CN = mail.harborline.net
verify return:1
---
Certificate chain
 0 s:CN = mail.harborline.net
   i:C = US, O = Let's Encrypt, CN = R11
   a:PKEY: id-ecPublicKey, 256 (bit); sigalg: RSA-SHA256
   v:NotBefore: May 20 04:12:31 2024 GMT; NotAfter: Aug 18 04:12:30 2024 GMT
---
Server certificate
subject=CN = mail.harborline.net
issuer=C = US, O = Let's Encrypt, CN = R11
---
No client certificate CA names sent
Peer signing digest: SHA256
Peer signature type: ECDSA
Server Temp Key: X25519, 253 bits
---
SSL handshake has read 1516 bytes and written 396 bytes
Verification error: unable to verify the first certificate
---
New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384
Server public key is 256 bit
Secure Renegotiation IS NOT supported
Compression: NONE
Expansion: NONE
No ALPN negotiated
Early data was not sent
Verify return code: 21 (unable to verify the first certificate)'''},

{'kind': 'paste', 'text': r'''
; <<>> DiG 9.18.24 <<>> _dmarc.harborline.net TXT
;; global options: +cmd
;; Got answer:
;; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 40112
;; flags: qr rd ra; QUERY: 1, ANSWER: 0, AUTHORITY: 1, ADDITIONAL: 1

;; OPT PSEUDOSECTION:
; EDNS: version: 0, flags:; udp: 1232
;; QUESTION SECTION:
;_dmarc.harborline.net.		IN	TXT

;; AUTHORITY SECTION:
harborline.net.		1800	IN	SOA	ns1.dnsimple.com. admin.dnsimple.com. 1718090112 86400 7200 604800 300

;; Query time: 38 msec
;; SERVER: 1.1.1.1#53(1.1.1.1) (UDP)
;; WHEN: Tue Jun 11 11:44:02 CEST 2024
;; MSG SIZE  rcvd: 118
'''},

{'kind': 'paste', 'text': r'''OpenSSH_9.6p1, LibreSSL 3.3.6
debug1: Reading configuration data /Users/nina/.ssh/config
debug1: /Users/nina/.ssh/config line 12: Applying options for bastion-prod
debug1: Reading configuration data /etc/ssh/ssh_config
debug1: Connecting to 52.17.204.88 [52.17.204.88] port 22.
debug1: Connection established.
debug1: identity file /Users/nina/.ssh/id_ed25519 type 3
debug1: Local version string SSH-2.0-OpenSSH_9.6
debug1: Remote protocol version 2.0, remote software version OpenSSH_8.9p1 Ubuntu-3ubuntu0.7
debug1: Authenticating to 52.17.204.88:22 as 'ubuntu'
debug1: SSH2_MSG_KEX_ECDH_REPLY received
debug1: Server host key: ssh-ed25519 SHA256:6l9mQ3e1pV0bK7sN2xYh8R4tZ1fUo5cW3jD0aL7kE2g
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
Someone could be eavesdropping on you right now (man-in-the-middle attack)!
It is also possible that a host key has just been changed.
The fingerprint for the ED25519 key sent by the remote host is
SHA256:6l9mQ3e1pV0bK7sN2xYh8R4tZ1fUo5cW3jD0aL7kE2g.
Please contact your system administrator.
Add correct host key in /Users/nina/.ssh/known_hosts to get rid of this message.
Offending ED25519 key in /Users/nina/.ssh/known_hosts:7
Host key for 52.17.204.88 has changed and you have requested strict checking.
Host key verification failed.'''},

{'kind': 'paste', 'text': r'''npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: marketing-site@0.3.0
npm ERR! Found: react@18.3.1
npm ERR! node_modules/react
npm ERR!   react@"^18.3.1" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.0 || ^17.0.0" from react-helmet-async@1.3.0
npm ERR! node_modules/react-helmet-async
npm ERR!   react-helmet-async@"^1.3.0" from the root project
npm ERR! 
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
npm ERR! 
npm ERR! 
npm ERR! For a full report see:
npm ERR! /Users/theo/.npm/_logs/2024-06-11T09_51_22_104Z-eresolve-report.txt

npm ERR! A complete log of this run can be found in: /Users/theo/.npm/_logs/2024-06-11T09_51_22_104Z-debug-0.log'''},

{'kind': 'paste', 'text': r'''  ▲ Next.js 14.2.3
  - Environments: .env.production

   Creating an optimized production build ...
 ✓ Compiled successfully
 ✓ Linting and checking validity of types
 ✓ Collecting page data
 ✓ Generating static pages (14/14)
 ✓ Collecting build traces
 ✓ Finalizing page optimization

Route (app)                              Size     First Load JS
┌ ○ /                                    5.2 kB          98.1 kB
├ ○ /_not-found                          871 B           88.2 kB
├ ƒ /api/checkout                        0 B                0 B
├ ● /blog/[slug]                         2.9 kB          102 kB
├   ├ /blog/launch-week
├   ├ /blog/pricing-update
├   └ [+6 more paths]
├ ○ /pricing                             3.4 kB          99.7 kB
└ ƒ /dashboard                           41.8 kB          187 kB
+ First Load JS shared by all            87.3 kB
  ├ chunks/23-9a1c2b7e0d4f5a61.js        31.6 kB
  ├ chunks/fd9d1056-4b3a7e2c1d0f9e88.js  53.6 kB
  └ other shared chunks (total)          2.1 kB


○  (Static)   prerendered as static content
●  (SSG)      prerendered as static HTML (uses getStaticProps)
ƒ  (Dynamic)  server-rendered on demand'''},

{'kind': 'paste', 'text': r'''trim trailing whitespace.................................................Passed
fix end of files.........................................................Passed
check yaml...............................................................Passed
check for added large files..............................................Failed
- hook id: check-added-large-files
- exit code: 1

data/fixtures/sample_export.parquet (2714 KB) exceeds 500 KB.

black....................................................................Failed
- hook id: black
- files were modified by this hook

reformatted src/pipeline/transform.py

All done! ✨ 🍰 ✨
1 file reformatted, 38 files left unchanged.

isort....................................................................Passed
mypy.....................................................................Passed'''},

{'kind': 'paste', 'text': r'''  Determining projects to restore...
  All projects are up-to-date for restore.
  Harbor.Domain -> /home/vik/src/harbor/src/Harbor.Domain/bin/Debug/net8.0/Harbor.Domain.dll
/home/vik/src/harbor/src/Harbor.Api/Controllers/BookingsController.cs(41,31): error CS1061: 'IBookingService' does not contain a definition for 'CancelAsync' and no accessible extension method 'CancelAsync' accepting a first argument of type 'IBookingService' could be found (are you missing a using directive or an assembly reference?) [/home/vik/src/harbor/src/Harbor.Api/Harbor.Api.csproj]
/home/vik/src/harbor/src/Harbor.Api/Program.cs(17,1): warning CS8604: Possible null reference argument for parameter 'connectionString' in 'DbContextOptionsBuilder NpgsqlDbContextOptionsBuilderExtensions.UseNpgsql(DbContextOptionsBuilder optionsBuilder, string? connectionString, Action<NpgsqlDbContextOptionsBuilder>? npgsqlOptionsAction = null)'. [/home/vik/src/harbor/src/Harbor.Api/Harbor.Api.csproj]

Build FAILED.

/home/vik/src/harbor/src/Harbor.Api/Program.cs(17,1): warning CS8604: Possible null reference argument for parameter 'connectionString' in 'DbContextOptionsBuilder NpgsqlDbContextOptionsBuilderExtensions.UseNpgsql(DbContextOptionsBuilder optionsBuilder, string? connectionString, Action<NpgsqlDbContextOptionsBuilder>? npgsqlOptionsAction = null)'. [/home/vik/src/harbor/src/Harbor.Api/Harbor.Api.csproj]
/home/vik/src/harbor/src/Harbor.Api/Controllers/BookingsController.cs(41,31): error CS1061: 'IBookingService' does not contain a definition for 'CancelAsync' and no accessible extension method 'CancelAsync' accepting a first argument of type 'IBookingService' could be found (are you missing a using directive or an assembly reference?) [/home/vik/src/harbor/src/Harbor.Api/Harbor.Api.csproj]
    1 Warning(s)
    1 Error(s)

Time Elapsed 00:00:04.62'''},

{'kind': 'paste', 'text': r'''health status index                          uuid                   pri rep docs.count docs.deleted store.size pri.store.size
green  open   products-v7                    kQ2x8Lw1Rz6m0Xv3cP9aYg   3   1    1204881        31022      2.1gb          1.0gb
yellow open   products-v8                    Zp4nT7bVq1sK2eJ8hL5uWd   3   1     988120            0      1.6gb          1.6gb
green  open   orders-2024.06                 Yt6rP0cWm8nL3xQ1vB7kAs   1   1     412003          880    301.2mb        150.6mb
green  open   orders-2024.05                 Hj2kD9fGs4aZ7qW0eR1tYu   1   1    1890442         2211      1.3gb        699.8mb
red    open   audit-2024.06                  Lm5nB8vC2xZ6aS9dF3gH7j   1   1                                                  
green  open   .kibana_8.13.4_001             Qw1eR2tY3uI4oP5aS6dF7g   1   1        611           44      2.4mb          1.2mb'''},

{'kind': 'paste', 'text': r'''
Consumer group 'invoice-mailer' has no active members.

GROUP           TOPIC              PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID
invoice-mailer  invoices.created   0          881204          1093377         212173          -               -               -
invoice-mailer  invoices.created   1          879911          1092118         212207          -               -               -
invoice-mailer  invoices.created   2          880653          1093002         212349          -               -               -
invoice-mailer  invoices.voided    0          44012           44012           0               -               -               -'''},

{'kind': 'paste', 'text': r'''[2024-06-11 10:03:17] production.ERROR: SQLSTATE[42S22]: Column not found: 1054 Unknown column 'tenants.deleted_at' in 'where clause' (Connection: mysql, SQL: select * from `tenants` where `domain` = acme.portal.test and `tenants`.`deleted_at` is null limit 1) {"exception":"[object] (Illuminate\\Database\\QueryException(code: 42S22): SQLSTATE[42S22]: Column not found: 1054 Unknown column 'tenants.deleted_at' in 'where clause' (Connection: mysql, SQL: select * from `tenants` where `domain` = acme.portal.test and `tenants`.`deleted_at` is null limit 1) at /var/www/portal/vendor/laravel/framework/src/Illuminate/Database/Connection.php:813)
[stacktrace]
#0 /var/www/portal/vendor/laravel/framework/src/Illuminate/Database/Connection.php(767): Illuminate\\Database\\Connection->runQueryCallback('select * from `...', Array, Object(Closure))
#1 /var/www/portal/vendor/laravel/framework/src/Illuminate/Database/Connection.php(398): Illuminate\\Database\\Connection->run('select * from `...', Array, Object(Closure))
#2 /var/www/portal/vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php(3106): Illuminate\\Database\\Connection->select('select * from `...', Array, true)
#3 /var/www/portal/vendor/laravel/framework/src/Illuminate/Database/Eloquent/Builder.php(724): Illuminate\\Database\\Query\\Builder->get(Array)
#4 /var/www/portal/app/Http/Middleware/ResolveTenant.php(22): Illuminate\\Database\\Eloquent\\Builder->first()
#5 /var/www/portal/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(183): App\\Http\\Middleware\\ResolveTenant->handle(Object(Illuminate\\Http\\Request), Object(Closure))
#6 {main}
"} '''},

{'kind': 'paste', 'text': r'''go: finding module for package github.com/aws/aws-sdk-go-v2/service/sqs/types
go: downloading github.com/aws/aws-sdk-go-v2/service/sqs v1.32.6
go: github.com/pollen/feeds/internal/queue imports
	github.com/aws/aws-sdk-go-v2/service/sqs/types: github.com/aws/aws-sdk-go-v2/service/sqs@v1.32.6: verifying module: checksum mismatch
	downloaded: h1:4eE8SCPcbYRwK5uB6S4gLSBBmsVDZ4eiQAJO3Sj8Wd4=
	go.sum:     h1:kXxtYzHN9UdvLhYgJ8NT07gq3XQJnHL6Q+0cb7Fk4ds=

SECURITY ERROR
This download does NOT match an earlier download recorded in go.sum.
The bits may have been replaced on the origin server, or an attacker may
have intercepted the download attempt.

For more information, see 'go help module-auth'.'''},

{'kind': 'paste', 'text': r'''2024-06-11 10:14:52,118 INFO [scraper.runner] starting 24 fetch tasks (concurrency=8)
2024-06-11 10:14:53,402 WARNING [scraper.http] 429 from https://api.marketdata.example/v3/quotes?symbols=AAPL,MSFT retry-after=2
2024-06-11 10:14:55,887 ERROR [asyncio] Task exception was never retrieved
future: <Task finished name='Task-17' coro=<fetch_quotes() done, defined at /app/scraper/tasks.py:31> exception=ClientPayloadError('Response payload is not completed: <TransferEncodingError: 400, message=\'Not enough data for satisfy transfer length header.\'>')>
Traceback (most recent call last):
  File "/app/scraper/tasks.py", line 44, in fetch_quotes
    data = await resp.json()
           ^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/aiohttp/client_reqrep.py", line 1187, in json
    await self.read()
  File "/usr/local/lib/python3.12/site-packages/aiohttp/client_reqrep.py", line 1127, in read
    self._body = await self.content.read()
                 ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/aiohttp/streams.py", line 383, in read
    block = await self.readany()
            ^^^^^^^^^^^^^^^^^^^^
aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: <TransferEncodingError: 400, message='Not enough data for satisfy transfer length header.'>
2024-06-11 10:14:56,004 INFO [scraper.runner] 23/24 tasks done, 1 failed'''},

{'kind': 'paste', 'text': r'''Tue Jun 11 10:22:41 2024       
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA A10G                    On  |   00000000:00:1E.0 Off |                    0 |
|  0%   61C    P0            198W /  300W |   22871MiB /  23028MiB |    100%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+
                                                                                         
+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
|        ID   ID                                                               Usage      |
|=========================================================================================|
|    0   N/A  N/A     31877      C   /opt/conda/bin/python                       22858MiB |
+-----------------------------------------------------------------------------------------+'''},

# ---------------------------------------------------------------- mixed
{'kind': 'mixed', 'typed': ["getting this when i run mix test after pulling main, any idea whats going on?"], 'text': r'''getting this when i run mix test after pulling main, any idea whats going on?

==> ecto_sql
Compiling 35 files (.ex)
Generated ecto_sql app
==> tally
Compiling 48 files (.ex)
error: undefined function cast_embed/3 (expected Tally.Polls.Poll to define such a function or for it to be imported, but none are available)
  lib/tally/polls/poll.ex:27: Tally.Polls.Poll.changeset/2

warning: variable "opts" is unused (if the variable is not meant to be used, prefix it with an underscore)
  lib/tally_web/live/poll_live/show.ex:14: TallyWeb.PollLive.Show.mount/3

== Compilation error in file lib/tally/polls/poll.ex ==
** (CompileError) lib/tally/polls/poll.ex: cannot compile module Tally.Polls.Poll (errors have been logged)'''},

{'kind': 'mixed', 'typed': ["Xcode keeps failing on archive but debug builds are fine.", "Is this a signing thing or something with the SPM package?"], 'text': r'''Xcode keeps failing on archive but debug builds are fine.

❌  /Users/ana/Developer/Trailmix/Trailmix/Features/Map/RouteOverlay.swift:58:21: cannot find 'MKMultiPolyline' in scope
            let multi = MKMultiPolyline(polylines)
                        ^~~~~~~~~~~~~~~
⚠️  /Users/ana/Developer/Trailmix/Trailmix/Services/LocationService.swift:33:14: 'authorizationStatus()' was deprecated in iOS 14.0
⚠️  /Users/ana/Developer/Trailmix/Packages/GPXKit/Sources/GPXKit/Parser.swift:112:9: result of call to 'parse()' is unused
** ARCHIVE FAILED **

The following build commands failed:
	SwiftCompile normal arm64 /Users/ana/Developer/Trailmix/Trailmix/Features/Map/RouteOverlay.swift (in target 'Trailmix' from project 'Trailmix')
(1 failure)

Is this a signing thing or something with the SPM package?'''},

{'kind': 'mixed', 'typed': ["flutter run on android emulator just dies with this:", "ios works fine. minSdk is 21 in build.gradle"], 'text': r'''flutter run on android emulator just dies with this:

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:checkDebugAarMetadata'.
> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckAarMetadataWorkAction
   > 2 issues were found when checking AAR metadata:

       1.  Dependency 'androidx.core:core:1.13.1' requires libraries and applications that
           depend on it to compile against version 34 or later of the
           Android APIs.

           :app is currently compiled against android-33.

       2.  Dependency 'androidx.core:core-ktx:1.13.1' requires libraries and applications that
           depend on it to compile against version 34 or later of the
           Android APIs.

BUILD FAILED in 14s
Error: Gradle task assembleDebug failed with exit code 1

ios works fine. minSdk is 21 in build.gradle'''},

{'kind': 'mixed', 'typed': ["alembic autogenerate is trying to drop all my tables?? i only added one column to User"], 'text': r'''alembic autogenerate is trying to drop all my tables?? i only added one column to User

INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.autogenerate.compare] Detected removed table 'organizations'
INFO  [alembic.autogenerate.compare] Detected removed table 'memberships'
INFO  [alembic.autogenerate.compare] Detected removed index 'ix_users_email' on 'users'
INFO  [alembic.autogenerate.compare] Detected removed table 'users'
INFO  [alembic.autogenerate.compare] Detected removed table 'api_keys'
  Generating /home/femi/code/roster/migrations/versions/9c2e41ab7f10_add_user_timezone.py ...  done'''},

{'kind': 'mixed', 'typed': ["prisma migrate dev output:", "I never touched the migrations folder manually, the only thing I did was rebase onto main. How do I get out of this without resetting the dev db (it has seed data I care about)?"], 'text': r'''prisma migrate dev output:

Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "kanban", schema "public" at "localhost:5432"

- The migration `20240604120311_add_board_archived` was modified after it was applied.
- Drift detected: Your database schema is not in sync with your migration history.

The following is a summary of the differences between the expected database schema given your migrations files, and the actual schema of the database.

It should be understood as the set of changes to get from the expected schema to the actual schema.

[*] Changed the `Board` table
  [+] Added column `archivedAt`

We need to reset the "public" schema at "localhost:5432"

You may use prisma migrate reset to drop the development database.
All data will be lost.

I never touched the migrations folder manually, the only thing I did was rebase onto main. How do I get out of this without resetting the dev db (it has seed data I care about)?'''},

{'kind': 'mixed', 'typed': ["celery worker keeps logging this every few minutes and then tasks just stop being picked up. redis is the broker, running in k8s"], 'text': r'''[2024-06-11 10:31:12,884: INFO/MainProcess] Task reports.tasks.render_pdf[8b1f3e2a-71c4-4d0a-9e55-2a6f0c9d1b77] received
[2024-06-11 10:31:44,002: WARNING/MainProcess] consumer: Connection to broker lost. Trying to re-establish the connection...
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/celery/worker/consumer/consumer.py", line 340, in start
    blueprint.start(self)
  File "/usr/local/lib/python3.11/site-packages/kombu/transport/redis.py", line 1340, in _brpop_read
    dest__item = self.client.parse_response(self.client.connection,
  File "/usr/local/lib/python3.11/site-packages/redis/connection.py", line 524, in read_response
    raise ConnectionError(SERVER_CLOSED_CONNECTION_ERROR)
redis.exceptions.ConnectionError: Connection closed by server.
[2024-06-11 10:31:44,011: WARNING/MainProcess] /usr/local/lib/python3.11/site-packages/celery/worker/consumer/consumer.py:391: CPendingDeprecationWarning: 
In Celery 5.1 we introduced an optional breaking change which
on connection loss cancels all currently executed tasks with late acknowledgement enabled.
[2024-06-11 10:31:46,120: INFO/MainProcess] Connected to redis://redis-master.default.svc:6379/0

celery worker keeps logging this every few minutes and then tasks just stop being picked up. redis is the broker, running in k8s'''},

{'kind': 'mixed', 'typed': ["ansible fails on the new hosts only, old ones are fine. same inventory group", "what's different?"], 'text': r'''ansible fails on the new hosts only, old ones are fine. same inventory group

TASK [common : install base packages] ******************************************
ok: [web-03]
ok: [web-04]
fatal: [web-07]: FAILED! => {"ansible_facts": {"discovered_interpreter_python": "/usr/bin/python3"}, "changed": false, "msg": "No package matching 'python3-distutils' is available"}
fatal: [web-08]: FAILED! => {"ansible_facts": {"discovered_interpreter_python": "/usr/bin/python3"}, "changed": false, "msg": "No package matching 'python3-distutils' is available"}

PLAY RECAP *********************************************************************
web-03                     : ok=12   changed=0    unreachable=0    failed=0    skipped=2    rescued=0    ignored=0
web-04                     : ok=12   changed=0    unreachable=0    failed=0    skipped=2    rescued=0    ignored=0
web-07                     : ok=3    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
web-08                     : ok=3    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0

what's different?'''},

{'kind': 'mixed', 'typed': ["pulumi up is stuck wanting to replace the VPC, which would nuke everything. I only bumped @pulumi/aws from 6.30 to 6.38. Why does it think the cidr changed?"], 'text': r'''Previewing update (prod)

     Type                              Name              Plan        Info
     pulumi:pulumi:Stack               infra-prod
 +-  ├─ aws:ec2:Vpc                    main              replace     [diff: ~cidrBlock]
 +-  ├─ aws:ec2:Subnet                 private-a         replace     [diff: ~vpcId]
 +-  ├─ aws:ec2:Subnet                 private-b         replace     [diff: ~vpcId]
 ~   ├─ aws:ec2:SecurityGroup          db                update      [diff: ~vpcId]
 +-  └─ aws:rds:Instance               primary           replace     [diff: ~dbSubnetGroupName]

Resources:
    ~ 1 to update
    +-4 to replace
    5 changes. 37 unchanged

pulumi up is stuck wanting to replace the VPC, which would nuke everything. I only bumped @pulumi/aws from 6.30 to 6.38. Why does it think the cidr changed?'''},

{'kind': 'mixed', 'typed': ["argo shows the app as OutOfSync forever even right after a sync:"], 'text': r'''argo shows the app as OutOfSync forever even right after a sync:

Name:               argocd/billing-web
Project:            default
Server:             https://kubernetes.default.svc
Namespace:          billing
URL:                https://argocd.internal.tidewater.co/applications/billing-web
Source:
- Repo:             https://github.com/tidewater/deploy.git
  Target:           HEAD
  Path:             apps/billing-web/overlays/prod
SyncWindow:         Sync Allowed
Sync Policy:        Automated (Prune)
Sync Status:        OutOfSync from HEAD (4c1d9e2)
Health Status:      Healthy

GROUP  KIND                     NAMESPACE  NAME         STATUS     HEALTH   HOOK  MESSAGE
       Service                  billing    billing-web  Synced     Healthy        service/billing-web unchanged
apps   Deployment               billing    billing-web  OutOfSync  Healthy        deployment.apps/billing-web configured
autoscaling  HorizontalPodAutoscaler  billing  billing-web  Synced  Healthy        horizontalpodautoscaler.autoscaling/billing-web unchanged'''},

{'kind': 'mixed', 'typed': ["wrangler deploy fails, this used to work on the free plan. do I actually need to pay for this or can I split the worker?"], 'text': r'''wrangler deploy fails, this used to work on the free plan. do I actually need to pay for this or can I split the worker?

 ⛅️ wrangler 3.60.1
-------------------

Total Upload: 3218.44 KiB / gzip: 1102.17 KiB
Your worker has access to the following bindings:
- KV Namespaces:
  - SESSIONS: 7b1c0e2f9a4d4b6c8e1f2a3b4c5d6e7f
- D1 Databases:
  - DB: linkshelf-prod (a9e1f2c3-4b5d-6e7f-8a9b-0c1d2e3f4a5b)

✘ [ERROR] A request to the Cloudflare API (/accounts/1f2e3d4c5b6a/workers/scripts/linkshelf) failed.

  Your Worker exceeded the size limit of 1 MiB. Please upgrade to a paid plan to deploy Workers up to 10 MiB. https://dash.cloudflare.com/1f2e3d4c5b6a/workers/plans [code: 10027]
  
  If you think this is a bug, please open an issue at: https://github.com/cloudflare/workers-sdk/issues/new/choose'''},

{'kind': 'mixed', 'typed': ["fly deploy health checks fail but the app boots fine locally with the same image"], 'text': r'''fly deploy health checks fail but the app boots fine locally with the same image

Updating existing machines in 'pollbot' with rolling strategy
-------
 ✖ Failed: error updating machine 3d8d9e4c712089: machine 3d8d9e4c712089 failed to pass health checks
-------
Error: timeout reached waiting for health checks to pass for machine 3d8d9e4c712089: failed to get VM 3d8d9e4c712089: Get "https://api.machines.dev/v1/apps/pollbot/machines/3d8d9e4c712089": net/http: request canceled
Your machine never reached the state "%s".

You can try increasing the timeout with the --wait-timeout flag

2024-06-11T08:55:02Z app[3d8d9e4c712089] ams [info] INFO Starting init (commit: 5b8a1c2)...
2024-06-11T08:55:03Z app[3d8d9e4c712089] ams [info]  INFO     Uvicorn running on http://127.0.0.1:8080 (Press CTRL+C to quit)
2024-06-11T08:55:33Z health[3d8d9e4c712089] ams [error]Health check on port 8080 has failed. Your app is not responding properly. Services exposed on ports [80, 443] will have intermittent failures until the health check passes.'''},

{'kind': 'mixed', 'typed': ["heroku logs from last night's incident, the dynos got R14 then eventually H12s. is this a memory leak in the app or just puma config? we run 2 dynos standard-1x"], 'text': r'''2024-06-10T23:41:02.112041+00:00 heroku[web.1]: Process running mem=541M(105.7%)
2024-06-10T23:41:02.114203+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)
2024-06-10T23:41:22.801734+00:00 heroku[web.1]: Process running mem=612M(119.6%)
2024-06-10T23:41:22.803118+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)
2024-06-10T23:42:14.330012+00:00 heroku[router]: at=error code=H12 desc="Request timeout" method=GET path="/api/v1/dashboard" host=tally-prod.herokuapp.com request_id=0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b fwd="203.0.113.9" dyno=web.1 connect=0ms service=30000ms status=503 bytes=0 protocol=https
2024-06-10T23:42:19.901554+00:00 heroku[router]: at=error code=H12 desc="Request timeout" method=POST path="/api/v1/votes" host=tally-prod.herokuapp.com request_id=1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809 fwd="198.51.100.61" dyno=web.1 connect=1ms service=30001ms status=503 bytes=0 protocol=https
2024-06-10T23:42:31.004412+00:00 app[web.1]: [4] - Worker 1 (PID: 211) booted in 0.01s, phase: 0
2024-06-10T23:42:31.221090+00:00 app[web.1]: [4] ! Terminating timed out worker (worker failed to check in within 60 seconds): 87

heroku logs from last night's incident, the dynos got R14 then eventually H12s. is this a memory leak in the app or just puma config? we run 2 dynos standard-1x'''},

{'kind': 'mixed', 'typed': ["Django migrate on staging blows up but it worked on my machine:", "we're on django 5.0, postgres 15 on staging and 16 locally. Could that matter?"], 'text': r'''Django migrate on staging blows up but it worked on my machine:

Operations to perform:
  Apply all migrations: accounts, admin, auth, billing, contenttypes, sessions
Running migrations:
  Applying billing.0012_invoice_number_unique...Traceback (most recent call last):
  File "/srv/app/.venv/lib/python3.12/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
psycopg.errors.UniqueViolation: could not create unique index "billing_invoice_number_3b1e0c9f_uniq"
DETAIL:  Key (number)=(INV-2023-0417) is duplicated.

The above exception was the direct cause of the following exception:

django.db.utils.IntegrityError: could not create unique index "billing_invoice_number_3b1e0c9f_uniq"
DETAIL:  Key (number)=(INV-2023-0417) is duplicated.

we're on django 5.0, postgres 15 on staging and 16 locally. Could that matter?'''},

{'kind': 'mixed', 'typed': ["sidekiq dashboard shows a pile of these in retries. the job is idempotent so I'm fine retrying but why does it time out? the Net::ReadTimeout is hitting our own internal api"], 'text': r'''sidekiq dashboard shows a pile of these in retries. the job is idempotent so I'm fine retrying but why does it time out? the Net::ReadTimeout is hitting our own internal api

Next Retry	Retry Count	Job	Arguments	Error
in 12 minutes	7	SyncCatalogJob	"shop_4412", {"full"=>false}	Net::ReadTimeout: Net::ReadTimeout with #<TCPSocket:(closed)>
in 14 minutes	7	SyncCatalogJob	"shop_0981", {"full"=>false}	Net::ReadTimeout: Net::ReadTimeout with #<TCPSocket:(closed)>
in 29 minutes	8	SyncCatalogJob	"shop_2210", {"full"=>true}	Net::ReadTimeout: Net::ReadTimeout with #<TCPSocket:(closed)>
in 1 hour	9	SyncCatalogJob	"shop_7730", {"full"=>false}	Faraday::ConnectionFailed: Failed to open TCP connection to catalog.internal:443 (execution expired)
in 2 hours	10	SyncCatalogJob	"shop_3305", {"full"=>false}	Net::ReadTimeout: Net::ReadTimeout with #<TCPSocket:(closed)>'''},

{'kind': 'mixed', 'typed': ["composer update on php 8.3 —", "do i need to drop the laravel/ui package or is there a newer version"], 'text': r'''composer update on php 8.3 —

Loading composer repositories with package information
Updating dependencies
Your requirements could not be resolved to an installable set of packages.

  Problem 1
    - laravel/ui[v3.4.0, ..., v3.4.6] require illuminate/console ^8.42|^9.0 -> found illuminate/console[v8.42.0, ..., v8.83.27, v9.0.0, ..., v9.52.16] but these were not loaded, likely because it conflicts with another require.
    - Root composer.json requires laravel/ui ^3.4 -> satisfiable by laravel/ui[v3.4.0, ..., v3.4.6].

You can also try re-running composer require with an explicit version constraint, e.g. "composer require laravel/ui:*" to figure out if any version is installable, or "composer require laravel/ui:^2.1" if you know which you need.

Installation failed, reverting ./composer.json and ./composer.lock to their original content.

do i need to drop the laravel/ui package or is there a newer version'''},

{'kind': 'mixed', 'typed': ["Trying to run the tests with bun instead of node and half of them explode:"], 'text': r'''Trying to run the tests with bun instead of node and half of them explode:

bun test v1.1.13 (bd6a6051)

src/queue.test.ts:
✓ Queue > pushes and pops in order [0.41ms]
✓ Queue > respects max size [0.12ms]

src/worker.test.ts:
1 | import { Worker, isMainThread } from "node:worker_threads";
2 | import { describe, it, expect, jest } from "@jest/globals";
                                                             ^
error: Cannot find package "@jest/globals" from "/home/kay/src/pipeq/src/worker.test.ts"

src/retry.test.ts:
38 |     jest.advanceTimersByTime(5000);
         ^
TypeError: jest.advanceTimersByTime is not a function. (In 'jest.advanceTimersByTime(5000)', 'jest.advanceTimersByTime' is undefined)
      at /home/kay/src/pipeq/src/retry.test.ts:38:5
✗ retry > backs off exponentially [1.88ms]

 2 pass
 1 fail
 1 error'''},

{'kind': 'mixed', 'typed': ["deno compile works but the binary crashes on startup on the server (ubuntu 20.04). builds on my mac m2", "any idea?"], 'text': r'''deno compile works but the binary crashes on startup on the server (ubuntu 20.04). builds on my mac m2
any idea?

$ ./linkcheck --help
./linkcheck: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.33' not found (required by ./linkcheck)
./linkcheck: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./linkcheck)
./linkcheck: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by ./linkcheck)
$ ldd --version
ldd (Ubuntu GLIBC 2.31-0ubuntu9.14) 2.31
Copyright (C) 2020 Free Software Foundation, Inc.'''},

{'kind': 'mixed', 'typed': ["CMake link step fails, I added the fmt dependency via FetchContent yesterday.", "Should I be linking fmt::fmt-header-only instead?"], 'text': r'''CMake link step fails, I added the fmt dependency via FetchContent yesterday.

[ 92%] Building CXX object src/CMakeFiles/rayfield.dir/render/tonemap.cpp.o
[ 96%] Linking CXX executable ../bin/rayfield
/usr/bin/ld: CMakeFiles/rayfield.dir/main.cpp.o: in function `main':
main.cpp:(.text+0x1c4): undefined reference to `fmt::v10::vformat[abi:cxx11](fmt::v10::basic_string_view<char>, fmt::v10::basic_format_args<fmt::v10::basic_format_context<fmt::v10::appender, char> >)'
/usr/bin/ld: CMakeFiles/rayfield.dir/render/image.cpp.o: in function `Image::save(std::filesystem::__cxx11::path const&) const':
image.cpp:(.text+0x8a1): undefined reference to `fmt::v10::detail::vprint_mojibake(_IO_FILE*, fmt::v10::basic_string_view<char>, fmt::v10::basic_format_args<fmt::v10::basic_format_context<fmt::v10::appender, char> >)'
collect2: error: ld returned 1 exit status
gmake[2]: *** [src/CMakeFiles/rayfield.dir/build.make:161: bin/rayfield] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:112: src/CMakeFiles/rayfield.dir/all] Error 2
gmake: *** [Makefile:91: all] Error 2

Should I be linking fmt::fmt-header-only instead?'''},

{'kind': 'mixed', 'typed': ["valgrind on the parser tests. I'm pretty sure the leak is in how i free the token list but cant see it"], 'text': r'''==48112== HEAP SUMMARY:
==48112==     in use at exit: 1,536 bytes in 24 blocks
==48112==   total heap usage: 311 allocs, 287 frees, 74,904 bytes allocated
==48112== 
==48112== 1,536 (384 direct, 1,152 indirect) bytes in 8 blocks are definitely lost in loss record 2 of 2
==48112==    at 0x4848899: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==48112==    by 0x109472: token_new (lexer.c:41)
==48112==    by 0x1097D3: lex_next (lexer.c:118)
==48112==    by 0x10A211: parse_expr (parser.c:77)
==48112==    by 0x10A6C0: parse_program (parser.c:203)
==48112==    by 0x1093B9: main (test_parser.c:22)
==48112== 
==48112== LEAK SUMMARY:
==48112==    definitely lost: 384 bytes in 8 blocks
==48112==    indirectly lost: 1,152 bytes in 16 blocks
==48112==      possibly lost: 0 bytes in 0 blocks
==48112==    still reachable: 0 bytes in 0 blocks
==48112==         suppressed: 0 bytes in 0 blocks

valgrind on the parser tests. I'm pretty sure the leak is in how i free the token list but cant see it'''},

{'kind': 'mixed', 'typed': ["segfault in the release build only, here's the gdb bt.", "what would make `arena_alloc` get a null arena here?"], 'text': r'''segfault in the release build only, here's the gdb bt.

Program received signal SIGSEGV, Segmentation fault.
0x0000555555557a2e in arena_alloc (a=0x0, size=48) at src/arena.c:33
33	    if (a->used + size > a->cap) {
(gdb) bt
#0  0x0000555555557a2e in arena_alloc (a=0x0, size=48) at src/arena.c:33
#1  0x0000555555558c91 in node_new (kind=NODE_CALL, p=0x7fffffffd8a0) at src/ast.c:19
#2  0x000055555555a0f4 in parse_call (p=0x7fffffffd8a0, callee=0x55555556b2e0) at src/parse.c:412
#3  0x0000555555559e17 in parse_postfix (p=0x7fffffffd8a0) at src/parse.c:377
#4  0x0000555555559b02 in parse_unary (p=0x7fffffffd8a0) at src/parse.c:351
#5  0x00005555555563c8 in main (argc=2, argv=0x7fffffffdb28) at src/main.c:58

what would make `arena_alloc` get a null arena here?'''},

{'kind': 'mixed', 'typed': ["certbot renew failing on the box since we moved DNS to cloudflare. proxied is ON for that record if that matters"], 'text': r'''certbot renew failing on the box since we moved DNS to cloudflare. proxied is ON for that record if that matters

Saving debug log to /var/log/letsencrypt/letsencrypt.log

- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
Processing /etc/letsencrypt/renewal/wiki.harborline.net.conf
- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -
Renewing an existing certificate for wiki.harborline.net

Certbot failed to authenticate some domains (authenticator: nginx). The Certificate Authority reported these problems:
  Domain: wiki.harborline.net
  Type:   unauthorized
  Detail: 104.21.33.12: Invalid response from http://wiki.harborline.net/.well-known/acme-challenge/pQ7t1xk3VbR2m9sYc0eL4uW8hN6aZ5dF1gJ3kT2oE0w: 403

Hint: The Certificate Authority failed to verify the temporary nginx configuration changes made by Certbot. Ensure the listed domains point to this nginx server and that it is accessible from the internet.

Failed to renew certificate wiki.harborline.net with error: Some challenges have failed.'''},

{'kind': 'mixed', 'typed': ["Why is this aggregation so slow? events has like 40M docs and there's an index on {orgId: 1, createdAt: -1}"], 'text': r'''Why is this aggregation so slow? events has like 40M docs and there's an index on {orgId: 1, createdAt: -1}

{
  explainVersion: '1',
  queryPlanner: {
    namespace: 'analytics.events',
    winningPlan: {
      stage: 'GROUP',
      inputStage: {
        stage: 'COLLSCAN',
        filter: {
          '$and': [
            { createdAt: { '$gte': ISODate('2024-05-01T00:00:00.000Z') } },
            { orgId: { '$eq': ObjectId('65f1c2a9e4b0a1d2c3e4f5a6') } }
          ]
        },
        direction: 'forward'
      }
    },
    rejectedPlans: []
  },
  executionStats: {
    nReturned: 31,
    executionTimeMillis: 48211,
    totalKeysExamined: 0,
    totalDocsExamined: 40112877
  }
}'''},

{'kind': 'mixed', 'typed': ["clickhouse keeps throwing this during the nightly backfill", "the insert batches are ~100k rows every few secs from 12 workers. should i just bump parts_to_throw_insert or batch bigger?"], 'text': r'''clickhouse keeps throwing this during the nightly backfill

Code: 252. DB::Exception: Too many parts (3001 with average size of 412.18 KiB) in table 'metrics.page_views (a1b2c3d4-e5f6-4789-8abc-def012345678)'. Merges are processing significantly slower than inserts. (TOO_MANY_PARTS) (version 24.3.2.23 (official build))
2024.06.11 02:14:31.118220 [ 3312 ] {} <Error> executeQuery: Code: 252. DB::Exception: Too many parts (3001 with average size of 412.18 KiB) in table 'metrics.page_views'. (TOO_MANY_PARTS) (version 24.3.2.23 (official build)) (from 10.2.4.18:51522) (in query: INSERT INTO metrics.page_views FORMAT RowBinary), Stack trace (when copying this message, always include the lines below):

0. DB::Exception::Exception(DB::Exception::MessageAndPattern&&, int, bool) @ 0x000000000cb1a33b
1. DB::MergeTreeData::delayInsertOrThrowIfNeeded(Poco::Event*, std::shared_ptr<DB::Context const> const&, bool) const @ 0x0000000012a8f6c4
2. DB::MergeTreeSink::onStart() @ 0x0000000012f1d0a8

the insert batches are ~100k rows every few secs from 12 workers. should i just bump parts_to_throw_insert or batch bigger?'''},

{'kind': 'mixed', 'typed': ["rabbit queue is backing up, here's list_queues. consumers look connected but nothing gets acked on the `email.send` queue"], 'text': r'''rabbit queue is backing up, here's list_queues. consumers look connected but nothing gets acked on the `email.send` queue

Timeout: 60.0 seconds ...
Listing queues for vhost / ...
name	messages_ready	messages_unacknowledged	consumers	state
email.send	184220	250	5	running
email.send.dlq	1311	0	0	running
webhooks.outbound	0	0	3	running
thumbnails	12	4	2	running
audit.log	0	0	1	running'''},

{'kind': 'mixed', 'typed': ["vault login works but reading the secret gives 403?"], 'text': r'''$ vault login -method=oidc role=dev
Complete the login via your OIDC provider. Launching browser to:

    https://login.harborline.net/oauth2/authorize?client_id=vault&nonce=n_7kT2v&redirect_uri=http%3A%2F%2Flocalhost%3A8250%2Foidc%2Fcallback&response_type=code&scope=openid+groups

Waiting for OIDC authentication to complete...
Success! You are now authenticated. The token information displayed below
is already stored in the token helper. You do NOT need to run "vault login"
again. Future Vault requests will automatically use this token.

Key                  Value
---                  -----
token_policies       ["default" "dev-read"]
token_duration       8h
$ vault kv get secret/payments/stripe
Error reading secret/data/payments/stripe: Error making API request.

URL: GET https://vault.harborline.net/v1/secret/data/payments/stripe
Code: 403. Errors:

* 1 error occurred:
	* permission denied

vault login works but reading the secret gives 403?'''},

{'kind': 'mixed', 'typed': ["brew upgrade broke my python. now every venv complains:", "pls tell me I don't have to recreate all of them"], 'text': r'''brew upgrade broke my python. now every venv complains:

$ source .venv/bin/activate && python
dyld[81234]: Library not loaded: /opt/homebrew/Cellar/python@3.11/3.11.8/Frameworks/Python.framework/Versions/3.11/Python
  Referenced from: <4C4D2A8E-91B3-3C0F-8E2A-7D6F1B9C0E55> /Users/hana/code/scrapyard/.venv/bin/python3.11
  Reason: tried: '/opt/homebrew/Cellar/python@3.11/3.11.8/Frameworks/Python.framework/Versions/3.11/Python' (no such file), '/System/Volumes/Preboot/Cryptexes/OS/opt/homebrew/Cellar/python@3.11/3.11.8/Frameworks/Python.framework/Versions/3.11/Python' (no such file), '/opt/homebrew/Cellar/python@3.11/3.11.8/Frameworks/Python.framework/Versions/3.11/Python' (no such file), '/Library/Frameworks/Python.framework/Versions/3.11/Python' (no such file)
zsh: abort      python

pls tell me I don't have to recreate all of them'''},

{'kind': 'mixed', 'typed': ["apt is wedged on the build server, can't install anything:"], 'text': r'''apt is wedged on the build server, can't install anything:

Reading package lists... Done
Building dependency tree... Done
Reading state information... Done
You might want to run 'apt --fix-broken install' to correct these.
The following packages have unmet dependencies:
 libpq-dev : Depends: libpq5 (= 16.3-1.pgdg22.04+1) but 14.12-0ubuntu0.22.04.1 is to be installed
 postgresql-client-16 : Depends: libpq5 (>= 16.3) but 14.12-0ubuntu0.22.04.1 is to be installed
E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution).'''},

{'kind': 'mixed', 'typed': ["nix build fails with a hash mismatch after i bumped the version of the go module in flake.nix. what value do I put where"], 'text': r'''nix build fails with a hash mismatch after i bumped the version of the go module in flake.nix. what value do I put where

error: hash mismatch in fixed-output derivation '/nix/store/9r1xqk2d0bw8m3l7c5zj4h6y1p0a2s3f-linkcheck-0.9.0-go-modules.drv':
         specified: sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
            got:    sha256-q1Vw8tR3Zk0mC2eJ5pL7xN9bH4fG6sD1aY3uI8oK2jE=
error: 1 dependencies of derivation '/nix/store/fk3l2m1n0b9v8c7x6z5a4s3d2f1g0h9j-linkcheck-0.9.0.drv' failed to build'''},

{'kind': 'mixed', 'typed': ["conda env create hangs forever on solving then dies. environment.yml is just pytorch, torchvision, cudatoolkit=11.8, jupyterlab, and opencv from conda-forge"], 'text': r'''Channels:
 - pytorch
 - nvidia
 - conda-forge
 - defaults
Platform: linux-64
Collecting package metadata (repodata.json): done
Solving environment: | 
Found conflicts! Looking for incompatible packages.
This can take several minutes.  Press CTRL-C to abort.
failed

UnsatisfiableError: The following specifications were found to be incompatible with each other:

Output in format: Requested package -> Available versions

Package libtiff conflicts for:
opencv -> libtiff[version='>=4.6.0,<4.7.0a0']
pytorch::torchvision -> pillow[version='>=5.3.0,!=8.3.*'] -> libtiff[version='>=4.0.9,<4.5.0a0|>=4.1.0,<4.5.0a0']

conda env create hangs forever on solving then dies. environment.yml is just pytorch, torchvision, cudatoolkit=11.8, jupyterlab, and opencv from conda-forge'''},

{'kind': 'mixed', 'typed': ["Fine-tuning crashes on the second epoch, never on the first. batch size 8, seq len 2048, bf16, gradient checkpointing on.", "Is something accumulating across epochs?"], 'text': r'''Fine-tuning crashes on the second epoch, never on the first. batch size 8, seq len 2048, bf16, gradient checkpointing on.

 52%|█████▏    | 1041/2000 [41:12<37:58,  2.38s/it]
Traceback (most recent call last):
  File "/workspace/train.py", line 187, in <module>
    main()
  File "/workspace/train.py", line 171, in main
    loss.backward()
  File "/opt/conda/lib/python3.10/site-packages/torch/_tensor.py", line 525, in backward
    torch.autograd.backward(
  File "/opt/conda/lib/python3.10/site-packages/torch/autograd/__init__.py", line 267, in backward
    _engine_run_backward(
  File "/opt/conda/lib/python3.10/site-packages/torch/autograd/graph.py", line 744, in _engine_run_backward
    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 22.19 GiB of which 1.12 GiB is free. Process 31877 has 21.06 GiB memory in use. Of the allocated memory 18.41 GiB is allocated by PyTorch, and 2.27 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)

Is something accumulating across epochs?'''},

{'kind': 'mixed', 'typed': ["is this warning something i should care about? the eval numbers look way off compared to the model card"], 'text': r'''is this warning something i should care about? the eval numbers look way off compared to the model card

Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base-uncased and are newly initialized: ['classifier.bias', 'classifier.weight']
You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.
Asking to truncate to max_length but no maximum length is provided and the model has no predefined maximum length. Default to no truncation.
/opt/conda/lib/python3.10/site-packages/transformers/tokenization_utils_base.py:1601: FutureWarning: `clean_up_tokenization_spaces` was not set. It will be set to `True` by default. This behavior will be depracted in transformers v4.45, and will be then set to `False` by default.
  warnings.warn(
{'eval_loss': 0.6931, 'eval_accuracy': 0.5012, 'eval_runtime': 14.22, 'eval_samples_per_second': 140.6}'''},
{'kind': 'mixed', 'typed': ["ugh. git stash pop after switching branches gave me this, did I lose my changes to the sidebar?"], 'text': r'''ugh. git stash pop after switching branches gave me this, did I lose my changes to the sidebar?

Auto-merging src/components/Sidebar.vue
CONFLICT (content): Merge conflict in src/components/Sidebar.vue
Auto-merging src/stores/nav.ts
On branch feat/collapsible-nav
Unmerged paths:
  (use "git restore --staged <file>..." to unstage)
  (use "git add <file>..." to mark resolution)
        both modified:   src/components/Sidebar.vue

Changes to be committed:
  (use "git restore --staged <file>..." to unstage)
        modified:   src/stores/nav.ts

The stash entry is kept in case you need it again.'''},

{'kind': 'mixed', 'typed': ["rollout has been stuck like this for 20 min.", "HPA says it wants 6 replicas but the new pods never go ready, old ones are still serving. how do i find out what's actually blocking it?"], 'text': r'''rollout has been stuck like this for 20 min.

$ kubectl -n catalog rollout status deploy/search-api
Waiting for deployment "search-api" rollout to finish: 2 out of 6 new replicas have been updated...
Waiting for deployment "search-api" rollout to finish: 2 out of 6 new replicas have been updated...
^C
$ kubectl -n catalog get hpa
NAME         REFERENCE               TARGETS          MINPODS   MAXPODS   REPLICAS   AGE
search-api   Deployment/search-api   cpu: 184%/70%    3         12        6          91d
$ kubectl -n catalog get rs
NAME                    DESIRED   CURRENT   READY   AGE
search-api-58d7c9b6f4   5         5         5       6d
search-api-7b9f4c2d81   2         2         0       21m

HPA says it wants 6 replicas but the new pods never go ready, old ones are still serving. how do i find out what's actually blocking it?'''},

{'kind': 'mixed', 'typed': ["someone's CI job died mid-apply and now nobody can plan. Is it safe to force-unlock or could that corrupt state?"], 'text': r'''someone's CI job died mid-apply and now nobody can plan. Is it safe to force-unlock or could that corrupt state?

╷
│ Error: Error acquiring the state lock
│ 
│ Error message: ConditionalCheckFailedException: The conditional request failed
│ Lock Info:
│   ID:        6e1f0c2a-9b8d-7e6f-5a4b-3c2d1e0f9a8b
│   Path:      tidewater-tfstate/platform/prod/terraform.tfstate
│   Operation: OperationTypeApply
│   Who:       runner@gha-runner-7xk2p
│   Version:   1.8.5
│   Created:   2024-06-11 06:12:44.811203 +0000 UTC
│   Info:      
│ 
│ 
│ Terraform acquires a state lock to protect the state from being written
│ by multiple users at the same time. Please resolve the issue above and try
│ again. For most commands, you can disable locking with the "-lock=false"
│ flag, but this is not recommended.
╵'''},

{'kind': 'mixed', 'typed': ["only fails on the windows runner. the ubuntu and macos legs of the matrix pass", "path separator thing?"], 'text': r'''only fails on the windows runner. the ubuntu and macos legs of the matrix pass

test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2201155Z ...........F.....
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2209870Z ================================== FAILURES ===================================
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2210412Z ____________________________ test_cache_key_stable ____________________________
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2211003Z 
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2211702Z     def test_cache_key_stable(tmp_path):
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2212240Z         p = tmp_path / "a" / "b.txt"
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2212855Z >       assert cache_key(p, root=tmp_path) == "a/b.txt:0"
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2213401Z E       AssertionError: assert 'a\\b.txt:0' == 'a/b.txt:0'
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2213990Z E         - a/b.txt:0
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2214512Z E         ? ^
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2215034Z E         + a\b.txt:0
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2215519Z E         ? ^
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2234771Z FAILED tests/test_cache.py::test_cache_key_stable - AssertionError: assert 'a\\b.txt:0' == 'a/b.txt:0'
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2236102Z 1 failed, 16 passed in 0.91s
test (windows-latest, 3.12)	Run pytest -q	2024-06-11T07:58:13.2631880Z ##[error]Process completed with exit code 1.

path separator thing?'''},

{'kind': 'mixed', 'typed': ["nothing is running on 3000 as far as i can tell but node says otherwise. lsof shows this, whats pid 5712? i dont have anything called ControlCe"], 'text': r'''node:events:497
      throw er; // Unhandled 'error' event
      ^

Error: listen EADDRINUSE: address already in use :::3000
    at Server.setupListenHandle [as _listen2] (node:net:1898:16)
    at listenInCluster (node:net:1946:12)
    at Server.listen (node:net:2044:7)
    at Object.<anonymous> (/Users/dev/side/recipe-box/server/index.js:44:5)
Emitted 'error' event on Server instance at:
    at emitErrorNT (node:net:1925:8)
    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {
  code: 'EADDRINUSE',
  errno: -48,
  syscall: 'listen',
  address: '::',
  port: 3000
}

$ lsof -i :3000
COMMAND    PID USER   FD   TYPE             DEVICE SIZE/OFF NODE NAME
ControlCe 5712  dev   10u  IPv4 0x1f2e3d4c5b6a7980      0t0  TCP *:hbci (LISTEN)
ControlCe 5712  dev   11u  IPv6 0x9a8b7c6d5e4f3021      0t0  TCP *:hbci (LISTEN)

nothing is running on 3000 as far as i can tell but node says otherwise. lsof shows this, whats pid 5712? i dont have anything called ControlCe'''},

{'kind': 'mixed', 'typed': ["**prod** is throwing these under load since this morning's deploy:", "Only change was moving the PDF export into the request cycle instead of celery. I assume that's it but want to know if bumping --timeout is a reasonable stopgap"], 'text': r'''**prod** is throwing these under load since this morning's deploy:

[2024-06-11 09:02:14 +0000] [4411] [CRITICAL] WORKER TIMEOUT (pid:4417)
[2024-06-11 09:02:14 +0000] [4417] [ERROR] Error handling request /reports/export/88213.pdf
Traceback (most recent call last):
  File "/srv/pulse/.venv/lib/python3.11/site-packages/gunicorn/workers/sync.py", line 135, in handle
    self.handle_request(listener, req, client, addr)
  File "/srv/pulse/reports/pdf.py", line 61, in render
    html = template.render(ctx)
SystemExit: 1
[2024-06-11 09:02:14 +0000] [4417] [INFO] Worker exiting (pid: 4417)
[2024-06-11 09:02:15 +0000] [4411] [ERROR] Worker (pid:4417) was sent SIGKILL! Perhaps out of memory?
[2024-06-11 09:02:15 +0000] [29012] [INFO] Booting worker with pid: 29012

Only change was moving the PDF export into the request cycle instead of celery. I assume that's it but want to know if bumping --timeout is a reasonable stopgap'''},

{'kind': 'mixed', 'typed': ["the app froze, took a jstack. Looks like a deadlock between the cache refresher and the request threads?"], 'text': r'''the app froze, took a jstack. Looks like a deadlock between the cache refresher and the request threads?

Found one Java-level deadlock:
=============================
"cache-refresh-1":
  waiting to lock monitor 0x00007f3c1c006e28 (object 0x00000000c1a2b3c8, a com.northwind.pricing.PriceCache),
  which is held by "http-nio-8080-exec-7"

"http-nio-8080-exec-7":
  waiting to lock monitor 0x00007f3c24003a18 (object 0x00000000c1a2d9f0, a com.northwind.pricing.CurrencyTable),
  which is held by "cache-refresh-1"

Java stack information for the threads listed above:
===================================================
"cache-refresh-1":
	at com.northwind.pricing.PriceCache.invalidate(PriceCache.java:88)
	- waiting to lock <0x00000000c1a2b3c8> (a com.northwind.pricing.PriceCache)
	at com.northwind.pricing.CurrencyTable.reload(CurrencyTable.java:41)
	- locked <0x00000000c1a2d9f0> (a com.northwind.pricing.CurrencyTable)
"http-nio-8080-exec-7":
	at com.northwind.pricing.CurrencyTable.rate(CurrencyTable.java:29)
	- waiting to lock <0x00000000c1a2d9f0> (a com.northwind.pricing.CurrencyTable)
	at com.northwind.pricing.PriceCache.get(PriceCache.java:52)
	- locked <0x00000000c1a2b3c8> (a com.northwind.pricing.PriceCache)

Found 1 deadlock.'''},

{'kind': 'mixed', 'typed': ["go test -race flags this in the metrics collector. I thought sync.Map made this safe?"], 'text': r'''==================
WARNING: DATA RACE
Write at 0x00c0001a2330 by goroutine 41:
  github.com/pollen/feeds/internal/metrics.(*Collector).Observe()
      /src/internal/metrics/collector.go:47 +0x118
  github.com/pollen/feeds/internal/worker.(*Refresher).Run.func1()
      /src/internal/worker/refresh.go:63 +0x9c

Previous read at 0x00c0001a2330 by goroutine 38:
  github.com/pollen/feeds/internal/metrics.(*Collector).Snapshot()
      /src/internal/metrics/collector.go:71 +0x7d
  github.com/pollen/feeds/internal/server.(*Server).handleMetrics()
      /src/internal/server/metrics.go:19 +0x5a

Goroutine 41 (running) created at:
  github.com/pollen/feeds/internal/worker.(*Refresher).Run()
      /src/internal/worker/refresh.go:58 +0x2c4
==================
--- FAIL: TestRefresherUpdatesMetrics (0.03s)
    testing.go:1398: race detected during execution of test
FAIL

go test -race flags this in the metrics collector. I thought sync.Map made this safe?'''},

{'kind': 'mixed', 'typed': ["playwright test is flaky on CI only, passes 10/10 locally. trace says the button is there??"], 'text': r'''playwright test is flaky on CI only, passes 10/10 locally. trace says the button is there??

  1) [chromium] › checkout.spec.ts:27:7 › checkout › applies coupon and pays ───────────────────────

    Error: locator.click: Test timeout of 30000ms exceeded.
    Call log:
      - waiting for getByRole('button', { name: 'Pay now' })
      -   locator resolved to <button disabled type="submit" class="btn btn-primary">Pay now</button>
      - attempting click action
      -   waiting for element to be visible, enabled and stable
      -     element is not enabled
      - retrying click action, attempt #1
      -   waiting for element to be visible, enabled and stable
      -     element is not enabled

      38 |     await page.getByLabel('Coupon').fill('SPRING10');
      39 |     await page.getByRole('button', { name: 'Apply' }).click();
    > 40 |     await page.getByRole('button', { name: 'Pay now' }).click();
         |                                                         ^
      41 |     await expect(page).toHaveURL(/\/thanks/);

  1 flaky
    [chromium] › checkout.spec.ts:27:7 › checkout › applies coupon and pays
  23 passed (1.4m)'''},

{'kind': 'mixed', 'typed': ["k6 run against staging. p95 looks ok-ish but those failed reqs worry me.", "are 1.8% failures at 200 VUs normal for a t3.medium or is something wrong with the keepalive config"], 'text': r'''k6 run against staging. p95 looks ok-ish but those failed reqs worry me.

     ✓ status is 200
     ✗ body has items
      ↳  98% — ✓ 41522 / ✗ 761

     checks.........................: 99.08% ✓ 83805      ✗ 761
     data_received..................: 412 MB 1.4 MB/s
     data_sent......................: 5.1 MB 17 kB/s
     http_req_blocked...............: avg=1.2ms    min=0s      med=3µs      max=1.02s   p(90)=5µs      p(95)=7µs
     http_req_duration..............: avg=214.6ms  min=18.2ms  med=161.4ms  max=30s     p(90)=388.9ms  p(95)=512.3ms
       { expected_response:true }...: avg=201.3ms  min=18.2ms  med=158.1ms  max=4.91s   p(90)=371.2ms  p(95)=488.7ms
     http_req_failed................: 1.81%  ✓ 761        ✗ 41522
     http_reqs......................: 42283  140.9/s
     iteration_duration.............: avg=1.41s    min=1.01s   med=1.16s    max=31.02s  p(90)=1.39s    p(95)=1.52s
     iterations.....................: 42283  140.9/s
     vus............................: 200    min=200      max=200

are 1.8% failures at 200 VUs normal for a t3.medium or is something wrong with the keepalive config'''},

{'kind': 'mixed', 'typed': ["getting database is locked randomly in the discord bot. it's one process but uses aiosqlite + a background task that writes stats every minute"], 'text': r'''getting database is locked randomly in the discord bot. it's one process but uses aiosqlite + a background task that writes stats every minute

Ignoring exception in command 'daily':
Traceback (most recent call last):
  File "/home/bot/venv/lib/python3.12/site-packages/discord/app_commands/commands.py", line 858, in _do_call
    return await self._callback(interaction, **params)  # type: ignore
  File "/home/bot/bot/cogs/economy.py", line 73, in daily
    await db.execute("UPDATE wallets SET balance = balance + ? WHERE user_id = ?", (reward, uid))
  File "/home/bot/venv/lib/python3.12/site-packages/aiosqlite/core.py", line 190, in execute
    cursor = await self._execute(self._conn.execute, sql, parameters)
  File "/home/bot/venv/lib/python3.12/site-packages/aiosqlite/core.py", line 132, in _execute
    return await future
sqlite3.OperationalError: database is locked'''},

{'kind': 'mixed', 'typed': ["supabase db push refuses to run.", "I made that policy in the dashboard UI by hand last week, so I guess that's the conflict. What's the right way to pull it into a migration?"], 'text': r'''supabase db push refuses to run.

Connecting to remote database...
Do you want to push these migrations to the remote database?
 • 20240610153012_add_notes_policies.sql

 [Y/n] y
Applying migration 20240610153012_add_notes_policies.sql...
ERROR: policy "Users can read own notes" for table "notes" already exists (SQLSTATE 42710)
At statement 0: create policy "Users can read own notes"
on "public"."notes"
as permissive
for select
to authenticated
using ((auth.uid() = user_id))
Try rerunning the command with --debug to troubleshoot the error.

I made that policy in the dashboard UI by hand last week, so I guess that's the conflict. What's the right way to pull it into a migration?'''},

{'kind': 'mixed', 'typed': ["Vercel build log, fails at the very end. builds fine locally with pnpm build"], 'text': r'''Vercel build log, fails at the very end. builds fine locally with pnpm build

19:04:11.201 Running build in Washington, D.C., USA (East) – iad1
19:04:11.322 Cloning github.com/lumen-studio/portfolio (Branch: main, Commit: 8e4f1a2)
19:04:12.904 Cloning completed: 1.582s
19:04:15.117 Detected `pnpm-lock.yaml` version 9 generated by pnpm@9.x
19:04:15.140 Running "install" command: `pnpm install`...
19:04:31.882 Done in 16.5s
19:04:32.010 Running "pnpm run build"
19:04:33.441 > astro build
19:04:41.773 [build] 37 page(s) built in 8.21s
19:04:41.912 [ERROR] [vercel] The Astro Vercel adapter requires a `output: "server"` or `output: "hybrid"` configuration when using on-demand rendering. Found `output: "static"` with a route that opts out of prerendering: src/pages/api/contact.ts
19:04:41.990  ELIFECYCLE  Command failed with exit code 1.
19:04:42.015 Error: Command "pnpm run build" exited with 1'''},

{'kind': 'mixed', 'typed': ["zig 0.13 upgrade, this used to compile on 0.12.", "what's the new way to do this"], 'text': r'''zig 0.13 upgrade, this used to compile on 0.12.

install
└─ install tinyhttp
   └─ zig build-exe tinyhttp Debug native 2 errors
src/server.zig:44:29: error: no field or member function named 'readUntilDelimiterOrEof' in 'net.Stream'
        const line = try conn.stream.readUntilDelimiterOrEof(&buf, '\n');
                         ~~~~~~~~~~~^~~~~~~~~~~~~~~~~~~~~~~~
/usr/lib/zig/std/net.zig:1812:24: note: struct declared here
pub const Stream = struct {
                   ^~~~~~
src/router.zig:17:16: error: root struct of file 'std' has no member named 'ComptimeStringMap'
const Routes = std.ComptimeStringMap(Handler, .{
               ~~~^~~~~~~~~~~~~~~~~~
error: the following command failed with 2 compilation errors:

what's the new way to do this'''},

{'kind': 'mixed', 'typed': ["cabal build after adding aeson 2.2 and now this. the field really is a Text, so no clue why it wants a Key"], 'text': r'''cabal build after adding aeson 2.2 and now this. the field really is a Text, so no clue why it wants a Key

Building library for shelfsync-0.1.0.0..
[3 of 7] Compiling Shelf.Types      ( src/Shelf/Types.hs, dist-newstyle/build/x86_64-linux/ghc-9.6.5/shelfsync-0.1.0.0/build/Shelf/Types.o, dist-newstyle/build/x86_64-linux/ghc-9.6.5/shelfsync-0.1.0.0/build/Shelf/Types.dyn_o )

src/Shelf/Types.hs:58:22: error: [GHC-83865]
    • Couldn't match type ‘Text’ with ‘Key’
      Expected: Key
        Actual: Text
    • In the first argument of ‘(.:)’, namely ‘fieldName’
      In the second argument of ‘(<$>)’, namely ‘o .: fieldName’
      In the expression: Book <$> o .: fieldName
   |
58 |     Book <$> o .: fieldName
   |                      ^^^^^^^^^'''},

{'kind': 'mixed', 'typed': ["docker compose up says the port is taken but docker ps shows nothing on 5432 🤔"], 'text': r'''[+] Running 3/4
 ✔ Network recipe-box_default    Created                                                       0.1s
 ✔ Volume "recipe-box_pgdata"    Created                                                       0.0s
 ✔ Container recipe-box-redis-1  Started                                                       0.6s
 ⠿ Container recipe-box-db-1     Starting                                                      0.7s
Error response from daemon: driver failed programming external connectivity on endpoint recipe-box-db-1 (4b2c9e1f7a0d3c5e8b6a9f2d1c4e7b0a3f6d9c2e5b8a1f4d7c0e3b6a9f2d5c8e): Bind for 0.0.0.0:5432 failed: port is already allocated

docker compose up says the port is taken but docker ps shows nothing on 5432 🤔'''},

{'kind': 'mixed', 'typed': ["can someone sanity check the firewall on the new droplet? I can ssh in but https times out from outside"], 'text': r'''can someone sanity check the firewall on the new droplet? I can ssh in but https times out from outside

Status: active
Logging: on (low)
Default: deny (incoming), allow (outgoing), deny (routed)
New profiles: skip

To                         Action      From
--                         ------      ----
22/tcp                     ALLOW IN    Anywhere
80/tcp                     ALLOW IN    Anywhere
8443/tcp                   ALLOW IN    Anywhere
22/tcp (v6)                ALLOW IN    Anywhere (v6)
80/tcp (v6)                ALLOW IN    Anywhere (v6)
8443/tcp (v6)              ALLOW IN    Anywhere (v6)'''},

{'kind': 'mixed', 'typed': ["the cli hangs forever on startup on some machines, strace shows its just sitting on this connect. we dont make any network calls at startup afaik"], 'text': r'''openat(AT_FDCWD, "/home/ci/.config/quillctl/config.toml", O_RDONLY|O_CLOEXEC) = 3
read(3, "[profile.default]\nendpoint = \"ht"..., 4096) = 212
close(3)                                = 0
socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = 4
connect(4, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("140.82.112.6")}, 16) = -1 EINPROGRESS (Operation now in progress)
poll([{fd=4, events=POLLOUT}], 1, -1

the cli hangs forever on startup on some machines, strace shows its just sitting on this connect. we dont make any network calls at startup afaik'''},

{'kind': 'mixed', 'typed': ["after migrating to eslint 9 flat config i get this on every file. Config is basically the one from the typescript-eslint quickstart + our old rules copied over:"], 'text': r'''after migrating to eslint 9 flat config i get this on every file. Config is basically the one from the typescript-eslint quickstart + our old rules copied over:

Oops! Something went wrong! :(

ESLint: 9.4.0

TypeError: Key "rules": Key "import/no-extraneous-dependencies": Could not find plugin "import".
    at throwRuleNotFoundError (/home/lucia/code/kiosk/node_modules/eslint/lib/config/rule-validator.js:66:11)
    at RuleValidator.validate (/home/lucia/code/kiosk/node_modules/eslint/lib/config/rule-validator.js:128:17)
    at [finalizeConfig] (/home/lucia/code/kiosk/node_modules/eslint/lib/config/flat-config-array.js:317:23)
    at FlatConfigArray.getConfig (/home/lucia/code/kiosk/node_modules/@eslint/config-array/dist/cjs/index.cjs:1050:55)
    at ESLint.lintFiles (/home/lucia/code/kiosk/node_modules/eslint/lib/eslint/eslint.js:754:23)
    at async Object.execute (/home/lucia/code/kiosk/node_modules/eslint/lib/cli.js:458:23)
    at async main (/home/lucia/code/kiosk/node_modules/eslint/bin/eslint.js:153:22)'''},
]
