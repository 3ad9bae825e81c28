"""Anthropic's Messages API: calls are `tool_use` blocks, results `tool_result` blocks.

    reply.content   # [tool_use(id='toolu_…', name='get_weather', input={'city': 'Paris'}), …]
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_…",
                                  "content": "…", "is_error": true}, …]}

`input` is already an object (no JSON string to parse). Every result of one
reply goes into *one* user message, results first; an error is flagged with
`is_error`. `max_tokens` is required. Streaming sends a call's input as
`input_json_delta` pieces; the SDK's stream helper joins them.
"""

from __future__ import annotations

from typing import Any

from wirelab.formats.common import ToolCall, ToolResult, specs
from wirelab.tools import ToolRegistry

MAX_TOKENS = 1024


class Messages:
    """The adapter for `POST /v1/messages`."""

    name = "Messages"

    def __init__(self, client: Any = None, model: str | None = None) -> None:
        from wirelab.formats.clients import anthropic_client
        from wirelab.llm import model_name

        self.client = client or anthropic_client()
        self.model = model or model_name()

    def start(self, question: str) -> list[dict[str, Any]]:
        return [{"role": "user", "content": question}]

    def tools(self, registry: ToolRegistry) -> list[dict[str, Any]]:
        return [
            {"name": s["name"], "description": s["description"], "input_schema": s["parameters"]}
            for s in specs(registry)
        ]

    def send(self, history: list[dict[str, Any]], tools: list[dict[str, Any]], stream: bool = False) -> Any:
        request = {"model": self.model, "max_tokens": MAX_TOKENS, "messages": history, "tools": tools}
        if stream:
            with self.client.messages.stream(**request) as events:
                return events.get_final_message()
        return self.client.messages.create(**request)

    def calls(self, reply: Any) -> list[ToolCall]:
        return [ToolCall(b.id, b.name, dict(b.input)) for b in reply.content if b.type == "tool_use"]

    def add_reply(self, history: list[dict[str, Any]], reply: Any) -> None:
        blocks = [
            block.model_dump(include={"type", "text", "id", "name", "input"}) for block in reply.content
        ]
        history.append({"role": "assistant", "content": blocks})

    def add_results(
        self, history: list[dict[str, Any]], calls: list[ToolCall], results: list[ToolResult]
    ) -> None:
        blocks = [
            {"type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error}
            for r in results
        ]
        history.append({"role": "user", "content": blocks})

    def text(self, reply: Any) -> str:
        return "".join(block.text for block in reply.content if block.type == "text")
