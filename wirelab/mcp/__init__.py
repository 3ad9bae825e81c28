"""MCP from scratch: a server, a client and the stdio transport, with no SDK inside.

- `wirelab.mcp.server`: register tools, resources and prompts on a `Server`;
  each connection is a `Session` whose `handle(message)` answers one message.
- `wirelab.mcp.stdio`: newline-delimited JSON on stdin/stdout, for both sides.
- `wirelab.mcp.client`: the client session (handshake, requests by id,
  timeouts, notifications, a server that dies).
- `wirelab.mcp.host`: MCP tools in the tool-call loop of lesson 02, with approval.
- `wirelab.mcp.example`: the lessons' notes server, `python -m wirelab.mcp.example`.

This package serves the 2025-11-25 revision (initialize handshake) and the
revisions before it back to 2024-11-05. Streamable HTTP and the stateless
2026-07-28 revision live elsewhere. Importing it starts nothing.
"""
