"""Anthropic's Messages API (`POST /v1/messages`) over the offline model's one understanding.

    >>> reply = answer({"model": "wirelab-offline", "max_tokens": 100,
    ...                 "messages": [{"role": "user", "content": "Hi"}]})
    >>> reply["type"], reply["stop_reason"], [block["type"] for block in reply["content"]]
    ('message', 'end_turn', ['text'])

The request is rewritten as a Chat Completions body (`to_chat`) and answered by
`edge.think`. Calls come back as `tool_use` blocks (`id`, `name`, `input` as an
object) with `stop_reason: "tool_use"`; results go back as `tool_result` blocks
(`tool_use_id`, `content`, `is_error`) at the start of the next *user* message,
and the API refuses anything else with its own messages. A result marked
`is_error` reaches the model as an error (`{"error": …}`), so it can correct its
call. `tool_choice` is auto, any (some tool), tool (that tool) or none;
`disable_parallel_tool_use` makes one call at most. `events` cuts a message into
the streamed events. Left out: images, documents, thinking blocks, server tools.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from wirelab.offline_model.request import RequestError, invalid
from wirelab.offline_model.results import read_result
from wirelab.offline_model.wire.edge import Thought, think
from wirelab.offline_model.wire.wire_format import (
    arguments_object,
    chat_call,
    fragments,
    hex_id,
    prompt_tokens,
    tokens_of,
    words_of,
)

ERROR_TYPES = {
    400: "invalid_request_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
}


def answer(body: Any) -> dict[str, Any]:
    """The `message` object for a request body (raises `RequestError`)."""
    if not isinstance(body, dict):
        raise invalid(None, "The request body must be a JSON object.")
    thought = think(to_chat(body))
    return message_object(thought)


def to_chat(body: dict[str, Any]) -> dict[str, Any]:
    """The Chat Completions body for a Messages body."""
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            raise invalid(name, f"{name}: Field required")
    if (
        not isinstance(body["max_tokens"], int)
        or isinstance(body["max_tokens"], bool)
        or body["max_tokens"] < 1
    ):
        raise invalid("max_tokens", "max_tokens: Input should be a valid integer greater than or equal to 1")
    messages = [*_system(body.get("system")), *chat_messages(body["messages"])]
    chat: dict[str, Any] = {"model": body["model"], "messages": messages, "max_tokens": body["max_tokens"]}
    if body.get("fault") is not None:
        chat["fault"] = body["fault"]
    if not isinstance(body.get("tools") or [], list):
        raise invalid("tools", "tools: Input should be a valid list")
    tools = [chat_tool(tool, k) for k, tool in enumerate(body.get("tools") or [])]
    if tools:
        chat["tools"] = tools
        chat.update(_choice(body.get("tool_choice"), {t["function"]["name"] for t in tools}))
    return chat


def _system(system: Any) -> list[dict[str, Any]]:
    if system is None:
        return []
    if isinstance(system, list) and all(
        isinstance(block, dict) and isinstance(block.get("text"), str) for block in system
    ):
        system = "\n".join(block["text"] for block in system)
    if not isinstance(system, str):
        raise invalid("system", "system: Input should be a valid string or a list of text blocks")
    return [{"role": "system", "content": system}]


def chat_messages(messages: Any) -> list[dict[str, Any]]:
    """Messages as Chat Completions messages, with the API's checks on how results are paired."""
    if not isinstance(messages, list) or not messages:
        raise invalid("messages", "messages: at least one message is required")
    chat: list[dict[str, Any]] = []
    open_ids: list[str] = []
    for i, message in enumerate(messages):
        role, blocks = _read(message, i)
        if role == "user":
            _check_results(blocks, open_ids, i)
            chat += [_result(block) for block in blocks if block["type"] == "tool_result"]
            text = _text(blocks)
            if text:
                chat.append({"role": "user", "content": text})
            open_ids = []
        else:
            if open_ids:
                raise _unanswered(i - 1, open_ids)
            uses = [block for block in blocks if block["type"] == "tool_use"]
            open_ids = [str(block.get("id")) for block in uses]
            chat.append(
                {
                    "role": "assistant",
                    "content": _text(blocks) or None,
                    "tool_calls": [_call(block) for block in uses] or None,
                }
            )
    if open_ids:
        raise _unanswered(len(messages) - 1, open_ids)
    return [{k: v for k, v in m.items() if v is not None} for m in chat]


def _read(message: Any, i: int) -> tuple[str, list[dict[str, Any]]]:
    """(role, content blocks) of one message; a string content is one text block."""
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
        raise invalid(f"messages.{i}.role", f"messages.{i}.role: Input should be 'user' or 'assistant'")
    content = message.get("content")
    if isinstance(content, str):
        return message["role"], [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise invalid(f"messages.{i}.content", f"messages.{i}.content: Input should be a valid list")
    for j, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        allowed = ("text", "tool_result") if message["role"] == "user" else ("text", "tool_use")
        if kind not in allowed:
            raise invalid(
                f"messages.{i}.content.{j}",
                f"messages.{i}.content.{j}: the offline model reads "
                f"{' and '.join(allowed)} blocks in a {message['role']} message, "
                f"not {kind!r}.",
            )
    return message["role"], content


def _check_results(blocks: list[dict[str, Any]], open_ids: list[str], i: int) -> None:
    """Results come first in the user message after the calls, one for each call."""
    seen_other = False
    for j, block in enumerate(blocks):
        if block["type"] != "tool_result":
            seen_other = True
            continue
        if seen_other:
            raise invalid(
                f"messages.{i}.content.{j}",
                f"messages.{i}: `tool_result` blocks must come first "
                "in the content of a user message, before any other block.",
            )
        if block.get("tool_use_id") not in open_ids:
            raise invalid(
                f"messages.{i}.content.{j}",
                f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                "`tool_use` block in the previous message.",
            )
    answered = {block.get("tool_use_id") for block in blocks if block["type"] == "tool_result"}
    missing = [call_id for call_id in open_ids if call_id not in answered]
    if missing:
        raise _unanswered(i - 1, missing)


def _unanswered(i: int, ids: list[str]) -> RequestError:
    return invalid(
        f"messages.{i}",
        f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately after: "
        f"{', '.join(ids)}. Each `tool_use` block must have a corresponding `tool_result` block "
        "in the next message.",
    )


def _text(blocks: list[dict[str, Any]]) -> str:
    return "\n".join(str(block.get("text", "")) for block in blocks if block["type"] == "text")


def _call(block: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(block.get("id"), str) or not isinstance(block.get("input"), dict):
        raise invalid("messages", "A `tool_use` block needs an `id` and an `input` object.")
    return chat_call(block["id"], block.get("name"), json.dumps(block["input"], ensure_ascii=False))


def _result(block: dict[str, Any]) -> dict[str, Any]:
    """A `tool_result` block as a tool message; `is_error` makes its text an error result."""
    content = block.get("content", "")
    if isinstance(content, list):
        content = "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    if not isinstance(content, str):
        raise invalid("messages", "A `tool_result` block's content must be a string or text blocks.")
    if block.get("is_error") is True and read_result(content).error is None:
        content = json.dumps({"error": content}, ensure_ascii=False)
    return {"role": "tool", "tool_call_id": block["tool_use_id"], "content": content}


def chat_tool(tool: Any, k: int) -> dict[str, Any]:
    """A tool ({"name", "description", "input_schema"}) in Chat's shape."""
    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
        raise invalid(f"tools.{k}.name", f"tools.{k}.name: Field required")
    if "input_schema" not in tool:
        raise invalid(f"tools.{k}.input_schema", f"tools.{k}.input_schema: Field required")
    function = {
        "name": tool["name"],
        "description": tool.get("description", ""),
        "parameters": tool["input_schema"],
    }
    if tool.get("strict") is not None:
        function["strict"] = tool["strict"]
    return {"type": "function", "function": function}


def _choice(choice: Any, names: set[str]) -> dict[str, Any]:
    """tool_choice auto | any | tool | none as Chat's tool_choice and parallel_tool_calls."""
    if choice is None:
        return {}
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind not in ("auto", "any", "tool", "none"):
        raise invalid("tool_choice", "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'")
    if kind == "tool" and choice.get("name") not in names:
        raise invalid("tool_choice", f"tool_choice.name: no tool named {choice.get('name')!r} in `tools`.")
    chat_choice: Any = {"auto": "auto", "any": "required", "none": "none"}.get(kind) or {
        "type": "function",
        "function": {"name": choice["name"]},
    }
    return {
        "tool_choice": chat_choice,
        "parallel_tool_calls": not choice.get("disable_parallel_tool_use", False),
    }


def _use_id(call_id: str) -> str:
    return "toolu_" + call_id.removeprefix("call_")


def message_object(thought: Thought) -> dict[str, Any]:
    """The whole `message` object."""
    content: list[dict[str, Any]] = []
    if thought.reply.content:
        content.append({"type": "text", "text": thought.reply.content})
    for call in thought.reply.calls:
        content.append(
            {
                "type": "tool_use",
                "id": _use_id(call.id),
                "name": call.name,
                "input": arguments_object(call.arguments),  # the API parses them: not JSON, none
            }
        )
    stop = {"tool_calls": "tool_use", "length": "max_tokens"}.get(thought.finish, "end_turn")
    made = tokens_of(content)
    return {
        "id": "msg_" + hex_id(thought.digest, "msg", length=24),
        "type": "message",
        "role": "assistant",
        "model": thought.request.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": prompt_tokens(thought.request),
            "output_tokens": made,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


def events(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The streamed events of a message, in the API's order."""
    usage = {**message["usage"], "output_tokens": 1}
    yield {
        "type": "message_start",
        "message": {**message, "content": [], "stop_reason": None, "usage": usage},
    }
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
        if index == 0:
            yield {"type": "ping"}
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield {
        "type": "message_delta",
        "delta": delta,
        "usage": {"output_tokens": message["usage"]["output_tokens"]},
    }
    yield {"type": "message_stop"}


def _block_events(index: int, block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if block["type"] == "text":
        yield {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
        for piece in words_of(block["text"]):
            yield {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": piece},
            }
    else:
        yield {"type": "content_block_start", "index": index, "content_block": {**block, "input": {}}}
        for piece in fragments(json.dumps(block["input"], ensure_ascii=False)):
            delta = {"type": "input_json_delta", "partial_json": piece}
            yield {"type": "content_block_delta", "index": index, "delta": delta}
    yield {"type": "content_block_stop", "index": index}


def error_body(error: RequestError) -> dict[str, Any]:
    """Anthropic's error shape: {"type": "error", "error": {"type", "message"}}."""
    kind = ERROR_TYPES.get(error.status, "api_error" if error.status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": error.message}}
