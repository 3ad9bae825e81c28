"""Each stage of the offline model on its own: normalize, intents, selection, extraction, binding."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.offline_model.conftest import WEATHER_TOOL, model_tool
from wirelab.offline_model.binding import bind
from wirelab.offline_model.calls import bind_all
from wirelab.offline_model.extraction import chinese_number, extract, list_items
from wirelab.offline_model.intents import pieces
from wirelab.offline_model.lexicon import SYNONYM_GROUPS, concept, sections, stem
from wirelab.offline_model.normalize import clean, segment
from wirelab.offline_model.selection import asks_for_nothing, plan

CURRENCY = model_tool(
    "convert_currency",
    "Convert an amount of money from one currency to another.",
    {
        "amount": {"type": "number"},
        "from_currency": {"type": "string", "description": "ISO currency code"},
        "to_currency": {"type": "string", "description": "ISO currency code"},
    },
    ("amount", "from_currency", "to_currency"),
)
UNITS = ["miles", "kilometers", "meters"]
DISTANCE = model_tool(
    "convert_distance",
    "Convert a distance between units.",
    {
        "value": {"type": "number"},
        "from_unit": {"type": "string", "enum": UNITS},
        "to_unit": {"type": "string", "enum": UNITS},
    },
    ("value", "from_unit", "to_unit"),
)
RESTAURANTS = model_tool(
    "find_restaurants",
    "Find restaurants in a city by cuisine.",
    {"city": {"type": "string"}, "cuisine": {"type": "string"}},
    ("city", "cuisine"),
)
SHOPPING = model_tool(
    "add_to_list",
    "Add items to the shopping list.",
    {"items": {"type": "array", "items": {"type": "string"}}},
    ("items",),
)
TIMER = model_tool(
    "set_timer",
    "Start a countdown timer.",
    {"minutes": {"type": "integer", "description": "length of the timer in minutes"}},
    ("minutes",),
)
BOOKING = model_tool(
    "book_table",
    "Book a table at a restaurant.",
    {
        "restaurant": {"type": "string"},
        "party": {
            "type": "object",
            "properties": {"size": {"type": "integer"}, "contact": {"type": "string", "format": "email"}},
            "required": ["size"],
        },
        "date": {"type": "string", "format": "date"},
    },
    ("restaurant", "party"),
)


# 1. Normalize and segment


def test_nfkc_folds_fullwidth_forms_and_quotes():
    assert clean("ＷＥＡＴＨＥＲ in Ｐａｒｉｓ？ “hi”") == 'WEATHER in Paris? "hi"'


def test_chinese_is_cut_into_words_and_mixed_text_keeps_both():
    words = [t.norm for t in segment(clean("北京明天的天气怎么样？and Paris"))]
    assert words[:4] == ["北京", "明天", "的", "天气"] and words[-2:] == ["and", "paris"]


def test_words_are_case_folded_and_stemmed():
    assert [t.norm for t in segment("PARIS Cities")] == ["paris", "cities"]
    assert stem("cities") == stem("city") and stem("movies") == stem("movie")  # Snowball stems
    assert [stem(w) for w in ("booking", "orders")] == ["book", "order"]


# 2. Intents and selection


def test_a_message_is_cut_at_every_possible_intent():
    assert [p.text for p in pieces("Weather in Paris and convert 3 EUR to USD, then email Ann")] == [
        "Weather in Paris",
        "convert 3 EUR to USD",
        "email Ann",
    ]


def test_pieces_that_ask_for_no_tool_stay_with_their_intent():
    [item] = plan("Find restaurants in Lisbon and make them cheap", (RESTAURANTS, WEATHER_TOOL))
    assert item.tool is RESTAURANTS and item.request.endswith("cheap")


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, that's all for today!",
        "hello!",
        "谢谢！",
        "Don't convert any currency, I was just asking",
        "不要查天气",
        "I love travelling by train",
    ],
)
def test_small_talk_negation_and_opinions_call_nothing(text):
    assert asks_for_nothing(text)
    assert plan(text, (WEATHER_TOOL, CURRENCY)) == []


@pytest.mark.parametrize(
    "text, chosen",
    [
        ("How much is 250 euros in Japanese yen?", "convert_currency"),
        ("北京明天的天气怎么样？", "get_weather"),
        ("Is it going to rain in Oslo?", "get_weather"),
        ("Remind me in ten minutes with a countdown", "set_timer"),
    ],
)
def test_synonyms_and_chinese_find_the_tool(text, chosen):
    assert [item.tool.name for item in plan(text, (WEATHER_TOOL, CURRENCY, TIMER))] == [chosen]


def test_a_question_about_something_else_selects_nothing():
    assert plan("What is the capital of France?", (WEATHER_TOOL, CURRENCY, TIMER)) == []


# 3. Extraction


def test_numbers_in_words_digits_and_chinese():
    values = [v.value for v in extract(clean("ten, twenty five, 1,250.5 and -3")) if v.kind == "number"]
    assert values == [10, 25, 1250.5, -3]
    assert [chinese_number(t) for t in ("十五", "两千三百", "一百零五")] == [15, 2300, 105]


def test_currencies_countries_and_languages_by_english_and_chinese_name():
    found = {
        (v.kind, v.value) for v in extract(clean("250 euros to 日元 in France, translate to 法语, in USD"))
    }
    assert {("currency", "EUR"), ("currency", "JPY"), ("country", "FR"), ("language", "fr")} <= found
    assert ("currency", "USD") in found


def test_dates_emails_quotes_and_codes():
    text = clean('Email ann@example.com "see you" about order A-123 tomorrow, 明天 or 2026-05-01 at 3pm')
    kinds = {(v.kind, v.value) for v in extract(text)}
    assert {("email", "ann@example.com"), ("quoted", "see you"), ("code", "A-123")} <= kinds
    assert {("date", "tomorrow"), ("date", "明天"), ("date", "2026-05-01"), ("time", "3pm")} <= kinds


def test_proper_nouns_are_runs_of_capitals():
    names = [v.value for v in extract(clean("Flights from New York to Rio de Janeiro")) if v.kind == "name"]
    assert names == ["New York", "Rio de Janeiro"]


def test_list_items_in_english_and_chinese():
    assert list_items("eggs, milk and bread") == ["eggs", "milk", "bread"]
    assert list_items("鸡蛋和牛奶") == ["鸡蛋", "牛奶"]


# 4. Binding


def test_position_cues_decide_from_and_to():
    assert bind(CURRENCY, "How much is 250 euros in Japanese yen?") == {
        "amount": 250,
        "from_currency": "EUR",
        "to_currency": "JPY",
    }
    assert bind(CURRENCY, "把100美元换成人民币") == {
        "amount": 100,
        "from_currency": "USD",
        "to_currency": "CNY",
    }


def test_enums_that_share_values_are_told_apart_by_position():
    assert bind(DISTANCE, "26.2 miles to kilometers") == {
        "value": 26.2,
        "from_unit": "miles",
        "to_unit": "kilometers",
    }


def test_a_value_after_in_is_the_place_and_an_adjective_the_other_string():
    assert bind(RESTAURANTS, "cheap Thai restaurants in Lisbon") == {"city": "Lisbon", "cuisine": "Thai"}


def test_number_words_fill_an_integer():
    assert bind(TIMER, "Remind me in ten minutes") == {"minutes": 10}
    assert bind(TIMER, "设置一个十五分钟的计时器") == {"minutes": 15}


def test_nested_objects_are_filled_and_optionals_left_out():
    assert bind(BOOKING, "Book a table at Nopa for 4 people, contact ann@example.com") == {
        "restaurant": "Nopa",
        "party": {"size": 4, "contact": "ann@example.com"},
    }


def test_two_values_for_one_parameter_become_two_calls():
    assert bind_all(WEATHER_TOOL, "weather in Paris, Rome and Oslo") == [
        {"city": "Paris"},
        {"city": "Rome"},
        {"city": "Oslo"},
    ]
    assert bind_all(WEATHER_TOOL, "分别查询北京和上海的天气") == [{"city": "北京"}, {"city": "上海"}]


def test_a_list_fills_an_array():
    assert bind(SHOPPING, "add eggs, milk and bread") == {"items": ["eggs", "milk", "bread"]}
    assert bind(SHOPPING, "把鸡蛋和牛奶加到购物清单") == {"items": ["鸡蛋", "牛奶"]}


def test_relative_dates_resolve_only_against_a_date_the_conversation_states():
    from wirelab.offline_model.dates import TODAY, reference_date, resolve_date

    assert resolve_date("tomorrow") is None  # no date stated: the model never reads the clock
    token = TODAY.set(reference_date("Today is Wednesday, 11 March 2026."))
    try:
        resolved = [resolve_date(w) for w in ("tomorrow", "Friday", "next Monday", "明天", "周五", "下周一")]
    finally:
        TODAY.reset(token)
    assert resolved == ["2026-03-12", "2026-03-13", "2026-03-16", "2026-03-12", "2026-03-13", "2026-03-16"]


def test_a_system_message_states_its_date_in_any_way_a_request_may_write_one():
    from wirelab.offline_model.dates import reference_date

    stated = ["Current date: Saturday, August 9th, 2031.", "Notes, 2nd of June 2029", "Date 07/04/2030"]
    assert [str(reference_date(text)) for text in stated] == ["2031-08-09", "2029-06-02", "2030-07-04"]
    assert str(reference_date("Kept 31 February 2031, opened 3 March 2031")) == "2031-03-03"  # a real day
    assert reference_date("The spring 2031 report") is None  # a month or a year alone is no day
    assert str(reference_date("Today's date is 2031-08-09.")) == "2031-08-09"  # a full stop ends it
    assert reference_date("Firmware 2031.8.9.4 shipped") is None  # a version number is no date


def test_no_word_sits_in_two_synonym_groups():
    """A word in two groups names the first group's concept only: "product" was "multiply"."""
    counts = Counter(word for group in SYNONYM_GROUPS for word in set(group))
    assert not [word for word, n in counts.items() if n > 1]
    assert (concept("product"), concept("sum"), concept("产品"), concept("求和")) == ("product", "sum") * 2


def test_a_lexicon_file_line_outside_a_section_is_refused(tmp_path):
    bad = tmp_path / "lexicon.txt"
    bad.write_text("# lists\nweather forecast\n[synonyms]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="before the first"):
        sections(bad)


@pytest.mark.parametrize("text", ["别把这个包裹寄给老王", "不要把这束花送给隔壁"])
def test_a_negated_chinese_verb_with_its_result_asks_for_nothing(text):
    """寄 (post) and 送 (hand over) are action words, so 寄给 and 送给 are cut as 发给 is, and the
    negation before the 把 phrase reaches them."""
    assert asks_for_nothing(text)
    assert not asks_for_nothing(text[1:] if text[0] == "别" else text[2:])
    assert "给" in [token.text for token in segment(text)]
