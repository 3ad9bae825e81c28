"""Solution to the MCP stdio server drill (see starter.py for the rules)."""

import json
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


def initialize(params: dict) -> dict:
    return {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "drill-adder", "version": "1.0.0"},
    }


def list_tools(params: dict) -> dict:
    return {"tools": [ADD_TOOL]}


def call_tool(params: dict) -> dict:
    if params.get("name") != "add":
        raise LookupError(f"unknown tool {params.get('name')!r}")
    args = params.get("arguments") or {}
    a, b = args.get("a"), args.get("b")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
        return text_result("add needs two integers, a and b", is_error=True)
    return text_result(str(a + b))


def text_result(text: str, is_error: bool = False) -> dict:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


METHODS = {
    "initialize": initialize,
    "ping": lambda params: {},
    "tools/list": list_tools,
    "tools/call": call_tool,
}


def error(message_id, code: int, text: str) -> dict:
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": text}}


def handle(message: dict) -> dict | None:
    """The response to one message, or None for a notification."""
    if "id" not in message:
        return None
    method = METHODS.get(message.get("method"))
    if method is None:
        return error(message["id"], -32601, f"method not found: {message.get('method')}")
    try:
        result = method(message.get("params") or {})
    except LookupError as exc:
        return error(message["id"], -32602, str(exc))
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def serve(stdin=sys.stdin, stdout=sys.stdout) -> None:
    """Read lines until stdin closes; answer each request."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            reply = error(None, -32700, "parse error")
        else:
            reply = handle(message) if isinstance(message, dict) else error(None, -32600, "invalid request")
        if reply is not None:
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
        print(f"handled {line.strip()[:60]}", file=sys.stderr)


if __name__ == "__main__":
    serve()
