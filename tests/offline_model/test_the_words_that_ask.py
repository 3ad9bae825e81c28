"""A free-text value is what the request asks for, not the words that ask for it, nor the
words that say whom or what it is for; its own small words stay. On tools invented here."""

from __future__ import annotations

from typing import Any

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, **properties: str) -> Tool:
    props = {key: {"type": "string", "description": text} for key, text in properties.items()}
    return Tool(name, description, {"type": "object", "properties": props, "required": list(props)})


RADIO = _tool(
    "radio_keeper",
    "Send a radio message to a lighthouse keeper.",
    keeper="Keeper's name",
    message="What to say",
)
DIARY = _tool("write_diary", "Write an entry in the diary.", text="The entry")
TODO = _tool("add_todo", "Add a task to the to-do list.", note="What to do")
PHOTOS = _tool("search_photo_archive", "Search the photo archive.", query="What to look for")
FOOTAGE = _tool("search_footage", "Search the stock-footage archive.", query="What to look for")
SWATCHES = _tool("find_swatch", "Find a fabric swatch in the sample book.", fabric="Kind of fabric")


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        (
            RADIO,
            "Radio Morwenna that the fog horn is stuck",
            {"keeper": "Morwenna", "message": "the fog horn is stuck"},
        ),
        (
            DIARY,
            "Write in the diary that frost covered the fields in the valley",
            {"text": "frost covered the fields in the valley"},
        ),
        (TODO, "Poke me to water the orchids", {"note": "water the orchids"}),
        (PHOTOS, "Find photos of lighthouses for my slideshow", {"query": "lighthouses"}),
        (PHOTOS, "Look for pictures of migrating geese", {"query": "migrating geese"}),
        (SWATCHES, "Show me a swatch of brushed cotton", {"fabric": "brushed cotton"}),
        (FOOTAGE, "Search stock footage of a burning haystack", {"query": "burning haystack"}),
    ],
)
def test_a_value_is_what_is_asked_for(tool: Tool, text: str, expected: dict[str, Any]) -> None:
    assert bind(tool, text) == expected


def test_a_name_that_starts_with_a_word_of_the_description_only_keeps_it() -> None:
    harbour = _tool("ring_harbour", "Ring the harbour master of a port.", port="Port to call")
    assert bind(harbour, "Port Isaac, ring the harbour master")["port"] == "Port Isaac"


def test_words_for_whom_a_note_is_stay_in_it() -> None:
    assert bind(TODO, "Add a task: buy a scarf for my sister")["note"] == "buy a scarf for my sister"


HUT = _tool(
    "message_hut_warden", "Send a message to the mountain hut warden.", message="What to tell the warden"
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("跟管理员说一声我们明天中午到", "我们明天中午到"),
        ("跟他讲一下我们会晚到", "我们会晚到"),
        ("对老李说我们下午出发", "我们下午出发"),
    ],
)
def test_a_message_said_to_someone_in_chinese_is_what_is_said(text: str, said: str) -> None:
    assert bind(HUT, text) == {"message": said}


def test_a_note_keeps_what_is_to_be_done_after_whom_it_reminds() -> None:
    assert bind(TODO, "提醒我给花浇水") == {"note": "给花浇水"}
