"""Several tools in one request, each call with its own values: words that wait for the next
request but mean a tool of their own are that tool's call; numbers said each after the same word
are a list; a later frame keeps the first's start; free text that is a listed item is a call each
(invented tools)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

RIDE = model_tool(
    "log_ride",
    "Record a bicycle ride in the cycling log.",
    {"distance_km": {"type": "number", "description": "km ridden"}, "minutes": {"type": "integer"}},
    ("distance_km", "minutes"),
)
STRETCH = model_tool(
    "log_stretching",
    "Record a stretching session.",
    {"minutes": {"type": "integer", "description": "how long"}},
    ("minutes",),
)
LOAN = model_tool(
    "monthly_repayment",
    "Monthly repayment of a loan.",
    {
        "amount": {"type": "number", "description": "the sum borrowed"},
        "rate": {"type": "number", "description": "yearly rate in percent"},
        "years": {"type": "integer", "description": "term in years"},
    },
    ("amount", "rate", "years"),
)


def calls(text: str, tools: tuple) -> list[tuple[str, dict]]:
    return [(item.tool.name, item.arguments or {}) for item in bind_plan(plan(text, tools))]


def test_words_that_wait_but_mean_another_tool_are_its_call() -> None:
    found = calls("骑车骑了20公里,用了50分钟,再记录拉伸15分钟。", (RIDE, STRETCH))
    assert [name for name, _ in found] == ["log_ride", "log_stretching"]
    assert found[0][1] == {"distance_km": 20, "minutes": 50}


def test_numbers_each_after_the_same_word_are_a_list() -> None:
    found = calls("Repayment on 90000 and on 140000 at 5 percent over 20 years", (LOAN,))
    assert [arguments for _, arguments in found] == [
        {"amount": 90000, "rate": 5, "years": 20},
        {"amount": 140000, "rate": 5, "years": 20},
    ]


TRAIN = model_tool(
    "train_times",
    "Train departures between two stations.",
    {"from_station": {"type": "string", "description": "start"}, "to_station": {"type": "string"}},
    ("from_station", "to_station"),
)
PODCAST = model_tool(
    "download_podcast",
    "Download a podcast episode by its show title.",
    {"title": {"type": "string", "description": "the show's title"}},
    ("title",),
)


def test_a_later_frame_with_its_own_preposition_keeps_the_first_frames_start() -> None:
    found = calls("Train times from Leeds to York and to Hull", (TRAIN,))
    assert [arguments for _, arguments in found] == [
        {"from_station": "Leeds", "to_station": "York"},
        {"from_station": "Leeds", "to_station": "Hull"},
    ]


def test_free_text_that_is_one_item_of_a_written_list_is_a_call_each() -> None:
    found = calls("Download Serial, Radiolab and Invisibilia", (PODCAST,))
    assert [arguments["title"] for _, arguments in found] == ["Serial", "Radiolab", "Invisibilia"]


TILE = model_tool(
    "tile_count",
    "Tiles needed to cover a floor.",
    {"length": {"type": "number", "description": "floor length in m"}, "width": {"type": "number"}},
    ("length", "width"),
)


def test_two_lists_said_respectively_go_in_step_not_as_one_set() -> None:
    found = calls("Tiles for floors with lengths 5 and 6 and widths 3 and 4 respectively", (TILE,))
    assert [arguments for _, arguments in found] == [{"length": 5, "width": 3}, {"length": 6, "width": 4}]


SCALE = model_tool(
    "scale_drawing",
    "Scale a drawing up by a factor.",
    {"size_cm": {"type": "number", "description": "size of the drawing in cm"}, "factor": {"type": "number"}},
    ("size_cm", "factor"),
)


def test_a_number_followed_by_the_word_that_followed_the_first_set_begins_a_set() -> None:
    two = [{"size_cm": 12, "factor": 3}, {"size_cm": 20, "factor": 2}]
    assert [arguments for _, arguments in calls("Scale 12 cm by 3 and 20 cm by 2", (SCALE,))] == two
    assert [arguments for _, arguments in calls("Scale 12 times 3 and 20 times 2", (SCALE,))] == two
