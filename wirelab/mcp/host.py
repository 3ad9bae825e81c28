"""A host: MCP tools in the tool-call loop of lesson 02, behind the user's approval.

The host is the application that holds the conversation. It starts an MCP
client, turns the server's tools into OpenAI `tools` entries, and routes the
model's tool calls to `tools/call`, asking `approve(call)` first:

    with McpHost.stdio([sys.executable, "-m", "wirelab.mcp.example"],
                       approve=lambda call: call["function"]["name"] != "add_note") as host:
        result = run_tool_loop(llm, messages, host.tools, model=model_name(), execute=host.execute)

The loop is synchronous and the client is asynchronous, so the host runs the
client on an event loop of its own, in a background thread; this also works
inside Jupyter, whose own loop is already running.

A host may also lend the server its model: with `approve_sampling`, each
`sampling/createMessage` is shown to `approve_sampling(params)` first, then
sent to the course's model (`wirelab.llm.client()`, `model_name()`) as a chat
completion, and the completion goes back as a `CreateMessageResult`:

    host = McpHost.stdio(command, approve_sampling=lambda params: True)

Tool names reach the model through `ToolNames` (`wirelab.mcp.tool_names`):
an MCP name may hold `.` and run to 128 characters, a Chat Completions name may
not, so the host sanitizes each one and maps the model's calls back to the
server's own names. With `namespace="notes"` every name gets a `notes__`
prefix, which is how a host with several servers keeps their `search` tools
apart.

Not covered: several servers in one `McpHost` (give each host a namespace and
join their registries), sampling with tools or images, and letting the user
edit a sampled reply.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

import openai

from wirelab import llm as course_llm
from wirelab.errors import ToolError
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError
from wirelab.loop import Message, execute_tool_call
from wirelab.mcp.client import Client, InProcessTransport
from wirelab.mcp.client_features import Declined
from wirelab.mcp.server import Server
from wirelab.mcp.tool_names import ToolNames
from wirelab.mcp.transports.stdio import StdioClientTransport
from wirelab.tools import Tool, ToolRegistry

Approve = Callable[[Message], bool]
ApproveSampling = Callable[[dict[str, Any]], bool]
T = TypeVar("T")
STOP_REASONS = {"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse"}


def openai_tool_spec(mcp_tool: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """One MCP tool (from `tools/list`) as an entry of a Chat Completions `tools` list.

    `name` is the name the model sees (see `ToolNames`); by default the MCP name.
    """
    return {
        "type": "function",
        "function": {
            "name": name or mcp_tool["name"],
            "description": mcp_tool.get("description", ""),
            "parameters": mcp_tool.get("inputSchema") or {"type": "object", "properties": {}},
        },
    }


def openai_tools(tools_list_result: dict[str, Any]) -> list[dict[str, Any]]:
    """A whole `tools/list` result as the `tools` of a Chat Completions request."""
    return [openai_tool_spec(t) for t in tools_list_result.get("tools", [])]


def result_text(result: dict[str, Any]) -> str:
    """A `CallToolResult` as the content of a `role: tool` message.

    Structured content is sent as its JSON; otherwise the text blocks, joined.
    A result with `isError: true` becomes a structured tool error, so the
    model sees that the call failed and why.
    """
    if result.get("isError"):
        texts = [b.get("text", "") for b in result.get("content", []) if b.get("type") == "text"]
        return ToolError("tool_error", "\n".join(texts) or "the tool failed").content()
    if "structuredContent" in result:
        return json.dumps(result["structuredContent"], ensure_ascii=False)
    return "\n".join(
        b["text"] if b.get("type") == "text" else json.dumps(b, ensure_ascii=False)
        for b in result.get("content", [])
    )


def chat_messages(params: dict[str, Any]) -> list[dict[str, str]]:
    """A `sampling/createMessage` request's messages as Chat Completions messages.

    >>> chat_messages({"systemPrompt": "Be brief.", "messages": [
    ...     {"role": "user", "content": {"type": "text", "text": "Hi"}}]})
    [{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'Hi'}]

    Text only: other content (image, audio, tool use) is refused with -32602.
    """
    system = [{"role": "system", "content": params["systemPrompt"]}] if params.get("systemPrompt") else []
    return system + [{"role": m["role"], "content": _sampled_text(m["content"])} for m in params["messages"]]


def _sampled_text(content: dict[str, Any] | list[dict[str, Any]]) -> str:
    blocks = content if isinstance(content, list) else [content]
    if any(not isinstance(b, dict) or b.get("type") != "text" for b in blocks):
        raise JsonRpcError(INVALID_PARAMS, "Invalid params: this host samples text content only")
    return "\n".join(b["text"] for b in blocks)


def sampling_result(completion: Any) -> dict[str, Any]:
    """A chat completion as a `CreateMessageResult`: role, content, model, stopReason."""
    choice = completion.choices[0]
    return {
        "role": "assistant",
        "content": {"type": "text", "text": choice.message.content or ""},
        "model": completion.model,
        "stopReason": STOP_REASONS.get(choice.finish_reason, choice.finish_reason),
    }


class McpHost:
    """One MCP client, driven from synchronous code, and its tools as a `ToolRegistry`."""

    def __init__(
        self,
        client: Client,
        approve: Approve = lambda call: True,
        timeout: float = 60.0,
        namespace: str | None = None,
    ) -> None:
        self.client, self.approve, self.timeout, self.namespace = client, approve, timeout, namespace
        self.names = ToolNames({})
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="mcp-host")
        self.tools = ToolRegistry()
        self.approve_sampling: ApproveSampling | None = None
        self.llm: openai.OpenAI | None = None

    @classmethod
    def stdio(
        cls,
        command: Sequence[str],
        approve: Approve = lambda call: True,
        timeout: float = 60.0,
        *,
        approve_sampling: ApproveSampling | None = None,
        llm: openai.OpenAI | None = None,
        namespace: str | None = None,
        **client_options: Any,
    ) -> McpHost:
        """A host of the server that `command` starts (call `start()` or use `with`).

        `client_options` go to `Client` (e.g. `roots=[...]`, `on_elicitation=...`).
        """
        client = Client(StdioClientTransport(command), timeout=timeout, **client_options)
        return cls(client, approve, timeout, namespace)._lending(approve_sampling, llm)

    @classmethod
    def in_process(
        cls,
        server: Server,
        approve: Approve = lambda call: True,
        timeout: float = 60.0,
        *,
        approve_sampling: ApproveSampling | None = None,
        llm: openai.OpenAI | None = None,
        namespace: str | None = None,
        **client_options: Any,
    ) -> McpHost:
        """A host of `server` in this process (no subprocess); otherwise like `stdio`."""
        client = Client(InProcessTransport(server), timeout=timeout, **client_options)
        return cls(client, approve, timeout, namespace)._lending(approve_sampling, llm)

    def _lending(self, approve_sampling: ApproveSampling | None, llm: openai.OpenAI | None) -> McpHost:
        if approve_sampling is not None:
            self.offer_sampling(approve_sampling, llm)
        return self

    def offer_sampling(self, approve_sampling: ApproveSampling, llm: openai.OpenAI | None = None) -> None:
        """Answer the server's sampling requests with `llm`, each after `approve_sampling(params)`.

        Call it before `start()`: the client declares `sampling` in `initialize`.
        """
        if self._thread.is_alive():
            raise RuntimeError("offer sampling before start(): it is declared in initialize")
        self.approve_sampling, self.llm = approve_sampling, llm or course_llm.client()
        self.client.on_sampling = self.sample

    async def sample(self, params: dict[str, Any]) -> dict[str, Any]:
        """One `sampling/createMessage`: ask the user, then the model (in a thread: it blocks)."""
        if self.approve_sampling is None or self.llm is None:
            raise RuntimeError("this host lends no model: call offer_sampling first")
        messages = chat_messages(params)  # refuses content it cannot send before asking the user
        if not self.approve_sampling(params):
            raise Declined("User rejected sampling request")
        options = {"temperature": params["temperature"]} if "temperature" in params else {}
        completion = await asyncio.to_thread(
            self.llm.chat.completions.create,
            model=course_llm.model_name(),
            messages=messages,
            max_tokens=params["maxTokens"],
            **options,
        )
        return sampling_result(completion)

    def __enter__(self) -> McpHost:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Connect, then fetch the server's tools into `self.tools`."""
        self._thread.start()
        try:
            self.run(self.client.start())
        except BaseException:  # the client has closed itself; stop the loop too
            self._stop_loop()
            raise
        self.refresh_tools()

    def refresh_tools(self) -> None:
        """Fetch `tools/list` again (after `notifications/tools/list_changed`, say)."""
        listed = self.run(self.client.list_tools())
        self.names = ToolNames({self.namespace: [t["name"] for t in listed]})
        self.tools = ToolRegistry(self._forwarder(t) for t in listed)

    def _forwarder(self, mcp_tool: dict[str, Any]) -> Tool:
        spec = openai_tool_spec(mcp_tool, self.names.chat_name(self.namespace, mcp_tool["name"]))["function"]

        def forward(**arguments: Any) -> str:
            return self.call(mcp_tool["name"], arguments)

        return Tool(spec["name"], spec["description"], spec["parameters"], forward)

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        """Call an MCP tool and return its result as `role: tool` content."""
        return result_text(self.run(self.client.call_tool(name, arguments)))

    def execute(self, calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        """The loop's executor: each call runs only if `approve(call)` says yes."""
        return [
            execute_tool_call(call, tools)
            if self.approve(call)
            else ToolError(
                "denied",
                f"the user did not approve {call['function']['name']}",
                suggestion="Answer without this tool, or ask the user.",
            ).content()
            for call in calls
        ]

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run a client coroutine on the host's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(self.timeout)

    def close(self) -> None:
        """Disconnect from the server and stop the host's loop."""
        if self._thread.is_alive():
            self.run(self.client.close())
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
