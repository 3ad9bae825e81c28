"""A tool's own words are words, not its punctuation: a comma or a full stop in a description
does not change what a free-text parameter reads from a request. On a tool invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool

TEXTS = ["In the lab today, search for dried ferns", "look up mosses, then lichens", "Pressed fern. Dried"]


def _herbarium(description: str) -> Tool:
    query = {"type": "string", "description": "What to look for"}
    schema = {"type": "object", "properties": {"query": query}, "required": ["query"]}
    return Tool("search_herbarium", description, schema)


@pytest.mark.parametrize("text", TEXTS)
def test_a_comma_in_the_description_changes_nothing_read(text: str) -> None:
    marked = _herbarium("Search the herbarium, by keyword.")
    assert bind(marked, text) == bind(_herbarium("Search the herbarium by keyword"), text)
