"""How MCP messages travel: stdio (`stdio`), a `Server` in this process (`in_process`) and
Streamable HTTP (`http`). Each carries the same JSON-RPC messages between a client and the
same server code (a `Session`, or in 2026-07-28 a `StatelessServer`)."""
