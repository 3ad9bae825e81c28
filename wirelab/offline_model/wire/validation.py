"""Check a Chat Completions request the way the real API does, and read it into plain data.

`read_request(body)` returns a `request.Request` or raises `RequestError` naming the offending
parameter in the API's own style, e.g.

    RequestError(400, "Invalid parameter: messages with role 'tool' must be a response
                 to a preceding message with 'tool_calls'.", "messages[2].tool_call_id")

What is checked: the shape of `messages` (roles, contents, tool calls and the results that
answer them), `tools` (at most `MAX_TOOLS`, distinct names, and parameters that are a valid JSON
Schema of type object, as `tool_schemas` checks them), `tool_choice`, `parallel_tool_calls`,
`stream_options`, and the ranges of the sampling parameters. Other OpenAI parameters (`seed`,
`stop`, `user`, …) are accepted and ignored. The HTTP layer (body size, JSON syntax) is in `server.py`.
"""

from __future__ import annotations

import re
from typing import Any

from wirelab.offline_model.faults import FAULTS
from wirelab.offline_model.request import MODEL_ID, Call, Message, Request, RequestError, Tool, invalid
from wirelab.offline_model.wire.tool_schemas import schema_problem

ROLES = ("system", "developer", "user", "assistant", "tool")
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
RANGES = {"temperature": (0, 2), "top_p": (0, 1), "presence_penalty": (-2, 2), "frequency_penalty": (-2, 2)}
MAX_TOOLS = 128  # the real API's limit


def read_request(body: Any) -> Request:
    """Validate a request body and read it into a `Request` (raises `RequestError`)."""
    if not isinstance(body, dict):
        raise invalid(None, "The request body must be a JSON object.")
    model, fault = read_model(body.get("model"), body.get("fault"))
    _check_sampling(body)
    tools = read_tools(body.get("tools"))
    choice, forced = read_tool_choice(body, tools)
    stream = _flag(body, "stream", False)
    return Request(
        model=model,
        fault=fault,
        messages=read_messages(body.get("messages")),
        tools=tools,
        tool_choice=choice,
        forced=forced,
        parallel_tool_calls=_parallel(body, tools),
        include_usage=_include_usage(body, stream),
        max_tokens=_max_tokens(body),
    )


def missing(param: str) -> RequestError:
    """A 400 for a required parameter the body leaves out, in the API's words."""
    return invalid(param, f"Missing required parameter: '{param}'.", "missing_required_parameter")


def read_model(model: Any, fault: Any) -> tuple[str, str | None]:
    """The model id and the fault it names: 'wirelab-offline/unknown_tool' -> fault 'unknown_tool'."""
    if not isinstance(model, str) or not model:
        raise invalid("model", "you must provide a model parameter", "missing_required_parameter")
    base, _, suffix = model.partition("/")
    if base != MODEL_ID:
        use = f"use `{MODEL_ID}` or `{MODEL_ID}/<fault>`."
        message = f"The model `{model}` does not exist. This server is the offline model: {use}"
        raise RequestError(404, message, "model", "model_not_found")
    for param, name in (("model", suffix), ("fault", fault)):
        if name not in (None, "") and (not isinstance(name, str) or name not in FAULTS):
            raise invalid(param, f"Unknown fault {name!r}. Valid faults: {', '.join(FAULTS)}.")
    if suffix and fault and suffix != fault:
        raise invalid("fault", f"The model names fault {suffix!r} but 'fault' is {fault!r}.")
    return model, suffix or fault or None


def _check_sampling(body: dict[str, Any]) -> None:
    for name, (low, high) in RANGES.items():
        value = body.get(name)
        if value is not None and (not _is_number(value) or not low <= value <= high):
            message = f"Invalid '{name}': expected a number from {low} to {high}, got {value!r}."
            raise invalid(name, message, "decimal_out_of_range" if _is_number(value) else None)
    if body.get("n") is not None and body["n"] != 1:
        message = "The offline model writes exactly one choice: leave 'n' out or set it to 1."
        raise invalid("n", f"Invalid 'n': {body['n']!r}. {message}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_messages(messages: Any) -> tuple[Message, ...]:
    """Check `messages` and flatten each one; tool results must answer earlier tool calls."""
    if messages is None:
        raise missing("messages")
    if not isinstance(messages, list) or not messages:
        raise invalid("messages", "Invalid 'messages': expected a non-empty array of messages.")
    read = tuple(read_message(m, f"messages[{i}]") for i, m in enumerate(messages))
    _check_pairing(read)
    return read


def read_message(message: Any, where: str) -> Message:
    """One message, checked: role, content, tool calls, tool_call_id."""
    if not isinstance(message, dict):
        raise invalid(where, f"Invalid '{where}': expected an object with a 'role'.")
    role = message.get("role")
    if role not in ROLES:
        supported = f"{role!r}. Supported values are: {', '.join(map(repr, ROLES))}."
        raise invalid(f"{where}.role", f"Invalid value for '{where}.role': {supported}")
    calls = read_tool_calls(message.get("tool_calls"), f"{where}.tool_calls") if role == "assistant" else ()
    text = read_content(message.get("content"), f"{where}.content", may_be_empty=role == "assistant")
    call_id = message.get("tool_call_id")
    if role == "tool" and (not isinstance(call_id, str) or not call_id):
        raise missing(f"{where}.tool_call_id")
    return Message(role, text, calls, call_id if role == "tool" else None)


def read_content(content: Any, where: str, may_be_empty: bool) -> str:
    """A string, or a list of text parts joined with newlines."""
    if content is None and may_be_empty:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise invalid(where, f"Invalid '{where}': expected a string or an array of text parts.")
    for j, part in enumerate(content):
        if not text_part(part):
            message = 'the offline model reads only text parts, {"type": "text", "text": "…"}.'
            raise invalid(f"{where}[{j}]", f"Invalid '{where}[{j}]': {message}")
    return "\n".join(part["text"] for part in content)


def text_part(part: Any, kinds: tuple[str, ...] = ("text",)) -> bool:
    """Whether `part` is a content part of text: {"type": "text", "text": "…"}, or of another of `kinds`."""
    return isinstance(part, dict) and part.get("type") in kinds and isinstance(part.get("text"), str)


def read_tool_calls(calls: Any, where: str) -> tuple[Call, ...]:
    """The `tool_calls` of an assistant message; `arguments` must be a JSON string."""
    if calls is None:
        return ()
    if not isinstance(calls, list):
        raise invalid(where, f"Invalid '{where}': expected an array of tool calls.")
    return tuple(_read_call(call, f"{where}[{j}]") for j, call in enumerate(calls))


def _read_call(call: Any, where: str) -> Call:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        raise missing(f"{where}.id")
    if call.get("type", "function") != "function":
        raise invalid(f"{where}.type", f"Invalid value for '{where}.type': only 'function'.")
    function = call.get("function")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise missing(f"{where}.function.name")
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        where, got = f"{where}.function.arguments", type(arguments).__name__
        message = f"expected a string (JSON text), but got {got}. Send json.dumps(arguments)."
        raise invalid(where, f"Invalid type for '{where}': {message}", "invalid_type")
    return Call(call["id"], function["name"], arguments)


def _check_pairing(messages: tuple[Message, ...]) -> None:
    """Every tool result answers an earlier call; every call is answered before the next turn."""
    open_calls: dict[str, int] = {}
    for i, message in enumerate((*messages, Message("user", ""))):
        if message.role == "tool" and message.tool_call_id not in open_calls:
            raise invalid(
                f"messages[{i}].tool_call_id",
                "Invalid parameter: messages with role 'tool' must be a response to a preceding message "
                f"with 'tool_calls': no open tool call has id {message.tool_call_id!r}.",
            )
        if message.role == "tool":
            del open_calls[message.tool_call_id]
        elif open_calls:
            raise invalid(
                f"messages[{next(iter(open_calls.values()))}].tool_calls",
                "An assistant message with 'tool_calls' must be followed by tool messages responding to "
                f"each 'tool_call_id'. These ids have no response: {', '.join(open_calls)}.",
            )
        else:
            open_calls = {call.id: i for call in message.tool_calls}


def read_tools(tools: Any) -> tuple[Tool, ...]:
    """Check `tools`: at most `MAX_TOOLS` function tools with distinct names and valid schemas."""
    if tools is None:
        return ()
    if not isinstance(tools, list):
        raise invalid("tools", "Invalid 'tools': expected an array of tools.")
    if len(tools) > MAX_TOOLS:
        got = f"Expected an array with maximum length {MAX_TOOLS}, but got an array with length {len(tools)}"
        raise invalid("tools", f"Invalid 'tools': array too long. {got} instead.", "array_above_max_length")
    read = tuple(read_tool(tool, f"tools[{k}]") for k, tool in enumerate(tools))
    names = [tool.name for tool in read]
    for k, name in enumerate(names):
        if name in names[:k]:
            message = f"Duplicate tool name {name!r}: each tool needs a distinct name."
            raise invalid(f"tools[{k}].function.name", message)
    return read


def read_tool(tool: Any, where: str) -> Tool:
    """One tool: {"type": "function", "function": {"name", "description", "parameters"}}."""
    if not isinstance(tool, dict) or tool.get("type") != "function":
        kind = tool.get("type") if isinstance(tool, dict) else tool
        message = f"{kind!r}. The offline model supports only 'function' tools."
        raise invalid(f"{where}.type", f"Invalid value for '{where}.type': {message}")
    function = tool.get("function")
    if not isinstance(function, dict):
        raise missing(f"{where}.function")
    name, description = function.get("name"), function.get("description", "")
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        message = f"Invalid '{where}.function.name': {name!r} does not match '^[a-zA-Z0-9_-]{{1,64}}$'."
        raise invalid(f"{where}.function.name", message)
    if not isinstance(description, str):
        field = f"{where}.function.description"
        raise invalid(field, f"Invalid '{field}': expected a string.")
    parameters = function.get("parameters")
    problem = None if parameters is None else schema_problem(parameters)
    if problem:
        message = f"Invalid schema for function at '{where}': {problem}"
        raise invalid(f"{where}.function.parameters", message, "invalid_function_parameters")
    return Tool(name, description, {"type": "object", "properties": {}} if parameters is None else parameters)


def read_tool_choice(body: dict[str, Any], tools: tuple[Tool, ...]) -> tuple[str, bool]:
    """("auto" | "none" | "required" | a tool's name, whether a call is forced)."""
    choice = body.get("tool_choice")
    if choice is None:
        return ("auto" if tools else "none"), False
    if not tools:
        message = "'tool_choice' is only allowed when 'tools' are specified."
        raise invalid("tool_choice", f"Invalid value for 'tool_choice': {message}")
    if choice in ("auto", "none", "required"):
        return choice, choice == "required"
    named = isinstance(choice, dict) and choice.get("type") == "function"
    function = choice.get("function") if named else None
    name = function.get("name") if isinstance(function, dict) else None
    if name is None:
        expected = '\'auto\', \'none\', \'required\' or {"type": "function", "function": {"name": …}}.'
        raise invalid("tool_choice", f"Invalid value for 'tool_choice': expected {expected}")
    if name not in [tool.name for tool in tools]:  # a list: `name` may be any JSON value
        message = f"no function named {name!r} was specified in the 'tools' parameter."
        raise invalid("tool_choice.function.name", f"Invalid value for 'tool_choice': {message}")
    return name, True


def _parallel(body: dict[str, Any], tools: tuple[Tool, ...]) -> bool:
    if body.get("parallel_tool_calls") is not None and not tools:
        message = "'parallel_tool_calls' is only allowed when 'tools' are specified."
        raise invalid("parallel_tool_calls", f"Invalid value for 'parallel_tool_calls': {message}")
    return _flag(body, "parallel_tool_calls", True)


def _flag(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise invalid(name, f"Invalid type for '{name}': expected a boolean, got {value!r}.", "invalid_type")
    return value


def _include_usage(body: dict[str, Any], stream: bool) -> bool:
    options = body.get("stream_options")
    if options is None:
        return False
    if not stream:
        only = "The 'stream_options' parameter is only allowed when 'stream' is enabled."
        raise invalid("stream_options", only)
    if not isinstance(options, dict):
        raise invalid("stream_options", "Invalid 'stream_options': expected an object.")
    return _flag(options, "include_usage", False)


def _max_tokens(body: dict[str, Any]) -> int | None:
    limits = [(n, body[n]) for n in ("max_completion_tokens", "max_tokens") if body.get(n) is not None]
    for name, value in limits:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            message = f"Invalid '{name}': expected an integer of at least 1, got {value!r}."
            raise invalid(name, message, "integer_below_min_value")
    return limits[0][1] if limits else None
