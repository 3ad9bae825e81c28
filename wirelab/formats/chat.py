"""Chat Completions: calls in `message.tool_calls`, results as `role: "tool"` messages.

    history = [{"role": "user", "content": "Weather in Paris?"}]
    reply.choices[0].message.tool_calls[0]   # id 'call_…', function.arguments: a JSON *string*
    {"role": "tool", "tool_call_id": "call_…", "content": "{\"temp_c\": 18}"}

An error is marked only inside the content (here `{"error": …}`): the format
has no flag for it. Streaming splits each call's arguments into fragments
keyed by the call's `index`; the SDK's stream helper joins them.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.formats.common import ToolCall, ToolResult, specs
from wirelab.tools import ToolRegistry


class ChatCompletions:
    """The adapter for `POST /v1/chat/completions`."""

    name = "Chat Completions"

    def __init__(self, client: Any = None, model: str | None = None) -> None:
        from wirelab.llm import client as make_client
        from wirelab.llm import model_name

        self.client = client or make_client()
        self.model = model or model_name()

    def start(self, question: str) -> list[dict[str, Any]]:
        return [{"role": "user", "content": question}]

    def tools(self, registry: ToolRegistry) -> list[dict[str, Any]]:
        return [{"type": "function", "function": spec} for spec in specs(registry)]

    def send(self, history: list[dict[str, Any]], tools: list[dict[str, Any]], stream: bool = False) -> Any:
        request = {"model": self.model, "messages": history, "tools": tools}
        if stream:
            with self.client.chat.completions.stream(**request) as events:
                return events.get_final_completion()
        return self.client.chat.completions.create(**request)

    def calls(self, reply: Any) -> list[ToolCall]:
        calls = reply.choices[0].message.tool_calls or []
        return [ToolCall(c.id, c.function.name, json.loads(c.function.arguments)) for c in calls]

    def add_reply(self, history: list[dict[str, Any]], reply: Any) -> None:
        message = reply.choices[0].message
        history.append(message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True))

    def add_results(
        self, history: list[dict[str, Any]], calls: list[ToolCall], results: list[ToolResult]
    ) -> None:
        for result in results:
            content = json.dumps({"error": result.content}) if result.is_error else result.content
            history.append({"role": "tool", "tool_call_id": result.call_id, "content": content})

    def text(self, reply: Any) -> str:
        return reply.choices[0].message.content or ""
