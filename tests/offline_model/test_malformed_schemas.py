"""Malformed tools and schemas get a clear 400 naming the field, never a 500, and the same one in every
process. Each case once crashed the server: a strict function read before its tool was checked, a
`response_format` schema used before it was checked, an enum option that cannot key a dict, a hosted MCP
URL that does not parse; and which of two schema problems was named depended on PYTHONHASHSEED."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from tests.offline_model.test_hardening import guarded
from wirelab.offline_model import MODEL_ID
from wirelab.offline_model.budget import Budget
from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire import hosted_mcp, messages_api, responses_api
from wirelab.offline_model.wire.edge import complete

ASK = [{"role": "user", "content": "Brew a green tea for four minutes"}]
LEAVES = {
    "type": "object",
    "properties": {"leaf": {"type": "string"}},
    "required": ["leaf"],
    "additionalProperties": False,
}


def _strict(**function) -> dict:
    return {
        "type": "function",
        "function": {"name": "brew_tea", "strict": True, "parameters": LEAVES, **function},
    }


def _answer_format(schema: dict) -> dict:
    return {"type": "json_schema", "json_schema": {"name": "pot", "schema": schema}}


def _two_problems(order: slice) -> dict:
    """A schema with two problems, in `order`: a type that does not exist, a property schema of a string."""
    problems = [("leaf", {"type": "kettle"}), ("pot", "none")][order]
    return {"type": "object", "properties": dict(problems)}


CRASHED = {
    "a strict function named by a list": (
        {"tools": [_strict(name=["brew_tea"])]},
        "tools[0].function.name",
        "does not match",
    ),
    "a strict function without a name": (
        {"tools": [{"type": "function", "function": {"strict": True, "parameters": LEAVES}}]},
        "tools[0].function.name",
        "does not match",
    ),
    "a string beside a strict function": (
        {"tools": [_strict(), "oops"]},
        "tools[1].type",
        "only 'function' tools",
    ),
    "a strict schema whose required is a number": (
        {"tools": [_strict(parameters={**LEAVES, "required": 2})]},
        "tools[0].function.parameters",
        "parameters.required: 2 is not of type 'array'",
    ),
    "a strict schema whose $defs is a list": (
        {"tools": [_strict(parameters={**LEAVES, "$defs": [{"type": "string"}]})]},
        "tools[0].function.parameters",
        "'$defs'",
    ),
    "a strict schema whose items are an array of schemas": (
        {"tools": [_strict(parameters={**LEAVES, "properties": {"leaf": {"type": "array", "items": [{}]}}})]},
        "tools[0].function.parameters",
        "'items' is required to be an object schema",
    ),
    "a strict schema with an empty enum": (
        {"tools": [_strict(parameters={**LEAVES, "properties": {"leaf": {"type": "string", "enum": []}}})]},
        "tools[0].function.parameters",
        "'enum' is required to list at least one value",
    ),
    "an answer schema whose $ref leads nowhere": (
        {
            "response_format": _answer_format(
                {"type": "object", "properties": {"pot": {"$ref": "#/$defs/pot"}}}
            )
        },
        "response_format",
        "the $ref '#/$defs/pot' does not resolve",
    ),
    "an answer schema whose property schema is a string": (
        {"response_format": _answer_format({"type": "object", "properties": {"pot": "teapot"}})},
        "response_format",
        "schema.properties.pot: 'teapot' is not of type 'object', 'boolean'",
    ),
    "an answer schema with a type that does not exist": (
        {"response_format": _answer_format({"type": "object", "properties": {"pot": {"type": "kettle"}}})},
        "response_format",
        "schema.properties.pot.type: 'kettle' is not valid",
    ),
}


@pytest.mark.parametrize("name", list(CRASHED))
def test_a_malformed_tool_or_schema_is_refused_with_400_naming_the_field(server, name):
    fields, param, said = CRASHED[name]
    reply = httpx2.post(
        f"{server.base_url}/chat/completions", json={"model": MODEL_ID, "messages": ASK, **fields}
    )
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == param and said in error["message"], error


def test_a_strict_array_longer_than_a_reply_can_hold_is_stopped_by_the_requests_budget():
    """Once minutes of CPU: `conform` wrote ten million items to meet `minItems`.

    A small budget, once the request's libraries are loaded (three items first), so that a busy
    machine's slower CPU seconds still end well inside the guard's wall-clock limit."""
    pots = {"type": "array", "items": {"type": "string"}, "minItems": 3}
    tool = _strict(parameters={**LEAVES, "properties": {"leaf": pots}})
    body = {"model": MODEL_ID, "messages": ASK, "tools": [tool], "tool_choice": "required"}
    (call,) = complete(body)["choices"][0]["message"]["tool_calls"]
    assert len(json.loads(call["function"]["arguments"])["leaf"]) == 3
    pots["minItems"] = 10_000_000
    refused = guarded(lambda: Budget(cpu_seconds=0.5).run(complete, body))
    assert isinstance(refused, RequestError) and refused.code == "request_too_complex"


def test_an_enum_holding_an_object_is_answered_and_its_other_options_still_bind():
    """JSON Schema allows any JSON value in an enum, so the request is valid; no words name an object."""
    options = {"type": "string", "enum": ["green", {"kind": "oolong"}, ["black"]]}
    schema = {"type": "object", "properties": {"leaf": options}, "required": ["leaf"]}
    tool = {
        "type": "function",
        "function": {"name": "brew_tea", "description": "Brew a pot of tea.", "parameters": schema},
    }
    reply = complete({"model": MODEL_ID, "messages": ASK, "tools": [tool]})
    (call,) = reply["choices"][0]["message"]["tool_calls"]
    assert json.loads(call["function"]["arguments"]) == {"leaf": "green"}


@pytest.mark.parametrize("url", ["http://[::1", "http://[127.0.0.1]/mcp", "http://127.0.0.1:port/mcp"])
def test_a_hosted_mcp_url_that_does_not_parse_is_refused_naming_it(url):
    tool = {"type": "mcp", "server_label": "pantry", "server_url": url, "require_approval": "never"}
    with pytest.raises(RequestError) as refused:
        responses_api.respond({"model": MODEL_ID, "input": "What tea is left?", "tools": [tool]})
    assert refused.value.status == 400 and refused.value.param == "tools[0].server_url"
    assert "is not a URL" in refused.value.message


class Pantry:
    """An MCP server's side as hosted MCP reaches it: one tool, which answers."""

    def list_tools(self, url: str) -> list[dict]:
        teas = {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]}
        return [
            {"name": "list_teas", "description": "List the teas left in the pantry.", "inputSchema": teas}
        ]

    def call_tool(self, url: str, name: str, arguments: dict) -> dict:
        return {"content": [{"type": "text", "text": "sencha, oolong"}]}


@pytest.fixture
def pantry():
    kept = list(hosted_mcp._connector)
    hosted_mcp.use_mcp_client(Pantry())
    yield
    hosted_mcp._connector[:] = kept


@pytest.mark.parametrize(
    "field, value, param",
    [
        ("require_approval", {"never": 2.5}, "tools[0].require_approval"),
        ("require_approval", {"never": {"tool_names": "list_teas"}}, "tools[0].require_approval.never"),
        ("allowed_tools", 5, "tools[0].allowed_tools"),
        ("allowed_tools", {"tool_names": 3}, "tools[0].allowed_tools"),
        ("allowed_tools", "list_teas", "tools[0].allowed_tools"),
    ],
)
def test_a_hosted_mcp_tool_filter_of_another_shape_is_refused_naming_it(pantry, field, value, param):
    """Once a crash (a number read as a filter) or a string read letter by letter as a list of names."""
    tool = {"type": "mcp", "server_label": "pantry", "server_url": "http://127.0.0.1:9/mcp", field: value}
    with pytest.raises(RequestError) as refused:
        responses_api.respond({"model": MODEL_ID, "input": "List the oolong teas left", "tools": [tool]})
    assert refused.value.status == 400 and refused.value.param == param
    assert "tool_names" in refused.value.message


def test_a_listing_passed_back_with_a_label_that_is_no_string_is_refused(pantry):
    """Once a TypeError (a 500): the labels of the servers already listed were kept in a set."""
    tool = {"type": "mcp", "server_label": "pantry", "server_url": "http://127.0.0.1:9/mcp"}
    listing = {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": {"name": "pantry"}, "tools": []}
    ask = {"role": "user", "content": "List the oolong teas left"}
    with pytest.raises(RequestError) as refused:
        responses_api.respond({"model": MODEL_ID, "input": [listing, ask], "tools": [tool]})
    assert refused.value.status == 400 and refused.value.param == "input[0].server_label"


def test_a_messages_tool_choice_naming_a_tool_by_an_object_is_refused():
    """Once a TypeError (a 500): the name was looked up in a set of the tools' names."""
    tool = {"name": "brew_tea", "description": "Brew a pot of tea.", "input_schema": LEAVES}
    body = {"model": MODEL_ID, "max_tokens": 50, "messages": ASK, "tools": [tool]}
    with pytest.raises(RequestError) as refused:
        messages_api.answer({**body, "tool_choice": {"type": "tool", "name": {"name": "brew_tea"}}})
    assert refused.value.status == 400 and refused.value.param == "tool_choice"


PROBLEMS_NAMED = """
import json, sys
from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire.edge import complete
for fields in json.loads(sys.argv[1]):
    try:
        complete({"model": "wirelab-offline", "messages": [{"role": "user", "content": "Tea?"}], **fields})
    except RequestError as error:
        print(error.message)
"""


def test_of_two_schema_problems_the_first_in_the_document_is_named_in_every_process():
    """Both checks once iterated a set of property names, so the problem named depended on the hash seed."""
    bodies = []
    for order in (slice(None), slice(None, None, -1)):
        tool = {"type": "function", "function": {"name": "brew_tea", "parameters": _two_problems(order)}}
        bodies += [{"tools": [tool]}, {"response_format": _answer_format(_two_problems(order))}]
    named = set()
    for seed in range(4):
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(Path(__file__).parents[2])}
        run = subprocess.run(
            [sys.executable, "-c", PROBLEMS_NAMED, json.dumps(bodies)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        named.add(run.stdout)
    (messages,) = named
    lines = messages.splitlines()
    assert len(lines) == 4
    assert all("properties.leaf.type" in line for line in lines[:2])
    assert all("properties.pot: 'none'" in line for line in lines[2:])
