"""Pasted output for the typed-or-pasted check (bench/typed_eval.py): 80 raw pastes of many tools, and 50 prompts of
typed lines (listed in each case's `typed`) around a paste. Written blind on 2026-12-04 by a helper session that saw no
code of this repository; then used to find and fix core/typed.py rules (so no longer held out)."""


CASES = [
    # ------------------------------------------------------------------ pastes
    {'kind': 'paste', 'text': r"""On branch feature/billing-webhooks
Your branch is ahead of 'origin/feature/billing-webhooks' by 2 commits.
  (use "git push" to publish your local commits)

Changes to be committed:
  (use "git restore --staged <file>..." to unstage)
	modified:   app/billing/webhooks.py
	new file:   app/billing/tests/test_webhooks.py

Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
	modified:   app/billing/models.py
	modified:   requirements.txt

Untracked files:
  (use "git add <file>..." to include in what will be committed)
	.env.local
	scratch.ipynb
"""},
    {'kind': 'paste', 'text': r"""To github.com:acme-corp/payments-api.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:acme-corp/payments-api.git'
hint: Updates were rejected because the remote contains work that you do not
hint: have locally. This is usually caused by another repository pushing to
hint: the same ref. If you want to integrate the remote changes, use
hint: 'git pull' before pushing again.
hint: See the 'Note about fast-forwards' in 'git push --help' for details."""},
    {'kind': 'paste', 'text': r"""Auto-merging src/components/Header.tsx
CONFLICT (content): Merge conflict in src/components/Header.tsx
Auto-merging src/lib/api.ts
Auto-merging package.json
CONFLICT (content): Merge conflict in package.json
Removing src/legacy/oldNav.tsx
Automatic merge failed; fix conflicts and then commit the result."""},
    {'kind': 'paste', 'text': r"""a3f91c2 (HEAD -> main, origin/main) fix: handle nil pointer in session refresh
7be02d1 chore(deps): bump golang.org/x/net from 0.17.0 to 0.23.0
c41e9aa feat: add rate limiter middleware
02dd5f8 Merge pull request #412 from jkim/retry-backoff
9f1a7b3 retry with exponential backoff on 503
e6c2014 refactor: split handlers into separate package
58ab0e1 docs: update README with env vars
1d93f7c test: add integration tests for /v2/orders
b7740aa wip
3c0e812 initial commit"""},
    {'kind': 'paste', 'text': r"""diff --git a/src/utils/dates.ts b/src/utils/dates.ts
index 4b1d2e0..9a7c3f1 100644
--- a/src/utils/dates.ts
+++ b/src/utils/dates.ts
@@ -12,14 +12,17 @@ export function formatRelative(date: Date, now = new Date()): string {
   const diffMs = now.getTime() - date.getTime();
   const diffMin = Math.round(diffMs / 60000);
 
-  if (diffMin < 1) return 'just now';
-  if (diffMin < 60) return `${diffMin}m ago`;
+  if (diffMin < 1) {
+    return 'just now';
+  }
+  if (diffMin < 60) {
+    return `${diffMin} min ago`;
+  }
 
   const diffHours = Math.round(diffMin / 60);
-  if (diffHours < 24) return `${diffHours}h ago`;
+  if (diffHours < 24) return `${diffHours} hr ago`;
 
-  return date.toLocaleDateString();
+  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
 }
 
 export function startOfWeek(d: Date): Date {"""},
    {'kind': 'paste', 'text': r"""npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it. Check out lru-cache if you want a good and tested way to coalesce async requests by a key value, which is much more comprehensive and powerful.
npm WARN deprecated rimraf@3.0.2: Rimraf versions prior to v4 are no longer supported
npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported

added 1423 packages, and audited 1424 packages in 38s

247 packages are looking for funding
  run `npm fund` for details

8 vulnerabilities (2 low, 4 moderate, 2 high)

To address issues that do not require attention, run:
  npm audit fix

To address all issues (including breaking changes), run:
  npm audit fix --force

Run `npm audit` for details."""},
    {'kind': 'paste', 'text': r"""npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: dashboard-web@0.4.2
npm ERR! Found: react@18.3.1
npm ERR! node_modules/react
npm ERR!   react@"^18.3.1" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.0 || ^17.0.0" from react-beautiful-dnd@13.1.1
npm ERR! node_modules/react-beautiful-dnd
npm ERR!   react-beautiful-dnd@"^13.1.1" from the root project
npm ERR! 
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
npm ERR! 
npm ERR! 
npm ERR! For a full report see:
npm ERR! /Users/dana/.npm/_logs/2024-05-14T09_22_41_118Z-eresolve-report.txt

npm ERR! A complete log of this run can be found in: /Users/dana/.npm/_logs/2024-05-14T09_22_41_118Z-debug-0.log"""},
    {'kind': 'paste', 'text': r"""Scope: all 6 workspace projects
Lockfile is up to date, resolution step is skipped
Packages: +812
++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
Progress: resolved 812, reused 790, downloaded 22, added 812, done
node_modules/.pnpm/esbuild@0.20.2/node_modules/esbuild: Running postinstall script, done in 312ms
node_modules/.pnpm/@prisma+engines@5.13.0/node_modules/@prisma/engines: Running postinstall script, done in 2.1s

dependencies:
+ @prisma/client 5.13.0
+ zod 3.23.8

devDependencies:
+ prisma 5.13.0
+ typescript 5.4.5
+ vitest 1.6.0

 WARN  Issues with peer dependencies found
packages/ui
└─┬ @storybook/react 7.6.17
  └── ✕ unmet peer react-dom@"^16.8.0 || ^17.0.0 || ^18.0.0": found 19.0.0-rc-f994737d14-20240522

Done in 9.4s"""},
    {'kind': 'paste', 'text': r"""➤ YN0000: ┌ Resolution step
➤ YN0002: │ eslint-config-next@npm:14.2.3 doesn't provide eslint (p8a1c3), requested by @typescript-eslint/parser
➤ YN0060: │ web@workspace:apps/web provides typescript (p4f2e1) with version 5.4.5, which doesn't satisfy what ts-node requests
➤ YN0000: │ Some peer dependencies are incorrectly met; run yarn explain peer-requirements <hash> for details, where <hash> is the six-letter p-prefixed code
➤ YN0000: └ Completed in 2s 118ms
➤ YN0000: ┌ Fetch step
➤ YN0001: │ HTTPError: Response code 404 (Not Found)
    at Request.<anonymous> (/Users/mo/.yarn/berry/cache/got-npm-11.8.6.zip/node_modules/got/dist/source/as-promise/index.js:118:42)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
➤ YN0000: └ Completed in 4s 902ms
➤ YN0000: Failed with errors in 7s 41ms"""},
    {'kind': 'paste', 'text': r"""Collecting fastapi==0.111.0
  Downloading fastapi-0.111.0-py3-none-any.whl.metadata (25 kB)
Collecting starlette<0.38.0,>=0.37.2 (from fastapi==0.111.0)
  Using cached starlette-0.37.2-py3-none-any.whl.metadata (5.9 kB)
Collecting pydantic!=1.8,!=1.8.1,!=2.0.0,!=2.0.1,!=2.1.0,<3.0.0,>=1.7.4 (from fastapi==0.111.0)
  Using cached pydantic-2.7.1-py3-none-any.whl.metadata (107 kB)
Requirement already satisfied: typing-extensions>=4.8.0 in ./.venv/lib/python3.11/site-packages (from fastapi==0.111.0) (4.11.0)
Downloading fastapi-0.111.0-py3-none-any.whl (91 kB)
   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 92.0/92.0 kB 3.1 MB/s eta 0:00:00
Installing collected packages: starlette, pydantic, fastapi
  Attempting uninstall: pydantic
    Found existing installation: pydantic 1.10.13
    Uninstalling pydantic-1.10.13:
      Successfully uninstalled pydantic-1.10.13
Successfully installed fastapi-0.111.0 pydantic-2.7.1 starlette-0.37.2

[notice] A new release of pip is available: 23.2.1 -> 24.0
[notice] To update, run: pip install --upgrade pip"""},
    {'kind': 'paste', 'text': r"""ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
langchain 0.1.20 requires numpy<2,>=1, but you have numpy 2.0.0 which is incompatible.
scipy 1.11.4 requires numpy<1.28.0,>=1.21.6, but you have numpy 2.0.0 which is incompatible.
tensorflow 2.15.0 requires numpy<2.0.0,>=1.23.5, but you have numpy 2.0.0 which is incompatible.
Successfully installed numpy-2.0.0"""},
    {'kind': 'paste', 'text': r"""Using CPython 3.12.3 interpreter at: /opt/homebrew/opt/python@3.12/bin/python3.12
Creating virtual environment at: .venv
Resolved 87 packages in 1.42s
  × No solution found when resolving dependencies:
  ╰─▶ Because torch==2.3.0 has no wheels with a matching platform tag (e.g., `macosx_14_0_x86_64`) and your project depends on torch==2.3.0, we can conclude that your project's requirements are unsatisfiable.

      hint: Wheels are available for `torch` (v2.3.0) on the following platforms: `manylinux1_x86_64`, `manylinux2014_aarch64`, `macosx_11_0_arm64`, `win_amd64`"""},
    {'kind': 'paste', 'text': r"""Updating dependencies
Resolving dependencies... (3.2s)

Because no versions of boto3 match >1.34.100,<1.35.0
 and boto3 (1.34.100) depends on botocore (>=1.34.100,<1.35.0), boto3 (>=1.34.100,<1.35.0) requires botocore (>=1.34.100,<1.35.0).
And because aiobotocore (2.12.3) depends on botocore (>=1.34.41,<1.34.70)
 and no versions of aiobotocore match >2.12.3,<3.0.0, boto3 (>=1.34.100,<1.35.0) is incompatible with aiobotocore (>=2.12.3,<3.0.0).
So, because ingest-service depends on both aiobotocore (^2.12.3) and boto3 (^1.34.100), version solving failed."""},
    {'kind': 'paste', 'text': r"""============================= test session starts ==============================
platform linux -- Python 3.11.8, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/ledger/ledger
configfile: pyproject.toml
plugins: asyncio-0.23.6, cov-5.0.0, mock-3.14.0
asyncio: mode=Mode.STRICT
collected 142 items

tests/test_accounts.py ......................                            [ 15%]
tests/test_ledger.py ..........F.......                                  [ 28%]
tests/test_reconcile.py ...............................................  [ 61%]
tests/test_reports.py .......................................s.......    [ 94%]
tests/test_utils.py ........                                             [100%]

=================================== FAILURES ===================================
_______________________ test_transfer_between_currencies _______________________

    def test_transfer_between_currencies():
        src = Account(currency="USD", balance=Decimal("100.00"))
        dst = Account(currency="EUR", balance=Decimal("0"))
>       transfer(src, dst, Decimal("50.00"), rate=Decimal("0.92"))

tests/test_ledger.py:88: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

src, dst, amount = <Account USD 100.00>, <Account EUR 0>, Decimal('50.00')

    def transfer(src, dst, amount, rate=None):
        if src.currency != dst.currency and rate is None:
            raise CurrencyMismatch(src.currency, dst.currency)
>       dst.balance += amount * rate.quantize(Decimal("0.0001"))
E       decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]

ledger/core.py:41: InvalidOperation
=========================== short test summary info ============================
FAILED tests/test_ledger.py::test_transfer_between_currencies - decimal.InvalidOperation: [<class 'decimal.InvalidOperation'>]
=================== 1 failed, 140 passed, 1 skipped in 4.87s ==================="""},
    {'kind': 'paste', 'text': r"""tests/integration/test_s3_upload.py::test_multipart_upload PASSED        [ 91%]
tests/integration/test_s3_upload.py::test_presigned_url PASSED           [ 95%]
tests/integration/test_s3_upload.py::test_delete_prefix PASSED           [100%]

=============================== warnings summary ===============================
.venv/lib/python3.12/site-packages/botocore/auth.py:419
  /app/.venv/lib/python3.12/site-packages/botocore/auth.py:419: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    datetime_now = datetime.datetime.utcnow()

tests/integration/test_s3_upload.py::test_multipart_upload
  /app/tests/conftest.py:22: PytestUnraisableExceptionWarning: Exception ignored in: <socket.socket fd=14, family=2, type=1, proto=6>
  
  Traceback (most recent call last):
    File "/usr/lib/python3.12/socket.py", line 233, in __del__
  ResourceWarning: unclosed <socket.socket fd=14, family=2, type=1, proto=6, laddr=('127.0.0.1', 51822), raddr=('127.0.0.1', 4566)>

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
======================== 24 passed, 2 warnings in 11.32s ========================"""},
    {'kind': 'paste', 'text': r""" FAIL  src/hooks/__tests__/useDebounce.test.ts
  ● useDebounce › only fires once after rapid updates

    expect(jest.fn()).toHaveBeenCalledTimes(expected)

    Expected number of calls: 1
    Received number of calls: 3

      38 |     act(() => { jest.advanceTimersByTime(300); });
      39 |
    > 40 |     expect(callback).toHaveBeenCalledTimes(1);
         |                      ^
      41 |     expect(callback).toHaveBeenLastCalledWith('hello');
      42 |   });
      43 |

      at Object.toHaveBeenCalledTimes (src/hooks/__tests__/useDebounce.test.ts:40:22)

 PASS  src/utils/__tests__/format.test.ts
 PASS  src/components/__tests__/Button.test.tsx

Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 17 passed, 18 total
Snapshots:   0 total
Time:        3.214 s
Ran all test suites.
Watch Usage: Press w to show more."""},
    {'kind': 'paste', 'text': r""" RUN  v1.6.0 /Users/priya/code/checkout

 ✓ src/cart/cart.test.ts (12 tests) 18ms
 ✓ src/pricing/tax.test.ts (8 tests) 6ms
 ❯ src/pricing/discount.test.ts (5 tests | 2 failed) 14ms
   × applies percentage discount to subtotal
     → expected 89.99 to be 90 // Object.is equality
   × stacks coupon with member discount
     → expected [Function] to throw error including 'cannot stack' but got 'Coupon expired'
 ✓ src/api/client.test.ts (6 tests) 41ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/pricing/discount.test.ts > applies percentage discount to subtotal
AssertionError: expected 89.99 to be 90 // Object.is equality

- Expected
+ Received

- 90
+ 89.99

 ❯ src/pricing/discount.test.ts:22:34
     20|     const cart = makeCart([{ sku: 'A', price: 99.99, qty: 1 }]);
     21|     const total = applyDiscount(cart, { type: 'percent', value: 10 });
     22|     expect(total).toBe(90);
       |                   ^
     23|   });

 Test Files  1 failed | 3 passed (4)
      Tests  2 failed | 29 passed (31)
   Start at  14:02:11
   Duration  812ms (transform 201ms, setup 0ms, collect 388ms, tests 79ms, environment 1ms, prepare 402ms)"""},
    {'kind': 'paste', 'text': r"""   Compiling tokio-util v0.7.10
   Compiling hyper v1.3.1
   Compiling ingest v0.3.0 (/home/alex/src/ingest)
error[E0502]: cannot borrow `self.buffer` as mutable because it is also borrowed as immutable
  --> src/parser.rs:87:13
   |
84 |         let header = &self.buffer[..HEADER_LEN];
   |                       ----------- immutable borrow occurs here
...
87 |             self.buffer.drain(..HEADER_LEN);
   |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here
88 |         }
89 |         Ok(Frame::new(header, payload))
   |                       ------ immutable borrow later used here
   |
help: consider cloning the value if the performance cost is acceptable
   |
84 |         let header = &self.buffer[..HEADER_LEN].to_vec();
   |                                                ++++++++

warning: unused import: `std::collections::HashMap`
 --> src/lib.rs:3:5
  |
3 | use std::collections::HashMap;
  |     ^^^^^^^^^^^^^^^^^^^^^^^^^
  |
  = note: `#[warn(unused_imports)]` on by default

For more information about this error, try `rustc --explain E0502`.
warning: `ingest` (lib) generated 1 warning
error: could not compile `ingest` (lib) due to 1 previous error; 1 warning emitted"""},
    {'kind': 'paste', 'text': r"""    Finished `test` profile [unoptimized + debuginfo] target(s) in 6.81s
     Running unittests src/lib.rs (target/debug/deps/kvstore-4f1e0a2b9c7d3e11)

running 14 tests
test wal::tests::replay_empty_log ... ok
test wal::tests::replay_truncated_tail ... ok
test memtable::tests::insert_and_get ... ok
test memtable::tests::overwrite ... ok
test sstable::tests::roundtrip ... ok
test sstable::tests::bloom_filter_false_positive_rate ... FAILED
test compaction::tests::merges_two_levels ... ok
test compaction::tests::drops_tombstones ... ok

failures:

---- sstable::tests::bloom_filter_false_positive_rate stdout ----
thread 'sstable::tests::bloom_filter_false_positive_rate' panicked at src/sstable/bloom.rs:142:9:
assertion failed: fp_rate < 0.02
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    sstable::tests::bloom_filter_false_positive_rate

test result: FAILED. 13 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.42s

error: test failed, to rerun pass `--lib`"""},
    {'kind': 'paste', 'text': r"""=== RUN   TestOrderService_Create
=== RUN   TestOrderService_Create/valid_order
=== RUN   TestOrderService_Create/missing_customer
=== RUN   TestOrderService_Create/duplicate_idempotency_key
    order_service_test.go:74: 
        	Error Trace:	/home/dev/go/src/github.com/shopco/orders/internal/service/order_service_test.go:74
        	Error:      	Not equal: 
        	            	expected: 409
        	            	actual  : 500
        	Test:       	TestOrderService_Create/duplicate_idempotency_key
--- FAIL: TestOrderService_Create (0.03s)
    --- PASS: TestOrderService_Create/valid_order (0.01s)
    --- PASS: TestOrderService_Create/missing_customer (0.00s)
    --- FAIL: TestOrderService_Create/duplicate_idempotency_key (0.01s)
FAIL
FAIL	github.com/shopco/orders/internal/service	0.412s
ok  	github.com/shopco/orders/internal/repo	1.207s
?   	github.com/shopco/orders/cmd/server	[no test files]
FAIL"""},
    {'kind': 'paste', 'text': r"""# github.com/shopco/orders/internal/handler
internal/handler/orders.go:58:9: cannot use order (variable of type *model.Order) as model.Order value in argument to h.svc.Create
internal/handler/orders.go:112:2: declared and not used: ctx
internal/handler/health.go:14:15: undefined: version.Commit
internal/handler/middleware.go:31:22: r.Context().Value("user").(string) (comma, ok expression) has type string, want *auth.Claims"""},
    {'kind': 'paste', 'text': r"""[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  24.118 s
[INFO] Finished at: 2024-04-29T16:44:02+02:00
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project inventory-service: Compilation failure: Compilation failure: 
[ERROR] /Users/tom/work/inventory-service/src/main/java/com/acme/inventory/StockController.java:[47,38] cannot find symbol
[ERROR]   symbol:   method findBySkuIn(java.util.List<java.lang.String>)
[ERROR]   location: variable stockRepository of type com.acme.inventory.repo.StockRepository
[ERROR] /Users/tom/work/inventory-service/src/main/java/com/acme/inventory/dto/StockDto.java:[12,1] package lombok does not exist
[ERROR] -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException"""},
    {'kind': 'paste', 'text': r"""> Task :app:compileDebugKotlin FAILED
e: file:///Users/lena/AndroidStudioProjects/Notes/app/src/main/java/com/lena/notes/ui/NoteListViewModel.kt:34:27 Unresolved reference: collectAsStateWithLifecycle
e: file:///Users/lena/AndroidStudioProjects/Notes/app/src/main/java/com/lena/notes/data/NoteDao.kt:19:5 Suspend function 'insert' should be called only from a coroutine or another suspend function

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

BUILD FAILED in 17s
31 actionable tasks: 4 executed, 27 up-to-date"""},
    {'kind': 'paste', 'text': r"""src/routes/settings/+page.svelte:22:7 - error TS2322: Type 'string | undefined' is not assignable to type 'string'.
  Type 'undefined' is not assignable to type 'string'.

22       email: user.email,
         ~~~~~

  src/lib/types.ts:8:3
    8   email: string;
        ~~~~~
    The expected type comes from property 'email' which is declared here on type 'ProfileForm'

src/lib/api/client.ts:45:18 - error TS2345: Argument of type 'Response' is not assignable to parameter of type 'ApiResult<User>'.

45   return parseUser(res);
                    ~~~

src/lib/stores/session.ts:3:10 - error TS2305: Module '"svelte/store"' has no exported member 'Writeable'.

3 import { Writeable, writable } from 'svelte/store';
           ~~~~~~~~~


Found 3 errors in 3 files.

Errors  Files
     1  src/routes/settings/+page.svelte:22
     1  src/lib/api/client.ts:45
     1  src/lib/stores/session.ts:3"""},
    {'kind': 'paste', 'text': r"""/home/sam/proj/admin/src/pages/Users.jsx
   14:10  error    'useMemo' is defined but never used                                       no-unused-vars
   37:6   warning  React Hook useEffect has a missing dependency: 'fetchUsers'. Either include it or remove the dependency array  react-hooks/exhaustive-deps
   52:23  error    Unexpected console statement                                              no-console

/home/sam/proj/admin/src/components/Table.jsx
    8:1   error    Import "lodash" is not allowed, use "lodash-es" instead                   no-restricted-imports
   61:15  warning  Do not use Array index in keys                                            react/no-array-index-key

✖ 5 problems (3 errors, 2 warnings)
  1 error and 0 warnings potentially fixable with the `--fix` option."""},
    {'kind': 'paste', 'text': r"""app/services/importer.py:14:1: I001 [*] Import block is un-sorted or un-formatted
app/services/importer.py:88:9: F841 Local variable `resp` is assigned to but never used
app/services/importer.py:102:5: E722 Do not use bare `except`
app/api/routes.py:3:20: F401 [*] `typing.Optional` imported but unused
app/api/routes.py:57:89: E501 Line too long (112 > 88)
app/models/user.py:41:16: UP007 [*] Use `X | Y` for type annotations
Found 6 errors.
[*] 3 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option)."""},
    {'kind': 'paste', 'text': r"""src/pipeline/transform.py:27: error: Argument 1 to "normalize" has incompatible type "str | None"; expected "str"  [arg-type]
src/pipeline/transform.py:64: error: Item "None" of "Match[str] | None" has no attribute "group"  [union-attr]
src/pipeline/loader.py:12: error: Library stubs not installed for "requests"  [import-untyped]
src/pipeline/loader.py:12: note: Hint: "python3 -m pip install types-requests"
src/pipeline/loader.py:12: note: (or run "mypy --install-types" to install all missing stub packages)
src/pipeline/loader.py:12: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports
src/pipeline/cli.py:88: error: Incompatible return value type (got "dict[str, object]", expected "Config")  [return-value]
Found 4 errors in 3 files (checked 21 source files)"""},
    {'kind': 'paste', 'text': r"""Internal Server Error: /api/v1/invoices/8842/pdf/
Traceback (most recent call last):
  File "/srv/app/.venv/lib/python3.10/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/srv/app/.venv/lib/python3.10/site-packages/django/core/handlers/base.py", line 197, in _get_response
    response = wrapped_callback(request, *callback_args, **callback_kwargs)
  File "/srv/app/.venv/lib/python3.10/site-packages/django/views/decorators/csrf.py", line 56, in wrapper_view
    return view_func(*args, **kwargs)
  File "/srv/app/.venv/lib/python3.10/site-packages/rest_framework/views.py", line 509, in dispatch
    response = self.handle_exception(exc)
  File "/srv/app/.venv/lib/python3.10/site-packages/rest_framework/views.py", line 506, in dispatch
    response = handler(request, *args, **kwargs)
  File "/srv/app/billing/views.py", line 143, in pdf
    html = render_to_string("billing/invoice.html", {"invoice": invoice, "lines": invoice.lines.all()})
  File "/srv/app/.venv/lib/python3.10/site-packages/django/template/loader.py", line 61, in render_to_string
    template = get_template(template_name, using=using)
  File "/srv/app/.venv/lib/python3.10/site-packages/django/template/loader.py", line 19, in get_template
    raise TemplateDoesNotExist(template_name, chain=chain)
django.template.exceptions.TemplateDoesNotExist: billing/invoice.html
[14/May/2024 10:31:07] "GET /api/v1/invoices/8842/pdf/ HTTP/1.1" 500 145"""},
    {'kind': 'paste', 'text': r"""2024-05-02T11:47:19.334Z ERROR 1 --- [nio-8080-exec-7] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: org.springframework.dao.DataIntegrityViolationException: could not execute statement [ERROR: duplicate key value violates unique constraint "uk_customer_email"
  Detail: Key (email)=(j.doe@example.com) already exists.] [insert into customer (created_at,email,name,id) values (?,?,?,?)]; SQL [insert into customer (created_at,email,name,id) values (?,?,?,?)]; constraint [uk_customer_email]] with root cause

org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint "uk_customer_email"
  Detail: Key (email)=(j.doe@example.com) already exists.
	at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2725) ~[postgresql-42.6.2.jar!/:42.6.2]
	at org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2412) ~[postgresql-42.6.2.jar!/:42.6.2]
	at org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:371) ~[postgresql-42.6.2.jar!/:42.6.2]
	at org.postgresql.jdbc.PgStatement.executeInternal(PgStatement.java:502) ~[postgresql-42.6.2.jar!/:42.6.2]
	at org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:152) ~[postgresql-42.6.2.jar!/:42.6.2]
	at com.zaxxer.hikari.pool.ProxyPreparedStatement.executeUpdate(ProxyPreparedStatement.java:61) ~[HikariCP-5.0.1.jar!/:na]
	at org.hibernate.engine.jdbc.internal.ResultSetReturnImpl.executeUpdate(ResultSetReturnImpl.java:194) ~[hibernate-core-6.4.4.Final.jar!/:6.4.4.Final]
	at com.acme.crm.customer.CustomerService.register(CustomerService.java:58) ~[classes!/:0.0.1-SNAPSHOT]
	at com.acme.crm.customer.CustomerController.create(CustomerController.java:33) ~[classes!/:0.0.1-SNAPSHOT]
	... 48 common frames omitted"""},
    {'kind': 'paste', 'text': r"""panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1029c4f]

goroutine 47 [running]:
github.com/shopco/orders/internal/cache.(*RedisCache).Get(0x0, {0x13f2a40, 0xc0001a6000}, {0xc0003b2040, 0x1c})
	/app/internal/cache/redis.go:42 +0x2f
github.com/shopco/orders/internal/service.(*OrderService).GetByID(0xc00012e1e0, {0x13f2a40, 0xc0001a6000}, {0xc0003b2040, 0x24})
	/app/internal/service/order_service.go:88 +0x9c
github.com/shopco/orders/internal/handler.(*Handler).GetOrder(0xc000110f00, {0x13f0e20, 0xc0002a40e0}, 0xc0002bc000)
	/app/internal/handler/orders.go:71 +0x12a
net/http.HandlerFunc.ServeHTTP(0xc000182060?, {0x13f0e20?, 0xc0002a40e0?}, 0x100?)
	/usr/local/go/src/net/http/server.go:2166 +0x29
github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0000c6060, {0x13f0e20, 0xc0002a40e0}, 0xc0002bc000)
	/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.12/mux.go:459 +0x216
net/http.(*conn).serve(0xc0001f2000, {0x13f2a40, 0xc000120db0})
	/usr/local/go/src/net/http/server.go:3142 +0x8b4
created by net/http.(*Server).Serve in goroutine 1
	/usr/local/go/src/net/http/server.go:3290 +0x4b4
exit status 2"""},
    {'kind': 'paste', 'text': r"""thread 'tokio-runtime-worker' panicked at src/handlers/upload.rs:63:47:
called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }
stack backtrace:
   0: rust_begin_unwind
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/std/src/panicking.rs:645:5
   1: core::panicking::panic_fmt
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/core/src/panicking.rs:72:14
   2: core::result::unwrap_failed
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/core/src/result.rs:1649:5
   3: core::result::Result<T,E>::unwrap
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/core/src/result.rs:1073:23
   4: filehost::handlers::upload::store_chunk::{{closure}}
             at ./src/handlers/upload.rs:63:20
   5: filehost::handlers::upload::handle::{{closure}}
             at ./src/handlers/upload.rs:28:9
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."""},
    {'kind': 'paste', 'text': r"""node:internal/process/promises:289
            triggerUncaughtException(err, true /* fromPromise */);
            ^

Error: connect ECONNREFUSED 127.0.0.1:5432
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)
    at TCPConnectWrap.callbackTrampoline (node:internal/async_hooks:130:17) {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '127.0.0.1',
  port: 5432
}

Node.js v20.12.2
[nodemon] app crashed - waiting for file changes before starting..."""},
    {'kind': 'paste', 'text': r"""Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
  ~ update in-place
-/+ destroy and then create replacement

Terraform will perform the following actions:

  # aws_db_instance.main must be replaced
-/+ resource "aws_db_instance" "main" {
      ~ address                      = "prod-db.c9xk2a1b3c4d.us-east-1.rds.amazonaws.com" -> (known after apply)
      ~ arn                          = "arn:aws:rds:us-east-1:123456789012:db:prod-db" -> (known after apply)
      ~ engine_version               = "14.10" -> "15.5" # forces replacement
      ~ id                           = "db-ABCDEFGHIJKLMNOP" -> (known after apply)
        # (38 unchanged attributes hidden)
    }

  # aws_security_group_rule.db_ingress will be updated in-place
  ~ resource "aws_security_group_rule" "db_ingress" {
      ~ cidr_blocks       = [
          - "10.0.0.0/16",
          + "10.20.0.0/16",
        ]
        id                = "sgrule-3094851192"
        # (6 unchanged attributes hidden)
    }

  # aws_ssm_parameter.db_url will be created
  + resource "aws_ssm_parameter" "db_url" {
      + arn   = (known after apply)
      + name  = "/prod/api/DATABASE_URL"
      + type  = "SecureString"
      + value = (sensitive value)
    }

Plan: 2 to add, 1 to change, 1 to destroy.

Note: You didn't use the -out option to save this plan, so Terraform can't
guarantee to take exactly these actions if you run "terraform apply" now."""},
    {'kind': 'paste', 'text': r"""aws_iam_role.lambda_exec: Creating...
aws_s3_bucket.artifacts: Creating...
aws_iam_role.lambda_exec: Creation complete after 1s [id=thumbnailer-exec]
╷
│ Error: creating S3 Bucket (acme-artifacts): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 8QWJ3K2M1N0P, HostID: xZ1y2W3v4U5t6S7r8Q9p0O==, BucketAlreadyExists: 
│ 
│   with aws_s3_bucket.artifacts,
│   on s3.tf line 1, in resource "aws_s3_bucket" "artifacts":
│    1: resource "aws_s3_bucket" "artifacts" {
│ 
╵
╷
│ Error: Reference to undeclared input variable
│ 
│   on lambda.tf line 14, in resource "aws_lambda_function" "thumbnailer":
│   14:   memory_size   = var.lambda_memory
│ 
│ An input variable with the name "lambda_memory" has not been declared.
│ This variable can be declared with a variable "lambda_memory" {} block.
╵"""},
    {'kind': 'paste', 'text': r"""NAME                                   READY   STATUS             RESTARTS        AGE
api-gateway-7d9f8b6c5d-2xkqp           1/1     Running            0               3d4h
api-gateway-7d9f8b6c5d-9mzwt           1/1     Running            0               3d4h
auth-service-5b8c7d9f4-lp2nq           0/1     CrashLoopBackOff   17 (2m11s ago)  64m
auth-service-5b8c7d9f4-xw8rt           0/1     CrashLoopBackOff   17 (98s ago)    64m
notification-worker-6f4d8c7b9-kk5vz    1/1     Running            2 (41h ago)     6d
postgres-0                             1/1     Running            0               12d
redis-master-0                         1/1     Running            0               12d
search-indexer-84c6d5f7b8-h7j2m        0/1     ImagePullBackOff   0               12m
web-frontend-69b7c8d5f-4nqrs           1/1     Running            0               22h"""},
    {'kind': 'paste', 'text': r"""Name:             auth-service-5b8c7d9f4-lp2nq
Namespace:        prod
Priority:         0
Service Account:  auth-service
Node:             ip-10-20-3-117.ec2.internal/10.20.3.117
Start Time:       Tue, 14 May 2024 09:12:44 +0000
Labels:           app=auth-service
                  pod-template-hash=5b8c7d9f4
Status:           Running
IP:               10.20.3.201
Containers:
  auth:
    Image:          123456789012.dkr.ecr.us-east-1.amazonaws.com/auth-service:v2.14.0
    Port:           8080/TCP
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Tue, 14 May 2024 10:14:02 +0000
      Finished:     Tue, 14 May 2024 10:14:31 +0000
    Ready:          False
    Restart Count:  17
    Limits:
      memory:  256Mi
    Requests:
      cpu:     100m
      memory:  128Mi
Events:
  Type     Reason     Age                  From     Message
  ----     ------     ----                 ----     -------
  Normal   Pulled     14m (x18 over 64m)   kubelet  Container image "123456789012.dkr.ecr.us-east-1.amazonaws.com/auth-service:v2.14.0" already present on machine
  Warning  BackOff    2m9s (x270 over 63m) kubelet  Back-off restarting failed container auth in pod auth-service-5b8c7d9f4-lp2nq_prod(3f1c9a2e-8d7b-4c6a-9e1f-0b2d3c4e5f6a)"""},
    {'kind': 'paste', 'text': r"""CONTAINER ID   IMAGE                     COMMAND                  CREATED        STATUS                          PORTS                                       NAMES
4e1a9b7c2d3f   myapp-web:latest          "docker-entrypoint.s…"   2 hours ago    Up 2 hours                      0.0.0.0:3000->3000/tcp, :::3000->3000/tcp   myapp-web-1
b82c0f1e9a44   myapp-worker:latest       "python -m worker"       2 hours ago    Restarting (1) 14 seconds ago                                               myapp-worker-1
91d3e5f7a2b8   postgres:16-alpine        "docker-entrypoint.s…"   2 hours ago    Up 2 hours (healthy)            0.0.0.0:5432->5432/tcp, :::5432->5432/tcp   myapp-db-1
c7f2a8e1b0d4   redis:7.2                 "docker-entrypoint.s…"   2 hours ago    Up 2 hours                      6379/tcp                                    myapp-redis-1
0a9e8d7c6b5f   minio/minio:latest        "/usr/bin/docker-ent…"   3 days ago     Exited (137) 2 days ago                                                     minio"""},
    {'kind': 'paste', 'text': r"""[+] Building 41.7s (11/14)                                                                              docker:desktop-linux
 => [internal] load build definition from Dockerfile                                                                    0.0s
 => => transferring dockerfile: 812B                                                                                    0.0s
 => [internal] load metadata for docker.io/library/python:3.12-slim                                                     1.2s
 => [internal] load .dockerignore                                                                                       0.0s
 => [base 1/5] FROM docker.io/library/python:3.12-slim@sha256:2be8daddbb82756f7d1f2c7ece706aadcb284bf6ab6d769ea695cc3ed6016743  0.0s
 => [internal] load build context                                                                                       0.3s
 => => transferring context: 48.21kB                                                                                    0.2s
 => CACHED [base 2/5] WORKDIR /app                                                                                      0.0s
 => [base 3/5] RUN apt-get update && apt-get install -y --no-install-recommends build-essential libpq-dev              22.4s
 => [base 4/5] COPY requirements.txt .                                                                                  0.0s
 => ERROR [base 5/5] RUN pip install --no-cache-dir -r requirements.txt                                                17.6s
------
 > [base 5/5] RUN pip install --no-cache-dir -r requirements.txt:
17.41       error: subprocess-exited-with-error
17.41       
17.41       × Building wheel for psycopg2 (pyproject.toml) did not run successfully.
17.41       │ exit code: 1
17.41       ╰─> [1 lines of output]
17.41           Error: pg_config executable not found.
17.52 ERROR: Could not build wheels for psycopg2, which is required to install pyproject.toml-based projects
------
Dockerfile:9
--------------------
   7 |     
   8 |     COPY requirements.txt .
   9 | >>> RUN pip install --no-cache-dir -r requirements.txt
  10 |     
  11 |     COPY . .
--------------------
ERROR: failed to solve: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1"""},
    {'kind': 'paste', 'text': r"""worker-1  | [2024-05-14 08:01:12,441: INFO/MainProcess] Connected to redis://redis:6379/0
worker-1  | [2024-05-14 08:01:12,447: INFO/MainProcess] mingle: searching for neighbors
worker-1  | [2024-05-14 08:01:13,460: INFO/MainProcess] mingle: all alone
worker-1  | [2024-05-14 08:01:13,478: INFO/MainProcess] celery@3b7e1f0a2c9d ready.
web-1     | INFO:     Started server process [1]
web-1     | INFO:     Waiting for application startup.
web-1     | INFO:     Application startup complete.
web-1     | INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
db-1      | 2024-05-14 08:01:15.022 UTC [64] FATAL:  password authentication failed for user "app"
db-1      | 2024-05-14 08:01:15.022 UTC [64] DETAIL:  Connection matched file "/var/lib/postgresql/data/pg_hba.conf" line 128: "host all all all scram-sha-256"
web-1     | INFO:     172.18.0.1:59012 - "GET /health HTTP/1.1" 200 OK
web-1     | INFO:     172.18.0.1:59012 - "POST /api/jobs HTTP/1.1" 500 Internal Server Error
worker-1  | [2024-05-14 08:01:15,031: ERROR/ForkPoolWorker-2] Task app.tasks.sync_accounts[a1b2c3d4-e5f6-4789-abcd-ef0123456789] raised unexpected: OperationalError('connection to server at "db" (172.18.0.3), port 5432 failed: FATAL:  password authentication failed for user "app"\n')"""},
    {'kind': 'paste', 'text': r""" id  |       email        | plan  | seats |          created_at           | churned_at
-----+--------------------+-------+-------+-------------------------------+------------
 101 | ops@northwind.io   | team  |    12 | 2023-11-02 14:21:07.118+00    |
 102 | it@contoso.com     | pro   |     3 | 2023-11-05 09:02:44.903+00    | 2024-03-01
 117 | dev@fabrikam.dev   | team  |    40 | 2024-01-18 22:10:31.552+00    |
 123 | admin@initech.biz  | free  |     1 | 2024-02-09 16:45:00.004+00    |
 131 | billing@globex.com | ent   |   250 | 2024-03-27 11:30:19.77+00     |
(5 rows)"""},
    {'kind': 'paste', 'text': r"""psql (16.2, server 14.11)
SSL connection (protocol: TLSv1.3, cipher: TLS_AES_256_GCM_SHA384, compression: off)
Type "help" for help.

analytics=> select user_id, count(*) from events where created_at > now() - interval '7 days' group by 1 order by 2 desc limit 5;
ERROR:  column "user_id" does not exist
LINE 1: select user_id, count(*) from events where created_at > now(...
               ^
HINT:  Perhaps you meant to reference the column "events.userid".
analytics=> \d events
                          Table "public.events"
   Column   |           Type           | Collation | Nullable | Default
------------+--------------------------+-----------+----------+---------
 id         | bigint                   |           | not null | generated always as identity
 userid     | uuid                     |           | not null |
 name       | text                     |           | not null |
 props      | jsonb                    |           |          | '{}'::jsonb
 created_at | timestamp with time zone |           | not null | now()
Indexes:
    "events_pkey" PRIMARY KEY, btree (id)
    "events_created_at_idx" btree (created_at)"""},
    {'kind': 'paste', 'text': r"""127.0.0.1:6379> INFO memory
# Memory
used_memory:2147481608
used_memory_human:2.00G
used_memory_rss:2301587456
used_memory_rss_human:2.14G
used_memory_peak:2147483120
used_memory_peak_human:2.00G
maxmemory:2147483648
maxmemory_human:2.00G
maxmemory_policy:noeviction
mem_fragmentation_ratio:1.07
127.0.0.1:6379> SET session:abc123 "{\"uid\":42}" EX 3600
(error) OOM command not allowed when used memory > 'maxmemory'.
127.0.0.1:6379> DBSIZE
(integer) 4821937
127.0.0.1:6379> SCAN 0 MATCH rl:* COUNT 5
1) "3407872"
2) 1) "rl:203.0.113.54:/api/login"
   2) "rl:198.51.100.7:/api/search"
   3) "rl:203.0.113.9:/api/login"
"""},
    {'kind': 'paste', 'text': r"""{
    "Functions": [
        {
            "FunctionName": "thumbnailer-prod",
            "FunctionArn": "arn:aws:lambda:us-east-1:123456789012:function:thumbnailer-prod",
            "Runtime": "python3.9",
            "Role": "arn:aws:iam::123456789012:role/thumbnailer-exec",
            "Handler": "app.handler",
            "CodeSize": 18734522,
            "Timeout": 30,
            "MemorySize": 512,
            "LastModified": "2024-04-30T18:22:09.131+0000",
            "Version": "$LATEST",
            "Architectures": [
                "x86_64"
            ]
        },
        {
            "FunctionName": "webhook-relay",
            "FunctionArn": "arn:aws:lambda:us-east-1:123456789012:function:webhook-relay",
            "Runtime": "nodejs16.x",
            "Handler": "index.handler",
            "CodeSize": 2048113,
            "Timeout": 10,
            "MemorySize": 128,
            "LastModified": "2023-02-14T07:51:44.002+0000",
            "Version": "$LATEST"
        }
    ]
}"""},
    {'kind': 'paste', 'text': r"""Deploying container to Cloud Run service [orders-api] in project [shopco-prod] region [europe-west1]
X  Deploying... Revision 'orders-api-00042-vex' is not ready and cannot serve traffic. The user-provided container failed to start and listen on the port defined provided by the PORT=8080 environment variable within the allocated timeout. This can happen when the container port is misconfigured or if the timeout is too short. The health check timeout can be extended. Logs for this revision might contain more information.

Logs URL: https://console.cloud.google.com/logs/viewer?project=shopco-prod&resource=cloud_run_revision/service_name/orders-api/revision_name/orders-api-00042-vex
For more troubleshooting guidance, see https://cloud.google.com/run/docs/troubleshooting#container-failed-to-start
  X  Creating Revision...
  .  Routing traffic...
Deployment failed
ERROR: (gcloud.run.deploy) Revision 'orders-api-00042-vex' is not ready and cannot serve traffic."""},
    {'kind': 'paste', 'text': r"""*   Trying 34.117.59.81:443...
* Connected to api.internal.example.com (34.117.59.81) port 443
* ALPN: curl offers h2,http/1.1
* (304) (OUT), TLS handshake, Client hello (1):
*  CAfile: /etc/ssl/cert.pem
*  CApath: none
* (304) (IN), TLS handshake, Server hello (2):
* (304) (IN), TLS handshake, Unknown (8):
* (304) (IN), TLS handshake, Certificate (11):
* SSL certificate problem: unable to get local issuer certificate
* Closing connection
curl: (60) SSL certificate problem: unable to get local issuer certificate
More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it. To learn more about this situation and
how to fix it, please visit the web page mentioned above."""},
    {'kind': 'paste', 'text': r"""2024/05/14 03:12:44 [error] 2214#2214: *918273 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 203.0.113.54, server: api.example.com, request: "POST /v1/reports/export HTTP/2.0", upstream: "http://127.0.0.1:8000/v1/reports/export", host: "api.example.com"
2024/05/14 03:12:51 [warn] 2214#2214: *918301 an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/4/17/0000031174 while reading upstream, client: 198.51.100.22, server: api.example.com, request: "GET /v1/files/9912 HTTP/2.0", upstream: "http://127.0.0.1:8000/v1/files/9912", host: "api.example.com"
2024/05/14 03:13:02 [error] 2214#2214: *918344 connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.54, server: api.example.com, request: "GET /health HTTP/1.1", upstream: "http://127.0.0.1:8000/health", host: "api.example.com"
2024/05/14 03:13:02 [error] 2214#2214: *918345 no live upstreams while connecting to upstream, client: 192.0.2.10, server: api.example.com, request: "GET /v1/me HTTP/2.0", upstream: "http://backend/v1/me", host: "api.example.com", referrer: "https://app.example.com/"
"""},
    {'kind': 'paste', 'text': r"""<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.24.0</center>
</body>
</html>
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->"""},
    {'kind': 'paste', 'text': r"""× gunicorn.service - Gunicorn daemon for the reports app
     Loaded: loaded (/etc/systemd/system/gunicorn.service; enabled; preset: enabled)
     Active: failed (Result: exit-code) since Tue 2024-05-14 03:13:01 UTC; 4min 12s ago
   Duration: 2d 7h 41min 9.113s
    Process: 88123 ExecStart=/srv/reports/.venv/bin/gunicorn --workers 3 --bind unix:/run/gunicorn.sock reports.wsgi:application (code=exited, status=3)
   Main PID: 88123 (code=exited, status=3)
        CPU: 1.204s

May 14 03:13:00 web-01 gunicorn[88123]: [2024-05-14 03:13:00 +0000] [88125] [ERROR] Exception in worker process
May 14 03:13:00 web-01 gunicorn[88123]: Traceback (most recent call last):
May 14 03:13:00 web-01 gunicorn[88123]:   File "/srv/reports/.venv/lib/python3.11/site-packages/gunicorn/arbiter.py", line 609, in spawn_worker
May 14 03:13:00 web-01 gunicorn[88123]: ModuleNotFoundError: No module named 'reports.settings.production'
May 14 03:13:00 web-01 gunicorn[88123]: [2024-05-14 03:13:00 +0000] [88125] [INFO] Worker exiting (pid: 88125)
May 14 03:13:01 web-01 gunicorn[88123]: [2024-05-14 03:13:01 +0000] [88123] [ERROR] Reason: Worker failed to boot.
May 14 03:13:01 web-01 systemd[1]: gunicorn.service: Main process exited, code=exited, status=3/NOTIMPLEMENTED
May 14 03:13:01 web-01 systemd[1]: gunicorn.service: Failed with result 'exit-code'."""},
    {'kind': 'paste', 'text': r"""May 14 02:58:17 db-replica-2 systemd[1]: Starting postgresql@15-main.service - PostgreSQL Cluster 15-main...
May 14 02:58:17 db-replica-2 postgresql@15-main[4411]: Error: /usr/lib/postgresql/15/bin/pg_ctl /usr/lib/postgresql/15/bin/pg_ctl start -D /var/lib/postgresql/15/main -l /var/log/postgresql/postgresql-15-main.log -s -o  -c config_file="/etc/postgresql/15/main/postgresql.conf"  exited with status 1:
May 14 02:58:17 db-replica-2 postgresql@15-main[4411]: 2024-05-14 02:58:17.902 UTC [4416] LOG:  redirecting log output to logging collector process
May 14 02:58:17 db-replica-2 postgresql@15-main[4411]: 2024-05-14 02:58:17.902 UTC [4416] HINT:  Future log output will appear in directory "log".
May 14 02:58:18 db-replica-2 postgresql@15-main[4411]: pg_ctl: could not start server
May 14 02:58:18 db-replica-2 postgresql@15-main[4411]: Examine the log output.
May 14 02:58:18 db-replica-2 systemd[1]: postgresql@15-main.service: Can't open PID file /run/postgresql/15-main.pid (yet?) after start: No such file or directory
May 14 02:58:18 db-replica-2 systemd[1]: postgresql@15-main.service: Failed with result 'protocol'.
May 14 02:58:18 db-replica-2 systemd[1]: Failed to start postgresql@15-main.service - PostgreSQL Cluster 15-main.
May 14 02:58:21 db-replica-2 kernel: EXT4-fs warning (device nvme1n1p1): ext4_dx_add_entry:2516: Directory (ino: 1835009) index full, reach max htree level :2
May 14 02:58:21 db-replica-2 kernel: EXT4-fs warning (device nvme1n1p1): ext4_dx_add_entry:2520: Large directory feature is not enabled on this filesystem"""},
    {'kind': 'paste', 'text': r"""Run pnpm run build
  pnpm run build
  shell: /usr/bin/bash -e {0}
  env:
    PNPM_HOME: /home/runner/setup-pnpm/node_modules/.bin
    NODE_OPTIONS: --max-old-space-size=4096

> web@1.8.0 build /home/runner/work/storefront/storefront/apps/web
> next build

  ▲ Next.js 14.2.3
  - Environments: .env.production

   Creating an optimized production build ...
Failed to compile.

./src/app/products/[slug]/page.tsx
Module not found: Can't resolve '@/components/ProductGallery'

https://nextjs.org/docs/messages/module-not-found

Import trace for requested module:
./src/app/products/[slug]/page.tsx


> Build failed because of webpack errors
 ELIFECYCLE  Command failed with exit code 1.
Error: Process completed with exit code 1."""},
    {'kind': 'paste', 'text': r"""TypeError
Cannot read properties of undefined (reading 'map')
app:///_next/static/chunks/app/dashboard/page-3f2a9c1d.js in OrdersTable at line 1:48211
app:///_next/static/chunks/framework-a1b2c3d4.js in renderWithHooks at line 9:72145
app:///_next/static/chunks/framework-a1b2c3d4.js in updateFunctionComponent at line 9:96330

Tags
browser: Chrome 124.0.0
browser.name: Chrome
environment: production
handled: no
level: error
mechanism: onerror
os: Windows >=10
release: storefront@1.8.0+4f1e0a2
url: https://app.example.com/dashboard?tab=orders
user: id:8812

First seen: 2 hours ago
Last seen: 3 minutes ago
Events: 1,284
Users: 312"""},
    {'kind': 'paste', 'text': r"""assets by status 1.82 MiB [cached] 14 assets
orphan modules 412 KiB [orphan] 88 modules
runtime modules 3.91 KiB 9 modules
cacheable modules 2.3 MiB
  modules by path ./node_modules/ 1.97 MiB 214 modules
  modules by path ./src/ 341 KiB 77 modules

ERROR in ./src/styles/main.scss (./node_modules/css-loader/dist/cjs.js!./node_modules/sass-loader/dist/cjs.js!./src/styles/main.scss)
Module build failed (from ./node_modules/sass-loader/dist/cjs.js):
Can't find stylesheet to import.
  ╷
3 │ @use 'bootstrap/scss/functions';
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  ╵
  src/styles/main.scss 3:1  root stylesheet
 @ ./src/index.js 4:0-28

WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).
This can impact web performance.
Assets: 
  main.8f2c1a.js (1.41 MiB)

webpack 5.91.0 compiled with 1 error and 1 warning in 4812 ms"""},
    {'kind': 'paste', 'text': r"""  VITE v5.2.11  ready in 412 ms

  ➜  Local:   http://localhost:5173/
  ➜  Network: use --host to expose
  ➜  press h + enter to show help
2:41:07 PM [vite] Pre-transform error: Failed to resolve import "@/lib/supabase" from "src/pages/Login.tsx". Does the file exist?
2:41:07 PM [vite] Internal server error: Failed to resolve import "@/lib/supabase" from "src/pages/Login.tsx". Does the file exist?
  Plugin: vite:import-analysis
  File: /Users/kai/dev/tracker/src/pages/Login.tsx:3:25
  1  |  import { useState } from "react";
  2  |  import { useNavigate } from "react-router-dom";
  3  |  import { supabase } from "@/lib/supabase";
     |                            ^
  4  |  
  5  |  export default function Login() {
      at formatError (file:///Users/kai/dev/tracker/node_modules/vite/dist/node/chunks/dep-cNe07EU9.js:50863:46)
      at TransformContext.error (file:///Users/kai/dev/tracker/node_modules/vite/dist/node/chunks/dep-cNe07EU9.js:50857:19)
2:41:09 PM [vite] hmr update /src/App.tsx"""},
    {'kind': 'paste', 'text': r"""top - 14:22:08 up 41 days,  3:17,  2 users,  load average: 11.42, 9.87, 6.03
Tasks: 287 total,   3 running, 284 sleeping,   0 stopped,   0 zombie
%Cpu(s): 78.4 us,  9.1 sy,  0.0 ni,  2.3 id,  9.8 wa,  0.0 hi,  0.4 si,  0.0 st
MiB Mem :  15896.4 total,    212.7 free,  14977.0 used,    706.7 buff/cache
MiB Swap:   4096.0 total,     12.3 free,   4083.7 used.    471.2 avail Mem 

    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
  31877 app       20   0   12.4g   9.8g  12480 R 312.5  63.1 421:07.33 java
   1204 postgres  20   0 4318224 1.9g   1.8g S  41.2  12.2 802:44.91 postgres
   9921 app       20   0 1211004 612344  31876 S  12.0   3.8  18:22.07 node
    881 root      20   0  183412  22104  10988 S   2.0   0.1  33:10.02 dockerd
     57 root      20   0       0      0      0 D   1.3   0.0  12:41.80 kswapd0
  40112 deploy    20   0   11644   4096   3328 R   0.7   0.0   0:00.05 top"""},
    {'kind': 'paste', 'text': r"""USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root           1  0.0  0.0 167744 11920 ?        Ss   Apr02   1:14 /sbin/init
root         611  0.0  0.1  48272 18240 ?        Ss   Apr02   0:31 /lib/systemd/systemd-journald
www-data    2214  0.3  0.2  61384 37120 ?        S    Apr02 212:41 nginx: worker process
deploy     31102  0.0  0.4 431928 71204 ?        Sl   May13   0:12 node /srv/app/node_modules/.bin/pm2 daemon
deploy     31140 98.7 14.2 2911844 2318804 ?     Rl   May13 1021:33 node /srv/app/dist/server.js
deploy     31141 97.9 13.8 2899012 2254110 ?     Rl   May13 1012:07 node /srv/app/dist/server.js
deploy     44021  0.0  0.0   9216  2304 pts/0    S+   14:24   0:00 grep --color=auto node"""},
    {'kind': 'paste', 'text': r"""Filesystem      Size  Used Avail Use% Mounted on
udev            7.8G     0  7.8G   0% /dev
tmpfs           1.6G  2.1M  1.6G   1% /run
/dev/nvme0n1p1   48G   48G     0 100% /
tmpfs           7.8G     0  7.8G   0% /dev/shm
tmpfs           5.0M     0  5.0M   0% /run/lock
/dev/nvme0n1p15 105M  6.1M   99M   6% /boot/efi
/dev/nvme1n1    492G  301G  166G  65% /data
overlay          48G   48G     0 100% /var/lib/docker/overlay2/5f3e1c2b9a8d7e6f/merged
tmpfs           1.6G  4.0K  1.6G   1% /run/user/1000"""},
    {'kind': 'paste', 'text': r"""{
  "error": {
    "type": "invalid_request_error",
    "code": "parameter_invalid_integer",
    "message": "Invalid integer: 19.99",
    "param": "amount",
    "doc_url": "https://stripe.com/docs/error-codes/parameter-invalid-integer",
    "request_log_url": "https://dashboard.stripe.com/test/logs/req_8Fq2LmN0pQr1St?t=1715678123"
  }
}"""},
    {'kind': 'paste', 'text': r"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: auth-service
  namespace: prod
  labels:
    app: auth-service
spec:
  replicas: 2
  selector:
    matchLabels:
      app: auth-service
  template:
    metadata:
      labels:
        app: auth-service
    spec:
      serviceAccountName: auth-service
      containers:
        - name: auth
          image: 123456789012.dkr.ecr.us-east-1.amazonaws.com/auth-service:v2.14.0
          ports:
            - containerPort: 8080
          envFrom:
            - secretRef:
                name: auth-env
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
            limits:
              memory: 256Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: 8080
            initialDelaySeconds: 5"""},
    {'kind': 'paste', 'text': r"""services:
  web:
    build: .
    command: uvicorn app.main:app --host 0.0.0.0 --port 8000 --reload
    ports:
      - "8000:8000"
    env_file: .env
    depends_on:
      - db
      - redis
    volumes:
      - .:/app
  worker:
    build: .
    command: celery -A app.tasks worker -l info
    env_file: .env
    depends_on:
      - redis
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: app
      POSTGRES_DB: app
    volumes:
      - pgdata:/var/lib/postgresql/data
  redis:
    image: redis:7.2

volumes:
  pgdata:"""},
    {'kind': 'paste', 'text': r"""upstream backend {
    server 127.0.0.1:8000 max_fails=3 fail_timeout=10s;
    keepalive 32;
}

server {
    listen 443 ssl http2;
    server_name api.example.com;

    ssl_certificate     /etc/letsencrypt/live/api.example.com/fullchain.pem;
    ssl_certificate_key /etc/letsencrypt/live/api.example.com/privkey.pem;

    client_max_body_size 25m;

    location / {
        proxy_pass http://backend;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 60s;
    }

    location /ws/ {
        proxy_pass http://backend;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade";
    }
}"""},
    {'kind': 'paste', 'text': r"""Started POST "/orders" for 127.0.0.1 at 2024-05-14 10:02:33 -0400
Processing by OrdersController#create as TURBO_STREAM
  Parameters: {"authenticity_token"=>"[FILTERED]", "order"=>{"customer_id"=>"18", "line_items_attributes"=>{"0"=>{"product_id"=>"4", "quantity"=>"2"}}}, "commit"=>"Place order"}
  User Load (0.4ms)  SELECT "users".* FROM "users" WHERE "users"."id" = $1 LIMIT $2  [["id", 3], ["LIMIT", 1]]
  ↳ app/controllers/application_controller.rb:12:in `current_user'
  TRANSACTION (0.1ms)  BEGIN
  ↳ app/controllers/orders_controller.rb:24:in `create'
  Product Load (0.3ms)  SELECT "products".* FROM "products" WHERE "products"."id" = $1 LIMIT $2  [["id", 4], ["LIMIT", 1]]
  TRANSACTION (0.1ms)  ROLLBACK
  ↳ app/controllers/orders_controller.rb:24:in `create'
  Rendering layout layouts/application.html.erb
  Rendering orders/new.html.erb within layouts/application
  Rendered orders/_form.html.erb (Duration: 4.1ms | Allocations: 2873)
  Rendered orders/new.html.erb within layouts/application (Duration: 5.0ms | Allocations: 3310)
Completed 422 Unprocessable Entity in 31ms (Views: 12.7ms | ActiveRecord: 1.2ms | Allocations: 15522)"""},
    {'kind': 'paste', 'text': r"""Failures:

  1) Invoice#total applies tax after discount
     Failure/Error: expect(invoice.total).to eq(Money.new(10_800, "USD"))

       expected: #<Money fractional:10800 currency:USD>
            got: #<Money fractional:10780 currency:USD>

       (compared using ==)

       Diff:
       @@ -1 +1 @@
       -#<Money fractional:10800 currency:USD>
       +#<Money fractional:10780 currency:USD>
     # ./spec/models/invoice_spec.rb:42:in `block (3 levels) in <top (required)>'

  2) InvoicesController POST #create with invalid params does not create an invoice
     Failure/Error: raise ActiveRecord::RecordInvalid, self
     
     ActiveRecord::RecordInvalid:
       Validation failed: Customer must exist
     # ./app/models/invoice.rb:61:in `finalize!'
     # ./app/controllers/invoices_controller.rb:18:in `create'
     # ./spec/requests/invoices_spec.rb:77:in `block (4 levels) in <top (required)>'

Finished in 2.84 seconds (files took 1.91 seconds to load)
96 examples, 2 failures

Failed examples:

rspec ./spec/models/invoice_spec.rb:38 # Invoice#total applies tax after discount
rspec ./spec/requests/invoices_spec.rb:70 # InvoicesController POST #create with invalid params does not create an invoice"""},
    {'kind': 'paste', 'text': r"""{"level":"info","ts":"2024-05-14T09:41:02.118Z","caller":"server/server.go:88","msg":"starting http server","addr":":8080","version":"v2.14.0"}
{"level":"info","ts":"2024-05-14T09:41:02.120Z","caller":"db/pool.go:41","msg":"connecting to database","host":"postgres.prod.svc.cluster.local","max_conns":50}
{"level":"warn","ts":"2024-05-14T09:41:04.552Z","caller":"cache/warmup.go:29","msg":"cache warmup slow","keys":1842211,"elapsed":"2.43s"}
{"level":"info","ts":"2024-05-14T09:41:19.006Z","caller":"cache/warmup.go:61","msg":"loaded sessions into memory","count":1842211,"bytes":251847392}
{"level":"error","ts":"2024-05-14T09:41:31.771Z","caller":"server/server.go:102","msg":"shutdown signal received","signal":"terminated"}
{"level":"info","ts":"2024-05-14T09:41:31.772Z","caller":"server/server.go:110","msg":"draining connections","timeout":"15s"}"""},
    {'kind': 'paste', 'text': r"""                                                                    QUERY PLAN
---------------------------------------------------------------------------------------------------------------------------------------------------
 Limit  (cost=184211.44..184211.47 rows=10 width=40) (actual time=4821.337..4821.342 rows=10 loops=1)
   ->  Sort  (cost=184211.44..184526.90 rows=126184 width=40) (actual time=4821.335..4821.339 rows=10 loops=1)
         Sort Key: (count(*)) DESC
         Sort Method: top-N heapsort  Memory: 26kB
         ->  HashAggregate  (cost=179012.10..181484.26 rows=126184 width=40) (actual time=4790.118..4809.552 rows=98114 loops=1)
               Group Key: o.customer_id
               Batches: 5  Memory Usage: 8241kB  Disk Usage: 5120kB
               ->  Hash Join  (cost=3811.00..171231.55 rows=1556110 width=32) (actual time=41.201..4102.883 rows=1549922 loops=1)
                     Hash Cond: (oi.order_id = o.id)
                     ->  Seq Scan on order_items oi  (cost=0.00..142188.10 rows=5211810 width=16) (actual time=0.011..1822.447 rows=5211804 loops=1)
                           Filter: (status <> 'cancelled'::text)
                           Rows Removed by Filter: 81233
                     ->  Hash  (cost=2811.00..2811.00 rows=80000 width=24) (actual time=40.882..40.883 rows=79410 loops=1)
                           Buckets: 131072  Batches: 1  Memory Usage: 5367kB
                           ->  Index Scan using orders_created_at_idx on orders o  (cost=0.43..2811.00 rows=80000 width=24) (actual time=0.021..28.102 rows=79410 loops=1)
                                 Index Cond: (created_at >= (now() - '30 days'::interval))
 Planning Time: 0.611 ms
 Execution Time: 4822.904 ms
(18 rows)"""},
    {'kind': 'paste', 'text': r"""   Generating static pages (14/14)
   Finalizing page optimization ...
   Collecting build traces ...

Route (app)                              Size     First Load JS
┌ ○ /                                    5.21 kB        97.4 kB
├ ○ /_not-found                          871 B          88.1 kB
├ ƒ /api/checkout                        0 B                0 B
├ ƒ /api/webhooks/stripe                 0 B                0 B
├ ○ /cart                                3.88 kB         112 kB
├ ● /products/[slug]                     9.42 kB         121 kB
├   ├ /products/linen-shirt
├   ├ /products/wool-coat
├   └ [+38 more paths]
└ ○ /account                             2.14 kB        94.3 kB
+ First Load JS shared by all            87.2 kB
  ├ chunks/117-2f1c8a3b9d.js             31.6 kB
  ├ chunks/fd9d1056-4e2a1b7c0f.js        53.6 kB
  └ other shared chunks (total)          1.98 kB


○  (Static)   prerendered as static content
●  (SSG)      prerendered as static HTML (uses getStaticProps)
ƒ  (Dynamic)  server-rendered on demand"""},
    {'kind': 'paste', 'text': r"""2024-05-14 09:12:01,004 INFO [scheduler] Running job "sync_inventory (trigger: interval[0:05:00], next run at: 2024-05-14 09:17:01 UTC)"
2024-05-14 09:12:01,221 INFO [inventory.sync] fetching page 1 from supplier=acme-wholesale
2024-05-14 09:12:03,889 WARNING [urllib3.connectionpool] Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='api.acme-wholesale.com', port=443): Read timed out. (read timeout=2.5)")': /v3/stock?page=1
2024-05-14 09:12:06,512 WARNING [urllib3.connectionpool] Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='api.acme-wholesale.com', port=443): Read timed out. (read timeout=2.5)")': /v3/stock?page=1
2024-05-14 09:12:09,020 ERROR [inventory.sync] supplier fetch failed supplier=acme-wholesale attempt=3
2024-05-14 09:12:09,021 INFO [inventory.sync] skipping supplier=acme-wholesale, 0 items updated
2024-05-14 09:12:09,455 INFO [inventory.sync] fetching page 1 from supplier=northwind
2024-05-14 09:12:10,102 INFO [inventory.sync] supplier=northwind updated=412 unchanged=3871 duration=0.65s
2024-05-14 09:12:10,103 INFO [scheduler] Job "sync_inventory (trigger: interval[0:05:00], next run at: 2024-05-14 09:17:01 UTC)" executed successfully"""},
    {'kind': 'paste', 'text': r"""Auto-merging src/auth/session.rs
CONFLICT (content): Merge conflict in src/auth/session.rs
error: could not apply 5e1f2a9... switch session store to redis
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the state before "git rebase", run "git rebase --abort".
Could not apply 5e1f2a9... switch session store to redis"""},
    {'kind': 'paste', 'text': r""" Context: prod-eks [RW]                                  <0> all        <a>      Attach     <l>       Logs
 Cluster: arn:aws:eks:us-east-1:123456789012:cluster/prod <1> prod       <ctrl-d> Delete     <p>       Logs Previous
 User:    arn:aws:eks:us-east-1:123456789012:cluster/prod <2> default    <d>      Describe   <shift-f> Port-Forward
 K9s Rev: v0.32.4                                                   <e>      Edit       <s>       Shell
 K8s Rev: v1.29.3-eks-adc7111                                        <?>      Help       <n>       Show Node
 CPU:     61%
 MEM:     83%
┌──────────────────────────────────────────── Pods(prod)[9] ────────────────────────────────────────────┐
│ NAME↑                                 PF READY STATUS            RESTARTS CPU  MEM  %CPU/R %MEM/R IP        │
│ api-gateway-7d9f8b6c5d-2xkqp          ●  1/1   Running                  0  41   198     41     77 10.20.3.44 │
│ api-gateway-7d9f8b6c5d-9mzwt          ●  1/1   Running                  0  38   201     38     78 10.20.1.12 │
│ auth-service-5b8c7d9f4-lp2nq          ●  0/1   CrashLoopBackOff        17   0     0      0      0 10.20.3.201│
│ auth-service-5b8c7d9f4-xw8rt          ●  0/1   CrashLoopBackOff        17   0     0      0      0 10.20.2.98 │
│ notification-worker-6f4d8c7b9-kk5vz   ●  1/1   Running                  2  12   144     12     56 10.20.1.73 │
│ postgres-0                            ●  1/1   Running                  0 210  1892    105     92 10.20.2.15 │
└────────────────────────────────────────────────────────────────────────────────────────────────────────┘
  <pod>"""},
    {'kind': 'paste', 'text': r"""               total        used        free      shared  buff/cache   available
Mem:           15896       14977         212         331         706         471
Swap:           4095        4083          12
State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess
LISTEN 0      511          0.0.0.0:80         0.0.0.0:*    users:(("nginx",pid=2214,fd=6),("nginx",pid=2213,fd=6))
LISTEN 0      4096       127.0.0.1:8000       0.0.0.0:*    users:(("gunicorn",pid=88123,fd=5))
LISTEN 0      244        127.0.0.1:5432       0.0.0.0:*    users:(("postgres",pid=1204,fd=7))
LISTEN 0      511        127.0.0.1:6379       0.0.0.0:*    users:(("redis-server",pid=903,fd=6))
LISTEN 0      4096            [::]:22            [::]:*    users:(("sshd",pid=702,fd=4))"""},
    {'kind': 'paste', 'text': r"""Package                Current   Wanted   Latest  Location                            Depended by
@tanstack/react-query   4.36.1   4.36.1   5.37.1  node_modules/@tanstack/react-query  dashboard-web
@types/node            20.11.30 20.12.12  20.12.12 node_modules/@types/node            dashboard-web
eslint                   8.57.0   8.57.0    9.2.0  node_modules/eslint                 dashboard-web
next                     13.5.6   13.5.6   14.2.3  node_modules/next                   dashboard-web
react-router-dom         6.22.3   6.23.1   6.23.1  node_modules/react-router-dom       dashboard-web
typescript                5.3.3    5.4.5    5.4.5  node_modules/typescript             dashboard-web
vite                     4.5.3    4.5.3    5.2.11  node_modules/vite                   dashboard-web"""},
    {'kind': 'paste', 'text': r"""warning: this `if` has identical blocks
   --> src/config.rs:58:28
    |
58  |       if cfg.verbose {
    |  ____________________________^
59  | |         level = Level::Debug;
60  | |     } else {
    | |_____^
    |
note: same as this
   --> src/config.rs:60:12
    |
60  |       } else {
    |  ____________^
61  | |         level = Level::Debug;
62  | |     }
    | |_____^
    = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else
    = note: `#[warn(clippy::if_same_then_else)]` on by default

warning: redundant clone
  --> src/main.rs:22:31
   |
22 |     let name = args.name.clone().clone();
   |                                 ^^^^^^^^ help: remove this
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#redundant_clone

warning: `cli-tool` (bin "cli-tool") generated 2 warnings (run `cargo clippy --fix --bin "cli-tool"` to apply 1 suggestion)
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.12s"""},
    {'kind': 'paste', 'text': r"""trim trailing whitespace.................................................Passed
fix end of files.........................................................Passed
check yaml...............................................................Passed
check for added large files..............................................Failed
- hook id: check-added-large-files
- exit code: 1

data/fixtures/customers_full.csv (18342 KB) exceeds 500 KB.

ruff.....................................................................Failed
- hook id: ruff
- exit code: 1
- files were modified by this hook

Found 4 errors (4 fixed, 0 remaining).

ruff-format..............................................................Passed
mypy.....................................................................Passed"""},
    {'kind': 'paste', 'text': r"""[3550712.118422] node invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[3550712.118441] CPU: 3 PID: 31140 Comm: node Not tainted 6.5.0-1018-aws #18~22.04.1-Ubuntu
[3550712.118447] Hardware name: Amazon EC2 t3.xlarge/, BIOS 1.0 10/16/2017
[3550712.118612] Mem-Info:
[3550712.118619] active_anon:3711042 inactive_anon:201118 isolated_anon:0
[3550712.118901] Tasks state (memory values in pages):
[3550712.118903] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
[3550712.118961] [  31140]  1001 31140   727961   579701  6082560   104112             0 node
[3550712.118965] [  31141]  1001 31141   724753   563527  5980160   101004             0 node
[3550712.118990] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/pm2-deploy.service,task=node,pid=31140,uid=1001
[3550712.119210] Out of memory: Killed process 31140 (node) total-vm:2911844kB, anon-rss:2318804kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:5940kB oom_score_adj:0"""},
    {'kind': 'paste', 'text': r"""[project]
name = "ingest-service"
version = "0.7.2"
description = "Pulls partner feeds and loads them into the warehouse"
requires-python = ">=3.11"
dependencies = [
    "httpx>=0.27",
    "pydantic>=2.6",
    "sqlalchemy[asyncio]>=2.0.29",
    "asyncpg>=0.29",
    "tenacity>=8.2",
]

[project.optional-dependencies]
dev = ["pytest>=8", "pytest-asyncio>=0.23", "ruff>=0.4", "mypy>=1.10"]

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B"]

[tool.pytest.ini_options]
asyncio_mode = "auto"
testpaths = ["tests"]"""},
    {'kind': 'paste', 'text': r"""Access to fetch at 'https://api.example.com/v1/me' from origin 'http://localhost:5173' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource. If an opaque response serves your needs, set the request's mode to 'no-cors' to fetch the resource with CORS disabled.
api.example.com/v1/me:1 
        
        
       Failed to load resource: net::ERR_FAILED
client.ts:41 Uncaught (in promise) TypeError: Failed to fetch
    at request (client.ts:41:21)
    at getMe (auth.ts:12:10)
    at AuthProvider.tsx:27:5
    at commitHookEffectListMount (react-dom.development.js:23189:26)
    at invokePassiveEffectMountInDEV (react-dom.development.js:25193:13)
Warning: Each child in a list should have a unique "key" prop.

Check the render method of `Sidebar`. See https://reactjs.org/link/warning-keys for more information.
    at li
    at Sidebar (http://localhost:5173/src/components/Sidebar.tsx:21:3)"""},
    {'kind': 'paste', 'text': r"""203.0.113.54 - - [14/May/2024:03:12:44 +0000] "POST /v1/reports/export HTTP/2.0" 504 167 "https://app.example.com/reports" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36" rt=60.001 uct=0.000 urt=60.001
198.51.100.22 - - [14/May/2024:03:12:51 +0000] "GET /v1/files/9912 HTTP/2.0" 200 8812331 "-" "python-requests/2.31.0" rt=3.412 uct=0.001 urt=3.409
203.0.113.54 - - [14/May/2024:03:13:02 +0000] "GET /health HTTP/1.1" 502 157 "-" "ELB-HealthChecker/2.0" rt=0.000 uct=- urt=0.000
192.0.2.10 - - [14/May/2024:03:13:02 +0000] "GET /v1/me HTTP/2.0" 502 157 "https://app.example.com/" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1" rt=0.000 uct=- urt=0.000
192.0.2.10 - - [14/May/2024:03:13:05 +0000] "GET /v1/me HTTP/2.0" 200 412 "https://app.example.com/" "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1" rt=0.044 uct=0.001 urt=0.043"""},
    {'kind': 'paste', 'text': r"""mysql> SELECT table_name, ROUND((data_length + index_length) / 1024 / 1024, 1) AS size_mb, table_rows FROM information_schema.tables WHERE table_schema = 'shop' ORDER BY size_mb DESC LIMIT 6;
+----------------+---------+------------+
| TABLE_NAME     | size_mb | TABLE_ROWS |
+----------------+---------+------------+
| audit_log      | 18211.4 |  212334120 |
| order_items    |  2214.9 |    5211804 |
| orders         |   611.2 |    1893122 |
| sessions       |   402.7 |     981244 |
| products       |    12.3 |      41022 |
| customers      |     9.8 |      98114 |
+----------------+---------+------------+
6 rows in set (0.04 sec)"""},
    {'kind': 'paste', 'text': r"""Exception in thread "main" java.lang.IllegalStateException: Failed to execute CommandLineRunner
	at org.springframework.boot.SpringApplication.callRunner(SpringApplication.java:774)
	at org.springframework.boot.SpringApplication.callRunners(SpringApplication.java:755)
	at org.springframework.boot.SpringApplication.run(SpringApplication.java:319)
	at com.acme.etl.EtlApplication.main(EtlApplication.java:12)
Caused by: java.lang.NullPointerException: Cannot invoke "String.trim()" because the return value of "org.apache.commons.csv.CSVRecord.get(String)" is null
	at com.acme.etl.parse.CustomerRowMapper.map(CustomerRowMapper.java:27)
	at com.acme.etl.parse.CsvReader.lambda$read$0(CsvReader.java:44)
	at java.base/java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:197)
	at java.base/java.util.Iterator.forEachRemaining(Iterator.java:133)
	at java.base/java.util.stream.AbstractPipeline.copyInto(AbstractPipeline.java:509)
	at java.base/java.util.stream.ReferencePipeline.collect(ReferencePipeline.java:682)
	at com.acme.etl.parse.CsvReader.read(CsvReader.java:46)
	at com.acme.etl.ImportRunner.run(ImportRunner.java:31)
	at org.springframework.boot.SpringApplication.callRunner(SpringApplication.java:771)
	... 3 common frames omitted"""},
    {'kind': 'paste', 'text': r"""go: finding module for package github.com/shopco/orders/internal/cache/redisx
go: found github.com/redis/go-redis/v9 in github.com/redis/go-redis/v9 v9.5.1
go: github.com/shopco/orders/internal/cache imports
	github.com/shopco/orders/internal/cache/redisx: cannot find module providing package github.com/shopco/orders/internal/cache/redisx
go: github.com/shopco/orders/cmd/server imports
	github.com/aws/aws-sdk-go-v2/service/sqs tested by
	github.com/aws/aws-sdk-go-v2/service/sqs.test imports
	github.com/aws/aws-sdk-go-v2/internal/protocoltest/awsrestjson: module github.com/aws/aws-sdk-go-v2@latest found (v1.26.1), but does not contain package github.com/aws/aws-sdk-go-v2/internal/protocoltest/awsrestjson"""},
    {'kind': 'paste', 'text': r"""LAST SEEN   TYPE      REASON              OBJECT                                  MESSAGE
12m         Normal    Scheduled           pod/search-indexer-84c6d5f7b8-h7j2m     Successfully assigned prod/search-indexer-84c6d5f7b8-h7j2m to ip-10-20-1-58.ec2.internal
10m         Normal    Pulling             pod/search-indexer-84c6d5f7b8-h7j2m     Pulling image "ghcr.io/shopco/search-indexer:1.9.0"
10m         Warning   Failed              pod/search-indexer-84c6d5f7b8-h7j2m     Failed to pull image "ghcr.io/shopco/search-indexer:1.9.0": rpc error: code = Unknown desc = failed to pull and unpack image "ghcr.io/shopco/search-indexer:1.9.0": failed to resolve reference "ghcr.io/shopco/search-indexer:1.9.0": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Ashopco%2Fsearch-indexer%3Apull&service=ghcr.io: 401 Unauthorized
10m         Warning   Failed              pod/search-indexer-84c6d5f7b8-h7j2m     Error: ErrImagePull
2m          Normal    BackOff             pod/search-indexer-84c6d5f7b8-h7j2m     Back-off pulling image "ghcr.io/shopco/search-indexer:1.9.0"
2m          Warning   Failed              pod/search-indexer-84c6d5f7b8-h7j2m     Error: ImagePullBackOff
64m         Normal    ScalingReplicaSet   deployment/auth-service                 Scaled up replica set auth-service-5b8c7d9f4 to 2"""},
    # ------------------------------------------------------------------ mixed
    {'kind': 'mixed', 'typed': ["getting this when i run pytest on CI but it passes locally, any idea?"], 'text': r"""getting this when i run pytest on CI but it passes locally, any idea?

E       sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused
E       	Is the server running on that host and accepting TCP/IP connections?

.venv/lib/python3.11/site-packages/psycopg2/__init__.py:122: OperationalError
=========================== short test summary info ============================
ERROR tests/test_repo.py::test_create_user - sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused
ERROR tests/test_repo.py::test_list_users - sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused
========================= 12 passed, 2 errors in 3.41s ========================="""},
    {'kind': 'mixed', 'typed': ["Can you fix this type error? I don't want to just cast it to any."], 'text': r"""src/hooks/useCart.ts:31:5 - error TS2322: Type '{ id: string; qty: number; }[]' is not assignable to type 'CartItem[]'.
  Property 'price' is missing in type '{ id: string; qty: number; }' but required in type 'CartItem'.

31     setItems(prev.map(({ id, qty }) => ({ id, qty })));
       ~~~~~~~~

  src/types/cart.ts:5:3
    5   price: number;
        ~~~~~
    'price' is declared here.


Found 1 error in src/hooks/useCart.ts:31

Can you fix this type error? I don't want to just cast it to any."""},
    {'kind': 'mixed', 'typed': ["the auth pods keep dying after the deploy this morning.", "whats going on here? memory limit is 256Mi which was fine before"], 'text': r"""the auth pods keep dying after the deploy this morning.

    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Tue, 14 May 2024 10:14:02 +0000
      Finished:     Tue, 14 May 2024 10:14:31 +0000
    Ready:          False
    Restart Count:  17

whats going on here? memory limit is 256Mi which was fine before"""},
    {'kind': 'mixed', 'typed': ["ok cargo is yelling at me again"], 'text': r"""ok cargo is yelling at me again
error[E0382]: borrow of moved value: `config`
  --> src/main.rs:41:20
   |
33 |     let config = Config::load(&args.config_path)?;
   |         ------ move occurs because `config` has type `Config`, which does not implement the `Copy` trait
...
38 |     let server = Server::new(config);
   |                              ------ value moved here
...
41 |     println!("{}", config.bind_addr);
   |                    ^^^^^^^^^^^^^^^^ value borrowed here after move
   |
note: consider changing this parameter type in method `new` to borrow instead if owning the value isn't necessary
  --> src/server.rs:18:19
   |
18 |     pub fn new(cfg: Config) -> Self {
   |            ---      ^^^^^^ this parameter takes ownership of the value
help: consider cloning the value if the performance cost is acceptable
   |
38 |     let server = Server::new(config.clone());
   |                                    ++++++++"""},
    {'kind': 'mixed', 'typed': ["why does git say i'm ahead by 3 commits when i just pulled?? i didn't commit anything"], 'text': r"""On branch main
Your branch is ahead of 'origin/main' by 3 commits.
  (use "git push" to publish your local commits)

nothing to commit, working tree clean
why does git say i'm ahead by 3 commits when i just pulled?? i didn't commit anything"""},
    {'kind': 'mixed', 'typed': ["Here's the output of `docker compose up`:", "The worker keeps restarting. I think it's the env var but not sure which one"], 'text': r"""Here's the output of `docker compose up`:

worker-1  | Traceback (most recent call last):
worker-1  |   File "/app/worker/main.py", line 4, in <module>
worker-1  |     from worker.settings import settings
worker-1  |   File "/app/worker/settings.py", line 22, in <module>
worker-1  |     settings = Settings()
worker-1  |   File "/usr/local/lib/python3.12/site-packages/pydantic_settings/main.py", line 141, in __init__
worker-1  |     super().__init__(
worker-1  | pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
worker-1  | redis_url
worker-1  |   Field required [type=missing, input_value={'database_url': 'postgre...'}, input_type=dict]
worker-1  |     For further information visit https://errors.pydantic.dev/2.7/v/missing
worker-1 exited with code 1

The worker keeps restarting. I think it's the env var but not sure which one"""},
    {'kind': 'mixed', 'typed': ["this query is super slow (4+ seconds), can you suggest an index?"], 'text': r"""this query is super slow (4+ seconds), can you suggest an index?
 Gather  (cost=1000.00..98211.40 rows=412 width=88) (actual time=12.118..4310.772 rows=388 loops=1)
   Workers Planned: 2
   Workers Launched: 2
   ->  Parallel Seq Scan on audit_events  (cost=0.00..97170.20 rows=172 width=88) (actual time=9.441..4298.015 rows=129 loops=3)
         Filter: ((tenant_id = 'b1f2c3d4-0000-4000-8000-000000000042'::uuid) AND (created_at > '2024-05-01 00:00:00+00'::timestamp with time zone))
         Rows Removed by Filter: 3401277
 Planning Time: 0.214 ms
 Execution Time: 4311.040 ms"""},
    {'kind': 'mixed', 'typed': ["npm install worked but now this:", "should I just use --legacy-peer-deps or is there a proper fix"], 'text': r"""npm install worked but now this:
npm ERR! code ERESOLVE
npm ERR! ERESOLVE could not resolve
npm ERR! 
npm ERR! While resolving: @testing-library/react-hooks@8.0.1
npm ERR! Found: @types/react@18.3.2
npm ERR! node_modules/@types/react
npm ERR!   dev @types/react@"^18.3.2" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peerOptional @types/react@"^16.9.0 || ^17.0.0" from @testing-library/react-hooks@8.0.1
npm ERR! node_modules/@testing-library/react-hooks
npm ERR!   dev @testing-library/react-hooks@"^8.0.1" from the root project
should I just use --legacy-peer-deps or is there a proper fix"""},
    {'kind': 'mixed', 'typed': ["terraform wants to destroy and recreate the prod DB?? that can't be right. how do I upgrade postgres in place without it nuking everything"], 'text': r"""  # aws_db_instance.main must be replaced
-/+ resource "aws_db_instance" "main" {
      ~ engine_version               = "14.10" -> "15.5" # forces replacement
      ~ id                           = "db-ABCDEFGHIJKLMNOP" -> (known after apply)
      ~ identifier                   = "prod-db" -> (known after apply)
        # (38 unchanged attributes hidden)
    }

Plan: 1 to add, 0 to change, 1 to destroy.

terraform wants to destroy and recreate the prod DB?? that can't be right. how do I upgrade postgres in place without it nuking everything"""},
    {'kind': 'mixed', 'typed': ["go test fails only with -race. what's the race here"], 'text': r"""go test fails only with -race. what's the race here

==================
WARNING: DATA RACE
Write at 0x00c0001b40f8 by goroutine 23:
  github.com/shopco/orders/internal/metrics.(*Counter).Inc()
      /app/internal/metrics/counter.go:18 +0x4c
  github.com/shopco/orders/internal/worker.(*Pool).process()
      /app/internal/worker/pool.go:61 +0x10f

Previous read at 0x00c0001b40f8 by goroutine 24:
  github.com/shopco/orders/internal/metrics.(*Counter).Value()
      /app/internal/metrics/counter.go:22 +0x3a
  github.com/shopco/orders/internal/worker.(*Pool).Stats()
      /app/internal/worker/pool.go:88 +0x55

Goroutine 23 (running) created at:
  github.com/shopco/orders/internal/worker.(*Pool).Start()
      /app/internal/worker/pool.go:40 +0x8d
==================
--- FAIL: TestPool_Concurrent (0.02s)
    testing.go:1398: race detected during execution of test
FAIL"""},
    {'kind': 'mixed', 'typed': ["disk is full on the box again.", "what's the safest way to clean up docker stuff without killing the running containers?"], 'text': r"""disk is full on the box again.

Filesystem      Size  Used Avail Use% Mounted on
/dev/nvme0n1p1   48G   48G     0 100% /
tmpfs           7.8G     0  7.8G   0% /dev/shm
/dev/nvme1n1    492G  301G  166G  65% /data
TYPE            TOTAL     ACTIVE    SIZE      RECLAIMABLE
Images          64        7         31.2GB    27.94GB (89%)
Containers      9         5         1.104GB   212MB (19%)
Local Volumes   22        4         6.81GB    5.02GB (73%)
Build Cache     311       0         8.337GB   8.337GB

what's the safest way to clean up docker stuff without killing the running containers?"""},
    {'kind': 'mixed', 'typed': ["jest says this test is leaking, how do I find what's keeping it open?"], 'text': r"""Test Suites: 14 passed, 14 total
Tests:       122 passed, 122 total
Snapshots:   3 passed, 3 total
Time:        9.812 s
Ran all test suites.
Jest did not exit one second after the test run has completed.

This usually means that there are asynchronous operations that weren't stopped in your tests. Consider running Jest with `--detectOpenHandles` to troubleshoot this issue.
jest says this test is leaking, how do I find what's keeping it open?"""},
    {'kind': 'mixed', 'typed': ["The GitHub Action started failing on the setup-python step, nothing changed on our side:"], 'text': r"""The GitHub Action started failing on the setup-python step, nothing changed on our side:

Run actions/setup-python@v5
  with:
    python-version: 3.7
    check-latest: false
    token: ***
    update-environment: true
    allow-prereleases: false
Installed versions
  Version 3.7 was not found in the local cache
  Error: The version '3.7' with architecture 'x64' was not found for Ubuntu 24.04.
  The list of all available versions can be found here: https://raw.githubusercontent.com/actions/python-versions/main/versions-manifest.json"""},
    {'kind': 'mixed', 'typed': ["mypy is complaining about this but the code is correct at runtime", "is there a way to narrow the type without an assert"], 'text': r"""mypy is complaining about this but the code is correct at runtime
app/services/pricing.py:44: error: Item "None" of "Plan | None" has no attribute "monthly_price"  [union-attr]
app/services/pricing.py:45: error: Unsupported operand types for * ("None" and "int")  [operator]
app/services/pricing.py:45: note: Left operand is of type "Decimal | None"
Found 2 errors in 1 file (checked 48 source files)
is there a way to narrow the type without an assert"""},
    {'kind': 'mixed', 'typed': ["Spring app won't start after I added the second datasource. Here's the log"], 'text': r"""Spring app won't start after I added the second datasource. Here's the log

***************************
APPLICATION FAILED TO START
***************************

Description:

Parameter 0 of method entityManagerFactory in org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaConfiguration required a single bean, but 2 were found:
	- primaryDataSource: defined by method 'primaryDataSource' in class path resource [com/acme/crm/config/DataSourceConfig.class]
	- reportingDataSource: defined by method 'reportingDataSource' in class path resource [com/acme/crm/config/DataSourceConfig.class]

This may be due to missing parameter name information

Action:

Consider marking one of the beans as @Primary, updating the consumer to accept multiple beans, or using @Qualifier to identify the bean that should be consumed"""},
    {'kind': 'mixed', 'typed': ["kubectl get pods shows this, the indexer one is new", "is that an auth thing with ghcr? we rotated the PAT yesterday"], 'text': r"""kubectl get pods shows this, the indexer one is new
NAME                                   READY   STATUS             RESTARTS   AGE
api-gateway-7d9f8b6c5d-2xkqp           1/1     Running            0          3d4h
notification-worker-6f4d8c7b9-kk5vz    1/1     Running            2          6d
search-indexer-84c6d5f7b8-h7j2m        0/1     ImagePullBackOff   0          12m
web-frontend-69b7c8d5f-4nqrs           1/1     Running            0          22h
is that an auth thing with ghcr? we rotated the PAT yesterday"""},
    {'kind': 'mixed', 'typed': ["fix the lint errors pls, dont change behaviour"], 'text': r"""fix the lint errors pls, dont change behaviour

src/api/handlers.ts
  12:7   error  'res' is assigned a value but never used          @typescript-eslint/no-unused-vars
  48:15  error  Unexpected any. Specify a different type          @typescript-eslint/no-explicit-any
  77:3   error  Promises must be awaited, end with a call to .catch, end with a call to .then with a rejection handler or be explicitly marked as ignored with the `void` operator  @typescript-eslint/no-floating-promises

src/api/middleware/auth.ts
  9:1    error  Import "jsonwebtoken" should be listed in the project's dependencies  import/no-extraneous-dependencies

✖ 4 problems (4 errors, 0 warnings)"""},
    {'kind': 'mixed', 'typed': ["So I ran the migration and it blew up halfway through.", "Is the DB in a half-migrated state now? Do I need to roll back manually?"], 'text': r"""So I ran the migration and it blew up halfway through.
INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
INFO  [alembic.runtime.migration] Running upgrade 3f9a1c2e7b10 -> 8d2e4f6a1c33, add tenant_id to invoices
INFO  [alembic.runtime.migration] Running upgrade 8d2e4f6a1c33 -> b71c0e9d5a28, backfill tenant_id
Traceback (most recent call last):
  File "/app/.venv/bin/alembic", line 8, in <module>
    sys.exit(main())
  File "/app/migrations/versions/b71c0e9d5a28_backfill_tenant_id.py", line 31, in upgrade
    op.alter_column("invoices", "tenant_id", nullable=False)
sqlalchemy.exc.IntegrityError: (psycopg2.errors.NotNullViolation) column "tenant_id" of relation "invoices" contains null values
Is the DB in a half-migrated state now? Do I need to roll back manually?"""},
    {'kind': 'mixed', 'typed': ["redis is full, we set maxmemory to 2gb. should we switch to allkeys-lru or is something leaking keys?"], 'text': r"""127.0.0.1:6379> INFO keyspace
# Keyspace
db0:keys=4821937,expires=112,avg_ttl=2591872
127.0.0.1:6379> MEMORY USAGE session:abc123
(integer) 488
127.0.0.1:6379> TTL rl:203.0.113.54:/api/login
(integer) -1
127.0.0.1:6379> CONFIG GET maxmemory-policy
1) "maxmemory-policy"
2) "noeviction"
redis is full, we set maxmemory to 2gb. should we switch to allkeys-lru or is something leaking keys?"""},
    {'kind': 'mixed', 'typed': ["Getting a 403 from S3 on presigned PUT urls, but only from the browser. curl works fine."], 'text': r"""Getting a 403 from S3 on presigned PUT urls, but only from the browser. curl works fine.

<?xml version="1.0" encoding="UTF-8"?>
<Error>
  <Code>SignatureDoesNotMatch</Code>
  <Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message>
  <AWSAccessKeyId>AKIAEXAMPLEKEY12345</AWSAccessKeyId>
  <StringToSign>AWS4-HMAC-SHA256
20240514T101233Z
20240514/us-east-1/s3/aws4_request
9f1a7b3c4e5d6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8</StringToSign>
  <SignatureProvided>1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f00f</SignatureProvided>
  <RequestId>8QWJ3K2M1N0P</RequestId>
</Error>"""},
    {'kind': 'mixed', 'typed': ["whats eating all the cpu here", "the java one is our reporting service, its normally like 20%"], 'text': r"""whats eating all the cpu here
top - 14:22:08 up 41 days,  3:17,  2 users,  load average: 11.42, 9.87, 6.03
Tasks: 287 total,   3 running, 284 sleeping,   0 stopped,   0 zombie
%Cpu(s): 78.4 us,  9.1 sy,  0.0 ni,  2.3 id,  9.8 wa,  0.0 hi,  0.4 si,  0.0 st
MiB Mem :  15896.4 total,    212.7 free,  14977.0 used,    706.7 buff/cache

    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
  31877 app       20   0   12.4g   9.8g  12480 R 312.5  63.1 421:07.33 java
   1204 postgres  20   0 4318224 1.9g   1.8g S  41.2  12.2 802:44.91 postgres
the java one is our reporting service, its normally like 20%"""},
    {'kind': 'mixed', 'typed': ["uv lock fails with this. we need torch on both mac intel and linux"], 'text': r"""  × No solution found when resolving dependencies for split (platform_machine == 'x86_64' and sys_platform == 'darwin'):
  ╰─▶ Because only the following versions of torch are available:
          torch<=2.2.2
          torch>=2.3.0
      and torch>=2.3.0 has no wheels with a matching platform tag, we can conclude that torch>=2.3.0 cannot be used.
      And because your project depends on torch>=2.3.0, we can conclude that your project's requirements are unsatisfiable.

      hint: Wheels are available for `torch` (v2.3.0) on the following platforms: `manylinux1_x86_64`, `manylinux2014_aarch64`, `macosx_11_0_arm64`, `win_amd64`
uv lock fails with this. we need torch on both mac intel and linux"""},
    {'kind': 'mixed', 'typed': ["I'm trying to push my branch and getting this.", "I did a rebase earlier, do I need force push? I don't want to clobber anyone's work"], 'text': r"""I'm trying to push my branch and getting this.
To github.com:acme-corp/payments-api.git
 ! [rejected]        feature/refunds -> feature/refunds (non-fast-forward)
error: failed to push some refs to 'github.com:acme-corp/payments-api.git'
hint: Updates were rejected because the tip of your current branch is behind
hint: its remote counterpart. If you want to integrate the remote changes,
hint: use 'git pull' before pushing again.
hint: See the 'Note about fast-forwards' in 'git push --help' for details.
I did a rebase earlier, do I need force push? I don't want to clobber anyone's work"""},
    {'kind': 'mixed', 'typed': ["nginx keeps returning 413 on file uploads over ~1MB even though I set client_max_body_size. config below, what am I missing"], 'text': r"""nginx keeps returning 413 on file uploads over ~1MB even though I set client_max_body_size. config below, what am I missing

server {
    listen 80;
    server_name files.internal;

    location /upload {
        proxy_pass http://127.0.0.1:9000;
        client_max_body_size 100M;
    }

    location / {
        proxy_pass http://127.0.0.1:9000;
    }
}"""},
    {'kind': 'mixed', 'typed': ["please make the vitest output green, the expected values are right, the implementation is wrong"], 'text': r""" ❯ src/lib/slugify.test.ts (6 tests | 3 failed) 9ms
   × slugify > strips accents
     → expected 'cafe-creme' to be 'cafe-creme' // Object.is equality
   × slugify > collapses repeated dashes
     → expected 'a--b' to be 'a-b' // Object.is equality
   × slugify > trims leading and trailing dashes
     → expected '-hello-world-' to be 'hello-world' // Object.is equality

 Test Files  1 failed (1)
      Tests  3 failed | 3 passed (6)

please make the vitest output green, the expected values are right, the implementation is wrong"""},
    {'kind': 'mixed', 'typed': ["Our gunicorn service dies right after deploy.", "We renamed the settings module last week, maybe related?"], 'text': r"""Our gunicorn service dies right after deploy.

× gunicorn.service - Gunicorn daemon for the reports app
     Loaded: loaded (/etc/systemd/system/gunicorn.service; enabled; preset: enabled)
     Active: failed (Result: exit-code) since Tue 2024-05-14 03:13:01 UTC; 4min 12s ago
    Process: 88123 ExecStart=/srv/reports/.venv/bin/gunicorn --workers 3 --bind unix:/run/gunicorn.sock reports.wsgi:application (code=exited, status=3)
   Main PID: 88123 (code=exited, status=3)

May 14 03:13:00 web-01 gunicorn[88123]: ModuleNotFoundError: No module named 'reports.settings.production'
May 14 03:13:01 web-01 gunicorn[88123]: [2024-05-14 03:13:01 +0000] [88123] [ERROR] Reason: Worker failed to boot.

We renamed the settings module last week, maybe related?"""},
    {'kind': 'mixed', 'typed': ["what does this mean and how do i fix it"], 'text': r"""what does this mean and how do i fix it
Traceback (most recent call last):
  File "/Users/ana/dev/scraper/main.py", line 58, in <module>
    asyncio.run(main())
  File "/opt/homebrew/Cellar/python@3.12/3.12.3/Frameworks/Python.framework/Versions/3.12/lib/python3.12/asyncio/runners.py", line 194, in run
    return runner.run(main)
  File "/Users/ana/dev/scraper/main.py", line 51, in main
    results = await asyncio.gather(*[fetch(session, u) for u in urls])
  File "/Users/ana/dev/scraper/main.py", line 22, in fetch
    async with session.get(url, timeout=10) as resp:
  File "/Users/ana/dev/scraper/.venv/lib/python3.12/site-packages/aiohttp/client.py", line 1197, in __aenter__
    self._resp = await self._coro
aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host example-shop.com:443 ssl:default [Too many open files]"""},
    {'kind': 'mixed', 'typed': ["Can you write a SQL query that finds customers whose seat count went down month over month? Sample of the table:"], 'text': r"""Can you write a SQL query that finds customers whose seat count went down month over month? Sample of the table:
 customer_id |   month    | seats
-------------+------------+-------
         101 | 2024-01-01 |    12
         101 | 2024-02-01 |    12
         101 | 2024-03-01 |     9
         117 | 2024-01-01 |    40
         117 | 2024-02-01 |    44
         131 | 2024-03-01 |   250
(6 rows)"""},
    {'kind': 'mixed', 'typed': ["gradle build broke after bumping kotlin to 2.0", "do I need to change the compose compiler setup?"], 'text': r"""gradle build broke after bumping kotlin to 2.0

* What went wrong:
An exception occurred applying plugin request [id: 'org.jetbrains.kotlin.android']
> Failed to apply plugin 'org.jetbrains.kotlin.android'.
   > Starting in Kotlin 2.0, the Compose Compiler Gradle plugin is required
     when compose is enabled. See the following link for more information:
     https://d.android.com/r/studio-ui/compose-compiler

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.

BUILD FAILED in 3s
do I need to change the compose compiler setup?"""},
    {'kind': 'mixed', 'typed': ["our sentry is flooded with this since the 1.8.0 release", "can you look at OrdersTable and see where .map is being called on something undefined"], 'text': r"""our sentry is flooded with this since the 1.8.0 release
TypeError
Cannot read properties of undefined (reading 'map')
app:///_next/static/chunks/app/dashboard/page-3f2a9c1d.js in OrdersTable at line 1:48211
app:///_next/static/chunks/framework-a1b2c3d4.js in renderWithHooks at line 9:72145

release: storefront@1.8.0+4f1e0a2
url: https://app.example.com/dashboard?tab=orders
Events: 1,284
Users: 312
can you look at OrdersTable and see where .map is being called on something undefined"""},
    {'kind': 'mixed', 'typed': ["poetry cant resolve, boto3 vs aiobotocore again. which versions should i pin?"], 'text': r"""poetry cant resolve, boto3 vs aiobotocore again. which versions should i pin?

Because no versions of aiobotocore match >2.12.3,<3.0.0
 and aiobotocore (2.12.3) depends on botocore (>=1.34.41,<1.34.70), aiobotocore (>=2.12.3,<3.0.0) requires botocore (>=1.34.41,<1.34.70).
And because boto3 (1.34.100) depends on botocore (>=1.34.100,<1.35.0)
 and no versions of boto3 match >1.34.100,<1.35.0, aiobotocore (>=2.12.3,<3.0.0) is incompatible with boto3 (>=1.34.100,<1.35.0).
So, because ingest-service depends on both boto3 (^1.34.100) and aiobotocore (^2.12.3), version solving failed."""},
    {'kind': 'mixed', 'typed': ["curl to our staging api gives this:", "the cert is from our internal CA. how do I make curl and also python requests trust it on my mac?"], 'text': r"""curl to our staging api gives this:
* SSL certificate problem: unable to get local issuer certificate
* Closing connection
curl: (60) SSL certificate problem: unable to get local issuer certificate
More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it. To learn more about this situation and
how to fix it, please visit the web page mentioned above.
the cert is from our internal CA. how do I make curl and also python requests trust it on my mac?"""},
    {'kind': 'mixed', 'typed': ["Why is my Next build failing on Vercel but fine locally? The file definitely exists."], 'text': r"""Failed to compile.

./src/app/products/[slug]/page.tsx
Module not found: Can't resolve '@/components/ProductGallery'

https://nextjs.org/docs/messages/module-not-found

Import trace for requested module:
./src/app/products/[slug]/page.tsx

> Build failed because of webpack errors
Error: Command "npm run build" exited with 1

Why is my Next build failing on Vercel but fine locally? The file definitely exists."""},
    {'kind': 'mixed', 'typed': ["rspec output below, the first one is a rounding thing i think. can you check how Invoice#total rounds tax?"], 'text': r"""rspec output below, the first one is a rounding thing i think. can you check how Invoice#total rounds tax?

  1) Invoice#total applies tax after discount
     Failure/Error: expect(invoice.total).to eq(Money.new(10_800, "USD"))

       expected: #<Money fractional:10800 currency:USD>
            got: #<Money fractional:10780 currency:USD>

       (compared using ==)
     # ./spec/models/invoice_spec.rb:42:in `block (3 levels) in <top (required)>'

Finished in 2.84 seconds (files took 1.91 seconds to load)
96 examples, 1 failure"""},
    {'kind': 'mixed', 'typed': ["Deploy to cloud run fails with this.", "Our Dockerfile does EXPOSE 8000, is that the problem?"], 'text': r"""Deploy to cloud run fails with this.
Deploying container to Cloud Run service [orders-api] in project [shopco-prod] region [europe-west1]
X  Deploying... Revision 'orders-api-00042-vex' is not ready and cannot serve traffic. The user-provided container failed to start and listen on the port defined provided by the PORT=8080 environment variable within the allocated timeout.
  X  Creating Revision...
  .  Routing traffic...
Deployment failed
ERROR: (gcloud.run.deploy) Revision 'orders-api-00042-vex' is not ready and cannot serve traffic.
Our Dockerfile does EXPOSE 8000, is that the problem?"""},
    {'kind': 'mixed', 'typed': ["write a pydantic v2 model for this response, amounts should be Decimal"], 'text': r"""write a pydantic v2 model for this response, amounts should be Decimal
{
  "id": "inv_01HXYZ8K2M",
  "status": "open",
  "currency": "usd",
  "customer": {
    "id": "cus_9912",
    "email": "billing@globex.com"
  },
  "lines": [
    {"sku": "SEAT-ENT", "qty": 250, "unit_amount": "18.00"},
    {"sku": "SSO-ADDON", "qty": 1, "unit_amount": "500.00"}
  ],
  "total": "5000.00",
  "due_at": "2024-06-01T00:00:00Z"
}"""},
    {'kind': 'mixed', 'typed': ["add a liveness probe and an HPA (min 2 max 6, 70% cpu) to this deployment"], 'text': r"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: notification-worker
spec:
  replicas: 1
  selector:
    matchLabels:
      app: notification-worker
  template:
    metadata:
      labels:
        app: notification-worker
    spec:
      containers:
        - name: worker
          image: ghcr.io/shopco/notification-worker:0.12.3
          resources:
            requests:
              cpu: 200m
              memory: 256Mi

add a liveness probe and an HPA (min 2 max 6, 70% cpu) to this deployment"""},
    {'kind': 'mixed', 'typed': ["so pm2 got oom killed overnight?", "both node processes are at ~2.3GB RSS, that seems way too much for our api. how do I find the leak"], 'text': r"""so pm2 got oom killed overnight?
[3550712.118961] [  31140]  1001 31140   727961   579701  6082560   104112             0 node
[3550712.118965] [  31141]  1001 31141   724753   563527  5980160   101004             0 node
[3550712.118990] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/pm2-deploy.service,task=node,pid=31140,uid=1001
[3550712.119210] Out of memory: Killed process 31140 (node) total-vm:2911844kB, anon-rss:2318804kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:5940kB oom_score_adj:0
both node processes are at ~2.3GB RSS, that seems way too much for our api. how do I find the leak"""},
    {'kind': 'mixed', 'typed': ["I want to squash the last 4 commits into one before opening the PR, the wip ones are embarrassing lol"], 'text': r"""I want to squash the last 4 commits into one before opening the PR, the wip ones are embarrassing lol

e91b2c7 (HEAD -> feat/export-csv) wip
4d0a8f1 wip fix tests
b37c9e2 actually stream the rows
7a1f0d4 add csv export endpoint
c41e9aa (origin/main, main) feat: add rate limiter middleware"""},
    {'kind': 'mixed', 'typed': ["The CI deploy job can't read the stripe secret:", "I added the policy to the role in terraform yesterday. Could it be the resource ARN suffix?"], 'text': r"""The CI deploy job can't read the stripe secret:
Run aws secretsmanager get-secret-value --secret-id prod/api/stripe --query SecretString --output text
  aws secretsmanager get-secret-value --secret-id prod/api/stripe --query SecretString --output text
  shell: /usr/bin/bash -e {0}
  env:
    AWS_DEFAULT_REGION: us-east-1
    AWS_REGION: us-east-1

An error occurred (AccessDeniedException) when calling the GetSecretValue operation: User: arn:aws:sts::123456789012:assumed-role/ci-deployer/GitHubActions is not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/api/stripe-AbC123 because no identity-based policy allows the secretsmanager:GetSecretValue action
Error: Process completed with exit code 254.
I added the policy to the role in terraform yesterday. Could it be the resource ARN suffix?"""},
    {'kind': 'mixed', 'typed': ["helm install fails, but I don't see where 500m comes from. our values.yaml says 250m for cpu"], 'text': r"""helm install fails, but I don't see where 500m comes from. our values.yaml says 250m for cpu
$ helm upgrade --install payments ./charts/payments -n prod -f values.prod.yaml
Release "payments" does not exist. Installing it now.
Error: INSTALLATION FAILED: 1 error occurred:
	* Deployment.apps "payments-api" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "500m": must be less than or equal to cpu limit of 250m
$ helm template payments ./charts/payments -f values.prod.yaml | grep -A4 resources
          resources:
            limits:
              cpu: 250m
            requests:
              cpu: 500m"""},
    {'kind': 'mixed', 'typed': ["after refactoring the handlers into their own package go build gives me this.", "most of these look easy but the middleware one i don't get"], 'text': r"""after refactoring the handlers into their own package go build gives me this.
# github.com/shopco/orders/internal/handler
internal/handler/orders.go:58:9: cannot use order (variable of type *model.Order) as model.Order value in argument to h.svc.Create
internal/handler/orders.go:112:2: declared and not used: ctx
internal/handler/health.go:14:15: undefined: version.Commit
internal/handler/middleware.go:31:22: r.Context().Value("user").(string) (comma, ok expression) has type string, want *auth.Claims
most of these look easy but the middleware one i don't get"""},
    {'kind': 'mixed', 'typed': ["**help**: replica won't come back up after the disk filled. anything in here that says why?"], 'text': r"""**help**: replica won't come back up after the disk filled. anything in here that says why?

May 14 02:58:17 db-replica-2 postgresql@15-main[4411]: 2024-05-14 02:58:17.902 UTC [4416] LOG:  redirecting log output to logging collector process
May 14 02:58:18 db-replica-2 postgresql@15-main[4411]: pg_ctl: could not start server
May 14 02:58:18 db-replica-2 postgresql@15-main[4411]: Examine the log output.
May 14 02:58:18 db-replica-2 systemd[1]: postgresql@15-main.service: Failed with result 'protocol'.
May 14 02:58:18 db-replica-2 systemd[1]: Failed to start postgresql@15-main.service - PostgreSQL Cluster 15-main.
2024-05-14 02:58:18.011 UTC [4416] FATAL:  could not write to file "pg_wal/xlogtemp.4416": No space left on device
2024-05-14 02:58:18.011 UTC [4416] LOG:  startup process (PID 4417) exited with exit code 1
2024-05-14 02:58:18.012 UTC [4416] LOG:  database system is shut down"""},
    {'kind': 'mixed', 'typed': ["mvn says lombok doesn't exist but it's in the pom??"], 'text': r"""[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
[ERROR] /Users/tom/work/inventory-service/src/main/java/com/acme/inventory/dto/StockDto.java:[12,1] package lombok does not exist
[ERROR] /Users/tom/work/inventory-service/src/main/java/com/acme/inventory/dto/StockDto.java:[14,2] cannot find symbol
  symbol: class Data
[ERROR] /Users/tom/work/inventory-service/src/main/java/com/acme/inventory/dto/StockDto.java:[15,2] cannot find symbol
  symbol: class Builder
[INFO] 3 errors 
[INFO] -------------------------------------------------------------
[INFO] BUILD FAILURE
mvn says lombok doesn't exist but it's in the pom??"""},
    {'kind': 'mixed', 'typed': ["i set up the @ alias in vite.config.ts but it still can't resolve it"], 'text': r"""i set up the @ alias in vite.config.ts but it still can't resolve it
2:41:07 PM [vite] Internal server error: Failed to resolve import "@/lib/supabase" from "src/pages/Login.tsx". Does the file exist?
  Plugin: vite:import-analysis
  File: /Users/kai/dev/tracker/src/pages/Login.tsx:3:25
  1  |  import { useState } from "react";
  2  |  import { useNavigate } from "react-router-dom";
  3  |  import { supabase } from "@/lib/supabase";
     |                            ^
  4  |  """},
    {'kind': 'mixed', 'typed': ["Local dev server crashes on startup. Postgres is running in docker, I can connect with psql on 5432 just fine."], 'text': r"""Local dev server crashes on startup. Postgres is running in docker, I can connect with psql on 5432 just fine.

Error: connect ECONNREFUSED ::1:5432
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {
  errno: -61,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '::1',
  port: 5432
}

Node.js v20.12.2
[nodemon] app crashed - waiting for file changes before starting..."""},
    {'kind': 'mixed', 'typed': ["webpack can't find bootstrap scss after I upgraded to bootstrap 5.3.", "It's definitely in node_modules. Do I need includePaths or something?"], 'text': r"""webpack can't find bootstrap scss after I upgraded to bootstrap 5.3.
ERROR in ./src/styles/main.scss (./node_modules/css-loader/dist/cjs.js!./node_modules/sass-loader/dist/cjs.js!./src/styles/main.scss)
Module build failed (from ./node_modules/sass-loader/dist/cjs.js):
Can't find stylesheet to import.
  ╷
3 │ @use 'bootstrap/scss/functions';
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  ╵
  src/styles/main.scss 3:1  root stylesheet
 @ ./src/index.js 4:0-28

webpack 5.91.0 compiled with 1 error in 4812 ms
It's definitely in node_modules. Do I need includePaths or something?"""},
    {'kind': 'mixed', 'typed': ["two node procs pinned at 98% cpu for hours. is it safe to just kill one, pm2 should respawn it right?"], 'text': r"""USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
deploy     31102  0.0  0.4 431928 71204 ?        Sl   May13   0:12 node /srv/app/node_modules/.bin/pm2 daemon
deploy     31140 98.7 14.2 2911844 2318804 ?     Rl   May13 1021:33 node /srv/app/dist/server.js
deploy     31141 97.9 13.8 2899012 2254110 ?     Rl   May13 1012:07 node /srv/app/dist/server.js
deploy     44021  0.0  0.0   9216  2304 pts/0    S+   14:24   0:00 grep --color=auto node

two node procs pinned at 98% cpu for hours. is it safe to just kill one, pm2 should respawn it right?"""},
    {'kind': 'mixed', 'typed': ["pip broke my env after installing numpy 2, now scipy import fails.", "whats the cleanest way to get back to a working set of versions?"], 'text': r"""pip broke my env after installing numpy 2, now scipy import fails.

ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
scipy 1.11.4 requires numpy<1.28.0,>=1.21.6, but you have numpy 2.0.0 which is incompatible.
tensorflow 2.15.0 requires numpy<2.0.0,>=1.23.5, but you have numpy 2.0.0 which is incompatible.
Successfully installed numpy-2.0.0

[notice] A new release of pip is available: 23.2.1 -> 24.0
[notice] To update, run: pip install --upgrade pip

whats the cleanest way to get back to a working set of versions?"""},
    {'kind': 'mixed', 'typed': ["the pre-commit large file check is failing on a fixture csv.", "Can we move it to git lfs, or should I just generate it in the test setup instead?"], 'text': r"""the pre-commit large file check is failing on a fixture csv.
check for added large files..............................................Failed
- hook id: check-added-large-files
- exit code: 1

data/fixtures/customers_full.csv (18342 KB) exceeds 500 KB.

Can we move it to git lfs, or should I just generate it in the test setup instead?"""},
]
