"""The offline model chooses tools by their descriptions and fills arguments from their schemas."""

from __future__ import annotations

import json

import openai
import pytest

from tests.offline_model.conftest import WEATHER, tool
from wirelab.offline_model import MODEL_ID
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import score

ORDERS = tool(
    "lookup_order",
    "Look up the status of a customer's order.",
    {"order_id": {"type": "string"}},
    ("order_id",),
)
VAGUE = tool("helper", "Does useful things with data.", {"input": {"type": "string"}})


@pytest.fixture
def ask(client):
    def ask(text: str, tools: list[dict], **options) -> openai.types.chat.ChatCompletionMessage:
        return (
            client.chat.completions.create(
                model=MODEL_ID, messages=[{"role": "user", "content": text}], tools=tools, **options
            )
            .choices[0]
            .message
        )

    return ask


def calls(message) -> list[tuple[str, dict]]:
    return [(c.function.name, json.loads(c.function.arguments)) for c in message.tool_calls or []]


# Choosing by description


def test_a_precise_description_wins_over_a_vague_one(ask):
    assert calls(ask("What's the weather in Paris?", [VAGUE, WEATHER])) == [
        ("get_weather", {"city": "Paris"})
    ]


def test_a_tool_nobody_describes_is_not_chosen(ask):
    hidden = tool("tool_1", "", {"city": {"type": "string"}}, ("city",))
    reply = ask("What's the weather in Paris?", [hidden, VAGUE])
    assert reply.tool_calls is None
    assert reply.content.startswith('I found no suitable tool for "What\'s the weather in Paris?"')


def test_describing_a_tool_well_makes_it_the_choice(ask):
    described = tool("tool_1", "Weather forecast for a city.", {"city": {"type": "string"}}, ("city",))
    assert calls(ask("What's the weather in Paris?", [described, VAGUE])) == [("tool_1", {"city": "Paris"})]


def test_renaming_a_tool_changes_the_choice(ask):
    renamed = tool("get_forecast", "Returns data.", {"city": {"type": "string"}}, ("city",))
    vague_weather = tool("lookup", "Returns data.", {"city": {"type": "string"}}, ("city",))
    assert calls(ask("forecast for Rome", [vague_weather, renamed]))[0][0] == "get_forecast"


def test_on_a_tie_the_tool_listed_first_wins(ask):
    twin = tool("get_weather_now", "Current weather for a city.", {"city": {"type": "string"}}, ("city",))
    assert calls(ask("weather in Oslo", [WEATHER, twin]))[0][0] == "get_weather"


# Filling arguments from the schema

EVERY_TYPE = tool(
    "book_trip",
    "Book a trip by plane.",
    {
        "origin": {"type": "string"},
        "destination": {"type": "string"},
        "date": {"type": "string", "format": "date"},
        "travellers": {"type": "integer"},
        "budget": {"type": "number"},
        "cabin": {"type": "string", "enum": ["economy", "business"], "default": "economy"},
        "refundable": {"type": "boolean"},
        "meals": {"type": "array", "items": {"type": "string"}},
        "contact": {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]},
        "note": {"type": "string"},
    },
    ("origin", "destination", "date", "cabin"),
)


def test_each_schema_type_is_filled_from_the_text(ask):
    text = (
        "Book a trip from Paris to Rome on 2026-05-01 for 2 travellers, budget 950.5, "
        "business, not refundable, contact ann@example.com, meals: vegan and kosher"
    )
    assert calls(ask(text, [EVERY_TYPE])) == [
        (
            "book_trip",
            {
                "origin": "Paris",
                "destination": "Rome",
                "date": "2026-05-01",
                "travellers": 2,
                "budget": 950.5,
                "cabin": "business",
                "refundable": False,
                "meals": ["vegan", "kosher"],
                "contact": {"email": "ann@example.com"},
            },
        )
    ]


def test_required_properties_are_guessed_and_optional_ones_left_out(ask):
    [(_, arguments)] = calls(ask("Book a trip to Rome from Paris tomorrow", [EVERY_TYPE]))
    assert arguments == {"origin": "Paris", "destination": "Rome", "date": "tomorrow", "cabin": "economy"}


def test_an_enum_value_is_found_in_any_case(ask):
    assert calls(ask("weather in Paris in FAHRENHEIT", [WEATHER])) == [
        ("get_weather", {"city": "Paris", "unit": "fahrenheit"})
    ]


def test_an_out_of_range_number_is_passed_on_for_the_tool_to_reject(ask):
    pick = tool(
        "pick_number",
        "Pick a number for the lottery.",
        {"number": {"type": "integer", "minimum": 1, "maximum": 49}},
        ("number",),
    )
    assert calls(ask("pick number 99", [pick])) == [("pick_number", {"number": 99})]


def test_an_id_is_read_as_the_token_written(ask):
    assert calls(ask("Where is order #42?", [ORDERS])) == [("lookup_order", {"order_id": "42"})]
    assert calls(ask("status of order A-123", [ORDERS])) == [("lookup_order", {"order_id": "A-123"})]


def test_a_query_is_the_request_without_the_tools_own_words(ask):
    search = tool("search_docs", "Search the help articles.", {"query": {"type": "string"}}, ("query",))
    assert calls(ask("search the docs for the refund policy", [search])) == [
        ("search_docs", {"query": "refund policy"})
    ]


def test_quoted_text_fills_a_string(ask):
    note = tool("save_note", "Save a note.", {"text": {"type": "string"}}, ("text",))
    assert calls(ask('save a note saying "buy milk, then call Bob"', [note])) == [
        ("save_note", {"text": "buy milk, then call Bob"})
    ]


def test_arguments_keep_the_schemas_key_order(ask):
    [call] = ask("weather in Paris in celsius", [WEATHER]).tool_calls
    assert call.function.arguments == '{"city":"Paris","unit":"celsius"}'


# Several sub-requests


def test_independent_sub_requests_become_parallel_calls(ask):
    assert calls(ask("Weather in Paris and where is order A-7?", [WEATHER, ORDERS])) == [
        ("get_weather", {"city": "Paris"}),
        ("lookup_order", {"order_id": "A-7"}),
    ]


def test_a_second_value_for_the_same_tool_is_another_call(ask):
    assert calls(ask("What's the weather in Paris and in Rome?", [WEATHER])) == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome"}),
    ]


def test_items_joined_by_and_stay_in_one_list(ask):
    shopping = tool(
        "add_to_list",
        "Add items to the shopping list.",
        {"items": {"type": "array", "items": {"type": "string"}}},
        ("items",),
    )
    assert calls(ask("add eggs, milk and bread to the shopping list", [shopping])) == [
        ("add_to_list", {"items": ["eggs", "milk", "bread"]})
    ]


def test_without_parallel_tool_calls_one_call_comes_per_turn(client):
    messages = [{"role": "user", "content": "Weather in Paris and where is order A-7?"}]
    names = []
    for _ in range(3):
        message = (
            client.chat.completions.create(
                model=MODEL_ID, messages=messages, tools=[WEATHER, ORDERS], parallel_tool_calls=False
            )
            .choices[0]
            .message
        )
        if not message.tool_calls:
            break
        assert len(message.tool_calls) == 1
        names.append(message.tool_calls[0].function.name)
        messages += [
            message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "ok"},
        ]
    assert names == ["get_weather", "lookup_order"]
    assert (
        message.content == "get_weather (city Paris) returned ok.\nlookup_order (order_id A-7) returned ok."
    )


# tool_choice


def test_tool_choice_none_answers_in_text(ask):
    reply = ask("weather in Paris", [WEATHER], tool_choice="none")
    assert reply.tool_calls is None and 'tool_choice is "none"' in reply.content


def test_tool_choice_required_calls_the_best_tool_below_the_threshold(ask):
    assert calls(ask("Tell me about Lisbon", [ORDERS, WEATHER], tool_choice="required")) == [
        ("lookup_order", {"order_id": "Lisbon"})
    ]


def test_tool_choice_named_calls_that_tool(ask):
    choice = {"type": "function", "function": {"name": "get_weather"}}
    assert calls(
        ask("where is order A-7, and is it sunny in Oslo?", [ORDERS, WEATHER], tool_choice=choice)
    ) == [("get_weather", {"city": "Oslo"})]


def test_a_forced_tool_choice_forces_a_call_after_results_too(client):
    messages = [{"role": "user", "content": "weather in Paris"}]
    first = (
        client.chat.completions.create(
            model=MODEL_ID, messages=messages, tools=[WEATHER], tool_choice="required"
        )
        .choices[0]
        .message
    )
    messages += [
        first.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "sunny"},
    ]
    again = client.chat.completions.create(
        model=MODEL_ID, messages=messages, tools=[WEATHER], tool_choice="required"
    ).choices[0]
    answer = client.chat.completions.create(
        model=MODEL_ID, messages=messages, tools=[WEATHER], tool_choice="auto"
    ).choices[0]
    assert (
        again.finish_reason == "tool_calls"
        and answer.message.content == "get_weather (city Paris) returned sunny."
    )


UNITS = tool(
    "convert_units",
    "Convert a measurement into another unit.",
    {"value": {"type": "number"}, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}},
    ("value", "from_unit", "to_unit"),
)


def test_a_value_with_a_unit_does_not_name_a_tool_whose_name_says_unit():
    """The units % and year of "5% a year": a value's unit, not the word "unit" of
    `convert_units`, so the words choose nothing here (the unit's own name still matches)."""
    units = Tool(**UNITS["function"])
    assert not score("Put 800 aside at 5% a year for 6 years", units).chosen
    assert score("Convert 5 kg into pounds", units).chosen


COMMIT = tool(
    "commit_changes",
    "Record the staged changes in the repository.",
    {"message": {"type": "string"}},
    ("message",),
)
REMOVE = tool("remove_file", "Delete a file from disk.", {"path": {"type": "string"}}, ("path",))


def test_the_words_inside_a_quoted_value_choose_no_tool(ask):
    """The message "remove the log file" says "remove" and "file": it is the commit's text, not a task."""
    reply = ask('Commit the staged changes, message "remove the log file"', [COMMIT, REMOVE])
    assert calls(reply) == [("commit_changes", {"message": "remove the log file"})]


SHELL = tool("shell", "Run a command in a terminal.", {"command": {"type": "string"}}, ("command",))
PUSH = tool("git_push", "Push local commits to a remote.", {"remote": {"type": "string"}}, ("remote",))


def test_the_words_of_a_command_the_request_writes_choose_no_tool(ask):
    """ "git" and "remote" are words of the command to run, not a request to push."""
    reply = ask("List the remote branches by running git branch -r", [PUSH, SHELL])
    assert calls(reply) == [("shell", {"command": "git branch -r"})]
