"""An ordinal before the thing an integer parameter names gives its place ("the second slide" for
`slide`, 第三页 for `page`), and its word is no other parameter's value; an ordinal before another
thing gives nothing, so the model still asks. On tools invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool

SLIDES = Tool(
    "open_slide",
    "Open a slide of a presentation.",
    {
        "type": "object",
        "properties": {
            "deck": {"type": "string", "description": "Deck file name"},
            "slide": {"type": "integer"},
        },
        "required": ["deck", "slide"],
    },
)
PAGES = Tool(
    "fetch_results",
    "Fetch search results, paginated.",
    {
        "type": "object",
        "properties": {"page": {"type": "integer", "description": "Page index"}},
        "required": ["page"],
    },
)


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (SLIDES, "open the seventh slide of roadmap.pptx", {"deck": "roadmap.pptx", "slide": 7}),
        (PAGES, "now the second page please", {"page": 2}),
        (PAGES, "翻到第三页", {"page": 3}),
        (PAGES, "看看结果的第十二页", {"page": 12}),
    ],
)
def test_an_ordinal_gives_the_place_of_the_thing_it_names(
    tool: Tool, request_text: str, expected: dict
) -> None:
    assert bind(tool, request_text, guess=False) == expected


def test_an_ordinal_of_another_thing_gives_no_value() -> None:
    assert "page" not in bind(PAGES, "the first result on any page", guess=False)


def test_any_ordinal_gives_a_position() -> None:
    schema = {
        "type": "object",
        "properties": {"k": {"type": "integer", "description": "Index in the series"}},
    }
    lucas = Tool("lucas_number", "A Lucas number.", schema | {"required": ["k"]})
    assert bind(lucas, "the ninth Lucas number", guess=False) == {"k": 9}
