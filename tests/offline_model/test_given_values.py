"""Values a request gives without marking them (issue 22), read on invented tools: binding with
nothing guessed (`guess=False`) must find them, or the model asks for what it was told."""

from __future__ import annotations

import datetime

from wirelab.offline_model.binding import bind
from wirelab.offline_model.dates import TODAY
from wirelab.offline_model.normalize import segment
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


PROTEIN = _tool(
    "estimate_protein",
    "估算一道菜的蛋白质。",
    {
        "dish": {"type": "string", "description": "菜名。"},
        "grams": {"type": "number", "description": "重量（克）。"},
    },
    ["dish", "grams"],
)


def test_a_unit_inside_a_chinese_word_is_no_unit_so_the_word_is_the_value():
    assert bind(PROTEIN, "250克米线含多少蛋白质？", guess=False) == {"dish": "米线", "grams": 250}


SUBTITLES = _tool(
    "add_subtitles",
    "Add subtitles to a video.",
    {"language": {"type": "string", "enum": ["fr", "de", "ja", "ko"], "description": "Language code."}},
    ["language"],
)


def test_a_written_language_named_with_wen_is_the_spoken_one():
    assert bind(SUBTITLES, "字幕用德文", guess=False) == {"language": "de"}


LENGTHS = {"type": "string", "enum": ["yd", "m", "ft"]}
LENGTH = _tool(
    "convert_length",
    "Convert a length.",
    {"value": {"type": "number"}, "from_unit": LENGTHS, "to_unit": LENGTHS},
    ["value", "from_unit", "to_unit"],
)


def test_a_chinese_number_kept_with_its_unit_is_read_as_number_and_unit():
    assert [t.text for t in segment("三十米是多少码？")][:2] == ["三十", "米"]
    assert bind(LENGTH, "三十米是多少码？", guess=False) == {"value": 30, "from_unit": "m", "to_unit": "yd"}


def test_one_or_two_before_a_unit_is_a_number():
    assert bind(LENGTH, "两码等于多少英尺", guess=False) == {"value": 2, "from_unit": "yd", "to_unit": "ft"}


WINDOW = _tool(
    "open_window",
    "Open a car window.",
    {"side": {"type": "string", "enum": ["left", "right"], "description": "Which window."}},
    ["side"],
)


def test_the_first_character_of_a_chinese_compound_may_name_an_option():
    assert bind(WINDOW, "把右窗打开", guess=False) == {"side": "right"}
    assert bind(WINDOW, "打开左窗", guess=False) == {"side": "left"}


CLIPS = _tool(
    "search_sound_effects",
    "Search a library of sound effects.",
    {
        "topic": {"type": "string", "description": "What the sounds are of."},
        "max_hits": {"type": "integer", "description": "How many sounds to return."},
    },
    ["topic"],
)


def test_a_number_said_to_be_at_most_fills_a_cap():
    assert bind(CLIPS, "Sound effects of thunder, at most 8.", guess=False) == {
        "topic": "thunder",
        "max_hits": 8,
    }
    assert bind(CLIPS, "找雷声的音效，最多8个。", guess=False)["max_hits"] == 8
    assert bind(CLIPS, "找雷声的音效，8个以内。", guess=False)["max_hits"] == 8
    assert "max_hits" not in bind(CLIPS, "Sound effects of 8 thunderclaps", guess=False)


PLAYLIST = _tool(
    "make_playlist",
    "Make a playlist for an occasion.",
    {"vibe": {"type": "string", "description": "How the songs should feel, e.g. cheerful or sad."}},
    ["vibe"],
)


def test_unmarked_words_that_mean_what_the_examples_mean_are_the_value():
    assert bind(PLAYLIST, "给我的健身视频配一个欢快的歌单", guess=False) == {"vibe": "欢快"}


SUGAR = _tool(
    "count_sugar",
    "估算一份食物的含糖量。",
    {"food": {"type": "string", "description": "食物名称。"}, "grams": {"type": "number"}},
    ["food", "grams"],
)


def test_a_chinese_thing_is_read_without_the_tools_own_word_after_it():
    assert bind(SUGAR, "一块100克的蛋糕含糖量是多少？", guess=False) == {"food": "蛋糕", "grams": 100}


FERRY = _tool(
    "book_ferry",
    "Book a ferry crossing.",
    {"port": {"type": "string"}, "date": {"type": "string", "description": "ISO date."}},
    ["port", "date"],
)


def test_a_chinese_day_of_the_month_written_alone_is_a_date():
    token = TODAY.set(datetime.date(2031, 5, 10))
    try:
        assert bind(FERRY, "订一张去大连的船票，18号出发", guess=False)["date"] == "2031-05-18"
        assert bind(FERRY, "订一张去大连的船票，3日出发", guess=False)["date"] == "2031-06-03"
        assert "date" not in bind(FERRY, "订一张去大连的船票，住5号楼", guess=False)
    finally:
        TODAY.reset(token)


SPREAD = _tool(
    "currency_spread",
    "The bank's spread between two currencies.",
    {
        "sell": {"type": "string", "description": "ISO code of the currency sold."},
        "buy": {"type": "string", "description": "ISO code of the currency bought."},
    },
    ["sell", "buy"],
)


def test_a_currency_that_jieba_keeps_with_the_next_character_is_read():
    assert bind(SPREAD, "美元兑港币的点差多大？", guess=False) == {"sell": "USD", "buy": "HKD"}


BANQUET = _tool(
    "reserve_banquet",
    "在酒楼预订宴席。",
    {"venue": {"type": "string", "description": "酒楼名称。"}, "tables": {"type": "integer"}},
    ["venue", "tables"],
)


def test_a_name_keeps_the_character_jieba_glued_to_the_tools_verb():
    assert bind(BANQUET, "在大董订一桌", guess=False)["venue"] == "大董"


BELL = _tool(
    "ring_bell",
    "Ring the school bell at a time.",
    {"time": {"type": "string", "description": "HH:MM."}},
    ["time"],
)


def test_a_clock_time_said_in_words_is_a_time():
    assert bind(BELL, "Ring the bell at quarter to four", guess=False) == {"time": "03:45"}
    assert bind(BELL, "Ring the bell at half past two", guess=False) == {"time": "02:30"}
    assert bind(BELL, "Ring the bell at nine o'clock", guess=False) == {"time": "09:00"}
