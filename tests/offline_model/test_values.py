"""Values the offline model reads by meaning, in either language (issue 22), on invented tools."""

from __future__ import annotations

from wirelab.offline_model.binding import bind, bind_marked
from wirelab.offline_model.correction import correct
from wirelab.offline_model.request import Call, Tool


def _tool(name: str, description: str, properties: dict, required: list[str]) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": required})


PET = {"type": "string", "enum": ["cat", "dog", "fish"]}
FEEDER = _tool("feed_pet", "Give a pet its food.", {"pet": PET, "grams": {"type": "integer"}}, ["pet"])


def test_an_option_is_named_by_a_word_that_means_it_in_either_language():
    assert bind(FEEDER, "Feed the puppy", guess=False) == {"pet": "dog"}
    assert bind(FEEDER, "喂一下小猫", guess=False) == {"pet": "cat"}


def test_no_option_is_read_from_words_that_mean_none():
    assert bind(FEEDER, "Feed them 40 grams now", guess=False) == {"grams": 40}


def test_a_correction_takes_the_listed_value_the_request_means():
    loose = _tool("feed_pet", "Give a pet its food.", {"pet": {"type": "string"}}, ["pet"])
    sent = Call("", "feed_pet", '{"pet": "小狗"}')
    error = {"field": "pet", "message": "pet must be one of cat, fish, dog"}
    assert correct(sent, error, loose, "喂一下小狗") == Call("", "feed_pet", '{"pet":"dog"}')


VOLUMES = {"type": "string", "enum": ["l", "ml", "cup"]}
MEASURE = _tool(
    "convert_volume",
    "Convert a volume.",
    {"amount": {"type": "number"}, "source_unit": VOLUMES, "target_unit": VOLUMES},
    ["amount", "source_unit", "target_unit"],
)


def test_the_unit_written_after_the_number_is_the_one_converted_from():
    assert bind(MEASURE, "How many millilitres is 2 cups?") == {
        "amount": 2,
        "source_unit": "cup",
        "target_unit": "ml",
    }
    assert bind(MEASURE, "How many liters are 8 cups") == {
        "amount": 8,
        "source_unit": "cup",
        "target_unit": "l",
    }


SPEAKER = _tool("set_speaker_volume", "Set the speaker volume.", {"level": {"type": "integer"}}, ["level"])
LOAN = _tool(
    "quote_loan", "Quote a loan.", {"rate": {"type": "number", "description": "As a fraction."}}, ["rate"]
)


def test_a_percentage_in_chinese_words_is_a_number_in_percent():
    assert bind(SPEAKER, "音量调到百分之三十五") == {"level": 35}
    assert bind(LOAN, "利率百分之5的贷款") == {"rate": 0.05}


DATE = {"type": "string", "description": "YYYY-MM-DD"}
CAR = _tool(
    "rent_car", "Rent a car.", {"pickup_date": DATE, "return_date": DATE}, ["pickup_date", "return_date"]
)


def test_a_day_alone_at_one_end_of_a_range_takes_the_month_of_the_other():
    both = {"pickup_date": "2027-06-04", "return_date": "2027-06-09"}
    assert bind(CAR, "Rent a car from 4 to 9 June 2027") == both
    assert bind(CAR, "租车，2027年6月4日取车，9号还车") == both


def test_a_day_part_before_a_clock_time_sets_its_half_of_the_day():
    from wirelab.offline_model.extraction import extract

    assert [v.value for v in extract("傍晚6:30去接孩子") if v.kind == "time"] == ["18:30"]
    assert [v.value for v in extract("凌晨1:15的航班") if v.kind == "time"] == ["01:15"]


def test_a_relative_day_written_as_a_possessive_is_resolved():
    from datetime import date

    from wirelab.offline_model.dates import TODAY, resolve_date

    token = TODAY.set(date(2030, 1, 31))
    try:
        assert resolve_date("Tomorrow's") == resolve_date("tomorrow") == "2030-02-01"
    finally:
        TODAY.reset(token)


RADIO = _tool(
    "play_radio_show",
    "Play a radio show.",
    {"query": {"type": "string", "description": "Title or kind of show."}},
    ["query"],
)


def test_free_text_starts_after_the_verb_and_the_measure_word_that_lead_the_request():
    assert bind(RADIO, "Put on some bedtime stories") == {"query": "bedtime stories"}
    assert bind(RADIO, "放点轻音乐") == {"query": "轻音乐"}


def test_a_chinese_list_item_is_the_thing_not_the_words_around_it():
    from wirelab.offline_model.extraction import list_items

    assert list_items("冰箱里有茄子、豆角和番茄可以炒什么") == ["茄子", "豆角", "番茄"]
    assert list_items("帮我带牙膏和洗发水") == ["牙膏", "洗发水"]


LATCH = {"type": "boolean", "description": "true to lock, false to unlock."}
SHED = _tool(
    "bolt_shed", "Bolt or unbolt the shed's smart latch.", {"shed": {"type": "string"}, "latched": LATCH}, []
)


def test_a_flag_is_set_by_a_verb_of_the_side_its_description_names():
    assert bind(SHED, "Secure the shed tonight.", guess=False)["latched"] is True
    assert bind(SHED, "把棚子锁好。", guess=False)["latched"] is True


def test_a_flag_is_cleared_by_a_verb_of_the_false_side_its_description_names():
    assert bind(SHED, "Unlock the shed for the gardener.", guess=False)["latched"] is False
    assert bind(SHED, "把棚子解锁。", guess=False)["latched"] is False


DOCS = _tool(
    "find_documentary",
    "Find documentaries to stream about a topic.",
    {"topic": {"type": "string", "description": "What the film is about."}},
    ["topic"],
)


def test_a_chinese_subject_is_the_modifier_of_a_head_that_names_the_tools_thing():
    assert bind(DOCS, "推荐几部关于登山的纪录片") == {"topic": "登山"}
    assert bind(DOCS, "我想看深海生物的纪录片") == {"topic": "深海生物"}


def test_a_quantifier_of_a_question_is_no_thing_to_name():
    fiber = _tool(
        "fiber_in",
        "估算一份食物里的膳食纤维（克）。",
        {"food": {"type": "string", "description": "食物名称。"}, "grams": {"type": "number"}},
        ["food", "grams"],
    )
    assert bind(fiber, "How much fiber is in 120 grams of oats?") == {"food": "oats", "grams": 120}
    assert bind(fiber, "How many grams of fiber are in 80 g of lentils?") == {"food": "lentils", "grams": 80}


TOPIC = {"topic": {"type": "string"}}


def test_a_word_of_the_tools_own_text_is_the_value_when_nothing_else_is_left():
    radio = _tool(
        "play_radio",
        "Play a radio station of a music genre, such as jazz, ska or classical.",
        {"genre": {"type": "string", "description": "The music genre."}},
        ["genre"],
    )
    assert bind(radio, "Put on some jazz") == {"genre": "jazz"}
    podcast = _tool("play_podcast", "Play a podcast episode about news, comedy or science.", TOPIC, ["topic"])
    assert bind(podcast, "Find a podcast about science") == {"topic": "science"}


FX = _tool(
    "fx_quote",
    "Quote the rate between two currencies.",
    {
        "sell": {"type": "string", "description": "ISO code of the currency sold."},
        "buy": {"type": "string", "description": "ISO code of the currency bought."},
    },
    ["sell", "buy"],
)


def test_a_parameter_whose_description_names_a_currency_takes_one_as_its_code():
    assert bind(FX, "How strong is the pound against the dollar?") == {"sell": "GBP", "buy": "USD"}


def test_everyday_chinese_names_of_a_currency_are_read():
    assert bind(FX, "100美金能换多少韩币？") == {"sell": "USD", "buy": "KRW"}
    assert bind(FX, "台币兑日币的汇率") == {"sell": "TWD", "buy": "JPY"}


def test_one_after_a_word_that_points_at_a_thing_is_no_number():
    run = {"type": "integer", "description": "How long to run."}
    pump = _tool(
        "run_pump",
        "Run a pool pump.",
        {"pump": {"type": "string", "enum": ["left", "right"]}, "minutes": run},
        ["pump", "minutes"],
    )
    assert bind_marked(pump, "Now the right one as well.") == {"pump": "right"}
    assert bind(pump, "Run the left pump for one minute", guess=False) == {"pump": "left", "minutes": 1}


def test_the_word_after_a_subject_pronoun_is_its_verb_not_a_thing():
    found = _tool(
        "report_found",
        "登记一件捡到的物品。",
        {"item": {"type": "string", "description": "捡到的东西。"}, "place": {"type": "string"}},
        ["item", "place"],
    )
    assert bind(found, "I left a wallet at the library, please log it.")["item"] == "wallet"
