"""How MCP messages travel: stdio (`stdio`), a `Server` in this process (`in_process`) and
Streamable HTTP (`http`). Each carries the same JSON-RPC messages to the same `Session`."""
