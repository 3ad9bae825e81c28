"""One understanding for every wire format: a Chat Completions body in, the model's reply out.

    >>> thought = think({"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]})
    >>> thought.finish, thought.reply.calls
    ('stop', ())

Each other format (the Responses API, Anthropic's Messages, Gemini) is first rewritten as a Chat
Completions body at the edge of the server, so every format is understood by the same pipeline
(`policy.decide`) and differs only in its wire shape; its `Origins` name the fields a shared check
refuses in the format's own words. Added here for every format: strict mode (`strict: true` on a
function: `strict.strict_problem` checks the schema, `strict.conform` makes the arguments fit, and
when every tool is strict the faults that spoil a call's shape or name do not happen) and a final
answer that is JSON of a given schema (`response_format` of type `json_schema`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from wirelab.offline_model.faults import FIRST_CALL_FAULTS
from wirelab.offline_model.policy import decide
from wirelab.offline_model.request import Call, Message, Request, RequestError, Tool, compact, invalid
from wirelab.offline_model.wire.strict import answer_schema_problem, conform, strict_problem
from wirelab.offline_model.wire.validation import read_request
from wirelab.offline_model.wire.wire_format import Thought, chunks, completion, request_digest, written


@dataclass
class Origins:
    """Where the parts of a rewritten Chat Completions body came from in the client's format:
    `paths` maps a Chat path to the format's ({"tools[0]": "tools.0"}), `fields` renames what
    follows it ({".function.parameters": ".input_schema"}), in order."""

    paths: dict[str, str] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)

    def renamed(self, error: RequestError) -> RequestError:
        """`error` with its Chat paths (in `param`, and quoted in its message) named as the client's."""
        param = error.param or ""
        starts = [p for p in self.paths if param == p or param.startswith((p + ".", p + "["))]
        if not starts:
            return error
        start = max(starts, key=len)
        rest = param[len(start) :]
        for chat, own in self.fields.items():
            rest = rest.replace(chat, own)
        own = self.paths[start] + rest
        message = error.message.replace(f"'{param}'", f"'{own}'")
        for chat, path in self.paths.items():
            message = message.replace(f"'{chat}'", f"'{path}'")
        return RequestError(error.status, message, own, error.code)


def think(body: Any, origins: Origins | None = None) -> Thought:
    """Read a Chat Completions body (raises `RequestError`, named by `origins` when the body was rewritten
    from another format) and decide the reply: calls with ids, strict calls fitted, cut to max tokens."""
    try:
        request = read_request(body)
        strict = strict_tools(body)
        request = _optional_nulls(request, strict)
        answer_schema = answer_format(body)
        digest = request_digest(body)
        if strict and len(strict) == len(request.tools) and request.fault in FIRST_CALL_FAULTS:
            request = replace(request, fault=None)  # constrained decoding cannot write these mistakes
        reply = decide(request)
    except RecursionError as error:
        raise RequestError(400, "The request is nested too deeply for the offline model to read.") from error
    except RequestError as error:
        raise (origins.renamed(error) if origins else error) from None
    reply = replace(reply, calls=tuple(_fitted(call, strict) for call in reply.calls))
    if answer_schema is not None and reply.content is not None:
        reply = replace(reply, content=structured_answer(request, reply.content, answer_schema))
    return written(request, reply, digest)


def complete(body: Any) -> dict[str, Any]:
    """The `chat.completion` for a body, strict mode and `response_format` included."""
    return completion(think(body))


def stream(body: Any) -> Iterator[dict[str, Any]]:
    """The `chat.completion.chunk`s for a body; checked before the first chunk."""
    return chunks(think(body))


def strict_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The schemas of the functions marked `strict: true`, by name, from a body `read_request` has
    checked; a 400 for one strict mode refuses."""
    strict: dict[str, dict[str, Any]] = {}
    for k, tool in enumerate(body.get("tools") or []):
        function = tool["function"]
        if function.get("strict") is not True:
            continue
        problem = strict_problem(function.get("parameters"))
        if problem:
            message = f"Invalid schema for function '{function['name']}': {problem}"
            raise invalid(f"tools[{k}].function.parameters", message, "invalid_function_parameters")
        strict[function["name"]] = function["parameters"]
    return strict


def _optional_nulls(request: Request, strict: dict[str, dict[str, Any]]) -> Request:
    """The request as the pipeline reads it: in a strict function, a property that may be null is how
    strict mode writes an optional one, so it is left out of `required` (the pipeline asks for no
    value the user need not give); `conform` writes it as null after."""
    if not strict:
        return request
    tools = tuple(
        replace(tool, parameters=relaxed(tool.parameters)) if tool.name in strict else tool
        for tool in request.tools
    )
    return replace(request, tools=tools)


def relaxed(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every nullable property left out of `required`."""
    properties = schema.get("properties") or {}
    required = [name for name in schema.get("required", []) if not _nullable(properties.get(name, {}))]
    return {**schema, "required": required}


def _nullable(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    options = schema.get("anyOf") or []
    return "null" in kinds or None in (schema.get("enum") or [0]) or any(_nullable(o) for o in options)


def answer_format(body: dict[str, Any]) -> dict[str, Any] | None:
    """The schema a final answer must follow (`response_format` of type json_schema), if any."""
    fmt = body.get("response_format")
    if fmt is None or (isinstance(fmt, dict) and fmt.get("type") in ("text", "json_object")):
        return None  # JSON mode (json_object) promises only syntax; the offline model's answer is left as is
    spec = fmt.get("json_schema") if isinstance(fmt, dict) and fmt.get("type") == "json_schema" else None
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise invalid(
            "response_format",
            'Invalid \'response_format\': expected {"type": "text"}, {"type": "json_object"} or '
            '{"type": "json_schema", "json_schema": {"name": …, "schema": {…}, "strict": true}}.',
        )
    schema = spec.get("schema")
    problem = answer_schema_problem(schema, strict=spec.get("strict") is True)
    if problem:
        message = f"Invalid schema for response_format '{spec['name']}': {problem}"
        raise invalid("response_format", message, "invalid_json_schema")
    return schema


def _fitted(call: Call, strict: dict[str, dict[str, Any]]) -> Call:
    """The call, with its arguments made to fit the schema when its function is strict."""
    schema = strict.get(call.name)
    return call if schema is None else replace(call, arguments=compact(conform(call.parsed() or {}, schema)))


def structured_answer(request: Request, prose: str, schema: dict[str, Any]) -> str:
    """The final answer as JSON of `schema`: the values the pipeline binds from the question and
    the prose answer to the schema's properties, then fitted to the schema."""
    said = [m for m in request.messages if m.role in ("system", "developer", "user")]
    asked = replace(
        request,
        messages=(*said, Message("user", prose)),
        tools=(Tool("answer", schema.get("description", ""), schema),),
        tool_choice="answer",
        forced=True,
        fault=None,
    )
    calls = decide(asked).calls
    values = (calls[0].parsed() if calls else None) or {}
    return json.dumps(conform(values, schema), ensure_ascii=False)
