"""Gemini's REST shape (`POST /v1beta/models/{model}:generateContent`) over the one understanding.

    >>> reply = generate("wirelab-offline", {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]})
    >>> reply["candidates"][0]["finishReason"], list(reply["candidates"][0]["content"]["parts"][0])
    ('STOP', ['text'])

`contents` are turns of `parts`: the model's turn holds `functionCall` parts (`name`, `args` as an
object, no id), and the next user turn holds one `functionResponse` part per call (`name`, `response` as
an object) - paired by name, in order, or by `id` when a call carries one. An error result is a
`response` with an `error` member. Tools are `functionDeclarations` (types may be upper case, as in
OpenAPI); `toolConfig.functionCallingConfig.mode` is AUTO, ANY (with `allowedFunctionNames`) or NONE.
`chunks` cuts a reply for `:streamGenerateContent?alt=sse`: text a word at a time, each call whole. The
real `google-genai` client talks to it with `HttpOptions(base_url="http://127.0.0.1:PORT",
api_version="v1beta")`. Left out: every other part kind (inline data, files, code execution), safety
ratings, candidate counts above 1. Errors have Google's shape (`error_body`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from wirelab.offline_model.request import RequestError, invalid
from wirelab.offline_model.wire.edge import Origins, Thought, think
from wirelab.offline_model.wire.wire_format import chat_call, hex_id, prompt_tokens, tokens_of, words_of

STATUS = {404: "NOT_FOUND", 408: "DEADLINE_EXCEEDED"}
PAIRING = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)
CALLING = "toolConfig.functionCallingConfig"
# Where the Chat Completions fields that a Gemini body fills come from in it.
PATHS = {
    "messages": "contents",
    "max_tokens": "generationConfig.maxOutputTokens",
    "tool_choice": CALLING,
    "tool_choice.function.name": f"{CALLING}.allowedFunctionNames",
}


def generate(model: str, body: Any) -> dict[str, Any]:
    """The `GenerateContentResponse` for a request body (raises `RequestError`)."""
    if not isinstance(body, dict):
        raise invalid(None, "Invalid JSON payload received. The body must be a JSON object.")
    return response_object(think(*to_chat(model, body)))


def to_chat(model: str, body: dict[str, Any]) -> tuple[dict[str, Any], Origins]:
    """The Chat Completions body for a Gemini body, and where its parts came from."""
    origins = Origins(dict(PATHS), {".function.": "."})
    messages = chat_messages(body.get("systemInstruction"), body.get("contents"), origins)
    chat: dict[str, Any] = {"model": model, "messages": messages}
    declarations = _declarations(body.get("tools"))
    origins.paths |= {f"tools[{k}]": where for k, (where, _) in enumerate(declarations)}
    if declarations:
        chat["tools"] = [chat_tool(declaration, where) for where, declaration in declarations]
        chat.update(_mode(body.get("toolConfig")))
    config = body.get("generationConfig") or {}
    if not isinstance(config, dict):
        raise invalid("generationConfig", "Invalid value at 'generation_config': expected an object.")
    if config.get("maxOutputTokens") is not None:
        chat["max_tokens"] = config["maxOutputTokens"]
    key = "responseJsonSchema" if config.get("responseJsonSchema") else "responseSchema"
    if config.get(key) is not None:
        schema = {"name": "response", "schema": lower_types(config[key])}
        chat["response_format"] = {"type": "json_schema", "json_schema": schema}
        origins.paths["response_format"] = f"generationConfig.{key}"
    return chat, origins


def _declarations(tools: Any) -> list[tuple[str, Any]]:
    """Every function declaration of `tools` (a list of {"functionDeclarations": [...]}), with
    where it sits."""
    if tools is None:
        return []
    if not isinstance(tools, list) or not all(
        isinstance(tool, dict) and isinstance(tool.get("functionDeclarations", []), list) for tool in tools
    ):
        expected = 'expected a list of {"functionDeclarations": [...]}.'
        raise invalid("tools", f"Invalid value at 'tools': {expected}")
    return [
        (f"tools[{t}].functionDeclarations[{d}]", declaration)
        for t, tool in enumerate(tools)
        for d, declaration in enumerate(tool.get("functionDeclarations", []))
    ]


def chat_messages(instruction: Any, contents: Any, origins: Origins) -> list[dict[str, Any]]:
    """The system instruction and the turns as Chat Completions messages, each functionResponse
    paired with a call; `origins` learns where each came from."""
    chat = _system(instruction)
    if not isinstance(contents, list) or not contents:
        raise invalid("contents", "* GenerateContentRequest.contents: contents is not specified")
    origins.paths |= {"messages[0]": "systemInstruction"} if chat else {}
    open_calls: list[tuple[str, str]] = []  # (id, name) of calls not answered yet
    for i, turn in enumerate(contents):
        role, parts = _read(turn, i)
        responses = [(j, p["functionResponse"]) for j, p in enumerate(parts) if "functionResponse" in p]
        if (open_calls or responses) and len(responses) != len(open_calls):
            raise invalid(f"contents[{i}]", PAIRING)
        for j, response in responses:
            origins.paths[f"messages[{len(chat)}]"] = f"contents[{i}].parts[{j}]"
            chat.append(_result(response, open_calls))
        calls = [(j, p["functionCall"]) for j, p in enumerate(parts) if "functionCall" in p]
        open_calls = [
            (str(c.get("id") or f"call_{i}_{k}"), c.get("name", "")) for k, (_, c) in enumerate(calls)
        ]
        text = "\n".join(str(p["text"]) for p in parts if "text" in p)
        origins.paths[f"messages[{len(chat)}]"] = f"contents[{i}]"
        if role == "model":
            tool_calls = []
            for n, ((j, call), (call_id, _)) in enumerate(zip(calls, open_calls, strict=True)):
                origins.paths[f"messages[{len(chat)}].tool_calls[{n}]"] = f"contents[{i}].parts[{j}]"
                arguments = json.dumps(call.get("args") or {}, ensure_ascii=False)
                tool_calls.append(chat_call(call_id, call.get("name"), arguments))
            message = {"role": "assistant", "content": text or None}
            chat.append({**message, "tool_calls": tool_calls} if calls else message)
        elif text:
            chat.append({"role": "user", "content": text})
    if open_calls:
        raise invalid("contents", PAIRING)
    return chat


def _system(instruction: Any) -> list[dict[str, Any]]:
    if instruction is None:
        return []
    parts = instruction.get("parts") if isinstance(instruction, dict) else None
    if not isinstance(parts, list) or not all(
        isinstance(p, dict) and isinstance(p.get("text"), str) for p in parts
    ):
        raise invalid("systemInstruction", "systemInstruction must be a Content with text parts.")
    return [{"role": "system", "content": "\n".join(p["text"] for p in parts)}]


def _read(turn: Any, i: int) -> tuple[str, list[dict[str, Any]]]:
    if not isinstance(turn, dict) or not isinstance(turn.get("parts"), list):
        where = f"contents[{i}]"
        raise invalid(where, f"* GenerateContentRequest.{where}.parts: contents.parts must not be empty.")
    role = turn.get("role", "user")
    if role not in ("user", "model"):
        raise invalid(f"contents[{i}].role", f"Please use a valid role: user, model. Got {role!r}.")
    kinds = {"text": str, "functionCall": dict, "functionResponse": dict}
    for j, part in enumerate(turn["parts"]):
        known = [k for k in kinds if isinstance(part, dict) and k in part]
        if not known or not all(isinstance(part[k], kinds[k]) for k in known):
            only = "The offline model reads text, functionCall and functionResponse parts only."
            raise invalid(f"contents[{i}].parts[{j}]", only)
    return role, turn["parts"]


def _result(response: dict[str, Any], open_calls: list[tuple[str, str]]) -> dict[str, Any]:
    """A functionResponse as a tool message, paired by id if it has one, else by name."""
    key = 0 if response.get("id") else 1
    wanted = response.get("id") or response.get("name")
    match = next((pair for pair in open_calls if pair[key] == wanted), None)
    if match is None:
        raise invalid("contents", f"{PAIRING} No call of {wanted!r} is waiting for a response.")
    open_calls.remove(match)
    content = json.dumps(response.get("response", {}), ensure_ascii=False)
    return {"role": "tool", "tool_call_id": match[0], "content": content}


def lower_types(schema: Any) -> Any:
    """An OpenAPI-style schema ('type': 'STRING') in JSON Schema's lower case."""
    if isinstance(schema, list):
        return [lower_types(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: (v.lower() if k == "type" and isinstance(v, str) else lower_types(v)) for k, v in schema.items()
    }


def chat_tool(declaration: Any, where: str) -> dict[str, Any]:
    """A function declaration, found at `where`, as a Chat Completions tool."""
    if not isinstance(declaration, dict) or not isinstance(declaration.get("name"), str):
        field = where.replace("functionDeclarations", "function_declarations")  # Gemini's own spelling
        raise invalid(f"{where}.name", f"* GenerateContentRequest.{field}.name: Name is required.")
    parameters = declaration.get("parametersJsonSchema") or lower_types(declaration.get("parameters"))
    function = {"name": declaration["name"], "description": declaration.get("description", "")}
    given = {"parameters": parameters} if parameters else {}
    return {"type": "function", "function": {**function, **given}}


def _mode(config: Any) -> dict[str, Any]:
    calling = (config or {}).get("functionCallingConfig") if isinstance(config or {}, dict) else config
    calling = calling or {}
    at = "Invalid value at 'tool_config.function_calling_config"
    if not isinstance(calling, dict):
        raise invalid("toolConfig", f"{at}': expected an object.")
    mode = calling.get("mode", "AUTO")
    if mode not in ("AUTO", "ANY", "NONE", "VALIDATED"):
        raise invalid("toolConfig", f"{at}.mode' ({mode!r}).")
    allowed = calling.get("allowedFunctionNames") or []
    if mode == "ANY" and isinstance(allowed, list) and len(allowed) == 1:
        return {"tool_choice": {"type": "function", "function": {"name": allowed[0]}}}
    return {"tool_choice": {"AUTO": "auto", "VALIDATED": "auto", "ANY": "required", "NONE": "none"}[mode]}


def response_object(thought: Thought) -> dict[str, Any]:
    parts = [{"text": thought.reply.content}] if thought.reply.content else []
    parts += [{"functionCall": {"name": c.name, "args": c.parsed() or {}}} for c in thought.reply.calls]
    prompt, made = prompt_tokens(thought.request), tokens_of(parts)
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": made, "totalTokenCount": prompt + made}
    finish = "MAX_TOKENS" if thought.finish == "length" else "STOP"
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish, "index": 0}],
        "usageMetadata": usage,
        "modelVersion": thought.request.model,
        "responseId": hex_id(thought.digest, "gemini", length=22),
    }


def chunks(whole: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The streamed responses: text a word at a time, each call whole, then the finish reason."""
    candidate, ids = whole["candidates"][0], {k: whole[k] for k in ("modelVersion", "responseId")}
    parts = candidate["content"]["parts"]
    pieces = [{"text": word} for part in parts if "text" in part for word in words_of(part["text"])]
    pieces += [part for part in parts if "functionCall" in part]
    for k, piece in enumerate(pieces):
        last = k == len(pieces) - 1
        finish = {"finishReason": candidate["finishReason"]} if last else {}
        usage = {"usageMetadata": whole["usageMetadata"]} if last else {}
        content = {"content": {"role": "model", "parts": [piece]}, "index": 0, **finish}
        yield {"candidates": [content], **usage, **ids}


def error_body(error: RequestError) -> dict[str, Any]:
    """Google's error shape: {"error": {"code", "message", "status"}}."""
    status = STATUS.get(error.status, "INTERNAL" if error.status >= 500 else "INVALID_ARGUMENT")
    return {"error": {"code": error.status, "message": error.message, "status": status}}
