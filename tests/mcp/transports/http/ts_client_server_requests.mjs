// The official TypeScript SDK's client (npm @modelcontextprotocol/sdk) answers a server's requests.
//
//     node tests/mcp/transports/http/ts_client_server_requests.mjs http://127.0.0.1:PORT/mcp
//
// Connects over Streamable HTTP, declares the sampling, elicitation and roots capabilities with
// handlers that give fixed answers, calls the tools of tests/servers.py's asking_server() (greet
// elicits, summarize samples, roots lists roots) and prints one JSON object on stdout:
// {"protocolVersion": ..., "texts": [one text per tool], "asked": [[method, detail], ...]}.
// tests/mcp/transports/http/test_http_server_requests_ts_sdk.py runs it.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const url = process.argv[2];
if (!url) {
  console.error("usage: node ts_client_server_requests.mjs URL");
  process.exit(2);
}

const asked = [];
const client = new Client(
  { name: "ts-sdk-server-requests", version: "1.0.0" },
  { capabilities: { sampling: {}, elicitation: {}, roots: {} } },
);

client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(["elicitation/create", request.params.message]);
  return { action: "accept", content: { name: "Ada" } };
});

client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
  asked.push(["sampling/createMessage", request.params.messages[0].content.text]);
  return { role: "assistant", content: { type: "text", text: "a short summary" }, model: "test" };
});

client.setRequestHandler(ListRootsRequestSchema, async () => {
  asked.push(["roots/list", null]);
  return { roots: [{ uri: "file:///work/notes", name: "notes" }] };
});

const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
const texts = [];
for (const name of ["greet", "summarize", "roots"]) {
  const result = await client.callTool({ name, arguments: {} });
  texts.push(result.isError ? `error: ${result.content[0].text}` : result.content[0].text);
}
const protocolVersion = transport.protocolVersion;
await transport.terminateSession();
await client.close();
console.log(JSON.stringify({ protocolVersion, texts, asked }));
