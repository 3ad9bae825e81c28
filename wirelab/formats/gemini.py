"""Gemini (REST): calls are `functionCall` parts, results `functionResponse` parts, paired by name.

    reply["candidates"][0]["content"]["parts"]   # [{"functionCall": {"name", "args": {…}}}, …]
    {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {…}}}, …]}

A call carries no id here, so the adapter numbers the calls of a reply and
answers them in the same order, each under its function's name. `args` is an
object; an error is a `response` with an `error` member. The roles are `user`
and `model`. Streaming sends text in pieces but each call whole.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.formats.common import ToolCall, ToolResult, specs
from wirelab.tools import ToolRegistry


class Gemini:
    """The adapter for `POST /v1beta/models/{model}:generateContent`."""

    name = "Gemini"

    def __init__(self, client: Any = None, model: str | None = None, base_url: str | None = None) -> None:
        from wirelab.formats.clients import http_client, root_url
        from wirelab.llm import model_name

        self.client = client or http_client()
        self.url = f"{base_url or root_url()}/v1beta/models/{model or model_name()}"

    def start(self, question: str) -> list[dict[str, Any]]:
        return [{"role": "user", "parts": [{"text": question}]}]

    def tools(self, registry: ToolRegistry) -> list[dict[str, Any]]:
        return [{"functionDeclarations": specs(registry)}]

    def send(self, history: list[dict[str, Any]], tools: list[dict[str, Any]], stream: bool = False) -> Any:
        body = {"contents": history, "tools": tools}
        if not stream:
            reply = self.client.post(f"{self.url}:generateContent", json=body)
            reply.raise_for_status()
            return reply.json()
        reply = self.client.post(f"{self.url}:streamGenerateContent?alt=sse", json=body)
        reply.raise_for_status()
        chunks = [json.loads(line[6:]) for line in reply.text.splitlines() if line.startswith("data: ")]
        parts = [part for chunk in chunks for part in chunk["candidates"][0]["content"]["parts"]]
        return {"candidates": [{"content": {"role": "model", "parts": _joined(parts)}}]}

    def calls(self, reply: Any) -> list[ToolCall]:
        parts = reply["candidates"][0]["content"]["parts"]
        called = [part["functionCall"] for part in parts if "functionCall" in part]
        return [ToolCall(f"{k}:{c['name']}", c["name"], c.get("args", {})) for k, c in enumerate(called)]

    def add_reply(self, history: list[dict[str, Any]], reply: Any) -> None:
        history.append(reply["candidates"][0]["content"])

    def add_results(
        self, history: list[dict[str, Any]], calls: list[ToolCall], results: list[ToolResult]
    ) -> None:
        by_id = {result.call_id: result for result in results}
        parts = [{"functionResponse": {"name": c.name, "response": _response(by_id[c.id])}} for c in calls]
        history.append({"role": "user", "parts": parts})

    def text(self, reply: Any) -> str:
        return "".join(part.get("text", "") for part in reply["candidates"][0]["content"]["parts"])


def _response(result: ToolResult) -> dict[str, Any]:
    if result.is_error:
        return {"error": result.content}
    try:
        value = json.loads(result.content)
    except json.JSONDecodeError:
        value = result.content
    return value if isinstance(value, dict) else {"result": value}


def _joined(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Streamed parts as one reply's parts: neighbouring text pieces joined."""
    joined: list[dict[str, Any]] = []
    for part in parts:
        if "text" in part and joined and "text" in joined[-1]:
            joined[-1] = {"text": joined[-1]["text"] + part["text"]}
        else:
            joined.append(part)
    return joined
