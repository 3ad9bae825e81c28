"""A numeral inside a Chinese word is part of a name, not a count (三里屯 is a place, 三明治 a
sandwich), and a unit's name written with a capital and no number before it is a name ("a
Tesla", the car), not a quantity; on tools and requests invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.request import Tool

PICKUP = Tool(
    "book_pickup",
    "Book a bicycle courier pickup.",
    {
        "type": "object",
        "properties": {
            "district": {"type": "string", "description": "District to collect from."},
            "parcels": {"type": "integer", "description": "How many parcels."},
        },
        "required": ["district"],
    },
)


def _numbers(text: str) -> list[int | float]:
    return [v.value for v in extract(text) if v.kind == "number"]


@pytest.mark.parametrize(
    "text", ["我在三里屯等快递员", "送到九寨沟的民宿", "午饭只想要一个三明治", "帮我查四川的路况"]
)
def test_a_numeral_inside_a_name_is_no_number(text: str) -> None:
    assert _numbers(text) == []


@pytest.mark.parametrize(
    ("text", "number"),
    [("三个包裹", 3), ("骑五公里", 5), ("十三号取件", 13), ("两张收据", 2), ("租车五天", 5)],
)
def test_a_count_with_its_measure_word_is_still_a_number(text: str, number: int) -> None:
    assert _numbers(text) == [number]


def test_a_place_with_a_numeral_is_no_count_for_a_tool() -> None:
    arguments = bind(PICKUP, "从三里屯取三个包裹", guess=False)
    assert arguments.get("parcels") == 3


def test_a_place_with_a_numeral_is_the_place() -> None:
    assert bind(PICKUP, "派人去三里屯取件", guess=False) == {"district": "三里屯"}


@pytest.mark.parametrize(
    "text", ["Wash my Tesla on Friday", "Is the Newton store open?", "Ping Watt about the invoice"]
)
def test_a_capitalised_unit_name_alone_is_no_unit(text: str) -> None:
    assert [v for v in extract(text) if v.kind == "unit"] == []


@pytest.mark.parametrize(
    ("text", "symbol"),
    [("a field of 3 Tesla", "tesla"), ("show it in Fahrenheit", "fahrenheit"), ("in teslas", "tesla")],
)
def test_a_unit_after_a_number_or_written_as_a_unit_stays_one(text: str, symbol: str) -> None:
    assert [v.value for v in extract(text) if v.kind == "unit"] == [symbol]
