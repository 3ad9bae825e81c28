"""A value is read as written: a code of numbers joined by a hyphen, a Chinese name with the
kind of place written after it (not a count's measure word), a speed written as one word or as a
Chinese rate, a numeric date that starts with its day, a title whose small words lead to "the"
("… of the …"), and a Chinese place written after the places above it, taken at the level the
description's example shows. On tools invented here."""

from __future__ import annotations

from typing import Any

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.normalize import clean
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, **properties: tuple[str, str]) -> Tool:
    props = {key: {"type": kind, "description": text} for key, (kind, text) in properties.items()}
    return Tool(name, description, {"type": "object", "properties": props, "required": list(props)})


LOCKER = _tool("rent_locker", "Rent a station locker.", locker_number=("string", "The locker's number"))
FLOOR = _tool("go_to_floor", "Send the lift to a floor.", floor=("integer", "Floor to go to"))
INN = _tool("inn_rooms", "Free rooms at a guesthouse.", guesthouse=("string", "Name of the guesthouse"))
KITE = _tool(
    "kite_lift",
    "Lift of a kite in the wind.",
    wind_speed=("number", "Wind speed in metres per second"),
    line_length_m=("number", "Length of the line in metres"),
)
VET = _tool("book_vet", "Book a vet visit.", day=("string", "Visit day, YYYY-MM-DD"))
FERRY = _tool(
    "ferry_tickets",
    "Buy ferry tickets.",
    origin=("string", "Port of departure"),
    port=("string", "Port of arrival"),
)


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        (LOCKER, "Rent locker number 58-0316 at the station", {"locker_number": "58-0316"}),
        (FLOOR, "Take the lift to floor 7-8", {"floor": 7}),
        (INN, "白云宾馆今晚还有空房吗", {"guesthouse": "白云宾馆"}),
        (KITE, "How much lift with a 40 m line in a 9m/s wind?", {"wind_speed": 9, "line_length_m": 40}),
        (KITE, "风速每秒6米，线长30米，风筝升力多大", {"wind_speed": 6, "line_length_m": 30}),
        (VET, "Book the vet for 28/02/2028", {"day": "2028-02-28"}),
        (VET, "Book the vet for 02/28/2028", {"day": "2028-02-28"}),
        (FERRY, "买4张从威海到大连的船票", {"origin": "威海", "port": "大连"}),
    ],
)
def test_a_value_is_read_as_written(tool: Tool, text: str, expected: dict[str, Any]) -> None:
    assert bind(tool, text) == expected


@pytest.mark.parametrize("text", ["a 5-10 minute walk", "pages 12-40"])
def test_a_range_keeps_both_its_numbers(text: str) -> None:
    numbers = [v.value for v in extract(clean(text)) if v.kind == "number"]
    assert len(numbers) == 2


BLINDS = _tool("lower_blinds", "Lower the blinds of a room.", room=("string", "Which room"))


@pytest.mark.parametrize(
    ("text", "room"),
    [
        ("Lower the blinds in the music room", "music room"),
        ("please lower the blinds of the front hall", "front hall"),
        ("lower the blinds in the attic", "attic"),
    ],
)
def test_a_room_is_named_with_its_head_noun(text: str, room: str) -> None:
    assert bind(BLINDS, text).get("room") == room


MEMBERS = _tool(
    "enrol_member", "Enrol a new member of the rowing club.", member=("string", "The member's full name")
)


@pytest.mark.parametrize(
    ("text", "member"),
    [
        ("Enrol Rosa de la Vega in the rowing club", "Rosa de la Vega"),
        ("please enrol Pieter van der Meer as a member", "Pieter van der Meer"),
        ("Enrol Joana dos Reis today", "Joana dos Reis"),
        ("Enrol Lena in the club of the town", "Lena"),
    ],
)
def test_a_name_goes_on_through_its_joining_words(text: str, member: str) -> None:
    assert bind(MEMBERS, text).get("member") == member


PLAY = _tool("stage_play", "Book seats for a stage play.", play=("string", "Title of the play"))


@pytest.mark.parametrize(
    ("text", "play"),
    [
        ("Book two seats for Return of the Fox King", "Return of the Fox King"),
        ("book seats for Dancing with the Moon tonight", "Dancing with the Moon"),
        ("Two seats for Storm over the Harbour please", "Storm over the Harbour"),
        ("Book seats for Hamlet with the school", "Hamlet"),
        ("Book seats for Hamlet and the Tempest", "Hamlet"),
    ],
)
def test_a_title_goes_on_through_its_small_words_before_the(text: str, play: str) -> None:
    assert bind(PLAY, text).get("play") == play


PARK = _tool("park_hours", "公园开放时间。", district=("string", "所在区，例如 西城区"))
TOWN = _tool("town_fair", "集市日期。", town=("string", "镇名，例如 周庄镇"))


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        (PARK, "南京市玄武区的公园几点开门", {"district": "玄武区"}),
        (TOWN, "苏州市同里镇的集市是哪天", {"town": "同里镇"}),
        (PARK, "鼓楼区的公园几点开门", {"district": "鼓楼区"}),
    ],
)
def test_a_chinese_place_is_taken_at_the_level_its_example_shows(
    tool: Tool, text: str, expected: dict[str, Any]
) -> None:
    assert bind(tool, text) == expected
