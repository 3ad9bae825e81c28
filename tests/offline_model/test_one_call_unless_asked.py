"""A request asks for one call unless it clearly asks for several, on tools and requests invented
here: the ends of a range ("between 40 and 90") fill one call; a name and a loose phrase are no
list; a detail or a fact with no verb of a task ("for one person", "it's for a gift") is no intent
of its own, nor is a piece meaning alone reads as a tool it gives no value; a value binding passed
over ("a 3 bedroom, 2 bathroom flat") begins no second call; a step on what an earlier call will
find ("… and reserve it", "… and get me 2 seats") waits for its result; and two loose phrases
are two calls only where a word says each ("both of them", 都)."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool

TEXT = {"type": "string"}
NUMBER = {"type": "number"}
COATS = tool("search_coats", "Search the coat shop.", {"query": TEXT, "price": NUMBER}, ("query",))
PAY = tool(
    "pay_friend",
    "Pay a friend from the wallet.",
    {"friend": TEXT, "amount": NUMBER, "hidden": {"type": "boolean", "description": "Keep it private"}},
    ("friend", "amount"),
)
NOTIFY = tool(
    "notify_people", "Notify people by text.", {"people": {"type": "array", "items": TEXT}}, ("people",)
)
LODGE = tool(
    "find_lodge",
    "Find a lodge in a town for some dates.",
    {"town": TEXT, "arrive": {"type": "string", "description": "YYYY-MM-DD"}, "leave": {"type": "string"}},
    ("town", "arrive", "leave"),
)
FLAT = tool(
    "flat_search",
    "Search flats to rent in a city.",
    {"city": {"type": "string", "description": "City"}, "stars": {"type": "number", "description": "Rating"}},
    ("city",),
)
FLAT_BOOK = tool(
    "flat_reserve",
    "Reserve a flat in a city.",
    {"city": TEXT, "adults": {"type": "integer"}, "start": TEXT, "end": TEXT},
    ("city", "adults", "start", "end"),
)
GIGS = tool(
    "gig_search",
    "Find gigs such as concerts and plays in a city.",
    {"gig_type": {"type": "string", "enum": ["Music", "Theater"]}, "city": TEXT},
    ("gig_type", "city"),
)
SEATS = tool(
    "gig_seats",
    "Buy seats for a gig.",
    {"gig_name": TEXT, "seats": {"type": "integer"}, "city": TEXT},
    ("gig_name", "seats", "city"),
)
VET = tool(
    "vet_visit",
    "Book a visit at the vet.",
    {"pet": TEXT, "date": TEXT, "time": {"type": "string", "description": "HH:MM"}},
    ("pet", "date", "time"),
)
WAKE = tool(
    "wake_me", "Set a wake-up alarm.", {"time": {"type": "string", "description": "HH:MM"}}, ("time",)
)
PANTRY = tool(
    "pantry_stock", "Check whether the pantry has an ingredient.", {"ingredient": TEXT}, ("ingredient",)
)
GROCERY = tool(
    "grocery_list_add",
    "Add items to the grocery list.",
    {"items": {"type": "array", "items": TEXT}},
    ("items",),
)
KAYAK = tool(
    "hire_kayak", "Hire a kayak at a lake.", {"lake": TEXT, "hours": {"type": "integer"}}, ("lake", "hours")
)
FORECAST = tool("lake_forecast", "Get the weather forecast for a lake.", {"lake": TEXT}, ("lake",))


def _calls(client, text: str, tools: list[dict]) -> list[tuple[str, dict]]:
    reply = client.chat.completions.create(
        model="wirelab-offline", messages=[{"role": "user", "content": text}], tools=tools
    )
    found = reply.choices[0].message.tool_calls or []
    return [(call.function.name, json.loads(call.function.arguments)) for call in found]


@pytest.mark.parametrize(
    ("text", "tools", "name", "argument"),
    [
        ("Search coats between 40 and 90 pounds.", [COATS], "search_coats", None),
        (
            "Pay Wanda 30 dollars and hide it, it's for a gift.",
            [PAY, NOTIFY],
            "pay_friend",
            ("friend", "Wanda"),
        ),
        (
            "We're off to Bath for a wedding. Find a lodge there from 2027-09-03 to 2027-09-05, near the "
            "abbey, for one person.",
            [LODGE, NOTIFY],
            "find_lodge",
            ("town", "Bath"),
        ),
        ("I want to rent a 3 bedroom, 2 bathroom flat in Derby.", [FLAT], "flat_search", ("city", "Derby")),
        (
            "Search flats in York for 2 adults and reserve it from 2027-05-01 to 2027-05-04.",
            [FLAT, FLAT_BOOK],
            "flat_search",
            ("city", "York"),
        ),
        (
            "Find a music gig in Bristol and get me 2 seats.",
            [GIGS, SEATS],
            "gig_search",
            ("gig_type", "Music"),
        ),
        (
            "Book a visit for my cat Miso on May 5th at 9 am, and be sure it's early.",
            [VET, WAKE],
            "vet_visit",
            ("pet", "Miso"),
        ),
        ("Check the pantry for saffron. It's on my grocery list.", [PANTRY, GROCERY], "pantry_stock", None),
        (
            "Hire a kayak on Lake Bled for 3 hours, hopefully the weather holds.",
            [KAYAK, FORECAST],
            "hire_kayak",
            ("hours", 3),
        ),
    ],
)
def test_a_request_for_one_thing_is_one_call(client, text, tools, name, argument) -> None:
    [(called, arguments)] = _calls(client, text, tools)
    assert called == name and (argument is None or arguments[argument[0]] == argument[1])


LAMP = tool("turn_off_lamp", "Switch off the lamp in a room.", {"room": {"type": "string"}}, ("room",))


@pytest.mark.parametrize(
    ("text", "rooms"),
    [
        ("把客厅和卧室的灯都关掉。", ["客厅", "卧室"]),
        ("Switch off the lamps in the den and the attic, both of them.", ["den", "attic"]),
        ("Switch off the lamp in the den and attic.", ["den"]),
    ],
)
def test_two_things_are_two_calls_when_a_word_says_each(client, text, rooms) -> None:
    assert [arguments["room"] for _, arguments in _calls(client, text, [LAMP])] == rooms


def test_a_fact_that_asks_with_a_verb_of_a_task_is_a_call_still(client) -> None:
    calls = _calls(
        client,
        "Check the pantry for saffron. It's low, so add saffron to the grocery list.",
        [PANTRY, GROCERY],
    )
    assert [name for name, _ in calls] == ["pantry_stock", "grocery_list_add"]
