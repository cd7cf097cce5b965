// The official TypeScript MCP SDK against kg: list the tools, open a session with kg_read(cwd),
// write a node and read it back. Usage: node ts_client.mjs http URL CWD | stdio KG_BIN CWD.
// Prints one JSON line of what it saw; exits non-zero on any failure. Run from the folder whose
// node_modules holds the SDK (the test copies it there).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, target, cwd, nodeId] = process.argv.slice(2);
const transport = mode === "http"
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: ["mcp"], env: process.env, stderr: "inherit" });
const client = new Client({ name: "kg-ts-check", version: "1.0.0" });
const opts = { timeout: 20000 };
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

await client.connect(transport, opts);
const tools = (await client.listTools(undefined, opts)).tools.map((t) => t.name).sort();
const first = await client.callTool({ name: "kg_read", arguments: { cwd } }, undefined, opts);
const sid = text(first).split("Session: ").pop().split(/\s/)[0];
const put = await client.callTool({ name: "kg_put_node", arguments: {
  session_id: sid, level: "project", id: nodeId,
  gist: "The TypeScript SDK wrote this node through kg", notes: ["written by the TS SDK check"],
} }, undefined, opts);
const back = await client.callTool({ name: "kg_read", arguments: { session_id: sid, id: nodeId } }, undefined, opts);
await client.close();
console.log(JSON.stringify({ tools, session: sid, put_error: !!put.isError, put: text(put),
                             read_error: !!back.isError, read: text(back) }));
