"""Values written in words, in English and Chinese (issue 22, "numbers and targets go missing"):
clock times, number words, a count and a half of a unit, relative dates in weeks. Each request
and tool is invented for this test."""

from __future__ import annotations

import datetime

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.dates import TODAY, resolve_date
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.request import Tool


def _values(text: str, kind: str) -> list:
    return [v.value for v in extract(text) if v.kind == kind]


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


BELL = _tool("ring_bell", "Ring the school bell at a time.", {"time": {"type": "string"}}, ["time"])


@pytest.mark.parametrize(
    ("request_", "time"),
    [
        ("Ring the bell at ten past six", "06:10"),
        ("Ring the bell at twenty minutes to nine", "08:40"),
        ("Ring the bell at noon", "12:00"),
        ("Ring the bell at midnight", "00:00"),
        ("Ring the bell at seven in the evening", "19:00"),
        ("Ring the bell at half past five in the afternoon", "17:30"),
        ("Ring the bell at six pm", "18:00"),
        ("五点一刻打铃", "05:15"),
        ("晚上九点三刻打铃", "21:45"),
        ("差十分八点打铃", "07:50"),
        ("八点差五分打铃", "07:55"),
    ],
)
def test_a_clock_time_written_in_words_fills_a_time(request_: str, time: str) -> None:
    assert bind(BELL, request_, guess=False) == {"time": time}


def test_a_range_of_numbers_or_a_chinese_decimal_is_no_clock_time() -> None:
    assert _values("Rent 2 to 3 canoes", "time") == []
    assert _values("Rent five to six canoes", "time") == []
    assert _values("称三点五公斤面粉", "time") == []
    assert _values("称三点五公斤面粉", "number") == [3.5]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("ninety-nine balloons", 99),
        ("one hundred and twenty chairs", 120),
        ("two thousand five hundred flyers", 2500),
        ("two thousand and six", 2006),
        ("a dozen candles", 12),
        ("two dozen candles", 24),
        ("a hundred lanterns", 100),
        ("预算一万五", 15000),
        ("三千五张门票", 3500),
        ("两百五", 250),
        ("一百零五", 105),
    ],
)
def test_a_number_written_in_words_is_one_number(text: str, number: int) -> None:
    assert _values(text, "number") == [number]


def test_two_before_a_measure_word_is_a_count_and_one_as_an_article_is_none() -> None:
    assert _values("订两张去青岛的船票", "number") == [2]
    assert _values("来两杯热可可", "number") == [2]
    assert _values("我们一起去看一下", "number") == []


def test_one_hundred_at_the_end_is_a_number_and_one_alone_a_thing() -> None:
    assert _values("Order one hundred", "number") == [100]
    assert _values("Order the blue one", "number") == []


def test_number_words_written_apart_stay_apart() -> None:
    assert _values("pick one two three", "number") == [1, 2, 3]


KILN = _tool(
    "fire_kiln",
    "Fire the pottery kiln.",
    {"hours": {"type": "number", "description": "How long to fire, in hours."}},
    ["hours"],
)


@pytest.mark.parametrize(
    ("request_", "hours"),
    [
        ("Fire the kiln for an hour and a half", 1.5),
        ("Fire the kiln for two and a half hours", 2.5),
        ("Fire the kiln for half an hour", 0.5),
        ("窑烧一个半小时", 1.5),
        ("窑烧两个半小时", 2.5),
        ("窑烧半小时", 0.5),
    ],
)
def test_a_count_and_a_half_of_a_unit_is_one_number(request_: str, hours: float) -> None:
    assert bind(KILN, request_, guess=False) == {"hours": hours}


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("a week from today", "2026-03-18"),
        ("in two weeks", "2026-03-25"),
        ("两周后", "2026-03-25"),
        ("一个星期后", "2026-03-18"),
    ],
)
def test_a_date_some_weeks_ahead_is_resolved(text: str, date: str) -> None:
    token = TODAY.set(datetime.date(2026, 3, 11))
    try:
        assert [resolve_date(v) for v in _values(text, "date")] == [date]
    finally:
        TODAY.reset(token)


TRAILS = _tool(
    "find_trails",
    "Find hiking trails.",
    {
        "features": {"type": "array", "items": {"type": "string"}, "description": "What the trail passes."},
        "max_minutes": {"type": "integer", "description": "Longest walking time in minutes."},
    },
    ["features"],
)


def test_a_list_leaves_out_the_unit_of_a_number_another_parameter_took() -> None:
    bound = bind(TRAILS, "Find trails with waterfalls and lakes, under 90 minutes", guess=False)
    assert bound == {"features": ["waterfalls", "lakes"], "max_minutes": 90}


TIMER = _tool(
    "bake",
    "Bake bread in the oven.",
    {"minutes": {"type": "integer", "description": "Baking time."}},
    ["minutes"],
)


@pytest.mark.parametrize(
    ("request_", "minutes"),
    [
        ("Bake the loaf for an hour and a half", 90),
        ("Bake the loaf for 2 hours", 120),
        ("面包烤半小时", 30),
        ("Bake the loaf for 40 minutes", 40),
    ],
)
def test_a_duration_is_given_in_the_unit_its_parameter_names(request_: str, minutes: int) -> None:
    assert bind(TIMER, request_, guess=False) == {"minutes": minutes}


FLATS = _tool(
    "find_flats",
    "Find flats to rent.",
    {"town": {"type": "string"}, "max_rent": {"type": "integer", "description": "Highest monthly rent."}},
    ["town"],
)


@pytest.mark.parametrize(
    "request_",
    [
        "Flats in Lyon under 900 a month",
        "Flats in Lyon, less than 900",
        "里昂的公寓，租金不超过900",
        "里昂的公寓，900以下",
    ],
)
def test_a_bound_written_in_words_fills_the_parameter_that_caps(request_: str) -> None:
    assert bind(FLATS, request_, guess=False)["max_rent"] == 900
