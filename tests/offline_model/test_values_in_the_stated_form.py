"""Values written as the user meant them and as the schema asks (issue 22), on invented tools: a
month and year for a "YYYY-MM" parameter, a user's handle without its @, a possessive owner
without its 's, a message's own verb after "saying", a city written with its country, a
one-letter option for a unit named in full, a flag turned over by "skip", and a phrase that ends
before a preposition."""

from __future__ import annotations

from typing import Any

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, required: list[str], **properties: dict[str, Any]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


def _s(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


def test_a_month_and_year_are_written_as_the_format_asks():
    invoices = _tool("list_invoices", "List invoices.", ["period"], period=_s("Billing month, YYYY-MM."))
    assert bind(invoices, "List the invoices for October 2031") == {"period": "2031-10"}
    assert bind(invoices, "列出2031年7月的发票") == {"period": "2031-07"}
    assert bind(invoices, "List the invoices for 2031-02") == {"period": "2031-02"}


def test_a_handle_is_read_whole_without_its_at_sign():
    follow = _tool("follow_user", "Follow an account.", ["username"], username=_s("The account's username."))
    assert bind(follow, "Follow @quill.and_ink for me") == {"username": "quill.and_ink"}


def test_an_owner_before_the_tools_thing_loses_its_possessive():
    fans = _tool(
        "set_fan_speed",
        "Set a ceiling fan's speed.",
        ["room", "speed"],
        room=_s("Room of the fan."),
        speed={"type": "integer", "description": "Speed from 1 to 5."},
    )
    assert bind(fans, "Set the nursery's fan to 3") == {"room": "nursery", "speed": 3}


def test_a_message_after_saying_keeps_its_own_verb():
    memo = _tool("post_memo", "Post a memo to the team board.", ["body"], body=_s("Text of the memo."))
    assert bind(memo, "Post a memo saying book the van for Friday") == {"body": "book the van for Friday"}


def test_a_city_is_written_with_its_country_when_the_description_shows_one():
    air = _tool("pollen_count", "Pollen levels.", ["where"], where=_s("The place, such as Porto, Portugal."))
    assert bind(air, "What's the pollen count in Graz?") == {"where": "Graz, Austria"}
    assert bind(air, "pollen count in Nagoya Japan") == {"where": "Nagoya, Japan"}


def test_a_one_letter_option_is_named_by_the_unit_it_stands_for():
    oven = _tool(
        "preheat_oven",
        "Preheat the oven.",
        ["degrees", "scale"],
        degrees={"type": "integer", "description": "Target temperature."},
        scale=_s("Temperature scale.", enum=["C", "F"]),
    )
    assert bind(oven, "Preheat the oven to 400 degrees Fahrenheit") == {"degrees": 400, "scale": "F"}


def test_skip_turns_a_flag_over():
    sync = _tool(
        "sync_folder",
        "Sync a folder to the cloud.",
        ["folder"],
        folder=_s("Folder name."),
        include_hidden={"type": "boolean", "description": "Also sync hidden files.", "default": True},
    )
    assert bind(sync, "Sync the folder Drafts but skip hidden files")["include_hidden"] is False


def test_a_phrase_ends_before_a_preposition():
    trades = _tool(
        "hire_tradesperson",
        "Hire a tradesperson.",
        ["trade", "city"],
        trade=_s("The trade needed, e.g. electrician."),
        city=_s("City to work in."),
    )
    assert bind(trades, "hire a roofer near Tulsa") == {"trade": "roofer", "city": "Tulsa"}
