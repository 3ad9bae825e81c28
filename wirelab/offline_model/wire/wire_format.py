"""Write a reply in the Chat Completions wire format, whole or as stream chunks.

    >>> from wirelab.offline_model import complete
    >>> whole = complete({"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]})
    >>> whole["object"], whole["created"] == CREATED, whole["choices"][0]["finish_reason"]
    ('chat.completion', True, 'stop')
    >>> whole == complete({"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]})
    True

Everything is derived from the request, never from the clock or a random source: ids come from `digest`
(a hash of the request), `created` is the fixed `CREATED`. `chunks()` cuts a completion into
`chat.completion.chunk` objects the way the API streams: a first delta with the role, text a word at a
time, each tool call opened with its index, id and name and then its arguments in `FRAGMENT`-character
pieces, a last chunk with the finish reason, and with `include_usage` a usage chunk with no choices.
Token counts are the estimate of `tokens.py`. Left out: logprobs (always null), `n` > 1, audio.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from wirelab.offline_model.policy import Reply
from wirelab.offline_model.request import Request
from wirelab.offline_model.wire.tokens import count_tokens, truncate_tokens

CREATED = 1767225600  # 2026-01-01T00:00:00Z, the same in every response
FRAGMENT = 8
UNHASHED = ("stream", "stream_options")


@dataclass(frozen=True)
class Thought:
    """A valid request and the reply every format writes for it: calls with ids, cut to max tokens."""

    request: Request
    reply: Reply
    finish: str  # 'stop', 'tool_calls' or 'length'
    digest: str


def written(request: Request, reply: Reply, digest: str) -> Thought:
    """The reply as it is written: each call with an id derived from the request ('call_' + 24 hex
    digits), cut to `max_tokens`."""
    calls = tuple(replace(c, id="call_" + hex_id(digest, k, length=24)) for k, c in enumerate(reply.calls))
    reply, finish = limited(replace(reply, calls=calls), request.max_tokens)
    return Thought(request, reply, finish, digest)


def request_digest(body: dict[str, Any]) -> str:
    """A hex digest of the request; streaming options do not change it."""
    kept = {k: v for k, v in body.items() if k not in UNHASHED}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def hex_id(*parts: object, length: int) -> str:
    """Hex digits derived from `parts` (the request's digest first): same request, same id."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:length]


def item_id(prefix: str, digest: str, k: int | str = "") -> str:
    """An output item's id, 'fc_' + 32 hex digits: the Responses API's items, hosted MCP's too."""
    return prefix + hex_id(digest, prefix, k, length=32)


def limited(reply: Reply, max_tokens: int | None) -> tuple[Reply, str]:
    """The reply cut to `max_tokens` and its finish reason: 'stop', 'tool_calls' or 'length'."""
    reason = "tool_calls" if reply.calls else "stop"
    if max_tokens is None or completion_tokens(reply) <= max_tokens:
        return reply, reason
    if reply.content is not None:
        return Reply(truncate_tokens(reply.content, max_tokens)), "length"
    calls, budget = [], max_tokens
    for call in reply.calls:
        budget -= count_tokens(call.name)
        if budget <= 0:
            break
        calls.append(replace(call, arguments=truncate_tokens(call.arguments, budget)))
        budget -= count_tokens(call.arguments)
    return Reply(None, tuple(calls)), "length"


def completion_tokens(reply: Reply) -> int:
    """Tokens the reply holds: its text, or its calls' names and arguments."""
    return count_tokens(reply.content or "") + sum(
        count_tokens(call.name) + count_tokens(call.arguments) for call in reply.calls
    )


def prompt_tokens(request: Request) -> int:
    """Tokens of every message (role, text, calls) and every tool's description and schema."""
    messages = sum(
        1 + count_tokens(m.text) + sum(count_tokens(c.name + " " + c.arguments) for c in m.tool_calls)
        for m in request.messages
    )
    tools = sum(count_tokens(f"{t.name} {t.description} {json.dumps(t.parameters)}") for t in request.tools)
    return messages + tools


def tokens_of(items: list[dict[str, Any]]) -> int:
    """Tokens of a reply written as another format's items (blocks, parts), counted as JSON."""
    return sum(count_tokens(json.dumps(item, ensure_ascii=False)) for item in items)


def completion(thought: Thought) -> dict[str, Any]:
    """The whole `chat.completion` object for a thought."""
    request, reply = thought.request, thought.reply
    prompt, made = prompt_tokens(request), completion_tokens(reply)
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    if reply.calls:
        message["tool_calls"] = [chat_call(call.id, call.name, call.arguments) for call in reply.calls]
    return {
        "id": f"chatcmpl-{thought.digest[:29]}",
        "object": "chat.completion",
        "created": CREATED,
        "model": request.model,
        "choices": [{"index": 0, "message": message, "finish_reason": thought.finish, "logprobs": None}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": made, "total_tokens": prompt + made},
    }


def chat_call(call_id: str, name: Any, arguments: str) -> dict[str, Any]:
    """One call as an assistant message's `tool_calls` entry holds it."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def answered_call(call_id: str, name: Any, arguments: str, content: str) -> list[dict[str, Any]]:
    """A call and its result as the two Chat Completions messages that carry them."""
    return [
        {"role": "assistant", "content": None, "tool_calls": [chat_call(call_id, name, arguments)]},
        {"role": "tool", "tool_call_id": call_id, "content": content},
    ]


def chunks(thought: Thought) -> Iterator[dict[str, Any]]:
    """The `chat.completion.chunk` objects that stream the completion (see the module docstring)."""
    whole, include_usage = completion(thought), thought.request.include_usage
    choice = whole["choices"][0]
    message = choice["message"]
    head = {"id": whole["id"], "object": "chat.completion.chunk", "created": CREATED, "model": whole["model"]}
    extra = {"usage": None} if include_usage else {}

    def chunk(delta: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
        choices = [{"index": 0, "delta": delta, "finish_reason": reason, "logprobs": None}]
        return {**head, "choices": choices, **extra}

    started = "" if message["content"] is not None else None
    yield chunk({"role": "assistant", "content": started, "refusal": None})
    for piece in words_of(message["content"] or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(message.get("tool_calls", [])):
        yield from (chunk({"tool_calls": [part]}) for part in _call_deltas(index, call))
    yield chunk({}, choice["finish_reason"])
    if include_usage:
        yield {**chunk({}), "choices": [], "usage": whole["usage"]}


def words_of(text: str) -> list[str]:
    """`text` cut into words, each with the spaces after it (the first with those before, too).

    One linear pass: 'Hi  there' -> ['Hi  ', 'there']; joined, the pieces are `text` again.
    """
    return re.findall(r"\s*\S+\s*|\s+", text)  # a leading \s* matches only at the start


def _call_deltas(index: int, call: dict[str, Any]) -> Iterator[dict[str, Any]]:
    function = call["function"]
    opened = {"index": index, "id": call["id"], "type": "function"}
    yield {**opened, "function": {"name": function["name"], "arguments": ""}}
    for piece in fragments(function["arguments"]):
        yield {"index": index, "function": {"arguments": piece}}


def fragments(text: str) -> list[str]:
    """`text` in `FRAGMENT`-character pieces, as a call's arguments are streamed."""
    return [text[start : start + FRAGMENT] for start in range(0, len(text), FRAGMENT)]
