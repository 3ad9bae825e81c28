"""Drill: a minimal MCP server over stdio, revision 2025-11-25 (30 minutes).

Make this file a server: read JSON-RPC messages, one per line, from stdin; write each response
as one line of JSON to stdout and flush; log only to stderr. The check starts it with
`python starter.py` and talks to it.

What the checks send and expect:
- `initialize` -> result {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
  "serverInfo": {"name": ..., "version": ...}}. Answer "2025-11-25" whatever the client asks
  for (it is the only version this server speaks).
- `notifications/initialized` and any other message without an "id": no answer, ever.
- `ping` -> result {}.
- `tools/list` -> result {"tools": [ADD_TOOL]}.
- `tools/call` {"name": "add", "arguments": {"a": 2, "b": 3}} -> result
  {"content": [{"type": "text", "text": "5"}], "isError": False}.
  Arguments that are not two integers -> a result with "isError": True and a text saying why.
  An unknown tool name -> JSON-RPC error -32602.
- An unknown method -> error -32601. A line that is not JSON -> error -32700 with "id": None,
  and keep serving.
- The ids come back exactly as sent (0 and strings included). Exit when stdin closes.

Check it: python -m wirelab.interview check stdio_server
"""

import sys

ADD_TOOL = {
    "name": "add",
    "description": "Add two integers and return the sum.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
}


def handle(message: dict) -> dict | None:
    """The response to one message, or None for a notification."""
    raise NotImplementedError("answer initialize, ping, tools/list and tools/call")


def serve(stdin=sys.stdin, stdout=sys.stdout) -> None:
    """Read lines until stdin closes; answer each request."""
    raise NotImplementedError("read lines, call handle, write responses")


if __name__ == "__main__":
    serve()
