"""A Chinese compound the lexicon does not know means what its two known parts mean: 火车票 is a
train ticket as "train ticket" is, so a request for one finds a tool described in English."""

from __future__ import annotations

import json

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.lexicon import concept, concepts_in
from wirelab.offline_model.selection import concepts_of

RAIL = tool(
    "book_rail_ticket",
    "Book a rail ticket.",
    {"destination": {"type": "string"}, "count": {"type": "integer"}},
    ("destination",),
)


def test_an_unknown_compound_adds_the_concepts_of_its_known_parts():
    assert concepts_in("火车票", True) == ["火车票", concept("火车"), concept("票")]
    assert concepts_in("火车", True) == [concept("火车")]  # a word the lexicon knows is itself alone
    assert concepts_in("爵士乐", True) == ["爵士乐"]  # no two known parts: nothing added
    assert concepts_of("tickets") == [concept("tickets")]  # only Chinese is written without spaces
    assert concepts_of("买火车票") == [
        concept("买"),
        "火车票",
        concept("火车"),
        concept("票"),
    ]  # from the tokens


def test_a_chinese_request_for_a_compound_finds_the_english_tool():
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": "买两张去杭州的火车票"}]}
    message = complete({**body, "tools": [RAIL]})["choices"][0]["message"]
    assert [json.loads(c["function"]["arguments"])["destination"] for c in message["tool_calls"]] == ["杭州"]
