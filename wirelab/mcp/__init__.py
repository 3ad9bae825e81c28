"""MCP from scratch: a server, a client and the stdio transport, with no SDK inside.

- `wirelab.mcp.protocol`: what both sides share: versions, constants, cursors,
  argument checks.
- `wirelab.mcp.server`: register tools, resources and prompts on a `Server`
  (`wirelab.mcp.primitives` holds one dataclass per primitive); its
  capabilities follow from what is registered.
- `wirelab.mcp.session`: each connection is a `Session` whose `handle(message)`
  answers one message; `wirelab.mcp.server_to_client` holds its requests to the
  client (sampling, roots, elicitation), `wirelab.mcp.results` the results.
- `wirelab.mcp.stdio`: newline-delimited JSON on stdin/stdout, for both sides.
- `wirelab.mcp.client`: the client session (handshake, requests by id,
  timeouts, notifications, a server that dies); `wirelab.mcp.client_features`
  holds what it offers the server (sampling, roots, elicitation).
- `wirelab.mcp.in_process`: a client transport to a `Server` in this process.
- `wirelab.mcp.host`: MCP tools in the tool-call loop of lesson 02, with approval.
- `wirelab.mcp.tool_names`: MCP tool names as valid, namespaced Chat Completions names, and back.
- `wirelab.mcp.example`: the lessons' notes server, `python -m wirelab.mcp.example`.
- `wirelab.mcp.http`: Streamable HTTP on starlette/uvicorn, one `/mcp` endpoint
  serving the 2025-11-25 era (sessions) and the 2026-07-28 era side by side;
  `wirelab.mcp.http_checks` holds what each request passes first,
  `wirelab.mcp.http_running` serves an app on a thread (`wirelab.serving`'s one
  threaded server, with the MCP endpoint's URL).
- `wirelab.mcp.stateless`: the 2026-07-28 revision: `server/discover`, per-request
  `_meta`, header checks, `resultType`.
- `wirelab.mcp.http_client`: our client over Streamable HTTP, in either era.
- `wirelab.mcp.auth`: authorization (OAuth 2.1) for HTTP: the client's flow, a local
  authorization server, the HTTP server as a protected resource.
- `wirelab.mcp.conformance_server`: the fixtures the official conformance suite expects.
- `wirelab.mcp.tasks` and `wirelab.mcp.task_client`: long calls as tasks (2025-11-25 core and the
  2026-07-28 extension), both sides; `wirelab.mcp.task_example`: lesson 18's task server.
- `wirelab.mcp.apps` and `wirelab.mcp.app_host`: MCP Apps, the server's views and the host that
  renders and bridges them (`wirelab.widgets.app_view` in a notebook); `wirelab.mcp.app_example`.

The handshake era covers 2024-11-05 to 2025-11-25; of it the server implements, and offers,
2025-06-18 and 2025-11-25. Importing the package starts nothing.
"""
