"""`kg mcp`: the stdio shim every MCP client launches.

Each JSON-RPC line on stdin is forwarded as one POST to the memory server and
its reply written to stdout as one line of UTF-8 (whatever the locale); stdout carries nothing but protocol
(diagnostics go to stderr). When the connection is refused the shim starts
the server and retries; a request that may have reached the server is never
sent twice. The handshake (initialize, tools/list) never waits on a server that cannot answer it at once:
the shim answers it itself (handshake.py) and starts the server meanwhile. A request of the protocol's stateless revision carries the headers an
HTTP client sends with it (routing.py). A batch is sent a message at a time and answered as one array. A
request the client cancels is cut off (its connection shut, so the server
counts its reply undelivered) and gets no reply; so are the calls still in
flight a few seconds after stdin closes. It imports only the standard library
so it starts fast.
"""

from __future__ import annotations

import http.client
import json
import os
import signal  # subprocess's import already
import socket  # http.client's import already
import subprocess
import sys
import threading
import time
import urllib.parse  # http.client's import already: no cost at start
from concurrent.futures import Future, ThreadPoolExecutor, wait

from . import handshake, liveness
from .foreign import other_said
from .lines import mended_id, replies_in, too_deep, utf8_line, wire_text
from .routing import routing_headers

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at each client's start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

    Emit = Callable[[dict[str, Any]], None]  # where a message's replies go: stdout, or its batch's array

VERSION = "0.1.0"
# How long a server that still answers its health check gets to answer (one that does not is given up within
# seconds: liveness.py). A client gives its start-up (initialize, tools/list) a bound of its own (Claude Code's
# is 30 s), and a tool call one too (the MCP SDK's is 60 s): the shim's reason must come first, not the client's
# bare timeout. A tool call answers in milliseconds, a first load of a large project in seconds.
HANDSHAKE_TIMEOUT = 8.0
REQUEST_TIMEOUT = 50.0
START_TIMEOUT = 15.0
STOPPING_WAIT = 10.0  # cli_server's: `kg start` first waits that long for a server still stopping
EOF_GRACE = 5.0  # once stdin closes, how long the calls in flight may still take
# The server's limit on a request body (kg_actors/http/app.py MAX_BODY): a larger one is refused here, by
# name; sent, the server closes the connection before reading it, which reads as "unreachable".
MAX_BODY = 8 * 1024 * 1024
# What a header value keeps as it is: printable ASCII but the escape itself.
_HEADER_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
# A maintenance run's mark (kg_actors/chores/runners.py RUN_ENV, RUN_PARAM): a runner that reaches kg through
# this shim (Antigravity's plugin) passes it on in the URL, so the server counts the run's kg calls as its own.
RUN_ENV = "KG_CHORE_RUN"
RUN_PARAM = "kg_run"


def request_path(environ: dict[str, str]) -> str:
    mark = environ.get(RUN_ENV, "")
    return "/?" + urllib.parse.urlencode({RUN_PARAM: mark}) if mark else "/"


class _Cancelled(Exception):
    """The client cancelled the request (`notifications/cancelled`): it gets no reply."""


class _Call:
    """A request in flight: its connection to the server, once open, and whether the client cancelled it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.conn: http.client.HTTPConnection | None = None
        self.cancelled = False

    def attach(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if self.cancelled:
                raise _Cancelled
            self.conn = conn

    def cancel(self) -> None:
        """The connection is shut (the blocked read in its thread ends): the server, finding its client
        gone, counts the reply as not delivered (reply_effects.client_gone: a kg_read part is offered again)."""
        with self._lock:
            self.cancelled = True
            sock = self.conn.sock if self.conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # already closed
                pass


class Shim:
    def __init__(self, host: str, port: int, out: BinaryIO | None = None, home: str | None = None) -> None:
        self.host, self.port = host, port
        self.home = home  # the store this agent's kg serves (KG_HOME, resolved): another store's server is refused
        # Bytes: MCP's stdio carries UTF-8 whatever the locale (text mode wrote the locale's charset, and a
        # reply it could not hold ended the shim). None: started without a stdout.
        self.out: BinaryIO | None = out or getattr(sys.stdout, "buffer", None)
        self._out_lock = threading.Lock()  # guards stdout only: one JSON line at a time
        self._start_lock = threading.Lock()
        self._other: str | None = None  # why the server on the port is not kg's, once its /health was read
        self._health_read = False
        self.client_name = ""
        self.path = request_path(dict(os.environ))
        self.protocol_version: str | None = None
        self._calls: dict[str, _Call] = {}  # by the JSON of their ids
        # Set while the server has not answered in time: the rest of a client's start-up burst (tools/list,
        # prompts/list...) is answered at once, not a second each; the first real reply clears it.
        self.unanswering = False
        self._silent_at = -1e9  # when other_server's health check last met silence (time.monotonic)
        self._calls_lock = threading.Lock()

    def write(self, message: dict[str, Any] | list[dict[str, Any]]) -> None:
        line = utf8_line(message)
        with self._out_lock:
            try:
                if self.out is None:
                    raise ValueError("no stdout")
                self.out.write(line)
                self.out.flush()
            except (OSError, ValueError):  # the reader left (the line itself always encodes), or no stdout at all
                # No client can read a reply any more: gone quietly, as a filter whose reader left (the calls in
                # flight are the server's to finish; nothing of the shim's is left to save).
                os._exit(128 + signal.SIGPIPE)

    def headers(self, routing: dict[str, str] | None = None) -> dict[str, str]:
        """The request's headers; `routing`: the stateless revision's for its message (routing.py)."""
        name = _header_value(self.client_name or "unknown")
        h = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "User-Agent": f"kg-shim/{VERSION} ({name})",
            "X-KG-Client": name,
        }
        if self.protocol_version:
            h["MCP-Protocol-Version"] = self.protocol_version
        h.update(routing or {})  # a revision's request names its own version
        if self.home:  # the server refuses a request for another store than its own (http/store_check.py)
            h["X-KG-Home"] = _header_value(self.home)
        return h

    def post(self, body: bytes, call: _Call | None = None, timeout: float = REQUEST_TIMEOUT,
             routing: dict[str, str] | None = None,
             give_up: Callable[[float], str | None] | None = None) -> tuple[int, str, bytes]:
        """The server's reply; `give_up` (liveness.await_reply's) may end the wait for it early (Unanswered)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        sent = False
        try:
            conn.connect()
            if call is not None:
                call.attach(conn)  # connected first: a cancel from now on can shut its socket
            sent = True  # from here on the server may hold the request
            conn.request("POST", self.path, body=body, headers=self.headers(routing))
            if give_up is not None and conn.sock is not None:
                liveness.await_reply(conn.sock, timeout, give_up)
            resp = conn.getresponse()
            return resp.status, resp.getheader("Content-Type") or "", resp.read()
        except (OSError, http.client.HTTPException) as exc:
            if call is not None and call.cancelled:  # the cancel shut it
                raise _Cancelled from None
            if sent and isinstance(exc, ConnectionError):  # reset or closed unanswered (RemoteDisconnected too)
                raise liveness.Unanswered(liveness.cut_off_said(self.host, self.port, exc)) from exc
            raise
        finally:
            conn.close()

    def abandon(self, why: str) -> None:
        """Every call still in flight is cut off, unanswered (the client is gone); `why` says so on stderr,
        its {} the number of calls."""
        with self._calls_lock:
            calls = list(self._calls.values())
        for call in calls:
            call.cancel()
        if calls:
            count = f"{len(calls)} call{'s' if len(calls) > 1 else ''}"
            print(f"kg mcp: {why.format(count)}", file=sys.stderr, flush=True)

    def cancel_from(self, line: str) -> None:
        """A client's `notifications/cancelled` for a request in flight: it is cut off here and now (in the
        reading thread: the workers may all be busy), and gets no reply; the line is still forwarded."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return
        params = message.get("params") if isinstance(message, dict) else None
        if isinstance(params, dict) and message.get("method") == "notifications/cancelled":
            with self._calls_lock:
                call = self._calls.get(_key(params.get("requestId")))
            if call is not None:
                call.cancel()

    def ensure_server(self) -> str | None:
        """Start the server if none answers; None when one does, else why it could not start."""
        with self._start_lock:
            if self.healthy():
                return None
            try:
                done = subprocess.run(
                    [sys.executable, "-P", "-m", "kg_actors", "start", "--port", str(self.port)], stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=STOPPING_WAIT + START_TIMEOUT + 5,
                    env={**{k: v for k, v in os.environ.items() if k != RUN_ENV}, "KG_HTTP_PORT": str(self.port)},
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                return f"`kg start` failed: {exc}"
            if self.healthy():
                return None
            return done.stderr.strip() or f"`kg start` exited {done.returncode} and nothing answers on port {self.port}"
    def other_server(self, timeout: float = 3.0) -> str | None:
        """Why the server on kg's port is not kg's (kg-memory 0.17 left running, answering MCP at / as ours
        does), from its /health, read once; None: it is kg's, or it cannot be told yet (nothing answers, or
        not in time: the request then says so itself). The agent must not be served from another memory."""
        if self._health_read and self._other is None:
            return None
        # Another program's verdict is read again each time: once it has gone and kg's server runs there,
        # the calls of this shim (started meanwhile, its handshake answered by itself) reach it.
        self._health_read, self._other = False, None
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            conn.request("GET", "/health")
            body = conn.getresponse().read()
            conn.close()
        except TimeoutError:
            self.unanswering = True  # hung, or too busy to answer its health check
            self._silent_at = time.monotonic()
            return None
        except (OSError, http.client.HTTPException):
            return None
        self._health_read = True
        try:
            health = json.loads(body)
        except (ValueError, RecursionError):
            return None  # no JSON: the request's own reply names that program
        self._other = other_said(health, f"{self.host}:{self.port}", self.home)
        return self._other

    def healthy(self) -> bool:
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=1.0)
            conn.request("GET", "/health")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except (OSError, http.client.HTTPException):  # HTTPException: another protocol on the port
            return False

    def handle(self, line: str) -> None:
        """One line from the client; a request always gets an answer, whatever goes wrong here."""
        try:
            message = json.loads(line)
        except ValueError as exc:  # worded as the server words a body that is not JSON (http/rpc_checks.py)
            self.write({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32700, "message": f"Parse error: the line is not JSON ({exc})"}})
            return
        except RecursionError:  # valid JSON, nested past what Python reads: answered by the id it has
            self.write(too_deep(line))
            return
        if isinstance(message, list):
            self._batch(message)
        else:
            self._one(message, line, self.write)

    def _batch(self, items: list[Any]) -> None:
        """A batch, which the server refuses whole with one id-less error: each message in it is sent on
        its own, and their replies go back as one array (JSON-RPC 2.0; none for only notifications)."""
        if not items:
            self.write(_invalid_request("an empty batch"))
            return
        replies: list[dict[str, Any]] = []
        for item in items:
            if isinstance(item, dict):
                self._one(item, wire_text(item), replies.append)  # sent as a line alone is
            else:
                replies.append(_invalid_request("a message must be a JSON object"))  # the server's words
        if replies:
            self.write(replies)

    def _one(self, message: Any, line: str, emit: Emit) -> None:
        msg_id = message.get("id") if isinstance(message, dict) else None
        call = _Call()
        key = _key(msg_id) if msg_id is not None and "method" in message else None
        if key is not None:
            with self._calls_lock:
                self._calls[key] = call

        def unless_cancelled(reply: dict[str, Any]) -> None:
            if not call.cancelled:  # a cancelled request gets no response (MCP: cancellation)
                emit(reply)
        try:
            self._handle(message, line, unless_cancelled, call)
        except Exception as exc:  # a bug here would leave the client waiting out its own timeout
            self.fail(msg_id, f"could not handle this request ({type(exc).__name__}: {exc})", unless_cancelled)
        finally:
            if key is not None:
                with self._calls_lock:
                    if self._calls.get(key) is call:
                        del self._calls[key]

    def _handle(self, message: Any, line: str, emit: Emit, call: _Call) -> None:
        msg_id = message.get("id") if isinstance(message, dict) else None
        # A message of no kind (`{"jsonrpc": "2.0", "id": 3}`, a bare string) is sent on as well: the server
        # names its fault (http/rpc_checks.py), in the same words on both transports.
        if isinstance(message, dict) and message.get("method") == "initialize":
            # Malformed params are the server's to refuse (it names the field); only a name is read here.
            params = message.get("params")
            info = params.get("clientInfo") if isinstance(params, dict) else None
            self.client_name = str(info.get("name") or "")[:64] if isinstance(info, dict) else ""
        body = line.encode("utf-8")
        if len(body) > MAX_BODY:
            self.fail(msg_id, f"the request is {len(body):,} bytes; the kg memory server takes at most {MAX_BODY:,} "
                              "(each field has its own limit, far below: see the tool's description)", emit)
            return
        method = message.get("method") if isinstance(message, dict) else None
        quick = method in handshake.METHODS
        timeout = REQUEST_TIMEOUT if method == "tools/call" else HANDSHAKE_TIMEOUT
        bound = handshake.QUICK if quick else liveness.HEALTH_WAIT  # on a health check

        def fail(why: str) -> None:
            own = handshake.own_reply(message) if quick else None
            if own is None:
                self.fail(msg_id, why, emit)
            else:  # the client's start goes on; its tool calls meet the server, or this reason
                print(f"kg mcp: {why} (answered {method} itself)", file=sys.stderr, flush=True)
                emit(own)
        if quick and self.unanswering and handshake.own_reply(message) is not None:
            fail(f"the kg memory server at {self.host}:{self.port} has not answered in time: it may be hung")
            return
        other = self.other_server(bound)
        if other is not None:
            fail(other)
            return
        if quick and self.unanswering:
            fail(f"the kg memory server at {self.host}:{self.port} did not answer its health check within "
                 f"{bound:g} s: it may be hung (`kg status` and `kg doctor` say more; `kg restart` restarts it)")
            return
        # Found hung before: a call is not sent unless the server answers its health check again (just now, or
        # within `bound`); else the reason at once, where it waited out its whole timeout each time.
        if self.unanswering and (time.monotonic() - self._silent_at < 1.0 or liveness.health_silent(
                self.host, self.port, bound)):
            fail(liveness.hung_said(self.host, self.port, sent=False))
            return
        routing = routing_headers(message)
        give_up = self._give_up(message, quick)
        try:
            try:
                status, ctype, payload = self.post(body, call, timeout, routing, give_up)
            except ConnectionRefusedError as exc:
                if quick and handshake.own_reply(message) is not None:
                    # The start takes seconds (or fails): the tool calls wait for it, the handshake does not.
                    if not self._start_lock.locked():
                        threading.Thread(target=self.ensure_server, daemon=True).start()
                    fail(f"no kg memory server answers at {self.host}:{self.port} yet ({exc}); starting it")
                    return
                # Refused means the request never arrived: safe to start the server and send it again.
                why = self.ensure_server()
                if why is not None:
                    fail(f"kg memory server unreachable at {self.host}:{self.port} ({exc}), and starting it failed: {why}")
                    return
                status, ctype, payload = self.post(body, call, timeout, routing, give_up)
        except _Cancelled:
            return
        except liveness.Unanswered as exc:
            fail(exc.reason)
            return
        except TimeoutError:
            fail(f"the kg memory server at {self.host}:{self.port} did not answer within {timeout:g} s, though it "
                 "answers its health check (busy, or stuck on this request: `kg status` and `kg doctor` say more, "
                 "`kg restart` restarts it); this request may still be applied: kg_read shows whether a write landed")
            return
        except OSError as exc:
            fail(f"kg memory server unreachable at {self.host}:{self.port}: {exc}")
            return
        except http.client.HTTPException as exc:  # no HTTP status line (another protocol), or a reply cut short
            fail(f"the program on {self.host}:{self.port} gave no whole HTTP reply "
                 f"({type(exc).__name__}: {str(exc)[:200]!r}); is another program using that port? "
                 "Set KG_HTTP_PORT to move kg, or see `kg doctor`")
            return
        self.unanswering = False  # it answered
        replies = replies_in(ctype, payload)
        if replies is None:
            # Something that is not our server answered on the port (or ours failed badly): say so,
            # never leave the client waiting out its own timeout.
            snippet = payload[:200].decode("utf-8", "replace").strip()
            fail(f"the server on {self.host}:{self.port} answered HTTP {status} with no JSON-RPC "
                 f"reply ({snippet!r}); is another program using that port? "
                 "Set KG_HTTP_PORT to move kg, or see `kg doctor`")
            return
        for reply in replies:
            if reply.get("id") != msg_id and reply.get("id") == mended_id(msg_id):
                reply["id"] = msg_id  # the server reads half a character as U+FFFD: the client's own id goes back
            if isinstance(reply.get("result"), dict):
                pv = reply["result"].get("protocolVersion")
                if pv and isinstance(message, dict) and message.get("method") == "initialize":
                    self.protocol_version = pv
            emit(reply)
        # A client's own response to the server (id, result) wants no answer; a request does. The server's
        # id-less Invalid Request (an id it does not take, 1.5) is this request's answer: not a second one.
        asked = isinstance(message, dict) and "method" in message
        answered = any(r.get("id") == msg_id or (r.get("id") is None and "error" in r) for r in replies)
        if asked and msg_id is not None and not answered:
            self.fail(msg_id, f"the server answered HTTP {status} without a reply to this request", emit)

    def _give_up(self, message: Any, quick: bool) -> Callable[[float], str | None]:
        """When to stop waiting for `message`'s reply: a handshake request the shim can answer itself after
        handshake.QUICK s (one it cannot waits on, as any request, while the server answers its health check);
        any request once the server's health check meets silence."""
        def silenced() -> str:
            self.unanswering = True
            return liveness.hung_said(self.host, self.port, sent=True)
        watch = liveness.health_watch(self.host, self.port, silenced)

        def give_up(waited: float) -> str | None:
            if quick and waited >= handshake.QUICK and handshake.own_reply(message) is not None:
                self.unanswering = True
                return (f"the kg memory server at {self.host}:{self.port} did not answer within {handshake.QUICK:g} s: "
                        "it may be hung (`kg status` and `kg doctor` say more; `kg restart` restarts it)")
            return watch(waited)
        return give_up

    def fail(self, msg_id: object, message: str, emit: Emit | None = None) -> None:
        """A request that cannot be answered gets a JSON-RPC error (notifications get none); the cause
        goes to stderr too, where clients keep a server's log."""
        print(f"kg mcp: {message}", file=sys.stderr, flush=True)
        if msg_id is not None:
            (emit or self.write)({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32603, "message": message}})


def _key(msg_id: object) -> str:
    return json.dumps(msg_id, sort_keys=True)


def _invalid_request(why: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": f"Invalid Request: {why}"}}


def _header_value(text: str) -> str:
    """`text` percent-encoded past printable ASCII: http.client sends headers as Latin-1 and refuses a line
    break, so a client named "エディタ" had every request refused. A known client's ASCII name, which the
    server reads for its limits (harness/profiles.py), stays as it was."""
    return urllib.parse.quote(text, safe=_HEADER_SAFE, errors="replace")


def main(host: str, port: int, home: str | None = None) -> int:
    """Serve the client against the server at host:port, which `kg mcp` checked by config's rules, for the
    store `home` (resolved)."""
    shim = Shim(host, port, home=home)
    pool = ThreadPoolExecutor(max_workers=8)
    try:
        pending, lock = _serve(shim, pool)
        with lock:  # the workers' callbacks take finished calls out of it meanwhile
            in_flight = list(pending)
        # The client closed stdin: the calls in flight get a few seconds more, not the request timeout's 60.
        wait(in_flight, timeout=EOF_GRACE)
        code, why = 0, f"stdin closed; dropped {{}} still unanswered after {EOF_GRACE:.0f} s"
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's code for it
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # a second one ends the shim at once
        code, why = 130, "interrupted; dropped {} in flight"
    shim.abandon(why)
    pool.shutdown(cancel_futures=True)
    return code


def refuse(why: str) -> int:
    """A setting `kg mcp` refused: said once on stderr, and as the error of every request until stdin closes
    (a client shows a request's error; a shim that only exited left it saying "connection closed")."""
    print(f"kg mcp: {why}", file=sys.stderr, flush=True)
    error = {"code": -32603, "message": f"kg mcp: {why}"}
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            message = None
        except RecursionError:  # answered as the serving shim answers it (handle), and the next line read
            sys.stdout.write(json.dumps(too_deep(raw.decode("utf-8", "replace"))) + "\n")
            sys.stdout.flush()
            continue
        for one in message if isinstance(message, list) else [message]:
            if isinstance(one, dict) and "method" in one and one.get("id") is not None:
                sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": one["id"], "error": error}) + "\n")
                sys.stdout.flush()
    return 2


def _serve(shim: Shim, pool: ThreadPoolExecutor) -> tuple[set[Future[None]], threading.Lock]:
    """Each line from stdin to a worker, until stdin closes; the calls still in flight then, and the lock
    that guards that set."""
    pending: set[Future[None]] = set()
    lock = threading.Lock()

    def done(future: Future[None]) -> None:
        with lock:
            pending.discard(future)

    # Bytes, decoded per line: a line that is not UTF-8 gets a parse error, and the next line is read
    # (text mode raised at it under a strict locale, and ended the shim).
    for raw in sys.stdin.buffer:
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            shim.write({"jsonrpc": "2.0", "id": None,
                        "error": {"code": -32700, "message": "Parse error: the line is not UTF-8"}})
            continue
        if "notifications/cancelled" in line:
            shim.cancel_from(line)
        if line:
            future = pool.submit(shim.handle, line)
            with lock:
                pending.add(future)
            future.add_done_callback(done)
    return pending, lock
