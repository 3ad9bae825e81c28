"""Tool retrieval (BM25, dense, hybrid), Recall@k and MRR in English, Chinese and across the two,
group routing, the catalogue for dynamic injection, and deferred loading on a large catalogue."""

import json
from pathlib import Path

import pytest

from wirelab.tool_retrieval import (
    METHODS,
    GroupRouter,
    ToolIndex,
    bfcl_catalogue,
    catalogue,
    finder,
    listing_tokens,
    load_catalogue,
    mean_reciprocal_rank,
    recall,
    recall_at_k,
    retrieval_table,
    tool_search,
    tool_text,
    tool_tokens,
)
from wirelab.tools import ToolRegistry, tool


def book_flight(origin: str, destination: str) -> str:
    """Book a flight between two airports.

    Args:
        origin: Departure airport.
        destination: Arrival airport.
    """
    return "booked"


def refund_invoice(invoice_id: str) -> str:
    """Refund an invoice to the customer's card.

    Args:
        invoice_id: The invoice, e.g. inv_12.
    """
    return "refunded"


def get_weather(city: str) -> str:
    """Current weather for a city. Uses a public API.

    Args:
        city: City name.
    """
    return "sunny"


TOOLS = [tool(f) for f in (book_flight, refund_invoice, get_weather)]


def test_a_tools_text_holds_its_name_words_description_and_parameters():
    text = tool_text(TOOLS[0])
    assert text.startswith("book flight Book a flight") and "Departure airport" in text


def test_search_ranks_the_fitting_tool_first():
    index = ToolIndex(TOOLS)
    for method in METHODS:
        assert index.search("I need a refund for invoice inv_3", k=2, method=method)[0] == "refund_invoice"
        assert index.search("a flight from Oslo to Rome", k=1, method=method) == ["book_flight"]


def test_bm25_returns_nothing_for_a_request_sharing_no_word_with_any_tool():
    assert ToolIndex(TOOLS).search("xylophone", k=3, method="bm25") == []


def test_the_index_gives_a_registry_ready_for_the_loop():
    assert ToolIndex(TOOLS).registry("weather in Paris", k=1).names == ["get_weather"]


def test_recall_is_the_share_of_expected_tools_found():
    assert recall(["a", "b"], ["b", "c"]) == 0.5
    assert recall([], ["a"]) == 0.0


def test_recall_at_k_averages_over_cases_and_grows_with_k():
    cases = [
        {"request": "refund invoice inv_1", "tools": ["refund_invoice"]},
        {"request": "weather in Oslo and book a flight", "tools": ["get_weather", "book_flight"]},
    ]
    index = ToolIndex(TOOLS)
    assert recall_at_k(index.retriever("bm25"), cases, k=1) == 0.75
    assert recall_at_k(index.retriever("bm25"), cases, k=3) == 1.0
    assert mean_reciprocal_rank(index.retriever("bm25"), cases) == 1.0


@pytest.mark.parametrize(
    "bad",
    [
        lambda: recall(["a"], []),
        lambda: recall_at_k(lambda r, k: [], [], 1),
        lambda: ToolIndex([]),
        lambda: ToolIndex(TOOLS).search("x", k=0),
        lambda: ToolIndex(TOOLS).search("x", k=1, method="semantic"),
        lambda: mean_reciprocal_rank(lambda r, k: [], []),
        lambda: GroupRouter({}),
    ],
)
def test_empty_eval_sets_empty_indexes_and_k_below_one_are_refused(bad):
    with pytest.raises(ValueError):
        bad()


def test_the_router_picks_a_domain_by_its_description_and_tools():
    router = GroupRouter(
        {
            "travel": ("Trips, flights and hotels.", TOOLS[:1]),
            "billing": ("Invoices, payments and refunds.", TOOLS[1:2]),
        }
    )
    assert router.route("I was charged twice, refund me") == "billing"
    assert router.registry("book a trip to Rome").names == ["book_flight"]
    assert router.route("xylophone") is None and len(router.registry("xylophone")) == 0


def test_the_catalogue_is_one_short_line_per_tool():
    assert catalogue(TOOLS).splitlines() == [
        "book_flight: Book a flight between two airports",
        "refund_invoice: Refund an invoice to the customer's card",
        "get_weather: Current weather for a city",
    ]


def test_the_finder_adds_the_full_schemas_of_the_tools_it_finds_once():
    active = ToolRegistry()
    find = finder(ToolIndex(TOOLS), active, k=1)
    active.add(find)
    assert "get_weather: Current weather for a city" in find.description
    assert find(query="weather in Oslo") == {
        "loaded": ["get_weather"],
        "now_available": ["find_tools", "get_weather"],
    }
    assert find(query="weather in Rome")["loaded"] == []


def test_lexical_retrieval_knows_no_synonyms_and_no_other_language():
    index = ToolIndex(TOOLS)
    assert index.search("fly to Rome", k=3, method="bm25") == []
    assert index.search("明天会下雨吗？", k=3, method="bm25") == []  # "will it rain tomorrow?"


def test_the_encoder_finds_a_tool_by_meaning_in_another_language():
    index = ToolIndex(TOOLS)
    for method in ("dense", "hybrid"):
        assert index.search("明天会下雨吗？", k=1, method=method) == ["get_weather"]
        assert index.search("I want my money back for inv_9", k=1, method=method) == ["refund_invoice"]


ASSETS = Path(__file__).resolve().parents[1] / "assets"


def everything(name: str) -> ToolIndex:
    return ToolIndex(t for _, tools in load_catalogue(ASSETS / name).values() for t in tools)


def eval_cases(name: str) -> list[dict]:
    return json.loads((ASSETS / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, dict[str, float]]]:
    english, chinese = everything("tool_catalogue.json"), everything("tool_catalogue_zh.json")
    cases, cases_zh = eval_cases("tool_retrieval_eval.json"), eval_cases("tool_retrieval_eval_zh.json")
    return {
        "en": retrieval_table(english, cases),
        "zh": retrieval_table(chinese, cases_zh),
        "cross": retrieval_table(english, cases_zh),
    }


def test_the_chinese_eval_set_asks_every_english_request_with_the_same_tools():
    cases, cases_zh = eval_cases("tool_retrieval_eval.json"), eval_cases("tool_retrieval_eval_zh.json")
    assert [c["tools"] for c in cases_zh] == [c["tools"] for c in cases]
    assert [c["english"] for c in cases_zh] == [c["request"] for c in cases]


@pytest.mark.parametrize("setting", ["en", "zh", "cross"])
def test_hybrid_retrieval_reaches_recall_at_3_of_95_percent_in_each_language(tables, setting):
    assert tables[setting]["hybrid"]["Recall@3"] >= 0.95


def test_across_languages_bm25_finds_few_tools_and_the_encoder_most(tables):
    assert tables["cross"]["bm25"]["Recall@3"] < 0.5 < 0.95 <= tables["cross"]["dense"]["Recall@3"]


def test_tool_search_lists_no_tool_and_loads_what_it_finds_into_the_active_registry():
    active = ToolRegistry()
    search = tool_search(ToolIndex(TOOLS), active, k=1)
    active.add(search)
    assert "get_weather" not in search.description
    assert search(query="明天会下雨吗？")["loaded"] == ["get_weather"]
    assert active.names == ["tool_search", "get_weather"]


def test_schemas_cost_more_tokens_than_names_and_descriptions():
    assert listing_tokens(TOOLS) < tool_tokens(TOOLS)
    assert tool_tokens([]) == listing_tokens([]) == 0


def test_the_large_catalogue_holds_over_two_hundred_tools_and_a_case_per_request():
    tools, cases = bfcl_catalogue()
    names = {t.name for t in tools}
    assert len(tools) >= 200 and len(names) == len(tools)
    assert all(set(case["tools"]) <= names for case in cases)
