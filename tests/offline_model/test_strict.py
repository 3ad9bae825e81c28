"""Strict mode: arguments always validate, refused schemas get the provider's error, and a
`json_schema` answer format gives JSON that validates (Hypothesis draws the schemas)."""

import json

import openai
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from wirelab.offline_model.request import RequestError
from wirelab.offline_model.wire.edge import complete
from wirelab.offline_model.wire.strict import strict_problem

NAMES = st.sampled_from(["city", "unit", "count", "when", "tags", "limit", "note", "kind", "email", "code"])
ASKS = st.sampled_from(
    [
        "What is the weather in Paris in celsius?",
        "Book 3 tickets for 2026-05-01 under the name Ada",
        "Send a note to bob@example.com saying hello",
        "List 12 items tagged red and blue",
        "明天上海的天气怎么样？",
        "Hi",
    ]
)
LEAVES = st.one_of(
    st.just({"type": "string"}),
    st.builds(
        lambda p: {"type": "string", "pattern": p}, st.sampled_from(["^[A-Z]{2}-\\d{3}$", "^(red|blue)+$"])
    ),
    st.builds(
        lambda f: {"type": "string", "format": f}, st.sampled_from(["date", "email", "uuid", "date-time"])
    ),
    st.builds(
        lambda lo, hi: {"type": "integer", "minimum": lo, "maximum": lo + hi},
        st.integers(-5, 5),
        st.integers(0, 9),
    ),
    st.builds(
        lambda m: {"type": "number", "exclusiveMinimum": 0, "multipleOf": m}, st.sampled_from([0.5, 2, 5])
    ),
    st.just({"type": "boolean"}),
    st.builds(
        lambda xs: {"type": "string", "enum": xs},
        st.lists(st.sampled_from(["C", "F", "K"]), min_size=1, unique=True),
    ),
    st.just({"type": ["string", "null"]}),
    st.just({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
)


def _object(children):
    return st.dictionaries(NAMES, children, min_size=1, max_size=4).map(
        lambda props: {
            "type": "object",
            "properties": props,
            "required": list(props),
            "additionalProperties": False,
        }
    )


SCHEMAS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        _object(inner),
        st.builds(
            lambda items, n: {"type": "array", "items": items, "minItems": n, "maxItems": n + 2},
            inner,
            st.integers(0, 2),
        ),
    ),
    max_leaves=8,
)
STRICT_SCHEMAS = _object(SCHEMAS)


def _body(schema, ask, **extra):
    tool = {
        "type": "function",
        "function": {"name": "act", "description": "Do it", "parameters": schema, "strict": True},
    }
    return {
        "model": "wirelab-offline",
        "messages": [{"role": "user", "content": ask}],
        "tools": [tool],
        **extra,
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    STRICT_SCHEMAS,
    ASKS,
    st.sampled_from([None, "malformed_arguments", "missing_required", "wrong_enum_case"]),
)
def test_strict_arguments_always_validate(schema, ask, fault):
    assert strict_problem(schema) is None
    body = _body(schema, ask, tool_choice="required", **({"fault": fault} if fault else {}))
    for call in complete(body)["choices"][0]["message"]["tool_calls"]:
        Draft202012Validator(schema).validate(json.loads(call["function"]["arguments"]))


BREAKS = {
    "a property left out of required": lambda s: {**s, "required": list(s["properties"])[1:]},
    "additionalProperties not false": lambda s: {**s, "additionalProperties": True},
    "an unsupported keyword": lambda s: {**s, "allOf": [{"type": "object"}]},
    "a root that is no object": lambda s: {"type": "array", "items": s},
}


@settings(max_examples=60, deadline=None)
@given(STRICT_SCHEMAS, st.sampled_from(sorted(BREAKS)))
def test_schemas_strict_mode_does_not_accept_are_refused_with_the_providers_error(schema, how):
    broken = BREAKS[how](schema)
    with pytest.raises(RequestError) as refused:
        complete(_body(broken, "Hi"))
    body = refused.value.body()["error"]
    assert refused.value.status == 400 and body["code"] == "invalid_function_parameters"
    assert body["param"] == "tools[0].function.parameters"
    assert body["message"].startswith("Invalid schema for function")


def test_the_refusal_names_the_rule_in_the_providers_words():
    loose = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
        "required": ["city"],
    }
    assert strict_problem(loose) == (
        "In context=(), 'required' is required to be supplied and to be an array including every key in "
        "properties. Missing 'unit'."
    )
    closed = {**loose, "required": ["city", "unit"]}
    assert (
        strict_problem(closed)
        == "In context=(), 'additionalProperties' is required to be supplied and to be false."
    )
    nested = {
        **closed,
        "additionalProperties": False,
        "properties": {"city": {"type": "string", "minLength": 2}, "unit": {}},
    }
    assert strict_problem(nested) == "In context=('properties', 'city'), 'minLength' is not permitted."


@settings(max_examples=60, deadline=None)
@given(STRICT_SCHEMAS, ASKS)
def test_a_json_schema_answer_format_gives_a_final_answer_that_validates(schema, ask):
    answer_format = {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": schema, "strict": True},
    }
    body = {
        "model": "wirelab-offline",
        "messages": [{"role": "user", "content": ask}],
        "response_format": answer_format,
    }
    Draft202012Validator(schema).validate(json.loads(complete(body)["choices"][0]["message"]["content"]))


def test_without_strict_a_fault_still_breaks_the_arguments():
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    }
    body = _body(schema, "Weather in Paris?", fault="malformed_arguments")
    body["tools"][0]["function"].update(name="get_weather", description="Current weather for a city.")
    strict = complete(body)["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(strict) == {"city": "Paris"}
    body["tools"][0]["function"]["strict"] = False
    with pytest.raises(json.JSONDecodeError):
        json.loads(complete(body)["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])


def test_strict_mode_over_the_responses_api_refuses_with_openais_error_shape(client):
    tool = {
        "type": "function",
        "name": "act",
        "strict": True,
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.create(model="wirelab-offline", input="Hi", tools=[tool])
    assert refused.value.body["param"] == "tools[0].parameters"
    assert "'required' is required to be supplied" in refused.value.body["message"]


def test_text_format_json_schema_over_the_responses_api(client):
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "temp_c": {"type": "number"}},
        "required": ["city", "temp_c"],
        "additionalProperties": False,
    }
    reply = client.responses.create(
        model="wirelab-offline",
        input="Paris is at 18 degrees today. Report the city and its temperature.",
        text={"format": {"type": "json_schema", "name": "report", "schema": schema, "strict": True}},
    )
    Draft202012Validator(schema).validate(json.loads(reply.output_text))


def _weather_with_a_nullable_unit(ask: str) -> dict:
    """A strict weather tool whose `unit` is required but may be null, asked `ask`."""
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"type": ["string", "null"], "enum": ["C", "F", None]},
        },
        "required": ["city", "unit"],
        "additionalProperties": False,
    }
    body = _body(schema, ask)
    body["tools"][0]["function"].update(name="get_weather", description="Current weather for a city.")
    return body


def test_a_nullable_property_is_optional_so_the_model_calls_and_writes_null():
    (call,) = complete(_weather_with_a_nullable_unit("Weather in Paris?"))["choices"][0]["message"][
        "tool_calls"
    ]
    assert json.loads(call["function"]["arguments"]) == {"city": "Paris", "unit": None}


def test_json_mode_and_bodies_that_are_no_object_keep_their_chat_completions_behaviour():
    ask = {"model": "wirelab-offline", "messages": [{"role": "user", "content": "Hi"}]}
    plain = complete(ask)["choices"][0]["message"]["content"]
    assert (
        complete({**ask, "response_format": {"type": "json_object"}})["choices"][0]["message"]["content"]
        == plain
    )
    for body in (
        [1, 2],
        {**ask, "tools": "x"},
        {**ask, "tools": [None]},
        {**ask, "tools": [{"function": 3}]},
    ):
        try:
            complete(body)
        except RequestError as error:
            assert error.status == 400


def test_the_packages_complete_answers_as_the_server_does_strict_mode_included():
    import wirelab.offline_model as model

    body = _weather_with_a_nullable_unit("Weather in Oslo?")
    (call,) = model.complete(body)["choices"][0]["message"]["tool_calls"]
    assert json.loads(call["function"]["arguments"]) == {"city": "Oslo", "unit": None}
    assert model.complete(body) == complete(body)


def test_conform_follows_every_local_ref_the_request_check_accepts():
    """One reading of `$ref` for the check of a tool's schema and for strict mode: a pointer into an
    `anyOf` list (accepted by the check) is followed when the arguments are made to fit, too."""
    from wirelab.offline_model.wire.strict import conform
    from wirelab.offline_model.wire.tool_schemas import schema_problem

    schema = {
        "type": "object",
        "properties": {
            "flavour": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "topping": {"$ref": "#/properties/flavour/anyOf/0"},
        },
        "required": ["flavour", "topping"],
        "additionalProperties": False,
    }
    assert schema_problem(schema) is None and strict_problem(schema) is None
    fitted = conform({"flavour": "mint", "topping": 3}, schema)
    assert fitted == {"flavour": "mint", "topping": "3"}
    Draft202012Validator(schema).validate(fitted)
