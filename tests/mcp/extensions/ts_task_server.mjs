// A task tool served by the official TypeScript SDK (npm @modelcontextprotocol/sdk, experimental tasks).
//
//     node tests/mcp/extensions/ts_task_server.mjs
//
// Serves stdio, 2025-11-25. `wait(ms)` is registered with `registerToolTask` (taskSupport
// required): it answers with a task at once and stores "waited MS ms" as the result after MS
// milliseconds. tests/mcp/extensions/test_tasks_interop.py drives it with our client.

import * as z from "zod/v4";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";

const server = new McpServer(
  { name: "ts-task-server", version: "1.0.0" },
  {
    capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore: new InMemoryTaskStore(),
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  },
);

server.experimental.tasks.registerToolTask(
  "wait",
  {
    description: "Wait for ms milliseconds, as a task.",
    inputSchema: { ms: z.number() },
    execution: { taskSupport: "required" },
  },
  {
    async createTask({ ms }, { taskStore, taskRequestedTtl }) {
      const task = await taskStore.createTask({ ttl: taskRequestedTtl, pollInterval: 100 });
      setTimeout(async () => {
        try {
          await taskStore.storeTaskResult(task.taskId, "completed", {
            content: [{ type: "text", text: `waited ${ms} ms` }],
          });
        } catch {
          // cancelled meanwhile: a cancelled task keeps its status
        }
      }, ms);
      return { task };
    },
    async getTask(_args, { taskId, taskStore }) {
      return await taskStore.getTask(taskId);
    },
    async getTaskResult(_args, { taskId, taskStore }) {
      return await taskStore.getTaskResult(taskId);
    },
  },
);

await server.connect(new StdioServerTransport());
