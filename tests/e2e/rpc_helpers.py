"""Raw JSON-RPC over one kept-alive HTTP connection: the cheapest real client of the MCP endpoint
(stateless JSON transport), for tests that need many calls or many callers (fuzz, faults, soak)."""

from __future__ import annotations

import http.client
import json

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


class Conn:
    """One kept-alive connection (a new one after the server closes it)."""

    def __init__(self, port: int, timeout: float = 30):
        self.port = port
        self.timeout = timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        for attempt in (0, 1):
            try:
                self.conn.request("POST", path, body=body, headers=HEADERS)
                resp = self.conn.getresponse()
                return resp.status, resp.read()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def tool(self, tool: str, **arguments) -> tuple[str, bool]:
        """Call a tool once (no retry: a write must not be sent twice): (text, is_error)."""
        self.conn.request("POST", "/", body=rpc(tool, arguments), headers=HEADERS)
        resp = self.conn.getresponse()
        reply = json.loads(resp.read())
        result = reply["result"]
        return "\n".join(c.get("text", "") for c in result["content"]), bool(result.get("isError"))

    def close(self) -> None:
        self.conn.close()


def rpc(tool: str, arguments) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}).encode()


def session_id(text: str) -> str:
    return text.rsplit("Session: ", 1)[1].split()[0]
