"""The Responses API's hosted MCP tool: the model's side connects to an MCP server itself.

    tools=[{"type": "mcp", "server_label": "notes", "server_url": "http://127.0.0.1:PORT/mcp",
            "require_approval": "never"}]

For each `mcp` tool the offline model connects to `server_url` with the course's own client, which
lesson 17 hands it (`use_mcp_client`, called by `wirelab.formats.enable_hosted_mcp()`: the offline model
comes before MCP), lists the tools (an `mcp_list_tools` item, once per conversation) and offers them to
the pipeline beside the function tools. A call of one of them is run on the server at once (an
`mcp_call` item with its `output` or `error`) when `require_approval` allows it ("never", or {"never":
{"tool_names": […]}}); otherwise the response ends with an `mcp_approval_request` item, and the call
runs only when a later request answers it with `{"type": "mcp_approval_response", "approval_request_id",
"approve": true}` (a refusal reaches the model as an error). A server that cannot be reached gives an
`mcp_list_tools` item with an `error`, and the model answers without it. Only servers on this machine
are reached (127.0.0.1, localhost, ::1); streamed, the items come with their `response.mcp_list_tools.*`
and `response.mcp_call*` events (`responses_events.events`). Left out: `headers` and `authorization`
sent on, connectors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from wirelab.offline_model.request import invalid, json_object
from wirelab.offline_model.wire.edge import Origins, Thought, think
from wirelab.offline_model.wire.wire_format import answered_call, item_id

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
MAX_ROUNDS = 5  # model turns within one response, each after MCP results


@dataclass(frozen=True)
class McpServer:
    """One `mcp` tool of a request."""

    label: str
    url: str
    approval: Any
    allowed: tuple[str, ...] | None

    def needs_approval(self, name: str) -> bool:
        if isinstance(self.approval, dict):
            return name not in ((self.approval.get("never") or {}).get("tool_names") or [])
        return self.approval != "never"


def servers(body: dict[str, Any]) -> list[McpServer]:
    """The request's `mcp` tools, checked."""
    found = []
    for k, tool in enumerate(body.get("tools") or []):
        if not isinstance(tool, dict) or tool.get("type") != "mcp":
            continue
        label, url, where = tool.get("server_label"), tool.get("server_url"), f"tools[{k}]"
        if not isinstance(label, str) or not label:
            raise invalid(f"{where}.server_label", f"Missing required parameter: '{where}.server_label'.")
        if _host(url, f"{where}.server_url") not in LOCAL_HOSTS:
            only = "the offline model reaches only MCP servers on this machine (http://127.0.0.1:PORT/…)."
            raise invalid(f"{where}.server_url", f"Invalid '{where}.server_url': {only}")
        if not _connector:
            run = "server with: run wirelab.formats.enable_hosted_mcp() first (lesson 17)."
            raise invalid(where, f"The offline model has no MCP client to reach an `mcp` tool's {run}")
        allowed = _tool_names(tool.get("allowed_tools"), f"{where}.allowed_tools")
        approval = _approval(tool.get("require_approval", "always"), f"{where}.require_approval")
        found.append(McpServer(label, url, approval, allowed or None))
    return found


def _tool_names(names: Any, where: str) -> tuple[str, ...]:
    """The tool names a filter lists, ["a", "b"] or {"tool_names": ["a", "b"]}; a 400 for another shape."""
    names = names.get("tool_names") if isinstance(names, dict) else names
    if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        expected = 'a list of tool names or {"tool_names": [...]}'
        raise invalid(where, f"Invalid '{where}': expected {expected}.")
    return tuple(names or ())


def _approval(approval: Any, where: str) -> Any:
    """`require_approval`, checked: "always", "never", or {"always" | "never": {"tool_names": [...]}}."""
    if approval in (None, "always", "never"):
        return approval
    filters = [approval.get(key, {}) for key in ("always", "never")] if isinstance(approval, dict) else [None]
    if not all(isinstance(given, dict) for given in filters):
        expected = "'always', 'never' or {\"never\": {\"tool_names\": [...]}}"
        raise invalid(where, f"Invalid '{where}': expected {expected}.")
    for key, given in zip(("always", "never"), filters, strict=True):
        _tool_names(given, f"{where}.{key}")
    return approval


def _host(url: Any, where: str) -> str | None:
    """The host a `server_url` names ('127.0.0.1' for 'http://127.0.0.1:8000/mcp'), None for no string;
    a 400 for a string `urlsplit` cannot read (a bracket left open, a port that is no number)."""
    if not isinstance(url, str):
        return None
    try:
        host, _port = urlsplit(url).hostname, urlsplit(url).port  # reading the port checks it
    except ValueError as error:
        raise invalid(where, f"Invalid '{where}': {url!r} is not a URL ({error}).") from None
    return host


class McpConnector(Protocol):
    """How the offline model reaches an MCP server: lesson 17 hands it the course's own client
    (`wirelab.formats.hosted.CourseClient`), since the offline model comes before MCP."""

    def list_tools(self, url: str) -> list[dict[str, Any]]: ...

    def call_tool(self, url: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...


_connector: list[McpConnector] = []


def use_mcp_client(connector: McpConnector) -> None:
    """Reach hosted `mcp` tools' servers through `connector` from now on (in this process)."""
    _connector[:] = [connector]


def list_tools(server: McpServer) -> tuple[list[dict[str, Any]], str | None]:
    """(the server's tools, or an error text when it cannot be reached)."""
    try:
        tools = _connector[0].list_tools(server.url)
    except Exception as error:  # any failure to connect or list is reported as an item, not a crash
        why = f"{type(error).__name__}: {error}"
        return [], f"Error retrieving tool list from MCP server: '{server.label}'. {why}"
    return [t for t in tools if server.allowed is None or t["name"] in server.allowed], None


def call_tool(server: McpServer, name: str, arguments: dict[str, Any]) -> tuple[str | None, str | None]:
    """(output text, error text) of one call on the server."""
    try:
        result = _connector[0].call_tool(server.url, name, arguments)
    except Exception as error:
        return None, f"{type(error).__name__}: {error}"
    text = "\n".join(part.get("text", "") for part in result.get("content", []) if part.get("type") == "text")
    return (None, text) if result.get("isError") else (text, None)


@dataclass
class Turn:
    """What one response builds: its output items so far and the conversation the model reads."""

    chat: dict[str, Any]
    digest: str
    listed: set[str]
    items: list[dict[str, Any]] = field(default_factory=list)
    approvals: dict[str, dict[str, Any]] = field(default_factory=dict)
    made: int = 0

    def add(self, prefix: str, kind: str, server: McpServer, **fields: Any) -> dict[str, Any]:
        """A new output item, numbered in this turn."""
        self.made += 1
        item = {"id": item_id(prefix, self.digest, self.made), "type": kind, "server_label": server.label}
        self.items.append({**item, **fields})
        return self.items[-1]

    def run_call(self, server: McpServer, name: str, arguments: str, approval: str | None) -> None:
        """Run one call on its server: an `mcp_call` item, and the call and result for the model."""
        output, error = call_tool(server, name, json_object(arguments) or {})
        status = "failed" if error else "completed"
        made = {"name": name, "arguments": arguments, "output": output, "error": error, "status": status}
        self.add("mcp_", "mcp_call", server, **made, approval_request_id=approval)
        self.answer(name, arguments, output if error is None else json.dumps({"error": error}))

    def answer(self, name: str, arguments: str, content: str) -> None:
        """The call and its result (or refusal), added to the conversation the model reads."""
        self.made += 1
        call_id = item_id("call_mcp_", self.digest, self.made)
        self.chat["messages"] += answered_call(call_id, name, arguments, content)


def _listed_label(item: dict[str, Any], k: int) -> str | None:
    """The `server_label` of an `mcp_list_tools` item passed back in `input[k]`; a 400 for one no string."""
    label = item.get("server_label")
    if label is not None and not isinstance(label, str):
        where = f"input[{k}].server_label"
        raise invalid(where, f"Invalid type for '{where}': expected a string.", "invalid_type")
    return label


def run(
    body: dict[str, Any], chat: dict[str, Any], origins: Origins, digest: str, state: dict[str, Any]
) -> tuple[Thought, Turn]:
    """Answer a request with `mcp` tools: list, run or ask approval, and let the model go on.

    `state` is the stored conversation's MCP state (`approvals` asked, servers `listed`).
    Returns the last thought and the turn (its MCP items, the approval requests it leaves open)."""
    given = body.get("input")
    items = [item for item in given if isinstance(item, dict)] if isinstance(given, list) else []
    listed = {_listed_label(item, k) for k, item in enumerate(items) if item.get("type") == "mcp_list_tools"}
    listed |= set(state.get("listed", []))
    turn = Turn({**chat, "messages": list(chat["messages"])}, digest, listed)
    by_tool = _offer(turn, servers(body))
    _answer_approvals(turn, items, state.get("approvals", {}), by_tool)
    for _ in range(MAX_ROUNDS):
        thought = think(turn.chat, origins)
        mcp_calls = [call for call in thought.reply.calls if call.name in by_tool]
        asked = [call for call in mcp_calls if by_tool[call.name].needs_approval(call.name)]
        for call in mcp_calls:
            if call not in asked:
                turn.run_call(by_tool[call.name], call.name, call.arguments, None)
        for call in asked:
            request = turn.add(
                "mcpr_", "mcp_approval_request", by_tool[call.name], name=call.name, arguments=call.arguments
            )
            turn.approvals[request["id"]] = request
        if not mcp_calls or asked:
            return thought, turn
    return think(turn.chat, origins), turn


def _offer(turn: Turn, found: list[McpServer]) -> dict[str, McpServer]:
    """List each server's tools, offer them to the model as functions; the tool -> server map."""
    by_tool: dict[str, McpServer] = {}
    offered = [tool["function"]["name"] for tool in turn.chat.get("tools", [])]
    for server in found:
        tools, error = list_tools(server)
        if server.label not in turn.listed or error:
            turn.add("mcpl_", "mcp_list_tools", server, tools=[_listed(t) for t in tools], error=error)
        if not error:
            turn.listed.add(server.label)
        for tool in tools:
            if tool["name"] not in offered and tool["name"] not in by_tool:
                by_tool[tool["name"]] = server
                function = {"name": tool["name"], "description": tool.get("description", "")}
                function["parameters"] = tool.get("inputSchema") or {"type": "object", "properties": {}}
                turn.chat.setdefault("tools", []).append({"type": "function", "function": function})
    if by_tool and "tool_choice" not in turn.chat:
        turn.chat["tool_choice"] = "auto"
    return by_tool


def _listed(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool as an `mcp_list_tools` item shows it."""
    shown = {"name": tool["name"], "description": tool.get("description")}
    return {**shown, "input_schema": tool.get("inputSchema"), "annotations": tool.get("annotations")}


def _answer_approvals(
    turn: Turn, items: list[dict[str, Any]], known: dict[str, dict[str, Any]], by_tool: dict[str, McpServer]
) -> None:
    """Run each approved call (an `mcp_call` item); a refusal reaches the model as an error."""
    needed = ("id", "name", "arguments")
    given = [i for i in items if i.get("type") == "mcp_approval_request"]
    asked = {**known, **{i["id"]: i for i in given if all(isinstance(i.get(k), str) for k in needed)}}
    for k, item in enumerate(items):
        if item.get("type") != "mcp_approval_response":
            continue
        request = asked.get(str(item.get("approval_request_id")))
        if request is None:
            message = f"No approval request found with id '{item.get('approval_request_id')}'."
            raise invalid(f"input[{k}].approval_request_id", message)
        server = by_tool.get(request["name"])
        if item.get("approve") is True and server is not None:
            turn.run_call(server, request["name"], request["arguments"], request["id"])
        else:
            reason = item.get("reason") if isinstance(item.get("reason"), str) else None
            error = json.dumps({"error": reason or "the user did not approve this call"})
            turn.answer(request["name"], request["arguments"], error)
