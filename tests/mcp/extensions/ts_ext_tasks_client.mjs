// The official Tasks extension's client (npm @modelcontextprotocol/ext-tasks, on the TypeScript SDK's
// v2 client, npm @modelcontextprotocol/client) runs our server's task tools in 2026-07-28.
//
//     node tests/mcp/extensions/ts_ext_tasks_client.mjs http://127.0.0.1:PORT/mcp
//
// The SDK client connects (mode "auto": server/discover); ext-tasks sends each request through
// `rawDispatch` (a POST with the 2026-07-28 headers) framed with `v2RequestFraming` (the per-request
// _meta, the tasks extension declared). It runs build_report to the end, then starts a second one and
// cancels it. Prints {"era", "text", "cancelled"} as JSON.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";

const url = process.argv[2];
const client = new Client({ name: "ext-tasks-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

const framing = {
  protocolVersion: "2026-07-28",
  clientInfo: { name: "ext-tasks-client", version: "1.0.0" },
  clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

const methods = [];
let nextId = 1;
async function rawDispatch(framed) {
  const request = { jsonrpc: "2.0", id: `ext-${nextId++}`, ...framed }; // the dispatcher owns the envelope
  const name = request.params?.name ?? request.params?.taskId ?? request.params?.uri;
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": request.method,
    ...(name ? { "Mcp-Name": name } : {}),
  };
  methods.push(request.method);
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(request) });
  const answer = await response.json();
  if (process.env.DEBUG_EXT) console.error(JSON.stringify(request), "=>", JSON.stringify(answer).slice(0, 400));
  return answer;
}

const session = createTaskSessionFromClient(client, { endpointId: "course", rawDispatch, v2RequestFraming: framing });
const execution = await session.callTool("build_report", { seconds: 0.3 });
const { outcome } = await execution.settle();
const result = resultFromTaskOutcome(outcome);

const second = await session.callTool("build_report", { seconds: 30 });
await second.cancel();
const cancelled = await second.settle().then((s) => s.outcome.status ?? s.outcome.kind, (e) => String(e));

console.log(JSON.stringify({ era: client.getProtocolEra(), methods, text: result.content[0].text, cancelled }));
await session.close();
await client.close();
