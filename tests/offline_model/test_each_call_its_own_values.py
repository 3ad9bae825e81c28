"""Each call keeps its own values (invented tools): a later request's own place, written
after the same word as the one before's, is its own; amounts each followed by a currency are
sets; a place said twice in a row ends one leg and starts the next."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

TABLE = model_tool(
    "book_table",
    "在餐馆订座。",
    {"restaurant": {"type": "string", "description": "餐馆名"}, "people": {"type": "integer"}},
    ("restaurant", "people"),
)
POND = model_tool(
    "feed_pond",
    "Scatter pellets into a garden pond.",
    {"pond": {"type": "string", "description": "which pond"}, "grams": {"type": "number"}},
    ("pond", "grams"),
)
CASH = model_tool(
    "exchange",
    "Exchange money from one currency to another.",
    {
        "amount": {"type": "number", "description": "Amount to convert"},
        "from_currency": {"type": "string", "description": "ISO code to convert from"},
        "to_currency": {"type": "string", "description": "ISO code to convert to"},
    },
    ("amount", "from_currency", "to_currency"),
)
LEG = model_tool(
    "cycle_route",
    "Plan a cycling route between two towns.",
    {"origin": {"type": "string"}, "destination": {"type": "string"}},
    ("origin", "destination"),
)


def _calls(text: str, tool) -> list[dict]:
    return [dict(item.arguments) for item in bind_plan(plan(text, (tool,)))]


def test_a_later_request_keeps_its_own_place_written_after_the_same_word() -> None:
    assert [c["restaurant"] for c in _calls("在松鹤楼订4个人，在老正兴订7个人。", TABLE)] == [
        "松鹤楼",
        "老正兴",
    ]
    said = _calls("在松鹤楼订4个人的桌子，再在老正兴订7个人的桌子。", TABLE)
    assert [(c["restaurant"], c["people"]) for c in said] == [("松鹤楼", 4), ("老正兴", 7)]
    assert [c["pond"] for c in bind_all(POND, "给荷花池喂6克，给小鱼塘喂9克。")] == ["荷花池", "小鱼塘"]


def test_amounts_each_followed_by_a_currency_are_two_sets() -> None:
    calls = bind_all(CASH, "把80英镑和45欧元兑换成美元。")
    assert [(c["amount"], c["from_currency"], c["to_currency"]) for c in calls] == [
        (80, "GBP", "USD"),
        (45, "EUR", "USD"),
    ]


def test_a_town_said_twice_in_a_row_ends_one_leg_and_starts_the_next() -> None:
    calls = bind_all(LEG, "Routes from Arles to Nimes, Nimes to Uzes, and Uzes to Ales.")
    assert [(c["origin"], c["destination"]) for c in calls] == [
        ("Arles", "Nimes"),
        ("Nimes", "Uzes"),
        ("Uzes", "Ales"),
    ]


def test_one_request_with_a_name_and_its_region_stays_one_call() -> None:
    [call] = bind_all(LEG, "Route from Tours, France to Blois.")
    assert call["origin"].startswith("Tours") and call["destination"] == "Blois"


SOUP = model_tool(
    "soup_recipe",
    "Find a soup recipe by its main vegetable.",
    {"vegetable": {"type": "string", "description": "main vegetable"}},
    ("vegetable",),
)


def test_a_sentence_that_asks_again_with_other_loose_words_is_a_call_of_its_own() -> None:
    calls = _calls("A soup recipe with leek. A soup recipe with parsnip.", SOUP)
    assert [c["vegetable"] for c in calls] == ["leek", "parsnip"]
    calls = _calls("Soup recipe for a turnip, and soup recipe for a beetroot.", SOUP)
    assert [c["vegetable"] for c in calls] == ["turnip", "beetroot"]


def test_a_sentence_that_only_says_more_stays_one_call() -> None:
    assert len(_calls("A soup recipe with leek. The soup should be thick.", SOUP)) == 1
