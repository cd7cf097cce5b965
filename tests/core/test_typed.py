"""What a person typed, told apart from pasted machine output by shape (core/typed.py, issue #12).

The pastes here are not the evaluation's (bench/recall_data.py): other tools, other formats, so
the rules are checked on shapes they were not tuned on.
"""

from __future__ import annotations

import pytest

from kg_actors.core import recall
from kg_actors.core.typed import is_continuation, is_machine, typed_part

PASTES = {  # tool output, as pasted
 "docker_build": "#8 [builder 3/6] RUN pip install --no-cache-dir -r requirements.txt\n#8 12.41 Collecting fastapi==0.115.0\n#8 13.02   Downloading fastapi-0.115.0-py3-none-any.whl (94 kB)\n#8 DONE 21.3s\n#9 [builder 4/6] COPY . .\n#9 DONE 0.2s",
 "kubectl_describe": "Name:         api-7d9f8b6c5-2xkqp\nNamespace:    prod\nPriority:     0\nNode:         ip-10-0-3-4.eu-west-1.compute.internal/10.0.3.4\nStart Time:   Mon, 30 Nov 2026 10:01:33 +0000\nLabels:       app=api\n              pod-template-hash=7d9f8b6c5\nStatus:       Running",
 "git_diff_stat": " deploy/helm/app/values.yaml | 4 ++--\n scripts/deploy.sh           | 9 +++++++--\n 2 files changed, 9 insertions(+), 4 deletions(-)",
 "cargo_test": "running 3 tests\ntest limiter::tests::burst ... ok\ntest limiter::tests::window ... FAILED\ntest auth::tests::refresh ... ok\n\nfailures:\n\n---- limiter::tests::window stdout ----\nthread 'limiter::tests::window' panicked at src/limiter.rs:88:9:\nassertion `left == right` failed\n  left: 429\n right: 200",
 "go_build": "# github.com/org/gw/limiter\n./limiter.go:41:2: undefined: window\n./limiter.go:57:15: cannot use n (variable of type int) as int64 value in argument to redis.Incr",
 "psql_d": "                 Table \"public.orders\"\n   Column   |           Type           | Nullable | Default\n------------+--------------------------+----------+---------\n id         | uuid                     | not null |\n status     | text                     | not null | 'new'\n created_at | timestamp with time zone | not null | now()\nIndexes:\n    \"orders_pkey\" PRIMARY KEY, btree (id)",
 "yarn": "yarn install v1.22.19\n[1/4] Resolving packages...\n[2/4] Fetching packages...\n[3/4] Linking dependencies...\nwarning \" > react-query@3.39.3\" has unmet peer dependency \"react-dom@^16.8.0 || ^17.0.0\".\n[4/4] Building fresh packages...\nDone in 14.21s.",
 "top": "top - 10:31:02 up 12 days,  3:02,  2 users,  load average: 3.12, 2.80, 2.41\nTasks: 212 total,   2 running, 210 sleeping,   0 stopped,   0 zombie\n%Cpu(s): 71.2 us,  6.1 sy,  0.0 ni, 21.9 id,  0.0 wa,  0.0 hi,  0.8 si,  0.0 st\nMiB Mem :  15842.1 total,    812.4 free,  12011.9 used,   3017.8 buff/cache",
 "gh_run": "✓ main Test · 7012345678\nTriggered via push about 3 minutes ago\n\nJOBS\n✓ lint in 41s (ID 19283746)\nX tests in 6m12s (ID 19283747)\n  ✓ Set up job\n  ✓ Run actions/checkout@v4\n  X Run pytest -q\n\nANNOTATIONS\nX Process completed with exit code 1.",
 "python_warning": "/app/.venv/lib/python3.12/site-packages/pydantic/_internal/_config.py:291: PydanticDeprecatedSince20: Support for class-based `config` is deprecated, use ConfigDict instead.\n  warnings.warn(DEPRECATION_MESSAGE, DeprecationWarning)",
 "yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: worker\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: worker\n          image: registry.example.com/worker:latest\n          resources:\n            limits:\n              memory: 512Mi",
 "sql_explain": "Nested Loop  (cost=0.85..16.90 rows=1 width=64)\n  ->  Index Scan using users_pkey on users u  (cost=0.42..8.44 rows=1 width=32)\n        Index Cond: (id = 42)\n  ->  Index Scan using orders_user_id_idx on orders o  (cost=0.43..8.45 rows=1 width=32)",
 "jest_fail": "FAIL src/components/Modal.test.tsx\n  ● Modal › returns focus to the opener\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: <button>Open</button>\n    Received: <body />\n\n      41 |     fireEvent.keyDown(document, { key: 'Escape' })\n    > 42 |     expect(document.activeElement).toBe(opener)\n         |                                    ^",
 "ssh": "The authenticity of host 'bastion.example.com (34.1.2.3)' can't be established.\nED25519 key fingerprint is SHA256:Xk3n2kq9Jm2lQ8s0pT5bYw4Hq1vF6cN7dR8eU0aZ1yE.\nThis key is not known by any other names.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?",
 "pip_conflict": "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\nfastapi 0.115.0 requires starlette<0.39.0,>=0.37.2, but you have starlette 0.41.2 which is incompatible.",
 "npm_err": "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR!\nnpm ERR! While resolving: web@0.1.0\nnpm ERR! Found: react@18.2.0\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1",
 "pytest_header": "============================= test session starts ==============================\nplatform linux -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0\nrootdir: /home/u/app\ncollected 42 items\n\ntests/test_api.py ....F.....                                             [ 23%]",
 "go_panic": "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6f3a2c]\n\ngoroutine 87 [running]:\nmain.(*Server).handle(0x0, 0xc000010000)\n\t/home/u/app/server.go:42 +0x1c\nexit status 2",
 "logfmt": 'time="2026-11-30T10:01:33Z" level=warning msg="retrying the request to the upstream payments service" attempt=3 backoff=2s\ntime="2026-11-30T10:01:35Z" level=error msg="giving up on the upstream payments service after three attempts" attempt=4',
 "celery_log": "[2026-11-30 10:31:12,004: INFO/MainProcess] Task app.tasks.send_welcome_email[81f2c3] received\n[2026-11-30 10:31:12,511: ERROR/ForkPoolWorker-3] Task app.tasks.send_welcome_email[81f2c3] raised unexpected: SMTPServerDisconnected('Connection unexpectedly closed')",
}
PROSE = [  # typed, with code words in it
 "why does `make deploy` pick the staging context even when I export KUBE_CONTEXT=prod?",
 "Please refactor the rate limiter so the window size comes from settings.",
 "The celery worker sends duplicate emails after a crash. Can you add an idempotency key?",
 "in src/auth/jwt.py the leeway is 0, should it be 30 seconds like we discussed",
 "Refresh tokens: do we rotate them on every use or only when they expire?",
 "Add a migration that creates an index on orders.created_at without locking the table.",
 "What's our policy for pinning the ruff version in pre-commit vs pyproject?",
 "the helm release for api v2.3.1 failed halfway — how do we make upgrades roll back automatically?",
 "Set up the HPA for the worker deployment; it should scale on CPU at 70%.",
 "how do I stop the 413 errors on uploads over 1 MB (nginx ingress)?",
 # One long line of prose naming three capitalised words, or quoting a JSON key: still a sentence.
 "the nightly export job sums the AUD, CAD and NZD payouts into one total but the finance dashboard shows a"
 " different number every morning, and I have no idea which of the two is right, can you check the code?",
 "our webhook handler reads the body like {\"event\": ..., \"data\": {...}} and then looks up the customer by"
 " the email in it, but for some events the email is missing and it crashes, what should it do instead?",
 # Code quoted between backticks may hold `||` or pipes: a table's bars are outside them.
 "I'm restyling the Modal with new padding and header options. Right now Modal takes `props: any` and does"
 " `props.padding || 16` all over the place. Before I add `compact` and `hideHeader`, how should the props be set up?",
 "I ran `ps aux | grep celery | wc -l` on the worker box and it says 9, should there be that many?",
 # Code spans quoted between backticks are one word each to the line's shape.
 "The docs are split by concern (`backpressure.rst`, `timeouts.rst`, `recipes.rst`, `servers.rst`), where"
 " should a page on retries go?",
 "the worker calls `settings.redis_url`, `settings.queue_name` and `get_conn()` at import, is that why the test hangs?",
# A list a person types is scored by its items' words, not the marker; quoted code (SQL, key=value,
# a timestamp) is one word of the sentence; a person saying "I" may name versions.
 "for the migration:\n- convert the pyproject deps\n- generate uv.lock\n- use python 3.12 in the image\n"
 "- update the ci workflow",
 "Can you explain what `SELECT DISTINCT ON (user_id) * FROM events ORDER BY user_id, created_at DESC` returns?",
 "set `logging.level.org.hibernate=WARN` and `logging.level.com.acme=INFO` in application-prod.yml",
 "the api sends `2024-03-01T10:00:00` with no offset, make it always include the UTC offset",
 "i need a regex that accepts 1.2.3 or 1.2.3-beta.1 but rejects v1.2.3",
 "commit a1b2c3d broke the login page on safari and the only thing it touched was the css for .login-form",
# A long sentence naming a commit id is still a sentence (a git log line is short).
 "I know commit 4f2a9c1 from two weeks ago was fine, so can you walk me through git bisect run with the"
 " export check script, including what to do when a commit in the middle does not build?",
# A sentence quoting two key=value pairs is still a sentence (a logfmt line is mostly pairs).
 "someone saved their profile name as <img src=x onerror=alert(1)> and the admin digest email ran it, how?",
 "my hmac check uses json.dumps(payload, sort_keys=True, separators=(',', ':')) on the parsed body and the"
 " digest still never equals the header the partner sends, what am I missing here?",
]


@pytest.mark.parametrize("name", sorted(set(PASTES) - {"ssh"}))
def test_a_paste_alone_leaves_no_words_that_could_recall(name):
    left = typed_part(PASTES[name])
    # At most a stray line of the tool's own prose, never enough to make a prompt of it.
    assert len(recall.prompt_terms(left)) <= 6, left
    assert sum(is_machine(line) for line in PASTES[name].splitlines()) >= 1


@pytest.mark.parametrize("name", sorted(PASTES))
@pytest.mark.parametrize("where", ["above", "below"])
def test_a_question_typed_around_a_paste_is_what_counts(name, where):
    question = "why does the rate limiter reject this request?"
    text = f"{question}\n\n{PASTES[name]}" if where == "above" else f"{PASTES[name]}\n\n{question}"
    left = typed_part(text)
    assert question in left
    assert set(recall.prompt_terms(question)) <= set(recall.prompt_terms(left))


@pytest.mark.parametrize("name", ["npm_err", "pytest_header", "go_panic"])
def test_a_tools_first_or_last_line_in_plain_words_is_not_typed(name):
    # "npm ERR!" on every line, pytest's "collected 42 items" under its header, Go's "panic: ...": pasted.
    assert recall.human_text(PASTES[name]) is None


def test_a_question_right_below_its_paste_in_the_same_paragraph_counts():
    text = PASTES["pytest_header"] + "\nany idea why test_api fails only in CI?"
    assert typed_part(text) == "any idea why test_api fails only in CI?"


@pytest.mark.parametrize("prompt", ["why does the test FAIL on CI?", "redis answers ERR wrong number of arguments, why?",
                                    "the job logs ERROR every minute, how do I silence it?",
                                    "fatal: not a git repository when I run the hook, why?"])
def test_a_question_quoting_a_log_level_or_an_error_label_is_typed(prompt):
    assert recall.human_text(prompt) == prompt


def test_a_tools_own_prose_question_reads_as_typed():
    # A known limit of judging by shape: ssh asks its question in plain words, as a person would.
    assert "Are you sure you want to continue connecting" in typed_part(PASTES["ssh"])


def test_a_question_in_the_same_paragraph_as_its_paste_still_counts():
    text = "my training job is stuck pending forever, see events:\n" + PASTES["kubectl_describe"]
    assert typed_part(text) == "my training job is stuck pending forever, see events:"


@pytest.mark.parametrize("prompt", PROSE)
def test_typed_prose_with_code_words_is_kept_whole(prompt):
    assert typed_part(prompt) == prompt


@pytest.mark.parametrize("line", [
    "PID USER PR NI VIRT RES SHR S %CPU %MEM TIME+ COMMAND",  # a header: most of its words in capitals
    '{"id": 42, "status": "new", "total_cents": 1299}',  # a JSON line
    '"status": "failed", "retries": 3,',  # a short line of one
    "| `GET` | `/api/orders` | 200 | 12 ms |",  # a table row of quoted cells keeps its bars
])
def test_headers_and_json_lines_stay_machine(line):
    assert is_machine(line)


@pytest.mark.parametrize("question", ["is there a way to run only the failing test", "can you find why test_api fails"])
def test_a_question_typed_without_its_mark_right_below_a_paste_counts(question):
    assert typed_part(PASTES["pytest_header"] + "\n" + question) == question


@pytest.mark.parametrize("lead", ["Here's the output from the worker:", "The deploy to staging fails with this."])
def test_a_line_that_points_at_the_paste_below_it_counts(lead):
    assert typed_part(lead + "\n\n" + PASTES["celery_log"]) == lead


@pytest.mark.parametrize("config", ["services:\n  web:\n    build: .\n    ports:\n      - \"8000:8000\"",
                                    "upstream backend {\n    server 127.0.0.1:8000 max_fails=3;\n    keepalive 32;\n}"])
def test_a_pasted_configs_opening_line_is_not_typed(config):
    assert recall.human_text(config) is None


def test_a_markdown_table_a_person_writes_is_typed_and_a_tools_table_is_not():
    table = "| env | replicas | memory |\n|---|---|---|\n| staging | 2 | 512Mi |\n| prod | 6 | 1Gi |"
    text = table + "\n\ncan you update the helm values to match this table?"
    assert typed_part(text) == text.replace("\n\n", "\n")
    psql = (" id | email          | plan\n----+----------------+------\n  1 | a@example.com  | pro\n"
            "  2 | b@example.com  | free\n(2 rows)")
    assert recall.human_text(psql) is None
    # A table and nothing a person wrote beside it: pasted from a document, it asks nothing by itself.
    assert recall.human_text(table) is None
    assert recall.human_text("| step | command |\n|---|---|\n| migrate | alembic upgrade head |") is None


def test_a_long_plain_opening_line_set_apart_above_a_paste_is_its_framing():
    opening = "The nightly worker keeps failing on the import step but manual runs are fine."
    assert typed_part(opening + "\n\n" + PASTES["go_panic"]) == opening
    plan = ("Terraform will perform the following actions:\n\n  # aws_s3_bucket.logs will be created\n"
            "  + resource \"aws_s3_bucket\" \"logs\" {\n      + bucket = \"acme-logs\"\n    }\n\n"
            "Plan: 1 to add, 0 to change, 0 to destroy.")
    assert recall.human_text(plan) is None  # a tool's own opening sentence is short


def test_a_tools_dot_leaders_and_keyed_list_lines_are_not_typed():
    # pre-commit's "name....Failed" and the "- hook id: x" lines under it; a typed list item says words.
    text = ("the large file check fails on a fixture, why?\n"
            "check for added large files..............................................Failed\n"
            "- hook id: check-added-large-files\n- exit code: 1")
    assert typed_part(text) == "the large file check fails on a fixture, why?"


def test_the_words_of_quoted_code_are_not_a_persons_voice():
    # rustc's last lines: "explain" inside the quoted command made its hint read as a person talking.
    text = ("why does the borrow checker reject this loop?\n\n"
            "error[E0502]: cannot borrow `self.items` as mutable because it is also borrowed as immutable\n"
            "  --> src/cart.rs:42:13\n   |\n41 |         for item in self.items.iter() {\n"
            "   |                     ----------------- immutable borrow occurs here\n\n"
            "For more information about this error, try `rustc --explain E0502`.\n"
            "error: could not compile `cart` (lib) due to 1 previous error\n")
    assert typed_part(text) == "why does the borrow checker reject this loop?"
    # A person's own line quoting code still speaks for itself.
    assert typed_part("I ran `cargo build --release` and it fails like this:\n\nerror: linker `cc` not found\n"
                      "  |\n  = note: No such file or directory (os error 2)\n") == \
        "I ran `cargo build --release` and it fails like this:"


def test_a_tools_prose_between_its_blocks_counts_with_the_paste():
    # npm's report: its warnings are machine lines, its summary plain prose; "Run `npm audit` for
    # details." read as a typed sentence while the prose made the prompt look mostly typed.
    text = ("npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported\n"
            "npm WARN deprecated rimraf@3.0.2: Rimraf versions prior to v4 are no longer supported\n"
            "npm WARN deprecated @humanwhocodes/config-array@0.11.14: Use @eslint/config-array instead\n\n"
            "added 812 packages, and audited 813 packages in 24s\n\n164 packages are looking for funding\n"
            "  run `npm fund` for details\n\n2 moderate severity vulnerabilities\n\n"
            "To address all issues, run:\n  npm audit fix\n\nRun `npm audit` for details.\n")
    assert typed_part(text) == ""
    # A person's plain lines beside one pasted line stay (they read as typed).
    assert typed_part("Deploy the worker first.\nThen the api.\nKeep the old pods until the queue drains.\n"
                      "2026-11-30T10:00:00Z level=error msg=drain-timeout\n") == \
        "Deploy the worker first.\nKeep the old pods until the queue drains."


def test_a_line_that_names_the_paste_below_it_is_its_framing():
    schema = ("class CreateProjectIn(BaseModel):\n    name: str\n    visibility: Literal[\"private\", \"team\"]\n\n"
              "    class Config:\n        extra = \"forbid\"\n")
    assert typed_part(f"Something's off since the pydantic upgrade. This schema:\n\n{schema}") == \
        "Something's off since the pydantic upgrade. This schema:"
    assert typed_part(f"here is the config:\n\n{schema}") == "here is the config:"


def test_a_tools_note_to_its_reader_is_not_typed():
    plan = ("Terraform will perform the following actions:\n\n"
            "  # aws_s3_bucket.assets will be updated in-place\n  ~ resource \"aws_s3_bucket\" \"assets\" {\n"
            "        id   = \"acme-platform-assets\"\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.\n\n")
    note = ("Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly "
            "these actions if you run \"terraform apply\" now.")
    assert typed_part(plan + note) == ""
    # As terraform prints it, wrapped: the second line goes on with the tool's sentence.
    wrapped = note.replace("can't guarantee", "can't\nguarantee")
    assert typed_part(plan + wrapped) == ""
    # A person's own lowercase line under an indented block is judged by itself.
    assert typed_part("error: resolution failed\n      hint: wheels exist for `torch` on `win_amd64`\n"
                      "uv lock fails with this. we need torch on mac intel too") == \
        "uv lock fails with this. we need torch on mac intel too"
    # A person's line below a paste says "I" (or asks), even when it speaks to the agent.
    assert typed_part(plan + "You told me this would not touch the bucket, I don't get it") == \
        "You told me this would not touch the bucket, I don't get it"


def test_a_one_line_question_is_typed_whatever_code_it_quotes():
    line = "New webhook_deliveries model: id = Column(UUID, primary_key=True, default=uuid.uuid4) is fine, right?"
    assert typed_part(line) == line
    assert typed_part("id = Column(UUID, primary_key=True, default=uuid.uuid4)") == ""  # no question: code


def test_a_fenced_block_is_pasted_whatever_it_holds():
    text = "can you explain this snippet?\n```\nthe rate limiter counts requests\nin a sliding window\n```"
    assert typed_part(text) == "can you explain this snippet?"


def test_a_prose_prompt_keeps_its_lines_beside_one_pasted_line():
    text = ("The celery worker sends duplicate emails after a crash.\n"
            "[2026-11-30 10:31:12,004: INFO/MainProcess] Task app.tasks.send_welcome_email[81f2c3] received\n"
            "Could the acks_late setting explain it")
    left = typed_part(text)
    assert "duplicate emails" in left and "acks_late setting" in left and "MainProcess" not in left


@pytest.mark.parametrize("text", ["continue", "go on", "yes", "ok do it", "Keep going!", "yes please, continue",
                                  "ok, continue with the next one", "looks good, continue with the next one",
                                  "ok, carry on with the next one", "ok looks good, keep going with the next one",
                                  "sounds good, proceed", "LGTM", "ok", "ok next one", "one more", "let's go on",
                                  # the usual next step after it (each spoke on a memory written blind, recall_memory8)
                                  "ok do that, then run the tests", "ok, do it and run the tests after",
                                  "looks good, commit it", "ok, rerun them afterwards",
                                  # the rest of the same work (one spoke on recall_memory11)
                                  "ok, do the rest of the files the same way", "ok do the same for the other two files",
                                  "looks good, ship it", "ok, do the second option", "ok, keep going with the rest",
                                  "ok do it, and run the specs when you're done"])
def test_continuations(text):
    assert is_continuation(text)
    assert recall.human_text(text) is None


@pytest.mark.parametrize("text", ["continue with the redis eviction fix", "go on: why does helm upgrade hang",
                                  "yes, add the index concurrently", "one more test for the retry logic",
                                  "run the tests for the billing module", "commit it with the migration squashed",
                                  "ok, do the same for the workers chart too", "do the rest of the webhook handlers"])
def test_a_continuation_that_says_what_is_not_one(text):
    assert not is_continuation(text)
    assert recall.human_text(text)


def test_huge_and_binary_pastes_are_quick_and_leave_nothing():
    import time
    junk = "".join(chr(c) for c in range(1, 0x2FF)) * 40
    log = "\n".join(f"2026-11-30T10:{i % 60:02d}:00Z level=info msg=\"tick {i}\" id={i:08x}" for i in range(600))
    # Long runs of one shape: a pattern that retries the rest of a run from each of its positions is
    # quadratic here ("a.a.a..." took a second before _KEY_VALUE matched one character before its "=").
    runs = [f"why?\n\n{unit * (19_990 // len(unit))}" for unit in ("a.", "a-", "a_", "a=", '"a', "A.", "a:", "a/", "a  ")]
    for text in (junk, log[:20_000], "🔥" * 5000, "/Users/me/proj/src/auth/refresh.py", *runs):
        start = time.perf_counter()
        human = recall.human_text(text)
        assert time.perf_counter() - start < 0.5
        assert not recall.prompt_terms(human or "") or human is None or len(recall.prompt_terms(human)) <= 2


def test_a_long_line_is_judged_by_its_opening_characters():
    from kg_actors.core.typed import SCORED_LINE_CHARS, machine_score
    line = "the import keeps failing on the second batch " * 500  # 22,500 characters of prose on one line
    assert machine_score(line) == machine_score(line[:SCORED_LINE_CHARS]) == 0
    logged = "ts=2026-11-30T10:00:00Z level=info msg=tick " * 500
    assert machine_score(logged) == machine_score(logged[:SCORED_LINE_CHARS]) >= 2


def test_a_prompt_of_thousands_of_lines_is_judged_by_its_ends():
    """Over SCORED_LINES lines, the middle is taken as pasted unread; a person's framing at either end still counts."""
    middle = "\n".join(f"row {i}: status=ok latency={i % 97}ms" for i in range(3_000))
    fenced = "\n".join(["```", "still pasted, a fence inside the middle", "```"])
    text = f"why do some rows take so long?\n\n{middle}\n{fenced}\n{middle[:2_000]}\n\nis it the cache, what do you think?"
    assert typed_part(text) == "why do some rows take so long?\nis it the cache, what do you think?"
    # A fence opened before the cut and closed in the middle, plain lines after it: still only the ends.
    lines = ["why do some rows take so long?", "", "```", *(f"row {i} ok" for i in range(800)), "```",
             *(f"plain words here number {i}" for i in range(800)), "", "is it the cache, what do you think?"]
    assert typed_part("\n".join(lines)) == "why do some rows take so long?\nis it the cache, what do you think?"


@pytest.mark.parametrize("prompt", [
    "Stripe webhook 一直报 SignatureVerificationError 错误，为什么？",
    "Stripe の webhook が SignatureVerificationError で失敗し続けるのはなぜ？",
])
def test_a_question_ending_in_a_full_width_mark_is_typed(prompt):
    """Chinese and Japanese typing ends a question with "？": it asks as "?" does, and is no paste."""
    text = recall.human_text(prompt)
    assert text is not None and {"stripe", "webhook"} <= set(recall.prompt_terms(text))


@pytest.mark.parametrize("prompt", [
    "kubectl で Pod が CrashLoopBackOff になる原因を調べて",
    "Redis の TTL を 30 秒に設定したのに key が消えない",
    "React の useEffect が二回呼ばれるので直してください",
    "PostgreSQL 데이터베이스를 마이그레이션할 때 Alembic 오류가 나요",
    "GitHub Actions 에서 Docker 빌드가 실패합니다",
    "Stripe webhook 一直报 SignatureVerificationError 错误",
])
def test_japanese_korean_and_chinese_prose_around_latin_names_is_typed(prompt):
    """Words in these scripts are no Latin "plain words", yet a sentence of them is a person's: the Latin
    names in it are what it is about, not a sign of pasted output."""
    assert typed_part(prompt) == prompt
    assert not is_continuation(prompt)
    assert recall.human_text(prompt) == prompt


@pytest.mark.parametrize("prompt", ["数据库迁移失败了怎么办", "マイグレーションの確認をお願いします", "데이터베이스를 백업해 주세요"])
def test_a_prompt_wholly_in_these_scripts_is_no_continuation(prompt):
    assert not is_continuation(prompt)
    assert recall.human_text(prompt) == prompt


def test_a_log_line_with_japanese_in_it_is_still_pasted():
    log = "\n".join(f"2026-12-0{i} 10:00:0{i} ERROR 接続に失敗しました host=db{i} port=5432" for i in range(1, 8))
    assert typed_part(log) == ""


def test_a_japanese_line_above_a_paste_is_its_framing():
    log = "\n".join(f"2026-12-0{i} 10:00:0{i} ERROR connection refused host=db{i} port=5432" for i in range(1, 8))
    prompt = f"デプロイのたびに Postgres への接続が失敗します\n\n{log}"
    assert typed_part(prompt) == "デプロイのたびに Postgres への接続が失敗します"


@pytest.mark.parametrize("prompt", [
    "MySQL存表情符号报错了",  # a Latin name glued to a Chinese sentence: one token, not a line of code
    "取引先のCSVを読み込むとUnicodeDecodeErrorが出て文字化けします",
    "UnicodeDecodeError on partner CSV",  # an error's name and an acronym among a few words
    "回滚流程是什么",  # seven characters: as much as a Latin line twice as long
    "백업 복구 방법",
])
def test_a_short_prompt_a_person_types_without_punctuation_is_a_prompt(prompt):
    assert typed_part(prompt) == prompt
    text = recall.human_text(prompt)
    assert text == prompt and recall.prompt_terms(text)


@pytest.mark.parametrize("text", ["继续", "回滚", "백업", "OK", "CSV"])
def test_a_word_or_two_in_these_scripts_or_an_acronym_alone_is_still_too_short(text):
    assert recall.human_text(text) is None


@pytest.mark.parametrize("log", [
    "2026-03-01 10:00:00 ERROR 处理订单失败 order_id=1234 原因: 库存不足\n2026-03-01 10:00:01 INFO 重试任务 task_id=abcd 第 1 次",
    "2026-03-01 10:00:00 [ERROR] 주문 처리 실패: 재고 부족 order_id=5678\n2026-03-01 10:00:02 [INFO] 재시도 1/3",
    "NAME        READY   STATUS    RESTARTS   AGE\napi-7d9f8   1/1     Running   0          3d\nworker-5c   0/1     OOMKilled 4          3d",
    "GET /api/v1/orders HTTP/1.1 200 OK\nPOST /api/v1/pay HTTP/1.1 502 BAD GATEWAY",
])
def test_logs_in_these_scripts_and_tool_lines_of_acronyms_are_still_pasted(log):
    assert typed_part(log) == ""
