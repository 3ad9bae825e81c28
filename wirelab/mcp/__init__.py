"""MCP from scratch: a server, a client and their transports, with no SDK inside.

The protocol is the package's root; how messages travel, authorization and the extensions
each have a folder:

    wirelab/mcp/
      protocol.py          what both sides share: versions, constants, cursors, argument checks
      server.py            a `Server`: register tools, resources and prompts (one dataclass per
      primitives.py          primitive); its capabilities follow from what is registered
      session.py           one connection (2025-11-25): `handle(message)` answers one message;
      server_to_client.py    its requests to the client (sampling, roots, elicitation)
      results.py             and the results it sends
      stateless.py         one request (2026-07-28): `server/discover`, per-request `_meta`
      client.py            the client (handshake, requests by id, timeouts, a server that dies)
      client_features.py     what it offers the server (sampling, roots, elicitation)
      input_required.py      its side of an `InputRequiredResult` (2026-07-28)
      host.py              MCP tools in the tool-call loop of lesson 02, with approval
      tool_names.py          MCP tool names as valid, namespaced Chat Completions names
      example.py           the lessons' notes server, `python -m wirelab.mcp.example`
      conformance_server.py  the fixtures the official conformance suite expects
      transports/          how the messages travel
        stdio.py             newline-delimited JSON on stdin/stdout, both sides
        in_process.py        a client transport to a `Server` in this process
        http/                Streamable HTTP, both eras
          server.py            one `/mcp` endpoint on starlette (sessions and stateless)
          checks.py            what each request passes first
          running.py           an app served on a thread, with the endpoint's URL
          client.py            our client over HTTP (`connect_http`)
          param_headers.py     `x-mcp-header` tool parameters as `Mcp-Param-*` headers
      auth/                authorization (OAuth 2.1) for HTTP: the client's flow, a local
                             authorization server, the HTTP server as a protected resource
      extensions/          lesson 18: Tasks (`tasks`, `task_client`, `task_example`) and
                             MCP Apps (`apps`, `app_host`, `app_example`)

The server side (`server`, `session`, `stateless` and what they use) imports no transport; a
transport carries its messages; a client, and a server you run (`example`), chooses one. The
HTTP client builds on `Client`.

The handshake era covers 2024-11-05 to 2025-11-25; of it the server implements, and offers,
2025-06-18 and 2025-11-25. Importing the package starts nothing.
"""
