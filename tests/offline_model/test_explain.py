"""explain()'s "bind" stage shows the binding that made each call: bound from the call's own piece."""

from __future__ import annotations

import json

from tests.offline_model.conftest import tool
from wirelab.offline_model.explain import explain

KILN = tool(
    "fire_kiln",
    "Fire the pottery kiln to a temperature.",
    {
        "temperature": {"type": "integer", "description": "Degrees Celsius"},
        "hours": {"type": "integer", "description": "How many hours"},
    },
    ("temperature",),
)
GLAZE = tool(
    "order_glaze",
    "Order pottery glaze by colour.",
    {"colour": {"type": "string"}, "jars": {"type": "integer", "description": "Number of jars"}},
    ("colour",),
)
BOOKING = tool(
    "book_kiln_slot",
    "Book a slot at the shared kiln.",
    {"day": {"type": "string", "format": "date", "description": "The day, YYYY-MM-DD"}},
    ("day",),
)


def stages(text: str, tools: list, system: str = "") -> dict:
    messages = [{"role": "system", "content": system}] if system else []
    body = {
        "model": "wirelab-offline",
        "tools": tools,
        "messages": [*messages, {"role": "user", "content": text}],
    }
    return {step["stage"]: step for step in explain(body)["stages"]}


def shown(bind: dict) -> dict[str, dict]:
    """The values the bind stage gives each call's arguments."""
    return {key: {name: found["value"] for name, found in reasons.items()} for key, reasons in bind.items()}


def test_each_call_of_a_two_intent_message_is_bound_from_its_own_piece():
    text = "Order 4 jars of cobalt glaze and fire the kiln at 900 for 2 hours"
    steps = stages(text, [KILN, GLAZE])
    calls = {call["name"]: json.loads(call["arguments"]) for call in steps["calls"]["decision"]}
    assert calls == {
        "order_glaze": {"colour": "cobalt", "jars": 4},  # "4 jars" for "Number of jars"
        "fire_kiln": {"temperature": 900, "hours": 2},
    }
    assert shown(steps["bind"]["decision"]) == calls  # bound from the whole message: temperature 4
    assert steps["bind"]["pieces"] == {
        "order_glaze": "Order 4 jars of cobalt glaze",
        "fire_kiln": "fire the kiln at 900 for 2 hours",
    }


def test_a_tool_called_twice_is_shown_once_per_call():
    steps = stages(
        "Fire the kiln to 1200 degrees for 6 hours, then fire it to 900 degrees for 2 hours", [KILN]
    )
    calls = [json.loads(call["arguments"]) for call in steps["calls"]["decision"]]
    assert shown(steps["bind"]["decision"]) == {"fire_kiln": calls[0], "fire_kiln (2)": calls[1]}


def test_a_date_is_bound_against_the_today_the_request_states():
    steps = stages(
        "Order celadon glaze, and book the kiln for tomorrow", [GLAZE, BOOKING], "Today is 3 March 2026."
    )
    assert shown(steps["bind"]["decision"]) == {
        "order_glaze": {"colour": "celadon"},
        "book_kiln_slot": {"day": "2026-03-04"},
    }


FEED = tool(
    "feed_fish",
    "Dispense food into the aquarium.",
    {"grams": {"type": "integer", "description": "Food in grams"}},
    ("grams",),
)
HEATER = tool(
    "set_tank_heater",
    "Set the aquarium heater's water temperature.",
    {"celsius": {"type": "number"}},
    ("celsius",),
)


def test_the_meaning_stage_reads_each_piece_as_the_model_does():
    """The model's meaning stage reads each piece of the message, without its sentence mark; so does
    explain(), one stage per piece, and the tools those stages choose are the tools called."""
    text = "The guppies look hungry, give them 3 grams?"
    body = {
        "model": "wirelab-offline",
        "tools": [FEED, HEATER],
        "messages": [{"role": "user", "content": text}],
    }
    steps = explain(body)["stages"]
    readings = [step for step in steps if step["stage"] == "select by meaning"]
    assert [step["piece"] for step in readings] == ["The guppies look hungry", "give them 3 grams"]
    chosen = {step["decision"] for step in readings} - {None}
    assert chosen == {call["name"] for call in steps[-1]["decision"]} == {"feed_fish"}


def test_a_lone_tool_dropped_as_small_talk_says_why():
    shown = stages("Who made the first pottery kiln?", [KILN])
    assert shown["select by words"]["decision"] == ["fire_kiln"]
    dropped = shown["only talks about the lone tool"]
    assert dropped["decision"] == [] and shown["calls"]["decision"] == []
    assert dropped["chatter"] > 0 and dropped["probability"] < dropped["threshold"]


def test_a_lone_tool_asked_for_has_no_small_talk_stage():
    shown = stages("Fire the kiln to 1200 degrees", [KILN])
    assert "only talks about the lone tool" not in shown
    assert [call["name"] for call in shown["calls"]["decision"]] == ["fire_kiln"]
