"""Fuzz every MCP tool and every hook endpoint of a real `kg serve` with Hypothesis.

Whatever the arguments, the server answers: never a 5xx, never a traceback or
an "Internal error" in a reply, always one JSON-RPC message for a tool call;
input it rejects changes nothing in the graphs on disk; and it keeps serving.
KG_FUZZ_CASES sets how many cases each test draws (CI's run sets the issue's
figure; a developer's run keeps the default).
"""

from __future__ import annotations

import json
import os
import string

import pytest
from e2e_helpers import start_server, store_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rpc_helpers import Conn, rpc

from kg_actors.http.schemas import SCHEMAS

CASES = int(os.environ.get("KG_FUZZ_CASES") or 400)
FUZZ = settings(max_examples=CASES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
HOOKS = ["/api/session_bootstrap", "/api/prompt_context", "/api/tool_event", "/api/pre_tool"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory.mktemp("fuzz"))
    server.conn = Conn(server.port)
    server.cwd = server.project("fuzz-proj")
    status, body = server.conn.post("/", rpc("kg_read", {"cwd": server.cwd}))
    text = json.loads(body)["result"]["content"][0]["text"]
    server.sid = text.rsplit("Session: ", 1)[1].split()[0]
    yield server
    server.kill()


# Text that reaches deep: ids and paths that may be valid, and what breaks naive parsers.
words = st.sampled_from(["redis", "retry-backoff-policy", "src/app.py", ".env", "_x", "../../etc/passwd", "~/x",
                         "user:shared-rule", "a" * 300, "", " ", "-", "x--y", "ÄÖÜ-ß", "null", "NaN", "\u202e",
                         "<private>p</private>", "ghp_" + "x" * 36])
# A reply may quote its input (a validation error names the value): input never holds the words a crash would show.
# Hypothesis also draws string constants it finds in the code, this file's "Internal error" among them.
CRASH_WORDS = ("Traceback", "Internal error")
text = st.one_of(words, st.text(max_size=40), st.text(alphabet=string.printable, max_size=400),
                 st.binary(max_size=64).map(lambda b: b.decode("latin-1"))).filter(
    lambda s: not any(w in s for w in CRASH_WORDS))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
                           max_leaves=12)


def _value(schema: dict, sid: str):
    kind = schema.get("type")
    good = {
        "string": text,
        "boolean": st.booleans(),
        "integer": st.integers(-5, 50),
        "array": st.lists(text, max_size=6),
        "object": st.dictionaries(text, json_values, max_size=4),
    }.get(kind, json_values)
    if "enum" in schema:
        good = st.sampled_from(schema["enum"])
    if schema is SCHEMAS["kg_put_node"]["properties"]["session_id"]:
        good = st.one_of(st.just(sid), st.just(sid), text)
    return st.one_of(good, good, good, json_values)  # mostly the right type, sometimes anything


def arguments(tool: str, sid: str):
    props = SCHEMAS[tool]["properties"]
    fields = {name: _value(schema, sid) for name, schema in props.items()}
    optional = st.fixed_dictionaries({}, optional=fields)
    return st.one_of(optional, optional, optional, json_values,
                     st.dictionaries(st.sampled_from([*props, "bogus"]), json_values, max_size=5))


def hook_bodies(cwd: str):
    """A hook's body: a payload of the hook's fields (often valid), bytes, or any JSON."""
    payload = st.fixed_dictionaries({}, optional={
        "session_id": st.one_of(st.just("fuzz-claude-1"), text), "cwd": st.one_of(st.just(cwd), text),
        "hook_event_name": st.sampled_from(["SessionStart", "UserPromptSubmit", "PostToolUse", "PreToolUse", "x"]),
        "prompt": text, "source": st.sampled_from(["startup", "resume", "clear", "compact", "?"]),
        "tool_name": st.sampled_from(["Read", "Bash", "Edit", "shell", "WebFetch", "view_file", ""]),
        "tool_input": st.one_of(st.dictionaries(st.sampled_from(["file_path", "command", "url", "path"]), text),
                                json_values),
        "tool_response": json_values, "transcript_path": text,
    })
    return st.one_of(payload.map(lambda p: json.dumps(p).encode()), st.binary(max_size=200),
                     json_values.map(lambda v: json.dumps(v).encode()))


def _answered(status: int, body: bytes) -> dict:
    assert status < 500, body[:500]
    reply = json.loads(body)
    assert reply.get("jsonrpc") == "2.0" and ("result" in reply) != ("error" in reply), reply
    blob = json.dumps(reply)
    assert not any(w in blob for w in CRASH_WORDS), blob[:2000]
    return reply


@pytest.mark.parametrize("tool", sorted(SCHEMAS))
def test_every_tool_answers_whatever_its_arguments(srv, tool):
    @FUZZ
    @given(args=arguments(tool, srv.sid))
    def case(args):
        if isinstance(args, dict) and "session_id" in args and tool in ("kg_delete_node", "kg_rename_node"):
            args["session_id"] = srv.sid + "x"  # keep the fuzz from deleting its own ground
        _answered(*srv.conn.post("/", rpc(tool, args)))

    case()
    assert srv.health() is not None, "the server stopped answering"


def test_rejected_input_changes_nothing_on_disk(srv):
    graphs = lambda: {k: v for k, v in store_files(srv.store).items()  # noqa: E731
                      if k.endswith((".json", ".journal")) and not k.startswith(("sessions", "tool_events"))
                      and "tool_events" not in k}
    before = graphs()

    @FUZZ
    @given(tool=st.sampled_from(["kg_put_node", "kg_put_edge", "kg_progress", "kg_rename_node", "kg_delete_node"]),
           junk=st.dictionaries(st.sampled_from(["session_id", "level", "id", "gist", "notes", "from", "to",
                                                 "rel", "task_id", "state", "old_id", "new_id"]), json_values,
                                max_size=6))
    def case(tool, junk):
        args = {**junk, "level": 42}  # never a valid level: every one of these writes is refused
        reply = _answered(*srv.conn.post("/", rpc(tool, args)))
        assert "error" in reply or reply["result"].get("isError"), reply

    case()
    assert graphs() == before


@pytest.mark.parametrize("path", HOOKS)
def test_every_hook_endpoint_answers_quietly_whatever_the_payload(srv, path):
    @FUZZ
    @given(body=hook_bodies(srv.cwd))
    def case(body):
        status, reply = srv.conn.post(path, body)
        assert status < 500, reply[:500]
        if reply.strip():
            out = json.loads(reply)
            assert "Traceback" not in json.dumps(out)

    case()
    assert srv.health() is not None
