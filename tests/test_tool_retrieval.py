"""Tool retrieval, Recall@k, group routing and the catalogue for dynamic injection."""

import pytest

from wirelab.tool_retrieval import GroupRouter, ToolIndex, catalogue, finder, recall, recall_at_k, tool_text
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
    assert index.search("I need a refund for invoice inv_3", k=2)[0] == "refund_invoice"
    assert index.search("a flight from Oslo to Rome", k=1) == ["book_flight"]


def test_search_returns_nothing_for_a_request_sharing_no_word_with_any_tool():
    assert ToolIndex(TOOLS).search("xylophone", k=3) == []


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
    assert recall_at_k(index.search, cases, k=1) == 0.75
    assert recall_at_k(index.search, cases, k=3) == 1.0


@pytest.mark.parametrize(
    "bad",
    [
        lambda: recall(["a"], []),
        lambda: recall_at_k(lambda r, k: [], [], 1),
        lambda: ToolIndex([]),
        lambda: ToolIndex(TOOLS).search("x", k=0),
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


def test_lexical_retrieval_knows_no_synonyms():
    assert ToolIndex(TOOLS).search("fly to Rome", k=3) == []
