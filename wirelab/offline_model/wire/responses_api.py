"""OpenAI's Responses API (`POST /v1/responses`) over the offline model's one understanding.

    >>> reply = respond({"model": "wirelab-offline", "input": "Hi"})
    >>> reply["object"], reply["status"], [item["type"] for item in reply["output"]]
    ('response', 'completed', ['message'])

The request is rewritten as a Chat Completions body (`to_chat`) and answered by `edge.think`; the reply
is written back as output items: a `message` with `output_text`, or one `function_call` item per call
(`call_id` pairs its `function_call_output`; `id` names the item). With `reasoning` set the model also
emits a `reasoning` item first, which must be passed back with its calls, as a reasoning model's must. A
response is stored (unless `store: false`) so that `previous_response_id` continues it.
`responses_events.events` cuts a response into the streamed events. Hosted `mcp` tools are run by
`hosted_mcp`. Left out: built-in tools other than `mcp`, images and files, `conversation`, background
mode.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from wirelab.offline_model.request import invalid
from wirelab.offline_model.wire.edge import Origins, Thought, think
from wirelab.offline_model.wire.validation import missing, text_part
from wirelab.offline_model.wire.wire_format import (
    CREATED,
    answered_call,
    chat_call,
    item_id,
    prompt_tokens,
    request_digest,
    tokens_of,
)

STORE_SIZE = 1000
TEXT_PARTS = ("input_text", "output_text", "text")


@dataclass
class Stored:
    """A stored response: the conversation so far as Chat Completions messages, and the hosted
    MCP state (approvals asked for)."""

    messages: list[dict[str, Any]]
    mcp: dict[str, Any] = field(default_factory=dict)


class ResponseStore:
    """The last `STORE_SIZE` stored responses by id, and which reasoning item each call item came
    with (the last 8 * `STORE_SIZE`); thread-safe."""

    def __init__(self) -> None:
        self._items: dict[str, Stored] = {}
        self._lock = threading.Lock()
        self.reasoning_of: dict[str, str] = {}

    def put(self, response_id: str, stored: Stored) -> None:
        with self._lock:
            self._items.pop(response_id, None)  # put back last, the newest
            _keep_newest(self._items, {response_id: stored}, STORE_SIZE)

    def note_reasoning(self, reasoning_of: dict[str, str]) -> None:
        with self._lock:
            _keep_newest(self.reasoning_of, reasoning_of, 8 * STORE_SIZE)

    def get(self, response_id: str) -> Stored:
        with self._lock:
            if response_id not in self._items:
                message = f"Previous response with id '{response_id}' not found."
                raise invalid("previous_response_id", message, "previous_response_not_found")
            return self._items[response_id]


def _keep_newest(items: dict[str, Any], new: dict[str, Any], size: int) -> None:
    """Add `new` to `items`, then forget the oldest past `size`."""
    items.update(new)
    for key in list(items)[: len(items) - size]:
        del items[key]


STORE = ResponseStore()
# Where the Chat Completions fields that a Responses body fills come from in it.
PATHS = {
    "messages": "input",
    "max_completion_tokens": "max_output_tokens",
    "response_format": "text.format",
    "tool_choice.function": "tool_choice",
}
PASSED_BACK = ("reasoning", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response")


def respond(body: Any, store: ResponseStore = STORE) -> dict[str, Any]:
    """The `response` object for a request body (raises `RequestError`)."""
    if not isinstance(body, dict):
        raise invalid(None, "The request body must be a JSON object.")
    if not isinstance(body.get("tools") or [], list):
        raise invalid("tools", "Invalid 'tools': expected an array of tools.")
    chat, previous, origins = to_chat(body, store)
    if any(_is_mcp(tool) for tool in body.get("tools") or []):
        response, stored = _with_mcp(body, chat, origins, Stored(previous), store)
    else:
        response, stored = response_object(body, think(chat, origins)), Stored(previous)
    store.note_reasoning(_reasoning_map(response))  # kept even with `store: false`: items carry ids
    if body.get("store", True) is not False:
        stored.messages += _as_chat(response["output"])
        store.put(response["id"], stored)
    return response


def _with_mcp(
    body: dict[str, Any], chat: dict[str, Any], origins: Origins, stored: Stored, store: ResponseStore
) -> tuple[dict[str, Any], Stored]:
    """The response to a request with hosted `mcp` tools (see `hosted_mcp`): its MCP items, then
    the model's last reply without the MCP calls waiting for approval; and what it stores."""
    from wirelab.offline_model.wire import hosted_mcp

    state = store.get(str(body["previous_response_id"])).mcp if body.get("previous_response_id") else {}
    thought, turn = hosted_mcp.run(body, chat, origins, request_digest(body), state)
    waiting = {request["name"] for request in turn.approvals.values()}
    kept = tuple(call for call in thought.reply.calls if call.name not in waiting)
    response = response_object(body, replace(thought, reply=replace(thought.reply, calls=kept)))
    response["output"] = turn.items + response["output"]
    stored.messages += turn.chat["messages"][len(chat["messages"]) :]
    stored.mcp = {
        "approvals": {**state.get("approvals", {}), **turn.approvals},
        "listed": sorted(turn.listed),
    }
    return response, stored


def to_chat(
    body: dict[str, Any], store: ResponseStore
) -> tuple[dict[str, Any], list[dict[str, Any]], Origins]:
    """The Chat Completions body for `body`, the conversation it continues with its input, and where
    the body's parts came from."""
    if "model" not in body:
        raise missing("model")
    origins = Origins(dict(PATHS), {".function.": "."})
    previous: list[dict[str, Any]] = []
    if body.get("previous_response_id") is not None:
        previous = list(store.get(str(body["previous_response_id"])).messages)
    items = read_input(body.get("input"))
    _check_reasoning(items, store)
    instructions = body.get("instructions")
    said = [{"role": "developer", "content": instructions}] if isinstance(instructions, str) else []
    conversation = previous + input_messages(items, origins, len(said) + len(previous))
    _check_outputs(conversation)
    functions = [(k, t) for k, t in enumerate(body.get("tools") or []) if not _is_mcp(t)]
    origins.paths |= {f"tools[{n}]": f"tools[{k}]" for n, (k, _) in enumerate(functions)}
    tools = [chat_tool(tool, k) for k, tool in functions]
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "function":  # Chat's {"type", "function": {"name"}}
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    text_format = body["text"].get("format") if isinstance(body.get("text"), dict) else None
    json_schema = isinstance(text_format, dict) and text_format.get("type") == "json_schema"
    chat = {
        "model": body["model"],
        "messages": said + conversation,
        "fault": body.get("fault"),
        "tools": tools or None,
        "parallel_tool_calls": body.get("parallel_tool_calls") if tools else None,
        "tool_choice": choice if tools else None,
        "max_completion_tokens": body.get("max_output_tokens"),
        "response_format": {"type": "json_schema", "json_schema": text_format} if json_schema else None,
    }
    return {k: v for k, v in chat.items() if v is not None}, conversation, origins


def _is_mcp(tool: Any) -> bool:
    return isinstance(tool, dict) and tool.get("type") == "mcp"


def read_input(given: Any) -> list[dict[str, Any]]:
    """The input as a list of items; a string is one user message."""
    if given is None:
        return []
    if isinstance(given, str):
        return [{"type": "message", "role": "user", "content": given}]
    if not isinstance(given, list) or not all(isinstance(item, dict) for item in given):
        raise invalid("input", "Invalid 'input': expected a string or an array of input items.")
    return given


def input_messages(items: list[dict[str, Any]], origins: Origins, first: int = 0) -> list[dict[str, Any]]:
    """Input items as Chat Completions messages: consecutive `function_call` items become one
    assistant message with `tool_calls`; a `function_call_output` becomes a `tool` message.
    `origins` learns which item each came from (the first is message `first`)."""
    messages: list[dict[str, Any]] = []
    for k, item in enumerate(items):
        kind, made = item.get("type", "message"), len(messages)
        if kind == "message":
            messages.append(_message(item, k))
        elif kind == "function_call":
            _add_call(messages, item, k)
            call = f"messages[{first + len(messages) - 1}].tool_calls[{len(messages[-1]['tool_calls']) - 1}]"
            origins.paths[call] = f"input[{k}]"
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": _call_id(item, k), "content": _output(item, k)})
        elif kind == "mcp_call":
            messages += _mcp_call(item, k)
        elif kind not in PASSED_BACK:
            reads = "message, function_call, function_call_output, reasoning and mcp items"
            raise invalid(f"input[{k}].type", f"Invalid value: '{kind}'. The offline model reads {reads}.")
        origins.paths |= {f"messages[{first + n}]": f"input[{k}]" for n in range(made, len(messages))}
    return messages


def _mcp_call(item: dict[str, Any], k: int) -> list[dict[str, Any]]:
    """A hosted MCP call passed back: the call and its result (or error) as the model read them."""
    arguments = str(item.get("arguments") or "{}")
    result = item.get("output") if item.get("error") is None else json.dumps({"error": item.get("error")})
    call_id = str(item.get("id") or f"mcp_{k}")
    return answered_call(call_id, str(item.get("name")), arguments, str(result or ""))


def _message(item: dict[str, Any], k: int) -> dict[str, Any]:
    role, content = item.get("role"), item.get("content")
    if role not in ("user", "system", "developer", "assistant"):
        roles = "'user', 'assistant', 'system', and 'developer'"
        raise invalid(f"input[{k}].role", f"Invalid value: '{role}'. Supported values are: {roles}.")
    if isinstance(content, list):
        for j, part in enumerate(content):
            if not text_part(part, TEXT_PARTS):
                only = 'The offline model reads only text content parts ({"type": "input_text", "text": …}).'
                raise invalid(f"input[{k}].content[{j}]", only)
        content = "\n".join(part["text"] for part in content)
    if not isinstance(content, str):
        where = f"input[{k}].content"
        raise invalid(where, f"Invalid '{where}': expected a string or text parts.")
    return {"role": role, "content": content}


def _call_id(item: dict[str, Any], k: int) -> str:
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        raise missing(f"input[{k}].call_id")
    return call_id


def _add_call(messages: list[dict[str, Any]], item: dict[str, Any], k: int) -> None:
    """A `function_call` item joins the assistant message before it, or starts one."""
    arguments = item.get("arguments")
    if not isinstance(arguments, str) or not isinstance(item.get("name"), str):
        needs = "a function_call needs 'name' and 'arguments' as a JSON string."
        raise invalid(f"input[{k}].arguments", f"Invalid 'input[{k}]': {needs}")
    call = chat_call(_call_id(item, k), item["name"], arguments)
    if messages and messages[-1]["role"] == "assistant":
        messages[-1].setdefault("tool_calls", []).append(call)
    else:
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})


def _output(item: dict[str, Any], k: int) -> str:
    output = item.get("output")
    if isinstance(output, list):  # text parts: joined, unless one holds something other than text
        texts = [part.get("text", "") for part in output if isinstance(part, dict)]
        output = "\n".join(texts) if all(isinstance(text, str) for text in texts) else None
    if not isinstance(output, str):
        raise invalid(f"input[{k}].output", f"Invalid 'input[{k}].output': expected a string.")
    return output


def _check_outputs(messages: list[dict[str, Any]]) -> None:
    """Every output answers a call made before it, and every call has an output (the API's words)."""
    open_calls: list[str] = []
    for message in [*messages, {"role": "user"}]:
        if message["role"] != "tool" and open_calls:
            raise invalid("input", f"No tool output found for function call {open_calls[0]}.")
        if message["role"] != "tool":
            open_calls = [call["id"] for call in message.get("tool_calls", [])]
        elif message["tool_call_id"] in open_calls:
            open_calls.remove(message["tool_call_id"])
        else:
            text = f"No tool call found for function call output with call_id {message['tool_call_id']}."
            raise invalid("input", text)


def _check_reasoning(items: list[dict[str, Any]], store: ResponseStore) -> None:
    """A call item that came with a reasoning item must be passed back with it."""
    given = {item.get("id") for item in items if item.get("type") == "reasoning"}
    for item in items:
        needed = store.reasoning_of.get(str(item.get("id")))
        if item.get("type") == "function_call" and needed and needed not in given:
            without = f"was provided without its required 'reasoning' item: '{needed}'."
            raise invalid("input", f"Item '{item['id']}' of type 'function_call' {without}")


def chat_tool(tool: Any, k: int) -> dict[str, Any]:
    """A Responses function tool ({"type", "name", "parameters", "strict"}) in Chat's shape."""
    if not isinstance(tool, dict) or tool.get("type") != "function":
        kind = tool.get("type") if isinstance(tool, dict) else tool
        message = f"Invalid value: '{kind}'. The offline model supports 'function' and 'mcp' tools."
        raise invalid(f"tools[{k}].type", message)
    keys = ("name", "description", "parameters", "strict")
    return {"type": "function", "function": {key: tool[key] for key in keys if tool.get(key) is not None}}


def output_items(body: dict[str, Any], thought: Thought) -> list[dict[str, Any]]:
    """The output items of a reply: an optional reasoning item, then a message or calls."""
    digest, reply = request_digest(body), thought.reply
    items: list[dict[str, Any]] = []
    if isinstance(body.get("reasoning"), dict) and body["reasoning"].get("effort") not in (None, "none"):
        items.append({"id": item_id("rs_", digest), "type": "reasoning", "summary": _summary(body, thought)})
    if reply.content is not None:
        text = {"type": "output_text", "text": reply.content, "annotations": [], "logprobs": []}
        message = {"id": item_id("msg_", digest), "type": "message", "role": "assistant"}
        items.append({**message, "status": "completed", "content": [text]})
    for k, call in enumerate(reply.calls):
        made = {"id": item_id("fc_", digest, k), "type": "function_call", "status": "completed"}
        items.append({**made, "call_id": call.id, "name": call.name, "arguments": call.arguments})
    return items


def _summary(body: dict[str, Any], thought: Thought) -> list[dict[str, str]]:
    if not body["reasoning"].get("summary"):
        return []
    names = ", ".join(call.name for call in thought.reply.calls)
    text = f"The request needs {names}." if names else "The request needs an answer in words."
    return [{"type": "summary_text", "text": text}]


def response_object(body: dict[str, Any], thought: Thought) -> dict[str, Any]:
    """The whole `response` object."""
    output = output_items(body, thought)
    prompt, made, cut = prompt_tokens(thought.request), tokens_of(output), thought.finish == "length"
    tokens_in = {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0}}
    tokens_out = {"output_tokens": made, "output_tokens_details": {"reasoning_tokens": 0}}
    return {
        "id": item_id("resp_", request_digest(body)),
        "object": "response",
        "created_at": CREATED,
        "status": "incomplete" if cut else "completed",
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "model": thought.request.model,
        "output": output,
        "parallel_tool_calls": thought.request.parallel_tool_calls,
        "previous_response_id": body.get("previous_response_id"),
        "reasoning": body.get("reasoning") or {"effort": None, "summary": None},
        "store": body.get("store", True) is not False,
        "temperature": body.get("temperature", 1.0),
        "text": body.get("text") or {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") or [],
        "top_p": body.get("top_p", 1.0),
        "truncation": "disabled",
        "usage": {**tokens_in, **tokens_out, "total_tokens": prompt + made},
        "user": None,
        "metadata": body.get("metadata") or {},
    }


def _as_chat(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Output items as the Chat Completions messages they continue a conversation with."""
    return input_messages(
        [item for item in output if item["type"] in ("message", "function_call")], Origins()
    )


def _reasoning_map(response: dict[str, Any]) -> dict[str, str]:
    reasoning = next((item["id"] for item in response["output"] if item["type"] == "reasoning"), None)
    calls = [item["id"] for item in response["output"] if item["type"] == "function_call"]
    return dict.fromkeys(calls, reasoning) if reasoning else {}
