"""Bad input to the four formats gets each API's error, never a crash: Hypothesis throws JSON of
every shape at the fields each format reads, in a body of any shape and beside a valid conversation."""

import copy
import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire import gemini_api, messages_api, responses_api
from wirelab.offline_model.wire.edge import complete

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "x", "user", "function"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "role",
                    "content",
                    "name",
                    "id",
                    "call_id",
                    "text",
                    "input",
                    "parts",
                    "functionCall",
                    "functionResponse",
                    "tool_use_id",
                    "arguments",
                    "output",
                    "args",
                ]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


def _answers_or_refuses(call, body):
    try:
        reply = call(body)
    except RequestError as error:
        assert 400 <= error.status < 500, error.message
        return
    json.dumps(reply)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON, JSON)
def test_a_responses_body_of_any_shape_is_answered_or_refused(input_items, tools, choice):
    body = {"model": "wirelab-offline", "input": input_items, "tools": tools, "tool_choice": choice}
    _answers_or_refuses(responses_api.respond, body)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON, JSON, JSON)
def test_a_messages_body_of_any_shape_is_answered_or_refused(messages, tools, choice, system):
    body = {
        "model": "wirelab-offline",
        "max_tokens": 50,
        "messages": messages,
        "tools": tools,
        "tool_choice": choice,
        "system": system,
    }
    _answers_or_refuses(messages_api.answer, body)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON, JSON)
def test_a_gemini_body_of_any_shape_is_answered_or_refused(contents, tools, config):
    body = {"contents": contents, "tools": tools, "toolConfig": config, "systemInstruction": config}
    _answers_or_refuses(lambda b: gemini_api.generate("wirelab-offline", b), body)


CALL_AND_OUTPUT = [
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok"},
]
VALID = {
    "chat": (complete, {"model": "wirelab-offline", "messages": [{"role": "user", "content": "hi"}]}),
    "responses": (responses_api.respond, {"model": "wirelab-offline", "input": CALL_AND_OUTPUT}),
    "messages": (
        messages_api.answer,
        {"model": "wirelab-offline", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]},
    ),
    "gemini": (
        lambda body: gemini_api.generate("wirelab-offline", body),
        {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
    ),
}
FIELDS = {
    "chat": ["fault", "tools", "tool_choice", "response_format", "stream_options", "max_tokens"],
    "responses": ["fault", "tools", "tool_choice", "text", "reasoning", "input.1.output"],
    "messages": ["fault", "tools", "tool_choice", "system", "max_tokens"],
    "gemini": ["tools", "toolConfig", "generationConfig", "systemInstruction"],
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(("chat", "fault"), [])  # once a TypeError: a fault name that cannot key a dict
@example(("messages", "tools"), 2)  # once a TypeError: tools that are not a list
@example(("responses", "input.1.output"), [{"text": 1}])  # once a TypeError: a text part that is not text
@given(st.sampled_from([(api, field) for api, fields in FIELDS.items() for field in fields]), JSON)
def test_one_bad_field_beside_a_valid_conversation_is_answered_or_refused(where, value):
    api, field = where
    call, body = VALID[api][0], copy.deepcopy(VALID[api][1])
    *path, last = field.split(".")
    target = body
    for key in path:
        target = target[int(key) if key.isdigit() else key]
    target[last] = value
    _answers_or_refuses(call, body)


def test_a_body_that_is_not_json_gets_each_apis_error_shape(server):
    import httpx2

    root = server.base_url.removesuffix("/v1")
    shapes = {
        "/v1/responses": lambda body: set(body["error"]) == {"message", "type", "param", "code"},
        "/v1/messages": lambda body: (
            body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
        ),
        "/v1beta/models/wirelab-offline:generateContent": lambda body: (
            body["error"]["status"] == "INVALID_ARGUMENT"
        ),
    }
    for path, shaped in shapes.items():
        reply = httpx2.post(root + path, content=b"{not json", headers={"content-type": "application/json"})
        assert reply.status_code == 400 and shaped(reply.json()), (path, reply.text)


def _refusal(call, body) -> RequestError:
    try:
        call(body)
    except RequestError as error:
        return error
    raise AssertionError("the body was answered, not refused")


def _gemini(body):
    return gemini_api.generate("wirelab-offline", body)


USE = {"type": "tool_use", "id": "a", "name": 7, "input": {}}  # a name that is not a string
CALLED = [
    {"role": "user", "content": "Plan the trip"},
    {"role": "assistant", "content": [{"type": "text", "text": "On it."}, USE]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "done"}]},
]
GEMINI_CALLED = [
    {"role": "user", "parts": [{"text": "Plan the trip"}]},
    {"role": "model", "parts": [{"text": "On it."}, {"functionCall": {"name": 7, "args": {}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": 7, "response": {}}}]},
]
STRING_SCHEMA = {"type": "string"}


def test_a_refusal_the_formats_share_names_the_field_the_client_sent():
    """A check that Chat Completions and the other formats share names the other format's own field,
    never the Chat Completions body it was rewritten into ('messages[1].tool_calls[0]', '.function.')."""
    messages = {"model": "wirelab-offline", "max_tokens": 50, "system": "Be brief.", "messages": CALLED}
    refusal = _refusal(messages_api.answer, messages)
    assert refusal.param == "messages.1.content.1.name"
    assert "'messages.1.content.1.name'" in refusal.message
    tool = {"name": "plan", "input_schema": STRING_SCHEMA}
    refusal = _refusal(messages_api.answer, {**messages, "messages": CALLED[:1], "tools": [tool, tool]})
    assert refusal.param == "tools.0.input_schema" and "'tools.0'" in refusal.message
    refusal = _refusal(
        messages_api.answer, {**messages, "messages": CALLED[:1], "tools": [{**tool, "name": "a b"}]}
    )
    assert "'tools.0.name'" in refusal.message and "function" not in refusal.message

    gemini = {"systemInstruction": {"parts": [{"text": "Be brief."}]}, "contents": GEMINI_CALLED}
    refusal = _refusal(_gemini, gemini)
    assert refusal.param == "contents[1].parts[1].name" and "'contents[1].parts[1].name'" in refusal.message
    declarations = [{"name": "plan"}, {"name": "book", "parameters": STRING_SCHEMA}]
    tools = [{"functionDeclarations": [{"name": "x"}]}, {"functionDeclarations": declarations}]
    asked = {"contents": GEMINI_CALLED[:1], "tools": tools}
    refusal = _refusal(_gemini, asked)
    assert refusal.param == "tools[1].functionDeclarations[1].parameters"
    assert "'tools[1].functionDeclarations[1]'" in refusal.message
    refusal = _refusal(_gemini, {**asked, "tools": [], "generationConfig": {"maxOutputTokens": 0}})
    assert "'generationConfig.maxOutputTokens'" in refusal.message and "max_tokens" not in refusal.message

    refusal = _refusal(
        responses_api.respond, {"model": "wirelab-offline", "input": "hi", "max_output_tokens": 0}
    )
    assert refusal.param == "max_output_tokens" and "'max_output_tokens'" in refusal.message


def test_a_gemini_declaration_without_a_name_is_named_by_its_own_index():
    """Once always 'function_declarations[0]', whichever declaration lacked the name."""
    tools = [{"functionDeclarations": [{"name": "plan"}]}, {"functionDeclarations": [{"name": "book"}, {}]}]
    refusal = _refusal(_gemini, {"contents": GEMINI_CALLED[:1], "tools": tools})
    assert refusal.param == "tools[1].functionDeclarations[1].name"
    assert (
        "GenerateContentRequest.tools[1].function_declarations[1].name: Name is required" in refusal.message
    )


def test_a_tool_choice_naming_a_function_by_a_list_is_refused():
    """Once a TypeError (a 500): the name was looked up in a set of the tools' names."""
    tools = [{"type": "function", "function": {"name": "brew"}}]
    choice = {"type": "function", "function": {"name": ["brew"]}}
    body = {**VALID["chat"][1], "tools": tools, "tool_choice": choice}
    assert _refusal(complete, body).param == "tool_choice.function.name"
