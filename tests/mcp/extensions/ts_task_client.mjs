// The official TypeScript SDK's client (npm @modelcontextprotocol/sdk, experimental tasks) runs
// our server's task tools.
//
//     node tests/mcp/extensions/ts_task_client.mjs PYTHON
//
// Starts `PYTHON -m wirelab.mcp.extensions.task_example --step 0.05 --poll-interval-ms 100` over stdio,
// calls build_report as a task with callToolStream (which polls tasks/get and ends with
// tasks/result), then starts a second task and cancels it with tasks/cancel. Prints one JSON
// object: {"execution": ..., "kinds": [message types in order], "text": ..., "cancelled": ...}.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const python = process.argv[2];
const transport = new StdioClientTransport({
  command: python,
  args: ["-m", "wirelab.mcp.extensions.task_example", "--step", "0.05", "--poll-interval-ms", "100"],
  stderr: "ignore",
});
const client = new Client({ name: "ts-task-client", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const execution = tools.find((tool) => tool.name === "build_report").execution;

const kinds = [];
let text = null;
const stream = client.experimental.tasks.callToolStream(
  { name: "build_report", arguments: { seconds: 0.3 } },
  CallToolResultSchema,
  { task: { ttl: 60000 } },
);
for await (const message of stream) {
  if (kinds[kinds.length - 1] !== message.type) kinds.push(message.type);
  if (message.type === "result") text = message.result.content[0].text;
  if (message.type === "error") text = String(message.error);
}

const created = await client.request(
  { method: "tools/call", params: { name: "build_report", arguments: { seconds: 30 }, task: { ttl: 60000 } } },
  (await import("@modelcontextprotocol/sdk/types.js")).CreateTaskResultSchema,
);
const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);

console.log(JSON.stringify({ execution, kinds, text, cancelled: cancelled.status }));
await client.close();
