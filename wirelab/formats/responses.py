"""The Responses API: calls are `function_call` output items, results `function_call_output` items.

    reply.output   # [reasoning?, function_call(id='fc_…', call_id='call_…', arguments='{…}'), …]
    {"type": "function_call_output", "call_id": "call_…", "output": "{\"temp_c\": 18}"}

A call item has two ids: `id` names the *item*, `call_id` pairs the *result*.
The items of a reply go back whole, reasoning items included (a reasoning
model refuses calls passed back without the reasoning they came with). This
adapter re-sends every item (`store=False`); `previous_response_id` would let
the server keep them instead. An error is marked inside `output`.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.formats.common import ToolCall, ToolResult, specs
from wirelab.tools import ToolRegistry


class Responses:
    """The adapter for `POST /v1/responses`."""

    name = "Responses"

    def __init__(self, client: Any = None, model: str | None = None, reasoning: bool = True) -> None:
        from wirelab.llm import client as make_client
        from wirelab.llm import model_name

        self.client = client or make_client()
        self.model = model or model_name()
        self.reasoning = {"reasoning": {"effort": "low"}} if reasoning else {}

    def start(self, question: str) -> list[dict[str, Any]]:
        return [{"role": "user", "content": question}]

    def tools(self, registry: ToolRegistry) -> list[dict[str, Any]]:
        return [{"type": "function", **spec, "strict": False} for spec in specs(registry)]

    def send(self, history: list[dict[str, Any]], tools: list[dict[str, Any]], stream: bool = False) -> Any:
        request = {"model": self.model, "input": history, "tools": tools, "store": False, **self.reasoning}
        if stream:
            with self.client.responses.stream(**request) as events:
                return events.get_final_response()
        return self.client.responses.create(**request)

    def calls(self, reply: Any) -> list[ToolCall]:
        items = [item for item in reply.output if item.type == "function_call"]
        return [ToolCall(item.call_id, item.name, json.loads(item.arguments)) for item in items]

    def add_reply(self, history: list[dict[str, Any]], reply: Any) -> None:
        history.extend(item.model_dump(exclude_none=True) for item in reply.output)

    def add_results(
        self, history: list[dict[str, Any]], calls: list[ToolCall], results: list[ToolResult]
    ) -> None:
        for result in results:
            output = json.dumps({"error": result.content}) if result.is_error else result.content
            history.append({"type": "function_call_output", "call_id": result.call_id, "output": output})

    def text(self, reply: Any) -> str:
        return reply.output_text
