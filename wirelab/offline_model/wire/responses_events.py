"""The Responses API's streamed events: a whole `response` cut into the sequence the API sends.

    >>> from wirelab.offline_model.wire.responses_api import respond
    >>> [event["type"] for event in events(respond({"model": "wirelab-offline", "input": "Hi"}))][:3]
    ['response.created', 'response.in_progress', 'response.output_item.added']

`response.created` and `.in_progress` carry the response without its output; then each output item is
added, filled and done: a message's text a word at a time (`output_text.delta`), a call's arguments in
`FRAGMENT`-character pieces (`function_call_arguments.delta`, then `.done`), a hosted MCP item with its
`mcp_list_tools.*` or `mcp_call*` events; last, `response.completed` (or `.incomplete`) with the whole
response. Every event is numbered by `sequence_number`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wirelab.offline_model.wire.wire_format import fragments, words_of

# What an item holds when it is added, before its text or arguments stream in.
STARTED = {
    "message": {"content": [], "status": "in_progress"},
    "function_call": {"arguments": "", "status": "in_progress"},
    "mcp_call": {"arguments": "", "output": None, "error": None},
}


def events(response: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The streamed events of a response, in the API's order, numbered by `sequence_number`."""
    started = {**response, "status": "in_progress", "output": [], "usage": None}
    raw: list[dict[str, Any]] = [
        {"type": "response.created", "response": started},
        {"type": "response.in_progress", "response": started},
    ]
    for index, item in enumerate(response["output"]):
        raw += list(_item_events(index, item))
    done = "response.incomplete" if response["status"] == "incomplete" else "response.completed"
    raw.append({"type": done, "response": response})
    for number, event in enumerate(raw):
        yield {**event, "sequence_number": number}


def _item_events(index: int, item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One item's events: added, (in progress), its text or arguments in pieces, (completed or failed),
    done; the parenthesised ones for a hosted MCP item."""
    kind, where = item["type"], {"output_index": index}
    named, hosted = {**where, "item_id": item["id"]}, kind in ("mcp_call", "mcp_list_tools")
    yield {"type": "response.output_item.added", **where, "item": {**item, **STARTED.get(kind, {})}}
    if hosted:
        yield {"type": f"response.{kind}.in_progress", **named}
    if kind in ("function_call", "mcp_call"):
        for piece in fragments(item["arguments"]):
            yield {"type": f"response.{kind}_arguments.delta", **named, "delta": piece}
        yield {"type": f"response.{kind}_arguments.done", **named, "arguments": item["arguments"]}
    elif kind == "message":
        yield from _text_events(index, item)
    if hosted:
        yield {"type": f"response.{kind}.{'failed' if item.get('error') else 'completed'}", **named}
    yield {"type": "response.output_item.done", **where, "item": item}


def _text_events(index: int, item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    part = item["content"][0]
    where = {"output_index": index, "item_id": item["id"], "content_index": 0}
    yield {"type": "response.content_part.added", **where, "part": {**part, "text": ""}}
    for piece in words_of(part["text"]):
        yield {"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []}
    yield {"type": "response.output_text.done", **where, "text": part["text"], "logprobs": []}
    yield {"type": "response.content_part.done", **where, "part": part}
