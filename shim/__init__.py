"""`kg mcp`: the stdio shim every MCP client launches.

Each JSON-RPC line on stdin is forwarded as one POST to the memory server and
its reply written to stdout as one line; stdout carries nothing but protocol
(diagnostics go to stderr). When the connection is refused the shim starts
the server and retries; a request that may have reached the server is never
sent twice. It imports only the standard library so it starts fast.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

VERSION = "0.1.0"
REQUEST_TIMEOUT = 120.0
START_TIMEOUT = 15.0


class Shim:
    def __init__(self, host: str, port: int, out=None):
        self.host, self.port = host, port
        self.out = out or sys.stdout
        self._out_lock = threading.Lock()  # guards stdout only: one JSON line at a time
        self._start_lock = threading.Lock()
        self.client_name = ""
        self.protocol_version: str | None = None

    def write(self, message: dict) -> None:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        with self._out_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def headers(self) -> dict:
        h = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "User-Agent": f"kg-shim/{VERSION} ({self.client_name or 'unknown'})",
            "X-KG-Client": self.client_name or "unknown",
        }
        if self.protocol_version:
            h["MCP-Protocol-Version"] = self.protocol_version
        return h

    def post(self, body: bytes) -> tuple[int, str, bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request("POST", "/", body=body, headers=self.headers())
            resp = conn.getresponse()
            return resp.status, resp.getheader("Content-Type") or "", resp.read()
        finally:
            conn.close()

    def ensure_server(self) -> bool:
        with self._start_lock:
            if self.healthy():
                return True
            subprocess.Popen(
                [sys.executable, "-m", "kg_actors", "start"], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=dict(os.environ, KG_HTTP_PORT=str(self.port)),
            ).wait(timeout=START_TIMEOUT + 5)
            return self.healthy()

    def healthy(self) -> bool:
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=1.0)
            conn.request("GET", "/health")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except OSError:
            return False

    def handle(self, line: str) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            self.write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            return
        msg_id = message.get("id") if isinstance(message, dict) else None
        if isinstance(message, dict) and message.get("method") == "initialize":
            info = (message.get("params") or {}).get("clientInfo") or {}
            self.client_name = str(info.get("name") or "")[:64]
        body = line.encode("utf-8")
        try:
            try:
                status, ctype, payload = self.post(body)
            except ConnectionRefusedError:
                # Refused means the request never arrived: safe to start the server and send it again.
                if not self.ensure_server():
                    raise
                status, ctype, payload = self.post(body)
        except OSError as exc:
            if msg_id is not None:
                self.write({"jsonrpc": "2.0", "id": msg_id,
                            "error": {"code": -32603, "message": f"kg memory server unreachable: {exc}"}})
            return
        for reply in _replies(ctype, payload):
            if isinstance(reply, dict) and isinstance(reply.get("result"), dict):
                pv = reply["result"].get("protocolVersion")
                if pv and message.get("method") == "initialize":
                    self.protocol_version = pv
            self.write(reply)
        if status >= 400 and not payload and msg_id is not None:
            self.write({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32603, "message": f"HTTP {status}"}})


def _replies(ctype: str, payload: bytes) -> list:
    if not payload.strip():
        return []
    if "text/event-stream" in ctype:
        out = []
        for chunk in payload.decode("utf-8").split("\n"):
            if chunk.startswith("data:"):
                try:
                    out.append(json.loads(chunk[5:].strip()))
                except ValueError:
                    pass
        return out
    try:
        data = json.loads(payload)
    except ValueError:
        return []
    return data if isinstance(data, list) else [data]


def main() -> int:
    host = os.environ.get("KG_HTTP_HOST") or "127.0.0.1"
    try:
        port = int(os.environ.get("KG_HTTP_PORT") or 8765)
    except ValueError:
        print("kg mcp: KG_HTTP_PORT is not a number", file=sys.stderr)
        return 2
    shim = Shim(host, port)
    with ThreadPoolExecutor(max_workers=8) as pool:
        for line in sys.stdin:
            if line.strip():
                pool.submit(shim.handle, line.strip())
    return 0


