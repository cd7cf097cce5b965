// The official TypeScript MCP SDK cancelling a kg_read(more) over Streamable HTTP, paced by the test on stdin.
// Usage: node ts_cancel.mjs URL SESSION_ID. Prints "sent" once the more is on its way, then on the line
// "abort" aborts it (the SDK sends notifications/cancelled) and prints "aborted"; on the line "more" asks
// for more again and prints its text as one JSON line. Run from the folder whose node_modules holds the SDK.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, sid] = process.argv.slice(2);
const client = new Client({ name: "kg-ts-cancel", version: "1.0.0" });
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async (want) => { const { value } = await lines.next(); if (value !== want) throw new Error(`got ${value}`); };

await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const abort = new AbortController();
const dropped = client.callTool({ name: "kg_read", arguments: { session_id: sid, more: true } }, undefined,
                                { signal: abort.signal, timeout: 60000 });
console.log("sent");
await next("abort");
abort.abort("user pressed Esc");
await dropped.then(() => { throw new Error("the cancelled call resolved"); }, () => {});
console.log("aborted");
await next("more");
const again = await client.callTool({ name: "kg_read", arguments: { session_id: sid, more: true } }, undefined,
                                    { timeout: 60000 });
await client.close();
console.log(JSON.stringify({ text: text(again) }));
process.exit(0);
