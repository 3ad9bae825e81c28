"""Several calls when several are asked for, each with its own values, on tools and requests
invented here: "as well as" lists as "and" does; a quoted greeting is a value, not small talk; the
word a Chinese count counts is no list item; a language or a country listed among names is one
more item; "both" names no item; an optional value each call of a neighbour says for itself is
not given to the calls beside it; a required value said once after the last item holds for every
item; another request for the same tool keeps its value to itself; a line is a request; a Chinese
word listed beside a place is a place; single quotes beside Chinese characters are quotes."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

TEXT = {"type": "string"}
FERRY = model_tool("ferry_times", "Ferry timetable from a port.", {"port": TEXT}, ("port",))
SIGN = model_tool(
    "sign_phrase",
    "Show how to sign a phrase in a sign language.",
    {"phrase": TEXT, "language": TEXT},
    ("phrase",),
)
CABIN = model_tool(
    "rent_cabin",
    "租一间林中小屋",
    {
        "area": {"type": "string", "description": "地区"},
        "nights": {"type": "integer", "description": "住几晚"},
    },
    ("area", "nights"),
)
BAKERY = model_tool(
    "find_bakeries", "Find bakeries by style in a town.", {"style": TEXT, "town": TEXT}, ("style", "town")
)
COURT = model_tool(
    "book_court",
    "Book a tennis court at a club.",
    {"club": TEXT, "players": {"type": "integer"}, "time": TEXT},
    ("club", "players"),
)
CROP = model_tool(
    "crop_yield", "Harvest figures for a region.", {"region": TEXT, "year": {"type": "integer"}}, ("region",)
)
FLOOD = model_tool(
    "flood_record",
    "Recorded floods of a river in a year.",
    {"river": TEXT, "year": {"type": "integer"}},
    ("river", "year"),
)


def _calls(text: str, tools: tuple[Tool, ...]) -> list[tuple[str, dict]]:
    return [(item.tool.name, item.arguments or {}) for item in bind_plan(plan(text, tools))]


def test_as_well_as_between_two_names_lists_them() -> None:
    assert bind_all(FERRY, "Ferry times from Dover as well as Calais") == [
        {"port": "Dover"},
        {"port": "Calais"},
    ]


def test_a_quoted_greeting_is_the_value_of_its_call_not_small_talk() -> None:
    text = "Sign 'please' in BSL and 'hello' in ASL."
    assert [args.get("phrase") for _, args in _calls(text, (SIGN,))] == ["please", "hello"]


def test_the_word_a_chinese_count_counts_is_no_list_item() -> None:
    calls = bind_all(CABIN, "租莫干山的小屋2晚和千岛湖的小屋4晚")
    assert calls == [{"area": "莫干山", "nights": 2}, {"area": "千岛湖", "nights": 4}]


def test_a_language_listed_among_names_is_one_more_item() -> None:
    calls = bind_all(BAKERY, "Find French, Danish and Viennese bakeries in Leeds.")
    assert [call["style"] for call in calls] == ["French", "Danish", "Viennese"]


def test_both_after_a_list_names_no_item() -> None:
    calls = bind_all(COURT, "Book courts for 4 players at Riverside and at Oakfield, both at 10:00.")
    assert [call["club"] for call in calls] == ["Riverside", "Oakfield"]


def test_a_year_each_call_of_a_neighbour_says_for_itself_is_not_shared() -> None:
    text = "Harvest figures for Kent, and the floods of the Severn in 1947 and of the Trent in 1998."
    calls = _calls(text, (CROP, FLOOD))
    assert calls[0] == ("crop_yield", {"region": "Kent"})
    assert [args["year"] for name, args in calls if name == "flood_record"] == [1947, 1998]


LOAN = model_tool(
    "loan_payment",
    "Monthly payment of a loan.",
    {"amount": {"type": "number"}, "rate": {"type": "number"}, "months": {"type": "integer"}},
    ("amount", "rate", "months"),
)
PARCEL = model_tool(
    "parcel_quote",
    "Quote for posting a parcel.",
    {"kilos": {"type": "number"}, "country": TEXT, "insured": {"type": "boolean"}},
    ("kilos", "country"),
)


def test_labelled_sets_part_at_the_strongest_mark() -> None:
    text = "Payments for: amount 8000, rate 0.07, 24 months; amount 1500, rate 0.03, 6 months."
    assert bind_all(LOAN, text) == [
        {"amount": 8000, "rate": 0.07, "months": 24},
        {"amount": 1500, "rate": 0.03, "months": 6},
    ]


def test_a_clause_for_each_call_after_the_last_set_holds_for_all() -> None:
    calls = bind_all(PARCEL, "Quote 4 kg to Chile and 9 kg to Peru, both insured.")
    assert [(call["country"], call.get("insured")) for call in calls] == [("Chile", True), ("Peru", True)]


MONEY = model_tool(
    "swap_money",
    "Change money from one currency into another.",
    {
        "amount": {"type": "number"},
        "sell": {"type": "string", "description": "Currency sold, ISO code"},
        "buy": {"type": "string", "description": "Currency bought, ISO code"},
    },
    ("amount", "sell", "buy"),
)
SEATS = model_tool(
    "reserve_seats",
    "在餐厅预订座位",
    {
        "restaurant": {"type": "string", "description": "餐厅名称"},
        "people": {"type": "integer", "description": "人数"},
    },
    ("restaurant", "people"),
)


def test_a_required_value_said_once_after_the_last_item_holds_for_every_item() -> None:
    want = [{"amount": 50, "sell": "GBP", "buy": "CNY"}, {"amount": 80, "sell": "USD", "buy": "CNY"}]
    assert bind_all(MONEY, "Change 50 GBP and 80 USD into CNY") == want
    assert [arguments for _, arguments in _calls("把50英镑和80美元换成人民币", (MONEY,))] == want


def test_a_value_another_request_for_the_tool_gives_is_not_this_ones() -> None:
    assert _calls("帮我在海底捞订4个人的位子，再在全聚德订6个人的位子", (SEATS,)) == [
        ("reserve_seats", {"restaurant": "海底捞", "people": 4}),
        ("reserve_seats", {"restaurant": "全聚德", "people": 6}),
    ]


def test_a_request_on_each_line_is_its_own_intent() -> None:
    assert _calls("Ferry times from Dover\nHarvest figures for Kent in 2020", (FERRY, CROP)) == [
        ("ferry_times", {"port": "Dover"}),
        ("crop_yield", {"region": "Kent", "year": 2020}),
    ]


def test_a_chinese_place_jieba_tags_otherwise_is_a_place_when_listed_beside_one() -> None:
    assert bind_all(FERRY, "查一下威海、大连和烟台的渡轮时刻") == [
        {"port": "威海"},
        {"port": "大连"},
        {"port": "烟台"},
    ]


def test_single_quotes_beside_chinese_characters_are_quotes() -> None:
    assert bind_all(SIGN, "用手语比划'谢谢你'和'晚安'") == [{"phrase": "谢谢你"}, {"phrase": "晚安"}]
