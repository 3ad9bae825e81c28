"""Anthropic's Messages API (`POST /v1/messages`) over the offline model's one understanding.

    >>> reply = answer({"model": "wirelab-offline", "max_tokens": 100,
    ...                 "messages": [{"role": "user", "content": "Hi"}]})
    >>> reply["type"], reply["stop_reason"], [block["type"] for block in reply["content"]]
    ('message', 'end_turn', ['text'])

The request is rewritten as a Chat Completions body (`to_chat`) and answered by `edge.think`. Calls come
back as `tool_use` blocks (`id`, `name`, `input` as an object) with `stop_reason: "tool_use"`; results
go back as `tool_result` blocks (`tool_use_id`, `content`, `is_error`) at the start of the next *user*
message, and the API refuses anything else with its own messages. A result marked `is_error` reaches the
model as an error (`{"error": …}`), so it can correct its call. `tool_choice` is auto, any (some tool),
tool (that tool) or none; `disable_parallel_tool_use` makes one call at most. `events` cuts a message
into the streamed events. Left out: images, documents, thinking blocks, server tools.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from wirelab.offline_model.request import RequestError, invalid
from wirelab.offline_model.results import read_result
from wirelab.offline_model.wire.edge import Origins, Thought, think
from wirelab.offline_model.wire.wire_format import (
    chat_call,
    fragments,
    hex_id,
    prompt_tokens,
    tokens_of,
    words_of,
)

ERROR_TYPES = {404: "not_found_error", 408: "timeout_error", 413: "request_too_large"}
# The names of a tool's and a call's fields here, for those of Chat Completions.
FIELDS = {".function.parameters": ".input_schema", ".function.arguments": ".input", ".function.": "."}


def answer(body: Any) -> dict[str, Any]:
    """The `message` object for a request body (raises `RequestError`)."""
    if not isinstance(body, dict):
        raise invalid(None, "The request body must be a JSON object.")
    return message_object(think(*to_chat(body)))


def to_chat(body: dict[str, Any]) -> tuple[dict[str, Any], Origins]:
    """The Chat Completions body for a Messages body, and where its parts came from."""
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            raise invalid(name, f"{name}: Field required")
    limit = body["max_tokens"]
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise invalid("max_tokens", "max_tokens: Input should be a valid integer greater than or equal to 1")
    origins = Origins(fields=FIELDS)
    messages = chat_messages(body.get("system"), body["messages"], origins)
    chat: dict[str, Any] = {"model": body["model"], "messages": messages, "max_tokens": limit}
    if body.get("fault") is not None:
        chat["fault"] = body["fault"]
    if not isinstance(body.get("tools") or [], list):
        raise invalid("tools", "tools: Input should be a valid list")
    tools = [chat_tool(tool, k) for k, tool in enumerate(body.get("tools") or [])]
    origins.paths |= {f"tools[{k}]": f"tools.{k}" for k in range(len(tools))}
    if tools:
        chat["tools"] = tools
        chat.update(_choice(body.get("tool_choice"), {t["function"]["name"] for t in tools}))
    return chat, origins


def chat_messages(system: Any, messages: Any, origins: Origins) -> list[dict[str, Any]]:
    """The system prompt and the messages as Chat Completions messages, with the API's checks on
    how results are paired; `origins` learns where each came from."""
    chat = _system(system)
    if not isinstance(messages, list) or not messages:
        raise invalid("messages", "messages: at least one message is required")
    open_ids: list[str] = []

    def add(message: dict[str, Any], where: str) -> None:
        origins.paths[f"messages[{len(chat)}]"] = where
        chat.append({k: v for k, v in message.items() if v is not None})

    for i, message in enumerate(messages):
        role, blocks = _read(message, i)
        if role == "user":
            _check_results(blocks, open_ids, i)
            for j, block in enumerate(blocks):
                if block["type"] == "tool_result":
                    add(_result(block), f"messages.{i}.content.{j}")
            if _text(blocks):
                add({"role": "user", "content": _text(blocks)}, f"messages.{i}")
            open_ids = []
            continue
        if open_ids:
            raise _unanswered(i - 1, open_ids)
        uses = [(j, block) for j, block in enumerate(blocks) if block["type"] == "tool_use"]
        open_ids = [str(block.get("id")) for _, block in uses]
        for n, (j, _) in enumerate(uses):
            origins.paths[f"messages[{len(chat)}].tool_calls[{n}]"] = f"messages.{i}.content.{j}"
        calls = [_call(block) for _, block in uses]
        message = {"role": "assistant", "content": _text(blocks) or None, "tool_calls": calls or None}
        add(message, f"messages.{i}")
    if open_ids:
        raise _unanswered(len(messages) - 1, open_ids)
    return chat


def _system(system: Any) -> list[dict[str, Any]]:
    if system is None:
        return []
    if isinstance(system, list) and all(
        isinstance(b, dict) and isinstance(b.get("text"), str) for b in system
    ):
        system = "\n".join(block["text"] for block in system)
    if not isinstance(system, str):
        raise invalid("system", "system: Input should be a valid string or a list of text blocks")
    return [{"role": "system", "content": system}]


def _read(message: Any, i: int) -> tuple[str, list[dict[str, Any]]]:
    """(role, content blocks) of one message; a string content is one text block."""
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
        raise invalid(f"messages.{i}.role", f"messages.{i}.role: Input should be 'user' or 'assistant'")
    role, content = message["role"], message.get("content")
    if isinstance(content, str):
        return role, [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise invalid(f"messages.{i}.content", f"messages.{i}.content: Input should be a valid list")
    allowed = ("text", "tool_result") if role == "user" else ("text", "tool_use")
    for j, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in allowed:
            where, reads = f"messages.{i}.content.{j}", f"reads {' and '.join(allowed)} blocks in a {role}"
            raise invalid(where, f"{where}: the offline model {reads} message, not {kind!r}.")
    return role, content


def _check_results(blocks: list[dict[str, Any]], open_ids: list[str], i: int) -> None:
    """Results come first in the user message after the calls, one for each call."""
    seen_other = False
    for j, block in enumerate(blocks):
        if block["type"] != "tool_result":
            seen_other = True
        elif seen_other:
            raise invalid(
                f"messages.{i}.content.{j}",
                f"messages.{i}: `tool_result` blocks must come first in the content of a user message, "
                "before any other block.",
            )
        elif block.get("tool_use_id") not in open_ids:
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
    function = {"name": tool["name"], "description": tool.get("description", "")}
    strict = {"strict": tool["strict"]} if tool.get("strict") is not None else {}
    return {"type": "function", "function": {**function, "parameters": tool["input_schema"], **strict}}


def _choice(choice: Any, names: set[str]) -> dict[str, Any]:
    """tool_choice auto | any | tool | none as Chat's tool_choice and parallel_tool_calls."""
    if choice is None:
        return {}
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind not in ("auto", "any", "tool", "none"):
        raise invalid("tool_choice", "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'")
    if kind == "tool" and (not isinstance(choice.get("name"), str) or choice.get("name") not in names):
        raise invalid("tool_choice", f"tool_choice.name: no tool named {choice.get('name')!r} in `tools`.")
    named = {"type": "function", "function": {"name": choice.get("name")}}
    chat_choice = {"auto": "auto", "any": "required", "none": "none"}.get(kind, named)
    return {
        "tool_choice": chat_choice,
        "parallel_tool_calls": not choice.get("disable_parallel_tool_use", False),
    }


def message_object(thought: Thought) -> dict[str, Any]:
    """The whole `message` object; a call's `input` is {} when its arguments are not an object."""
    content = [{"type": "text", "text": thought.reply.content}] if thought.reply.content else []
    for call in thought.reply.calls:
        block = {"type": "tool_use", "id": "toolu_" + call.id.removeprefix("call_"), "name": call.name}
        content.append({**block, "input": call.parsed() or {}})
    usage = {"input_tokens": prompt_tokens(thought.request), "output_tokens": tokens_of(content)}
    return {
        "id": "msg_" + hex_id(thought.digest, "msg", length=24),
        "type": "message",
        "role": "assistant",
        "model": thought.request.model,
        "content": content,
        "stop_reason": {"tool_calls": "tool_use", "length": "max_tokens"}.get(thought.finish, "end_turn"),
        "stop_sequence": None,
        "usage": {**usage, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }


def events(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The streamed events of a message, in the API's order."""
    usage = {**message["usage"], "output_tokens": 1}
    started = {**message, "content": [], "stop_reason": None, "usage": usage}
    yield {"type": "message_start", "message": started}
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
        if index == 0:
            yield {"type": "ping"}
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    spent = {"output_tokens": message["usage"]["output_tokens"]}
    yield {"type": "message_delta", "delta": delta, "usage": spent}
    yield {"type": "message_stop"}


def _block_events(index: int, block: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if block["type"] == "text":
        started, kind, key = {"type": "text", "text": ""}, "text_delta", "text"
        pieces = words_of(block["text"])
    else:
        started, kind, key = {**block, "input": {}}, "input_json_delta", "partial_json"
        pieces = fragments(json.dumps(block["input"], ensure_ascii=False))
    yield {"type": "content_block_start", "index": index, "content_block": started}
    for piece in pieces:
        yield {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: piece}}
    yield {"type": "content_block_stop", "index": index}


def error_body(error: RequestError) -> dict[str, Any]:
    """Anthropic's error shape: {"type": "error", "error": {"type", "message"}}."""
    kind = ERROR_TYPES.get(error.status, "api_error" if error.status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": error.message}}
